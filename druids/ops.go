package druids

import (
	"math/bits"

	"github.com/lagoon-games/lagoon/game"
)

// This file resolves the programs' steps: opAuto runs a step (or a stage
// of one) that needs no decision, opLegal lists the choices of one that
// does, opPlay plays a choice.

// next ends the frame's current step.
func (f *frame) next() {
	f.pc++
	f.sub = 0
}

// eldridProg reports whether the program is a site's Eldrid invoke.
func eldridProg(prog int) bool { return eldridSites>>prog&1 != 0 }

// opAuto runs what needs no decision and reports whether it did.
func (s *State) opAuto(f *frame, o op) bool {
	p := int(f.seat)
	switch o.code {
	case oMarkerOff:
		s.marker[p] = true
		f.next()
		return true
	case oMarkerOn:
		s.marker[p] = false
		f.next()
		return true
	case oMay:
		if !s.stepPossible(f, int(f.pc)+1) {
			f.pc = uint8(len(programs[f.prog]))
			return true
		}
	case oExile:
		if o.a == xInvoker {
			if f.inv != noDruid && s.count(f.inv) > 0 {
				s.exile(f.inv)
			}
			f.inv = noDruid
			f.next()
			return true
		}
	case oRefresh:
		if f.sub == 0 {
			if o.a > 0 {
				f.n = o.a
			}
			f.sub = 1
			if f.n <= 0 {
				f.next()
			}
			return true
		}
	case oMoveDruid:
		if f.sub == 0 && (o.a == wInvoker || o.a == wChosen || o.a == wOwnEldrid) {
			switch {
			case o.a == wInvoker:
				f.d = f.inv
			case o.a == wOwnEldrid && s.eld[p] >= 0:
				f.d = mkDruid(p, true, s.eldEx[p], int(s.eld[p]))
			case o.a == wOwnEldrid:
				f.d = noDruid
			}
			if f.d == noDruid || s.count(f.d) == 0 {
				f.next()
			} else {
				f.sub = 1
			}
			return true
		}
	case oMoveSite:
		if f.sub == 0 && (o.a == sInvSite || o.a == sChosenSite) {
			d := f.inv
			if o.a == sChosenSite {
				d = f.d
			}
			if d == noDruid || s.count(d) == 0 || s.isLocked(d.tile()) {
				f.next()
				return true
			}
			f.t, f.sub = int8(d.tile()), 1
			return true
		}
	case oSwap:
		if f.sub == 0 && o.a == aInvSite {
			if f.inv == noDruid || s.count(f.inv) == 0 {
				f.next()
				return true
			}
			f.t, f.sub = int8(f.inv.tile()), 1
			return true
		}
	case oSummon:
		if f.sub == 0 {
			hasE, hasA := s.eld[p] < 0, s.acoSup[p] > 0
			switch {
			case hasE && hasA:
				return false
			case hasE:
				f.n, f.sub = 1, 1
			case hasA:
				f.n, f.sub = 2, 1
			case s.occupiesSite(p, siteCirqus) && s.occ[p] != 0:
				return false
			default:
				f.next()
			}
			return true
		}
	case oExplore:
		if f.sub == 2 && o.a == xAdjacent && (f.inv == noDruid || s.count(f.inv) == 0 || !s.hasEmptyAround(f.inv.tile())) {
			// Nowhere to put it: the tile goes back to the bag.
			s.loc[f.t] = locBag
			s.bag |= 1 << f.t
			f.t = -1
			f.next()
			return true
		}
		if f.sub == 0 {
			if f.t < 0 || s.loc[f.t] != locHand {
				if s.bag == 0 {
					f.next()
					return true
				}
				f.t = int8(s.draw())
			}
			f.sub = 1
			return true
		}
	case oMoveIn:
		if f.t < 0 || s.loc[f.t] != locPlay || f.inv == noDruid || s.count(f.inv) == 0 {
			f.next()
			return true
		}
	case oExplAction:
		f.next()
		if f.t >= 0 && s.loc[f.t] == locPlay {
			site := s.siteIn(int(f.t))
			if Sites[site].Kind == KindExploration && len(programs[site]) > 0 {
				g := s.push(site, p)
				g.t = f.t
			}
		}
		return true
	case oUnravel:
		return s.unravelAuto(f, o)
	case oFork:
		if f.sub == 0 {
			if bits.OnesCount32(s.bag) < 2 {
				f.next()
				return true
			}
			f.t = int8(s.draw())
			f.t2 = int8(s.draw())
			f.sub = 1
			return true
		}
	}
	return false
}

