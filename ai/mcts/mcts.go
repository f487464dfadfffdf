// Package mcts is Monte Carlo tree search for any game behind the platform's
// contract (package game): 1 to 4 seats, hidden information and chance,
// turns of several decisions, long playouts.
//
// The search is max^n UCT: every node keeps a reward sum for each seat, and
// the seat that made a node's move (whoever was to move, the turn's owner or
// not) is the one whose reward selects it. The tree stores moves, not
// positions: each simulation copies the root position into a state held for
// the purpose (CopyFrom), lets the game draw anew everything the searching
// seat cannot see (Resample), and replays the moves down the tree. Nodes past
// a chance event therefore average over the outcomes of that event ("open
// loop"), which is what lets the search plan across a phase boundary or a
// draw without reading a future it could not know. Where what a seat cannot
// see decides which moves are legal (another seat's hand), a node's children
// are the moves met in all the determinizations so far, and a simulation
// passes over the children whose move its own determinization refuses (Play
// returns an error and changes nothing); once a determinization has refused
// one, a node whose every move was a child widens again with the moves a
// later determinization allows.
//
// What a game knows beyond the contract it offers through small interfaces
// that the search state may implement: Prior (which moves to try first),
// Playout (a cheap policy better than uniform), Rewards (a reward finer than
// the share of the victory), Evaluation (a static rating of a position) and
// Reroot (finding the new position in a kept tree cheaply). Without them the
// search widens in the order of the legal moves, plays uniformly random
// playouts, rewards each seat its share of the victory
// (game.Standing.Rewards) and finds the new position by its text.
//
// Children are added one at a time in the order of the prior (progressive
// widening), so large branching factors cost little and the visits go first
// to the moves the game believes in. Four options put more knowledge in
// the search, for small budgets above all (Config): progressive bias adds
// the prior, scaled among a node's moves and fading with the child's
// visits, to the selection's score; MAST keeps the mean reward of every move
// played, wherever it was played, and lets the playouts prefer the moves
// that have done well (the search's own random playout, or a game's Guided
// one); implicit minimax backups evaluate every node as it is added and
// back the evaluations up the tree as max^n, mixed with the playouts' mean
// in the selection; RAVE gives every child the mean of the simulations in
// which its mover played its move later (a game's Traced playout tells its
// moves), mixed into the child's own mean while it has few visits.
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
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// MaxPlayers bounds the seats of a game the search can play.
const MaxPlayers = 4

// Prior is optional knowledge of a search state: how promising move m looks
// for the seat to move, by a cheap rule of thumb; higher is better. It orders
// the widening. Without it moves are tried in the order of AppendLegal.
type Prior interface {
	Prior(m game.Move) float64
}

// Playout is optional knowledge of a search state: it plays the game to its
// end with a cheap policy, drawing from r. It is called on finished games
// too, and then does nothing. It may leave what no reward reads (Turn, say)
// behind: the state is copied afresh before the next simulation. Without it
// the playout plays uniformly random legal moves.
type Playout interface {
	Playout(r *rand.Rand)
}

// Rewards is optional knowledge of a search state: it sets r[p], for each
// seat p of a finished game (len(r) is Players()), to a reward in [0, 1],
// what the search maximises for that seat. Without it each seat's reward is
// its share of the victory (game.Standing.Rewards).
type Rewards interface {
	Rewards(r []float64)
}

// Evaluation is optional knowledge of a search state: it sets r[p], for each
// seat p (len(r) is Players()), to an estimate in [0, 1] of the reward p will
// get, by a static look at the position, finished or not: the kind of rating
// a one-move bot chooses by. It serves implicit minimax backups
// (Config.Minimax).
type Evaluation interface {
	Evaluate(r []float64)
}

