package laguna

import (
	"testing"
	"unsafe"

	"github.com/lagoon-games/lagoon/game"
)

// BenchmarkRandomTurn plays random moves on the hard board with four
// players, copying the position back each time the game ends: how fast a
// search's playouts go through the engine (legal moves, play, copy).
func BenchmarkRandomTurn(b *testing.B) {
	st, err := Rules.NewGame(game.Setup{Players: 4, Options: map[string]string{"board": "hard", "limit": "30"}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	start := st.(*State)
	s := *start
	r := newRand(1)
	buf := make([]game.Move, 0, 512)
	b.ResetTimer()
	for range b.N {
		if s.Over() {
			s.CopyFrom(start)
		}
		legal := s.AppendLegal(buf[:0])
		if err := s.Play(legal[r.IntN(len(legal))]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(unsafe.Sizeof(s)), "state-bytes")
}

// BenchmarkCheck proves the hard board fair.
func BenchmarkCheck(b *testing.B) {
	hard := BoardByName("hard")
	for range b.N {
		if err := Check(hard); err != nil {
			b.Fatal(err)
		}
	}
}
