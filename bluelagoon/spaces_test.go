package bluelagoon_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// allCoords returns every space of b in row, then column order.
func allCoords(b *bluelagoon.Board) []coord {
	var out []coord
	for r := range b.Height() {
		for c := range bluelagoon.RowLen(b.Height(), r) {
			out = append(out, coord{Row: r, Col: c})
		}
	}
	return out
}

// checkSpaces checks a set against the spaces for which want says yes: its
// members in order, Len, Empty, Has, Nth.
func checkSpaces(t *testing.T, what string, b *bluelagoon.Board, s bluelagoon.Spaces, want func(coord) bool) {
	t.Helper()
	var members []coord
	for _, c := range allCoords(b) {
		if want(c) {
			members = append(members, c)
		}
		if s.Has(c) != want(c) {
			t.Fatalf("%s: Has(%v) = %v", what, c, s.Has(c))
		}
	}
	if got := slices.Collect(s.All()); !slices.Equal(got, members) {
		t.Fatalf("%s: All() = %v, want %v", what, got, members)
	}
	if s.Len() != len(members) || s.Empty() != (len(members) == 0) {
		t.Fatalf("%s: Len() = %d, Empty() = %v with %d members", what, s.Len(), s.Empty(), len(members))
	}
	for k, c := range members {
		if got := s.Nth(k); got != c {
			t.Fatalf("%s: Nth(%d) = %v, want %v", what, k, got, c)
		}
	}
	for _, c := range []coord{{Row: -1, Col: 0}, {Row: 0, Col: -1}, {Row: b.Height(), Col: 0}} {
		if s.Has(c) {
			t.Fatalf("%s: Has(%v), off the board", what, c)
		}
	}
}

func TestBoardSpaces(t *testing.T) {
	for _, name := range bluelagoon.BoardNames() {
		b, err := bluelagoon.BoardByName(name)
		if err != nil {
			t.Fatal(err)
		}
		checkSpaces(t, name+" land", b, b.LandSpaces(), func(c coord) bool { return b.IslandAt(c) >= 0 })
		checkSpaces(t, name+" sea", b, b.SeaSpaces(), func(c coord) bool { return b.IslandAt(c) < 0 })
		checkSpaces(t, name+" stone circles", b, b.StoneCircleSpaces(), b.IsStoneCircle)
		for i := range b.Islands() {
			checkSpaces(t, name+" island", b, b.IslandSpaces(i), func(c coord) bool { return b.IslandAt(c) == i })
		}
	}
}

// TestGameSpaces plays random games on every board and checks, at every
// turn, the sets a game gives against its moves, tokens and pieces, and the
// set operations against the same operations on the members.
func TestGameSpaces(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, name := range bluelagoon.BoardNames() {
		b, err := bluelagoon.BoardByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for players := bluelagoon.MinPlayers; players <= bluelagoon.MaxPlayers; players++ {
			g := newGame(t, b, players, r.Uint64(), 0)
			for turn := 0; ; turn++ {
				moves := g.LegalMoves()
				legal := func(piece bluelagoon.Piece) func(coord) bool {
					return func(c coord) bool { return slices.Contains(moves, move{Piece: piece, At: c}) }
				}
				settlers, villages := g.LegalSpaces()
				if turn%7 == 0 || g.Over() {
					checkSpaces(t, "settler moves", b, settlers, legal(bluelagoon.Settler))
					checkSpaces(t, "village moves", b, villages, legal(bluelagoon.Village))
					tokens := g.TokenSpaces()
					checkSpaces(t, "tokens", b, tokens, func(c coord) bool { _, ok := g.TokenAt(c); return ok })
					p := g.Current()
					pieces := g.PieceSpaces(p)
					checkSpaces(t, "pieces", b, pieces, func(c coord) bool { q, _, ok := g.PieceAt(c); return ok && q == p })
					land := b.LandSpaces()
					checkSpaces(t, "and", b, settlers.And(tokens), func(c coord) bool { return settlers.Has(c) && tokens.Has(c) })
					checkSpaces(t, "or", b, villages.Or(pieces), func(c coord) bool { return villages.Has(c) || pieces.Has(c) })
					checkSpaces(t, "and not", b, settlers.AndNot(land), func(c coord) bool { return settlers.Has(c) && !land.Has(c) })
					first := land.Nth(0)
					checkSpaces(t, "remove", b, tokens.Remove(first), func(c coord) bool { return tokens.Has(c) && c != first })
					checkSpaces(t, "add", b, tokens.Add(first), func(c coord) bool { return tokens.Has(c) || c == first })
					off := coord{Row: -1, Col: 0}
					checkSpaces(t, "add off the board", b, tokens.Add(off), tokens.Has)
					var none bluelagoon.Spaces
					checkSpaces(t, "zero or", b, none.Or(tokens), tokens.Has)
					checkSpaces(t, "and zero", b, tokens.And(none), func(coord) bool { return false })
				}
				if g.Over() {
					break
				}
				g.ApplyRandom(r)
			}
		}
	}
}

func TestSpacesOfDifferentBoards(t *testing.T) {
	a, err := bluelagoon.BoardByName("standard")
	if err != nil {
		t.Fatal(err)
	}
	b, err := bluelagoon.BoardByName("space_invaders")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("combining sets of two boards did not panic")
		}
	}()
	a.LandSpaces().And(b.LandSpaces())
}

func TestSpacesNthOutOfRange(t *testing.T) {
	b, err := bluelagoon.BoardByName("standard")
	if err != nil {
		t.Fatal(err)
	}
	s := b.StoneCircleSpaces()
	for _, k := range []int{-1, s.Len()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Nth(%d) of %d spaces did not panic", k, s.Len())
				}
			}()
			s.Nth(k)
		}()
	}
}