// Reroot is optional knowledge of a search state that lets a kept tree find
// a later position of the game cheaply. Without it the search looks for the
// later position among the tree's first few levels by comparing the states'
// text.
type Reroot interface {
	// Ply returns the number of decisions made since the game began.
	Ply() int
	// Leads reports whether move m, played now, can be on the way from
	// this position to later, a state of the same type.
	Leads(m game.Move, later game.State) bool
	// Equal reports whether other is the same position.
	Equal(other game.State) bool
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
	// Bias is the weight of progressive bias: a child's score in the
	// selection gains Bias*prior/(visits+1), where prior is the move's
	// prior scaled to [0, 1] among the moves of its node (the best 1, the
	// worst 0), so that the game's rule of thumb steers the first visits
	// and fades as the simulations speak. 0 (the default) uses the prior
	// only to order the widening; negative means 0. It is off by default
	// because no weight tried helped Blue Lagoon's search
	// (docs/strength.md, "Small budgets").
	Bias float64
	// MAST, between 0 and 1, turns on move-average sampling (see MAST):
	// the share of the playouts' steps whose move is chosen by the moves'
	// average rewards (the best of the legal moves in the search's own
	// playout, the better of the policy's draw and another in a game's
	// Guided playout). 0 (the default) is off.
	MAST float64
	// Minimax, between 0 and 1, turns on implicit minimax backups for a
	// state that offers Evaluation: every node is evaluated when it is
	// added, each node's evaluation is backed up the tree as max^n over its
	// children (the child best for the seat that moves there), and a
	// child's value in the selection is (1-Minimax) times its mean reward
	// plus Minimax times that backed-up evaluation. The playouts' averages
	// are noisy over a few simulations, the evaluation is not; but where
	// the game's prior already orders the root by the same rating, the
	// evaluation tells the search little more (docs/strength.md, "Small
	// budgets"). 0 (the default) is off.
	Minimax float64
	// RAVE, if above 0, turns on rapid action value estimation: every
	// child also keeps the mean reward, for its mover, of the simulations
	// through its parent in which its mover played its move at any later
	// point (in the tree below, or in the playout: a game's playout tells
	// its moves through Traced), and the selection mixes that mean into
	// the child's own with the weight sqrt(RAVE/(3n+RAVE)) at n visits, a
	// half at n = RAVE/3. In a game of placements a space good to take
	// now is often good a few moves later, and the all-moves mean has
	// many more samples early on. It costs simulations a second, which
	// at equal time outweighed what it gained for Blue Lagoon
	// (docs/strength.md, "Other settings left off"). 0 (the default) is
	// off.
	RAVE float64
	// Seed seeds the random streams of the workers.
	Seed uint64
}

// A Searcher chooses moves by Monte Carlo tree search. It keeps its trees
// between calls to Search; it may be used by several goroutines at once
// (concurrent searches then simply do not share trees).
type Searcher struct {
	cfg Config

	mu    sync.Mutex
	trees []*tree // kept from the last search, one per worker
	calls uint64  // searches started, to vary the random streams
}

// New returns a Searcher with the given configuration.
func New(cfg Config) *Searcher {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Exploration <= 0 {
		cfg.Exploration = 0.35
	}
	if cfg.Widening <= 0 {
		cfg.Widening = 1
	}
	cfg.Bias = max(cfg.Bias, 0)
	cfg.MAST = min(max(cfg.MAST, 0), 1)
	cfg.Minimax = min(max(cfg.Minimax, 0), 1)
	cfg.RAVE = max(cfg.RAVE, 0)
	return &Searcher{cfg: cfg}
}

// Result is the outcome of a search.
type Result struct {
	Move game.Move
	// Simulations is the number of playouts run in this search, all
	// workers together; Reused is the number of root visits that came from
	// the trees kept from earlier searches.
	Simulations int
	Reused      int
	// Value is the mean reward of the chosen move for the seat to move.
	Value float64
}

// ErrNoMoves is returned when the position has no legal move.
var ErrNoMoves = errors.New("mcts: no legal move")

