// Package mcts is Monte Carlo tree search for games of 2 to 4 players with
// simultaneous scoring, hidden chance and long playouts, written against a
// small interface so that any game can use it.
//
// The search is max^n UCT: every node keeps a reward sum for each player, and
// the player who made a node's move is the one whose reward selects it. The
// tree stores moves, not positions: each simulation copies the root position,
// lets the game draw its hidden information anew (Resample), and replays the
// moves down the tree. Nodes past a chance event therefore average over the
// outcomes of that event ("open loop"), which is what lets the search plan
// across a phase boundary without reading a future it could not know.
//
// Children are added one at a time in the order of the game's cheap move
// prior (progressive widening), so large branching factors cost little and
// the visits go first to the moves the game believes in. Playouts use the
// game's own policy, which should be cheap and better than uniform.
//
// Parallelism is at the root: each worker grows its own tree from its own
// random stream and the root visits are summed at the end. This keeps a
// search with an iteration budget and a seed reproducible whatever the
// scheduling, and needs no locks. Trees are kept between searches and
// re-rooted at the new position when it is reached from the old one through
// moves the tree knows.
package mcts

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"
)

// MaxPlayers bounds the players of a game the search can play.
const MaxPlayers = 4

// A Game is a position of a game as the search sees it. The search copies
// positions by value (S is the position type, *S implements Game), so a
// position must be a flat value whose copies are independent.
//
// From a given node of the tree, the moves and the player to move must not
// depend on the hidden information that Resample draws; only what the moves
// yield, and whether the game is over, may.
type Game[S comparable, M comparable] interface {
	*S
	// Players returns the number of players, 2 to MaxPlayers.
	Players() int
	// Current returns the player to move, 0 to Players()-1.
	Current() int
	// Over reports whether the game is over.
	Over() bool
	// AppendMoves appends the legal moves of the player to move to dst.
	AppendMoves(dst []M) []M
	// Prior returns how promising move m looks for the player to move, by
	// a cheap rule of thumb: higher is better. It orders the widening.
	Prior(m M) float64
	// Play plays the legal move m.
	Play(m M)
	// Resample draws anew the information the players cannot know yet,
	// such as the layout of a phase still to come.
	Resample(r *rand.Rand)
	// Playout plays the game to its end with a cheap policy; it is called
	// on finished games too, and then does nothing.
	Playout(r *rand.Rand)
	// Rewards sets r[p], for each player p of a finished game, to a reward
	// in [0, 1]: what the search maximises for that player.
	Rewards(r *[MaxPlayers]float64)
	// Ply returns the number of moves played since the game began.
	Ply() int
	// Leads reports whether move m, played now, can be on the way from
	// this position to the later position later. It lets the search find
	// the new position in its tree without trying every branch.
	Leads(m M, later *S) bool
}

// Budget limits a search: by time, by a number of simulations, or both
// (whichever comes first). A zero Budget is not allowed.
type Budget struct {
	Time        time.Duration
	Simulations int
}

// Config tunes a Searcher. The zero value of a field means its default.
type Config struct {
	// Workers is the number of trees grown in parallel; default
	// runtime.GOMAXPROCS(0). A search with an iteration budget and a seed
	// gives the same move for the same number of workers.
	Workers int
	// Exploration is the UCT exploration constant; default 0.35.
	Exploration float64
	// Widening sets how many children a node may have after n visits:
	// 1 + Widening*sqrt(n); default 1.
	Widening float64
	// Seed seeds the random streams of the workers.
	Seed uint64
}

// A Searcher chooses moves by Monte Carlo tree search. It keeps its trees
// between calls to Search; it may be used by several goroutines at once
// (concurrent searches then simply do not share trees).
type Searcher[S comparable, M comparable, G Game[S, M]] struct {
	cfg Config

	mu    sync.Mutex
	trees []*tree[S, M, G] // kept from the last search, one per worker
	calls uint64           // searches started, to vary the random streams
}