// stepPossible reports whether step i of the frame's program would offer
// a choice now (for a "may": yes only when the cost can be paid).
func (s *State) stepPossible(f *frame, i int) bool {
	prog := programs[f.prog]
	if i >= len(prog) {
		return false
	}
	g := *f
	g.pc, g.sub = uint8(i), 0
	var buf [64]game.Move
	return len(s.opLegal(&g, prog[i], buf[:0])) > 0
}

// opLegal appends the choices of the frame's step.
func (s *State) opLegal(f *frame, o op, dst []game.Move) []game.Move {
	p := int(f.seat)
	switch o.code {
	case oInvoke:
		eldrid := eldridProg(int(f.prog))
		for m := s.invokerMask(p, int(o.a), s.fresh[p]); m != 0; m &= m - 1 {
			t := bits.TrailingZeros32(m)
			if int(s.eld[p]) == t && !s.eldEx[p] {
				dst = append(dst, vDruid|game.Move(mkDruid(p, true, false, t)))
			}
			if !eldrid && s.acoR[p][t] > 0 {
				dst = append(dst, vDruid|game.Move(mkDruid(p, false, false, t)))
			}
		}
	case oMay, oMoveIn:
		dst = append(dst, mYes, mNo)
	case oExhaust:
		s.eachDruidOf(p, func(d druid) {
			if d.exhausted() || o.a == eEldrid && !d.eldrid() || o.a == eOnUnlocked && s.isLocked(d.tile()) {
				return
			}
			dst = append(dst, vDruid|game.Move(d))
		})
	case oExile:
		s.eachDruidOf(p, func(d druid) {
			if o.a != xOwnRefreshed || !d.exhausted() {
				dst = append(dst, vDruid|game.Move(d))
			}
		})
	case oDiscard:
		for e := range NumEnergies {
			if o.a>>e&1 != 0 && s.seeds[p][e] > 0 {
				dst = append(dst, vSeed|game.Move(e))
			}
		}
	case oRefresh:
		for q := range s.circles() {
			if o.b&rOwn != 0 && q != p {
				continue
			}
			dst = s.appendExhausted(dst, q, f.inv)
		}
		if len(dst) > 0 && o.b&rUpTo != 0 {
			dst = append(dst, mDone)
		}
	case oMoveDruid:
		if f.sub == 0 {
			s.eachMover(f, o, func(d druid) { dst = append(dst, vDruid|game.Move(d)) })
		} else {
			dst = appendTiles(dst, s.destinations(f, o, f.d.tile()))
		}
	case oMoveSite:
		if f.sub == 0 {
			dst = appendTiles(dst, s.movableSites(f, o))
		} else {
			set := s.spaces(int(f.t))
			set.each(func(c int) { dst = append(dst, vSpace|game.Move(c)) })
		}
	case oSwap:
		if f.sub == 0 {
			var m uint32
			eachTile(s.swapFirsts(p, o), func(t int) {
				if s.swapSeconds(t, o) != 0 {
					m |= 1 << t
				}
			})
			dst = appendTiles(dst, m)
		} else {
			dst = appendTiles(dst, s.swapSeconds(int(f.t), o))
		}
	case oSwapDruids:
		energy := s.ofEnergy(Energy(f.seed))
		if f.sub == 0 {
			if bits.OnesCount32(energy&s.occupiedByAny()) >= 2 {
				s.eachDruidOn(energy, func(d druid) { dst = append(dst, vDruid|game.Move(d)) })
			}
		} else {
			s.eachDruidOn(energy&^(1<<f.d.tile()), func(d druid) { dst = append(dst, vDruid|game.Move(d)) })
		}
	case oSummon:
		switch f.sub {
		case 0:
			if s.eld[p] < 0 {
				dst = append(dst, mEldrid, mAcolyte)
			} else {
				s.eachDruidOf(p, func(d druid) { dst = append(dst, vDruid|game.Move(d)) })
			}
		case 1:
			dst = appendTiles(dst, s.summonSites(f, o))
		}
	case oExplore:
		switch f.sub {
		case 1:
			dst = append(dst, mSideA, mSideB)
		case 2:
			if o.a == xAnySpace {
				set := s.spaces(-1)
				set.each(func(c int) { dst = append(dst, vSpace|game.Move(c)) })
			} else {
				dst = s.appendSpacesAround(dst, f.inv.tile())
			}
		}
	case oUnravel:
		return s.unravelLegal(f, dst)
	case oReturn:
		if f.sub == 0 {
			if f.invTile >= 0 && s.loc[f.invTile] == locPlay && s.hasEmptyAround(int(f.invTile)) {
				dst = appendTiles(dst, s.scoreArea(p))
			}
		} else {
			dst = s.appendSpacesAround(dst, int(f.invTile))
		}
	case oFork:
		dst = append(dst, vSite|game.Move(min(f.t, f.t2)), vSite|game.Move(max(f.t, f.t2)))
	case oChaos:
		dst = appendTiles(dst, s.chaosTargets())
	case oSongSeeds:
		if f.n < 2 {
			for e := range NumEnergies {
				if s.seeds[p][e] > 0 {
					dst = append(dst, vSeed|game.Move(e))
				}
			}
		}
		if f.n > 0 {
			dst = append(dst, mDone)
		}
	case oMoonGate, oLost:
		dst = appendTiles(dst, s.havens())
	}
	return dst
}

