package mcts

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// nim is the game of Nim on one heap, for any number of players: each in
// turn takes 1 to 3 stones, and whoever takes the last stone wins. With two
// players, leaving a multiple of 4 wins.
type nim struct {
	stones, players, current, ply int
	winner                        int
}

func (n *nim) Players() int { return n.players }
func (n *nim) Current() int { return n.current }
func (n *nim) Over() bool   { return n.stones == 0 }
func (n *nim) Ply() int     { return n.ply }

func (n *nim) AppendMoves(dst []int) []int {
	for k := 1; k <= min(3, n.stones); k++ {
		dst = append(dst, k)
	}
	return dst
}

func (n *nim) Prior(int) float64 { return 0 }

func (n *nim) Play(k int) {
	n.stones -= k
	n.ply++
	if n.stones == 0 {
		n.winner = n.current
		return
	}
	n.current = (n.current + 1) % n.players
}

func (n *nim) Resample(*rand.Rand) {}

func (n *nim) Playout(r *rand.Rand) {
	for !n.Over() {
		n.Play(1 + r.IntN(min(3, n.stones)))
	}
}

func (n *nim) Rewards(r *[MaxPlayers]float64) {
	for p := range n.players {
		r[p] = 0
	}
	r[n.winner] = 1
}

func (n *nim) Leads(k int, later *nim) bool { return n.stones-k >= later.stones }

func TestNimWinningMoves(t *testing.T) {
	s := New[nim, int](Config{Seed: 1, Workers: 2})
	for stones := 5; stones <= 15; stones++ {
		if stones%4 == 0 {
			continue
		}
		s.Reset()
		res, err := s.Search(context.Background(), &nim{stones: stones, players: 2}, Budget{Simulations: 20000})
		if err != nil {
			t.Fatal(err)
		}
		if (stones-res.Move)%4 != 0 {
			t.Errorf("%d stones: took %d, want %d", stones, res.Move, stones%4)
		}
		if res.Simulations != 20000 {
			t.Errorf("%d stones: %d simulations, want 20000", stones, res.Simulations)
		}
	}
}

func TestTreeIsKeptAlongThePlayedLine(t *testing.T) {
	s := New[nim, int](Config{Seed: 1, Workers: 1})
	g := nim{stones: 14, players: 3}
	res, err := s.Search(context.Background(), &g, Budget{Simulations: 3000})
	if err != nil {
		t.Fatal(err)
	}
	g.Play(res.Move)
	g.Play(1)
	g.Play(1)
	again, err := s.Search(context.Background(), &g, Budget{Simulations: 10})
	if err != nil {
		t.Fatal(err)
	}
	if again.Reused == 0 {
		t.Error("the tree was not kept along the line played")
	}
	// A position the tree never saw starts afresh.
	other, err := s.Search(context.Background(), &nim{stones: 30, players: 3}, Budget{Simulations: 10})
	if err != nil {
		t.Fatal(err)
	}
	if other.Reused != 0 {
		t.Errorf("reused %d visits for an unrelated position", other.Reused)
	}
}

func TestBadSearches(t *testing.T) {
	s := New[nim, int](Config{})
	if _, err := s.Search(context.Background(), &nim{stones: 5, players: 2}, Budget{}); err == nil {
		t.Error("an empty budget was accepted")
	}
	if _, err := s.Search(context.Background(), &nim{players: 2}, Budget{Simulations: 10}); err != ErrNoMoves {
		t.Errorf("finished game: got %v, want ErrNoMoves", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Search(ctx, &nim{stones: 9, players: 2}, Budget{Simulations: 1000}); err != context.Canceled {
		t.Errorf("cancelled: got %v, want context.Canceled", err)
	}
}

// A deadline that has passed by the time the workers start (one nanosecond
// has, always) still leaves each worker one simulation and the search a move.
func TestSearchThatBeganAnswers(t *testing.T) {
	for _, workers := range []int{1, 2} {
		s := New[nim, int](Config{Workers: workers, Seed: 1})
		res, err := s.Search(context.Background(), &nim{stones: 9, players: 2}, Budget{Time: time.Nanosecond})
		if err != nil {
			t.Fatalf("%d workers: %v, want a move", workers, err)
		}
		if res.Simulations < workers || res.Move < 1 || res.Move > 3 {
			t.Errorf("%d workers: %+v, want a legal move after at least one simulation a worker", workers, res)
		}
	}
}

// pick is a one-move game: player 0 picks one of n moves and the game is
// over. The prior ranks the moves 0, 1, 2, ... best first; only the last move
// wins.
type pick struct {
	n, picked int
	over      bool
}

func (g *pick) Players() int          { return 2 }
func (g *pick) Current() int          { return 0 }
func (g *pick) Over() bool            { return g.over }
func (g *pick) Ply() int              { return 0 }
func (g *pick) Prior(k int) float64   { return -float64(k) }
func (g *pick) Play(k int)            { g.picked, g.over = k, true }
func (g *pick) Resample(*rand.Rand)   {}
func (g *pick) Playout(*rand.Rand)    {}
func (g *pick) Leads(int, *pick) bool { return false }
func (g *pick) AppendMoves(dst []int) []int {
	if g.over {
		return dst
	}
	for k := range g.n {
		dst = append(dst, k)
	}
	return dst
}

func (g *pick) Rewards(r *[MaxPlayers]float64) {
	r[0], r[1] = 0, 1
	if g.picked == g.n-1 {
		r[0], r[1] = 1, 0
	}
}

// rootChildren returns the moves of the root's children in the order they
// were added.
func rootChildren(s *Searcher[pick, int, *pick]) []int {
	t := s.trees[0]
	var out []int
	for c := t.nodes[t.root].child; c >= 0; c = t.nodes[c].next {
		out = append([]int{t.nodes[c].move}, out...)
	}
	return out
}

func TestWideningFollowsThePrior(t *testing.T) {
	s := New[pick, int](Config{Seed: 1, Workers: 1})
	if _, err := s.Search(context.Background(), &pick{n: 20}, Budget{Simulations: 10}); err != nil {
		t.Fatal(err)
	}
	// After 10 simulations the root may have 1+sqrt(9) = 4 children: the 4
	// best by prior, best first.
	if got := rootChildren(s); len(got) != 4 || got[0] != 0 || got[1] != 1 || got[2] != 2 || got[3] != 3 {
		t.Errorf("children after 10 simulations: %v, want [0 1 2 3]", got)
	}

	// With enough simulations every move becomes a child, past the first
	// block of candidates, and the one winning move, the worst by prior,
	// is found.
	s.Reset()
	res, err := s.Search(context.Background(), &pick{n: 20}, Budget{Simulations: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if got := rootChildren(s); len(got) != 20 {
		t.Errorf("%d children after 3000 simulations, want all 20: %v", len(got), got)
	}
	for k, m := range rootChildren(s) {
		if m != k {
			t.Errorf("child %d is move %d: children are not added in the order of the prior", k, m)
			break
		}
	}
	if res.Move != 19 {
		t.Errorf("chose %d, want the winning move 19", res.Move)
	}
}
