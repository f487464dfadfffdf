package bots

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// Position is a game of Lagoon: Land of Druids as the search (ai/mcts)
// plays it: the engine's state, a flat value, with a playout led by the
// prior (unravelling and exploring more often than stopping) and rewards
// shaped by the margin, as Blue Lagoon's Position does. Copying it is one
// assignment.
type Position struct {
	druids.State
	policy
	// root is the turn count at the root of the search: a cut playout
	// stops cut rounds after it, and a hasty one plays hastily past it.
	root int
	// base is each seat's mean margin at the end of the pilot playouts
	// from the root (setting pilot), which the reward's share of the
	// margin is centred on; zero without them.
	base [druids.MaxPlayers]float64
	// engine is, in a playout by plan, each seat's energy (its index plus
	// one; 0 for a seat that plays without a plan).
	engine [druids.MaxPlayers]int8
}

// policy is what the settings of SearchWith choose.
type policy struct {
	// margin is the share of a seat's reward that is its margin of points
	// (squashed into [0, 1]) rather than its share of the victory.
	margin float64
	// scale is the margin, in points, that the reward's share of the
	// margin squashes to about 0.88 of its top (tanh 1).
	scale float64
	// lift is added to a seat's margin before it is squashed, so that a
	// loss by less than lift points earns more than half the margin's
	// share: where every playout loses, the near wins tell moves apart.
	lift float64
	// uniform plays the playouts uniformly at random (the engine's own
	// Playout) rather than led by the prior.
	uniform bool
	// cut, if not 0, stops a playout once cut rounds of turns have ended
	// since the root's turn, and a game so cut is rewarded by the
	// engine's Evaluate.
	cut int
	// ajPlay is the share of a playout's decisions made by AJ's rules as
	// a seat (druids.State.AJSeatMove at the Eldrid level) rather than
	// drawn by the prior.
	ajPlay float64
	// steer plays the decisions that steer destiny in a playout (a drawn
	// tile's side, the site to unravel) by druids.State.Steer; gather
	// where a druid goes (a move's destination, a summon's site) by
	// druids.State.Gather; hasty the turns after the root's by
	// druids.State.Hasty (explore, and nothing else).
	steer, gather, hasty bool
	// pilot, if not 0, is how many playouts from the root, made when the
	// position is, find the margin each seat may expect (base): the
	// reward's share of the margin is then squashed about it rather than
	// about 0, so that it still tells moves apart where every playout
	// loses (or wins) by much.
	pilot int
	// plan is the share of the playouts in which each seat plays its
	// turns by a plan around one energy (druids.State.Plan), drawn at the
	// playout's start.
	plan float64
	// best, if not 0, plays the turns of a playout's first two rounds
	// (the root's turn and the next of each seat) each as the best of best
	// turns drawn by the prior, judged as the heuristic judges its plans.
	best int
	// ready is the points the search's evaluation of a position (for
	// ai/mcts's implicit minimax backups) counts for each site a seat
	// could unravel without moving (druids.State.Ready).
	ready float64
}

var (
	_ game.State      = (*Position)(nil)
	_ mcts.Prior      = (*Position)(nil)
	_ mcts.Playout    = (*Position)(nil)
	_ mcts.Guided     = (*Position)(nil)
	_ mcts.Rewards    = (*Position)(nil)
	_ mcts.Reroot     = (*Position)(nil)
	_ mcts.Evaluation = (*Position)(nil)
)

// DefaultMargin is the share of the reward that is the margin.
const DefaultMargin = 0.2

// DefaultScale is the margin, in points, that the reward squashes to about
// 0.88 of its share (tanh 1).
const DefaultScale = 8

// NewPosition returns the search's position for a state of Lagoon: Land of
// Druids, a copy: st is not changed.
func NewPosition(st game.State) (*Position, error) {
	s, err := stateOf(st)
	if err != nil {
		return nil, err
	}
	return &Position{State: *s, policy: policy{margin: DefaultMargin, scale: DefaultScale}, root: s.Turn()}, nil
}

