package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/store"
)

// gameLines: a player's games are read as lines, each what its game's
// row says without the seats' tokens, brought along by every move (its
// version, whose turn, when), after a reopen too; the ended ones come in
// pages that a cursor continues, each game once, in the order of one
// long read.
func gameLines(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	p, sess := newPlayer("p1", "Ann", 1)
	if err := s.CreatePlayer(ctx, p, sess); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)
	g := NewGame("live")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	for _, seat := range []int{1, 0} {
		if err := s.OwnSeat(ctx, "live", seat, "p1", at); err != nil {
			t.Fatal(err)
		}
	}
	want := store.Line(g)
	if want.Seats[0].TokenHash != "" || g.Seats[0].TokenHash == "" {
		t.Fatalf("a line keeps the seats' tokens: %+v", want.Seats)
	}
	line := func(s store.Store) store.PlayerGame {
		t.Helper()
		playing, _, bad, err := s.PlayerGames(ctx, "p1", 10, nil)
		if err != nil || len(bad) > 0 || len(playing) != 1 {
			t.Fatalf("PlayerGames: %v, damaged %v, %d playing", err, bad, len(playing))
		}
		return playing[0]
	}
	if got := line(s); !reflect.DeepEqual(got, store.PlayerGame{Line: want, Seats: []int{0, 1}}) {
		t.Errorf("the line of a new game:\n%+v\nwant\n%+v", got, want)
	}
	// Moves 2 and 3 write no game's row: the line follows them all the
	// same.
	turn := store.Summary{Phase: "settlement", ToMove: 0, Scores: []int{4, 2}}
	Play(t, s, "live", 1, 3, store.After{Summary: turn})
	want.Version, want.Summary, want.Updated = 3, turn, time.UnixMilli(1_800_000_003_000).UTC()
	if got := line(s).Line; !reflect.DeepEqual(got, want) {
		t.Errorf("the line after 3 moves:\n%+v\nwant\n%+v", got, want)
	}
	// Seats changed without a move keep whose turn the moves left.
	seats := slices.Clone(g.Seats)
	seats[1].Name = "Bot (hard)"
	if err := s.UpdateSeats(ctx, "live", 3, seats, []int64{1, 2}, want.Updated); err != nil {
		t.Fatal(err)
	}
	want.Seats[1].Name = "Bot (hard)"
	if got := line(s).Line; !reflect.DeepEqual(got, want) {
		t.Errorf("the line after the seats changed:\n%+v\nwant\n%+v", got, want)
	}
	// A seat taken after the moves has the line as they left it.
	if err := s.OwnSeat(ctx, "live", 1, "p1", at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got := line(s).Line; !reflect.DeepEqual(got, want) {
		t.Errorf("the line after a seat is taken again:\n%+v\nwant\n%+v", got, want)
	}
	closeStore(t, s)
	s = h.Open(t)
	defer closeStore(t, s)
	if got := line(s).Line; !reflect.DeepEqual(got, want) {
		t.Errorf("the line after a reopen:\n%+v\nwant\n%+v", got, want)
	}

	// Seven ended games, five of them at the same moment (their last
	// moves' times are Play's), the player in two seats of one.
	for i := range 7 {
		id := fmt.Sprintf("e%d", i)
		if err := s.Create(ctx, NewGame(id)); err != nil {
			t.Fatal(err)
		}
		if err := s.OwnSeat(ctx, id, 0, "p1", at); err != nil {
			t.Fatal(err)
		}
		if i == 3 {
			if err := s.OwnSeat(ctx, id, 1, "p1", at); err != nil {
				t.Fatal(err)
			}
		}
		Play(t, s, id, 1, 1+min(i, 2), store.After{Over: true, Summary: store.Summary{Phase: "end", Winners: []int{0}, Scores: []int{i, 0}}})
	}
	_, all, bad, err := s.PlayerGames(ctx, "p1", 100, nil)
	if err != nil || len(bad) > 0 || len(all) != 7 {
		t.Fatalf("every ended game: %d, %v, damaged %v", len(all), err, bad)
	}
	for i := 1; i < len(all); i++ {
		a, b := all[i-1].Line, all[i].Line
		if a.Updated.Before(b.Updated) || (a.Updated.Equal(b.Updated) && a.ID <= b.ID) {
			t.Errorf("ended games out of order: %s (%v) before %s (%v)", a.ID, a.Updated, b.ID, b.Updated)
		}
	}
	for _, pg := range all {
		if !pg.Line.Over || pg.Line.Summary.Phase != "end" {
			t.Errorf("ended game %s's line: %+v", pg.Line.ID, pg.Line)
		}
		if want := []int{0}; pg.Line.ID == "e3" {
			if !reflect.DeepEqual(pg.Seats, []int{0, 1}) {
				t.Errorf("e3's seats %v, want both", pg.Seats)
			}
		} else if !reflect.DeepEqual(pg.Seats, want) {
			t.Errorf("%s's seats %v, want %v", pg.Line.ID, pg.Seats, want)
		}
	}
	for _, size := range []int{1, 2, 3} {
		var paged []store.PlayerGame
		var before *store.Cursor
		for range 10 {
			playing, page, bad, err := s.PlayerGames(ctx, "p1", size, before)
			if err != nil || len(bad) > 0 {
				t.Fatalf("a page of %d: %v, damaged %v", size, err, bad)
			}
			if before != nil && playing != nil {
				t.Errorf("a page after the first read the games in progress: %v", playing)
			}
			if len(page) > size {
				t.Fatalf("a page of %d has %d games", size, len(page))
			}
			paged = append(paged, page...)
			if len(page) < size {
				break
			}
			last := page[len(page)-1].Line
			before = &store.Cursor{Updated: last.Updated, Game: last.ID}
		}
		if !reflect.DeepEqual(paged, all) {
			t.Errorf("pages of %d: %v, want %v", size, ids(paged), ids(all))
		}
	}
}

// gameLineDamaged: a seat's line that does not decode leaves its game
// out of the list, named damaged, and the others in it.
func gameLineDamaged(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	for _, id := range []string{"good", "bad"} {
		if err := s.Create(ctx, NewGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	Owner(t, s, "good", "bad")
	if err := h.Exec(t, `UPDATE seat_owners SET line = '{"game":' WHERE game = ?`, "bad"); err != nil {
		t.Fatal(err)
	}
	playing, _, bad, err := s.PlayerGames(ctx, "p1", 10, nil)
	if err != nil || len(bad) != 1 || bad[0].ID != "bad" || !errors.Is(bad[0].Err, store.ErrDamaged) {
		t.Fatalf("a damaged line: %v, damaged %v", err, bad)
	}
	if got := ids(playing); !reflect.DeepEqual(got, []string{"good"}) {
		t.Errorf("playing %v, want the good game alone", got)
	}
}

// Owner stores the player p1 and records seat 0 of each game of ids as
// theirs.
func Owner(t testing.TB, s store.Store, ids ...string) {
	t.Helper()
	ctx := context.Background()
	p, sess := newPlayer("p1", "Ann", 1)
	if err := s.CreatePlayer(ctx, p, sess); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if err := s.OwnSeat(ctx, id, 0, "p1", p.Created); err != nil {
			t.Fatal(err)
		}
	}
}

// ids are the games' ids of a list.
func ids(list []store.PlayerGame) []string {
	var out []string
	for _, pg := range list {
		out = append(out, pg.Line.ID)
	}
	return out
}