// New returns a Searcher with the given configuration.
func New[S comparable, M comparable, G Game[S, M]](cfg Config) *Searcher[S, M, G] {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Exploration <= 0 {
		cfg.Exploration = 0.35
	}
	if cfg.Widening <= 0 {
		cfg.Widening = 1
	}
	return &Searcher[S, M, G]{cfg: cfg}
}

// Result is the outcome of a search.
type Result[M comparable] struct {
	Move M
	// Simulations is the number of playouts run in this search, all
	// workers together; Reused is the number of root visits that came from
	// the trees kept from earlier searches.
	Simulations int
	Reused      int
	// Value is the mean reward of the chosen move for the player to move.
	Value float64
}

// ErrNoMoves is returned when the position has no legal move.
var ErrNoMoves = errors.New("mcts: no legal move")

// Search chooses a move for the player to move in pos within the budget. It
// stops early when ctx is done, returning the best move found so far; each
// worker completes one simulation first, so a search that has begun always
// answers, however soon its deadline comes. It returns ctx's error if ctx is
// done before it begins (and there is a choice to make). pos is not
// modified.
func (s *Searcher[S, M, G]) Search(ctx context.Context, pos *S, b Budget) (Result[M], error) {
	var zero Result[M]
	if b.Time <= 0 && b.Simulations <= 0 {
		return zero, errors.New("mcts: empty budget")
	}
	var g G = pos
	moves := g.AppendMoves(nil)
	if g.Over() || len(moves) == 0 {
		return zero, ErrNoMoves
	}
	if len(moves) == 1 {
		return Result[M]{Move: moves[0]}, nil
	}
	if err := ctx.Err(); err != nil {
		return zero, err
	}

	s.mu.Lock()
	kept := s.trees
	s.trees = nil
	call := s.calls
	s.calls++
	s.mu.Unlock()

	workers := s.cfg.Workers
	trees := make([]*tree[S, M, G], workers)
	for w := range trees {
		if w < len(kept) && kept[w] != nil && kept[w].reroot(pos) {
			trees[w] = kept[w]
		} else {
			trees[w] = newTree[S, M, G](pos, s.cfg)
		}
	}
	reused := 0
	for _, t := range trees {
		reused += int(t.nodes[t.root].visits)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if b.Time > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, b.Time)
		defer stop()
	}
	sims := make([]int, workers)
	var wg sync.WaitGroup
	for w, t := range trees {
		n := -1
		if b.Simulations > 0 {
			n = b.Simulations / workers
			if w < b.Simulations%workers {
				n++
			}
		}
		t.src.Seed(s.cfg.Seed, call<<8|uint64(w))
		wg.Go(func() { sims[w] = t.run(ctx, n) })
	}
	wg.Wait()

	total := 0
	for _, n := range sims {
		total += n
	}

	// Sum the root children over the trees, in the order of the legal
	// moves so that ties break the same way every time.
	visits := make(map[M]int, len(moves))
	value := make(map[M]float64, len(moves))
	p := g.Current()
	for _, t := range trees {
		for c := t.nodes[t.root].child; c >= 0; c = t.nodes[c].next {
			n := &t.nodes[c]
			visits[n.move] += int(n.visits)
			value[n.move] += float64(n.sum[p])
		}
	}
	best := moves[0]
	for _, m := range moves {
		if visits[m] > visits[best] {
			best = m
		}
	}

	s.mu.Lock()
	s.trees = trees
	s.mu.Unlock()

	res := Result[M]{Move: best, Simulations: total, Reused: reused}
	if n := visits[best]; n > 0 {
		res.Value = value[best] / float64(n)
	}
	return res, nil
}

// Reset forgets the kept trees.
func (s *Searcher[S, M, G]) Reset() {
	s.mu.Lock()
	s.trees = nil
	s.mu.Unlock()
}

// A node is a move in the tree and the statistics of the simulations through
// it. Children form a linked list, newest first.
type node[M comparable] struct {
	move      M
	mover     int8  // the player who made move
	exhausted bool  // every legal move is a child
	pending   uint8 // candidates of the block at cands not yet children
	child     int32 // first child, -1 if none
	next      int32 // next sibling, -1 if none
	children  int32
	visits    int32
	cands     int32               // the node's block of candidates in tree.cands, -1 if none
	sum       [MaxPlayers]float32 // reward sums per player
}

