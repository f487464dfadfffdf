package mcts

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// base gives the test games the parts of the contract the search never
// asks for.
type base struct{}

func (base) Secret() bool                        { return false }
func (base) View(game.Viewer) any                { return nil }
func (base) Table() any                          { return nil }
func (base) Note(game.Move) any                  { return nil }
func (base) TimeUp() (game.Move, bool)           { return 0, false }
func (base) MoveText(m game.Move) string         { return fmt.Sprint(int(m)) }
func (base) ParseMove(string) (game.Move, error) { return 0, errors.New("no notation") }

// nim is the game of Nim on one heap, for any number of players: each in
// turn takes 1 to 3 stones, and whoever takes the last stone wins. With two
// players, leaving a multiple of 4 wins. It offers the search no knowledge:
// the search plays random playouts, rewards the winner and finds later
// positions by their text.
type nim struct {
	base
	stones, players, current, ply int
	winner                        int
}

var _ game.State = (*nim)(nil)

func (n *nim) Players() int             { return n.players }
func (n *nim) Over() bool               { return n.stones == 0 }
func (n *nim) Turn() int                { return n.ply }
func (n *nim) Resample(int, *rand.Rand) {}
func (n *nim) Clone() game.State        { c := *n; return &c }
func (n *nim) CopyFrom(s game.State)    { *n = *s.(*nim) }

func (n *nim) String() string {
	return fmt.Sprintf("nim %d %d %d %d %d", n.stones, n.players, n.current, n.ply, n.winner)
}

func (n *nim) ToMove() int {
	if n.Over() {
		return game.NoSeat
	}
	return n.current
}

func (n *nim) AppendLegal(dst []game.Move) []game.Move {
	for k := 1; k <= min(3, n.stones); k++ {
		dst = append(dst, game.Move(k))
	}
	return dst
}

func (n *nim) Play(m game.Move) error {
	k := int(m)
	if k < 1 || k > min(3, n.stones) {
		return fmt.Errorf("cannot take %d of %d", k, n.stones)
	}
	n.stones -= k
	n.ply++
	if n.stones == 0 {
		n.winner = n.current
		return nil
	}
	n.current = (n.current + 1) % n.players
	return nil
}

func (n *nim) Standing() game.Standing {
	st := game.Standing{Scores: make([]int, n.players)}
	if n.Over() {
		st.Winners = []int{n.winner}
	}
	return st
}

// knowingNim is Nim that offers the search all its knowledge: a prior, a
// playout, rewards and rerooting; it counts how often each is used.
type knowingNim struct {
	nim
	used *[4]atomic.Int64 // prior, playout, rewards, leads: the workers share them
}

func (n *knowingNim) Clone() game.State     { c := *n; return &c }
func (n *knowingNim) CopyFrom(s game.State) { *n = *s.(*knowingNim) }
func (n *knowingNim) Prior(game.Move) float64 {
	n.used[0].Add(1)
	return 0
}

func (n *knowingNim) Playout(r *rand.Rand) {
	n.used[1].Add(1)
	for !n.Over() {
		n.nim.Play(game.Move(1 + r.IntN(min(3, n.stones))))
	}
}

func (n *knowingNim) Rewards(r []float64) {
	n.used[2].Add(1)
	clear(r)
	r[n.winner] = 1
}

func (n *knowingNim) Ply() int { return n.ply }
func (n *knowingNim) Leads(m game.Move, later game.State) bool {
	n.used[3].Add(1)
	return n.stones-int(m) >= later.(*knowingNim).stones
}

func (n *knowingNim) Equal(other game.State) bool {
	o, ok := other.(*knowingNim)
	return ok && o.nim == n.nim
}

var (
	_ Prior   = (*knowingNim)(nil)
	_ Playout = (*knowingNim)(nil)
	_ Rewards = (*knowingNim)(nil)
	_ Reroot  = (*knowingNim)(nil)
)

