package druids

import (
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

func TestContract(t *testing.T) {
	gametest.Check(t, Rules,
		game.Setup{Players: 2, Seed: 1},
		game.Setup{Players: 3, Seed: 10, Options: map[string]string{"set": "advanced", "start": "river"}},
		game.Setup{Players: 4, Seed: 20, Options: map[string]string{"set": "beginner", "start": "gruu", "first": "2"}},
		game.Setup{Players: 2, Seed: 30, Options: map[string]string{"set": "all", "start": "paradise"}},
	)
}
