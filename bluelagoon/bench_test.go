package bluelagoon

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkQuickRandomGame(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	start, _ := NewGame(Setup{Board: StandardBoard(), Players: 2, Seed: 1})
	b.ReportAllocs()
	for b.Loop() {
		g := *start
		g.Reseed(r.Uint64())
		for !g.Over() {
			g.ApplyLegal(g.LegalMove(r.IntN(g.NumLegalMoves())))
		}
	}
}

func BenchmarkQuickScores(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	g, _ := NewGame(Setup{Board: StandardBoard(), Players: 2, Seed: 1})
	for i := 0; i < 60; i++ {
		g.ApplyLegal(g.LegalMove(r.IntN(g.NumLegalMoves())))
	}
	b.Log(g.String())
	b.ReportAllocs()
	for b.Loop() {
		g.Scores()
	}
}
