package druids

import (
	"math/bits"
	"math/rand/v2"

	"github.com/lagoon-games/lagoon/game"
)

// This file is AJ as a seat of an ordinary game: a bot that plays the
// contract's decisions by the priorities of the solo rules, so that a
// person can meet AJ's way of playing at any two-player table (and a bot
// can be measured against it) without the solo game's three Eldrids and
// token bag. The seat has a circle like any other; AJ's rules choose
// within the turn the contract offers:
//
//   - Refresh as many druids as the step allows, the Eldrid first.
//   - Explore first, as AJ does each turn: the druid on the origin AJ
//     would choose (a site with an open space and the most neighbours; at
//     the Acolyte level and above the one closest to a locked site), the
//     space AJ would choose (next to two sites if it can, then as far as
//     can be from the other seats' druids; at the Acolyte level and above
//     one that unlocks a locked site near the origin first), the side AJ
//     would lay, and the druid moves onto the new site.
//   - Then unravel whenever it can: the site needing the fewest seeds,
//     then one another seat occupies, then one that is not a trove, within
//     the end-game rules of the Adept and Eldrid levels; the Ancient's
//     energy when it is offered; druids to the closest haven.
//   - Summon while it has fewer than three druids on the board (AJ's three
//     Eldrids), the Eldrid first; never a site's action, a basic move or a
//     "may" of a site (AJ uses none).
//
// The Legend level's second explore needs the player marker, which one
// explore exhausts, so the seat plays Legend as Eldrid; the tokens have no
// counterpart in a seat's turn. AJ's arbitrary choices are drawn from the
// bot's own generator, never the state's (which holds the bag's order).

// AJSeatMove returns the choice AJ's rules at level (AJInitiate to
// AJLegend) make for the seat to decide, drawing ties from r. It reads
// nothing a seat cannot see and does not change s.
func (s *State) AJSeatMove(level int, r *rand.Rand) game.Move {
	var buf [256]game.Move
	legal := s.AppendLegal(buf[:0])
	if len(legal) == 1 {
		return legal[0]
	}
	c := *s // the rules below fill the world's caches
	return Best(legal, r, func(m game.Move) int { return c.ajSeatScore(level, m) })
}

// ajSeatScore rates choice m of the seat to decide by AJ's priorities at
// level: the highest is chosen.
func (s *State) ajSeatScore(level int, m game.Move) int {
	p := s.ToMove()
	if s.depth == 0 {
		switch s.step {
		case stepRefresh:
			if m == mDone {
				return 0
			}
			return 1 + b2i(druid(m&argMask).eldrid())
		case stepAction:
			return s.ajSeatMenu(level, p, m)
		}
		return b2i(m == mDone) // the timely sites: AJ uses none
	}
	f := &s.stack[s.depth-1]
	o := programs[f.prog][f.pc]
	switch {
	case f.prog == progExplore && o.code == oInvoke:
		return s.ajSeatOrigin(level, druid(m&argMask))
	case f.prog == progExplore && o.code == oExplore && f.sub == 1:
		return s.ajSeatSide(level, p, int(f.t), b2i(m == mSideB))
	case f.prog == progExplore && o.code == oExplore && f.sub == 2:
		return s.ajSeatSpace(level, p, int(f.inv.tile()), int(m&argMask))
	case f.prog == progExplore && o.code == oMoveIn:
		return b2i(m == mYes)
	case f.prog == progUnravel && o.code == oInvoke:
		return s.ajSeatTarget(level, p, druid(m&argMask).tile())
	case o.code == oUnravel:
		// The Ancient's energy when offered; each druid to the closest
		// haven; the invoker kept on the board when a haven may take it.
		if m == mYes || m == mNo {
			return b2i(m == mYes)
		}
		return 100 - hexDistance(int(s.cell[f.unravelTarget()]), int(s.cell[m&argMask]))
	case f.prog == progSummon && o.code == oSummon && f.sub == 0:
		return b2i(m == mEldrid || m&^argMask == vDruid && druid(m&argMask).eldrid())
	case f.prog == progSummon && o.code == oSummon:
		return s.distanceTo(int(s.cell[m&argMask]), s.othersOcc(p))
	case o.code == oRefresh:
		// A refresh never harms: AJ's own Awakening Portal rule.
		if m == mDone {
			return 0
		}
		return 1 + b2i(druid(m&argMask).eldrid())
	}
	return b2i(m == mNo || m == mDone) // a site's "may": AJ declines
}

// ajSeatMenu rates the actions of the menu: explore, then unravel, then
// summon up to three druids on the board, then end.
func (s *State) ajSeatMenu(level, p int, m game.Move) int {
	switch m {
	case mExplore:
		return 4
	case mUnravel:
		ok := false
		eachTile(s.invokerMask(p, invokeUnravel, s.fresh[p]), func(t int) { ok = ok || s.ajSeatTarget(level, p, t) > -1000 })
		if ok {
			return 3
		}
		return -1
	case mSummon:
		if s.druidsOnBoard(p) < 3 {
			return 2
		}
		return -1
	case mEnd:
		return 0
	}
	return -1
}

