package druids

import (
	"math"
	"math/rand/v2"

	"github.com/lagoon-games/lagoon/game"
)

// This file is a heuristic player that reads destiny: for each choice it
// plays the rest of its turn a few times at random (on copies whose bag
// is resampled, so it never reads the real draws) and judges where each
// turn leaves it, by the points each seat would score under each energy,
// weighted by how likely that energy is to dominate. It is a baseline for
// the bots, cheap and without search.

// heuristicTries is how many random ends of the turn each choice is judged
// by.
const heuristicTries = 6

// HeuristicMove returns the heuristic player's choice for the seat to
// decide, drawing its random turns from r. It does not change s.
func (s *State) HeuristicMove(r *rand.Rand) game.Move {
	seat := s.ToMove()
	legal := s.AppendLegal(nil)
	if len(legal) == 1 {
		return legal[0]
	}
	best, bestValue := legal[0], math.Inf(-1)
	var copyState State
	var buf [256]game.Move
	for _, m := range legal {
		total := 0.0
		for range heuristicTries {
			copyState = *s
			copyState.Resample(seat, r)
			copyState.apply(m)
			turn := copyState.turns
			for n := 1; copyState.turns == turn && copyState.step != stepOver; n++ {
				l := copyState.AppendLegal(buf[:0])
				copyState.apply(CapTurn(n, l, copyState.priorPick(l, r)))
			}
			total += copyState.Evaluate(seat)
		}
		if total > bestValue {
			best, bestValue = m, total
		}
	}
	return best
}

// Evaluate judges the state for seat p: its points (its team's, with four
// players) less the best of the others', under each energy, weighted by
// how likely that energy looks to dominate now: the energies with the most
// sites, by a wide margin the more so the fewer tiles are left to explore.
func (s *State) Evaluate(p int) float64 {
	var sites [NumEnergies]float64
	top := 0.0
	for e := range NumEnergies {
		sites[e] = float64(popcount(s.energyMask[e]))
		top = max(top, sites[e])
	}
	sharp := 1 + 6/float64(1+popcount(s.bag))
	var w [NumEnergies]float64
	sum := 0.0
	for e := range NumEnergies {
		w[e] = math.Exp(sharp * (sites[e] - top))
		sum += w[e]
	}
	value := 0.0
	for e := range NumEnergies {
		value += w[e] / sum * float64(s.lead(p, e))
	}
	return value
}

// lead is seat p's points (its team's) less the best of the others' if
// energy e dominated.
func (s *State) lead(p int, e Energy) int {
	mine, best := 0, math.MinInt
	for q := range int(s.players) {
		pts := 0
		for _, u := range s.unit(q) {
			pts += s.Points(u, e)
		}
		if s.sameUnit(p, q) {
			mine = pts
		} else {
			best = max(best, pts)
		}
	}
	return mine - best
}

func (s *State) sameUnit(p, q int) bool {
	if s.players == 4 {
		return p%2 == q%2
	}
	return p == q
}

func popcount(m uint32) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// priorWeights are the chances, relative, that priorPick gives a choice by
// its prior rank (0 to 4): stopping seldom, unravelling often.
var priorWeights = [5]float64{0.25, 1, 2.5, 6, 16}

// priorPick draws one of the legal moves with a chance that grows with its
// prior.
func (s *State) priorPick(legal []game.Move, r *rand.Rand) game.Move {
	total := 0.0
	for _, m := range legal {
		total += priorWeights[s.PriorRank(m)]
	}
	x := r.Float64() * total
	for _, m := range legal {
		x -= priorWeights[s.PriorRank(m)]
		if x < 0 {
			return m
		}
	}
	return legal[len(legal)-1]
}
