package laguna

import (
	"container/heap"
	"slices"

	"github.com/lagoon-games/lagoon/game"
)

// SoloPar returns the par of a solo game from s (being placed, or in play):
// the fewest steps of the plans that finish each island in one visit (the
// island the raft starts at may be visited twice: once to load, once to
// finish), and false when the search gives up after budget positions. Such
// a plan exists for every target (the rules let a raft carry any pearl
// anywhere), so the par is a score a player can reach; a plan that goes
// back to an island it already finished could be shorter, but the tests
// find none on the puzzles where the search without that restriction ends
// (see TestParAgainstTheWholeSearch).
//
// The search is A* over plans: the raft's dock position, the pearls aboard
// (by colour: which hole holds which costs no step, since pearls move
// between holes without stepping) and the islands' pearls. From a dock
// position the raft sails, by the fewest steps its number of pearls allows
// (the checker's graph: some arrangement of its pearls permits each step),
// to dock at an island not yet as the target wants it, and there shares its
// cargo and the island's pearls so that the island is as the target wants
// (docked, with the arrows covered, before and after). The estimate of the
// steps left is the lightest tree joining the raft and the islands still to
// finish, each pair weighed by the fewest steps between them: a plan must
// pass through them all, so it never overestimates.
func SoloPar(s *State, budget int) (int, bool) {
	_, par, ok := solve(s, budget)
	return par, ok
}

// solve runs the search of SoloPar and returns the solver, whose parent
// links hold the plan, and the par.
func solve(s *State, budget int) (*solver, int, bool) {
	if !s.Solo() || !s.timer || s.phase == phOver || s.phase == phDeal {
		return nil, 0, s.phase == phOver
	}
	sv := newSolver(s)
	if s.phase == phPlace {
		sv.placings(s)
	} else {
		r := &s.rafts[0]
		st := parState{o: r.orient, at: r.at, isl: s.islands}
		for _, c := range r.holes {
			if c >= 0 {
				st.cargo[c]++
			}
		}
		if s.loadingAtHome() {
			sv.startLoads(st, int(s.home[0]))
		}
		if st.aboard() >= MinAboard {
			sv.push(st, 0)
		}
	}
	for expanded := 0; sv.q.Len() > 0; expanded++ {
		it := heap.Pop(sv.q).(parItem)
		if expanded > budget {
			return nil, 0, false
		}
		st, g := it.st, it.g
		if sv.seen[st] < g {
			continue
		}
		if st.isl == sv.target {
			sv.end = st
			return sv, g, true
		}
		sv.cur, sv.expanding = st, true
		k := st.aboard()
		i := sv.graphs[st.o][k].dock[st.at]
		if i >= 0 && i < NumIslands {
			sv.splits(st, int(i), func(next parState) {
				// Docked with what it carries now and with what it
				// will carry (the arrows stay covered throughout), and
				// leaving the island as the target wants it, or
				// anyhow at the start.
				if sv.graphs[next.o][next.aboard()].dock[next.at] == i && (g == 0 || next.isl[i] == sv.target[i]) {
					sv.push(next, g)
				}
			})
		}
		// Sail to dock at another island that is not as the target wants
		// it.
		for _, t := range sv.docks[st.o][k] {
			j := sv.graphs[st.o][k].dock[t]
			if j == i || st.isl[j] == sv.target[j] {
				continue
			}
			if d := sv.dist(st.o, k, Square(st.at), t); d >= 0 {
				next := st
				next.at = int16(t)
				sv.push(next, g+d)
			}
		}
	}
	return nil, 0, false
}

// dist returns the fewest steps of a raft with k pearls from s to t, -1 if
// it cannot; the distances from s are worked out once.
func (sv *solver) dist(o Orient, k int, s, t Square) int {
	key := int(o)<<20 | k<<16 | int(s)
	d, ok := sv.from[key]
	if !ok {
		d = sv.graphs[o][k].distancesFrom(s)
		sv.from[key] = d
	}
	return int(d[t])
}

// distancesFrom returns the fewest steps from s to every position, -1
// where it cannot go.
func (m *moveGraph) distancesFrom(s Square) *[NumSquares]int16 {
	var dist [NumSquares]int16
	for i := range dist {
		dist[i] = -1
	}
	dist[s] = 0
	todo := []Square{s}
	for len(todo) > 0 {
		u := todo[0]
		todo = todo[1:]
		for d := range Dir(4) {
			if m.next[u]>>d&1 == 0 {
				continue
			}
			if v, _ := step(m.o, u, d); dist[v] < 0 {
				dist[v] = dist[u] + 1
				todo = append(todo, v)
			}
		}
	}
	return &dist
}

