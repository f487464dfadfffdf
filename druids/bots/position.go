package bots

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/lagoon-games/lagoon/ai"
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
	// stops cut rounds after it, and a hasty one plays hastily past it;
	// a finished game's victory is worth less the more turns it took
	// from there (haste).
	root int
	// noPass drops the way to stop from the choices at decision passPly
	// (the root's): a pass that would leave the turn with nothing to do
	// (CloseGames).
	noPass  bool
	passPly int
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
	// haste is how much of the victory's share a finished game's reward
	// loses for each turn it took from the root, at most half: a win
	// sooner is worth more than the same win later, so the search ahead
	// closes the game out.
	haste float64
	// steer plays the decisions that steer destiny in a playout (a drawn
	// tile's side, the site to unravel) by druids.State.Steer; gather
	// where a druid goes (a move's destination, a summon's site) by
	// druids.State.Gather; hasty the turns after the root's by
	// druids.State.Hasty (explore, and nothing else).
	steer, gather, hasty bool
	// unravels plays a seat's turns towards unravels (unravelPlan): it
	// refreshes a druid that can then unravel, unravels whenever it may,
	// steers the target and gathers where its druids go.
	unravels bool
}

var (
	_ game.State   = (*Position)(nil)
	_ mcts.Prior   = (*Position)(nil)
	_ mcts.Playout = (*Position)(nil)
	_ mcts.Guided  = (*Position)(nil)
	_ mcts.Rewards = (*Position)(nil)
	_ mcts.Reroot  = (*Position)(nil)
)

// DefaultHaste is the share of the victory's reward that a finished
// game loses for each turn it took from the search's root.
const DefaultHaste = 0.004

// maxHaste is the most of the victory's share that haste takes away: a
// win late is still worth more than any loss.
const maxHaste = 0.5

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
	return &Position{State: *s, policy: defaultPolicy, root: s.Turn()}, nil
}

// defaultPolicy is the policy of Search.
var defaultPolicy = policy{margin: DefaultMargin, scale: DefaultScale, haste: DefaultHaste}

// Search returns st as the search should play it: NewPosition as a
// game.State, for the game's Kit.
func Search(st game.State) (game.State, error) {
	p, err := NewPosition(st)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// SearchWith is Search with settings by name, each measured against AJ
// at the Legend level (docs/druids.md, Bots): "margin" (0 to 1), "haste"
// (0 to 1: the share of the victory's reward a game loses a turn), "scale"
// (the margin in points that the reward squashes to tanh 1), "lift" (points
// added to the margin before it is squashed), "uniform"
// (non-zero: uniformly random playouts), "cut" (a whole number of rounds,
// 0 for none: playouts stop that many rounds of turns after the root's
// and are judged by the engine's Evaluate), "ajplay" (0 to 1: the share of
// a playout's decisions made by AJ's rules as a seat), and, non-zero to
// turn them on, "steer", "gather" and "hasty" (playouts that play some
// decisions by the engine's Steer and Gather, or the turns after the
// root's by its Hasty).
func SearchWith(settings map[string]float64) (ai.Prepare, error) {
	pol := defaultPolicy
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
		case "haste":
			err = share(k, v, &pol.haste)
		case "scale":
			if v < 1 || v > 100 {
				err = fmt.Errorf("setting scale: %v is not a number of points from 1 to 100", v)
			}
			pol.scale = v
		case "lift":
			if v < -100 || v > 100 {
				err = fmt.Errorf("setting lift: %v is not a number of points from -100 to 100", v)
			}
			pol.lift = v
		case "cut":
			if v < 0 || v > 100 || v != math.Trunc(v) {
				err = fmt.Errorf("setting cut: %v is not a whole number of rounds from 0 to 100", v)
			}
			pol.cut = int(v)
		case "uniform":
			pol.uniform = v != 0
		case "steer":
			pol.steer = v != 0
		case "gather":
			pol.gather = v != 0
		case "hasty":
			pol.hasty = v != 0
		default:
			err = fmt.Errorf("unknown setting %q of Land of Druids' search (known: margin, haste, scale, lift, uniform, cut, ajplay, steer, gather, hasty)", k)
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
		return p, nil
	}, nil
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
	if s.policy == (policy{margin: s.margin, scale: s.scale, lift: s.lift, haste: s.haste, uniform: true}) {
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
	turn, n := s.Turn(), 0
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
	if s.unravels {
		if m, ok := unravelPlan(&s.State, legal, r); ok {
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

// cutNow reports whether a playout stops here: cut rounds after the root.
func (s *Position) cutNow() bool {
	return s.cut > 0 && s.Turn() >= s.root+s.cut*s.Players()
}

// cutScale is the evaluation, in points, that a cut playout's reward
// squashes to about 0.88 (tanh 1, scaled into [0, 1]).
const cutScale = 8

// Rewards gives each seat mostly its share of the victory, less haste for
// each turn the game took from the root, and a share
// (margin) for its margin of points over the best opponent (lifted by
// lift, squashed by tanh over scale points), so that the
// search still prefers the bigger win or the smaller loss when the result
// looks settled. A playout cut before the end is rewarded by the engine's
// Evaluate instead: the points each seat would score under each energy,
// weighted by how likely it is to dominate.
func (s *Position) Rewards(r []float64) {
	if !s.Over() {
		for p := range r {
			r[p] = 0.5 + 0.5*math.Tanh(s.Evaluate(p)/cutScale)
		}
		return
	}
	st := s.Standing()
	st.Rewards(r)
	half, win := s.margin/2, 1-s.margin
	win *= 1 - min(s.haste*float64(s.Turn()-s.root), maxHaste)
	for p := range r {
		r[p] = win*r[p] + half + half*math.Tanh((float64(margin(&s.State, p))+s.lift)/s.scale)
	}
}

// AppendLegal appends the legal moves, but the pass at the decision
// where it is not offered (noPass).
func (s *Position) AppendLegal(dst []game.Move) []game.Move {
	n := len(dst)
	dst = s.State.AppendLegal(dst)
	if !s.noPass || s.Ply() != s.passPly {
		return dst
	}
	pass, _ := druids.Stop(dst[n:])
	kept := slices.DeleteFunc(dst[n:], func(m game.Move) bool { return m == pass })
	return dst[:n+len(kept)]
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