func TestNimWinningMoves(t *testing.T) {
	for _, knowing := range []bool{false, true} {
		s := New(Config{Seed: 1, Workers: 2})
		var used [4]atomic.Int64
		for stones := 5; stones <= 15; stones++ {
			if stones%4 == 0 {
				continue
			}
			s.Reset()
			var pos game.State = &nim{stones: stones, players: 2}
			if knowing {
				pos = &knowingNim{nim{stones: stones, players: 2}, &used}
			}
			res, err := s.Search(context.Background(), pos, Budget{Simulations: 20000})
			if err != nil {
				t.Fatal(err)
			}
			if (stones-int(res.Move))%4 != 0 {
				t.Errorf("knowledge %v, %d stones: took %d, want %d", knowing, stones, res.Move, stones%4)
			}
			if res.Simulations != 20000 {
				t.Errorf("%d stones: %d simulations, want 20000", stones, res.Simulations)
			}
		}
		if knowing && (used[0].Load() == 0 || used[1].Load() == 0 || used[2].Load() == 0) {
			t.Errorf("the search did not use the game's knowledge: prior, playout, rewards used %d, %d, %d times",
				used[0].Load(), used[1].Load(), used[2].Load())
		}
	}
}

func TestTreeIsKeptAlongThePlayedLine(t *testing.T) {
	var used [4]atomic.Int64
	for _, knowing := range []bool{false, true} {
		s := New(Config{Seed: 1, Workers: 1})
		g := &nim{stones: 14, players: 3}
		var pos game.State = g
		if knowing {
			k := &knowingNim{nim{stones: 14, players: 3}, &used}
			g, pos = &k.nim, k
		}
		res, err := s.Search(context.Background(), pos, Budget{Simulations: 3000})
		if err != nil {
			t.Fatal(err)
		}
		g.Play(res.Move)
		g.Play(1)
		g.Play(1)
		again, err := s.Search(context.Background(), pos, Budget{Simulations: 10})
		if err != nil {
			t.Fatal(err)
		}
		if again.Reused == 0 {
			t.Errorf("knowledge %v: the tree was not kept along the line played", knowing)
		}
		// A position the tree never saw starts afresh.
		var other game.State = &nim{stones: 30, players: 3}
		if knowing {
			other = &knowingNim{nim{stones: 30, players: 3}, &used}
		}
		res, err = s.Search(context.Background(), other, Budget{Simulations: 10})
		if err != nil {
			t.Fatal(err)
		}
		if res.Reused != 0 {
			t.Errorf("knowledge %v: reused %d visits for an unrelated position", knowing, res.Reused)
		}
		// Started afresh in the old tree's memory, it searches as a new
		// searcher at the same call does.
		fresh := New(Config{Seed: 1, Workers: 1})
		for range 3 {
			if _, err := fresh.Search(context.Background(), &nim{stones: 3, players: 2}, Budget{Simulations: 10}); err != nil {
				t.Fatal(err)
			}
		}
		var third game.State = &nim{stones: 20, players: 3}
		if knowing {
			third = &knowingNim{nim{stones: 20, players: 3}, &used}
		}
		want, err := fresh.Search(context.Background(), third, Budget{Simulations: 2000})
		if err != nil {
			t.Fatal(err)
		}
		if res, err = s.Search(context.Background(), third, Budget{Simulations: 2000}); err != nil {
			t.Fatal(err)
		}
		if res != want {
			t.Errorf("knowledge %v: the restarted tree found %+v, a new tree %+v", knowing, res, want)
		}
	}
	if used[3].Load() == 0 {
		t.Error("rerooting did not ask the game whether a move leads to the later position")
	}
}

