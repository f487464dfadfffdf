package postgres_test

import (
	"context"
	"fmt"
	"testing"

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
		return storetest.Harness{
			Open: func(t testing.TB) store.Store { return open(t, address) },
			OpenErr: func(t testing.TB) (store.Store, error) {
				s, err := postgres.Open(context.Background(), address)
				if err != nil {
					return nil, err
				}
				return s, nil
			},
			Exec: func(t testing.TB, query string, args ...any) { pgtest.Exec(t, address, query, args...) },
			SchemaVersion: func(t testing.TB) int {
				return int(pgtest.QueryInt(t, address, `SELECT version FROM lagoon_schema`))
			},
			SetSchemaVersion: func(t testing.TB, v int) {
				pgtest.Exec(t, address, fmt.Sprintf(`UPDATE lagoon_schema SET version = %d`, v))
			},
		}
	})
}
