package bots

import (
	"math/bits"
	"sync"

	"github.com/lagoon-games/lagoon/laguna"
)

// maxPearls is the most pearls a raft can carry (the variant's five).
const maxPearls = 5

// tables are what the bots work out once per board: every square's kind,
// where a raft fits and which place it touches, and for each orientation
// and number of pearls aboard the raft's graph (the directions some
// arrangement of its pearls lets it step in, as the board checker has it)
// with the fewest steps from every position to docking at every place.
// They read the whole board: the search and the planner's memory of it
// (the planner reads through its belief, see belief.go).
type tables struct {
	b     *laguna.Board
	kind  [laguna.NumSquares]laguna.Kind
	fits  [2][laguna.NumSquares]bool
	touch [2][laguna.NumSquares]int8
	// next[o][k][s]: the directions a raft at s with k pearls may step
	// in with some arrangement; dock[o][k][s]: the place it docks at with
	// some arrangement that covers every arrow, or -1.
	next [2][maxPearls + 1][laguna.NumSquares]uint8
	dock [2][maxPearls + 1][laguna.NumSquares]int8
	// field[o][k][place][s] is the fewest steps from s to docking at the
	// place, -1 where it cannot.
	field [2][maxPearls + 1][laguna.NumIslands + 1][laguna.NumSquares]int16
	// between[o][k][i][j] is the fewest steps from docking at place i to
	// docking at place j, -1 if none.
	between [2][maxPearls + 1][laguna.NumIslands + 1][laguna.NumIslands + 1]int16
}

var tableCache sync.Map // *laguna.Board -> *tables

// tablesOf returns the tables of board b, worked out on first use.
func tablesOf(b *laguna.Board) *tables {
	if t, ok := tableCache.Load(b); ok {
		return t.(*tables)
	}
	t := newTables(b)
	actual, _ := tableCache.LoadOrStore(b, t)
	return actual.(*tables)
}

func newTables(b *laguna.Board) *tables {
	t := &tables{b: b}
	for s := range laguna.Square(laguna.NumSquares) {
		t.kind[s] = b.Kind(s)
	}
	for o := range laguna.Orient(2) {
		for s := range laguna.Square(laguna.NumSquares) {
			t.fits[o][s] = b.Fits(o, s)
			t.touch[o][s] = int8(b.Touches(o, s))
		}
	}
	for o := range laguna.Orient(2) {
		for k := laguna.MinAboard; k <= maxPearls; k++ {
			t.graph(o, k)
			for p := range laguna.NumIslands + 1 {
				t.distancesTo(o, k, p)
			}
			for i := range laguna.NumIslands + 1 {
				for j := range laguna.NumIslands + 1 {
					best := int16(-1)
					for s := range laguna.NumSquares {
						if d := t.field[o][k][j][s]; t.dock[o][k][s] == int8(i) && d >= 0 && (best < 0 || d < best) {
							best = d
						}
					}
					t.between[o][k][i][j] = best
				}
			}
		}
	}
	return t
}

// extent returns the rows and columns a raft lying o covers.
func extent(o laguna.Orient) (rows, cols int) {
	if o == laguna.Across {
		return 2, 3
	}
	return 3, 2
}

var dirRow = [4]int{-1, 0, 1, 0}
var dirCol = [4]int{0, 1, 0, -1}

// step returns the top-left square of a raft at s lying o moved one square
// in direction d, and false if it would leave the board.
func step(o laguna.Orient, s laguna.Square, d laguna.Dir) (laguna.Square, bool) {
	rows, cols := extent(o)
	r, c := s.Row()+dirRow[d], s.Col()+dirCol[d]
	if r < 0 || c < 0 || r+rows > laguna.Size || c+cols > laguna.Size {
		return 0, false
	}
	return laguna.At(r, c), true
}

// holeMasks returns, for a raft at s lying o on kinds, the holes over reefs
// and, by direction, the holes over arrows.
func holeMasks(kinds *[laguna.NumSquares]laguna.Kind, o laguna.Orient, s laguna.Square) (reefs uint8, arrows [4]uint8) {
	for h := range laguna.Holes {
		k := kinds[laguna.HoleSquare(o, s, h)]
		switch {
		case k == laguna.Reef:
			reefs |= 1 << h
		case k.IsArrow():
			arrows[k.Dir()] |= 1 << h
		}
	}
	return reefs, arrows
}

