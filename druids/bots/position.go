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
	// margin is the share of a seat's reward that is its margin of points
	// (squashed into [0, 1]) rather than its share of the victory.
	margin float64
	// uniform plays the playouts uniformly at random (the engine's own
	// Playout) rather than led by the prior.
	uniform bool
}

var (
	_ game.State   = (*Position)(nil)
	_ mcts.Prior   = (*Position)(nil)
	_ mcts.Playout = (*Position)(nil)
	_ mcts.Rewards = (*Position)(nil)
	_ mcts.Reroot  = (*Position)(nil)
)

// DefaultMargin is the share of the reward that is the margin.
const DefaultMargin = 0.2

// NewPosition returns the search's position for a state of Lagoon: Land of
// Druids, a copy: st is not changed.
func NewPosition(st game.State) (*Position, error) {
	s, err := stateOf(st)
	if err != nil {
		return nil, err
	}
	return &Position{State: *s, margin: DefaultMargin}, nil
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

// SearchWith is Search with settings by name: "margin" (0 to 1), and
// "uniform" (non-zero: uniformly random playouts).
func SearchWith(settings map[string]float64) (func(game.State) (game.State, error), error) {
	margin, uniform := DefaultMargin, false
	for k, v := range settings {
		switch k {
		case "margin":
			if v < 0 || v > 1 {
				return nil, fmt.Errorf("setting margin: %v is not between 0 and 1", v)
			}
			margin = v
		case "uniform":
			uniform = v != 0
		default:
			return nil, fmt.Errorf("unknown setting %q of Land of Druids' search (known: margin, uniform)", k)
		}
	}
	return func(st game.State) (game.State, error) {
		p, err := NewPosition(st)
		if err != nil {
			return nil, err
		}
		p.margin, p.uniform = margin, uniform
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

// Playout plays the game to its end, each choice drawn with a chance that
// grows with its prior.
func (s *Position) Playout(r *rand.Rand) {
	if s.uniform {
		s.State.Playout(r)
		return
	}
	var buf [256]game.Move
	turn, n := s.Turn(), 0
	for !s.Over() {
		if s.Turn() != turn {
			turn, n = s.Turn(), 0
		}
		n++
		legal := s.AppendLegal(buf[:0])
		s.PlayLegal(druids.CapTurn(n, legal, pick(&s.State, legal, r)))
	}
}

// Rewards gives each seat mostly its share of the victory, and a share
// (margin) for its margin of points over the best opponent, so that the
// search still prefers the bigger win or the smaller loss when the result
// looks settled.
func (s *Position) Rewards(r []float64) {
	st := s.Standing()
	st.Rewards(r)
	half, win := s.margin/2, 1-s.margin
	for p := range r {
		r[p] = win*r[p] + half + half*math.Tanh(float64(margin(&s.State, p))/8)
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
