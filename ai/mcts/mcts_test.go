package mcts

import (
	"context"
	"math/rand/v2"
	"testing"
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
