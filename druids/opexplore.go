package druids

import (
	"math/bits"

	"github.com/lagoon-games/lagoon/game"
)

// The ops that draw and place sites: explore, moving in, the explored
// site's exploration action, Fork of Destiny, Chaos Manifold and
// Saraina's Crucible's return of a scored site.

// Explore: draw a tile (unless one is in hand, kept by Fork of Destiny),
// choose its side, then its space; a tile with nowhere to go goes back to
// the bag. The seat gains a seed of the new site's energy.

func (s *State) exploreAuto(f *frame, o op) bool {
	switch f.sub {
	case 0:
		if f.t < 0 || s.loc[f.t] != locHand {
			if s.bag == 0 {
				f.next()
				return true
			}
			f.t = int8(s.draw())
		}
		f.sub = 1
		return true
	case 2:
		if o.exploreWhere() == exploreAdjacent && (f.inv == noDruid || s.count(f.inv) == 0 || !s.hasEmptyAround(f.inv.tile())) {
			s.loc[f.t] = locBag
			s.bag |= 1 << f.t
			f.t = -1
			f.next()
			return true
		}
	}
	return false
}

func (s *State) exploreLegal(f *frame, o op, dst []game.Move) []game.Move {
	switch f.sub {
	case 1:
		dst = append(dst, mSideA, mSideB)
	case 2:
		if o.exploreWhere() == exploreAnySpace {
			set := s.spaces(-1)
			set.each(func(c int) { dst = append(dst, vSpace|game.Move(c)) })
		} else {
			dst = s.appendSpacesAround(dst, f.inv.tile())
		}
	}
	return dst
}

func (s *State) explorePlay(f *frame, _ op, m game.Move) {
	if f.sub == 1 {
		f.side = uint8(b2i(m == mSideB))
		f.sub = 2
		return
	}
	t := int(f.t)
	s.place(t, int(f.side), int(m&argMask))
	s.seeds[f.seat][s.energyOf(t)]++
	s.ajHavenArrives(t)
	f.next()
}

// exploreOffers is sure of a side and, once it is chosen, of a space.
func (s *State) exploreOffers(f *frame, _ op) bool { return f.sub >= 1 }

// exploreFits reports whether an explore is at a stage it has, with the
// drawn tile in hand and a side.
func (s *State) exploreFits(f *frame) bool {
	return f.sub <= 2 && s.tileIn(f.t, locHand) && f.side <= 1
}

// Move in: the invoking druid may follow onto the explored site.

func (s *State) moveInAuto(f *frame, _ op) bool {
	if f.t < 0 || s.loc[f.t] != locPlay || f.inv == noDruid || s.count(f.inv) == 0 {
		f.next()
		return true
	}
	return false
}

func (s *State) moveInPlay(f *frame, _ op, m game.Move) {
	if m == mYes && f.inv != noDruid && s.count(f.inv) > 0 {
		f.inv = s.relocate(f.inv, int(f.t))
	}
	f.next()
}

// The explored site's exploration action, if it has one, runs in a frame
// of its own.

func (s *State) explActionAuto(f *frame, _ op) bool {
	f.next()
	if f.t >= 0 && s.loc[f.t] == locPlay {
		site := s.siteIn(int(f.t))
		if Sites[site].Kind == KindExploration && len(programs[site]) > 0 {
			g := s.push(site, int(f.seat))
			g.t = f.t
		}
	}
	return true
}

// Fork of Destiny: draw two tiles and keep one, for the explore that
// follows; the other goes back to the bag.

func (s *State) forkAuto(f *frame, _ op) bool {
	if f.sub != 0 {
		return false
	}
	if bits.OnesCount32(s.bag) < 2 {
		f.next()
		return true
	}
	f.t = int8(s.draw())
	f.t2 = int8(s.draw())
	f.sub = 1
	return true
}

func (s *State) forkLegal(f *frame, _ op, dst []game.Move) []game.Move {
	return append(dst, vSite|game.Move(min(f.t, f.t2)), vSite|game.Move(max(f.t, f.t2)))
}

func (s *State) forkPlay(f *frame, _ op, m game.Move) {
	keep, back := f.t, f.t2
	if int(keep) != int(m&argMask) {
		keep, back = back, keep
	}
	s.loc[back] = locBag
	s.bag |= 1 << back
	f.t, f.t2 = keep, -1
	f.next()
}

// forkFits reports whether Fork of Destiny is at its choice, with two
// tiles in hand.
func (s *State) forkFits(f *frame) bool {
	return f.sub == 1 && s.tileIn(f.t, locHand) && s.tileIn(f.t2, locHand) && f.t != f.t2
}

// Chaos Manifold: an empty unlocked site back to the bag, for the explore
// that follows.

func (s *State) chaosLegal(_ *frame, _ op, dst []game.Move) []game.Move {
	return appendTiles(dst, s.chaosTargets())
}

func (s *State) chaosPlay(f *frame, _ op, m game.Move) {
	t := int(m & argMask)
	s.lift(t)
	s.loc[t] = locBag
	s.bag |= 1 << t
	f.t = -1
	f.next()
}

// chaosTargets returns the sites Chaos Manifold may put back in the bag.
func (s *State) chaosTargets() uint32 {
	m := s.inPlay &^ s.occupiedByAny()
	if h := s.havens(); bits.OnesCount32(h) == 1 {
		m &^= h
	}
	return s.unlockedAmong(m)
}

// Return: a site of your score area, then its space beside the invoker's
// site.

func (s *State) returnLegal(f *frame, _ op, dst []game.Move) []game.Move {
	if f.sub != 0 {
		return s.appendSpacesAround(dst, int(f.invTile))
	}
	if f.invTile >= 0 && s.loc[f.invTile] == locPlay && s.hasEmptyAround(int(f.invTile)) {
		dst = appendTiles(dst, s.scoreArea(int(f.seat)))
	}
	return dst
}

func (s *State) returnPlay(f *frame, _ op, m game.Move) {
	if f.chooseSite(m) {
		return
	}
	s.place(int(f.t), int(s.side[f.t]), int(m&argMask))
	f.next()
}

// returnFits reports whether a return is at its second stage, with a
// site of the seat's score area chosen and the invoker's site known.
func (s *State) returnFits(f *frame) bool {
	return f.sub == 1 && s.tileIn(f.t, uint8(locScore)+uint8(f.seat)) && f.invTile >= 0
}
