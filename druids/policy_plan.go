package druids

import (
	"math/rand/v2"

	"github.com/lagoon-games/lagoon/game"
)

// This file is a rule of thumb a playout may play a seat's turns by: a
// plan around one energy, its engine. Sites of the engine's energy give
// the energy that unravels the sites it threatens, its targets, at no
// cost in seeds; so the seat lays the engine's side of a drawn tile (and
// gains its seed), goes onto the engine's sites and onto targets, and
// unravels targets, the sites other seats stand on first.

// Plan returns, for a decision the plan around engine has a view on, the
// plan's choice and true; for any other decision false. Those decisions:
// the side of a drawn tile (the engine's), the move onto an explored site
// (onto the engine's sites and targets), where one of the seat's druids
// goes when it moves or is summoned (a target it can unravel there, else
// an engine's site it does not yet stand on, else a target), and the site
// to unravel (one another seat stands on, then a target). Ties are drawn
// from r. legal must be the state's legal moves.
func (s *State) Plan(engine Energy, legal []game.Move, r *rand.Rand) (game.Move, bool) {
	if s.depth == 0 || len(legal) < 2 {
		return 0, false
	}
	f := &s.stack[s.depth-1]
	p := s.ToMove()
	target := (engine + 1) % NumEnergies
	o := programs[f.prog][f.pc]
	var score func(m game.Move) int
	switch {
	case len(legal) == 2 && legal[0] == mSideA && legal[1] == mSideB && f.t >= 0:
		score = func(m game.Move) int {
			return b2i(Sites[siteOf(int(f.t), int(m-mSideA))].Energy == engine)
		}
	case f.prog == progExplore && o.code == oMoveIn:
		e := s.energyOf(int(f.t))
		if e != engine && e != target {
			return 0, false
		}
		return mYes, true
	case f.prog == progUnravel && o.code == oInvoke:
		score = func(m game.Move) int {
			t := druid(m & argMask).tile()
			return 2*b2i(s.othersOcc(p)>>t&1 != 0) + b2i(s.energyOf(t) == target)
		}
	case legal[0]&^argMask == vSite && (o.code == oMoveDruid && f.sub == 1 && f.d.seat() == p || o.code == oSummon && f.sub == 1):
		score = func(m game.Move) int {
			t := int(m & argMask)
			e := s.energyOf(t)
			switch {
			case e == target && s.unravelableAmong(1<<t) != 0 && s.siteEnergy(p, engine)+int(s.seeds[p][engine])+b2i(s.ancientAvailable(p, e)) >= 3:
				return 3
			case e == engine && !s.occupies(p, t):
				return 2
			case e == target:
				return 1
			}
			return 0
		}
	default:
		return 0, false
	}
	return Best(legal, r, score), true
}

// Ready counts the sites seat p stands on that it could unravel with the
// energy it has now (its sites' and its seeds'), were a refreshed druid of
// its there: the unravels its next turn may make without moving a druid.
func (s *State) Ready(p int) int {
	n := 0
	eachTile(s.unravelableAmong(s.occupied(p)), func(t int) {
		e := s.energyOf(t)
		th := e.Threat()
		if s.siteEnergy(p, th)+int(s.seeds[p][th])+b2i(s.ancientAvailable(p, e)) >= 3 {
			n++
		}
	})
	return n
}
