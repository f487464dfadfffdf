package store_test

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// TestMigrateV5Lines: a database of schema version 5, whose seats held
// have no lines, opens with each seat's row carrying its game's line, read from
// the game's row, so that the player's list shows every game as before.
func TestMigrateV5Lines(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Owner(t, s, storetest.FlipGames(t, s)...)
	playing, ended, bad, err := s.PlayerGames(ctx, "p1", 10, nil)
	if err != nil || len(bad) > 0 {
		t.Fatal(err, bad)
	}
	want := append(playing, ended...)
	s.Close()
	db := beside(t, dir)
	for _, q := range []string{"DROP TABLE ceremonies", "DROP TABLE passkeys", "DROP TABLE vacations", "DROP INDEX seat_owners_player", "ALTER TABLE seat_owners DROP COLUMN line", "ALTER TABLE seat_owners DROP COLUMN version",
		"ALTER TABLE seat_owners DROP COLUMN summary", "CREATE INDEX seat_owners_player ON seat_owners (player, ended, updated)", "PRAGMA user_version = 5"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	if s, err = store.Open(dir); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	playing, ended, bad, err = s.PlayerGames(ctx, "p1", 10, nil)
	if err != nil || len(bad) > 0 {
		t.Fatal(err, bad)
	}
	got := append(playing, ended...)
	if !reflect.DeepEqual(sortedIDs(got), sortedIDs(want)) {
		t.Fatalf("after the migration the player has %v, want %v", sortedIDs(got), sortedIDs(want))
	}
	// What the game's row says is as before; the moves made since the
	// row was written follow with the game's next move.
	for _, g := range got {
		for _, w := range want {
			if w.Line.ID != g.Line.ID {
				continue
			}
			g.Line.Version, g.Line.Summary, g.Line.Updated = w.Line.Version, w.Line.Summary, w.Line.Updated
			if !reflect.DeepEqual(g, w) {
				t.Errorf("game %s's line after the migration:\n%+v\nwant\n%+v", g.Line.ID, g, w)
			}
		}
	}
}

// sortedIDs are the ids of a player's games, in order.
func sortedIDs(list []store.PlayerGame) []string {
	var out []string
	for _, pg := range list {
		out = append(out, pg.Line.ID)
	}
	slices.Sort(out)
	return out
}
