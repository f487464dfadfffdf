package druids

import (
	"math/bits"

	"github.com/lagoon-games/lagoon/game"
)

// The ops on a circle's druids and seeds: invoke, exhaust, exile, discard,
// Song of Seeds, refresh, summon, Moon Gate and a lost circle's return.

// Invoke: choose the invoking druid, on a site its filter allows, and
// exhaust it. An Eldrid invoke takes the Eldrid only.

func (s *State) invokeLegal(f *frame, o op, dst []game.Move) []game.Move {
	p := int(f.seat)
	eldrid := eldridProg(int(f.prog))
	for m := s.invokerMask(p, o.invokerFilter(), s.fresh[p]); m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		if int(s.eld[p]) == t && !s.eldEx[p] {
			dst = append(dst, vDruid|game.Move(mkDruid(p, true, false, t)))
		}
		if !eldrid && s.acoR[p][t] > 0 {
			dst = append(dst, vDruid|game.Move(mkDruid(p, false, false, t)))
		}
	}
	return dst
}

func (s *State) invokePlay(f *frame, _ op, m game.Move) {
	d := druid(m & argMask)
	f.invTile = int8(d.tile())
	f.inv = s.setExhausted(d, true)
	f.next()
}

// Exhaust: one of your refreshed druids, as the filter allows.

func (s *State) exhaustLegal(f *frame, o op, dst []game.Move) []game.Move {
	filter := o.exhaustFilter()
	s.eachDruidOf(int(f.seat), func(d druid) {
		if d.exhausted() || filter == exhaustEldrid && !d.eldrid() || filter == exhaustOnUnlocked && s.isLocked(d.tile()) {
			return
		}
		dst = append(dst, vDruid|game.Move(d))
	})
	return dst
}

func (s *State) exhaustPlay(f *frame, _ op, m game.Move) {
	f.d = s.setExhausted(druid(m&argMask), true)
	f.next()
}

// Exile: a druid back to its supply, the invoking one with no choice.

func (s *State) exileAuto(f *frame, o op) bool {
	if o.exileWho() != exileInvoker {
		return false
	}
	if f.inv != noDruid && s.count(f.inv) > 0 {
		s.exile(f.inv)
	}
	f.inv = noDruid
	f.next()
	return true
}

func (s *State) exileLegal(f *frame, o op, dst []game.Move) []game.Move {
	who := o.exileWho()
	s.eachDruidOf(int(f.seat), func(d druid) {
		if who != exileOwnRefreshed || !d.exhausted() {
			dst = append(dst, vDruid|game.Move(d))
		}
	})
	return dst
}

func (s *State) exilePlay(f *frame, _ op, m game.Move) {
	d := druid(m & argMask)
	s.exile(d)
	if d == f.inv && s.count(d) == 0 {
		f.inv = noDruid
	}
	f.next()
}

// Discard: give up a seed of the mask's energies; the frame keeps its
// energy for the steps that follow. A seed is offered only of an energy
// for which the next step then does something: none is given up for
// nothing.

func (s *State) discardLegal(f *frame, o op, dst []game.Move) []game.Move {
	p, mask := int(f.seat), o.seedMask()
	for e := range NumEnergies {
		if mask>>e&1 != 0 && s.seeds[p][e] > 0 && s.paysFor(f, e) {
			dst = append(dst, vSeed|game.Move(e))
		}
	}
	return dst
}

// paysFor reports whether the step after the frame's discard does
// something when the seed given up is of energy e.
func (s *State) paysFor(f *frame, e Energy) bool {
	g := *f
	g.seed = int8(e)
	return stepUsefulAfter(s, g, int(f.pc)+1)
}

// stepUsefulAfter is stepUseful, called through a function value so that
// the compiler does not see discardLegal, paysFor and opLegal as one
// recursion: it moves to the heap the choice buffers of every caller of
// a recursion's functions, and with them every buffer handed to
// AppendLegal (each playout's among them). The frame goes by value,
// which a call through a function value does not move to the heap.
var stepUsefulAfter func(s *State, f frame, i int) bool

func init() {
	stepUsefulAfter = func(s *State, f frame, i int) bool { return s.stepUseful(&f, i) }
}

func (s *State) discardPlay(f *frame, _ op, m game.Move) {
	e := int(m & argMask)
	s.seeds[f.seat][e]--
	f.seed = int8(e)
	f.next()
}

// Song of Seeds: give up one or two seeds, counted in the frame for the
// refresh that follows; no more seeds than there are exhausted druids to
// refresh. The step ends by itself when no more can be given.

func (s *State) songSeedsLegal(f *frame, _ op, dst []game.Move) []game.Move {
	p := int(f.seat)
	if s.songMore(f) {
		for e := range NumEnergies {
			if s.seeds[p][e] > 0 {
				dst = append(dst, vSeed|game.Move(e))
			}
		}
	}
	if f.given > 0 {
		dst = append(dst, mDone)
	}
	return dst
}

func (s *State) songSeedsPlay(f *frame, _ op, m game.Move) {
	if m == mDone {
		f.next()
		return
	}
	s.seeds[f.seat][m&argMask]--
	f.given++
	if !s.songMore(f) {
		f.next()
	}
}

