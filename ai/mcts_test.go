package ai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/bluelagoon"
)

// lastMoves finds, in games played with the playout policy, a position in
// which every legal move ends the game, some win it for the player to move
// and some lose it, and where the winning moves satisfy want. It returns
// the position and its winning moves.
func lastMoves(t *testing.T, players int, want func(g *bluelagoon.Game, winning []bluelagoon.Move) bool) (*bluelagoon.Game, []bluelagoon.Move) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 1))
	for seed := uint64(1); seed < 2000; seed++ {
		g, err := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: players, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		s := newPosition(g)
		for !s.g.Over() {
			if win, ok := decisive(&s.g); ok && want(&s.g, win) {
				t.Logf("seed %d: %d of %d moves win", seed, len(win), s.g.NumLegalMoves())
				return s.g.Clone(), win
			}
			n := s.g.NumLegalMoves()
			s.Play(s.g.LegalMove(r.IntN(n)))
		}
	}
	t.Fatal("no position found")
	return nil, nil
}

// decisive reports whether every legal move ends the game, and returns the
// ones that the player to move wins alone, if some but not all do.
func decisive(g *bluelagoon.Game) ([]bluelagoon.Move, bool) {
	if g.Phase() != bluelagoon.Settlement {
		return nil, false
	}
	p := g.Current()
	moves := g.LegalMoves()
	var win []bluelagoon.Move
	for _, m := range moves {
		c := *g
		c.ApplyLegal(m)
		if !c.Over() {
			return nil, false
		}
		if w := c.Winners(); len(w) == 1 && w[0] == p {
			win = append(win, m)
		}
	}
	return win, len(win) > 0 && len(win) < len(moves)
}

func TestMCTSFindsTheWinningMove(t *testing.T) {
	for _, players := range []int{2, 3} {
		g, win := lastMoves(t, players, func(*bluelagoon.Game, []bluelagoon.Move) bool { return true })
		bot := NewMCTS("mcts", mcts.Budget{Simulations: 2000}, Options{Seed: 1, Workers: 2})
		m, err := bot.Move(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(win, m) {
			t.Errorf("%d players: played %v in %s; the winning moves are %v", players, m, g, win)
		}
	}
}

// TestMCTSTakesTheDecisiveToken plays positions where only taking a token
// that an opponent could also reach wins the game.
func TestMCTSTakesTheDecisiveToken(t *testing.T) {
	contested := func(g *bluelagoon.Game, win []bluelagoon.Move) bool {
		for _, m := range win {
			if _, ok := g.TokenAt(m.At); !ok {
				return false
			}
			near := false
			for _, c := range g.Board().Neighbours(m.At) {
				if q, _, ok := g.PieceAt(c); ok && q != g.Current() {
					near = true
				}
			}
			if !near {
				return false
			}
		}
		return true
	}
	g, win := lastMoves(t, 2, contested)
	bot := NewMCTS("mcts", mcts.Budget{Simulations: 2000}, Options{Seed: 2, Workers: 1})
	m, err := bot.Move(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(win, m) {
		t.Errorf("played %v in %s; only %v (taking a token) win", m, g, win)
	}
}

func TestMCTSIsReproducible(t *testing.T) {
	play := func() []bluelagoon.Move {
		bot := NewMCTS("mcts", mcts.Budget{Simulations: 300}, Options{Seed: 9, Workers: 2})
		g, _ := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 4})
		var moves []bluelagoon.Move
		for range 6 {
			m, err := bot.Move(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			g.ApplyLegal(m)
			moves = append(moves, m)
		}
		return moves
	}
	if a, b := play(), play(); !slices.Equal(a, b) {
		t.Errorf("same seed and budget, different games:\n%v\n%v", a, b)
	}
}

func TestMCTSRespectsItsIterationBudget(t *testing.T) {
	g, _ := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 4})
	bot := NewMCTS("mcts", mcts.Budget{Simulations: 250}, Options{Seed: 1, Workers: 2})
	res, err := bot.search.Search(context.Background(), newPosition(g), bot.budget)
	if err != nil {
		t.Fatal(err)
	}
	if res.Simulations != 250 || res.Reused != 0 {
		t.Errorf("ran %d simulations (%d reused); want 250 and none reused", res.Simulations, res.Reused)
	}
	if err := g.Check(res.Move); err != nil {
		t.Error(err)
	}
	// After the expected answer the next search starts from the subtree.
	g.ApplyLegal(res.Move)
	g.ApplyLegal(g.LegalMoves()[0])
	res, err = bot.search.Search(context.Background(), newPosition(g), bot.budget)
	if err != nil {
		t.Fatal(err)
	}
	if res.Simulations != 250 {
		t.Errorf("second search ran %d simulations, want 250", res.Simulations)
	}
	t.Logf("reused %d visits", res.Reused)
}

