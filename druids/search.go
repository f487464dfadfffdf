package druids

import (
	"cmp"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/lagoon-games/lagoon/game"
)

// This file is the knowledge a search may ask of a state (the small
// interfaces of ai/mcts): a playout that skips the legality checks, and a
// prior by rule of thumb; and rules of thumb a playout policy may play a
// few decisions by (Steer, Gather, Hasty).

// Playout plays the game to its end by uniformly random choices from r,
// as a search's default playout would, but without checking each move (the
// moves are the state's own) and without allocating. The tiles drawn come
// from the state's generator, which a search resamples first.
func (s *State) Playout(r *rand.Rand) {
	var buf [256]game.Move
	turn, n := s.turns, 0
	for s.step != stepOver {
		if s.turns != turn {
			turn, n = s.turns, 0
		}
		n++
		legal := s.AppendLegal(buf[:0])
		s.apply(CapTurn(n, legal, legal[r.IntN(len(legal))]))
	}
}

// TurnCap is how many decisions a turn drawn at random (a playout, a
// sampled turn) may take before it takes every way to stop that is offered:
// some sites' actions can be repeated in a cycle within a turn, and a
// drawn turn must end. Turns of random play take far fewer.
const TurnCap = 200

// CapTurn returns m, the choice drawn for the n-th decision of a turn, or,
// past TurnCap decisions, the first of legal that stops: the end of the
// Action step, done, or no. The menu always offers the end, and a site's
// action runs through its few steps, so a turn so capped ends.
func CapTurn(n int, legal []game.Move, m game.Move) game.Move {
	if n <= TurnCap {
		return m
	}
	if stop, ok := Stop(legal); ok {
		return stop
	}
	return m
}

// Stop returns the first of legal that stops, the end of the Action step,
// done, or no, and true; false if legal offers no way to stop.
func Stop(legal []game.Move) (game.Move, bool) {
	for _, l := range legal {
		if l == mEnd || l == mDone || l == mNo {
			return l, true
		}
	}
	return 0, false
}

// Prior says how promising a choice looks, by rule of thumb: unravelling
// first (sites in the score area are the surest points), then exploring
// (seeds, and the world's balance), then a site's action, then a yes;
// stopping last.
func (s *State) Prior(m game.Move) float64 {
	if m == mYes {
		return 0.5
	}
	return float64(s.PriorRank(m) - 1)
}

// PriorRank is Prior as a whole number from 0 (stopping) to 4
// (unravelling), a yes ranked with the choices of no kind: an index that a
// playout's draw, which runs at every step, reads without arithmetic.
func (s *State) PriorRank(m game.Move) int {
	switch {
	case m == mUnravel:
		return 4
	case m == mExplore:
		return 3
	case m&^argMask == vUse:
		return 2
	case m == mEnd || m == mDone || m == mNo:
		return 0
	}
	return 1
}

// Steer returns, for the two decisions of a turn that most plainly steer
// destiny, the choice that steers it the seat's way, and true; for any
// other decision false. Those decisions: the side of a drawn tile (the
// side of the energy under which the seat leads most, or trails least:
// more sites of it make it likelier to dominate, and the seat gains its
// seed), and the site to unravel, chosen by its invoker (one of the energy
// under which the seat leads least: an unravelled site scores under the
// two other energies, and one fewer makes its own less likely to
// dominate). Ties are drawn from r. legal must be the state's legal moves.
func (s *State) Steer(legal []game.Move, r *rand.Rand) (game.Move, bool) {
	if s.depth == 0 || len(legal) < 2 {
		return 0, false
	}
	f := &s.stack[s.depth-1]
	p := s.ToMove()
	var score func(m game.Move) int
	switch {
	case len(legal) == 2 && legal[0] == mSideA && legal[1] == mSideB && f.t >= 0:
		score = func(m game.Move) int {
			return s.lead(p, Sites[siteOf(int(f.t), int(m-mSideA))].Energy)
		}
	case f.prog == progUnravel && programs[f.prog][f.pc].code == oInvoke:
		score = func(m game.Move) int {
			return -s.lead(p, s.energyOf(druid(m&argMask).tile()))
		}
	default:
		return 0, false
	}
	return Best(legal, r, score), true
}

// Gather returns, for a decision of where one of the seat's druids goes
// (a move's destination, a summon's site), the site that best gathers
// energy for unravels, and true; for any other decision false. A site
// the druid could unravel there (it may be unravelled and the seat brings
// three of the energy that threatens it) counts 4; a site the seat does
// not yet stand on counts 1 and 1 more for each site of the energy it
// threatens where the seat stands (its energy would unravel those). Ties
// are drawn from r. legal must be the state's legal moves.
func (s *State) Gather(legal []game.Move, r *rand.Rand) (game.Move, bool) {
	if s.depth == 0 || len(legal) < 2 || legal[0]&^argMask != vSite {
		return 0, false
	}
	f := &s.stack[s.depth-1]
	p := s.ToMove()
	switch o := programs[f.prog][f.pc]; {
	case o.code == oMoveDruid && f.sub == 1 && f.d.seat() == p:
	case o.code == oSummon && f.sub == 1:
	default:
		return 0, false
	}
	return Best(legal, r, func(m game.Move) int {
		t := int(m & argMask)
		e := s.energyOf(t)
		v := 0
		th := e.Threat()
		if s.unravelableAmong(1<<t) != 0 && s.siteEnergy(p, th)+int(s.seeds[p][th])+b2i(s.ancientAvailable(p, e)) >= 3 {
			v += 4
		}
		if !s.occupies(p, t) {
			v += 1 + bits.OnesCount32(s.occupied(p)&s.energyMask[(e+1)%NumEnergies])
		}
		return v
	}), true
}

