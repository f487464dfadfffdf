package druids

import (
	"fmt"
	"math/bits"

	"github.com/lagoon-games/lagoon/game"
)

// Moves. A decision is one small choice; its move is a verb in the high
// bits and an argument in the low ones.
const (
	mDone    game.Move = iota // stop: no more of this step
	mYes                      // take a "may"
	mNo                       // decline a "may"
	mEnd                      // end the Action step
	mEldrid                   // summon the Eldrid
	mAcolyte                  // summon an acolyte
	mSideA                    // place the drawn tile side A up
	mSideB                    // side B up
	mMove                     // the basic actions
	mSummon
	mExplore
	mUnravel
	numPlain
)

const (
	verbShift = 11
	argMask   = 1<<verbShift - 1
	vUse      = 1 << verbShift // use a site's action: arg the site number
	vDruid    = 2 << verbShift // a druid: arg the druid
	vSite     = 3 << verbShift // a tile: arg the tile
	vSpace    = 4 << verbShift // an empty space: arg the cell
	vSeed     = 5 << verbShift // a seed: arg the energy
)

// ToMove returns the seat that decides now.
func (s *State) ToMove() int {
	if s.depth > 0 {
		return int(s.stack[s.depth-1].seat)
	}
	if s.step == stepOver {
		return game.NoSeat
	}
	return int(s.active)
}

// Over reports whether the game is over.
func (s *State) Over() bool { return s.step == stepOver }

// Players returns the number of seats.
func (s *State) Players() int { return int(s.players) }

// Turn counts the turns ended.
func (s *State) Turn() int { return int(s.turns) }

func (s *State) startTurn() {
	s.step = stepBegin
	s.used = 0
	s.unravels = 0
	s.refreshes = 0
	s.advance()
}

func (s *State) endTurn() {
	s.turns++
	if s.bag == 0 {
		s.step = stepOver
		return
	}
	s.active = uint8((int(s.active) + 1) % int(s.players))
	if s.aj != ajOff && s.active == ajSeat {
		s.ajTurn()
		s.turns++
		if s.bag == 0 {
			s.step = stepOver
			return
		}
		s.active = 0
	}
	s.startTurn()
}

func (s *State) isUsed(site int) bool { return s.used>>site&1 != 0 }
func (s *State) markUsed(site int)    { s.used |= 1 << site }

// push starts a program for seat.
func (s *State) push(prog, seat int) *frame {
	f := &s.stack[s.depth]
	*f = newFrame(prog, seat)
	s.depth++
	return f
}

// newFrame is a program's frame before its first step, nothing chosen.
func newFrame(prog, seat int) frame {
	return frame{prog: uint8(prog), seat: int8(seat), seed: -1, t: -1, t2: -1, invTile: -1, inv: noDruid, d: noDruid}
}

// advance runs everything that needs no decision, until a seat must decide
// or the game is over.
func (s *State) advance() {
	for {
		if s.depth == 0 {
			if !s.advanceStep() {
				return
			}
			continue
		}
		f := &s.stack[s.depth-1]
		prog := programs[f.prog]
		if int(f.pc) >= len(prog) {
			s.depth--
			continue
		}
		if s.opAuto(f, prog[f.pc]) {
			continue
		}
		if !s.offersChoice(f, prog[f.pc]) && !s.hasChoice(f, prog[f.pc]) {
			f.pc++
			f.sub = 0
			continue
		}
		return
	}
}

// hasChoice reports whether the frame's step offers a choice, by listing
// its choices: a buffer of its own, so that the decisions that need no
// listing do not pay for clearing one.
func (s *State) hasChoice(f *frame, o op) bool {
	var buf [64]game.Move
	return len(s.opLegal(f, o, buf[:0])) > 0
}

// advanceStep moves the turn on when its step has nothing to decide, and
// reports whether it did.
func (s *State) advanceStep() bool {
	a := int(s.active)
	switch s.step {
	case stepBegin:
		if s.timelySites() != 0 {
			return false
		}
		s.step = stepRefresh
		s.marker[a] = false
		if s.occ[a] == 0 {
			s.push(progLost, a)
		}
		return true
	case stepRefresh:
		if int(s.refreshes) < s.refreshLimit(a) && s.hasExhausted(a) {
			return false
		}
		s.step = stepAction
		return true
	case stepAction:
		if s.refreshedOnBoard(a) {
			return false
		}
		if s.occupiesSite(a, sitePresence) && !s.isUsed(sitePresence) && s.hasExhausted(a) {
			s.markUsed(sitePresence)
			s.push(progPresence, a)
			return true
		}
		s.step = stepEnd
		return true
	case stepEnd:
		if s.timelySites() != 0 {
			return false
		}
		s.endTurn()
		return true
	}
	return false
}