// shown returns the directions of the arrows showing through the open holes
// of a raft whose holes in covered hold pearls.
func shown(arrows [4]uint8, covered uint8) uint8 {
	var out uint8
	for d := range 4 {
		if arrows[d]&^covered != 0 {
			out |= 1 << d
		}
	}
	return out
}

// allowed returns the directions a raft may step in given the arrows
// showing and the directions it can step in at all.
func allowed(showing, can uint8) uint8 {
	if showing&can != 0 {
		return showing & can
	}
	return can
}

func (t *tables) graph(o laguna.Orient, k int) {
	t.graphOn(&t.kind, o, k, &t.next[o][k], &t.dock[o][k])
}

// graphOn works out the raft's graph on kinds into next and dock.
func (t *tables) graphOn(kinds *[laguna.NumSquares]laguna.Kind, o laguna.Orient, k int, next *[laguna.NumSquares]uint8, dock *[laguna.NumSquares]int8) {
	for s := range laguna.Square(laguna.NumSquares) {
		dock[s] = -1
		next[s] = 0
		if !t.fits[o][s] {
			continue
		}
		reefs, arrows := holeMasks(kinds, o, s)
		var can uint8
		for d := range laguna.Dir(4) {
			if n, ok := step(o, s, d); ok && t.fits[o][n] {
				can |= 1 << d
			}
		}
		for covered := uint8(0); covered < 1<<laguna.Holes; covered++ {
			if bits.OnesCount8(covered) != k {
				continue
			}
			sh := shown(arrows, covered)
			if sh == 0 && t.touch[o][s] >= 0 {
				dock[s] = t.touch[o][s]
			}
			if reefs&^covered != 0 {
				continue
			}
			next[s] |= allowed(sh, can)
		}
	}
}

func (t *tables) distancesTo(o laguna.Orient, k, p int) {
	t.distancesOn(o, &t.next[o][k], &t.dock[o][k], p, &t.field[o][k][p])
}

// distancesOn works out into dist the fewest steps to docking at place p
// on the graph next, dock.
func (t *tables) distancesOn(o laguna.Orient, next *[laguna.NumSquares]uint8, dock *[laguna.NumSquares]int8, p int, dist *[laguna.NumSquares]int16) {
	var todo []laguna.Square
	for s := range laguna.Square(laguna.NumSquares) {
		dist[s] = -1
		if dock[s] == int8(p) {
			dist[s] = 0
			todo = append(todo, s)
		}
	}
	for len(todo) > 0 {
		u := todo[0]
		todo = todo[1:]
		for d := range laguna.Dir(4) {
			s, ok := step(o, u, (d+2)%4)
			if ok && t.fits[o][s] && dist[s] < 0 && next[s]>>d&1 != 0 {
				dist[s] = dist[u] + 1
				todo = append(todo, s)
			}
		}
	}
}

// legs are the fewest steps of a raft of one orientation and number of
// pearls to docking at every place, and between places.
type legs struct {
	field   *[laguna.NumIslands + 1][laguna.NumSquares]int16
	between *[laguna.NumIslands + 1][laguna.NumIslands + 1]int16
}

// legs returns the board's legs for a raft lying o with k pearls.
func (t *tables) legs(o laguna.Orient, k int) legs {
	return legs{&t.field[o][k], &t.between[o][k]}
}

// legsOn works the legs out on kinds, a board as a bot believes it is.
func (t *tables) legsOn(kinds *[laguna.NumSquares]laguna.Kind, o laguna.Orient, k int) legs {
	var next [laguna.NumSquares]uint8
	var dock [laguna.NumSquares]int8
	t.graphOn(kinds, o, k, &next, &dock)
	l := legs{new([laguna.NumIslands + 1][laguna.NumSquares]int16), new([laguna.NumIslands + 1][laguna.NumIslands + 1]int16)}
	for p := range laguna.NumIslands + 1 {
		t.distancesOn(o, &next, &dock, p, &l.field[p])
	}
	for i := range laguna.NumIslands + 1 {
		for j := range laguna.NumIslands + 1 {
			best := int16(-1)
			for s := range laguna.NumSquares {
				if d := l.field[j][s]; dock[s] == int8(i) && d >= 0 && (best < 0 || d < best) {
					best = d
				}
			}
			l.between[i][j] = best
		}
	}
	return l
}
