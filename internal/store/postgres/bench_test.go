//go:build unix

package postgres_test

import (
	"testing"

	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// BenchmarkAppendMove measures the PostgreSQL store's writes of moves
// (storetest.BenchAppendMove), into a schema of its own on LAGOON_POSTGRES.
func BenchmarkAppendMove(b *testing.B) {
	storetest.BenchAppendMove(b, func(b *testing.B) store.Store { return open(b, pgtest.URL(b)) })
}
