package druids

import (
	"github.com/lagoon-games/lagoon/game"
)

// Each op's parts (what it runs by itself, the choices it offers, how it
// plays one, whether it surely has a choice, what its stages' registers
// hold) are together in the file of its kind, op*.go; the functions below
// only route to them. They route by switch rather than through a table of
// functions: a call through a function value makes the compiler move the
// choice buffers of hasChoice and stepPossible to the heap.

// opAuto runs what needs no decision in the frame's step and reports
// whether it did.
func (s *State) opAuto(f *frame, o op) bool {
	switch o.code {
	case oMarkerOff:
		return s.markerOffAuto(f, o)
	case oMarkerOn:
		return s.markerOnAuto(f, o)
	case oMay:
		return s.mayAuto(f, o)
	case oExile:
		return s.exileAuto(f, o)
	case oRefresh:
		return s.refreshAuto(f, o)
	case oMoveDruid:
		return s.moveDruidAuto(f, o)
	case oMoveSite:
		return s.moveSiteAuto(f, o)
	case oSwap:
		return s.swapAuto(f, o)
	case oSummon:
		return s.summonAuto(f, o)
	case oExplore:
		return s.exploreAuto(f, o)
	case oMoveIn:
		return s.moveInAuto(f, o)
	case oExplAction:
		return s.explActionAuto(f, o)
	case oUnravel:
		return s.unravelAuto(f, o)
	case oFork:
		return s.forkAuto(f, o)
	}
	return false
}

// opLegal appends the choices of the frame's step.
func (s *State) opLegal(f *frame, o op, dst []game.Move) []game.Move {
	switch o.code {
	case oInvoke:
		return s.invokeLegal(f, o, dst)
	case oMay:
		return s.yesNoLegal(f, o, dst)
	case oExhaust:
		return s.exhaustLegal(f, o, dst)
	case oExile:
		return s.exileLegal(f, o, dst)
	case oDiscard:
		return s.discardLegal(f, o, dst)
	case oRefresh:
		return s.refreshLegal(f, o, dst)
	case oMoveDruid:
		return s.moveDruidLegal(f, o, dst)
	case oMoveSite:
		return s.moveSiteLegal(f, o, dst)
	case oSwap:
		return s.swapLegal(f, o, dst)
	case oSwapDruids:
		return s.swapDruidsLegal(f, o, dst)
	case oSummon:
		return s.summonLegal(f, o, dst)
	case oExplore:
		return s.exploreLegal(f, o, dst)
	case oMoveIn:
		return s.yesNoLegal(f, o, dst)
	case oUnravel:
		return s.unravelLegal(f, o, dst)
	case oReturn:
		return s.returnLegal(f, o, dst)
	case oFork:
		return s.forkLegal(f, o, dst)
	case oChaos:
		return s.chaosLegal(f, o, dst)
	case oSongSeeds:
		return s.songSeedsLegal(f, o, dst)
	case oMoonGate:
		return s.havensLegal(f, o, dst)
	case oLost:
		return s.havensLegal(f, o, dst)
	}
	return dst
}

// opPlay plays a legal choice of the frame's step.
func (s *State) opPlay(f *frame, o op, m game.Move) {
	switch o.code {
	case oInvoke:
		s.invokePlay(f, o, m)
	case oMay:
		s.mayPlay(f, o, m)
	case oExhaust:
		s.exhaustPlay(f, o, m)
	case oExile:
		s.exilePlay(f, o, m)
	case oDiscard:
		s.discardPlay(f, o, m)
	case oRefresh:
		s.refreshPlay(f, o, m)
	case oMoveDruid:
		s.moveDruidPlay(f, o, m)
	case oMoveSite:
		s.moveSitePlay(f, o, m)
	case oSwap:
		s.swapPlay(f, o, m)
	case oSwapDruids:
		s.swapDruidsPlay(f, o, m)
	case oSummon:
		s.summonPlay(f, o, m)
	case oExplore:
		s.explorePlay(f, o, m)
	case oMoveIn:
		s.moveInPlay(f, o, m)
	case oUnravel:
		s.unravelPlay(f, o, m)
	case oReturn:
		s.returnPlay(f, o, m)
	case oFork:
		s.forkPlay(f, o, m)
	case oChaos:
		s.chaosPlay(f, o, m)
	case oSongSeeds:
		s.songSeedsPlay(f, o, m)
	case oMoonGate:
		s.moonGatePlay(f, o, m)
	case oLost:
		s.lostPlay(f, o, m)
	}
}