// candidates is how many of the best moves by prior that are not yet
// children a node keeps, in order, for its next widenings: rating all the
// moves once for several widenings is what makes widening cheap.
const candidates = 8

// A tree is one worker's search tree, rooted at a position.
type tree[S comparable, M comparable, G Game[S, M]] struct {
	cfg Config
	pos S // the root position
	// sim is the position a simulation plays on, reused: a position
	// reached through a type parameter escapes to the heap, and one per
	// simulation would be garbage the collector must keep up with.
	sim     S
	rewards [MaxPlayers]float64
	// src is the worker's random stream, inside the tree: as an object
	// of its own it would share a cache line with the other workers'
	// streams, which every draw writes, and cost the search most of its
	// second core.
	src   rand.PCG
	rng   *rand.Rand
	nodes []node[M]
	root  int32
	cands []M // blocks of candidates children, best last, candidates a block
	moves []M // scratch
	rated []ratedMove[M]
	path  []int32
}

type ratedMove[M comparable] struct {
	move  M
	prior float64
}

func newTree[S comparable, M comparable, G Game[S, M]](pos *S, cfg Config) *tree[S, M, G] {
	t := &tree[S, M, G]{cfg: cfg, pos: *pos}
	t.rng = rand.New(&t.src)
	t.nodes = append(t.nodes, node[M]{child: -1, next: -1, mover: -1, cands: -1})
	return t
}

// run runs simulations until ctx is done or, if n >= 0, n of them have run,
// and returns how many ran: at least one if n is not 0, so that a deadline
// that passes before the worker starts still leaves it a move to tell.
func (t *tree[S, M, G]) run(ctx context.Context, n int) int {
	done := 0
	for n < 0 || done < n {
		if done > 0 && done&15 == 0 && ctx.Err() != nil {
			break
		}
		t.simulate()
		done++
	}
	return done
}

// simulate runs one simulation: down the tree, one new node, a playout, and
// the rewards back up.
func (t *tree[S, M, G]) simulate() {
	t.sim = t.pos
	var g G = &t.sim
	g.Resample(t.rng)
	cur := t.root
	t.path = append(t.path[:0], cur)
	for !g.Over() {
		nd := &t.nodes[cur]
		limit := 1 + int32(t.cfg.Widening*math.Sqrt(float64(nd.visits)))
		if !nd.exhausted && nd.children < limit {
			if c := t.widen(cur, g); c >= 0 {
				g.Play(t.nodes[c].move)
				t.path = append(t.path, c)
				break
			}
		}
		c := t.selectChild(cur)
		if c < 0 {
			break // a game that is not over but has no move: score it as it is
		}
		g.Play(t.nodes[c].move)
		t.path = append(t.path, c)
		cur = c
	}
	g.Playout(t.rng)
	r := &t.rewards
	*r = [MaxPlayers]float64{}
	g.Rewards(r)
	for _, i := range t.path {
		nd := &t.nodes[i]
		nd.visits++
		for p := range nd.sum {
			nd.sum[p] += float32(r[p])
		}
	}
}

// widen adds to node i the legal move with the best prior that is not yet
// one of its children and returns the new child, or -1 (and marks the node
// exhausted) if every move is a child already.
func (t *tree[S, M, G]) widen(i int32, g G) int32 {
	if t.nodes[i].pending == 0 && !t.rate(i, g) {
		t.nodes[i].exhausted = true
		return -1
	}
	nd := &t.nodes[i]
	nd.pending--
	m := t.cands[int(nd.cands)+int(nd.pending)]
	c := int32(len(t.nodes))
	t.nodes = append(t.nodes, node[M]{
		move:  m,
		mover: int8(g.Current()),
		child: -1,
		next:  nd.child,
		cands: -1,
	})
	nd = &t.nodes[i]
	nd.child = c
	nd.children++
	return c
}

