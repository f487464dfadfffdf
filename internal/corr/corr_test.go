package corr

import (
	"errors"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

var t0 = time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)

func at(days float64) time.Time { return t0.Add(time.Duration(days * float64(game.Day))) }

func away(from, to float64) Vacation { return Vacation{Player: "p", Start: at(from), End: at(to)} }

func TestPlan(t *testing.T) {
	newYear := time.Date(2026, time.December, 20, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		vs   []Vacation
		now  time.Time
		days int
		want error
	}{
		{"the first", nil, t0, 30, nil},
		{"none", nil, t0, 0, ErrDays},
		{"too long at once", nil, t0, 31, ErrTooLong},
		{"what is left", []Vacation{away(-40, -20)}, t0, 10, nil},
		{"more than is left", []Vacation{away(-40, -20)}, t0, 11, ErrTooLong},
		{"away already", []Vacation{away(-1, 2)}, t0, 1, ErrAway},
		{"last year's do not count", []Vacation{{Start: t0.AddDate(-1, 0, 0), End: t0.AddDate(-1, 0, 30)}}, t0, 30, nil},
		// From 20 December: 12 days this year, the rest the next.
		{"over the new year", []Vacation{away(-40, -22)}, newYear, 14, nil},
		{"over the new year, too long this year", []Vacation{away(-40, -21)}, newYear, 14, ErrTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Plan(tc.vs, "p", tc.now, tc.days)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Plan: %v, %v; want %v", v, err, tc.want)
			}
			if err == nil && (!v.Start.Equal(tc.now) || v.End.Sub(v.Start) != time.Duration(tc.days)*game.Day || v.Player != "p") {
				t.Fatalf("Plan: %+v", v)
			}
		})
	}
}

func TestTooLongSaysWhatIsLeft(t *testing.T) {
	_, err := Plan([]Vacation{away(-40, -20)}, "p", t0, 11)
	if err == nil || err.Error() != "a vacation longer than the days left this year: 11 days asked for, 10 of 30 days left in 2026" {
		t.Fatalf("%v", err)
	}
}

func TestCut(t *testing.T) {
	vs := []Vacation{away(-1, 5)}
	v, err := Cut(vs, t0)
	if err != nil || !v.End.Equal(t0) || !v.Start.Equal(at(-1)) {
		t.Fatalf("Cut: %+v, %v", v, err)
	}
	if _, err := Cut(vs, at(6)); !errors.Is(err, ErrNotAway) {
		t.Fatalf("Cut after the vacation: %v", err)
	}
	// Ended early, a vacation counts what it took.
	if used := Used([]Vacation{v}, 2026); used != game.Day {
		t.Fatalf("used %v", used)
	}
}

func TestDeadlineAndRunning(t *testing.T) {
	for _, tc := range []struct {
		name string
		vs   []Vacation
		left float64 // days
		want float64 // the deadline, in days from t0
	}{
		{"no vacation", nil, 3, 3},
		{"one within the turn", []Vacation{away(1, 3)}, 3, 5},
		{"one under way at the start", []Vacation{away(-1, 2)}, 3, 5},
		{"one after the deadline", []Vacation{away(3, 10)}, 3, 3},
		{"one over", []Vacation{away(-5, -1)}, 3, 3},
		{"two", []Vacation{away(1, 2), away(2.5, 4)}, 3, 5.5},
		{"one begun as the time runs out", []Vacation{away(2.5, 10)}, 3, 10.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			left := time.Duration(tc.left * float64(game.Day))
			d := Deadline(tc.vs, t0, left)
			if !d.Equal(at(tc.want)) {
				t.Fatalf("deadline %v, want %v", d, at(tc.want))
			}
			if run := Running(tc.vs, t0, d); run != left {
				t.Fatalf("the clock runs %v up to the deadline, want %v", run, left)
			}
		})
	}
}
