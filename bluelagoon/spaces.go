package bluelagoon

import (
	"fmt"
	"iter"
	"math/bits"
)

// Spaces is a set of spaces of one board, held as the bitset the engine
// itself computes with. It is the fast way to ask about many moves at once,
// in a few word operations instead of a loop over a list of moves; playout
// policies in search are its users. Which legal settler moves take a token:
//
//	settlers, _ := g.LegalSpaces()
//	grab := settlers.And(g.TokenSpaces())
//
// A Spaces is a small value (its methods return new values and never change
// it). The zero Spaces is empty and belongs to no board. Combining sets of
// two different boards panics.
type Spaces struct {
	board *Board
	bits  bitset
}

func (b *Board) spaces(set *bitset) Spaces { return Spaces{board: b, bits: *set} }

// words returns the number of bitset words s uses.
func (s *Spaces) words() int {
	if s.board == nil {
		return 0
	}
	return s.board.words
}

// Len returns the number of spaces in s.
func (s Spaces) Len() int { return s.bits.count(s.words()) }

// Empty reports whether s has no space.
func (s Spaces) Empty() bool {
	var any uint64
	for _, x := range s.bits[:s.words()] {
		any |= x
	}
	return any == 0
}

// Has reports whether c is in s.
func (s Spaces) Has(c Coord) bool {
	return s.board != nil && s.board.OnBoard(c) && s.bits.has(s.board.index(c))
}

// with returns the board of two sets being combined: the board they share,
// or the one of the two that is not nil. Sets of two boards do not mix.
func (s *Spaces) with(t *Spaces) *Board {
	if s.board == t.board || t.board == nil {
		return s.board
	}
	if s.board == nil {
		return t.board
	}
	panic("bluelagoon: combining spaces of two boards")
}

// And returns the spaces in both s and t.
func (s Spaces) And(t Spaces) Spaces {
	s.board = s.with(&t)
	for w := range s.words() {
		s.bits[w] &= t.bits[w]
	}
	return s
}

// Or returns the spaces in s or t.
func (s Spaces) Or(t Spaces) Spaces {
	s.board = s.with(&t)
	for w := range s.words() {
		s.bits[w] |= t.bits[w]
	}
	return s
}

// AndNot returns the spaces in s and not in t.
func (s Spaces) AndNot(t Spaces) Spaces {
	s.board = s.with(&t)
	for w := range s.words() {
		s.bits[w] &^= t.bits[w]
	}
	return s
}

// Add returns s with c added; a space off the board is not added.
func (s Spaces) Add(c Coord) Spaces {
	if s.board != nil && s.board.OnBoard(c) {
		s.bits.set(s.board.index(c))
	}
	return s
}

// Remove returns s without c.
func (s Spaces) Remove(c Coord) Spaces {
	if s.board != nil && s.board.OnBoard(c) {
		s.bits.clear(s.board.index(c))
	}
	return s
}

// Nth returns the space of s at position k, 0 <= k < Len(), counting in row,
// then column order. It panics if s has no such space.
func (s Spaces) Nth(k int) Coord {
	if n := s.Len(); k < 0 || k >= n {
		panic(fmt.Sprintf("bluelagoon: Spaces.Nth(%d) of a set of %d spaces", k, n))
	}
	return s.board.coords[selectSpace(s.bits[:s.words()], k)]
}

// All returns the spaces of s in row, then column order.
func (s Spaces) All() iter.Seq[Coord] {
	return func(yield func(Coord) bool) {
		for w, x := range s.bits[:s.words()] {
			for ; x != 0; x &= x - 1 {
				if !yield(s.board.coords[w<<6+bits.TrailingZeros64(x)]) {
					return
				}
			}
		}
	}
}

// LandSpaces returns the spaces of all the islands.
func (b *Board) LandSpaces() Spaces { return b.spaces(&b.land) }

// SeaSpaces returns the sea spaces.
func (b *Board) SeaSpaces() Spaces { return b.spaces(&b.sea) }

// StoneCircleSpaces returns the stone circles.
func (b *Board) StoneCircleSpaces() Spaces { return b.spaces(&b.stones) }

// IslandSpaces returns the spaces of island i, an index in Islands.
func (b *Board) IslandSpaces(i int) Spaces { return b.spaces(&b.island[i]) }

// LegalSpaces returns where the player to move may place a settler and where
// a village: the legal moves as two sets. Both are empty when the phase is
// over.
func (g *Game) LegalSpaces() (settlers, villages Spaces) {
	settlers.board, villages.board = g.board, g.board
	if !g.over {
		g.legalSets(int(g.current), (*[maxWords]uint64)(&settlers.bits), (*[maxWords]uint64)(&villages.bits))
	}
	return settlers, villages
}

// TokenSpaces returns the stone circles that still carry a token.
func (g *Game) TokenSpaces() Spaces {
	out := Spaces{board: g.board}
	for i, t := range g.tokens {
		if t != noToken {
			out.bits.set(g.board.circles[i])
		}
	}
	return out
}

// PieceSpaces returns the spaces of player p's pieces, settlers and villages.
func (g *Game) PieceSpaces(p int) Spaces { return g.board.spaces(&g.own[p]) }