// refreshLimit is how many druids seat p may refresh in its Refresh step.
func (s *State) refreshLimit(p int) int {
	if s.occupiesSite(p, siteMani) {
		return 4
	}
	return 3
}

// timelyOptions appends the timely sites the active seat may use now, in
// its Begin or End step, and the choice to use none.
func (s *State) timelyOptions(dst []game.Move) []game.Move {
	m := s.timelySites()
	if m == 0 {
		return dst
	}
	for ; m != 0; m &= m - 1 {
		dst = append(dst, vUse|game.Move(bits.TrailingZeros64(m)))
	}
	return append(dst, mDone)
}

// beginSites and endSites are the timely sites of the Begin and End steps.
const (
	beginSites uint64 = 1<<siteMoonGate | 1<<siteSongbird | 1<<siteFerry
	endSites   uint64 = 1<<siteLullaby | 1<<siteGossamer
)

// timelySites returns the timely sites the active seat may use now, in its
// Begin or End step, by site number.
func (s *State) timelySites() uint64 {
	a := int(s.active)
	timely := endSites
	if s.step == stepBegin {
		timely = beginSites
	}
	var m uint64
	for c := s.faceUp & timely &^ s.used; c != 0; c &= c - 1 {
		site := bits.TrailingZeros64(c)
		if s.occ[a]>>(site/2)&1 != 0 && s.timelyReady(a, site) {
			m |= 1 << site
		}
	}
	return m
}

// timelyReady reports whether seat p, on the timely site, has what its
// action needs.
func (s *State) timelyReady(p, site int) bool {
	switch site {
	case siteMoonGate:
		return s.eld[p] < 0
	case siteSongbird:
		return s.seedTotal(p) > 0 && s.anyExhausted()
	case siteFerry:
		return s.anyOwnCanStep(p)
	case siteLullaby:
		return !s.refreshedOnBoard(p) && s.hasExhausted(p)
	case siteGossamer:
		return s.eld[p] >= 0 && (s.havens()|s.occupied(p))&^(1<<s.eld[p]) != 0
	}
	return false
}

func (s *State) seedTotal(p int) int {
	return int(s.seeds[p][0]) + int(s.seeds[p][1]) + int(s.seeds[p][2])
}

func (s *State) anyOwnCanStep(p int) bool {
	return s.occupied(p)&s.inPlay != 0 && s.anyTile(s.occupied(p), func(t int) bool { return s.adjacent(t) != 0 })
}

func (s *State) anyTile(m uint32, f func(t int) bool) bool {
	for ; m != 0; m &= m - 1 {
		if f(bits.TrailingZeros32(m)) {
			return true
		}
	}
	return false
}

// AppendLegal appends the legal moves of the seat to decide.
func (s *State) AppendLegal(dst []game.Move) []game.Move {
	if s.depth > 0 {
		f := &s.stack[s.depth-1]
		return s.opLegal(f, programs[f.prog][f.pc], dst)
	}
	a := int(s.active)
	switch s.step {
	case stepBegin, stepEnd:
		return s.timelyOptions(dst)
	case stepRefresh:
		dst = s.appendExhausted(dst, a, noDruid)
		return append(dst, mDone)
	case stepAction:
		return s.actionMenu(dst)
	}
	return dst
}

// appendExhausted appends seat p's exhausted druids as moves, but for
// except if it stands for the only druid of its kind (an action's invoker,
// which it may not refresh itself).
func (s *State) appendExhausted(dst []game.Move, p int, except druid) []game.Move {
	for m := s.tired[p]; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		if d := mkDruid(p, true, true, t); int(s.eld[p]) == t && s.eldEx[p] && d != except {
			dst = append(dst, vDruid|game.Move(d))
		}
		if d, n := mkDruid(p, false, true, t), s.acoE[p][t]; n > 1 || n == 1 && d != except {
			dst = append(dst, vDruid|game.Move(d))
		}
	}
	return dst
}

