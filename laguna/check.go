package laguna

import (
	"errors"
	"fmt"
	"math/bits"
)

// Check proves a board fair and playable, or says every way it is not:
//
//   - no raft position touches two places (islands or the volcano), so a
//     docked raft is docked at one place;
//   - every island has room for a raft against its landing line, lying
//     across and lying down;
//   - every arrow points to a water square, not off the board or into land;
//   - with only two pearls aboard (the fewest a raft ever has), a raft
//     placed against any island's landing line, either way round, can
//     reach the volcano and every island (dock there: touch it with no
//     arrow showing), given some arrangement of its pearls at every step;
//   - no trap: every raft position a raft can reach is one from which it can
//     still reach the volcano and every island;
//   - no current loop a raft cannot leave: a raft whose pearls stay where
//     they are (as in the variant without the sand timer, where they may
//     only be moved after a reef) and that follows the arrows always comes
//     to a square where it may step freely or a reef ends its turn.
//
// See docs/laguna.md for why these and how each is worked out.
func Check(b *Board) error {
	var errs []error
	add := func(err error) {
		if len(errs) < 12 {
			errs = append(errs, err)
		}
	}
	for o := range Orient(2) {
		for s := range Square(NumSquares) {
			if b.fits[o][s] && b.touch[o][s] == -2 {
				add(fmt.Errorf("board: a raft %s at %v touches two places at once", orientWord(o), s))
			}
		}
	}
	for s := range Square(NumSquares) {
		if k := b.kind[s]; k.IsArrow() {
			r, c := s.Row()+dirRow[k.Dir()], s.Col()+dirCol[k.Dir()]
			if r < 0 || c < 0 || r >= Size || c >= Size || b.kind[At(r, c)] == Land {
				add(fmt.Errorf("board: the arrow at %v points off the board or into land", s))
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for o := range Orient(2) {
		m := newMoveGraph(b, o, checkPearls)
		for i := range NumIslands {
			if len(m.starts[i]) == 0 {
				add(fmt.Errorf("board: no raft %s fits against the landing line of %s", orientWord(o), placeName(i)))
			}
		}
		for _, err := range m.reachErrors() {
			add(err)
		}
		for _, err := range m.loopErrors() {
			add(err)
		}
	}
	return errors.Join(errs...)
}

func orientWord(o Orient) string {
	if o == Across {
		return "lying across"
	}
	return "lying down"
}

// checkPearls is the number of pearls aboard a raft the checker moves: the
// fewest a raft ever has. More pearls never make a step impossible that
// two make possible (they cover more reefs and arrows, and whatever two
// leave open, more can leave open too), so what two pearls reach, every
// raft reaches.
const checkPearls = 2

// moveGraph is the graph of the positions of a raft of one orientation on
// a board, alone on it, with a number of pearls aboard that it may arrange
// as it likes between steps (as the sand timer rules let it).
type moveGraph struct {
	b      *Board
	o      Orient
	starts [NumIslands][]Square
	// next[s] holds bit d when the raft may step from s in direction d
	// with some arrangement of its pearls.
	next [NumSquares]uint8
	// dock[s] is the place the raft at s is docked at with some
	// arrangement (touching, no arrow showing), or -1.
	dock [NumSquares]int8
}

// holeMasks returns, for a raft at s, the holes over reefs and over each
// direction's arrows.
func holeMasks(b *Board, o Orient, s Square) (reefs uint8, arrows [4]uint8) {
	for h := range Holes {
		k := b.kind[HoleSquare(o, s, h)]
		switch {
		case k == Reef:
			reefs |= 1 << h
		case k.IsArrow():
			arrows[k.Dir()] |= 1 << h
		}
	}
	return reefs, arrows
}

func newMoveGraph(b *Board, o Orient, pearls int) *moveGraph {
	m := &moveGraph{b: b, o: o}
	for s := range Square(NumSquares) {
		m.dock[s] = -1
		if !b.fits[o][s] {
			continue
		}
		if i := b.start[o][s]; i >= 0 {
			m.starts[i] = append(m.starts[i], s)
		}
		reefs, arrows := holeMasks(b, o, s)
		var can uint8 // the directions the raft may step in at all
		for d := range Dir(4) {
			if t, ok := step(o, s, d); ok && b.fits[o][t] {
				can |= 1 << d
			}
		}
		allArrows := arrows[0] | arrows[1] | arrows[2] | arrows[3]
		for covered := uint8(0); covered < 1<<Holes; covered++ {
			if bits.OnesCount8(covered) != pearls {
				continue
			}
			if allArrows&^covered == 0 && b.touch[o][s] >= 0 {
				m.dock[s] = b.touch[o][s]
			}
			if reefs&^covered != 0 {
				continue
			}
			m.next[s] |= can & allowed(arrows, covered, can)
		}
	}
	return m
}

// allowed returns the directions a raft may step in when the holes in
// covered hold pearls: those of the arrows showing that it can follow, or,
// when none shows or it can follow none, every direction.
func allowed(arrows [4]uint8, covered, can uint8) uint8 {
	var shown uint8
	for d := range 4 {
		if arrows[d]&^covered != 0 {
			shown |= 1 << d
		}
	}
	if shown&can != 0 {
		return shown & can
	}
	return 0xF
}

// reach returns the positions reachable from the given ones.
func (m *moveGraph) reach(from []Square) *[NumSquares]bool {
	var seen [NumSquares]bool
	todo := append([]Square(nil), from...)
	for _, s := range from {
		seen[s] = true
	}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for d := range Dir(4) {
			if m.next[s]>>d&1 == 0 {
				continue
			}
			if t, _ := step(m.o, s, d); !seen[t] {
				seen[t] = true
				todo = append(todo, t)
			}
		}
	}
	return &seen
}

// reachErrors checks that every position reachable from a start can dock
// at the volcano and at every island.
func (m *moveGraph) reachErrors() []error {
	var all []Square
	for i := range NumIslands {
		all = append(all, m.starts[i]...)
	}
	reached := m.reach(all)
	var errs []error
	for p := range NumIslands + 1 {
		// Which positions can dock at p: walk the steps backwards.
		var can [NumSquares]bool
		var todo []Square
		for s := range Square(NumSquares) {
			if m.dock[s] == int8(p) {
				can[s] = true
				todo = append(todo, s)
			}
		}
		for len(todo) > 0 {
			t := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for d := range Dir(4) {
				s, ok := step(m.o, t, (d+2)%4)
				if ok && m.b.fits[m.o][s] && !can[s] && m.next[s]>>d&1 != 0 {
					can[s] = true
					todo = append(todo, s)
				}
			}
		}
		for s := range Square(NumSquares) {
			if reached[s] && !can[s] {
				what := "a raft %s at %v, reachable from the islands, cannot reach %s"
				if m.b.start[m.o][s] >= 0 {
					what = "a raft %s placed at %v cannot reach %s"
				}
				errs = append(errs, fmt.Errorf("board: "+what, orientWord(m.o), s, placeName(p)))
				break
			}
		}
	}
	return errs
}

// loopErrors checks that a raft whose pearls stay put, following the
// arrows, always comes to a free step or a reef.
func (m *moveGraph) loopErrors() []error {
	var all []Square
	for i := range NumIslands {
		all = append(all, m.starts[i]...)
	}
	reached := m.reach(all)
	var errs []error
	for covered := uint8(0); covered < 1<<Holes; covered++ {
		n := bits.OnesCount8(covered)
		if n < 2 || n > 5 {
			continue
		}
		// out[s]: -1 the raft may step freely or stops on a reef (it gets
		// away); otherwise the directions the arrows force.
		var forced [NumSquares]uint8
		var free [NumSquares]bool
		for s := range Square(NumSquares) {
			if !m.b.fits[m.o][s] {
				continue
			}
			reefs, arrows := holeMasks(m.b, m.o, s)
			var can uint8
			for d := range Dir(4) {
				if t, ok := step(m.o, s, d); ok && m.b.fits[m.o][t] {
					can |= 1 << d
				}
			}
			a := allowed(arrows, covered, can)
			if reefs&^covered != 0 || a == 0xF {
				free[s] = true
			} else {
				forced[s] = a
			}
		}
		// A forced position gets away if some forced step leads to one
		// that does; repeat until nothing changes.
		for changed := true; changed; {
			changed = false
			for s := range Square(NumSquares) {
				if !m.b.fits[m.o][s] || free[s] {
					continue
				}
				for d := range Dir(4) {
					if forced[s]>>d&1 == 0 {
						continue
					}
					if t, _ := step(m.o, s, d); free[t] {
						free[s], changed = true, true
						break
					}
				}
			}
		}
		for s := range Square(NumSquares) {
			if reached[s] && !free[s] {
				errs = append(errs, fmt.Errorf("board: a raft %s at %v with pearls in holes %s follows the currents for ever", orientWord(m.o), s, holeList(covered)))
				return errs
			}
		}
	}
	return errs
}

// holeList writes a set of holes as "1,2,5".
func holeList(mask uint8) string {
	out := ""
	for h := range Holes {
		if mask>>h&1 != 0 {
			if out != "" {
				out += ","
			}
			out += string(rune('1' + h))
		}
	}
	return out
}
