package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
		ID: id, Created: at, Updated: at, Game: "somegame", Options: map[string]string{"board": "standard", "first": "1"},
		Players: 2, Seed: 1<<63 + 5,
		Time:   &Time{Kind: "bank", InitialMS: 60000, IncrementMS: 1000},
		Clocks: []int64{60000, 60000},
		Seats: []Seat{
			{Kind: "human", Name: "Ann", TokenHash: "abc"},
			{Kind: "bot", Name: "Bot (easy)", Level: "easy", Joined: true},
		},
		Summary: Summary{Phase: "exploration", ToMove: 1, Scores: []int{0, 0}},
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
		sum := Summary{Phase: "exploration", ToMove: (v + 1) % 2, Scores: []int{0, 0}}
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
	active, _, err := s.InProgress(ctx)
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
	fin, _, err := s.Finished(ctx, 100)
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

// copyV0 copies the database of testdata/v0, written by the store before
// games had ids and options (schema version 0), into a new directory and
// returns it. testdata/v0/mkv0_test.go.txt is the program that wrote it,
// run against that code.
func copyV0(t testing.TB, testdata string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdata, "v0", "lagoon.db"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lagoon.db"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestMigrateV0 opens a database written before games had ids and options:
// every game becomes Blue Lagoon's, its board and first seat options and
// its clock a bank, with nothing else changed; the store then writes on
// it, and opening it again changes nothing more.
func TestMigrateV0(t *testing.T) {
	ctx := context.Background()
	dir := copyV0(t, "testdata")
	s := open(t, dir)
	games, _, err := s.InProgress(ctx)
	if err != nil {
		t.Fatal(err)
	}
	finished, _, err := s.Finished(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 5 || len(finished) != 1 {
		t.Fatalf("%d games in progress and %d finished, want 5 and 1", len(games), len(finished))
	}
	byName := map[string]*Game{}
	for _, g := range append(games, finished...) {
		if g.Game != "bluelagoon" || len(g.Seats) != g.Players {
			t.Errorf("game %s: game %q, %d seats for %d players", g.ID, g.Game, len(g.Seats), g.Players)
		}
		byName[g.Seats[0].Name] = g
	}
	for name, want := range map[string]struct {
		board, first string
		time         *Time
		clocks       []int64
		moves        int
		over         bool
	}{
		"Clocked Ann": {"standard", "1", &Time{Kind: "bank", InitialMS: 60000, IncrementMS: 2000}, []int64{61500, 43500}, 6, false},
		"Standin Ann": {"standard", "0", &Time{Kind: "bank", InitialMS: 10000, IncrementMS: 1000}, []int64{3000, 10000}, 6, false},
		"Custom Cy":   {"a 13 2; c 0 E; i 6 ", "2", nil, nil, 2, false},
		"Finished A":  {"sides", "0", nil, nil, 42, true},
		"Settle Ann":  {"standard", "0", nil, nil, 73, false},
		"Fresh 1":     {"space_invaders", "0", nil, nil, 0, false},
	} {
		g := byName[name]
		if g == nil {
			t.Errorf("no game of %s", name)
			continue
		}
		if !strings.HasPrefix(g.Options["board"], want.board) || g.Options["first"] != want.first || len(g.Options) != 2 {
			t.Errorf("%s: options %v, want board %q and first %q", name, g.Options, want.board, want.first)
		}
		if !reflect.DeepEqual(g.Time, want.time) || !reflect.DeepEqual(g.Clocks, want.clocks) {
			t.Errorf("%s: time %+v, clocks %v; want %+v, %v", name, g.Time, g.Clocks, want.time, want.clocks)
		}
		if g.Over != want.over || (!g.Over && len(g.Moves) != want.moves) || (g.Over && g.Version != want.moves) {
			t.Errorf("%s: over %v, version %d, %d moves; want over %v, %d moves", name, g.Over, g.Version, len(g.Moves), want.over, want.moves)
		}
	}
	if sa := byName["Standin Ann"]; sa != nil && !sa.Seats[0].StandIn {
		t.Errorf("Standin Ann's seat %+v lost its stand-in", sa.Seats[0])
	}
	if f := byName["Finished A"]; f != nil && (len(f.Summary.Winners) != 1 || len(f.Summary.Scores) != 2 || f.Summary.Phase != "settlement") {
		t.Errorf("the finished game's summary %+v", f.Summary)
	}
	// The moves of every game are there, and the store writes on.
	g := byName["Fresh 1"]
	if err := s.AppendMove(ctx, g.ID, 1, Move{Seat: 0, Move: "S 0,0", At: time.Now()}, After{}); err != nil {
		t.Fatal(err)
	}
	full, err := s.Game(ctx, byName["Settle Ann"].ID)
	if err != nil || len(full.Moves) != 73 || full.Moves[0].Move == "" {
		t.Fatalf("reading a migrated game's moves: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// Opened again, the database is of the current version and changes no
	// more.
	s = open(t, dir)
	again, err := s.Game(ctx, g.ID)
	if err != nil || again.Version != 1 || again.Options["board"] != "space_invaders" {
		t.Errorf("opened again: %+v, %v", again, err)
	}
	var version int
	if err := s.read.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != schemaVersion {
		t.Errorf("user_version %d, %v; want %d", version, err, schemaVersion)
	}
	s.Close()
}

// TestNewerSchemaRefused: a database written by a newer lagoon is not
// opened, rather than written in a format it does not know.
func TestNewerSchemaRefused(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	if _, err := s.write.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err := Open(dir); err == nil || !strings.Contains(err.Error(), "newer") {
		if s != nil {
			s.Close()
		}
		t.Errorf("a database of a newer schema: %v, want it refused", err)
	}
}