// actionMenu appends the actions the active seat may start.
func (s *State) actionMenu(dst []game.Move) []game.Move {
	a := int(s.active)
	iv := newInvokers(s, a)
	if iv.has(invokeHasAdj, false) {
		dst = append(dst, mMove)
	}
	if s.canSummon(a) {
		dst = append(dst, mSummon)
	}
	if !s.marker[a] && s.bag != 0 && iv.has(invokeHasSpace, false) {
		dst = append(dst, mExplore)
	}
	if s.unravelOffered(a, s.fresh[a]) {
		dst = append(dst, mUnravel)
	}
	for m := s.faceUp & tileSites(s.occ[a]) & invokedSites &^ (s.used & onceSites); m != 0; m &= m - 1 {
		if site := bits.TrailingZeros64(m); s.siteUsable(&iv, site) {
			dst = append(dst, vUse|game.Move(site))
		}
	}
	return append(dst, mEnd)
}

// unravelOffered reports whether the action menu of seat p offers the
// unravel when its refreshed druids stand on the tiles fresh:
// unravelableAmong(unravelEnergyAmong(p, fresh)) != 0, each check as far
// as it must go, the cheapest first.
func (s *State) unravelOffered(p int, fresh uint32) bool {
	c := s.notSoleHaven(fresh)
	return c != 0 && s.anyUnlocked(s.unravelEnergyAmong(p, c))
}

// tileSites returns the site numbers of both sides of the tiles of m.
func tileSites(m uint32) uint64 {
	x := uint64(m)
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	x = (x | x<<2) & 0x3333333333333333
	x = (x | x<<1) & 0x5555555555555555
	return x | x<<1
}

// invokers holds, for one seat while one menu is made, the tiles each
// invoker filter allows, each computed when first asked.
type invokers struct {
	s      *State
	p      int
	fresh  uint32 // the tiles where the seat has a refreshed druid
	eldrid uint32 // the tile of its Eldrid if refreshed
	done   uint8
	mask   [numInvokerFilters]uint32
}

// newInvokers starts the invokers of seat p.
func newInvokers(s *State, p int) invokers {
	iv := invokers{s: s, p: p, fresh: s.fresh[p]}
	if s.eld[p] >= 0 && !s.eldEx[p] {
		iv.eldrid = 1 << s.eld[p]
	}
	// The filters that cost nothing, as invokerMask has them: every druid
	// is on a site in play, and in a connected world of two sites or more
	// every site has a neighbour.
	iv.mask[invokeAny] = iv.fresh & s.inPlay
	if s.inPlay&(s.inPlay-1) != 0 {
		iv.mask[invokeHasAdj] = iv.mask[invokeAny]
	}
	iv.done = 1<<invokeAny | 1<<invokeHasAdj
	return iv
}

// has reports whether the seat has a refreshed druid (its Eldrid, if
// eldrid) that may invoke under filter.
func (iv *invokers) has(filter invokerFilter, eldrid bool) bool {
	return iv.tiles(filter, eldrid) != 0
}

// tiles returns the tiles of the seat's refreshed druids (its Eldrid, if
// eldrid) that may invoke under filter.
func (iv *invokers) tiles(filter invokerFilter, eldrid bool) uint32 {
	m := iv.fresh
	if eldrid {
		m = iv.eldrid
	}
	if m == 0 {
		return 0
	}
	if iv.done>>filter&1 == 0 {
		iv.mask[filter] = iv.s.invokerMask(iv.p, filter, iv.fresh)
		iv.done |= 1 << filter
	}
	return m & iv.mask[filter]
}

// A siteMenu is what the action menu needs to know of a site with an
// invoked action, compact.
type siteMenu struct {
	eldrid bool          // invoked by the Eldrid only
	filter invokerFilter // the invoker's filter
	check  opCode        // the program's second step, which the menu checks
}

var siteMenus [NumSites]siteMenu

// invokedSites are the sites with an invoke or Eldrid invoke action,
// eldridSites those with an Eldrid invoke action and onceSites those whose
// action is once a turn, by site number: the menu looks at no other.
var invokedSites, eldridSites, onceSites uint64

