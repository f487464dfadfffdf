package bots

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
)

// TestPace: a paced planner answers no sooner than its pace allows; when
// its context's deadline comes first it hurries, answering a legal move
// hurryMargin before the deadline, or at once when its context is done,
// never an error. The bubble's clock is fake, so the times are exact.
func TestPace(t *testing.T) {
	st := newGame(t, 2, "easy", 1)
	legal := st.AppendLegal(nil)
	cases := []struct {
		name string
		// ctx makes the context, given the time of the call.
		ctx  func() (context.Context, context.CancelFunc)
		want time.Duration
	}{
		{"no deadline", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, time.Second},
		{"a deadline after its pace", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 2*time.Second)
		}, time.Second},
		{"a deadline before its pace", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 400*time.Millisecond)
		}, 400*time.Millisecond - hurryMargin},
		{"a deadline within the margin", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), hurryMargin/2)
		}, 0},
		{"a context done already", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, 0},
		{"a context cancelled while it waits", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(300*time.Millisecond, cancel)
			return ctx, cancel
		}, 300 * time.Millisecond},
	}
	for _, c := range cases {
		synctest.Test(t, func(t *testing.T) {
			b := NewLevel(Levels[0], 1, true) // a decision a second
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
			if took := time.Since(start); took != c.want {
				t.Errorf("%s: answered after %v, want %v", c.name, took, c.want)
			}
		})
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
