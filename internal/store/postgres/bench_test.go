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

// BenchmarkPlayerGames measures a player's games read from PostgreSQL
// (storetest.BenchPlayerGames) with 10,000 ended games and 200 in
// progress.
func BenchmarkPlayerGames(b *testing.B) {
	storetest.BenchPlayerGames(b, func(b *testing.B) store.Store { return open(b, pgtest.URL(b)) }, 10_000, 200)
}
