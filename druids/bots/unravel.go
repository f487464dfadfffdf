package bots

import (
	"math/rand/v2"

	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// unravelRank is the prior's rank of the unravel in the action menu
// (druids.State.PriorRank).
const unravelRank = 4

// unravelPlan returns a playout's choice that works towards an unravel, and
// true; false where it has none and the prior should draw. A seat unravels
// whenever it is offered; at the Refresh step it refreshes a druid after
// which the unravel is offered (a druid that moved onto a target last turn
// is exhausted, and the Refresh step comes before the actions); it steers
// the target (druids.State.Steer) and sends its druids where they gather
// energy for an unravel (druids.State.Gather). The prior's playout, which
// refreshes and moves at random, rarely has a druid ready on a target with
// the threatening energy, so it undervalues the turns that prepare one
// (docs/druids.md, "Against AJ in the solo game: what was tried").
func unravelPlan(s *druids.State, legal []game.Move, r *rand.Rand) (game.Move, bool) {
	if len(legal) < 2 {
		return 0, false
	}
	if m, ok := ranked(s, legal, unravelRank); ok {
		return m, true
	}
	if m, ok := s.Steer(legal, r); ok {
		return m, true
	}
	if m, ok := s.Gather(legal, r); ok {
		return m, true
	}
	return refreshToUnravel(s, legal)
}

// refreshToUnravel returns, at a choice of druids to refresh (druids of the
// prior's rank 1, done last), the first druid after whose refresh the seat
// is offered the unravel in this turn, and true; false if none would be,
// the pass already leads to it, or this is no such choice. It looks no
// further than the turn: the engine answers (druids.State.RefreshUnravels)
// without playing the choice out, where an answer that lies past AJ's turn
// would take a copy playing his whole turn, and AJ, who unravels first the
// sites the seat stands on, may well take the target in between.
func refreshToUnravel(s *druids.State, legal []game.Move) (game.Move, bool) {
	done := legal[len(legal)-1]
	if stop, ok := druids.Stop(legal); !ok || stop != done || !druids.IsDone(done) {
		return 0, false
	}
	for _, m := range legal[:len(legal)-1] {
		if s.PriorRank(m) != 1 {
			return 0, false
		}
	}
	for _, m := range legal[:len(legal)-1] {
		if unravelsNow(s, m) {
			// The pass is asked only now: this runs at every Refresh
			// step of every playout.
			if unravelsNow(s, done) {
				return 0, false
			}
			return m, true
		}
	}
	return 0, false
}

// unravelsNow reports whether choosing m at the Refresh step brings the
// seat to the unravel in this turn.
func unravelsNow(s *druids.State, m game.Move) bool {
	offered, ok := s.RefreshUnravels(m)
	return ok && offered
}