func appendTiles(dst []game.Move, m uint32) []game.Move {
	eachTile(m, func(t int) { dst = append(dst, vSite|game.Move(t)) })
	return dst
}

// eachDruidOn calls f with every kind of druid, of any circle, on the tiles
// of m.
func (s *State) eachDruidOn(m uint32, f func(d druid)) {
	s.eachDruid(func(d druid) {
		if m>>d.tile()&1 != 0 {
			f(d)
		}
	})
}

// eachMover calls fn with the druids that may move under the step, and
// have somewhere to go.
func (s *State) eachMover(f *frame, o op, fn func(d druid)) {
	p := int(f.seat)
	consider := func(d druid) {
		if s.canLeave(f, o, d.tile()) {
			fn(d)
		}
	}
	switch o.a {
	case wOwn:
		s.eachDruidOf(p, consider)
	case wOwnExhausted:
		// An invoked action that moves an exhausted druid may not move
		// the druid that invoked it.
		s.eachDruidOf(p, func(d druid) {
			if d.exhausted() && (d != f.inv || s.count(d) > 1) {
				consider(d)
			}
		})
	case wOwnEldrid:
		if s.eld[p] >= 0 {
			consider(mkDruid(p, true, s.eldEx[p], int(s.eld[p])))
		}
	case wAnyOnSeed:
		if f.seed >= 0 {
			s.eachDruidOn(s.ofEnergy(Energy(f.seed)), consider)
		}
	}
}

// canLeave reports whether a druid on tile t has somewhere to go under
// the step: destinations(f, o, t) != 0, without the search of a move of
// two or three steps, which has somewhere to go when t has a neighbour.
func (s *State) canLeave(f *frame, o op, t int) bool {
	if o.b == dUpTo2 || o.b == dUpTo3 {
		return s.adj[t] != 0
	}
	return s.destinations(f, o, t) != 0
}