func TestMCTSKeepsTheTreeWhenTheGameGoesAsExpected(t *testing.T) {
	g, _ := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 4})
	bot := NewMCTS("mcts", mcts.Budget{Simulations: 2000}, Options{Seed: 1, Workers: 1})
	res, err := bot.search.Search(context.Background(), newPosition(g), bot.budget)
	if err != nil {
		t.Fatal(err)
	}
	g.ApplyLegal(res.Move)
	// The answer the tree explored most is surely in it.
	reply, err := bot.search.Search(context.Background(), newPosition(g), bot.budget)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Reused == 0 {
		t.Errorf("after its own move the bot started a new tree")
	}
	g.ApplyLegal(reply.Move)
	unrelated, _ := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 5})
	res, err = bot.search.Search(context.Background(), newPosition(unrelated), bot.budget)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reused != 0 {
		t.Errorf("reused %d visits in an unrelated game", res.Reused)
	}
}

func TestMCTSStopsWhenCancelled(t *testing.T) {
	g, _ := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 4, Seed: 4})
	bot := NewMCTS("mcts", mcts.Budget{Time: time.Hour}, Options{Seed: 1})

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := bot.Move(ctx, g); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the search: got %v, want context.Canceled", err)
	}

	// Cancelled during an hour-long search: it answers with what it has.
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	m, err := bot.Move(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Check(m); err != nil {
		t.Error(err)
	}
}

// BenchmarkMCTS measures simulations per second on the standard board with
// two players, with one worker and with two, in positions through a game:
// the first move (the longest playouts), the 30th and 60th moves of the
// exploration phase, and the 10th move of the settlement phase. The
// positions come from a seeded game played with the playout policy.
func BenchmarkMCTS(b *testing.B) {
	g, _ := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 1})
	at := map[string]*position{}
	s := newPosition(g)
	r := rand.New(rand.NewPCG(5, 5))
	for ply := 0; !s.Over(); ply++ {
		switch {
		case ply == 0:
			at["move=1"] = clonePosition(s)
		case ply == 30:
			at["move=31"] = clonePosition(s)
		case ply == 60 && s.g.Phase() == bluelagoon.Exploration:
			at["move=61"] = clonePosition(s)
		case s.ply == settlementPly+10:
			at["settlement+10"] = clonePosition(s)
		}
		s.playoutStep(r)
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
					s := mcts.New[position, bluelagoon.Move](mcts.Config{Workers: workers, Seed: 1})
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
// as the bots do, from the first move to the last.
func BenchmarkMCTSGame(b *testing.B) {
	g, _ := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 1})
	sum := 0
	for b.Loop() {
		searchers := []*mcts.Searcher[position, bluelagoon.Move, *position]{
			mcts.New[position, bluelagoon.Move](mcts.Config{Workers: 1, Seed: 1}),
			mcts.New[position, bluelagoon.Move](mcts.Config{Workers: 1, Seed: 2}),
		}
		s := newPosition(g)
		for !s.Over() {
			res, err := searchers[s.Current()].Search(context.Background(), s, mcts.Budget{Simulations: 1000})
			if err != nil {
				b.Fatal(err)
			}
			sum += res.Simulations
			s.Play(res.Move)
		}
	}
	b.ReportMetric(float64(sum)/b.Elapsed().Seconds(), "sims/s")
}

func clonePosition(s *position) *position {
	c := *s
	return &c
}

// BenchmarkPlayout plays whole games from the start with the playout
// policy, the bulk of a simulation's work.
func BenchmarkPlayout(b *testing.B) {
	g, _ := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 1})
	start := newPosition(g)
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		s := *start
		s.Resample(r)
		s.Playout(r)
	}
}
