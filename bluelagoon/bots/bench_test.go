package bots

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

// newPosition returns the search's position at the start of a two-player
// game on the standard board.
func newPosition(t testing.TB, players int, seed uint64) *Position {
	t.Helper()
	st, err := bluelagoon.Rules.NewGame(game.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPosition(st)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// BenchmarkMCTS measures simulations per second on the standard board with
// two players, with one worker and with two, in positions through a game:
// the first move (the longest playouts), the 30th and 60th moves of the
// exploration phase, and the 10th move of the settlement phase. The
// positions come from a seeded game played with the playout policy.
func BenchmarkMCTS(b *testing.B) {
	at := map[string]*Position{}
	s := newPosition(b, 2, 1)
	r := rand.New(rand.NewPCG(5, 5))
	for ply := 0; !s.Over(); ply++ {
		switch {
		case ply == 0:
			at["move=1"] = s.Clone().(*Position)
		case ply == 30:
			at["move=31"] = s.Clone().(*Position)
		case ply == 60 && s.Phase() == bluelagoon.Exploration:
			at["move=61"] = s.Clone().(*Position)
		case s.ply == settlementPly+10:
			at["settlement+10"] = s.Clone().(*Position)
		}
		s.playoutStep(r, nil)
	}
	for _, name := range []string{"move=1", "move=31", "move=61", "settlement+10"} {
		pos := at[name]
		if pos == nil {
			b.Fatalf("the game has no position %s", name)
		}
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", name, workers), func(b *testing.B) {
				const sims = 2000
				sum := 0
				for b.Loop() {
					s := mcts.New(mcts.Config{Workers: workers, Seed: 1})
					res, err := s.Search(context.Background(), pos, mcts.Budget{Simulations: sims})
					if err != nil {
						b.Fatal(err)
					}
					sum += res.Simulations
				}
				b.ReportMetric(float64(sum)/b.Elapsed().Seconds(), "sims/s")
			})
		}
	}
}

// BenchmarkMCTSGame measures simulations per second over a whole game: both
// seats search 1000 simulations a move, one worker each, keeping their trees
// as the bots do, from the first move to the last; and the memory that
// takes.
func BenchmarkMCTSGame(b *testing.B) {
	start := newPosition(b, 2, 1)
	sum := 0
	b.ReportAllocs()
	for b.Loop() {
		searchers := []*mcts.Searcher{
			mcts.New(mcts.Config{Workers: 1, Seed: 1}),
			mcts.New(mcts.Config{Workers: 1, Seed: 2}),
		}
		s := start.Clone().(*Position)
		for !s.Over() {
			res, err := searchers[s.Current()].Search(context.Background(), s, mcts.Budget{Simulations: 1000})
			if err != nil {
				b.Fatal(err)
			}
			sum += res.Simulations
			if err := s.Play(res.Move); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(sum)/b.Elapsed().Seconds(), "sims/s")
}

// BenchmarkPlayout plays out from the start with the playout policy, the
// bulk of a simulation's work: with the small budgets' policy the
// exploration phase (the cut), with the large budgets' the whole game.
func BenchmarkPlayout(b *testing.B) {
	for _, pc := range []struct {
		name string
		pol  *Policy
	}{{"small", &SmallPolicy}, {"large", &LargePolicy}} {
		b.Run(pc.name, func(b *testing.B) {
			start := newPosition(b, 2, 1)
			start.use(pc.pol)
			s := start.Clone()
			r := rand.New(rand.NewPCG(1, 2))
			b.ReportAllocs()
			for b.Loop() {
				s.CopyFrom(start)
				s.Resample(0, r)
				s.(*Position).Playout(r)
			}
		})
	}
}

// BenchmarkMCTSLarge measures simulations per second at the first move as
// BenchmarkMCTS does, one worker, with the policy of large budgets
// (LargePolicy: whole playouts), which a time budget of 1 s plays.
func BenchmarkMCTSLarge(b *testing.B) {
	start := newPosition(b, 2, 1)
	start.use(&LargePolicy)
	sum := 0
	for b.Loop() {
		s := mcts.New(mcts.Config{Workers: 1, Seed: 1})
		res, err := s.Search(context.Background(), start, mcts.Budget{Simulations: 2000})
		if err != nil {
			b.Fatal(err)
		}
		sum += res.Simulations
	}
	b.ReportMetric(float64(sum)/b.Elapsed().Seconds(), "sims/s")
}