// destinations returns the tiles a druid on tile t may move to under the
// step.
func (s *State) destinations(f *frame, o op, t int) uint32 {
	var m uint32
	switch o.b {
	case dAdj:
		m = s.adjacent(t)
	case dUpTo2:
		m = s.within(t, 2)
	case dUpTo3:
		m = s.within(t, 3)
	case dOccupied:
		m = s.occupiedByAny()
	case dAnySite:
		m = s.inPlay
	case dHavenOrOwn:
		m = s.havens() | s.occupied(int(f.seat))
	case dSeedSite:
		if f.seed >= 0 {
			m = s.ofEnergy(Energy(f.seed))
		}
	}
	return m &^ (1 << t)
}

// movableSites returns the sites the step may move to another space.
func (s *State) movableSites(f *frame, o op) uint32 {
	if s.inPlay&(s.inPlay-1) == 0 {
		return 0
	}
	var m uint32
	switch o.a {
	case sAnyUnlocked:
		m = s.inPlay
	case sOwnUnlocked:
		m = s.occupied(int(f.seat))
	case sSeedUnlocked:
		if f.seed >= 0 {
			m = s.ofEnergy(Energy(f.seed))
		}
	}
	return s.unlockedAmong(m)
}

// swapFirsts returns the sites that may be the first of a swap.
func (s *State) swapFirsts(p int, o op) uint32 {
	if o.a == aOwn {
		return s.occupied(p)
	}
	return s.inPlay
}

// swapSeconds returns the sites that may trade places with tile t.
func (s *State) swapSeconds(t int, o op) uint32 {
	var m uint32
	switch o.b {
	case bOccupied:
		m = s.occupiedByAny()
	case bHavenOrEmpty:
		m = s.havens() | s.inPlay&^s.occupiedByAny()
	case bAnyOther:
		m = s.inPlay
	case bAdjacent:
		m = s.adjacent(t)
	}
	return m &^ (1 << t)
}

// summonSites returns where the step may summon to.
func (s *State) summonSites(f *frame, o op) uint32 {
	switch o.a {
	case uHaven:
		return s.havens()
	case uAnySite:
		return s.inPlay
	case uOwnSite:
		return s.occupied(int(f.seat))
	case uSeedSite:
		if f.seed >= 0 {
			return s.ofEnergy(Energy(f.seed))
		}
	}
	return 0
}

// chaosTargets returns the sites Chaos Manifold may put back in the bag.
func (s *State) chaosTargets() uint32 {
	m := s.inPlay &^ s.occupiedByAny()
	if h := s.havens(); bits.OnesCount32(h) == 1 {
		m &^= h
	}
	return s.unlockedAmong(m)
}

