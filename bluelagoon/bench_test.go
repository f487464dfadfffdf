package bluelagoon

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// The benchmarks behind docs/performance.md. Positions are sampled from
// seeded random games so that every run measures the same work.

type benchCase struct {
	board   string
	players int
}

var benchCases = []benchCase{
	{"standard", 2},
	{"standard", 4},
	{"space_invaders", 2},
	{"space_invaders", 4},
}

func (c benchCase) name() string { return fmt.Sprintf("%s/%dp", c.board, c.players) }

func benchStart(b *testing.B, c benchCase) *Game {
	b.Helper()
	board, err := BoardByName(c.board)
	if err != nil {
		b.Fatal(err)
	}
	g, err := newGame(board, c.players, 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// benchPositions plays seeded random games and keeps every position where
// a move is to be made.
func benchPositions(b *testing.B, c benchCase, games int) []Game {
	start := benchStart(b, c)
	r := rand.New(rand.NewPCG(7, 7))
	var out []Game
	for range games {
		g := *start
		g.Reseed(r.Uint64())
		for !g.Over() {
			out = append(out, g)
			g.ApplyLegal(g.RandomMove(r))
		}
	}
	return out
}

// BenchmarkRandomGame plays whole games, both phases, with uniformly random
// legal moves: with ApplyRandom, the fast path, and with RandomMove then
// ApplyLegal, which goes through the move's coordinates.
func BenchmarkRandomGame(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name(), func(b *testing.B) {
			start := benchStart(b, c)
			for _, fused := range []bool{true, false} {
				name := "ApplyRandom"
				if !fused {
					name = "RandomMove"
				}
				b.Run(name, func(b *testing.B) {
					r := rand.New(rand.NewPCG(1, 2))
					moves := 0
					b.ReportAllocs()
					for b.Loop() {
						g := *start
						g.Reseed(r.Uint64())
						for !g.Over() {
							if fused {
								g.ApplyRandom(r)
							} else {
								g.ApplyLegal(g.RandomMove(r))
							}
							moves++
						}
					}
					b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
				})
			}
		})
	}
}

// BenchmarkLegalMoves lists the legal moves of positions from random games
// into a reused slice.
func BenchmarkLegalMoves(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name(), func(b *testing.B) {
			pos := benchPositions(b, c, 20)
			buf := make([]Move, 0, 2*maxSpaces)
			total := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				buf = pos[i%len(pos)].AppendLegalMoves(buf[:0])
				total += len(buf)
			}
			b.ReportMetric(float64(total)/float64(b.N), "moves/op")
		})
	}
}

// BenchmarkNumLegalMoves counts the legal moves of the same positions.
func BenchmarkNumLegalMoves(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name(), func(b *testing.B) {
			pos := benchPositions(b, c, 20)
			total := 0
			for i := 0; b.Loop(); i++ {
				total += pos[i%len(pos)].NumLegalMoves()
			}
		})
	}
}

// BenchmarkScores scores positions from random games.
func BenchmarkScores(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name(), func(b *testing.B) {
			pos := benchPositions(b, c, 20)
			total := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				s := pos[i%len(pos)].Scores()
				total += s[0].Total
			}
		})
	}
}

// cloneSink keeps Clone's result on the heap, as a caller's would be.
var cloneSink *Game

// BenchmarkClone copies a game in the middle of play, by assignment and with
// Clone (which allocates the copy itself and nothing more).
func BenchmarkClone(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name(), func(b *testing.B) {
			pos := benchPositions(b, c, 1)
			g := &pos[len(pos)/2]
			b.Run("assign", func(b *testing.B) {
				var dst Game
				b.ReportAllocs()
				for b.Loop() {
					dst = *g
				}
				_ = dst
			})
			b.Run("Clone", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					cloneSink = g.Clone()
				}
			})
		})
	}
}

// BenchmarkContractGame plays whole random games through the platform's
// contract, as a game-agnostic tool does: the legal moves listed, one
// chosen, then played checked (Play) or unchecked (PlayLegal). Set beside
// BenchmarkRandomGame's RandomMove, it is what the contract costs.
func BenchmarkContractGame(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name(), func(b *testing.B) {
			start := StateOf(benchStart(b, c))
			for _, checked := range []bool{true, false} {
				name := "Play"
				if !checked {
					name = "PlayLegal"
				}
				b.Run(name, func(b *testing.B) {
					r := rand.New(rand.NewPCG(1, 2))
					var st State
					var buf []game.Move
					moves := 0
					b.ReportAllocs()
					for b.Loop() {
						st.CopyFrom(start)
						st.Reseed(r.Uint64())
						for !st.Game.Over() {
							buf = st.AppendLegal(buf[:0])
							m := buf[r.IntN(len(buf))]
							if checked {
								if err := st.Play(m); err != nil {
									b.Fatal(err)
								}
							} else {
								st.PlayLegal(m)
							}
							moves++
						}
					}
					b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
				})
			}
		})
	}
}
