package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newGame(id string) *Game {
	at := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)
	return &Game{
		ID: id, Created: at, Updated: at, Board: "standard", Players: 2, Seed: 1<<63 + 5, First: 1,
		Clock:  &Clock{InitialMS: 60000, IncrementMS: 1000},
		Clocks: []int64{60000, 60000},
		Seats: []Seat{
			{Kind: "human", Name: "Ann", TokenHash: "abc"},
			{Kind: "bot", Name: "Bot (easy)", Level: "easy", Joined: true},
		},
		Summary: Summary{Phase: "exploration", Current: 1, Totals: []int{0, 0}},
	}
}

func TestGameRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	want := newGame("g1")
	if err := s.Create(ctx, want); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, newGame("g1")); !errors.Is(err, ErrConflict) {
		t.Errorf("creating g1 twice: got %v, want ErrConflict", err)
	}
	for v, mv := range []string{"S 0,0", "S 1,1", "T 2,2"} {
		m := Move{Seat: v % 2, Move: mv, At: want.Created.Add(time.Duration(v+1) * time.Second), Clocks: []int64{int64(v), 7}}
		sum := Summary{Phase: "exploration", Current: (v + 1) % 2, Totals: []int{0, 0}}
		after := After{Summary: sum}
		if v == 1 {
			// The game's row, with the summary, is written only when a
			// move changes the seats (or ends the game).
			want.Seats[1].Name = "Bot"
			after.Seats = want.Seats
			want.Summary = sum
		}
		if err := s.AppendMove(ctx, "g1", v+1, m, after); err != nil {
			t.Fatal(err)
		}
		want.Moves = append(want.Moves, m)
		want.Updated, want.Clocks, want.Version = m.At, m.Clocks, v+1
	}
	want.Seats[0].Joined = true
	want.Clocks = []int64{5, 6}
	if err := s.UpdateSeats(ctx, "g1", 3, want.Seats, want.Clocks, want.Updated); err != nil {
		t.Fatal(err)
	}
	// While it is open, the directory is this store's alone.
	if other, err := Open(dir); err == nil || !strings.Contains(err.Error(), "in use by another lagoon") {
		if other != nil {
			other.Close()
		}
		t.Errorf("a second store on an open store's directory: %v; want it refused", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, dir)
	defer s.Close()
	got, err := s.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after reopening:\n got %+v\nwant %+v", got, want)
	}
	active, err := s.InProgress(ctx)
	if err != nil || len(active) != 1 || !reflect.DeepEqual(active[0], want) {
		t.Errorf("InProgress = %+v, %v; want the game", active, err)
	}

	// A move after the seats were written: its clocks are the game's.
	m := Move{Seat: 1, Move: "S 3,3", At: want.Updated.Add(time.Second), Clocks: []int64{9, 9}}
	if err := s.AppendMove(ctx, "g1", 4, m, After{}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 4 || !reflect.DeepEqual(got.Clocks, m.Clocks) || !got.Updated.Equal(m.At) {
		t.Errorf("after a fourth move: version %d, clocks %v, updated %v; want 4, %v, %v", got.Version, got.Clocks, got.Updated, m.Clocks, m.At)
	}
	if _, err := s.Game(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game(nope): got %v, want ErrNotFound", err)
	}
}

func TestAppendMoveRefusesWrongVersion(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	defer s.Close()
	if err := s.Create(ctx, newGame("g")); err != nil {
		t.Fatal(err)
	}
	m := Move{Seat: 1, Move: "S 0,0", At: time.Now()}
	if err := s.AppendMove(ctx, "g", 1, m, After{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id      string
		version int
	}{{"g", 1}, {"g", 3}, {"g", 0}, {"other", 1}} {
		if err := s.AppendMove(ctx, tc.id, tc.version, m, After{}); !errors.Is(err, ErrConflict) {
			t.Errorf("AppendMove(%s, %d): got %v, want ErrConflict", tc.id, tc.version, err)
		}
	}
	if err := s.AppendMove(ctx, "g", 2, m, After{Over: true, Summary: Summary{Winners: []int{0}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "g", 3, m, After{}); !errors.Is(err, ErrConflict) {
		t.Errorf("a move after the game is over: got %v, want ErrConflict", err)
	}
	g, err := s.Game(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != 2 || !g.Over {
		t.Errorf("game has %d moves, over %v; want 2 moves, over", len(g.Moves), g.Over)
	}
	if err := s.UpdateSeats(ctx, "other", 0, nil, nil, time.Now()); !errors.Is(err, ErrNotFound) {
		t.Errorf("UpdateSeats(other): got %v, want ErrNotFound", err)
	}
}

// TestConcurrentWrites checks that writes from many goroutines, committed in
// shared transactions, all land, and that a failing write does not take the
// others of its batch with it.
func TestConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	defer s.Close()
	const games, moves = 20, 10
	for i := range games {
		if err := s.Create(ctx, newGame(fmt.Sprint("g", i))); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, games*moves*2)
	for i := range games {
		wg.Go(func() {
			id := fmt.Sprint("g", i)
			for v := 1; v <= moves; v++ {
				m := Move{Seat: v % 2, Move: "S 0,0", At: time.Now()}
				errs <- s.AppendMove(ctx, id, v, m, After{Over: v == moves})
				if err := s.AppendMove(ctx, id, v, m, After{}); !errors.Is(err, ErrConflict) {
					errs <- fmt.Errorf("%s: move %d stored twice: %v", id, v, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	fin, err := s.Finished(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(fin) != games {
		t.Errorf("%d finished games, want %d", len(fin), games)
	}
	for _, g := range fin {
		full, err := s.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(full.Moves) != moves {
			t.Errorf("%s has %d moves, want %d", g.ID, len(full.Moves), moves)
		}
	}
}

func TestClosed(t *testing.T) {
	s := open(t, t.TempDir())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(context.Background(), newGame("g")); !errors.Is(err, ErrClosed) {
		t.Errorf("Create after Close: got %v, want ErrClosed", err)
	}
}
