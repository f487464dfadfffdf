package druids

import (
	"math/bits"

	"github.com/lagoon-games/lagoon/game"
)

// Unravel: the invoker's site, in stages; the stage is the frame's sub.
// A free unravel (Destiny Helix) needs no energy.

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

// unravelFits reports whether an unravel is at a stage it has, with its
// target known.
func (s *State) unravelFits(f *frame) bool { return f.sub <= unScore && f.invTile >= 0 }

func (s *State) unravelAuto(f *frame, o op) bool {
	p := int(f.seat)
	t := f.unravelTarget()
	switch f.sub {
	case unPay:
		f.t = int8(t)
		if o.unravelFree() {
			f.sub = unInvoker
			return true
		}
		e, need := s.unravelNeed(p, t)
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

// unravelNeed returns the energy of tile t and how many seeds of the
// energy that threatens it seat p must add to unravel it.
func (s *State) unravelNeed(p, t int) (Energy, int) {
	e := s.energyOf(t)
	return e, 3 - s.siteEnergy(p, e.Threat())
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

func (s *State) unravelLegal(f *frame, _ op, dst []game.Move) []game.Move {
	p := int(f.seat)
	t := f.unravelTarget()
	switch f.sub {
	case unPay:
		e, need := s.unravelNeed(p, t)
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

func (s *State) unravelPlay(f *frame, _ op, m game.Move) {
	p := int(f.seat)
	t := f.unravelTarget()
	switch f.sub {
	case unPay:
		e, need := s.unravelNeed(p, t)
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
