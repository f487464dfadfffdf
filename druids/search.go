package druids

import (
	"math/rand/v2"

	"github.com/lagoon-games/lagoon/game"
)

// This file is the knowledge a search may ask of a state (the small
// interfaces of ai/mcts): a playout that skips the legality checks, and a
// prior by rule of thumb.

// Playout plays the game to its end by uniformly random choices from r,
// as a search's default playout would, but without checking each move (the
// moves are the state's own) and without allocating. The tiles drawn come
// from the state's generator, which a search resamples first.
func (s *State) Playout(r *rand.Rand) {
	var buf [256]game.Move
	turn, n := s.turns, 0
	for s.step != stepOver {
		if s.turns != turn {
			turn, n = s.turns, 0
		}
		n++
		legal := s.AppendLegal(buf[:0])
		s.apply(CapTurn(n, legal, legal[r.IntN(len(legal))]))
	}
}

// TurnCap is how many decisions a turn drawn at random (a playout, a
// sampled turn) may take before it takes every way to stop that is offered:
// some sites' actions can be repeated in a cycle within a turn, and a
// drawn turn must end. Turns of random play take far fewer.
const TurnCap = 200

// CapTurn returns m, the choice drawn for the n-th decision of a turn, or,
// past TurnCap decisions, the first of legal that stops: the end of the
// Action step, done, or no. The menu always offers the end, and a site's
// action runs through its few steps, so a turn so capped ends.
func CapTurn(n int, legal []game.Move, m game.Move) game.Move {
	if n <= TurnCap {
		return m
	}
	for _, l := range legal {
		if l == mEnd || l == mDone || l == mNo {
			return l
		}
	}
	return m
}

// Prior says how promising a choice looks, by rule of thumb: unravelling
// first (sites in the score area are the surest points), then exploring
// (seeds, and the world's balance), then a site's action; stopping last.
func (s *State) Prior(m game.Move) float64 {
	switch {
	case m == mUnravel:
		return 3
	case m == mExplore:
		return 2
	case m&^argMask == vUse:
		return 1
	case m == mYes:
		return 0.5
	case m == mEnd || m == mDone || m == mNo:
		return -1
	}
	return 0
}

// Ply returns the number of decisions made since the game began.
func (s *State) Ply() int { return int(s.ply) }

// Leads reports whether move m, played now, may be on the way to later: a
// later decision of the same game. It is a cheap necessary condition; the
// search checks the positions it reaches with Equal.
func (s *State) Leads(_ game.Move, later game.State) bool {
	l, ok := later.(*State)
	return ok && l.ply > s.ply && l.turns >= s.turns && l.set == s.set
}

// Equal reports whether other is the same position: the same state, the
// caches aside.
func (s *State) Equal(other game.State) bool {
	o, ok := other.(*State)
	if !ok {
		return false
	}
	a, b := *s, *o
	a.worldOK, b.worldOK = false, false
	a.locked, b.locked = 0, 0
	a.ajEvents, b.ajEvents = 0, 0
	a.ajEvent, b.ajEvent = [24]ajEvent{}, [24]ajEvent{}
	return a == b
}
