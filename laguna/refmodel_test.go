package laguna

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// This file holds a second reading of the rules, written plainly (squares
// as row and column, rafts as lists of squares, moves read from their text,
// loops everywhere) and independently of the engine's helpers. Random games
// compare the two at every move: the legal moves, and the position after
// each move.

type refRaft struct {
	placed bool
	r, c   int
	down   bool
	holes  [6]int // colour, or -1 for an open hole
}

type refGame struct {
	b      *Board
	n, max int
	timer  bool
	deal   bool
	limit  int
	phase  string
	seat   int
	steps  int
	peeked bool
	played int
	// The exchange in progress, if any: with an island, or with a raft
	// (-1 for none).
	withIsland, withRaft int
	rafts                []refRaft
	home                 []int
	begun                []bool
	reefEnd              []bool
	isl                  [8][4]int
	vol                  [4]int
	target               [8][4]int
}

// The holes' places in a raft across and down, hole by hole: written out
// rather than computed.
var refAcross = [6][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}
var refDown = [6][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}}

func (g *refGame) cells(rf refRaft) [6][2]int {
	offs := refAcross
	if rf.down {
		offs = refDown
	}
	var out [6][2]int
	for h, o := range offs {
		out[h] = [2]int{rf.r + o[0], rf.c + o[1]}
	}
	return out
}

func (g *refGame) kind(r, c int) Kind { return g.b.Kind(At(r, c)) }

func onBoard(r, c int) bool { return r >= 0 && c >= 0 && r < Size && c < Size }

func (g *refGame) fits(rf refRaft) bool {
	for _, cell := range g.cells(rf) {
		if !onBoard(cell[0], cell[1]) || g.kind(cell[0], cell[1]) == Land {
			return false
		}
	}
	return true
}

func (g *refGame) overlapsOther(p int, rf refRaft) bool {
	for q, o := range g.rafts {
		if q == p || !o.placed {
			continue
		}
		for _, a := range g.cells(rf) {
			for _, b := range g.cells(o) {
				if a == b {
					return true
				}
			}
		}
	}
	return false
}

func adjacent(a, b [2]int) bool {
	dr, dc := a[0]-b[0], a[1]-b[1]
	return dr*dr+dc*dc == 1
}

// touchPlace returns the places (islands 0-7, volcano 8) the raft touches.
func (g *refGame) touchPlaces(rf refRaft) []int {
	var out []int
	for _, a := range g.cells(rf) {
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			r, c := a[0]+d[0], a[1]+d[1]
			if onBoard(r, c) && g.kind(r, c) == Land && !slices.Contains(out, g.b.Place(At(r, c))) {
				out = append(out, g.b.Place(At(r, c)))
			}
		}
	}
	return out
}

func (g *refGame) rafTouch(p, q int) bool {
	for _, a := range g.cells(g.rafts[p]) {
		for _, b := range g.cells(g.rafts[q]) {
			if adjacent(a, b) {
				return true
			}
		}
	}
	return false
}

// shows returns what the open holes of a raft show: reefs and arrows'
// directions.
func (g *refGame) shows(rf refRaft) (reef bool, arrows []int) {
	for h, cell := range g.cells(rf) {
		if rf.holes[h] >= 0 {
			continue
		}
		k := g.kind(cell[0], cell[1])
		if k == Reef {
			reef = true
		}
		if k.IsArrow() && !slices.Contains(arrows, int(k.Dir())) {
			arrows = append(arrows, int(k.Dir()))
		}
	}
	return reef, arrows
}

func aboard(rf refRaft) int {
	n := 0
	for _, c := range rf.holes {
		if c >= 0 {
			n++
		}
	}
	return n
}

var refDirs = [4][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}

func (g *refGame) moved(p, d int) (refRaft, bool) {
	rf := g.rafts[p]
	rf.r += refDirs[d][0]
	rf.c += refDirs[d][1]
	return rf, g.fits(rf) && !g.overlapsOther(p, rf)
}

// dockedAt returns the place the raft to move is docked at, or -1.
func (g *refGame) dockedAt(p int) int {
	if g.withIsland >= 0 {
		return g.withIsland // what the exchange uncovered has no effect
	}
	if _, arrows := g.shows(g.rafts[p]); len(arrows) > 0 {
		return -1
	}
	if t := g.touchPlaces(g.rafts[p]); len(t) == 1 {
		return t[0]
	}
	return -1
}

func islandPearls(isl [4]int) int { return isl[0] + isl[1] + isl[2] + isl[3] }

