package bots

import (
	"testing"

	"github.com/lagoon-games/lagoon/laguna"
)

// BenchmarkTables works out a board's tables: what a planner that forgot a
// square pays to plan on what it believes.
func BenchmarkTables(b *testing.B) {
	hard := laguna.BoardByName("hard")
	for range b.N {
		newTables(hard)
	}
}