// parState is a position of the solo search.
type parState struct {
	o     Orient
	at    int16
	cargo [NumColours]uint8
	isl   [NumIslands][NumColours]uint8
}

func (st *parState) aboard() int {
	return int(st.cargo[0] + st.cargo[1] + st.cargo[2] + st.cargo[3])
}

type solver struct {
	max    int
	target [NumIslands][NumColours]uint8
	// graphs[o][k] is the raft's graph with k pearls aboard (k from 2 to
	// max; nil otherwise).
	graphs [2][6]*moveGraph
	// far[o][i][s] is the fewest steps from s to docking at island i with
	// the most pearls aboard, or -1.
	far [2][NumIslands][NumSquares]int16
	// between[o][i][j] is the fewest steps from docking at island i to
	// docking at island j, with the most pearls aboard.
	between [2][NumIslands][NumIslands]int
	// docks[o][k] are the positions where a raft with k pearls docks at
	// an island.
	docks [2][6][]Square
	from  map[int]*[NumSquares]int16
	seen  map[parState]int
	q     *queue[parItem]
	// parent links each position to the one it was reached from; end is
	// the solution's last.
	parent map[parState]parState
	end    parState
	// cur is the position being expanded, once the search has begun.
	cur       parState
	expanding bool
}

// push queues st, reached in g steps, unless it was reached in fewer.
func (sv *solver) push(st parState, g int) {
	if best, ok := sv.seen[st]; ok && best <= g {
		return
	}
	sv.seen[st] = g
	if sv.expanding {
		sv.parent[st] = sv.cur
	} else {
		delete(sv.parent, st)
	}
	heap.Push(sv.q, parItem{st, g, g + sv.estimate(st)})
}

// placings queues every way to begin: the raft placed against an island,
// lying either way, and loaded.
func (sv *solver) placings(s *State) {
	for o := range Orient(2) {
		for at := range Square(NumSquares) {
			if i := s.board.start[o][at]; i >= 0 && s.board.fits[o][at] {
				sv.startLoads(parState{o: o, at: int16(at), isl: s.islands}, int(i))
			}
		}
	}
}

func newSolver(s *State) *solver {
	sv := &solver{max: int(s.maxAboard), target: s.target, seen: map[parState]int{}, from: map[int]*[NumSquares]int16{}, parent: map[parState]parState{},
		q: &queue[parItem]{less: func(a, b parItem) bool { return a.f < b.f || a.f == b.f && a.g > b.g }}}
	for o := range Orient(2) {
		for k := MinAboard; k <= sv.max; k++ {
			sv.graphs[o][k] = newMoveGraph(s.board, o, k)
			for q := range Square(NumSquares) {
				if d := sv.graphs[o][k].dock[q]; d >= 0 && d < NumIslands {
					sv.docks[o][k] = append(sv.docks[o][k], q)
				}
			}
		}
		m := sv.graphs[o][sv.max]
		for i := range NumIslands {
			sv.far[o][i] = m.distancesTo(i)
		}
		for i := range NumIslands {
			for j := range NumIslands {
				best := -1
				for q := range Square(NumSquares) {
					if d := sv.far[o][j][q]; m.dock[q] == int8(i) && d >= 0 && (best < 0 || int(d) < best) {
						best = int(d)
					}
				}
				sv.between[o][i][j] = best
			}
		}
	}
	return sv
}

// distancesTo returns the fewest steps from every position to docking at
// place p, -1 where it cannot.
func (m *moveGraph) distancesTo(p int) [NumSquares]int16 {
	var dist [NumSquares]int16
	var todo []Square
	for s := range Square(NumSquares) {
		dist[s] = -1
		if m.dock[s] == int8(p) {
			dist[s] = 0
			todo = append(todo, s)
		}
	}
	for len(todo) > 0 {
		t := todo[0]
		todo = todo[1:]
		for d := range Dir(4) {
			s, ok := step(m.o, t, (d+2)%4)
			if ok && m.b.fits[m.o][s] && dist[s] < 0 && m.next[s]>>d&1 != 0 {
				dist[s] = dist[t] + 1
				todo = append(todo, s)
			}
		}
	}
	return dist
}