// druidsOnBoard counts seat p's druids in play.
func (s *State) druidsOnBoard(p int) int {
	n := b2i(s.eld[p] >= 0)
	for t := range NumTiles {
		n += int(s.acoR[p][t]) + int(s.acoE[p][t])
	}
	return n
}

// othersOcc returns the tiles where the seats against seat p stand.
func (s *State) othersOcc(p int) uint32 {
	var m uint32
	for q := range int(s.players) {
		if !s.sameUnit(p, q) {
			m |= s.occ[q]
		}
	}
	return m
}

// ajSeatOrigin rates exploring from druid d's site: an open space next to
// it, the most neighbouring sites, closest to a locked site at the Acolyte
// level and above; the Eldrid before an acolyte.
func (s *State) ajSeatOrigin(level int, d druid) int {
	t := d.tile()
	score := 2*bits.OnesCount32(s.adj[t]) + b2i(d.eldrid())
	s.world()
	if level >= AJAcolyte && s.locked != 0 {
		score -= 100 * s.distanceTo(int(s.cell[t]), s.locked)
	}
	return score
}

// ajSeatSpace rates placing the explored site at cell c next to origin:
// unlocking a locked site near the origin (Acolyte and above), next to two
// sites or more, then as far as can be from the other seats' druids.
func (s *State) ajSeatSpace(level, p, origin, c int) int {
	score := 0
	if level >= AJAcolyte {
		var set, all cellSet
		s.emptyAround(origin, &all)
		set = all
		s.ajKeepUnlocking(origin, &set)
		if set != all && set.has(c) {
			score += 1000
		}
	}
	if s.sitesAround(c, -1) >= 2 {
		score += 100
	}
	return score + s.distanceTo(c, s.othersOcc(p))
}

// ajSeatSide rates laying tile t with side up, as ajSide chooses for AJ:
// the higher levels' end-game rules first, then not the energy that would
// give the best other seat the most points when it has two sites scored.
func (s *State) ajSeatSide(level, p, t, side int) int {
	score := 0
	if s.ajSeatAllowsSide(level, p, t, side) {
		score += 10
	}
	q, most := -1, -1
	for o := range int(s.players) {
		if n := bits.OnesCount32(s.scoreArea(o)); !s.sameUnit(p, o) && n > most {
			q, most = o, n
		}
	}
	if most >= 2 {
		var pts [NumEnergies]int
		for e := range NumEnergies {
			pts[e] = s.Points(q, e)
		}
		if pts[Sites[siteOf(t, side)].Energy] != max(pts[0], pts[1], pts[2]) {
			score++
		}
	}
	return score
}

// ajSeatAllowsSide is ajAllowsSide for seat p at level.
func (s *State) ajSeatAllowsSide(level, p, t, side int) bool {
	n := s.bagSize()
	e, other := Sites[siteOf(t, side)].Energy, Sites[siteOf(t, 1-side)].Energy
	if level >= AJAdept && n <= 3 {
		if fav := s.favourite(p); other == fav && e != fav {
			return false
		}
	}
	if level >= AJEldrid && n <= 5 {
		score := func(e Energy) int {
			after := *s
			after.energyMask[e] |= 1 << t
			after.seeds[p][e]++
			return after.scoreNow(p)
		}
		if score(e) < score(other) {
			return false
		}
	}
	return true
}

// ajSeatTarget rates unravelling tile t for seat p: below -1000 when the
// level's end-game rules forbid it, else the fewest seeds, then a site
// another seat occupies, then one that is not a trove.
func (s *State) ajSeatTarget(level, p, t int) int {
	e := s.energyOf(t)
	th := e.Threat()
	seeds := max(0, 3-s.siteEnergy(p, th)-b2i(s.ancientAvailable(p, e)))
	n := s.bagSize()
	if level >= AJAdept && n <= 3 && e == s.favourite(p) {
		return -2000
	}
	if level >= AJEldrid && n <= 5 {
		after := *s
		after.seeds[p][th] -= uint8(min(seeds, int(after.seeds[p][th])))
		after.lift(t)
		after.loc[t] = uint8(locScore + p)
		if after.scoreNow(p) < s.scoreNow(p) {
			return -2000
		}
	}
	score := -10 * seeds
	if s.othersOcc(p)>>t&1 != 0 {
		score += 2
	}
	if Sites[s.siteIn(t)].Type != Trove {
		score++
	}
	return score
}

// favourite returns the energy whose dominance would give seat p the most
// points now (the first of a tie).
func (s *State) favourite(p int) Energy {
	pts := s.pointsEach(p)
	best := Elemeen
	for e := range NumEnergies {
		if pts[e] > pts[best] {
			best = e
		}
	}
	return best
}

// scoreNow is seat p's score if the game ended now.
func (s *State) scoreNow(p int) int {
	d := s.Destiny()
	if d.Draw {
		return 0
	}
	return s.Points(p, d.Energy)
}
