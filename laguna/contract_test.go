package laguna

import (
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// TestContract holds Laguna to every promise of the contract, on both
// boards, every player count and every variant.
func TestContract(t *testing.T) {
	opts := func(kv ...string) map[string]string {
		m := map[string]string{"limit": "3"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	gametest.Check(t, Rules,
		game.Setup{Players: 2, Options: opts(), Seed: 1},
		game.Setup{Players: 3, Options: opts("board", "hard"), Seed: 10},
		game.Setup{Players: 4, Options: opts("raft", "5", "open", "on"), Seed: 20},
		game.Setup{Players: 2, Options: opts("deal", "players", "board", "hard"), Seed: 30},
		game.Setup{Players: 3, Options: opts("timer", "off", "deal", "players"), Seed: 40},
	)
}