// estimate is a lower bound of the steps left. The raft must still dock at
// every island that is not as the target wants it; its way from here
// through them all is a tree joining its position and those islands, so it
// is at least the lightest such tree, weighing each pair by the fewest steps
// between them (Prim's algorithm over at most nine points).
func (sv *solver) estimate(st parState) int {
	var todo [NumIslands]int
	n := 0
	for i := range NumIslands {
		if st.isl[i] != sv.target[i] {
			if sv.far[st.o][i][st.at] < 0 {
				return 1 << 20
			}
			todo[n] = i
			n++
		}
	}
	// link[k] is the lightest edge from the tree to island todo[k].
	var link [NumIslands]int
	var in [NumIslands]bool
	for k := range n {
		link[k] = int(sv.far[st.o][todo[k]][st.at])
	}
	h := 0
	for range n {
		best := -1
		for k := range n {
			if !in[k] && (best < 0 || link[k] < link[best]) {
				best = k
			}
		}
		in[best] = true
		h += link[best]
		for k := range n {
			if d := sv.between[st.o][todo[best]][todo[k]]; !in[k] && d >= 0 && d < link[k] {
				link[k] = d
			}
		}
	}
	return h
}

// startLoads pushes the states after the loading that begins the first turn:
// 2 or 3 pearls from island i, whatever shows through the raft.
func (sv *solver) startLoads(st parState, i int) {
	have := st.aboard()
	var rec func(c int, st parState)
	rec = func(c int, st parState) {
		if c == NumColours {
			if n := st.aboard(); n >= MinAboard && n <= 3 && n > have {
				sv.push(st, 0)
			}
			return
		}
		for take := 0; take <= int(st.isl[i][c]) && st.aboard()+take <= 3; take++ {
			next := st
			next.isl[i][c] -= uint8(take)
			next.cargo[c] += uint8(take)
			rec(c+1, next)
		}
	}
	rec(0, st)
}

// splits calls f with every way of sharing the raft's cargo and island i's
// pearls between them, within the bounds.
func (sv *solver) splits(st parState, i int, f func(parState)) {
	var all [NumColours]uint8
	total := 0
	for c := range NumColours {
		all[c] = st.cargo[c] + st.isl[i][c]
		total += int(all[c])
	}
	var rec func(c int, next parState)
	rec = func(c int, next parState) {
		if c == NumColours {
			n := next.aboard()
			if n >= MinAboard && n <= sv.max && total-n <= IslandRoom && next != st {
				f(next)
			}
			return
		}
		for take := range int(all[c]) + 1 {
			next.cargo[c] = uint8(take)
			next.isl[i][c] = all[c] - uint8(take)
			rec(c+1, next)
		}
	}
	rec(0, st)
}

type parItem struct {
	st   parState
	g, f int
}

// SoloPlan returns the moves of a plan that solves the solo game s in
// SoloPar's par of steps, played out on a copy of s by the rules: the
// placing and loading, every sail (the cheapest route to the next dock
// position, pearls moved between holes as the route needs) and every share
// at an island (swaps, then loads or unloads, keeping the arrows covered).
// False when SoloPar finds no par.
func SoloPlan(s *State, budget int) ([]game.Move, int, bool) {
	sv, par, ok := solve(s, budget)
	if !ok || sv == nil {
		return nil, par, ok
	}
	var chain []parState
	for st := sv.end; ; {
		chain = append(chain, st)
		prev, ok := sv.parent[st]
		if !ok {
			break
		}
		st = prev
	}
	slices.Reverse(chain)
	c := *s
	var moves []game.Move
	play := func(m game.Move) bool {
		if c.Over() {
			return true
		}
		if c.Play(m) != nil {
			return false
		}
		moves = append(moves, m)
		return true
	}
	if c.phase == phPlace && !play(Place(chain[0].o, Square(chain[0].at))) {
		return nil, par, false
	}
	if !c.share(chain[0].cargo, play) {
		return nil, par, false
	}
	for k, st := range chain[1:] {
		if c.Over() {
			break
		}
		ok := true
		if st.at != chain[k].at {
			to := st.at
			route, _, found := c.route(func(at int16) bool { return at == to }, RouteCosts{Step: 1000, Shift: 1})
			ok = found
			for _, m := range route {
				ok = ok && play(m)
			}
		} else {
			ok = c.share(st.cargo, play)
		}
		if !ok {
			return nil, par, false
		}
	}
	return moves, par, c.Over()
}