// canDeal reports whether the pearls left in the volcano can all be put on
// the islands: a flow found by augmenting paths.
func (g *refGame) canDeal() bool {
	var left [4]int
	copy(left[:], g.vol[:])
	var room [8]int
	for i := range 8 {
		room[i] = 3 - islandPearls(g.isl[i])
	}
	var flow [4][8]bool
	total := 0
	for c := range 4 {
		for range left[c] {
			seen := map[string]bool{}
			if !g.augment(c, &flow, &room, seen) {
				return false
			}
			total++
		}
	}
	return true
}

// augment finds a place for one more pearl of colour c, moving others.
func (g *refGame) augment(c int, flow *[4][8]bool, room *[8]int, seen map[string]bool) bool {
	for i := range 8 {
		key := fmt.Sprint(c, i)
		if g.isl[i][c] > 0 || flow[c][i] || seen[key] {
			continue
		}
		seen[key] = true
		if room[i] > 0 {
			flow[c][i] = true
			room[i]--
			return true
		}
		// Island i is full of dealt pearls: move one of them elsewhere.
		for c2 := range 4 {
			if flow[c2][i] {
				flow[c2][i] = false
				if g.augment(c2, flow, room, seen) {
					flow[c][i] = true
					return true
				}
				flow[c2][i] = true
			}
		}
	}
	return false
}

// legal reports whether the move written text is legal, by the rules.
func (g *refGame) legal(text string) bool {
	f := strings.Fields(text)
	p := g.seat
	switch g.phase {
	case "over":
		return false
	case "place":
		if f[0] != "place" {
			return false
		}
		sq, _ := ParseSquare(f[2])
		rf := refRaft{placed: true, r: sq.Row(), c: sq.Col(), down: f[1] == "V"}
		if !g.fits(rf) || g.overlapsOther(p, rf) {
			return false
		}
		island := -1
		for _, cell := range g.cells(rf) {
			if l := g.b.Landing(At(cell[0], cell[1])); l >= 0 {
				island = l
			}
		}
		return island >= 0 && !slices.Contains(g.home, island)
	case "deal":
		if f[0] != "put" {
			return false
		}
		c, i := strings.Index(ColourNames, f[1]), strings.Index(IslandNames, f[2])
		if c == p || g.vol[c] == 0 || g.isl[i][c] > 0 || islandPearls(g.isl[i]) >= 3 {
			return false
		}
		h := *g
		h.vol[c]--
		h.isl[i][c]++
		return h.canDeal()
	}
	if f[0] == "place" || f[0] == "put" {
		return false
	}
	rf := g.rafts[p]
	n := aboard(rf)
	hole := func(w string) int { k, _ := strconv.Atoi(w); return k - 1 }
	colour := func(w string) int { return strings.Index(ColourNames, w) }
	// The loading of a raft short of two pearls, from its home island.
	if n < 2 {
		anyLoad := false
		for h := range 6 {
			for c := range 4 {
				anyLoad = anyLoad || rf.holes[h] < 0 && g.isl[g.home[p]][c] > 0
			}
		}
		switch f[0] {
		case "load":
			return rf.holes[hole(f[2])] < 0 && g.isl[g.home[p]][colour(f[1])] > 0
		case "end":
			return !anyLoad
		}
		return false
	}
	reef, arrows := g.shows(rf)
	dock := g.dockedAt(p)
	atHome := g.steps == 0 && !g.begun[p] && n < 3
	switch f[0] {
	case "N", "E", "S", "W":
		if reef {
			return false
		}
		d := strings.Index("NESW", f[0])
		if _, ok := g.moved(p, d); !ok {
			return false
		}
		if !slices.Contains(arrows, d) {
			for _, a := range arrows {
				if _, ok := g.moved(p, a); ok {
					return false // an arrow it can follow shows
				}
			}
		}
		return true
	case "end":
		return true
	case "peek":
		return g.steps == 0 && !g.peeked
	case "shift":
		// Without the timer, only to cover the reef that ended the
		// last turn; before the first step, never uncovering a reef or
		// an arrow.
		if reef, _ := g.shows(rf); !g.timer && !(g.reefEnd[p] && g.steps == 0 && reef) {
			return false
		}
		if c := g.cells(rf)[hole(f[1])]; g.steps == 0 && g.kind(c[0], c[1]) != Water {
			return false
		}
		return rf.holes[hole(f[1])] >= 0 && rf.holes[hole(f[2])] < 0
	case "load":
		h, c := hole(f[2]), colour(f[1])
		if rf.holes[h] >= 0 {
			return false
		}
		if dock >= 0 && dock < 8 {
			return g.isl[dock][c] > 0 && n < g.max
		}
		return atHome && g.isl[g.home[p]][c] > 0
	case "unload":
		h := hole(f[1])
		return dock >= 0 && dock < 8 && rf.holes[h] >= 0 && n > 2 && islandPearls(g.isl[dock]) < 3
	case "swap":
		h, c := hole(f[1]), colour(f[2])
		return dock >= 0 && dock < 8 && rf.holes[h] >= 0 && rf.holes[h] != c && g.isl[dock][c] > 0
	case "deliver":
		h := hole(f[1])
		return dock == 8 && g.n > 1 && rf.holes[h] == p && n > 2
	case "trade":
		q, mine, theirs := colour(f[1]), hole(f[2]), hole(f[3])
		if q == p || q >= g.n || len(arrows) > 0 && g.withRaft != q || !g.rafTouch(p, q) {
			return false
		}
		o := g.rafts[q]
		if rf.holes[mine] < 0 || o.holes[theirs] < 0 {
			return false
		}
		if mine == theirs {
			return rf.holes[mine] != o.holes[mine]
		}
		return o.holes[mine] < 0 && rf.holes[theirs] < 0
	}
	return false
}