// Search chooses a move for the seat to move in pos within the budget,
// playing as that seat: what it cannot see is drawn anew in every
// simulation. It stops early when ctx is done, returning the best move found
// so far; each worker completes one simulation first, so a search that has
// begun always answers, however soon its deadline comes. It returns ctx's
// error if ctx is done before it begins (and there is a choice to make).
// pos is not modified; the search works on copies of it (Clone), so it may
// be a search state that carries the game's knowledge (Prior, Playout,
// Rewards, Reroot).
func (s *Searcher) Search(ctx context.Context, pos game.State, b Budget) (Result, error) {
	if b.Time <= 0 && b.Simulations <= 0 {
		return Result{}, errors.New("mcts: empty budget")
	}
	if n := pos.Players(); n < 1 || n > MaxPlayers {
		return Result{}, fmt.Errorf("mcts: %d players; the search plays 1 to %d", n, MaxPlayers)
	}
	moves := pos.AppendLegal(nil)
	if pos.Over() || len(moves) == 0 {
		return Result{}, ErrNoMoves
	}
	if len(moves) == 1 {
		return Result{Move: moves[0]}, nil
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}

	trees, call := s.takeTrees(pos)
	reused := rootVisits(trees)
	total := s.grow(ctx, trees, b, call)
	best, value := mostVisited(trees, moves, pos.ToMove())
	s.keepTrees(trees)
	return Result{Move: best, Simulations: total, Reused: reused, Value: value}, nil
}

// Reset forgets the kept trees.
func (s *Searcher) Reset() {
	s.mu.Lock()
	s.trees = nil
	s.mu.Unlock()
}

// A node is a move in the tree and the statistics of the simulations through
// it. Children form a linked list, newest first.
type node struct {
	move      game.Move
	mover     int8  // the seat that made move
	exhausted bool  // the last rating found no legal move that is not a child
	pending   uint8 // candidates of the block at cands not yet children
	child     int32 // first child, -1 if none
	next      int32 // next sibling, -1 if none
	children  int32
	visits    int32
	cands     int32               // the node's block of candidates in tree.cands, -1 if none
	prior     float32             // the move's prior scaled to [0, 1] among its siblings
	sum       [MaxPlayers]float32 // reward sums per seat
	// static is the position's evaluation per seat, and eval that backed
	// up as max^n from the children once there are any (Config.Minimax).
	static, eval [MaxPlayers]float32
	// amafSum and amafN are the RAVE reward sum, for the mover, and
	// count (Config.RAVE).
	amafSum, amafN float32
}

// candidates is how many of the best moves by prior that are not yet
// children a node keeps, in order, for its next widenings: rating all the
// moves once for several widenings is what makes widening cheap.
const candidates = 8

// maxPlayout bounds the moves of a uniformly random playout, so that a game
// whose random play might never end still gives a reward (none: the game is
// not over).
const maxPlayout = 1 << 16

// A tree is one worker's search tree, rooted at a position.
type tree struct {
	cfg Config
	pos game.State // the root position
	// seat is the seat to move at the root, the one the search plays
	// for: every simulation draws anew what it cannot see.
	seat int
	// sim is the state a simulation plays on, made once and reused: a
	// state a simulation would be garbage the collector must keep up
	// with. prior, playout and rewarder are its optional knowledge.
	sim      game.State
	prior    Prior
	playout  Playout
	guided   Guided
	traced   Traced
	rewarder Rewards
	// evaluator is the sim's Evaluation when Config.Minimax is on.
	evaluator Evaluation
	mast      *MAST // nil without Config.MAST
	amaf      *amaf // nil without Config.RAVE
	// record is amaf.record, made once: the playout's moves for RAVE.
	record  func(seat int, m game.Move)
	rewards [MaxPlayers]float64
	// src is the worker's random stream, inside the tree: as an object
	// of its own it would share a cache line with the other workers'
	// streams, which every draw writes, and cost the search most of its
	// second core.
	src   rand.PCG
	rng   *rand.Rand
	nodes []node
	// spare is the memory of the nodes before the last reroot, which the
	// next reroot copies the kept subtree into: a tree kept from move to
	// move then allocates no new nodes once it has reached its size.
	spare []node
	root  int32
	cands []game.Move // blocks of candidate children, best last, candidates a block
	// candp holds the candidates' priors scaled to [0, 1], beside cands.
	candp []float32
	moves []game.Move // scratch
	rated []ratedMove
	path  []int32
	skip  []int32     // children whose move this simulation's determinization refuses
	legal []game.Move // scratch: the legal moves of a node, once the moves vary
	// varies is set once a determinization has refused a move of the
	// tree: the legal moves of a node then depend on what is drawn, and
	// a node that had every legal move as a child may meet new ones.
	varies bool
	found  []game.State // scratch states of reroot, one a level
}

