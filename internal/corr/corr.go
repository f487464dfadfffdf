// Package corr holds what correspondence play (games over days) needs
// beyond the time rule itself (game.Correspondence): players' vacations,
// which stop the clocks of all their correspondence games. It is pure (no
// I/O), so that the server and both stores share its rules; the stores
// keep vacations behind Store.
package corr

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// MaxVacation is how long a player may be away in a calendar year (UTC):
// a vacation spanning the new year counts in each year for its part.
const MaxVacation = 30 * game.Day

// A Vacation is a player's time away, from Start to End (End excluded).
// Its invariant: Start is before End; a vacation ended early has End at
// the moment it was ended.
type Vacation struct {
	Player     string
	Start, End time.Time
}

// Store keeps vacations.
type Store interface {
	// Vacations reads player's vacations that end after since, by start.
	Vacations(ctx context.Context, player string, since time.Time) ([]Vacation, error)
	// SeatVacations reads the vacations that end after since of the
	// players holding game's seats, by seat, each seat's by start.
	SeatVacations(ctx context.Context, game string, since time.Time) (map[int][]Vacation, error)
	// SetVacation stores v: a new vacation, or the new end of the
	// player's vacation that starts at v.Start.
	SetVacation(ctx context.Context, v Vacation) error
}

// Errors of a vacation asked for, which say what was wrong and change
// nothing.
var (
	ErrDays    = errors.New("a vacation is a whole number of days, at least 1")
	ErrAway    = errors.New("the player is on vacation already")
	ErrNotAway = errors.New("the player is not on vacation")
	ErrTooLong = errors.New("a vacation longer than the days left this year")
)

// Used returns how much of the calendar year (UTC) vs take up.
func Used(vs []Vacation, year int) time.Duration {
	from := time.Date(year, time.January, 1, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(1, 0, 0)
	var used time.Duration
	for _, v := range vs {
		used += overlap(v, from, to)
	}
	return used
}

// overlap returns how much of [from, to) v covers.
func overlap(v Vacation, from, to time.Time) time.Duration {
	s, e := later(v.Start, from), earlier(v.End, to)
	if !s.Before(e) {
		return 0
	}
	return e.Sub(s)
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// Current returns the vacation of vs under way at now, if any.
func Current(vs []Vacation, now time.Time) (Vacation, bool) {
	for _, v := range vs {
		if !now.Before(v.Start) && now.Before(v.End) {
			return v, true
		}
	}
	return Vacation{}, false
}

// Plan returns a vacation of player from now for days, checked against
// the vacations they took (vs, all those ending this year or later): the
// player must not be away already, and in each calendar year it touches
// its part with what is used there must stay within MaxVacation.
func Plan(vs []Vacation, player string, now time.Time, days int) (Vacation, error) {
	if days < 1 {
		return Vacation{}, fmt.Errorf("%w, not %d", ErrDays, days)
	}
	if v, ok := Current(vs, now); ok {
		return Vacation{}, fmt.Errorf("%w, until %s", ErrAway, v.End.UTC().Format(time.RFC3339))
	}
	v := Vacation{Player: player, Start: now, End: now.Add(time.Duration(days) * game.Day)}
	for y := now.UTC().Year(); y <= v.End.UTC().Year(); y++ {
		used := Used(vs, y)
		part := Used([]Vacation{v}, y)
		if used+part > MaxVacation {
			left := max(0, MaxVacation-used)
			return Vacation{}, fmt.Errorf("%w: %d days asked for, %s of %d days left in %d",
				ErrTooLong, days, daysText(left), int(MaxVacation/game.Day), y)
		}
	}
	return v, nil
}

// daysText writes d in days, with a fraction where it has one.
func daysText(d time.Duration) string {
	if d%game.Day == 0 {
		return fmt.Sprintf("%d", int(d/game.Day))
	}
	return fmt.Sprintf("%.1f", float64(d)/float64(game.Day))
}

// Cut returns the vacation of vs under way at now, ended at now.
func Cut(vs []Vacation, now time.Time) (Vacation, error) {
	v, ok := Current(vs, now)
	if !ok {
		return Vacation{}, ErrNotAway
	}
	v.End = now
	return v, nil
}

// Running returns how long the clock of a player away during vs runs
// from from to to: the time not on vacation. vs must be in order of
// start, as Store reads them.
func Running(vs []Vacation, from, to time.Time) time.Duration {
	if !from.Before(to) {
		return 0
	}
	run := to.Sub(from)
	for _, v := range vs {
		run -= overlap(v, from, to)
	}
	return run
}

// Deadline returns when a clock with left to run from from runs out, the
// player away during vs (in order of start, not overlapping): each
// vacation under way meanwhile moves it by its length.
func Deadline(vs []Vacation, from time.Time, left time.Duration) time.Time {
	at := from
	for _, v := range vs {
		if !v.End.After(at) {
			continue
		}
		if !v.Start.Before(at.Add(left)) {
			break
		}
		if v.Start.After(at) {
			left -= v.Start.Sub(at)
		}
		at = v.End
	}
	return at.Add(left)
}
