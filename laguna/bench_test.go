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

// BenchmarkRoute routes a raft across the hard board to the volcano.
func BenchmarkRoute(b *testing.B) {
	s, err := newGame(1, options{Board: BoardByName("hard")}, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, text := range []string{"place H f3", "load " + island(s, 0)[:1] + " 1", "load " + island(s, 0)[1:2] + " 5"} {
		if err := game.PlayText(s, text); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		if _, _, ok := s.Route(4, DefaultRouteCosts); !ok {
			b.Fatal("no route")
		}
	}
}
