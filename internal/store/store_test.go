package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func open(t testing.TB, dir string) *SQLite {
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
	if err := s.read.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("user_version %d, %v; want %d", version, err, SchemaVersion)
	}
	s.Close()
}

// TestDirLocked: while a store is open, its data directory is its alone.
func TestDirLocked(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	defer s.Close()
	if other, err := Open(dir); err == nil || !strings.Contains(err.Error(), "in use by another lagoon") {
		if other != nil {
			other.Close()
		}
		t.Errorf("a second store on an open store's directory: %v; want it refused", err)
	}
}

// TestFencedWriteRefused: the SQLite store keeps no leases, so it cannot
// check a write's fence, and refuses the write rather than ignore it.
func TestFencedWriteRefused(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	defer s.Close()
	if err := s.Create(ctx, newGame("g")); err != nil {
		t.Fatal(err)
	}
	fenced := WithEpoch(ctx, "g", "node-a", 1)
	if err := s.AppendMove(fenced, "g", 1, Move{Move: "S 0,0", At: time.Now()}, After{}); !errors.Is(err, ErrFenced) {
		t.Errorf("a fenced move: %v, want ErrFenced", err)
	}
	if g, err := s.Game(ctx, "g"); err != nil || g.Version != 0 {
		t.Errorf("after the refused move: %+v, %v; want no move", g, err)
	}
}
