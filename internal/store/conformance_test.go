package store_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// TestContract checks the SQLite store against the contract, a data
// directory of its own for each test.
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		dir := t.TempDir()
		// beside is a connection of its own to the database, as a hand
		// would have: it knows nothing of the store's foreign keys.
		beside := func(t testing.TB) *sql.DB {
			db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "lagoon.db")+"?_pragma=busy_timeout(10000)")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}
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
			Exec: func(t testing.TB, query string, args ...any) {
				if _, err := beside(t).Exec(query, args...); err != nil {
					t.Fatal(err)
				}
			},
			SchemaVersion: func(t testing.TB) int {
				var v int
				if err := beside(t).QueryRow("PRAGMA user_version").Scan(&v); err != nil {
					t.Fatal(err)
				}
				return v
			},
			SetSchemaVersion: func(t testing.TB, v int) {
				if _, err := beside(t).Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
					t.Fatal(err)
				}
			},
		}
	})
}