// IsDone reports whether m is done, the choice that ends a step of the
// turn or a choice of several (the notation's "done"), as a move compared
// rather than its text formatted.
func IsDone(m game.Move) bool { return m == mDone }

// RefreshUnravels answers, at the Refresh step of the seat's turn (no
// action being resolved), whether choosing m there, a druid to refresh or
// done, brings the seat to a decision that offers the unravel: the
// decision m leads to or, where that offers none, the one after the seat
// passes there (done at the Refresh step, the end at the Action step; no
// pass after done at the Refresh step, which is m again). It returns the
// answer and true; false, false at any other decision or for any other
// m, and where the answer lies in AJ's turn.
//
// A refresh that leaves the step open, and its pass, lead to the Action
// step, whose menu the refreshed druids decide. Otherwise the seat comes
// to its Action step (refreshed druids on the board decide its menu) or,
// with none refreshed, past it; where no unravel is offered, its pass
// there ends the turn or stops at a decision of the End step whose pass
// is done, and after another seat's turn the seat decides no more. After
// AJ's, the seat's next turn opens at its Refresh step while it has an
// exhausted druid: AJ exhausts the druids on a site he unravels and
// refreshes at most one of the player's a turn (an Awakening Portal next
// to his unravel), so with two exhausted or more after m the answer is
// false, and with fewer it is not known here.
func (s *State) RefreshUnravels(m game.Move) (offered, ok bool) {
	if s.depth != 0 || s.step != stepRefresh {
		return false, false
	}
	a := int(s.active)
	fresh, exhausted := s.fresh[a], s.exhaustedOf(a)
	switch {
	case m == mDone:
	case m&^argMask == vDruid && druid(m&argMask).seat() == a && s.tired[a]>>druid(m&argMask).tile()&1 != 0:
		fresh |= 1 << druid(m&argMask).tile()
		exhausted--
		if exhausted > 0 && int(s.refreshes)+1 < s.refreshLimit(a) {
			return s.unravelOffered(a, fresh), true
		}
	default:
		return false, false
	}
	if s.unravelOffered(a, fresh) {
		return true, true
	}
	return false, s.aj == ajOff || exhausted >= 2
}

// exhaustedOf counts seat p's exhausted druids on the board.
func (s *State) exhaustedOf(p int) int {
	n := 0
	if s.eld[p] >= 0 && s.eldEx[p] {
		n++
	}
	for m := s.tired[p]; m != 0; m &= m - 1 {
		n += int(s.acoE[p][bits.TrailingZeros32(m)])
	}
	return n
}

// Best returns the move of legal that score rates highest, ties drawn
// uniformly from r.
func Best[T cmp.Ordered](legal []game.Move, r *rand.Rand, score func(m game.Move) T) game.Move {
	var bestScore T
	best, n := legal[0], 0
	for _, m := range legal {
		switch v := score(m); {
		case n == 0 || v > bestScore:
			best, n, bestScore = m, 1, v
		case v == bestScore:
			n++
			if r.IntN(n) == 0 {
				best = m
			}
		}
	}
	return best
}

// Hasty returns the choice of a seat that does nothing but explore: at the
// Action step the explore when it is offered, else the end; at the Begin
// and End steps done; at the Refresh step the first druid offered, so that
// one is there to explore; any other decision (the explore's own, a
// triggered one) drawn uniformly from r. legal must be the state's legal
// moves. A search's playout may play the turns after its own so, to keep
// the bag emptying at about a seat's pace with less noise than random
// turns (against AJ the search so played worse: docs/druids.md, Bots).
func (s *State) Hasty(legal []game.Move, r *rand.Rand) game.Move {
	if s.depth == 0 {
		switch s.step {
		case stepAction:
			if slices.Contains(legal, mExplore) {
				return mExplore
			}
			return mEnd
		case stepRefresh:
			return legal[0]
		}
		return mDone
	}
	return legal[r.IntN(len(legal))]
}

// Ply returns the number of decisions made since the game began.
func (s *State) Ply() int { return int(s.ply) }

// Leads reports whether move m, played now, may be on the way to later: a
// later decision of the same game. It is a cheap necessary condition; the
// search checks the positions it reaches with Equal.
func (s *State) Leads(_ game.Move, later game.State) bool {
	l, ok := later.(*State)
	return ok && l.ply > s.ply && l.turns >= s.turns && l.set == s.set
}

// Equal reports whether other is the same position: the same state, the
// caches aside.
func (s *State) Equal(other game.State) bool {
	o, ok := other.(*State)
	if !ok {
		return false
	}
	a, b := *s, *o
	a.worldOK, b.worldOK = false, false
	a.locked, b.locked = 0, 0
	a.ajEvents, b.ajEvents = 0, 0
	a.ajEvent, b.ajEvent = [24]ajEvent{}, [24]ajEvent{}
	return a == b
}

// AJ returns AJ's level in a solo game against him (AJInitiate to
// AJLegend), 0 in a game without him.
func (s *State) AJ() int { return int(s.aj) }

// Bag returns how many tiles are in the bag: a move after which it
// changed drew (or returned) a tile, a chance event.
func (s *State) Bag() int { return s.bagSize() }