// opPlay plays a legal choice of the frame's step.
func (s *State) opPlay(f *frame, o op, m game.Move) {
	p := int(f.seat)
	arg := int(m & argMask)
	switch o.code {
	case oInvoke:
		d := druid(arg)
		f.invTile = int8(d.tile())
		f.inv = s.setExhausted(d, true)
		f.next()
	case oMay:
		if m == mNo {
			f.pc = uint8(len(programs[f.prog]))
		} else {
			f.next()
		}
	case oMoveIn:
		if m == mYes && f.inv != noDruid && s.count(f.inv) > 0 {
			f.inv = s.relocate(f.inv, int(f.t))
		}
		f.next()
	case oExhaust:
		f.d = s.setExhausted(druid(arg), true)
		f.next()
	case oExile:
		d := druid(arg)
		s.exile(d)
		if d == f.inv && s.count(d) == 0 {
			f.inv = noDruid
		}
		f.next()
	case oDiscard:
		s.seeds[p][arg]--
		f.seed = int8(arg)
		f.next()
	case oRefresh:
		if m == mDone {
			f.next()
			return
		}
		s.setExhausted(druid(arg), false)
		f.n--
		if f.n <= 0 {
			f.next()
		}
	case oMoveDruid:
		if f.sub == 0 {
			f.d, f.sub = druid(arg), 1
			return
		}
		moved := s.relocate(f.d, arg)
		if f.d == f.inv {
			f.inv = moved
		}
		f.d = moved
		f.next()
	case oMoveSite, oSwap:
		// First the site, then where it goes: a space, or the site it
		// trades places with.
		if f.sub == 0 {
			f.t, f.sub = int8(arg), 1
			return
		}
		if o.code == oMoveSite {
			s.moveSite(int(f.t), arg)
		} else {
			s.swapSites(int(f.t), arg)
		}
		f.next()
	case oSwapDruids:
		if f.sub == 0 {
			f.d, f.sub = druid(arg), 1
			return
		}
		a, b := f.d, druid(arg)
		s.take(a)
		s.take(b)
		s.put(a.at(b.tile()))
		s.put(b.at(a.tile()))
		f.next()
	case oSummon:
		if f.sub == 0 {
			switch m {
			case mEldrid:
				f.n = 1
			case mAcolyte:
				f.n = 2
			default:
				d := druid(arg)
				s.take(d)
				f.n = 3
				if d.eldrid() {
					f.n = 1
				} else {
					s.acoSup[p]++
				}
			}
			f.sub = 1
			return
		}
		if f.n == 1 {
			s.put(mkDruid(p, true, true, arg))
		} else {
			s.acoSup[p]--
			s.put(mkDruid(p, false, true, arg))
		}
		f.next()
	case oExplore:
		if f.sub == 1 {
			f.n = 0
			if m == mSideB {
				f.n = 1
			}
			f.sub = 2
			return
		}
		t := int(f.t)
		s.place(t, int(f.n), arg)
		s.seeds[p][s.energyOf(t)]++
		s.ajHavenArrives(t)
		f.next()
	case oUnravel:
		s.unravelPlay(f, m)
	case oReturn:
		if f.sub == 0 {
			f.t, f.sub = int8(arg), 1
			return
		}
		s.place(int(f.t), int(s.side[f.t]), arg)
		f.next()
	case oFork:
		keep, back := f.t, f.t2
		if int(keep) != arg {
			keep, back = back, keep
		}
		s.loc[back] = locBag
		s.bag |= 1 << back
		f.t, f.t2 = keep, -1
		f.next()
	case oChaos:
		s.lift(arg)
		s.loc[arg] = locBag
		s.bag |= 1 << arg
		f.t = -1
		f.next()
	case oSongSeeds:
		if m == mDone {
			f.next()
			return
		}
		s.seeds[p][arg]--
		f.n++
		if f.n == 2 {
			f.next()
		}
	case oMoonGate:
		s.put(mkDruid(p, true, false, arg))
		f.next()
	case oLost:
		if s.eld[p] < 0 {
			s.put(mkDruid(p, true, true, arg))
		} else {
			s.acoSup[p]--
			s.put(mkDruid(p, false, true, arg))
		}
		f.next()
	}
}

// The stages of an unravel.
const (
	unPay      = iota // the energy: an Ancient may help, seeds make up the rest
	unInvoker         // the invoking druid goes to the supply, or by Hot Spring to a haven
	unExhaust         // every druid on the site is exhausted
	unRelocate        // each goes to a haven the unraveller chooses
	unScore           // the site goes to the unraveller's score area; triggers
)

// unravelTarget is the tile being unravelled: where the invoker stood.
func (f *frame) unravelTarget() int { return int(f.invTile) }

