package bots

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// TestPositionKeepsItsExtras: however a position is played (checked moves
// through the contract, or the playout policy's own steps), its extras are
// what a recount from the board makes them.
func TestPositionKeepsItsExtras(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, players := range []int{2, 3, 4} {
		s := newPosition(t, players, uint64(players))
		for step := 0; !s.Over(); step++ {
			if step%2 == 0 {
				moves := game.Legal(s)
				if err := s.Play(moves[r.IntN(len(moves))]); err != nil {
					t.Fatal(err)
				}
			} else {
				s.playoutStep(r, nil)
			}
			want := *s
			want.recount()
			if s.islands != want.islands || s.reached != want.reached || s.ply != want.ply {
				t.Fatalf("%d players, step %d: the extras drifted from the board", players, step)
			}
		}
	}
}

func TestPositionCopiesWithoutAllocating(t *testing.T) {
	start := newPosition(t, 2, 1)
	var s game.State = start.Clone()
	r := rand.New(rand.NewPCG(1, 1))
	allocs := testing.AllocsPerRun(100, func() {
		s.CopyFrom(start)
		s.Resample(0, r)
		s.(*Position).Playout(r)
	})
	if allocs != 0 {
		t.Errorf("a copy, a resample and a playout allocate %v times, want 0", allocs)
	}
}

// TestSearchAllocatesNothingASimulation: a search's allocations do not grow
// with its simulations (the tree's nodes grow by doubling, so a few more for
// many more simulations), as docs/performance.md says.
func TestSearchAllocatesNothingASimulation(t *testing.T) {
	pos := newPosition(t, 2, 1)
	count := func(sims int) float64 {
		return testing.AllocsPerRun(3, func() {
			s := mcts.New(mcts.Config{Workers: 1, Seed: 1})
			if _, err := s.Search(context.Background(), pos, mcts.Budget{Simulations: sims}); err != nil {
				t.Fatal(err)
			}
		})
	}
	few, many := count(500), count(4000)
	t.Logf("%v allocations for 500 simulations, %v for 4000", few, many)
	if many-few > 100 {
		t.Errorf("%v allocations for 500 simulations, %v for 4000: the search allocates as it simulates", few, many)
	}
}

func TestBotsPlayWholeGames(t *testing.T) {
	for _, bot := range []interface {
		Name() string
		Move(context.Context, game.State) (game.Move, error)
	}{NewGreedy("greedy", 0, 1), NewGreedy("easy", 0.5, 1), NewHeuristic(1)} {
		st, err := bluelagoon.Rules.NewGame(game.Setup{Players: 3, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		for !st.Over() {
			before := st.String()
			m, err := bot.Move(context.Background(), st)
			if err != nil {
				t.Fatalf("%s: %v", bot.Name(), err)
			}
			if st.String() != before {
				t.Fatalf("%s changed the state it was given", bot.Name())
			}
			if err := st.Play(m); err != nil {
				t.Fatalf("%s: %v", bot.Name(), err)
			}
		}
		if _, err := bot.Move(context.Background(), st); !errors.Is(err, ErrGameOver) {
			t.Errorf("%s in a finished game: %v, want ErrGameOver", bot.Name(), err)
		}
	}
}

func TestOtherGamesAreRefused(t *testing.T) {
	st, err := gametest.Tiny.NewGame(game.Setup{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPosition(st); err == nil {
		t.Error("a position was made of a game of Tiny")
	}
	if _, err := NewHeuristic(1).Move(context.Background(), st); err == nil {
		t.Error("heuristic moved in a game of Tiny")
	}
}