// share brings the cargo of the solo raft to want by the island it lies
// at (docked, or loading at the start): swaps first, then the loads or the
// unloads left, each unload from a hole over no arrow so that the raft
// stays docked, and each load into an open hole over an arrow or a reef
// first.
func (s *State) share(want [NumColours]uint8, play func(game.Move) bool) bool {
	r := &s.rafts[0]
	var give, take [NumColours]int
	for c := range NumColours {
		have := 0
		for _, x := range r.holes {
			if int(x) == c {
				have++
			}
		}
		if d := int(want[c]) - have; d > 0 {
			take[c] = d
		} else {
			give[c] = -d
		}
	}
	hole := func(ok func(h int) bool) int {
		for h := range Holes {
			if ok(h) {
				return h
			}
		}
		return -1
	}
	arrow := func(h int) bool { return s.board.kind[r.square(h)].IsArrow() }
	reef := func(h int) bool { return s.board.kind[r.square(h)] == Reef }
	for g := range NumColours {
		for t := range NumColours {
			for ; give[g] > 0 && take[t] > 0; give[g], take[t] = give[g]-1, take[t]-1 {
				if !play(Swap(hole(func(h int) bool { return int(r.holes[h]) == g }), t)) {
					return false
				}
			}
		}
	}
	for g := range NumColours {
		for ; give[g] > 0; give[g]-- {
			h := hole(func(h int) bool { return int(r.holes[h]) == g && !arrow(h) && !reef(h) })
			if h < 0 && s.steps == 0 {
				// Before the first step no pearl may uncover an arrow
				// or a reef by a move between holes: unload off an
				// arrow (the exchange keeps the raft docked, and the
				// route on covers the arrow again), a reef last.
				if h = hole(func(h int) bool { return int(r.holes[h]) == g && !reef(h) }); h < 0 {
					h = hole(func(h int) bool { return int(r.holes[h]) == g })
				}
			}
			if h < 0 {
				// Every pearl of that colour covers an arrow: move one
				// to an open hole, and cover the arrow again with a
				// pearl over no arrow.
				a := hole(func(h int) bool { return int(r.holes[h]) == g })
				b := hole(func(h int) bool { return r.holes[h] < 0 })
				e := hole(func(h int) bool { return r.holes[h] >= 0 && h != a && !arrow(h) })
				if e < 0 || !play(Shift(a, b)) || !play(Shift(e, a)) {
					return false
				}
				h = b
			}
			if !play(Unload(h)) {
				return false
			}
		}
	}
	defer s.coverReefs(play)
	for t := range NumColours {
		for ; take[t] > 0; take[t]-- {
			h := hole(func(h int) bool { return r.holes[h] < 0 && reef(h) })
			if h < 0 {
				h = hole(func(h int) bool { return r.holes[h] < 0 && arrow(h) })
			}
			if h < 0 {
				h = hole(func(h int) bool { return r.holes[h] < 0 })
			}
			if !play(Load(h, t)) {
				return false
			}
		}
	}
	return true
}

// coverReefs covers, by way of the island the solo raft is exchanging
// with, the reefs showing through it before its first step, where moving a
// pearl between holes may not uncover the reef or arrow it lies on: a
// pearl of a colour it carries taken into the hole over the reef, and one
// of that colour left on the island from a hole over no reef (the cargo and
// the island stay as they were). A reef it cannot cover so stays.
func (s *State) coverReefs(play func(game.Move) bool) {
	r := &s.rafts[0]
	for s.steps == 0 && s.with >= 0 && s.with < NumIslands && !s.Over() {
		i := int(s.with)
		h, j := -1, -1
		for k := range Holes {
			switch {
			case r.holes[k] < 0 && s.board.kind[r.square(k)] == Reef:
				h = k
			case r.holes[k] >= 0 && s.board.kind[r.square(k)] != Reef && s.islands[i][r.holes[k]] > 0:
				j = k
			}
		}
		if h < 0 || j < 0 {
			return
		}
		load, unload := Load(h, int(r.holes[j])), Unload(j)
		if r.aboard() < int(s.maxAboard) {
			if !play(load) || !play(unload) {
				return
			}
		} else if !play(unload) || !play(load) {
			return
		}
	}
}
