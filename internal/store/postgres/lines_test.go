package postgres_test

import (
	"context"
	"testing"

	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// TestMigrateV5Lines: a database of schema version 5, whose seats held
// have no lines, opens with every seat's row carrying its game's line.
func TestMigrateV5Lines(t *testing.T) {
	ctx := context.Background()
	address := pgtest.URL(t)
	s := open(t, address)
	ids := storetest.FlipGames(t, s)
	storetest.Owner(t, s, ids...)
	s.Close()
	pgtest.Exec(t, address, `DROP TABLE ceremonies; DROP TABLE passkeys; DROP TABLE vacations; DROP INDEX seat_owners_player; ALTER TABLE seat_owners DROP COLUMN line, DROP COLUMN version, DROP COLUMN summary;
		CREATE INDEX seat_owners_player ON seat_owners (player, ended, updated); UPDATE lagoon_schema SET version = 5`)
	s = open(t, address)
	defer s.Close()
	playing, ended, bad, err := s.PlayerGames(ctx, "p1", 10, nil)
	if err != nil || len(bad) > 0 || len(playing)+len(ended) != len(ids) {
		t.Fatalf("after the migration: %d playing, %d ended of %d, %v, damaged %v", len(playing), len(ended), len(ids), err, bad)
	}
	for _, pg := range append(playing, ended...) {
		if pg.Line.Game != "somegame" || len(pg.Line.Seats) != 2 {
			t.Errorf("game %s's line after the migration: %+v", pg.Line.ID, pg.Line)
		}
	}
}