// buildSiteMenus fills siteMenus and the masks of sites from the catalogue
// and the programs.
func buildSiteMenus() {
	for site := range NumSites {
		st := &Sites[site]
		if st.Kind == KindInvoke || st.Kind == KindEldrid {
			prog := programs[site]
			siteMenus[site] = siteMenu{eldrid: st.Kind == KindEldrid, filter: prog[0].invokerFilter(), check: prog[1].code}
			invokedSites |= 1 << site
		}
		if st.Kind == KindEldrid {
			eldridSites |= 1 << site
		}
		if st.Once {
			onceSites |= 1 << site
		}
	}
}

// siteUsable reports whether the seat, which occupies the site, may invoke
// its action now; the site has an invoked action, not used this turn if
// it is once a turn.
func (s *State) siteUsable(iv *invokers, site int) bool {
	p := iv.p
	sm := &siteMenus[site]
	if !iv.has(sm.filter, sm.eldrid) {
		return false
	}
	switch sm.check {
	case oDiscard:
		// A seed is given up only for an action that then does
		// something (discardLegal): the menu asks the same.
		return s.invokedStepUseful(p, site)
	case oMoveDruid:
		return s.invokedMoveUseful(iv, sm, site)
	case oSummon:
		return s.canSummon(p)
	case oExplore:
		return s.bag != 0
	case oFork:
		return bits.OnesCount32(s.bag) >= 2
	case oReturn:
		return s.scoreArea(p) != 0
	case oChaos:
		return s.chaosTargets() != 0
	case oRefresh:
		return s.anyExhausted()
	}
	return true
}

// invokedStepUseful reports whether the step after the invoke of site's
// program would do something for seat p, whatever druid invoked it: the
// steps it is asked of name no invoker.
func (s *State) invokedStepUseful(p, site int) bool {
	f := newFrame(site, p)
	f.pc = 1
	return s.stepUseful(&f, 1)
}

// invokedMoveUseful reports whether the druid move after the invoke of
// site's program would move a druid: the invoker itself from a tile it may
// invoke from, or one of the druids the move names. An exhausted druid the
// move may take is never the invoker, which is refreshed until it
// invokes, so the state as it is answers for the move.
func (s *State) invokedMoveUseful(iv *invokers, sm *siteMenu, site int) bool {
	o := programs[site][1]
	if o.moveWho() != moverInvoker {
		return s.invokedStepUseful(iv.p, site)
	}
	f := newFrame(site, iv.p)
	f.pc = 1
	for m := iv.tiles(sm.filter, sm.eldrid); m != 0; m &= m - 1 {
		if s.canLeave(&f, o, bits.TrailingZeros32(m)) {
			return true
		}
	}
	return false
}

// scoreArea returns the tiles in seat p's score area. A tile in play or in
// the bag is in none (its place and its bit move together), so only the
// others' places are read: the score is asked of every target AJ weighs.
func (s *State) scoreArea(p int) uint32 {
	var m uint32
	for c := uint32(1<<NumTiles-1) &^ s.inPlay &^ s.bag; c != 0; c &= c - 1 {
		if t := bits.TrailingZeros32(c); int(s.loc[t]) == locScore+p {
			m |= 1 << t
		}
	}
	return m
}

// exhaustedDruids counts the exhausted druids of every circle.
func (s *State) exhaustedDruids() int {
	n := 0
	s.eachDruid(func(d druid) {
		if d.exhausted() {
			n += s.count(d)
		}
	})
	return n
}

// anyExhausted reports whether any circle has an exhausted druid.
func (s *State) anyExhausted() bool { return s.tired[0]|s.tired[1]|s.tired[2]|s.tired[3] != 0 }

// invokerMask returns the tiles among cand from which a druid of seat p may
// invoke under filter.
func (s *State) invokerMask(p int, filter invokerFilter, cand uint32) uint32 {
	return cand & s.invokerTiles(p, filter, cand)
}

// invokerTiles returns tiles from which a druid of seat p may invoke under
// filter: all of them, or at least those among cand.
func (s *State) invokerTiles(p int, filter invokerFilter, cand uint32) uint32 {
	switch filter {
	case invokeHasAdj:
		// In a connected world of two sites or more every site has a
		// neighbour.
		if s.inPlay&(s.inPlay-1) == 0 {
			return 0
		}
	case invokeHasSpace:
		return s.spacefulAmong(cand)
	case invokeUnlocked:
		if s.inPlay&(s.inPlay-1) == 0 {
			return 0
		}
		return s.unlockedAmong(cand)
	case invokeHelix:
		return s.unravelableAmong(cand)
	case invokeUnravel:
		return s.unravelableAmong(s.unravelEnergyAmong(p, cand))
	}
	return s.inPlay
}