// songMore reports whether Song of Seeds may take another seed.
func (s *State) songMore(f *frame) bool {
	return f.given < 2 && int(f.given) < s.exhaustedDruids() && s.seedTotal(int(f.seat)) > 0
}

// Refresh: exhausted druids, one at a time, up to the op's count or the
// seeds given up; with refreshUpTo the seat may stop early.

func (s *State) refreshAuto(f *frame, o op) bool {
	if f.sub != 0 {
		return false
	}
	f.left = f.given
	if n := o.refreshCount(); n > 0 {
		f.left = n
	}
	f.sub = 1
	if f.left <= 0 {
		f.next()
	}
	return true
}

func (s *State) refreshLegal(f *frame, o op, dst []game.Move) []game.Move {
	p, flags := int(f.seat), o.refreshFlags()
	for q := range s.circles() {
		if flags&refreshOwn != 0 && q != p {
			continue
		}
		dst = s.appendExhausted(dst, q, f.inv)
	}
	if len(dst) > 0 && flags&refreshUpTo != 0 {
		dst = append(dst, mDone)
	}
	return dst
}

func (s *State) refreshPlay(f *frame, _ op, m game.Move) {
	if m == mDone {
		f.next()
		return
	}
	s.setExhausted(druid(m&argMask), false)
	f.left--
	if f.left <= 0 {
		f.next()
	}
}

func (s *State) refreshOffers(f *frame, o op) bool {
	if f.inv != noDruid && f.inv.exhausted() {
		return false
	}
	if o.refreshFlags()&refreshOwn != 0 {
		return s.tired[f.seat] != 0
	}
	return s.anyExhausted()
}

// refreshFits reports whether a refresh is at its one stage past counting.
func (s *State) refreshFits(f *frame) bool { return f.sub == 1 }

// Summon: first what (the Eldrid or an acolyte from the supply, or with
// both in play a druid taken back from the board, which a circle with
// nothing in its supply must do only on Cirqus Laguun), then where.

func (s *State) summonAuto(f *frame, _ op) bool {
	if f.sub != 0 {
		return false
	}
	p := int(f.seat)
	hasE, hasA := s.eld[p] < 0, s.acoSup[p] > 0
	switch {
	case hasE && hasA:
		return false
	case hasE:
		f.summoned, f.sub = summonEldrid, 1
	case hasA:
		f.summoned, f.sub = summonAcolyte, 1
	case s.occupiesSite(p, siteCirqus) && s.occ[p] != 0:
		return false
	default:
		f.next()
	}
	return true
}

func (s *State) summonLegal(f *frame, o op, dst []game.Move) []game.Move {
	p := int(f.seat)
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
	return dst
}

func (s *State) summonPlay(f *frame, _ op, m game.Move) {
	p := int(f.seat)
	arg := int(m & argMask)
	if f.sub == 0 {
		switch m {
		case mEldrid:
			f.summoned = summonEldrid
		case mAcolyte:
			f.summoned = summonAcolyte
		default:
			d := druid(arg)
			s.take(d)
			f.summoned = summonTaken
			if d.eldrid() {
				f.summoned = summonEldrid
			} else {
				s.acoSup[p]++
			}
		}
		f.sub = 1
		return
	}
	if f.summoned == summonEldrid {
		s.put(mkDruid(p, true, true, arg))
	} else {
		s.acoSup[p]--
		s.put(mkDruid(p, false, true, arg))
	}
	f.next()
}

// summonOffers is sure of a choice of what to summon (summonAuto asks only
// when there are the Eldrid and an acolyte, or druids on the board), and
// of the site when the sites are the havens or any.
func (s *State) summonOffers(f *frame, o op) bool {
	where := o.summonWhere()
	return f.sub == 0 || where == summonHaven || where == summonAnySite || s.summonSites(f, o) != 0
}

// summonFits reports whether a summon is at its second stage, with what
// it brings in the supply.
func (s *State) summonFits(f *frame) bool {
	p := int(f.seat)
	return f.sub == 1 && (f.summoned == summonEldrid && s.eld[p] < 0 || (f.summoned == summonAcolyte || f.summoned == summonTaken) && s.acoSup[p] > 0)
}

// summonSites returns where the step may summon to.
func (s *State) summonSites(f *frame, o op) uint32 {
	switch o.summonWhere() {
	case summonHaven:
		return s.havens()
	case summonAnySite:
		return s.inPlay
	case summonOwnSite:
		return s.occupied(int(f.seat))
	case summonSeedSite:
		if f.seed >= 0 {
			return s.ofEnergy(Energy(f.seed))
		}
	}
	return 0
}

// Moon Gate: your Eldrid from the supply onto a haven, refreshed.

func (s *State) moonGatePlay(f *frame, _ op, m game.Move) {
	s.put(mkDruid(int(f.seat), true, false, int(m&argMask)))
	f.next()
}

// A lost circle, with no druid on the board, sets one on a haven: its
// Eldrid if in the supply, else an acolyte.

func (s *State) lostPlay(f *frame, _ op, m game.Move) {
	p, t := int(f.seat), int(m&argMask)
	if s.eld[p] < 0 {
		s.put(mkDruid(p, true, true, t))
	} else {
		s.acoSup[p]--
		s.put(mkDruid(p, false, true, t))
	}
	f.next()
}
