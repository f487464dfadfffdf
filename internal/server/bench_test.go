package server

import (
	"context"
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/store"
)

// BenchmarkMove measures a move from its request to its broadcast: the
// checks, the write to the store (group commit, synchronous=FULL), the new
// state's encoding and the events, with two subscribers queued.
func BenchmarkMove(b *testing.B) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s, err := New(context.Background(), testConfig(b, st))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	newGame := func() *match {
		sg := &store.Game{ID: newGameID(), Game: "bluelagoon", Options: map[string]string{"board": "standard", "first": "0"}, Players: 2, Seed: 1,
			Seats: []store.Seat{{Kind: kindHuman, Joined: true}, {Kind: kindHuman, Joined: true}}}
		if err := st.Create(context.Background(), sg); err != nil {
			b.Fatal(err)
		}
		g, err := s.loadGame(sg)
		if err != nil {
			b.Fatal(err)
		}
		for range 2 {
			g.subs[&wsConn{seat: -1, out: make(chan outgoing, 1024)}] = struct{}{}
		}
		return g
	}
	g := newGame()
	var legal []game.Move
	b.ReportAllocs()
	for b.Loop() {
		if g.cur.Over() {
			b.StopTimer()
			g = newGame()
			b.StartTimer()
		}
		v := len(g.moves)
		legal = g.cur.AppendLegal(legal[:0])
		if _, _, e := g.play(context.Background(), moveRequest{seat: g.cur.ToMove(), version: v, move: legal[v%len(legal)]}); e != nil {
			b.Fatal(e)
		}
	}
}