type ratedMove struct {
	move  game.Move
	prior float64
}

func newTree(pos game.State, cfg Config) *tree {
	t := &tree{cfg: cfg}
	t.rng = rand.New(&t.src)
	if cfg.RAVE > 0 {
		t.amaf = &amaf{}
		t.record = t.amaf.record
	}
	t.restart(pos)
	return t
}

// restart makes t a new tree rooted at pos, in the memory it has: a kept
// tree that does not lead to pos (the other seats' replies were not in
// it, which at a thousand simulations in a game of many moves is most of
// the time) is started afresh without allocating its nodes again.
func (t *tree) restart(pos game.State) {
	t.mast = nil
	if t.cfg.MAST > 0 {
		t.mast = newMAST(t.cfg.MAST)
	}
	t.setRoot(pos)
	t.nodes = append(t.nodes[:0], node{child: -1, next: -1, mover: -1, cands: -1})
	t.root, t.cands, t.candp, t.varies = 0, t.cands[:0], t.candp[:0], false
}

// setRoot makes the tree's root position, and the state its simulations play
// on, copies of pos.
func (t *tree) setRoot(pos game.State) {
	t.pos = pos.Clone()
	t.seat = pos.ToMove()
	t.sim = pos.Clone()
	t.prior, _ = t.sim.(Prior)
	t.playout, _ = t.sim.(Playout)
	t.guided, _ = t.sim.(Guided)
	t.traced, _ = t.sim.(Traced)
	t.rewarder, _ = t.sim.(Rewards)
	t.evaluator = nil
	if t.cfg.Minimax > 0 {
		t.evaluator, _ = t.sim.(Evaluation)
	}
	t.found = t.found[:0]
}

// run runs simulations until ctx is done or, if n >= 0, n of them have run,
// and returns how many ran: at least one if n is not 0, so that a deadline
// that passes before the worker starts still leaves it a move to tell.
//
// The context is looked at before every simulation: a game whose playouts
// are long (hundreds of decisions) would otherwise overrun a time budget
// by many of them. A receive that does not wait writes nothing shared, so
// the workers do not contend for it.
func (t *tree) run(ctx context.Context, n int) int {
	stop := ctx.Done()
	done := 0
	for n < 0 || done < n {
		if done > 0 {
			select {
			case <-stop:
				return done
			default:
			}
		}
		t.simulate()
		done++
	}
	return done
}

