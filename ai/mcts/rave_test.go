package mcts

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// TestRAVECounts builds a tree by hand and checks what one simulation adds
// to the RAVE statistics: every child of a node on the path whose mover
// played its move later (below in the tree or in the playout) counts the
// simulation for its mover; a move played only by another seat, or only
// before the node, does not.
func TestRAVECounts(t *testing.T) {
	tr := newTree(&nim{stones: 10, players: 2}, Config{RAVE: 10})
	// root: A (seat 0 takes 1), B (seat 0 takes 2), E (seat 0 takes 3);
	// A: C (seat 1 takes 2), D (seat 1 takes 3), F (seat 1 takes 1).
	add := func(parent int32, m game.Move, mover int8) int32 {
		c := int32(len(tr.nodes))
		tr.nodes = append(tr.nodes, node{move: m, mover: mover, child: -1, next: tr.nodes[parent].child, cands: -1})
		tr.nodes[parent].child = c
		return c
	}
	a, b, e := add(0, 1, 0), add(0, 2, 0), add(0, 3, 0)
	c, d, f := add(a, 2, 1), add(a, 3, 1), add(a, 1, 1)
	tr.path = append(tr.path[:0], 0, a, c)
	tr.amaf.record(0, 2)
	tr.amaf.record(1, 3)
	tr.updateAMAF([]float64{0.25, 0.75})
	want := map[int32][2]float32{a: {0.25, 1}, b: {0.25, 1}, e: {0, 0}, c: {0.75, 1}, d: {0.75, 1}, f: {0, 0}}
	names := map[int32]string{a: "A", b: "B", c: "C", d: "D", e: "E", f: "F"}
	for i, w := range want {
		if got := [2]float32{tr.nodes[i].amafSum, tr.nodes[i].amafN}; got != w {
			t.Errorf("after the first simulation, %s's RAVE sum and count are %v, want %v", names[i], got, w)
		}
	}
	// A second simulation, root -> B with no playout: what the first
	// played is forgotten.
	tr.path = append(tr.path[:0], 0, b)
	tr.updateAMAF([]float64{1, 0})
	want[b] = [2]float32{1.25, 2}
	for i, w := range want {
		if got := [2]float32{tr.nodes[i].amafSum, tr.nodes[i].amafN}; got != w {
			t.Errorf("after the second simulation, %s's RAVE sum and count are %v, want %v", names[i], got, w)
		}
	}
}

// TestRAVEMean: the RAVE mean weighs sqrt(k/(3n+k)) of the selection's
// mean, a half at n = k/3, and nothing for a child no simulation counted.
func TestRAVEMean(t *testing.T) {
	tr := &tree{cfg: Config{RAVE: 30}}
	nd := &node{amafSum: 9, amafN: 10} // a RAVE mean of 0.9
	for _, c := range []struct{ mean, n, want float64 }{
		{0.5, 10, 0.5 + 0.4*math.Sqrt(30.0/60)},
		{0.1, 1000, 0.1 + 0.8*math.Sqrt(30.0/3030)},
	} {
		if got := tr.raveMean(nd, c.mean, c.n); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("mean %v at %v visits: %v, want %v", c.mean, c.n, got, c.want)
		}
	}
	if got := tr.raveMean(&node{}, 0.3, 5); got != 0.3 {
		t.Errorf("no RAVE count: %v, want the mean 0.3", got)
	}
}

// tracedNim is Nim whose playout tells its moves, taking one stone at a
// time, so that RAVE sees the move 1 played by every seat.
type tracedNim struct{ nim }

func (n *tracedNim) Clone() game.State     { c := *n; return &c }
func (n *tracedNim) CopyFrom(s game.State) { *n = *s.(*tracedNim) }

func (n *tracedNim) TracedPlayout(_ *rand.Rand, played func(int, game.Move)) {
	for !n.Over() {
		p := n.current
		n.nim.Play(1)
		played(p, 1)
	}
}

// TestRAVEUsesTheTracedPlayout: a search with RAVE over a game that traces
// its playouts counts the playouts' moves: the root's child "take 1" gets
// a RAVE count from simulations through its siblings too.
func TestRAVEUsesTheTracedPlayout(t *testing.T) {
	s := New(Config{Workers: 1, Seed: 1, RAVE: 50})
	if _, err := s.Search(context.Background(), &tracedNim{nim{stones: 12, players: 2}}, Budget{Simulations: 300}); err != nil {
		t.Fatal(err)
	}
	tr := s.trees[0]
	for c := tr.nodes[tr.root].child; c >= 0; c = tr.nodes[c].next {
		nd := &tr.nodes[c]
		if nd.move == 1 && int32(nd.amafN) <= nd.visits {
			t.Errorf("take 1: RAVE count %v, visits %d: the playouts' moves were not counted", nd.amafN, nd.visits)
		}
		if int32(nd.amafN) < nd.visits {
			t.Errorf("take %d: RAVE count %v, visits %d: a simulation through it did not count", nd.move, nd.amafN, nd.visits)
		}
	}
}
