package bots

import (
	"sync"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// The planner's route search is laguna's State.Route (Dijkstra over the
// raft's positions and which holes hold pearls, a reef ending the turn on
// the way costing a turn), run on what the planner believes lies under the
// pearls rather than on the board itself, towards every place and every
// other raft at once, with its memory reused from search to search: one
// search a decision gives the cost of every leg the planner weighs.

// The costs of a route, as laguna.DefaultRouteCosts.
var routeCosts = laguna.DefaultRouteCosts

// Goals of a route search: the places (islands 0 to 7, the volcano 8) and
// the other rafts (goalRaft + seat).
const (
	goalRaft = laguna.NumIslands + 1
	numGoals = goalRaft + 4
)

const routeNodes = laguna.NumSquares << 7

// A routeSearch is the route search's memory, reused.
type routeSearch struct {
	dist    []int32
	stamp   []uint32
	gen     uint32
	prev    []int32
	move    []int16
	buckets [64][]int32
	// pending counts the nodes in the buckets.
	pending int
	// cost and node of each goal reached, cost -1 if not.
	cost [numGoals]int32
	node [numGoals]int32
	// anyGoal stops the search at the first goal reached, for a search
	// that asks only whether the raft can get anywhere.
	anyGoal bool
}

var routePool = sync.Pool{New: func() any {
	return &routeSearch{dist: make([]int32, routeNodes), stamp: make([]uint32, routeNodes),
		prev: make([]int32, routeNodes), move: make([]int16, routeNodes)}
}}

func nodeIndex(at laguna.Square, mask uint8, flag bool) int32 {
	i := int32(at)<<7 | int32(mask)<<1
	if flag {
		i |= 1
	}
	return i
}

// search runs the route search for seat p's raft in w, reading the squares
// from kinds, until every goal in want (a bit set of goals) is reached or
// the cost passes limit. shift is a node's flag at the start: with the sand
// timer, whether the raft has stepped this turn (its pearls move freely;
// before, never uncovering a reef or an arrow), without it, whether it may
// move pearls (to cover the reef that ended its last turn), as
// laguna.State.Route reads the rules. unsure holds the squares under the
// raft's pearls that it believes open water only because it forgot them:
// moving a pearl off one after the first step is planned as if
// a reef lay there, which costs the turn. Planned as water, such a move
// left forgetful rafts on a reef at the start of their next turn with every
// pearl on a reef or an arrow, unable to move any (decision 21) and so
// held for good.
func (rs *routeSearch) search(w *world, tb *tables, kinds *[laguna.NumSquares]laguna.Kind, unsure *[laguna.NumSquares]bool, p int, shift bool, want uint32, limit int32) {
	r := &w.rafts[p]
	rs.reset(nodeIndex(r.at, r.mask(), shift))
	o := r.o
	for cost := int32(0); rs.pending > 0 && cost <= limit && want != 0; cost++ {
		b := cost & 63
		for k := 0; k < len(rs.buckets[b]); k++ {
			n := rs.buckets[b][k]
			rs.pending--
			if rs.dist[n] != cost {
				continue // reached more cheaply since, or a later lap's
			}
			at, mask := laguna.Square(n>>7), uint8(n>>1&63)
			reefs, arrows := holeMasks(kinds, o, at)
			sh := shown(arrows, mask)
			// Without the timer a raft docks with no reef showing
			// too: a reef it leaves open there holds it for good
			// once the turn ends, pearls being moved only to
			// cover the reef that ended a turn (decision 17).
			if sh == 0 && (w.timer || reefs&^mask == 0) {
				if pl := tb.touch[o][at]; pl >= 0 && want>>pl&1 != 0 {
					rs.cost[pl], rs.node[pl] = cost, n
					want &^= 1 << pl
					if rs.anyGoal {
						return
					}
				}
				for q := range w.players {
					if g := goalRaft + q; want>>g&1 != 0 && w.touching(o, at, q) {
						rs.cost[g], rs.node[g] = cost, n
						want &^= 1 << g
					}
				}
			}
			if reefs&^mask == 0 {
				// A step onto a reef the pearls leave open costs
				// the turn it ends too, and the next turn may begin
				// by moving pearls.
				dirs := allowed(sh, canStep(w, tb, p, o, at))
				for d := range laguna.Dir(4) {
					if dirs>>d&1 == 0 {
						continue
					}
					t, _ := step(o, at, d)
					c := int32(routeCosts.Step)
					next := w.timer
					if nr, _ := holeMasks(kinds, o, t); nr&^mask != 0 {
						c += int32(routeCosts.Reef)
						next = !w.timer // a new turn, begun after a reef
					}
					rs.relax(n, nodeIndex(t, mask, next), cost+c, laguna.Step(d))
				}
			}
			if w.timer && n&1 != 0 {
				reefs |= unsureHoles(unsure, o, at, mask)
			}
			rs.shifts(w.timer, n, reefs, arrows, cost)
		}
		rs.buckets[b] = rs.buckets[b][:0]
	}
}

// shifts relaxes the pearls moved between holes from node n (at cost, the
// holes over reefs and arrows given), as the rules allow them: freely once
// the raft has stepped with the timer, what they uncover taking effect (off
// a reef, the turn ends); otherwise never uncovering a reef or an arrow,
// and without the timer only while a reef shows.
func (rs *routeSearch) shifts(timer bool, n int32, reefs uint8, arrows [4]uint8, cost int32) {
	at, mask, flag := laguna.Square(n>>7), uint8(n>>1&63), n&1 != 0
	free := timer && flag
	if !free && (timer == flag || !timer && reefs&^mask == 0) {
		return
	}
	marked := reefs | arrows[0] | arrows[1] | arrows[2] | arrows[3]
	for a := range laguna.Holes {
		if mask>>a&1 == 0 || !free && marked>>a&1 != 0 {
			continue
		}
		c, next := int32(routeCosts.Shift), flag
		if reefs>>a&1 != 0 {
			c += int32(routeCosts.Reef)
			next = false // the next turn begins before a first step
		}
		for b := range laguna.Holes {
			if mask>>b&1 == 0 {
				rs.relax(n, nodeIndex(at, mask&^(1<<a)|1<<b, next), cost+c, laguna.Shift(a, b))
			}
		}
	}
}

// unsureHoles returns the holes in mask of a raft lying o at at whose
// squares are unsure.
func unsureHoles(unsure *[laguna.NumSquares]bool, o laguna.Orient, at laguna.Square, mask uint8) uint8 {
	var m uint8
	for h := range laguna.Holes {
		if mask>>h&1 != 0 && unsure[laguna.HoleSquare(o, at, h)] {
			m |= 1 << h
		}
	}
	return m
}

// reset readies the search's memory for a search from node start.
func (rs *routeSearch) reset(start int32) {
	rs.gen++
	if rs.gen == 0 {
		clear(rs.stamp)
		rs.gen = 1
	}
	for g := range rs.cost {
		rs.cost[g] = -1
	}
	for b := range rs.buckets {
		rs.buckets[b] = rs.buckets[b][:0]
	}
	rs.stamp[start], rs.dist[start], rs.prev[start] = rs.gen, 0, -1
	rs.buckets[0] = append(rs.buckets[0], start)
	rs.pending = 1
}

// canStep returns the directions seat p's raft lying o at at can step in
// at all: on the board, where it fits, onto no other raft.
func canStep(w *world, tb *tables, p int, o laguna.Orient, at laguna.Square) uint8 {
	var can uint8
	for d := range laguna.Dir(4) {
		if t, ok := step(o, at, d); ok && tb.fits[o][t] && !w.overlaps(p, o, t) {
			can |= 1 << d
		}
	}
	return can
}

// relax makes move m from node from the route to node to when it costs d,
// less than the route known so far.
func (rs *routeSearch) relax(from, to int32, d int32, m game.Move) {
	if rs.stamp[to] == rs.gen && rs.dist[to] <= d {
		return
	}
	rs.stamp[to], rs.dist[to], rs.prev[to], rs.move[to] = rs.gen, d, from, int16(m)
	b := d & 63
	rs.buckets[b] = append(rs.buckets[b], to)
	rs.pending++
}

// first returns the first move of the route to goal g, and false when the
// raft is there already or the goal was not reached.
func (rs *routeSearch) first(g int) (game.Move, bool) {
	if rs.cost[g] <= 0 {
		return 0, false
	}
	n := rs.node[g]
	for rs.prev[rs.prev[n]] >= 0 {
		n = rs.prev[n]
	}
	return game.Move(rs.move[n]), true
}