// rate fills node i's block of candidates with the best moves by prior that
// are not children yet, the best last, and reports whether there was any.
func (t *tree[S, M, G]) rate(i int32, g G) bool {
	t.moves = g.AppendMoves(t.moves[:0])
	t.rated = t.rated[:0]
	for _, m := range t.moves {
		if !t.hasChild(i, m) {
			t.rated = append(t.rated, ratedMove[M]{m, g.Prior(m)})
		}
	}
	if len(t.rated) == 0 {
		return false
	}
	// The best candidates in order, the first of equals first, as a stable
	// partial selection sort: a node rarely uses more than a few.
	n := min(len(t.rated), candidates)
	for k := range n {
		best := k
		for j := k + 1; j < len(t.rated); j++ {
			if t.rated[j].prior > t.rated[best].prior {
				best = j
			}
		}
		b := t.rated[best]
		copy(t.rated[k+1:best+1], t.rated[k:best])
		t.rated[k] = b
	}
	nd := &t.nodes[i]
	if nd.cands < 0 {
		nd.cands = int32(len(t.cands))
		var zero M
		for range candidates {
			t.cands = append(t.cands, zero)
		}
	}
	for k := range n {
		t.cands[int(nd.cands)+n-1-k] = t.rated[k].move
	}
	nd.pending = uint8(n)
	return true
}

func (t *tree[S, M, G]) hasChild(i int32, m M) bool {
	for c := t.nodes[i].child; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].move == m {
			return true
		}
	}
	return false
}

// selectChild returns the child of node i with the best upper confidence
// bound for the player who moves there.
func (t *tree[S, M, G]) selectChild(i int32) int32 {
	parent := &t.nodes[i]
	logN := math.Log(float64(parent.visits) + 1)
	best, bestScore := int32(-1), math.Inf(-1)
	for c := parent.child; c >= 0; c = t.nodes[c].next {
		nd := &t.nodes[c]
		n := float64(nd.visits)
		if n == 0 {
			return c
		}
		score := float64(nd.sum[nd.mover])/n + t.cfg.Exploration*math.Sqrt(logN/n)
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// reroot moves the tree's root to the node for pos, found by replaying the
// tree's moves from the old root, and compacts the tree to that subtree. It
// reports whether pos was found.
func (t *tree[S, M, G]) reroot(pos *S) bool {
	var target G = pos
	var old G = &t.pos
	depth := target.Ply() - old.Ply()
	if depth < 0 {
		return false
	}
	found := t.find(t.root, t.pos, target, depth)
	if found < 0 {
		return false
	}
	nodes := make([]node[M], 0, t.size(found))
	nodes = t.copySubtree(nodes, found)
	nodes[0].next = -1
	t.nodes, t.root, t.pos, t.cands = nodes, 0, *pos, t.cands[:0]
	return true
}

// find looks, depth moves below node i at position s, for the node whose
// position equals target.
func (t *tree[S, M, G]) find(i int32, s S, target G, depth int) int32 {
	var g G = &s
	if depth == 0 {
		if s == *target {
			return i
		}
		return -1
	}
	for c := t.nodes[i].child; c >= 0; c = t.nodes[c].next {
		m := t.nodes[c].move
		if g.Over() || !g.Leads(m, target) {
			continue
		}
		next := s
		G(&next).Play(m)
		if f := t.find(c, next, target, depth-1); f >= 0 {
			return f
		}
	}
	return -1
}

func (t *tree[S, M, G]) size(i int32) int {
	n := 1
	for c := t.nodes[i].child; c >= 0; c = t.nodes[c].next {
		n += t.size(c)
	}
	return n
}

// copySubtree appends node i and its descendants to dst, depth first,
// renumbering the links, and returns dst.
func (t *tree[S, M, G]) copySubtree(dst []node[M], i int32) []node[M] {
	at := int32(len(dst))
	dst = append(dst, t.nodes[i])
	dst[at].child = -1
	dst[at].cands, dst[at].pending = -1, 0
	prev := int32(-1)
	for c := t.nodes[i].child; c >= 0; c = t.nodes[c].next {
		ci := int32(len(dst))
		dst = t.copySubtree(dst, c)
		dst[ci].next = -1
		if prev < 0 {
			dst[at].child = ci
		} else {
			dst[prev].next = ci
		}
		prev = ci
	}
	return dst
}