// apply plays the legal move written text.
func (g *refGame) apply(text string) {
	f := strings.Fields(text)
	p := g.seat
	hole := func(w string) int { k, _ := strconv.Atoi(w); return k - 1 }
	colour := func(w string) int { return strings.Index(ColourNames, w) }
	under := func(rf refRaft, h int) Kind { c := g.cells(rf)[h]; return g.kind(c[0], c[1]) }
	// Exchanging with an island or a raft, or going on doing so, starts or
	// keeps the exchange; any other action but a peek ends it.
	wi, wr := -1, -1
	switch f[0] {
	case "peek":
		wi, wr = g.withIsland, g.withRaft
	case "load", "unload", "swap":
		if d := g.dockedAt(p); d >= 0 && d < 8 {
			wi = d
		}
	case "trade":
		wr = colour(f[1])
	}
	g.withIsland, g.withRaft = wi, wr
	endTurn := func(reef bool) {
		g.withIsland, g.withRaft = -1, -1
		g.begun[p], g.reefEnd[p] = true, reef
		g.steps, g.peeked = 0, false
		g.played++
		g.seat = (p + 1) % g.n
		if g.limit > 0 && g.n > 1 && g.played >= g.limit*g.n {
			g.phase = "over"
		}
	}
	solved := func() {
		if g.n == 1 && g.isl == g.target {
			g.phase = "over"
		}
	}
	rf := &g.rafts[p]
	switch f[0] {
	case "place":
		sq, _ := ParseSquare(f[2])
		*rf = refRaft{placed: true, r: sq.Row(), c: sq.Col(), down: f[1] == "V", holes: rf.holes}
		for _, cell := range g.cells(*rf) {
			if l := g.b.Landing(At(cell[0], cell[1])); l >= 0 {
				g.home[p] = l
			}
		}
		g.seat++
		if g.seat == g.n {
			g.seat, g.phase = 0, "play"
			if g.deal {
				g.phase = "deal"
			}
		}
	case "put":
		c, i := colour(f[1]), strings.Index(IslandNames, f[2])
		g.vol[c]--
		g.isl[i][c]++
		g.phase = "play"
		for k := 1; k <= g.n; k++ {
			q := (p + k) % g.n
			h := *g
			h.seat, h.phase = q, "deal"
			if slices.ContainsFunc(allMoves(), h.legal) {
				g.seat, g.phase = q, "deal"
				return
			}
		}
		g.seat = 0
	case "N", "E", "S", "W":
		*rf, _ = g.moved(p, strings.Index("NESW", f[0]))
		g.steps++
		g.peeked = false
		if reef, _ := g.shows(*rf); reef {
			endTurn(true)
		}
	case "end":
		endTurn(false)
	case "peek":
		g.peeked = true
	case "shift":
		a, b := hole(f[1]), hole(f[2])
		rf.holes[b], rf.holes[a] = rf.holes[a], -1
		if under(*rf, a) == Reef {
			endTurn(true)
		}
	case "load":
		i := g.dockedAt(p)
		if i < 0 || i > 7 {
			i = g.home[p]
		}
		g.isl[i][colour(f[1])]--
		rf.holes[hole(f[2])] = colour(f[1])
		solved()
	case "unload":
		h := hole(f[1])
		g.isl[g.dockedAt(p)][rf.holes[h]]++
		rf.holes[h] = -1
		solved()
	case "swap":
		h, c, i := hole(f[1]), colour(f[2]), g.dockedAt(p)
		g.isl[i][rf.holes[h]]++
		g.isl[i][c]--
		rf.holes[h] = c
		solved()
	case "deliver":
		h := hole(f[1])
		g.vol[p]++
		rf.holes[h] = -1
		if g.vol[p] >= 8-g.n {
			g.phase = "over"
		} else if under(*rf, h) == Reef {
			endTurn(true)
		}
	case "trade":
		o := &g.rafts[colour(f[1])]
		mine, theirs := hole(f[2]), hole(f[3])
		a, b := rf.holes[mine], o.holes[theirs]
		rf.holes[mine], o.holes[theirs] = -1, -1
		o.holes[mine], rf.holes[theirs] = a, b
	}
}