// simulate runs one simulation: down the tree, one new node, a playout, and
// the rewards back up.
func (t *tree) simulate() {
	sim := t.sim
	sim.CopyFrom(t.pos)
	sim.Resample(t.seat, t.rng)
	cur := t.root
	t.path = append(t.path[:0], cur)
	for !sim.Over() {
		nd := &t.nodes[cur]
		limit := 1 + int32(t.cfg.Widening*math.Sqrt(float64(nd.visits)))
		if (!nd.exhausted || t.varies) && nd.children < limit {
			if c := t.widen(cur, sim); c >= 0 {
				t.path = append(t.path, c)
				break
			}
		}
		c := t.descend(cur, sim)
		if c < 0 {
			// No child's move is legal in this determinization: add
			// one that is, if there is any.
			if c = t.widen(cur, sim); c >= 0 {
				t.path = append(t.path, c)
			}
			break
		}
		t.path = append(t.path, c)
		cur = c
	}
	if t.mast != nil {
		for _, i := range t.path[1:] {
			t.mast.Played(int(t.nodes[i].mover), t.nodes[i].move)
		}
	}
	t.play(sim)
	n := sim.Players()
	r := t.rewards[:n]
	clear(r)
	if t.rewarder != nil {
		t.rewarder.Rewards(r)
	} else {
		sim.Standing().Rewards(r)
	}
	if t.amaf != nil {
		if t.mast != nil {
			// With MAST the playout told its moves to MAST, after the
			// tree's.
			t.amaf.playout = append(t.amaf.playout, t.mast.trace[len(t.path)-1:]...)
		}
		t.updateAMAF(r)
	}
	if t.mast != nil {
		t.mast.update(r)
	}
	if t.evaluator != nil {
		t.backUp()
	}
	for _, i := range t.path {
		nd := &t.nodes[i]
		nd.visits++
		for p := range n {
			nd.sum[p] += float32(r[p])
		}
	}
}

// backUp brings the backed-up evaluations of the nodes above the
// simulation's new node up to date: each takes the evaluation of its child
// best for the seat that moves there, or keeps its own if that is better
// for the seat: a node that has not yet widened to its best move would
// otherwise be judged by its worse ones. (The root has no evaluation of its
// own, and needs none.)
func (t *tree) backUp() {
	for k := len(t.path) - 2; k >= 1; k-- {
		nd := &t.nodes[t.path[k]]
		c := nd.child
		if c < 0 {
			return
		}
		seat := t.nodes[c].mover
		nd.eval = nd.static
		for ; c >= 0; c = t.nodes[c].next {
			if ch := &t.nodes[c]; ch.eval[seat] > nd.eval[seat] {
				nd.eval = ch.eval
			}
		}
	}
}

// play plays the simulation to the end: with the game's playout policy, or
// with uniformly random legal moves (tilted by the move averages with
// MAST); with RAVE, telling the playout's moves to t.amaf where the
// playout can.
func (t *tree) play(sim game.State) {
	switch {
	case t.amaf != nil && t.traced != nil && t.mast == nil:
		t.traced.TracedPlayout(t.rng, t.record)
		return
	case t.guided != nil:
		t.guided.GuidedPlayout(t.rng, t.mast)
		return
	case t.playout != nil:
		t.playout.Playout(t.rng)
		return
	}
	for range maxPlayout {
		if sim.Over() {
			return
		}
		t.moves = sim.AppendLegal(t.moves[:0])
		if len(t.moves) == 0 {
			return
		}
		var m game.Move
		seat := sim.ToMove()
		if t.mast != nil {
			m = t.mast.pick(t.rng, seat, t.moves)
			t.mast.Played(seat, m)
		} else {
			m = t.moves[t.rng.IntN(len(t.moves))]
		}
		if sim.Play(m) != nil {
			return
		}
		if t.amaf != nil && t.mast == nil {
			t.amaf.record(seat, m)
		}
	}
}

// widen adds to node i, and plays, the legal move with the best prior that
// is not yet one of its children, and returns the new child; or it returns
// -1, and marks the node exhausted, if every legal move is a child already.
// A candidate rated in another determinization that this one refuses is
// dropped: it is rated again where it is legal.
func (t *tree) widen(i int32, sim game.State) int32 {
	for {
		if t.nodes[i].pending == 0 && !t.rate(i, sim) {
			t.nodes[i].exhausted = true
			return -1
		}
		nd := &t.nodes[i]
		nd.pending--
		m := t.cands[int(nd.cands)+int(nd.pending)]
		prior := t.candp[int(nd.cands)+int(nd.pending)]
		if t.varies && !t.allows(sim, m) {
			continue
		}
		mover := sim.ToMove()
		if sim.Play(m) != nil {
			t.varies = true
			continue
		}
		c := int32(len(t.nodes))
		t.nodes = append(t.nodes, node{
			move:  m,
			mover: int8(mover),
			child: -1,
			next:  nd.child,
			cands: -1,
			prior: prior,
		})
		if t.evaluator != nil {
			r := t.rewards[:sim.Players()]
			t.evaluator.Evaluate(r)
			for p, v := range r {
				t.nodes[c].static[p] = float32(v)
			}
			t.nodes[c].eval = t.nodes[c].static
		}
		nd = &t.nodes[i]
		nd.child = c
		nd.children++
		nd.exhausted = false
		return c
	}
}

