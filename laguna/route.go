package laguna

import (
	"container/heap"

	"github.com/lagoon-games/lagoon/game"
)

// RouteCosts weigh the parts of a route: a step of the raft, a pearl moved
// between holes, and a turn ended by a reef on the way.
type RouteCosts struct {
	Step, Shift, Reef int
}

// DefaultRouteCosts count steps first, pearls moved next, and a turn lost to
// a reef as worth ten steps.
var DefaultRouteCosts = RouteCosts{Step: 4, Shift: 1, Reef: 40}

// Route returns the cheapest moves (steps and pearls moved between holes)
// that take the raft of the seat to move from where it lies to docked at
// place (an island 0 to 7, or Volcano), by the rules as they stand, the
// other rafts staying where they are; its cost; and false when there is
// none. A reef may end the turn on the way: the moves after it are the next
// turn's. With the sand timer rules pearls move between holes whenever the
// raft is not moving; without, only at the start of a turn after a reef, as
// the rules say. The raft must hold its pearls (play has begun).
func (s *State) Route(place int, costs RouteCosts) ([]game.Move, int, bool) {
	o := s.rafts[s.seat].orient
	if s.phase == phPlay && s.rafts[s.seat].aboard() >= MinAboard && s.docked(int(s.seat)) == place {
		return nil, 0, true // docked already (perhaps exchanging, an arrow showing)
	}
	return s.route(func(at int16) bool { return int(s.board.touch[o][at]) == place }, costs)
}

// route is Route to where goal holds, with no arrow showing.
func (s *State) route(goal func(at int16) bool, costs RouteCosts) ([]game.Move, int, bool) {
	p := int(s.seat)
	r := s.rafts[p]
	if s.phase != phPlay || r.aboard() < MinAboard {
		return nil, 0, false
	}
	var mask uint8
	for h := range Holes {
		if r.holes[h] >= 0 {
			mask |= 1 << h
		}
	}
	// A node's shift flag: with the timer, whether the raft has stepped
	// this turn (its pearls move freely; before, never uncovering a reef
	// or an arrow); without, whether the turn began on a reef and the raft
	// has not stepped (its pearls may move, as before a first step, while
	// a reef shows).
	start := routeNode{at: r.at, mask: mask, shift: s.steps > 0}
	if !s.timer {
		start.shift = s.reefEnd[p] && s.steps == 0
	}
	dist := make([]int32, routeNodes)
	for i := range dist {
		dist[i] = -1
	}
	from := make([]routeEdge, routeNodes)
	dist[start.index()] = 0
	q := &queue[routeItem]{items: []routeItem{{start, 0}}, less: func(a, b routeItem) bool { return a.cost < b.cost }}
	// probe is seat p's raft moved about, to ask the rules.
	probe := *s
	for q.Len() > 0 {
		it := heap.Pop(q).(routeItem)
		n := it.node
		if it.cost > int(dist[n.index()]) {
			continue
		}
		probe.setRaft(p, n)
		reef, arrows := probe.showing(p)
		if arrows == 0 && goal(n.at) {
			return routeMoves(from, start, n), it.cost, true
		}
		visit := func(next routeNode, cost int, m game.Move) {
			if d := dist[next.index()]; d >= 0 && int(d) <= it.cost+cost {
				return
			}
			dist[next.index()] = int32(it.cost + cost)
			from[next.index()] = routeEdge{n, m}
			heap.Push(q, routeItem{next, it.cost + cost})
		}
		dirs := probe.stepsWith(p, reef, arrows)
		for d := range Dir(4) {
			if dirs>>d&1 == 0 {
				continue
			}
			t, _ := step(r.orient, Square(n.at), d)
			next := routeNode{at: int16(t), mask: n.mask, shift: s.timer}
			probe.setRaft(p, next)
			cost := costs.Step
			if ended, _ := probe.showing(p); ended {
				cost += costs.Reef
				next.shift = !s.timer // a new turn, begun after a reef
			}
			visit(next, cost, Step(d))
		}
		s.routeShifts(n, reef, costs, visit)
	}
	return nil, 0, false
}

// routeShifts visits the pearls moved between holes the route may take from
// node n (reef: whether a reef shows there), as the rules allow them:
// freely once the raft has stepped with the timer, what it uncovers taking
// effect; otherwise never uncovering a reef or an arrow, and without the
// timer only while a reef shows.
func (s *State) routeShifts(n routeNode, reef bool, costs RouteCosts, visit func(routeNode, int, game.Move)) {
	free := s.timer && n.shift
	if !free && (s.timer == n.shift || !s.timer && !reef) {
		return
	}
	o := s.rafts[s.seat].orient
	for a := range Holes {
		k := s.board.kind[HoleSquare(o, Square(n.at), a)]
		if n.mask>>a&1 == 0 || !free && (k == Reef || k.IsArrow()) {
			continue
		}
		for b := range Holes {
			if n.mask>>b&1 != 0 {
				continue
			}
			next := routeNode{at: n.at, mask: n.mask&^(1<<a) | 1<<b, shift: n.shift}
			cost := costs.Shift
			if k == Reef {
				// The turn ends; the next begins before a first step.
				cost += costs.Reef
				next.shift = false
			}
			visit(next, cost, Shift(a, b))
		}
	}
}

// routeNode is a raft's place in a route: where it lies, which holes hold
// pearls, and whether it may move pearls between holes now.
type routeNode struct {
	at    int16
	mask  uint8
	shift bool
}

// routeNodes is the number of route nodes, indexed by index.
const routeNodes = NumSquares << 7

func (n routeNode) index() int { return int(n.at)<<7 | int(n.mask)<<1 | int(bit(n.shift)) }

type routeEdge struct {
	from routeNode
	move game.Move
}

// setRaft puts seat p's raft at n, with pearls (of no matter which colour)
// in n's holes.
func (s *State) setRaft(p int, n routeNode) {
	r := &s.rafts[p]
	r.at = n.at
	for h := range Holes {
		r.holes[h] = -1
		if n.mask>>h&1 != 0 {
			r.holes[h] = 0
		}
	}
}

func routeMoves(from []routeEdge, start, end routeNode) []game.Move {
	var out []game.Move
	for n := end; n != start; {
		e := from[n.index()]
		out = append(out, e.move)
		n = e.from
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

type routeItem struct {
	node routeNode
	cost int
}

// queue is a priority queue of items, the least first, for container/heap.
type queue[T any] struct {
	items []T
	less  func(a, b T) bool
}

func (q *queue[T]) Len() int           { return len(q.items) }
func (q *queue[T]) Less(i, j int) bool { return q.less(q.items[i], q.items[j]) }
func (q *queue[T]) Swap(i, j int)      { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *queue[T]) Push(x any)         { q.items = append(q.items, x.(T)) }
func (q *queue[T]) Pop() any {
	it := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return it
}