// Search returns st as the search should play it: NewPosition as a
// game.State, for the bots' table of package ai.
func Search(st game.State) (game.State, error) {
	p, err := NewPosition(st)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// SearchWith is Search with settings by name, each measured against AJ
// at the Legend level (docs/druids.md, Bots): "margin" (0 to 1), "scale"
// (the margin in points that the reward squashes to tanh 1), "pilot" (a
// number of playouts from the root whose mean margin the reward's margin
// is measured from, 0 for none), "uniform"
// (non-zero: uniformly random playouts), "cut" (a whole number of rounds,
// 0 for none: playouts stop that many rounds of turns after the root's
// and are judged by the engine's Evaluate), "ajplay" (0 to 1: the share of
// a playout's decisions made by AJ's rules as a seat), and, non-zero to
// turn them on, "steer", "gather" and "hasty" (playouts that play some
// decisions by the engine's Steer and Gather, or the turns after the
// root's by its Hasty).
func SearchWith(settings map[string]float64) (func(game.State) (game.State, error), error) {
	pol := policy{margin: DefaultMargin, scale: DefaultScale}
	share := func(k string, v float64, to *float64) error {
		if v < 0 || v > 1 {
			return fmt.Errorf("setting %s: %v is not between 0 and 1", k, v)
		}
		*to = v
		return nil
	}
	for k, v := range settings {
		var err error
		switch k {
		case "margin":
			err = share(k, v, &pol.margin)
		case "ajplay":
			err = share(k, v, &pol.ajPlay)
		case "plan":
			err = share(k, v, &pol.plan)
		case "lift":
			if v < -100 || v > 100 {
				err = fmt.Errorf("setting lift: %v is not a number of points from -100 to 100", v)
			}
			pol.lift = v
		case "scale":
			if v < 1 || v > 100 {
				err = fmt.Errorf("setting scale: %v is not a number of points from 1 to 100", v)
			}
			pol.scale = v
		case "cut":
			if v < 0 || v > 100 || v != math.Trunc(v) {
				err = fmt.Errorf("setting cut: %v is not a whole number of rounds from 0 to 100", v)
			}
			pol.cut = int(v)
		case "best":
			if v < 0 || v > 1000 || v != math.Trunc(v) {
				err = fmt.Errorf("setting best: %v is not a whole number of turns from 0 to 1000", v)
			}
			pol.best = int(v)
		case "ready":
			if v < 0 || v > 10 {
				err = fmt.Errorf("setting ready: %v is not a number of points from 0 to 10", v)
			}
			pol.ready = v
		case "pilot":
			if v < 0 || v > 10000 || v != math.Trunc(v) {
				err = fmt.Errorf("setting pilot: %v is not a whole number of playouts from 0 to 10000", v)
			}
			pol.pilot = int(v)
		case "uniform":
			pol.uniform = v != 0
		case "steer":
			pol.steer = v != 0
		case "gather":
			pol.gather = v != 0
		case "hasty":
			pol.hasty = v != 0
		default:
			err = fmt.Errorf("unknown setting %q of Land of Druids' search (known: margin, scale, lift, pilot, plan, best, ready, uniform, cut, ajplay, steer, gather, hasty)", k)
		}
		if err != nil {
			return nil, err
		}
	}
	return func(st game.State) (game.State, error) {
		p, err := NewPosition(st)
		if err != nil {
			return nil, err
		}
		p.policy = pol
		p.centre()
		return p, nil
	}, nil
}

// centre sets base, each seat's mean margin at the end of pilot playouts
// from s, each on a copy whose hidden future is drawn anew; without pilot
// playouts base stays zero. The playouts' generator is seeded by the
// decisions made, so that a position gives one base.
func (s *Position) centre() {
	if s.pilot == 0 || s.Over() {
		return
	}
	r := rand.New(rand.NewPCG(uint64(s.Ply()), 0x70696c6f74))
	var sum [druids.MaxPlayers]float64
	var c Position
	for range s.pilot {
		c = *s
		c.Resample(s.ToMove(), r)
		c.Playout(r)
		for p := range s.Players() {
			sum[p] += float64(margin(&c.State, p))
		}
	}
	for p := range s.Players() {
		s.base[p] = sum[p] / float64(s.pilot)
	}
}

// Clone returns an independent copy.
func (s *Position) Clone() game.State {
	c := *s
	return &c
}

// CopyFrom makes s a copy of src, which must be a *Position.
func (s *Position) CopyFrom(src game.State) { *s = *src.(*Position) }

// Playout plays the game to its end, or to the cut, each choice by the
// policy: drawn with a chance that grows with its prior, unless a setting
// says otherwise.
func (s *Position) Playout(r *rand.Rand) {
	if s.policy == (policy{margin: s.margin, scale: s.scale, pilot: s.pilot, uniform: true}) {
		s.State.Playout(r)
		return
	}
	s.play(r, nil)
}

// GuidedPlayout is Playout, telling the search's move averages (MAST)
// every move, and letting them choose between two of the policy's draws
// where it draws by the prior.
func (s *Position) GuidedPlayout(r *rand.Rand, mast *mcts.MAST) {
	if mast == nil {
		s.Playout(r)
		return
	}
	s.play(r, mast)
}

// play plays the playout by the policy, guided by mast if it is not nil.
func (s *Position) play(r *rand.Rand, mast *mcts.MAST) {
	var buf [256]game.Move
	if s.plan > 0 {
		for p := range s.Players() {
			s.engine[p] = 0
			if r.Float64() < s.plan {
				s.engine[p] = int8(1 + r.IntN(int(druids.NumEnergies)))
			}
		}
	}
	turn, n := s.Turn(), 0
	if s.best > 0 {
		for end := turn + 2*s.Players(); !s.Over() && s.Turn() < end; {
			s.bestTurn(r)
		}
		turn = s.Turn()
	}
	for !s.Over() && !s.cutNow() {
		if s.Turn() != turn {
			turn, n = s.Turn(), 0
		}
		n++
		legal := s.AppendLegal(buf[:0])
		m := druids.CapTurn(n, legal, s.choose(legal, r, mast))
		mast.Played(s.ToMove(), m)
		s.PlayLegal(m)
	}
}

// choose returns the playout's choice among legal; where it draws by the
// prior and mast is not nil, the better of two draws by the averages.
func (s *Position) choose(legal []game.Move, r *rand.Rand, mast *mcts.MAST) game.Move {
	if s.hasty && s.Turn() > s.root {
		return s.Hasty(legal, r)
	}
	if e := s.engine[s.ToMove()]; e > 0 {
		if m, ok := s.Plan(druids.Energy(e-1), legal, r); ok {
			return m
		}
	}
	if s.steer {
		if m, ok := s.Steer(legal, r); ok {
			return m
		}
	}
	if s.gather {
		if m, ok := s.Gather(legal, r); ok {
			return m
		}
	}
	switch {
	case s.ajPlay > 0 && len(legal) > 1 && r.Float64() < s.ajPlay:
		return s.AJSeatMove(druids.AJEldrid, r)
	case s.uniform:
		return legal[r.IntN(len(legal))]
	case mast != nil && len(legal) > 1:
		return mast.Better(r, s.ToMove(), pick(&s.State, legal, r), pick(&s.State, legal, r))
	}
	return pick(&s.State, legal, r)
}

// bestTurn plays the rest of the turn as the best of s.best turns drawn
// by the prior (the first greedily, as the heuristic's plans), judged by
// value for the seat to move before the decision that ends the turn, so
// that the other seats' turn after it, which the engine may play at once,
// does not weigh in the choice.
func (s *Position) bestTurn(r *rand.Rand) {
	var buf [256]game.Move
	var best, c, before druids.State
	seat, bestValue := s.ToMove(), math.Inf(-1)
	for i := range s.best {
		c = s.State
		turn, n := c.Turn(), 0
		for c.Turn() == turn && !c.Over() {
			n++
			legal := c.AppendLegal(buf[:0])
			var m game.Move
			if i == 0 && n <= greedySteps {
				m = greedy(&c, legal, r)
			} else {
				m = pick(&c, legal, r)
			}
			before = c
			c.PlayLegal(druids.CapTurn(n, legal, m))
		}
		if v := value(&before, seat); v > bestValue {
			best, bestValue = c, v
		}
	}
	s.State = best
}

// cutNow reports whether a playout stops here: cut rounds after the root.
func (s *Position) cutNow() bool {
	return s.cut > 0 && s.Turn() >= s.root+s.cut*s.Players()
}

// cutScale is the evaluation, in points, that a cut playout's reward
// squashes to about 0.88 (tanh 1, scaled into [0, 1]).
const cutScale = 8

// Rewards gives each seat mostly its share of the victory, and a share
// (margin) for its margin of points over the best opponent, so that the
// search still prefers the bigger win or the smaller loss when the result
// looks settled. A playout cut before the end is rewarded by the engine's
// Evaluate instead: the points each seat would score under each energy,
// weighted by how likely it is to dominate.
func (s *Position) Rewards(r []float64) {
	if !s.Over() {
		for p := range r {
			r[p] = 0.5 + 0.5*math.Tanh(s.State.Evaluate(p)/cutScale)
		}
		return
	}
	st := s.Standing()
	st.Rewards(r)
	half, win := s.margin/2, 1-s.margin
	for p := range r {
		r[p] = win*r[p] + half + half*math.Tanh((float64(margin(&s.State, p))-s.base[p]+s.lift)/s.scale)
	}
}

// Evaluate rates the position for each seat, for the search's implicit
// minimax backups (its setting minimax): a finished game by its rewards,
// one under way as the heuristic judges its plans (value), with ready
// points for each site the seat could unravel without moving, squashed
// into [0, 1] as a cut playout's reward is.
func (s *Position) Evaluate(r []float64) {
	if s.Over() {
		s.Rewards(r)
		return
	}
	for p := range r {
		v := value(&s.State, p) + s.ready*float64(s.Ready(p))
		r[p] = 0.5 + 0.5*math.Tanh(v/cutScale)
	}
}

// Leads reports whether move m, played now, may be on the way to later.
func (s *Position) Leads(m game.Move, later game.State) bool {
	l, ok := later.(*Position)
	return ok && s.State.Leads(m, &l.State)
}

// Equal reports whether other is the same position.
func (s *Position) Equal(other game.State) bool {
	o, ok := other.(*Position)
	return ok && s.State.Equal(&o.State)
}
