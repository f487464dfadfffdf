package druids

import (
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// BenchmarkRandomGame plays whole two-player regular games by uniformly
// random choices, from a copy of the set-up state each time.
func BenchmarkRandomGame(b *testing.B) {
	start, err := newGame(config{Players: 2, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var st State
	var buf [256]game.Move
	decisions := 0
	b.ReportAllocs()
	for b.Loop() {
		st = *start
		st.rng.Seed(rng.Uint64(), 1)
		for !st.Over() {
			legal := st.AppendLegal(buf[:0])
			st.PlayLegal(legal[rng.IntN(len(legal))])
			decisions++
		}
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
}
