package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/corr"
	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/postgres"
	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// open opens the store at address, failing t if it does not.
func open(t testing.TB, address string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), address)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestContract checks the PostgreSQL store against the contract, a schema
// of its own for each test.
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		address := pgtest.URL(t)
		beside := pgtest.Conn(t, address)
		return storetest.Harness{
			Open: func(t testing.TB) store.Store { return open(t, address) },
			OpenErr: func(t testing.TB) (store.Store, error) {
				s, err := postgres.Open(context.Background(), address)
				if err != nil {
					return nil, err
				}
				return s, nil
			},
			Exec:  beside.Exec,
			Query: beside.Query,
			// Every 7th bit: each flip is a few round trips.
			Stride: 7,
			SchemaVersion: func(t testing.TB) int {
				return int(pgtest.QueryInt(t, address, `SELECT version FROM lagoon_schema`))
			},
			SetSchemaVersion: func(t testing.TB, v int) {
				pgtest.Exec(t, address, fmt.Sprintf(`UPDATE lagoon_schema SET version = %d`, v))
			},
		}
	})
}

// TestForeignTablesRefused: a database whose games table is not lagoon's
// (no lagoon_schema beside it) is refused at open, and left as it was.
func TestForeignTablesRefused(t *testing.T) {
	address := pgtest.URL(t)
	pgtest.Exec(t, address, `CREATE TABLE games (name text)`)
	if s, err := postgres.Open(context.Background(), address); err == nil || !strings.Contains(err.Error(), "not lagoon's") {
		if s != nil {
			s.Close()
		}
		t.Errorf("a foreign games table: %v, want it refused", err)
	}
	if n := pgtest.QueryInt(t, address, `SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()`); n != 1 {
		t.Errorf("%d tables after the refusal, want the one there was", n)
	}
}

// TestOpenTogether: nodes starting at once on a new database make its
// tables once, and all open.
func TestOpenTogether(t *testing.T) {
	address := pgtest.URL(t)
	errs := make(chan error, 4)
	for range cap(errs) {
		go func() {
			s, err := postgres.Open(context.Background(), address)
			if err == nil {
				err = s.Close()
			}
			errs <- err
		}()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := pgtest.QueryInt(t, address, `SELECT count(*) FROM lagoon_schema`); n != 1 {
		t.Errorf("lagoon_schema holds %d rows, want 1", n)
	}
}

// TestMigrateV4: a database of schema version 4, before players, opens
// with its games as they were and the players' tables made.
func TestMigrateV4(t *testing.T) {
	ctx := context.Background()
	address := pgtest.URL(t)
	s := open(t, address)
	ids := storetest.FlipGames(t, s)
	want := storetest.ReadGames(t, s, ids)
	s.Close()
	pgtest.Exec(t, address, `DROP TABLE vacations; DROP TABLE ceremonies; DROP TABLE passkeys; DROP TABLE seat_owners; DROP TABLE sessions; DROP TABLE players; UPDATE lagoon_schema SET version = 4`)
	s = open(t, address)
	defer s.Close()
	storetest.SameGames(t, s, want)
	if v := pgtest.QueryInt(t, address, `SELECT version FROM lagoon_schema`); v != store.SchemaVersion {
		t.Errorf("schema version %d after the migration, want %d", v, store.SchemaVersion)
	}
	at := time.UnixMilli(1).UTC()
	if err := s.CreatePlayer(ctx, players.Player{ID: "p1", Name: "Ann", Created: at}, players.Session{Hash: make([]byte, 32), Player: "p1", Created: at, LastSeen: at}); err != nil {
		t.Fatalf("a player in the migrated database: %v", err)
	}
	if err := s.OwnSeat(ctx, ids[0], 0, "p1", at); err != nil {
		t.Fatalf("a seat owned in the migrated database: %v", err)
	}
}

// TestMigrateV5: a database of schema version 5, before passkeys and
// vacations, opens with its games as they were and their tables made.
func TestMigrateV5(t *testing.T) {
	ctx := context.Background()
	address := pgtest.URL(t)
	s := open(t, address)
	ids := storetest.FlipGames(t, s)
	want := storetest.ReadGames(t, s, ids)
	s.Close()
	pgtest.Exec(t, address, `DROP TABLE vacations; DROP TABLE ceremonies; DROP TABLE passkeys; DROP INDEX seat_owners_player;
		ALTER TABLE seat_owners DROP COLUMN line, DROP COLUMN version, DROP COLUMN summary;
		CREATE INDEX seat_owners_player ON seat_owners (player, ended, updated); UPDATE lagoon_schema SET version = 5`)
	s = open(t, address)
	defer s.Close()
	storetest.SameGames(t, s, want)
	if v := pgtest.QueryInt(t, address, `SELECT version FROM lagoon_schema`); v != store.SchemaVersion {
		t.Errorf("schema version %d after the migration, want %d", v, store.SchemaVersion)
	}
	at := time.UnixMilli(1).UTC()
	if err := s.CreatePlayer(ctx, players.Player{ID: "p1", Name: "Ann", Created: at}, players.Session{Hash: make([]byte, 32), Player: "p1", Created: at, LastSeen: at}); err != nil {
		t.Fatalf("a player in the migrated database: %v", err)
	}
	if err := s.AddPasskey(ctx, players.Passkey{ID: []byte{1}, Player: "p1", PublicKey: []byte{2}, Created: at, LastUsed: at}); err != nil {
		t.Fatalf("a passkey in the migrated database: %v", err)
	}
	if err := s.SetVacation(ctx, corr.Vacation{Player: "p1", Start: at, End: at.Add(time.Hour)}); err != nil {
		t.Fatalf("a vacation in the migrated database: %v", err)
	}
}