// unravelEnergyAmong returns the sites among cand that seat p has the
// energy to unravel: three of the energy that threatens the site's, from
// the sites of that energy it occupies, its seeds and an Ancient it may use
// (asked about only when it would make the difference).
func (s *State) unravelEnergyAmong(p int, cand uint32) uint32 {
	var ok uint32
	for e := range Energy(NumEnergies) {
		c := cand & s.energyMask[e]
		if c == 0 {
			continue
		}
		th := e.Threat()
		n := bits.OnesCount32(s.occ[p]&s.energyMask[th]) + int(s.seeds[p][th])
		if n >= 3 || n == 2 && s.ancientAvailable(p, e) {
			ok |= c
		}
	}
	return ok
}

// unravelableAmong returns the sites among cand that may be unravelled at
// all: not locked, and not the only haven.
func (s *State) unravelableAmong(cand uint32) uint32 {
	return s.unlockedAmong(s.notSoleHaven(cand))
}

// notSoleHaven returns cand without the haven if it is the only one.
func (s *State) notSoleHaven(cand uint32) uint32 {
	if s.havenMask&(s.havenMask-1) == 0 {
		cand &^= s.havenMask
	}
	return cand
}

// siteEnergy is the energy e seat p draws from the sites it occupies.
func (s *State) siteEnergy(p int, e Energy) int {
	return bits.OnesCount32(s.occupied(p) & s.ofEnergy(e))
}

// ancientAvailable reports whether seat p may add the Ancient's energy to
// unravel a site of energy e.
func (s *State) ancientAvailable(p int, e Energy) bool {
	a := ancientFor[e]
	return s.occupiesSite(p, a) && !s.isUsed(a)
}

// errOver refuses a move once the game is over.
var errOver = game.Refuse(game.RefusedOver, "the game is over")

// Play checks m and plays it for the seat to decide.
func (s *State) Play(m game.Move) error {
	if s.step == stepOver {
		return errOver
	}
	var buf [128]game.Move
	legal := s.AppendLegal(buf[:0])
	ok := false
	for _, l := range legal {
		if l == m {
			ok = true
			break
		}
	}
	if !ok {
		return game.Refuse(game.RefusedNotNow, "%s is not a choice now; %s", s.MoveText(m), s.askText(legal))
	}
	s.apply(m)
	return nil
}

// askText says what the seat to decide may choose.
func (s *State) askText(legal []game.Move) string {
	out := "the choices are"
	for i, m := range legal {
		if i == 8 {
			return out + fmt.Sprintf(" and %d more", len(legal)-8)
		}
		if i > 0 {
			out += ","
		}
		out += " " + s.MoveText(m)
	}
	return out
}

// PlayLegal plays m, which must be legal, without checking it.
func (s *State) PlayLegal(m game.Move) { s.apply(m) }

func (s *State) apply(m game.Move) {
	s.ply++
	if s.depth > 0 {
		f := &s.stack[s.depth-1]
		s.opPlay(f, programs[f.prog][f.pc], m)
		s.advance()
		return
	}
	a := int(s.active)
	switch s.step {
	case stepBegin, stepEnd:
		if m == mDone {
			if s.step == stepBegin {
				s.used |= beginSites
			} else {
				s.endTurn()
				return
			}
		} else {
			site := int(m & argMask)
			s.markUsed(site)
			s.push(site, a)
		}
	case stepRefresh:
		if m == mDone {
			s.step = stepAction
		} else {
			s.setExhausted(druid(m&argMask), false)
			s.refreshes++
		}
	case stepAction:
		switch m {
		case mEnd:
			s.step = stepEnd
		case mMove:
			s.push(progMove, a)
		case mSummon:
			s.push(progSummon, a)
		case mExplore:
			s.push(progExplore, a)
		case mUnravel:
			s.push(progUnravel, a)
		default:
			site := int(m & argMask)
			s.markUsed(site)
			s.push(site, a)
		}
	}
	s.advance()
}
