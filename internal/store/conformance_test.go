package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/corr"
	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// beside opens a connection of its own to the database of data directory
// dir, as a hand would have: it knows nothing of the store's foreign keys,
// and does not wait for the disk (the flips of EveryFlip are many).
func beside(t testing.TB, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "lagoon.db")+"?_pragma=busy_timeout(10000)&_pragma=synchronous(OFF)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// TestContract checks the SQLite store against the contract, a data
// directory of its own for each test. Every bit of a game's rows is
// flipped, every 7th with -short or the race detector.
func TestContract(t *testing.T) {
	stride := 1
	if testing.Short() || raceEnabled {
		stride = 7
	}
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		dir := t.TempDir()
		db := beside(t, dir)
		openErr := func(t testing.TB) (store.Store, error) {
			s, err := store.Open(dir)
			if err != nil {
				return nil, err
			}
			return s, nil
		}
		return storetest.Harness{
			Open: func(t testing.TB) store.Store {
				s, err := openErr(t)
				if err != nil {
					t.Fatal(err)
				}
				return s
			},
			OpenErr: openErr,
			Exec: func(t testing.TB, query string, args ...any) error {
				_, err := db.Exec(query, args...)
				return err
			},
			Query: func(t testing.TB, query string, args ...any) (cols []string, out [][]any) {
				rows, err := db.Query(query, args...)
				if err != nil {
					t.Fatal(err)
				}
				defer rows.Close()
				cols, _ = rows.Columns()
				for rows.Next() {
					values := make([]any, len(cols))
					dest := make([]any, len(cols))
					for i := range values {
						dest[i] = &values[i]
					}
					if err := rows.Scan(dest...); err != nil {
						t.Fatal(err)
					}
					out = append(out, values)
				}
				if err := rows.Err(); err != nil {
					t.Fatal(err)
				}
				return cols, out
			},
			Stride: stride,
			SchemaVersion: func(t testing.TB) int {
				var v int
				if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
					t.Fatal(err)
				}
				return v
			},
			SetSchemaVersion: func(t testing.TB, v int) {
				if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
					t.Fatal(err)
				}
			},
		}
	})
}

// migrated writes FlipGames into a store of its own, turns its database
// into an older one by the statements given, and returns the store opened
// again, the database beside it and the games' ids, having checked that
// every game reads as it did.
func migrated(t *testing.T, older ...string) (*store.SQLite, *sql.DB, []string) {
	t.Helper()
	dir := t.TempDir()
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ids := storetest.FlipGames(t, s)
	want := storetest.ReadGames(t, s, ids)
	s.Close()
	db := beside(t, dir)
	for _, q := range older {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if s, err = store.Open(dir); err != nil {
		t.Fatal(err)
	}
	storetest.SameGames(t, s, want)
	return s, db, ids
}

// TestMigrateV3: a database of schema version 3, with reseeds and moves
// made by the time rule but no checksums, opens with its games as they
// were, now with checksums.
func TestMigrateV3(t *testing.T) {
	ctx := context.Background()
	s, db, _ := migrated(t, "ALTER TABLE games DROP COLUMN checksum", "ALTER TABLE moves DROP COLUMN hash", "ALTER TABLE moves DROP COLUMN followed", "DROP TABLE vacations", "DROP TABLE ceremonies", "DROP TABLE passkeys", "DROP TABLE seat_owners", "DROP TABLE sessions", "DROP TABLE players", "PRAGMA user_version = 3")
	defer s.Close()
	if _, err := db.Exec(`UPDATE moves SET by_time = 0 WHERE game = 'playing' AND version = 2`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(ctx, "playing"); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("a migrated game's move made by time, changed: %v, want ErrDamaged", err)
	}
}

// TestMigrateV4: a database of schema version 4, before players, opens
// with its games as they were, and keeps players.
func TestMigrateV4(t *testing.T) {
	ctx := context.Background()
	s, _, ids := migrated(t, "DROP TABLE vacations", "DROP TABLE ceremonies", "DROP TABLE passkeys", "DROP TABLE seat_owners", "DROP TABLE sessions", "DROP TABLE players", "PRAGMA user_version = 4")
	defer s.Close()
	p := players.Player{ID: "p1", Name: "Guest 1000", Guest: true, Created: time.UnixMilli(1).UTC()}
	if err := s.CreatePlayer(ctx, p, players.Session{Hash: make([]byte, 32), Player: "p1", Created: p.Created, LastSeen: p.Created}); err != nil {
		t.Fatalf("a player in the migrated database: %v", err)
	}
	if err := s.OwnSeat(ctx, ids[0], 0, "p1", p.Created); err != nil {
		t.Fatalf("a seat owned in the migrated database: %v", err)
	}
}

// TestMigrateV5: a database of schema version 5, before passkeys and
// vacations, opens with its games as they were, and keeps both.
func TestMigrateV5(t *testing.T) {
	ctx := context.Background()
	s, _, _ := migrated(t, "DROP TABLE ceremonies", "DROP TABLE passkeys", "DROP TABLE vacations",
		"DROP INDEX seat_owners_player", "ALTER TABLE seat_owners DROP COLUMN line", "ALTER TABLE seat_owners DROP COLUMN version", "ALTER TABLE seat_owners DROP COLUMN summary",
		"CREATE INDEX seat_owners_player ON seat_owners (player, ended, updated)", "PRAGMA user_version = 5")
	defer s.Close()
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
