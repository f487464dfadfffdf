package bots

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
)

// TestPace: a paced planner answers no sooner than its pace allows, and
// gives up when its context is done first.
func TestPace(t *testing.T) {
	l := Levels[0]
	l.Pace = 20 // 50 ms a decision
	b := NewLevel(l, 1, true)
	st := newGame(t, 2, "easy", 1)
	start := time.Now()
	if _, err := b.Move(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < b.Delay() {
		t.Errorf("answered after %v, before its pace's %v", d, b.Delay())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	if _, err := b.Move(ctx, st); err == nil {
		t.Error("a paced planner answered although its context ran out first")
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