func (s *State) unravelAuto(f *frame, o op) bool {
	p := int(f.seat)
	t := f.unravelTarget()
	switch f.sub {
	case unPay:
		f.t = int8(t)
		if o.a == 1 {
			f.sub = unInvoker
			return true
		}
		e := s.energyOf(t)
		need := 3 - s.siteEnergy(p, e.Threat())
		if need > 0 && s.ancientAvailable(p, e) {
			return false
		}
		s.pay(p, e.Threat(), need)
		f.sub = unInvoker
		return true
	case unInvoker:
		if s.occupiesSite(p, siteHotSpring) && f.inv != noDruid && s.count(f.inv) > 0 {
			return false
		}
		if f.inv != noDruid && s.count(f.inv) > 0 {
			s.exile(f.inv)
		}
		f.inv = noDruid
		f.sub = unExhaust
		return true
	case unExhaust:
		f.mask = 0
		for q := range s.circles() {
			if s.occupies(q, t) {
				f.mask |= 1 << q
			}
			s.acoE[q][t] += s.acoR[q][t]
			s.acoR[q][t] = 0
			if int(s.eld[q]) == t {
				s.eldEx[q] = true
			}
			s.touch(q, t)
		}
		f.sub = unRelocate
		return true
	case unRelocate:
		d, ok := s.firstDruidOn(t)
		if !ok {
			f.sub = unScore
			return true
		}
		h := s.havens() &^ (1 << t)
		if bits.OnesCount32(h) == 1 {
			s.relocate(d, bits.TrailingZeros32(h))
			return true
		}
		return false
	case unScore:
		s.lift(t)
		s.loc[t] = uint8(locScore + p)
		s.unravels++
		f.next()
		s.unravelTriggers(p, t, f.mask)
		return true
	}
	return false
}

// pay gives up need seeds of energy e, if need is positive.
func (s *State) pay(p int, e Energy, need int) {
	if need > 0 {
		s.seeds[p][e] -= uint8(need)
	}
}

// firstDruidOn returns the first druid on tile t, seats in order.
func (s *State) firstDruidOn(t int) (druid, bool) {
	for q := range s.circles() {
		if int(s.eld[q]) == t {
			return mkDruid(q, true, s.eldEx[q], t), true
		}
		if s.acoE[q][t] > 0 {
			return mkDruid(q, false, true, t), true
		}
		if s.acoR[q][t] > 0 {
			return mkDruid(q, false, false, t), true
		}
	}
	return 0, false
}

// unravelTriggers starts what an unravel by seat p of tile t sets off;
// mask holds the seats that stood on t.
func (s *State) unravelTriggers(p, t int, mask uint8) {
	n := int(s.players)
	stood := func(q, site int) bool {
		if s.siteIn(t) == site && s.loc[t] != locPlay {
			return mask>>q&1 != 0
		}
		return s.occupiesSite(q, site)
	}
	// Pushed last to first: the Awakening Portal's seats in order from the
	// active player's left, then Flaming Lotus for the unraveller.
	if stood(p, siteLotus) && !s.isUsed(siteLotus) {
		s.markUsed(siteLotus)
		s.push(progLotus, p)
	}
	if s.unravels == 1 {
		for i := n; i >= 1; i-- {
			q := (int(s.active) + i) % n
			if stood(q, sitePortal) && (s.aj == ajOff || q != ajSeat) {
				s.push(progPortal, q)
			}
		}
	}
}

func (s *State) unravelLegal(f *frame, dst []game.Move) []game.Move {
	p := int(f.seat)
	t := f.unravelTarget()
	switch f.sub {
	case unPay:
		e := s.energyOf(t)
		need := 3 - s.siteEnergy(p, e.Threat())
		dst = append(dst, mYes)
		if int(s.seeds[p][e.Threat()]) >= need {
			dst = append(dst, mNo)
		}
	case unInvoker:
		dst = append(dst, mNo)
		dst = appendTiles(dst, s.havens()&^(1<<t))
	case unRelocate:
		dst = appendTiles(dst, s.havens()&^(1<<t))
	}
	return dst
}

func (s *State) unravelPlay(f *frame, m game.Move) {
	p := int(f.seat)
	t := f.unravelTarget()
	switch f.sub {
	case unPay:
		e := s.energyOf(t)
		need := 3 - s.siteEnergy(p, e.Threat())
		if m == mYes {
			s.markUsed(ancientFor[e])
			need--
		}
		s.pay(p, e.Threat(), need)
		f.sub = unInvoker
	case unInvoker:
		if m == mNo {
			s.exile(f.inv)
		} else {
			s.relocate(f.inv, int(m&argMask))
		}
		f.inv = noDruid
		f.sub = unExhaust
	case unRelocate:
		d, _ := s.firstDruidOn(t)
		s.relocate(d, int(m&argMask))
	}
}
