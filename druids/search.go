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
	for s.step != stepOver {
		legal := s.AppendLegal(buf[:0])
		s.apply(legal[r.IntN(len(legal))])
	}
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
