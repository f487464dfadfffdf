package bots

import (
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// BenchmarkTables works out a board's tables: what a planner that forgot a
// square pays to plan on what it believes.
func BenchmarkTables(b *testing.B) {
	hard := laguna.BoardByName("hard")
	for range b.N {
		newTables(hard)
	}
}

// BenchmarkPlayout plays a two-player game on the hard board from its start
// to its end with the playout policy: what one of the search's simulations
// costs.
func BenchmarkPlayout(b *testing.B) {
	st, err := laguna.Rules.NewGame(game.Setup{Players: 2, Options: map[string]string{"board": "hard"}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	start, err := NewPosition(st)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var pos Position
	for range b.N {
		pos.CopyFrom(start)
		pos.Playout(r)
	}
}

// BenchmarkPlanner plays a two-player game on the hard board between hard
// planners from its start to its end: what the planner's decisions cost.
func BenchmarkPlanner(b *testing.B) {
	for range b.N {
		seats := []mover{planner(b, "hard", 1), planner(b, "hard", 2)}
		if std, _ := play(b, seats, "hard", 150, 1); len(std.Winners) == 0 {
			b.Fatalf("no winner: %+v", std)
		}
	}
}
