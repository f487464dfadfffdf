package bluelagoon

import "math/bits"

// maxWords bounds the size of a bitset: 9 words of 64 bits hold every space
// of a board up to MaxHeight rows (564 spaces at height 24). A game keeps its sets of spaces in bitsets of
// this fixed size so that copying a game is one flat copy with no pointers to
// follow, while every operation touches only the words the board really uses.
const maxWords = 9

// maxSpaces bounds the space indexes; one past the last space of any board
// is still below it, which the neighbour tables use as "no neighbour".
const maxSpaces = maxWords * 64

// bitset is a set of spaces, by space index.
type bitset [maxWords]uint64

func (b *bitset) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }
func (b *bitset) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b *bitset) clear(i int)    { b[i>>6] &^= 1 << (uint(i) & 63) }

// count returns the number of spaces in the first n words.
func (b *bitset) count(n int) int {
	c := 0
	for i := range b[:n] {
		c += bits.OnesCount64(b[i])
	}
	return c
}

// next returns the smallest space index >= i in b, or -1, looking at n words.
func (b *bitset) next(i, n int) int {
	w := i >> 6
	if w >= n {
		return -1
	}
	x := b[w] &^ (1<<(uint(i)&63) - 1)
	for {
		if x != 0 {
			return w<<6 + bits.TrailingZeros64(x)
		}
		w++
		if w >= n {
			return -1
		}
		x = b[w]
	}
}
