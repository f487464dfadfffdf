package bluelagoon_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

// A game from setup to the end, with checked moves.
func Example() {
	st, err := bluelagoon.New(game.Setup{Players: 2, Seed: 7})
	if err != nil {
		panic(err)
	}
	g := &st.Game
	fmt.Println(len(g.LegalMoves()), "legal moves at the start")
	for !g.Over() {
		if err := g.Apply(g.LegalMoves()[0]); err != nil {
			panic(err)
		}
	}
	totals := g.Totals()
	fmt.Println("totals", totals[:g.Players()], "winners", g.Winners())
	// Output:
	// 46 legal moves at the start
	// totals [135 108] winners [0]
}

// A playout policy that takes a token whenever one is within reach, and
// otherwise plays a uniformly random move.
func ExampleSpaces() {
	st, err := bluelagoon.New(game.Setup{Players: 2, Seed: 7})
	if err != nil {
		panic(err)
	}
	g := &st.Game
	r := rand.New(rand.NewPCG(1, 2))
	taken := 0
	for !g.Over() {
		settlers, _ := g.LegalSpaces()
		if grab := settlers.And(g.TokenSpaces()); !grab.Empty() {
			g.ApplyLegal(bluelagoon.Move{Piece: bluelagoon.Settler, At: grab.Nth(r.IntN(grab.Len()))})
			taken++
			continue
		}
		g.ApplyRandom(r)
	}
	fmt.Println(taken > 0, g.Over())
	// Output:
	// true true
}
