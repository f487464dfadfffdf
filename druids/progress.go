package druids

import "math/bits"

// What a bot asks of a game to keep it moving towards its end (the
// closing rules of druids/bots: only exploring draws tiles, and the game
// ends with the bag).

// Drawn returns the tiles drawn from the bag so far: the play set less the
// three sites the game starts with and the tiles still in the bag.
func (s *State) Drawn() int { return bits.OnesCount32(s.set) - 3 - s.bagSize() }

// AtRefresh reports whether the seat to move is at its turn's Refresh
// step, no action being resolved.
func (s *State) AtRefresh() bool { return s.step == stepRefresh && s.depth == 0 }

// Resolving reports whether an action or its effect is being resolved: the
// seat to move decides within it.
func (s *State) Resolving() bool { return s.depth > 0 }

// OpenDruids returns how many of seat p's druids, refreshed or exhausted,
// stand on a site with an empty space beside it: a site they could
// explore from.
func (s *State) OpenDruids(p int) int {
	n := 0
	for u := s.occ[p]; u != 0; u &= u - 1 {
		t := bits.TrailingZeros32(u)
		if !s.hasEmptyAround(t) {
			continue
		}
		n += int(s.acoR[p][t]) + int(s.acoE[p][t])
		if int(s.eld[p]) == t {
			n++
		}
	}
	return n
}
