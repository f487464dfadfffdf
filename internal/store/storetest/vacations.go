package storetest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/corr"
)

// This file checks the stores' vacations (corr.Store).

// vacations: a vacation reads back as written, after the store is opened
// again, by its player and by the seats its player holds; ending it early
// moves its end; only those ending after the time asked for are read; one
// that does not end after its start is refused and nothing is written.
func vacations(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	for i, name := range []string{"Ann", "Bea"} {
		p, sess := newPlayer([]string{"p1", "p2"}[i], name, byte(i+1))
		if err := s.CreatePlayer(ctx, p, sess); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Create(ctx, NewGame("g")); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for seat, p := range []string{"p1", "p2"} {
		if err := s.OwnSeat(ctx, "g", seat, p, at); err != nil {
			t.Fatal(err)
		}
	}
	day := 24 * time.Hour
	old := corr.Vacation{Player: "p1", Start: at.Add(-20 * day), End: at.Add(-10 * day)}
	now := corr.Vacation{Player: "p1", Start: at, End: at.Add(5 * day)}
	bea := corr.Vacation{Player: "p2", Start: at.Add(day), End: at.Add(3 * day)}
	for _, v := range []corr.Vacation{now, old, bea} {
		if err := s.SetVacation(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range []corr.Vacation{{Player: "p1", Start: at.Add(day), End: at.Add(day)}, {Player: "p1", Start: at.Add(2 * day), End: at.Add(day)}} {
		if err := s.SetVacation(ctx, bad); err == nil {
			t.Errorf("a vacation from %v to %v was stored", bad.Start, bad.End)
		}
	}
	closeStore(t, s)
	s = h.Open(t)
	defer closeStore(t, s)
	if got, err := s.Vacations(ctx, "p1", at.Add(-30*day)); err != nil || !reflect.DeepEqual(got, []corr.Vacation{old, now}) {
		t.Errorf("Vacations of p1: %+v, %v; want %+v", got, err, []corr.Vacation{old, now})
	}
	if got, err := s.Vacations(ctx, "p1", at.Add(-10*day)); err != nil || !reflect.DeepEqual(got, []corr.Vacation{now}) {
		t.Errorf("Vacations of p1 ending after the old one: %+v, %v; want %+v", got, err, []corr.Vacation{now})
	}
	cut := now
	cut.End = at.Add(day)
	if err := s.SetVacation(ctx, cut); err != nil {
		t.Fatal(err)
	}
	want := map[int][]corr.Vacation{0: {cut}, 1: {bea}}
	if got, err := s.SeatVacations(ctx, "g", at.Add(-10*day)); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("SeatVacations: %+v, %v; want %+v", got, err, want)
	}
	if got, err := s.Vacations(ctx, "nobody", at); err != nil || len(got) != 0 {
		t.Errorf("the vacations of nobody: %+v, %v", got, err)
	}
}
