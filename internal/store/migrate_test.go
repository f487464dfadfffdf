package store

import (
	"context"
	"testing"
)

// TestTakeBack: taking back removes the moves after a version, stores the
// clocks as they were then and the reseeds, and counts the take-back; a
// take-back from a version the game is not at is refused, and the game
// goes on from the version it went back to.

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
		"ALTER TABLE games DROP COLUMN checksum", "ALTER TABLE moves DROP COLUMN hash", "ALTER TABLE moves DROP COLUMN followed", "DROP TABLE vacations", "DROP TABLE ceremonies", "DROP TABLE passkeys", "DROP TABLE seat_owners", "DROP TABLE sessions", "DROP TABLE players", "PRAGMA user_version = 1"} {
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
	if err := s.read.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("user_version %d, %v; want %d", version, err, SchemaVersion)
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
		"ALTER TABLE games DROP COLUMN checksum", "ALTER TABLE moves DROP COLUMN hash", "ALTER TABLE moves DROP COLUMN followed", "DROP TABLE vacations", "DROP TABLE ceremonies", "DROP TABLE passkeys", "DROP TABLE seat_owners", "DROP TABLE sessions", "DROP TABLE players", "PRAGMA user_version = 2"} {
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
	if err := s.read.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("user_version %d, %v; want %d", version, err, SchemaVersion)
	}
}