var allMoveTexts []string

func allMoves() []string {
	if allMoveTexts == nil {
		for m := game.Move(0); m < numMoves; m++ {
			if _, err := ParseMove(MoveText(m)); err == nil {
				allMoveTexts = append(allMoveTexts, MoveText(m))
			}
		}
	}
	return allMoveTexts
}

// refOf reads the engine's state into the model.
func refOf(s *State) refGame {
	g := refGame{b: s.board, n: int(s.players), max: int(s.maxAboard), timer: s.timer, deal: s.deal, limit: int(s.limit),
		phase: phaseNames[s.phase], seat: int(s.seat), steps: int(s.steps), peeked: s.peeked, played: int(s.played),
		withIsland: -1, withRaft: -1}
	switch {
	case s.with >= withRaft:
		g.withRaft = int(s.with) - withRaft
	case s.with >= 0:
		g.withIsland = int(s.with)
	}
	for p := range g.n {
		r := s.rafts[p]
		rf := refRaft{placed: r.placed(), down: r.orient == Down}
		if rf.placed {
			rf.r, rf.c = Square(r.at).Row(), Square(r.at).Col()
		}
		for h := range Holes {
			rf.holes[h] = int(r.holes[h])
		}
		g.rafts = append(g.rafts, rf)
		g.home = append(g.home, int(s.home[p]))
		g.begun = append(g.begun, s.begun[p])
		g.reefEnd = append(g.reefEnd, s.reefEnd[p])
	}
	for i := range NumIslands {
		for c := range NumColours {
			g.isl[i][c] = int(s.islands[i][c])
			g.target[i][c] = int(s.target[i][c])
		}
	}
	for c := range NumColours {
		g.vol[c] = int(s.volcano[c])
	}
	return g
}

func TestAgainstTheReferenceModel(t *testing.T) {
	setups := []game.Setup{
		{Players: 2, Options: map[string]string{"limit": "12"}},
		{Players: 4, Options: map[string]string{"limit": "8", "board": "hard"}},
		{Players: 3, Options: map[string]string{"limit": "8", "raft": "5", "deal": "players", "board": "hard"}},
		{Players: 2, Options: map[string]string{"limit": "12", "timer": "off"}},
		{Players: 1, Options: map[string]string{}},
	}
	for i, setup := range setups {
		setup.Seed = uint64(7 + i)
		st, err := Rules.NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := newRand(setup.Seed)
		for step := 0; !s.Over() && step < 3000; step++ {
			g := refOf(s)
			var want []string
			for _, text := range allMoves() {
				if g.legal(text) {
					want = append(want, text)
				}
			}
			var got []string
			legal := s.AppendLegal(nil)
			for _, m := range legal {
				got = append(got, MoveText(m))
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("setup %d step %d: %s\nengine: %v\nmodel:  %v", i, step, s, got, want)
			}
			m := legal[r.IntN(len(legal))]
			if m == End && len(legal) > 1 && r.IntN(6) != 0 {
				m = legal[r.IntN(len(legal))]
			}
			g.apply(MoveText(m))
			if err := s.Play(m); err != nil {
				t.Fatal(err)
			}
			if after := refOf(s); !reflect.DeepEqual(after, g) {
				t.Fatalf("setup %d step %d: after %s the engine has %+v\nthe model %+v", i, step, MoveText(m), after, g)
			}
		}
	}
}
