package druids

import (
	"math/bits"

	"github.com/lagoon-games/lagoon/game"
)

// The ops that move druids and sites: move a druid, move a site, swap two
// sites, swap two druids.

// Move a druid: first which (chosen by the seat, or the invoker or your
// Eldrid with no choice), then where.

func (s *State) moveDruidAuto(f *frame, o op) bool {
	who := o.moveWho()
	if f.sub != 0 || who != moverInvoker && who != moverOwnEldrid {
		return false
	}
	p := int(f.seat)
	switch {
	case who == moverInvoker:
		f.d = f.inv
	case s.eld[p] >= 0:
		f.d = mkDruid(p, true, s.eldEx[p], int(s.eld[p]))
	default:
		f.d = noDruid
	}
	if f.d == noDruid || s.count(f.d) == 0 {
		f.next()
	} else {
		f.sub = 1
	}
	return true
}

func (s *State) moveDruidLegal(f *frame, o op, dst []game.Move) []game.Move {
	if f.sub == 0 {
		s.eachMover(f, o, func(d druid) { dst = append(dst, vDruid|game.Move(d)) })
		return dst
	}
	return appendTiles(dst, s.destinations(f, o, f.d.tile()))
}

func (s *State) moveDruidPlay(f *frame, _ op, m game.Move) {
	arg := int(m & argMask)
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
}

// moveDruidOffers is sure of a destination for a druid the seat chose
// (listed because it had one), and of a druid of yours that can leave.
func (s *State) moveDruidOffers(f *frame, o op) bool {
	who := o.moveWho()
	if f.sub == 1 {
		return who == moverOwn || who == moverOwnExhausted || who == moverAnyOnSeed || s.canLeave(f, o, f.d.tile())
	}
	return who == moverOwn && s.anyTile(s.occ[f.seat], func(t int) bool { return s.canLeave(f, o, t) })
}

// chosenDruidFits reports whether the frame is at the second stage of a
// step that chooses a druid, and the druid is on the board.
func (s *State) chosenDruidFits(f *frame) bool {
	return f.sub == 1 && f.d != noDruid && s.count(f.d) > 0
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
	switch o.moveWho() {
	case moverOwn:
		s.eachDruidOf(p, consider)
	case moverOwnExhausted:
		// An invoked action that moves an exhausted druid may not move
		// the druid that invoked it.
		s.eachDruidOf(p, func(d druid) {
			if d.exhausted() && (d != f.inv || s.count(d) > 1) {
				consider(d)
			}
		})
	case moverOwnEldrid:
		if s.eld[p] >= 0 {
			consider(mkDruid(p, true, s.eldEx[p], int(s.eld[p])))
		}
	case moverAnyOnSeed:
		if f.seed >= 0 {
			s.eachDruidOn(s.ofEnergy(Energy(f.seed)), consider)
		}
	}
}

// canLeave reports whether a druid on tile t has somewhere to go under
// the step: destinations(f, o, t) != 0, without the search of a move of
// two or three steps, which has somewhere to go when t has a neighbour.
func (s *State) canLeave(f *frame, o op, t int) bool {
	if to := o.moveWhere(); to == toUpTo2 || to == toUpTo3 {
		return s.adj[t] != 0
	}
	return s.destinations(f, o, t) != 0
}