// rate fills node i's block of candidates with the best moves by prior that
// are not children yet, the best last, and reports whether there was any.
func (t *tree) rate(i int32, sim game.State) bool {
	t.moves = sim.AppendLegal(t.moves[:0])
	t.rated = t.rated[:0]
	for _, m := range t.moves {
		if !t.hasChild(i, m) {
			prior := 0.0
			if t.prior != nil {
				prior = t.prior.Prior(m)
			}
			t.rated = append(t.rated, ratedMove{m, prior})
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
	// The priors scaled to [0, 1] for progressive bias: the best of the
	// node's moves 1, the worst 0 (all 0 when they are equal).
	lo, hi := t.rated[0].prior, t.rated[0].prior
	for _, r := range t.rated {
		lo = min(lo, r.prior)
	}
	scale := float32(0)
	if hi > lo && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
		scale = float32(1 / (hi - lo))
	}
	nd := &t.nodes[i]
	if nd.cands < 0 {
		nd.cands = int32(len(t.cands))
		for range candidates {
			t.cands = append(t.cands, 0)
			t.candp = append(t.candp, 0)
		}
	}
	for k := range n {
		t.cands[int(nd.cands)+n-1-k] = t.rated[k].move
		t.candp[int(nd.cands)+n-1-k] = float32(t.rated[k].prior-lo) * scale
	}
	nd.pending = uint8(n)
	return true
}

func (t *tree) hasChild(i int32, m game.Move) bool {
	for c := t.nodes[i].child; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].move == m {
			return true
		}
	}
	return false
}

// descend plays, and returns, the child of node i with the best upper
// confidence bound for the seat that moves there, among those whose move is
// legal in this simulation's determinization; -1 if there is none.
func (t *tree) descend(i int32, sim game.State) int32 {
	t.skip = t.skip[:0]
	if t.varies {
		// Pass over what this determinization does not allow without
		// asking Play, whose refusal may cost the game an error to
		// write: a game with hidden hands meets many.
		t.legal = sim.AppendLegal(t.legal[:0])
		for c := t.nodes[i].child; c >= 0; c = t.nodes[c].next {
			if !slices.Contains(t.legal, t.nodes[c].move) {
				t.skip = append(t.skip, c)
			}
		}
	}
	for {
		c := t.selectChild(i)
		if c < 0 || sim.Play(t.nodes[c].move) == nil {
			return c
		}
		t.skip = append(t.skip, c)
		t.varies = true
	}
}

