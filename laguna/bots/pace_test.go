package bots

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
)

// TestPace: a paced planner says how long a decision takes at its level's
// pace, for its host to wait out, and answers at once whatever its
// context, never an error; an unpaced one keeps no pace. The bubble's
// clock is fake, so "at once" is exact.
func TestPace(t *testing.T) {
	st := newGame(t, 2, "easy", 1)
	legal := st.AppendLegal(nil)
	cases := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
	}{
		{"no deadline", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }},
		{"a deadline after its pace", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 2*time.Second)
		}},
		{"a context done already", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}},
	}
	for _, c := range cases {
		for _, paced := range []bool{false, true} {
			synctest.Test(t, func(t *testing.T) {
				b := NewLevel(Levels[0], 1, paced) // a decision a second
				if want := map[bool]time.Duration{false: 0, true: time.Second}[paced]; b.Pace() != want {
					t.Errorf("paced %v: Pace %v, want %v", paced, b.Pace(), want)
				}
				ctx, cancel := c.ctx()
				defer cancel()
				start := time.Now()
				m, err := b.Move(ctx, st)
				if err != nil {
					t.Fatalf("%s: %v, not a move", c.name, err)
				}
				if !slices.Contains(legal, m) {
					t.Errorf("%s: answered %s, not legal", c.name, st.MoveText(m))
				}
				if took := time.Since(start); took != 0 {
					t.Errorf("%s, paced %v: answered after %v, not at once", c.name, paced, took)
				}
			})
		}
	}
	for _, l := range Levels {
		if l.Pace <= 0 || l.StepsPerTurn() < 20 {
			t.Errorf("level %s: pace %v, %d steps a turn", l.Name, l.Pace, l.StepsPerTurn())
		}
	}
}

// TestSearchOnPosition: the generic search plays on the position and gets
// legal moves out of it, the playouts ending games.
func TestSearchOnPosition(t *testing.T) {
	st := newGame(t, 2, "easy", 3)
	pos, err := NewPosition(st)
	if err != nil {
		t.Fatal(err)
	}
	s := mcts.New(mcts.Config{Workers: 1, Seed: 1})
	for range 3 {
		res, err := s.Search(context.Background(), pos, mcts.Budget{Simulations: 200})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(pos.AppendLegal(nil), res.Move) {
			t.Fatalf("the search chose %s, not legal", pos.MoveText(res.Move))
		}
		if err := pos.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
}