// offersChoice reports whether a step that needs a decision surely has a
// choice, so that advance need not list its choices to know.
func (s *State) offersChoice(f *frame, o op) bool {
	switch o.code {
	case oInvoke, oMay, oMoveIn, oUnravel, oFork, oMoonGate, oLost:
		return true
	case oRefresh:
		return s.refreshOffers(f, o)
	case oMoveDruid:
		return s.moveDruidOffers(f, o)
	case oMoveSite:
		return s.moveSiteOffers(f, o)
	case oSwap:
		return s.swapOffers(f, o)
	case oSummon:
		return s.summonOffers(f, o)
	case oExplore:
		return s.exploreOffers(f, o)
	}
	return false
}

// stageFits reports whether a frame past the first stage of its step is at
// a stage the step has, with registers that hold what the stage uses.
func (s *State) stageFits(f *frame, o op) bool {
	switch o.code {
	case oRefresh:
		return s.refreshFits(f)
	case oMoveDruid, oSwapDruids:
		return s.chosenDruidFits(f)
	case oMoveSite, oSwap:
		return s.chosenSiteFits(f)
	case oSummon:
		return s.summonFits(f)
	case oExplore:
		return s.exploreFits(f)
	case oUnravel:
		return s.unravelFits(f)
	case oReturn:
		return s.returnFits(f)
	case oFork:
		return s.forkFits(f)
	}
	return false
}

func (s *State) yesNoLegal(_ *frame, _ op, dst []game.Move) []game.Move {
	return append(dst, mYes, mNo)
}

func (s *State) havensLegal(_ *frame, _ op, dst []game.Move) []game.Move {
	return appendTiles(dst, s.havens())
}

// next ends the frame's current step.
func (f *frame) next() {
	f.pc++
	f.sub = 0
}

// end ends the frame's program.
func (f *frame) end() { f.pc = uint8(len(programs[f.prog])) }

// chooseSite keeps the site m, at the first stage of a step that chooses
// a site and then what it does, and reports whether it did.
func (f *frame) chooseSite(m game.Move) bool {
	if f.sub != 0 {
		return false
	}
	f.t, f.sub = int8(m&argMask), 1
	return true
}

// eldridProg reports whether the program is a site's Eldrid invoke.
func eldridProg(prog int) bool { return eldridSites>>prog&1 != 0 }

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

// stepUseful reports whether step i of the frame's program would do
// something now: offer a choice, or for a summon, bring a druid to a site.
// A summon's first stage may offer what to bring when there is nowhere to
// bring it.
func (s *State) stepUseful(f *frame, i int) bool {
	prog := programs[f.prog]
	if i < len(prog) && prog[i].code == oSummon {
		return s.canSummon(int(f.seat)) && s.summonSites(f, prog[i]) != 0
	}
	return s.stepPossible(f, i)
}

// The player marker: exhausted by the basic explore, refreshed by a site.

func (s *State) markerOffAuto(f *frame, _ op) bool {
	s.marker[f.seat] = true
	f.next()
	return true
}

func (s *State) markerOnAuto(f *frame, _ op) bool {
	s.marker[f.seat] = false
	f.next()
	return true
}

// May: the program goes on only if its next step can be paid and the seat
// says yes.

func (s *State) mayAuto(f *frame, _ op) bool {
	if !s.stepPossible(f, int(f.pc)+1) {
		f.end()
		return true
	}
	return false
}

func (s *State) mayPlay(f *frame, _ op, m game.Move) {
	if m == mNo {
		f.end()
	} else {
		f.next()
	}
}

func appendTiles(dst []game.Move, m uint32) []game.Move {
	eachTile(m, func(t int) { dst = append(dst, vSite|game.Move(t)) })
	return dst
}

// tileIn reports whether t is a tile, and at loc.
func (s *State) tileIn(t int8, loc uint8) bool { return t >= 0 && s.loc[t] == loc }