// selectChild returns the child of node i with the best upper confidence
// bound for the seat that moves there, passing over the children in t.skip.
func (t *tree) selectChild(i int32) int32 {
	parent := &t.nodes[i]
	logN := math.Log(float64(parent.visits) + 1)
	best, bestScore := int32(-1), math.Inf(-1)
	for c := parent.child; c >= 0; c = t.nodes[c].next {
		if len(t.skip) > 0 && t.skipped(c) {
			continue
		}
		nd := &t.nodes[c]
		n := float64(nd.visits)
		if n == 0 {
			return c
		}
		mean := float64(nd.sum[nd.mover]) / n
		if t.amaf != nil {
			mean = t.raveMean(nd, mean, n)
		}
		if t.evaluator != nil {
			mean += t.cfg.Minimax * (float64(nd.eval[nd.mover]) - mean)
		}
		score := mean + t.cfg.Exploration*math.Sqrt(logN/n)
		if t.cfg.Bias > 0 {
			score += t.cfg.Bias * float64(nd.prior) / (n + 1)
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// allows reports whether m is a legal move of sim.
func (t *tree) allows(sim game.State, m game.Move) bool {
	t.legal = sim.AppendLegal(t.legal[:0])
	return slices.Contains(t.legal, m)
}

func (t *tree) skipped(c int32) bool {
	for _, s := range t.skip {
		if s == c {
			return true
		}
	}
	return false
}

// findLevels and findStates bound the search for a later position in a tree
// whose states offer no Reroot: the levels below the root looked at, and the
// states compared by their text.
const (
	findLevels = 8
	findStates = 4096
)

// reroot moves the tree's root to the node for pos, found by replaying the
// tree's moves from the old root, and compacts the tree to that subtree. It
// reports whether pos was found.
func (t *tree) reroot(pos game.State) bool {
	if pos.Players() != t.pos.Players() {
		return false
	}
	found := int32(-1)
	if old, ok := t.pos.(Reroot); ok {
		target, ok := pos.(Reroot)
		if !ok {
			return false
		}
		depth := target.Ply() - old.Ply()
		if depth < 0 {
			return false
		}
		found = t.find(t.root, t.pos, pos, depth, 0)
	} else {
		budget := findStates
		found = t.findText(t.root, t.pos, pos.String(), pos.Turn(), 0, &budget)
	}
	if found < 0 {
		return false
	}
	nodes := t.spare[:0]
	if size := t.size(found); cap(nodes) < size {
		nodes = make([]node, 0, size)
	}
	nodes = t.copySubtree(nodes, found)
	nodes[0].next = -1
	t.spare = t.nodes[:0]
	t.nodes, t.root, t.cands, t.candp = nodes, 0, t.cands[:0], t.candp[:0]
	t.setRoot(pos)
	return true
}

// scratch returns the reusable state of level d of the search for a later
// position, made from the root position.
func (t *tree) scratch(d int) game.State {
	for len(t.found) <= d {
		t.found = append(t.found, t.pos.Clone())
	}
	return t.found[d]
}

// find looks, depth moves below node i at position s, for the node whose
// position equals target; level d is the number of moves below the root.
func (t *tree) find(i int32, s, target game.State, depth, d int) int32 {
	rs := s.(Reroot)
	if depth == 0 {
		if rs.Equal(target) {
			return i
		}
		return -1
	}
	for c := t.nodes[i].child; c >= 0; c = t.nodes[c].next {
		m := t.nodes[c].move
		if s.Over() || !rs.Leads(m, target) {
			continue
		}
		next := t.scratch(d)
		next.CopyFrom(s)
		if next.Play(m) != nil {
			continue
		}
		if f := t.find(c, next, target, depth-1, d+1); f >= 0 {
			return f
		}
	}
	return -1
}

// findText looks below node i at position s for the node whose position
// writes as target, through the children the search has visited, at most
// findLevels moves deep and no later than the target's turn, comparing at
// most *budget states.
func (t *tree) findText(i int32, s game.State, target string, turn, d int, budget *int) int32 {
	if *budget <= 0 || s.Turn() > turn {
		return -1
	}
	*budget--
	if s.String() == target {
		return i
	}
	if d == findLevels {
		return -1
	}
	for c := t.nodes[i].child; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].visits == 0 {
			continue
		}
		next := t.scratch(d)
		next.CopyFrom(s)
		if next.Play(t.nodes[c].move) != nil {
			continue
		}
		if f := t.findText(c, next, target, turn, d+1, budget); f >= 0 {
			return f
		}
	}
	return -1
}

func (t *tree) size(i int32) int {
	n := 1
	for c := t.nodes[i].child; c >= 0; c = t.nodes[c].next {
		n += t.size(c)
	}
	return n
}

// copySubtree appends node i and its descendants to dst, depth first,
// renumbering the links, and returns dst.
func (t *tree) copySubtree(dst []node, i int32) []node {
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