// destinations returns the tiles a druid on tile t may move to under the
// step.
func (s *State) destinations(f *frame, o op, t int) uint32 {
	var m uint32
	switch o.moveWhere() {
	case toAdjacent:
		m = s.adjacent(t)
	case toUpTo2:
		m = s.within(t, 2)
	case toUpTo3:
		m = s.within(t, 3)
	case toOccupied:
		m = s.occupiedByAny()
	case toAnySite:
		m = s.inPlay
	case toHavenOrOwn:
		m = s.havens() | s.occupied(int(f.seat))
	case toSeedSite:
		if f.seed >= 0 {
			m = s.ofEnergy(Energy(f.seed))
		}
	}
	return m &^ (1 << t)
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

// Move a site: first which (chosen, or the invoker's or the chosen
// druid's with no choice), then the space it goes to.

func (s *State) moveSiteAuto(f *frame, o op) bool {
	which := o.movedSite()
	if f.sub != 0 || which != movedInvokerSite && which != movedChosenSite {
		return false
	}
	d := f.inv
	if which == movedChosenSite {
		d = f.d
	}
	if d == noDruid || s.count(d) == 0 || s.isLocked(d.tile()) {
		f.next()
		return true
	}
	f.t, f.sub = int8(d.tile()), 1
	return true
}

func (s *State) moveSiteLegal(f *frame, o op, dst []game.Move) []game.Move {
	if f.sub == 0 {
		return appendTiles(dst, s.movableSites(f, o))
	}
	set := s.spaces(int(f.t))
	set.each(func(c int) { dst = append(dst, vSpace|game.Move(c)) })
	return dst
}

func (s *State) moveSitePlay(f *frame, _ op, m game.Move) {
	if f.chooseSite(m) {
		return
	}
	s.moveSite(int(f.t), int(m&argMask))
	f.next()
}

// moveSiteOffers is sure of a space for the chosen site: an unlocked site
// in a world of two or more may go to the world's edge.
func (s *State) moveSiteOffers(f *frame, _ op) bool {
	return f.sub == 1 && s.inPlay&(s.inPlay-1) != 0
}

// chosenSiteFits reports whether the frame is at the second stage of a
// step that chooses a site, and the site is in play.
func (s *State) chosenSiteFits(f *frame) bool { return f.sub == 1 && s.tileIn(f.t, locPlay) }

// movableSites returns the sites the step may move to another space.
func (s *State) movableSites(f *frame, o op) uint32 {
	if s.inPlay&(s.inPlay-1) == 0 {
		return 0
	}
	var m uint32
	switch o.movedSite() {
	case movedAnyUnlocked:
		m = s.inPlay
	case movedOwnUnlocked:
		m = s.occupied(int(f.seat))
	case movedSeedUnlocked:
		if f.seed >= 0 {
			m = s.ofEnergy(Energy(f.seed))
		}
	}
	return s.unlockedAmong(m)
}

// Swap two sites: first one (chosen, or the invoker's with no choice),
// then the one it trades places with.

func (s *State) swapAuto(f *frame, o op) bool {
	if f.sub != 0 || o.swapFirst() != firstInvokerSite {
		return false
	}
	if f.inv == noDruid || s.count(f.inv) == 0 {
		f.next()
		return true
	}
	f.t, f.sub = int8(f.inv.tile()), 1
	return true
}

func (s *State) swapLegal(f *frame, o op, dst []game.Move) []game.Move {
	if f.sub != 0 {
		return appendTiles(dst, s.swapSeconds(int(f.t), o))
	}
	var m uint32
	eachTile(s.swapFirsts(int(f.seat), o), func(t int) {
		if s.swapSeconds(t, o) != 0 {
			m |= 1 << t
		}
	})
	return appendTiles(dst, m)
}

func (s *State) swapPlay(f *frame, _ op, m game.Move) {
	if f.chooseSite(m) {
		return
	}
	s.swapSites(int(f.t), int(m&argMask))
	f.next()
}

// swapOffers is sure of a second site when the seat chose the first
// (listed because it had one) or when the invoker's site has one.
func (s *State) swapOffers(f *frame, o op) bool {
	return f.sub == 1 && (o.swapFirst() != firstInvokerSite || s.swapSeconds(int(f.t), o) != 0)
}

// swapFirsts returns the sites that may be the first of a swap.
func (s *State) swapFirsts(p int, o op) uint32 {
	if o.swapFirst() == firstOwn {
		return s.occupied(p)
	}
	return s.inPlay
}

// swapSeconds returns the sites that may trade places with tile t.
func (s *State) swapSeconds(t int, o op) uint32 {
	var m uint32
	switch o.swapSecond() {
	case secondOccupied:
		m = s.occupiedByAny()
	case secondHavenOrEmpty:
		m = s.havens() | s.inPlay&^s.occupiedByAny()
	case secondAnyOther:
		m = s.inPlay
	case secondAdjacent:
		m = s.adjacent(t)
	}
	return m &^ (1 << t)
}

// Swap two druids, of any circle, on sites of the energy of the seed
// given up.

func (s *State) swapDruidsLegal(f *frame, _ op, dst []game.Move) []game.Move {
	energy := s.ofEnergy(Energy(f.seed))
	if f.sub == 0 {
		if bits.OnesCount32(energy&s.occupiedByAny()) >= 2 {
			s.eachDruidOn(energy, func(d druid) { dst = append(dst, vDruid|game.Move(d)) })
		}
	} else {
		s.eachDruidOn(energy&^(1<<f.d.tile()), func(d druid) { dst = append(dst, vDruid|game.Move(d)) })
	}
	return dst
}

func (s *State) swapDruidsPlay(f *frame, _ op, m game.Move) {
	if f.sub == 0 {
		f.d, f.sub = druid(m&argMask), 1
		return
	}
	a, b := f.d, druid(m&argMask)
	s.take(a)
	s.take(b)
	s.put(a.at(b.tile()))
	s.put(b.at(a.tile()))
	f.next()
}
