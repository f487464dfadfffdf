//go:build unix

package store_test

import (
	"testing"

	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// BenchmarkAppendMove measures the SQLite store's writes of moves
// (storetest.BenchAppendMove).
func BenchmarkAppendMove(b *testing.B) {
	storetest.BenchAppendMove(b, func(b *testing.B) store.Store {
		s, err := store.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		return s
	})
}

// BenchmarkPlayerGames measures a player's games read from SQLite
// (storetest.BenchPlayerGames) with 10,000 ended games and 200 in
// progress.
func BenchmarkPlayerGames(b *testing.B) {
	storetest.BenchPlayerGames(b, func(b *testing.B) store.Store {
		s, err := store.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		return s
	}, 10_000, 200)
}
