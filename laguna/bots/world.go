package bots

import (
	"fmt"
	"strings"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// raftInfo is a raft as the bots see it: where it lies and its pearls.
type raftInfo struct {
	at     laguna.Square
	o      laguna.Orient
	placed bool
	holes  [laguna.Holes]int8 // a pearl's colour, or -1
}

func (r *raftInfo) mask() uint8 {
	var m uint8
	for h, c := range r.holes {
		if c >= 0 {
			m |= 1 << h
		}
	}
	return m
}

func (r *raftInfo) aboard() int {
	n := 0
	for _, c := range r.holes {
		if c >= 0 {
			n++
		}
	}
	return n
}

func (r *raftInfo) count(colour int) int {
	n := 0
	for _, c := range r.holes {
		if int(c) == colour {
			n++
		}
	}
	return n
}

// rect returns the rows and columns a raft lying o at s covers, [r0, r1)
// and [c0, c1).
func rect(o laguna.Orient, s laguna.Square) (r0, c0, r1, c1 int) {
	rows, cols := extent(o)
	return s.Row(), s.Col(), s.Row() + rows, s.Col() + cols
}

// world is what the bots read of a game besides the board: the rafts, the
// pearls on the islands and in the volcano, the options that matter.
type world struct {
	players   int
	maxAboard int
	timer     bool
	rafts     [4]raftInfo
	home      [4]int8
	islands   [laguna.NumIslands][laguna.NumColours]uint8
	volcano   [laguna.NumColours]uint8
}

// overlaps reports whether seat p's raft lying o at s would lie on another
// placed raft.
func (w *world) overlaps(p int, o laguna.Orient, s laguna.Square) bool {
	r0, c0, r1, c1 := rect(o, s)
	for q := range w.players {
		r := &w.rafts[q]
		if q == p || !r.placed {
			continue
		}
		q0, d0, q1, d1 := rect(r.o, r.at)
		if r0 < q1 && q0 < r1 && c0 < d1 && d0 < c1 {
			return true
		}
	}
	return false
}

// touching reports whether a raft lying o at s touches seat q's raft along
// an edge.
func (w *world) touching(o laguna.Orient, s laguna.Square, q int) bool {
	r := &w.rafts[q]
	if !r.placed {
		return false
	}
	r0, c0, r1, c1 := rect(o, s)
	q0, d0, q1, d1 := rect(r.o, r.at)
	rows := r0 < q1 && q0 < r1
	cols := c0 < d1 && d0 < c1
	return rows && (c1 == d0 || d1 == c0) || cols && (r1 == q0 || q1 == r0)
}

// islandCount returns the pearls on island i.
func (w *world) islandCount(i int) int {
	n := 0
	for _, c := range w.islands[i] {
		n += int(c)
	}
	return n
}

// optionsOf reads the options the bots need from the state's notation, whose
// first field is the setup (public: the table chose it).
func optionsOf(st *laguna.State) (maxAboard int, timer bool) {
	setup, _, _ := strings.Cut(st.String(), ";")
	maxAboard, timer = 4, true
	for f := range strings.FieldsSeq(setup) {
		switch f {
		case "raft=5":
			maxAboard = 5
		case "timer=off":
			timer = false
		}
	}
	return maxAboard, timer
}

// viewWorld reads the world from what seat sees of st (its view), and the
// raft squares whose pearls hide what lies under them, as a bit set over
// the holes of each raft.
func viewWorld(st *laguna.State, seat int) (w world, v laguna.StateView, hidden [4]uint8, err error) {
	v, ok := st.View(game.Viewer{Seat: seat}).(laguna.StateView)
	if !ok {
		return w, v, hidden, fmt.Errorf("laguna bots: unexpected view %T", st.View(game.Viewer{Seat: seat}))
	}
	w.players = st.Players()
	w.maxAboard, w.timer = optionsOf(st)
	for p, rv := range v.Rafts {
		r := &w.rafts[p]
		for h := range r.holes {
			r.holes[h] = -1
		}
		w.home[p] = -1
		if rv.Home != "" {
			w.home[p] = int8(strings.Index(laguna.IslandNames, rv.Home))
		}
		if rv.At == "" {
			continue
		}
		sq, err := laguna.ParseSquare(rv.At)
		if err != nil {
			return w, v, hidden, err
		}
		r.at, r.placed = sq, true
		if rv.Orient == laguna.OrientNames[laguna.Down] {
			r.o = laguna.Down
		}
		for h, hv := range rv.Holes {
			if hv.Pearl != "" {
				r.holes[h] = int8(strings.Index(laguna.ColourNames, hv.Pearl))
				if hv.Shows == "" {
					hidden[p] |= 1 << h
				}
			}
		}
	}
	for i, pearls := range v.Islands {
		for _, ch := range pearls {
			w.islands[i][strings.IndexRune(laguna.ColourNames, ch)]++
		}
	}
	for c, n := range v.Volcano {
		w.volcano[c] = uint8(n)
	}
	return w, v, hidden, nil
}
