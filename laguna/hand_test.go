package laguna

import (
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// TestHandTime: each move takes its hand's time, a glass of 30 seconds
// buys at most 60 steps, and the setting up takes none (it is untimed).
func TestHandTime(t *testing.T) {
	st := &State{}
	for _, c := range []struct {
		move game.Move
		want time.Duration
	}{
		{Step(0), StepTime},
		{Step(3), StepTime},
		{End, 0},
		{Peek, PeekTime},
		{Shift(0, 5), PearlTime},
		{Load(2, 1), PearlTime},
		{Unload(4), PearlTime},
		{Deliver(1), PearlTime},
		{Swap(3, 2), 2 * PearlTime},
		{Trade(1, 2, 2), 2 * PearlTime},
		{Put(3, 1), 0},
		{Place(Across, 40), 0},
	} {
		if got := game.HandTime(st, c.move); got != c.want {
			t.Errorf("the hand's time of move %d is %v, want %v", c.move, got, c.want)
		}
	}
	if steps := 30 * time.Second / StepTime; steps > 60 {
		t.Errorf("a glass of 30 s buys %d steps, more than a hand makes", steps)
	}
}