func TestBadSearches(t *testing.T) {
	s := New(Config{})
	if _, err := s.Search(context.Background(), &nim{stones: 5, players: 2}, Budget{}); err == nil {
		t.Error("an empty budget was accepted")
	}
	if _, err := s.Search(context.Background(), &nim{players: 2}, Budget{Simulations: 10}); err != ErrNoMoves {
		t.Errorf("finished game: got %v, want ErrNoMoves", err)
	}
	if _, err := s.Search(context.Background(), &nim{stones: 5, players: 5}, Budget{Simulations: 10}); err == nil {
		t.Error("a game of 5 players was searched")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Search(ctx, &nim{stones: 9, players: 2}, Budget{Simulations: 1000}); err != context.Canceled {
		t.Errorf("cancelled: got %v, want context.Canceled", err)
	}
}

// A deadline that has passed by the time the workers start (one nanosecond
// has, always) still leaves each worker one simulation and the search a move.
func TestSearchThatBeganAnswers(t *testing.T) {
	for _, workers := range []int{1, 2} {
		s := New(Config{Workers: workers, Seed: 1})
		res, err := s.Search(context.Background(), &nim{stones: 9, players: 2}, Budget{Time: time.Nanosecond})
		if err != nil {
			t.Fatalf("%d workers: %v, want a move", workers, err)
		}
		if res.Simulations < workers || res.Move < 1 || res.Move > 3 {
			t.Errorf("%d workers: %+v, want a legal move after at least one simulation a worker", workers, res)
		}
	}
}

// pick is a one-move game: player 0 picks one of n moves and the game is
// over. The prior ranks the moves 0, 1, 2, ... best first; only the last move
// wins.
type pick struct {
	base
	n, picked int
	over      bool
}

func (g *pick) Players() int                     { return 2 }
func (g *pick) Over() bool                       { return g.over }
func (g *pick) Turn() int                        { return 0 }
func (g *pick) Prior(m game.Move) float64        { return -float64(m) }
func (g *pick) Resample(int, *rand.Rand)         {}
func (g *pick) Clone() game.State                { c := *g; return &c }
func (g *pick) CopyFrom(s game.State)            { *g = *s.(*pick) }
func (g *pick) String() string                   { return fmt.Sprint(*g) }
func (g *pick) Standing() game.Standing          { return game.Standing{} }
func (g *pick) Ply() int                         { return 0 }
func (g *pick) Leads(game.Move, game.State) bool { return false }
func (g *pick) Equal(game.State) bool            { return false }

func (g *pick) ToMove() int {
	if g.over {
		return game.NoSeat
	}
	return 0
}

func (g *pick) Play(m game.Move) error {
	g.picked, g.over = int(m), true
	return nil
}

func (g *pick) AppendLegal(dst []game.Move) []game.Move {
	if g.over {
		return dst
	}
	for k := range g.n {
		dst = append(dst, game.Move(k))
	}
	return dst
}

func (g *pick) Rewards(r []float64) {
	r[0], r[1] = 0, 1
	if g.picked == g.n-1 {
		r[0], r[1] = 1, 0
	}
}

// rootChildren returns the moves of the root's children in the order they
// were added.
func rootChildren(s *Searcher) []game.Move {
	t := s.trees[0]
	var out []game.Move
	for c := t.nodes[t.root].child; c >= 0; c = t.nodes[c].next {
		out = append([]game.Move{t.nodes[c].move}, out...)
	}
	return out
}

func TestWideningFollowsThePrior(t *testing.T) {
	s := New(Config{Seed: 1, Workers: 1})
	if _, err := s.Search(context.Background(), &pick{n: 20}, Budget{Simulations: 10}); err != nil {
		t.Fatal(err)
	}
	// After 10 simulations the root may have 1+sqrt(9) = 4 children: the 4
	// best by prior, best first.
	if got := rootChildren(s); !slices.Equal(got, []game.Move{0, 1, 2, 3}) {
		t.Errorf("children after 10 simulations: %v, want [0 1 2 3]", got)
	}

	// With enough simulations every move becomes a child, past the first
	// block of candidates, and the one winning move, the worst by prior,
	// is found.
	s.Reset()
	res, err := s.Search(context.Background(), &pick{n: 20}, Budget{Simulations: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if got := rootChildren(s); len(got) != 20 {
		t.Errorf("%d children after 3000 simulations, want all 20: %v", len(got), got)
	}
	for k, m := range rootChildren(s) {
		if int(m) != k {
			t.Errorf("child %d is move %d: children are not added in the order of the prior", k, m)
			break
		}
	}
	if res.Move != 19 {
		t.Errorf("chose %d, want the winning move 19", res.Move)
	}
}

// twice is a game of several decisions a turn: seat 0 decides twice, x then
// y (0 or 1), then seat 1 decides z. Seat 0 wins with x = y = 1, or with
// x = y = 0 and z = 0; seat 1 wins otherwise. Seat 0 must see that at x = y
// = 0 seat 1, deciding for itself, answers z = 1.
type twice struct {
	base
	moves []game.Move
}

func (g *twice) Players() int             { return 2 }
func (g *twice) Over() bool               { return len(g.moves) == 3 }
func (g *twice) Turn() int                { return len(g.moves) / 2 }
func (g *twice) Resample(int, *rand.Rand) {}
func (g *twice) Clone() game.State        { return &twice{moves: slices.Clone(g.moves)} }
func (g *twice) CopyFrom(s game.State)    { g.moves = append(g.moves[:0], s.(*twice).moves...) }
func (g *twice) String() string           { return fmt.Sprint(g.moves) }

func (g *twice) ToMove() int {
	switch len(g.moves) {
	case 0, 1:
		return 0
	case 2:
		return 1
	}
	return game.NoSeat
}

func (g *twice) AppendLegal(dst []game.Move) []game.Move {
	if g.Over() {
		return dst
	}
	return append(dst, 0, 1)
}

func (g *twice) Play(m game.Move) error {
	if g.Over() || m < 0 || m > 1 {
		return errors.New("no")
	}
	g.moves = append(g.moves, m)
	return nil
}

func (g *twice) Standing() game.Standing {
	st := game.Standing{Scores: []int{0, 0}}
	if !g.Over() {
		return st
	}
	x, y, z := g.moves[0], g.moves[1], g.moves[2]
	if x == 1 && y == 1 || x == 0 && y == 0 && z == 0 {
		st.Winners = []int{0}
	} else {
		st.Winners = []int{1}
	}
	return st
}

func TestSeveralDecisionsATurn(t *testing.T) {
	s := New(Config{Seed: 3, Workers: 1})
	g := &twice{}
	for _, want := range []game.Move{1, 1} {
		res, err := s.Search(context.Background(), g, Budget{Simulations: 2000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Move != want {
			t.Fatalf("after %v seat 0 chose %d, want %d", g.moves, res.Move, want)
		}
		g.Play(res.Move)
	}
	// At x = y = 0 seat 1 takes its win.
	res, err := s.Search(context.Background(), &twice{moves: []game.Move{0, 0}}, Budget{Simulations: 500})
	if err != nil || res.Move != 1 {
		t.Errorf("seat 1 chose %d (%v), want 1", res.Move, err)
	}
}

// hidden is a game whose legal moves depend on what the searching seat
// cannot see: seat 0 plays 0 or 1; then seat 1, which holds a card from 0
// to 3 that seat 0 never sees, plays 10 + its card or 20. Seat 0 wins when
// it played 1 and seat 1 played 20, or it played 0 and seat 1 played its
// card. Resample draws the card anew, so the moves of seat 1's nodes differ
// between simulations.
type hidden struct {
	base
	card    int
	moves   []game.Move
	refused *int // moves Play refused
}

func (g *hidden) Players() int      { return 2 }
func (g *hidden) Over() bool        { return len(g.moves) == 2 }
func (g *hidden) Turn() int         { return len(g.moves) }
func (g *hidden) String() string    { return fmt.Sprint(g.card, g.moves) }
func (g *hidden) Clone() game.State { c := *g; c.moves = slices.Clone(g.moves); return &c }
func (g *hidden) CopyFrom(s game.State) {
	o := s.(*hidden)
	g.card, g.refused, g.moves = o.card, o.refused, append(g.moves[:0], o.moves...)
}

func (g *hidden) Resample(seat int, r *rand.Rand) {
	if seat != 0 {
		panic(fmt.Sprintf("resampled for seat %d, not the searching seat 0", seat))
	}
	g.card = r.IntN(4)
}

func (g *hidden) ToMove() int {
	if g.Over() {
		return game.NoSeat
	}
	return len(g.moves)
}

func (g *hidden) AppendLegal(dst []game.Move) []game.Move {
	switch len(g.moves) {
	case 0:
		return append(dst, 0, 1)
	case 1:
		return append(dst, game.Move(10+g.card), 20)
	}
	return dst
}

func (g *hidden) Play(m game.Move) error {
	if !slices.Contains(g.AppendLegal(nil), m) {
		*g.refused++
		return fmt.Errorf("%d is not legal", m)
	}
	g.moves = append(g.moves, m)
	return nil
}

func (g *hidden) Standing() game.Standing {
	st := game.Standing{Scores: []int{0, 0}}
	if g.Over() {
		a, b := g.moves[0], g.moves[1]
		if a == 1 && b == 20 || a == 0 && b < 20 {
			st.Winners = []int{0}
		} else {
			st.Winners = []int{1}
		}
	}
	return st
}

// TestMovesThatDependOnTheDeterminization: the search passes over the
// children whose move the simulation's determinization refuses, and every
// simulation still reaches the end of the game and counts.
func TestMovesThatDependOnTheDeterminization(t *testing.T) {
	refused := 0
	s := New(Config{Seed: 1, Workers: 1})
	res, err := s.Search(context.Background(), &hidden{card: 2, refused: &refused}, Budget{Simulations: 3000})
	if err != nil {
		t.Fatal(err)
	}
	tr := s.trees[0]
	root := tr.nodes[tr.root]
	if root.visits != 3000 {
		t.Errorf("the root has %d visits after 3000 simulations", root.visits)
	}
	for c := root.child; c >= 0; c = tr.nodes[c].next {
		var moves []game.Move
		for d := tr.nodes[c].child; d >= 0; d = tr.nodes[d].next {
			moves = append(moves, tr.nodes[d].move)
		}
		slices.Sort(moves)
		if !slices.Equal(moves, []game.Move{10, 11, 12, 13, 20}) {
			t.Errorf("after move %d seat 1's node has children %v; want every card's move and 20", tr.nodes[c].move, moves)
		}
	}
	if refused == 0 {
		t.Error("no child was refused: the test shows nothing")
	}
	// Seat 1 wins against either move of seat 0; the search still answers
	// one of them.
	if res.Move != 0 && res.Move != 1 {
		t.Errorf("chose %d", res.Move)
	}
}

// BenchmarkTiny measures the search with no knowledge of the game (random
// playouts, rewards from the standing, rerooting by the states' text) on
// the tiny test game: simulations per second and what a search allocates
// (Tiny's Standing allocates its slices, once a simulation).
func BenchmarkTiny(b *testing.B) {
	for _, players := range []int{2, 4} {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			st, err := gametest.Tiny.NewGame(game.Setup{Players: players, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			const sims = 2000
			sum := 0
			b.ReportAllocs()
			for b.Loop() {
				s := New(Config{Workers: 1, Seed: 1})
				res, err := s.Search(context.Background(), st, Budget{Simulations: sims})
				if err != nil {
					b.Fatal(err)
				}
				sum += res.Simulations
			}
			b.ReportMetric(float64(sum)/b.Elapsed().Seconds(), "sims/s")
		})
	}
}

// TestTiny searches through a whole game of Tiny, a game of hidden hands,
// draws, turns of several decisions and choices by another seat than the
// turn's owner, which offers the search no knowledge: every answer is
// legal, every simulation counts, and a tree is kept from one decision to
// the next when the game went through moves it knows.
func TestTiny(t *testing.T) {
	for _, players := range []int{2, 3, 4} {
		st, err := gametest.Tiny.NewGame(game.Setup{Players: players, Seed: uint64(players)})
		if err != nil {
			t.Fatal(err)
		}
		searchers := make([]*Searcher, players)
		for p := range searchers {
			searchers[p] = New(Config{Workers: 2, Seed: uint64(p)})
		}
		reused := 0
		for !st.Over() {
			before := st.String()
			res, err := searchers[st.ToMove()].Search(context.Background(), st, Budget{Simulations: 200})
			if err != nil {
				t.Fatal(err)
			}
			if st.String() != before {
				t.Fatal("the search changed the state it was given")
			}
			if res.Simulations != 200 && len(game.Legal(st)) > 1 {
				t.Errorf("%d simulations, want 200", res.Simulations)
			}
			reused += res.Reused
			if err := st.Play(res.Move); err != nil {
				t.Fatalf("%s: %v", before, err)
			}
		}
		if reused == 0 {
			t.Errorf("%d players: no search reused a kept tree", players)
		}
	}
}

// TestKnowledgeOptionsPlayTiny: progressive bias, MAST and RAVE, alone and
// together, work for a game that offers the search nothing (Tiny: random
// playouts, no prior) and keep a seeded search reproducible.
func TestKnowledgeOptionsPlayTiny(t *testing.T) {
	for _, cfg := range []Config{{Bias: 1}, {MAST: 0.5}, {Bias: 1, MAST: 0.5}, {RAVE: 100}, {RAVE: 100, MAST: 0.5}} {
		cfg.Workers, cfg.Seed = 1, 3
		st, err := gametest.Tiny.NewGame(game.Setup{Players: 3, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		for !st.Over() {
			a, err := New(cfg).Search(context.Background(), st, Budget{Simulations: 200})
			if err != nil {
				t.Fatalf("%+v: %v", cfg, err)
			}
			b, err := New(cfg).Search(context.Background(), st, Budget{Simulations: 200})
			if err != nil {
				t.Fatal(err)
			}
			if a.Move != b.Move {
				t.Fatalf("%+v: the same search chose %v and then %v", cfg, a.Move, b.Move)
			}
			if err := st.Play(a.Move); err != nil {
				t.Fatalf("%+v: %v", cfg, err)
			}
		}
	}
}

// TestMASTAverages: the move averages count each move's rewards for the
// seat that played it, and prefer the better move.
func TestMASTAverages(t *testing.T) {
	m := newMAST(1)
	r := rand.New(rand.NewPCG(1, 1))
	m.Played(0, 3)
	m.Played(1, 3)
	m.Played(0, 1<<20) // a large move number, kept in the map
	m.update([]float64{1, 0})
	m.Played(0, 3)
	m.update([]float64{0, 1})
	if v := m.Value(0, 3); v != 0.5 {
		t.Errorf("seat 0, move 3: %v, want 0.5", v)
	}
	if v := m.Value(1, 3); v != 0 {
		t.Errorf("seat 1, move 3: %v, want 0", v)
	}
	if v := m.Value(0, 1<<20); v != 1 {
		t.Errorf("seat 0, move 1<<20: %v, want 1", v)
	}
	if v := m.Value(1, 7); v != 1 {
		t.Errorf("an untried move: %v, want 1 (optimism)", v)
	}
	if got := m.Better(r, 1, 3, 7); got != 7 {
		t.Errorf("Better chose %v over an untried move", got)
	}
	var none *MAST
	none.Played(0, 1)
	if got := none.Better(r, 0, 5, 6); got != 5 {
		t.Errorf("a nil MAST chose %v, want the policy's own draw", got)
	}
}

// evaluatingNim is two-player Nim whose evaluation knows the theory: the
// seat to move with a multiple of 4 stones left loses.
type evaluatingNim struct{ nim }

func (n *evaluatingNim) Clone() game.State     { c := *n; return &c }
func (n *evaluatingNim) CopyFrom(s game.State) { *n = *s.(*evaluatingNim) }
func (n *evaluatingNim) Evaluate(r []float64) {
	if n.Over() {
		clear(r)
		r[n.winner] = 1
		return
	}
	r[n.current], r[1-n.current] = 1, 0
	if n.stones%4 == 0 {
		r[n.current], r[1-n.current] = 0, 1
	}
}

var _ Evaluation = (*evaluatingNim)(nil)

// TestMinimaxFollowsTheEvaluation: with implicit minimax backups at full
// weight, a search of a dozen simulations (random playouts, too few to tell
// the moves apart by themselves) plays the move its evaluation says wins,
// from every heap where there is one; without them it does not.
func TestMinimaxFollowsTheEvaluation(t *testing.T) {
	wrong := func(minimax float64) int {
		n := 0
		for stones := 5; stones <= 60; stones++ {
			if stones%4 == 0 {
				continue
			}
			pos := &evaluatingNim{nim{stones: stones, players: 2}}
			res, err := New(Config{Workers: 1, Seed: uint64(stones), Minimax: minimax}).Search(context.Background(), pos, Budget{Simulations: 12})
			if err != nil {
				t.Fatal(err)
			}
			if int(res.Move) != stones%4 {
				n++
			}
		}
		return n
	}
	if n := wrong(1); n > 0 {
		t.Errorf("with minimax backups, %d heaps of 42 got a losing move", n)
	}
	if n := wrong(0); n == 0 {
		t.Error("without minimax backups, 12 random playouts found every winning move: the test tells nothing")
	}
}
