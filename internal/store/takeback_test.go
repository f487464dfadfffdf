package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

// TestTakeBack: taking back removes the moves after a version, stores the
// clocks as they were then and the reseeds, and counts the take-back; a
// take-back from a version the game is not at is refused, and the game
// goes on from the version it went back to.
func TestTakeBack(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	g := newGame("g1")
	g.TakeBacksOff = true
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	for v, mv := range []string{"S 0,0", "S 1,1", "T 2,2", "S 3,3"} {
		m := Move{Seat: v % 2, Move: mv, At: g.Created.Add(time.Duration(v+1) * time.Second), Clocks: []int64{int64(v), 7}, ByTime: v == 1}
		if err := s.AppendMove(ctx, "g1", v+1, m, After{}); err != nil {
			t.Fatal(err)
		}
	}
	at := g.Created.Add(time.Minute)
	if err := s.TakeBack(ctx, "g1", 3, 1, []int64{0, 7}, nil, at); !errors.Is(err, ErrConflict) {
		t.Errorf("a take-back from version 3 of a game at 4: %v, want ErrConflict", err)
	}
	if err := s.TakeBack(ctx, "g1", 4, 2, []int64{1, 7}, []Reseed{{At: 2, Seed: 1 << 63}}, at); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "g1", 3, Move{Seat: 0, Move: "S 9,9", At: at}, After{}); err != nil {
		t.Fatal(err)
	}
	reseeds := []Reseed{{At: 2, Seed: 1 << 63}, {At: 2, Seed: 1<<64 - 1}}
	if err := s.TakeBack(ctx, "g1", 3, 2, []int64{1, 7}, reseeds, at); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, dir)
	defer s.Close()
	got, err := s.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || len(got.Moves) != 2 || got.Moves[1].Move != "S 1,1" || got.Moves[0].ByTime || !got.Moves[1].ByTime || !reflect.DeepEqual(got.Clocks, []int64{1, 7}) ||
		got.TakeBacks != 2 || !got.TakeBacksOff || !got.Updated.Equal(at) || !reflect.DeepEqual(got.Reseeds, reseeds) {
		t.Errorf("after two take-backs to version 2: version %d, moves %+v, clocks %v, take-backs %d (off %v), updated %v, reseeds %v",
			got.Version, got.Moves, got.Clocks, got.TakeBacks, got.TakeBacksOff, got.Updated, got.Reseeds)
	}
	if games, _, err := s.InProgress(ctx); err != nil || len(games) != 1 || len(games[0].Moves) != 2 || !reflect.DeepEqual(games[0].Reseeds, reseeds) {
		t.Errorf("in progress after the take-backs: %v, %v", games, err)
	}
}

// TestMigrateV1: a database of schema version 1, before take-backs, opens
// with its games allowing take-backs and none made.
func TestMigrateV1(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	if err := s.Create(ctx, newGame("g1")); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"ALTER TABLE games DROP COLUMN take_backs_off", "ALTER TABLE games DROP COLUMN take_backs", "ALTER TABLE games DROP COLUMN expired", "ALTER TABLE games DROP COLUMN reseeds", "ALTER TABLE moves DROP COLUMN by_time",
		"ALTER TABLE games DROP COLUMN checksum", "ALTER TABLE moves DROP COLUMN hash", "ALTER TABLE moves DROP COLUMN followed", "PRAGMA user_version = 1"} {
		if _, err := s.write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = open(t, dir)
	defer s.Close()
	g, err := s.Game(ctx, "g1")
	if err != nil || g.TakeBacksOff || g.TakeBacks != 0 || g.Reseeds != nil || g.Seats[0].Name != "Ann" {
		t.Fatalf("a game of version 1, migrated: %+v, %v", g, err)
	}
	var version int
	if err := s.read.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != schemaVersion {
		t.Errorf("user_version %d, %v; want %d", version, err, schemaVersion)
	}
}

// TestMigrateV2: a database of schema version 2, before take-backs
// reseeded, opens with its games' take-backs as they were and no reseeds.
func TestMigrateV2(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	g := newGame("g1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "g1", 1, Move{Seat: 0, Move: "S 0,0", At: g.Created}, After{}); err != nil {
		t.Fatal(err)
	}
	if err := s.TakeBack(ctx, "g1", 1, 0, nil, nil, g.Created); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"ALTER TABLE games DROP COLUMN reseeds", "ALTER TABLE moves DROP COLUMN by_time",
		"ALTER TABLE games DROP COLUMN checksum", "ALTER TABLE moves DROP COLUMN hash", "ALTER TABLE moves DROP COLUMN followed", "PRAGMA user_version = 2"} {
		if _, err := s.write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = open(t, dir)
	defer s.Close()
	got, err := s.Game(ctx, "g1")
	if err != nil || got.TakeBacks != 1 || got.Reseeds != nil {
		t.Fatalf("a game of version 2, migrated: %+v, %v", got, err)
	}
	var version int
	if err := s.read.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != schemaVersion {
		t.Errorf("user_version %d, %v; want %d", version, err, schemaVersion)
	}
}
