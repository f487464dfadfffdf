package druids

import "github.com/lagoon-games/lagoon/game"

// Destiny is the energy that dominates, or would if the game ended now.
// Draw is true when all three energies stay tied even after the seeds: the
// game is then a draw.
type Destiny struct {
	Energy Energy
	Draw   bool
}

// Destiny returns the energy that dominates now: the most sites in play; a
// tie of two goes to the energy that threatens the other; a tie of three
// to the most seeds held by all players together, a tie of two there again
// by the swirl; three still tied is a draw.
func (s *State) Destiny() Destiny {
	e, ok := s.destiny()
	return Destiny{Energy: e, Draw: !ok}
}

// Points returns seat p's Destiny Points if energy e dominated: a point a
// seed of e, two a site of another energy in its score area.
func (s *State) Points(p int, e Energy) int {
	pts := s.seedsHeld(p, e)
	eachTile(s.scoreArea(p), func(t int) {
		if Sites[siteOf(t, int(s.side[t]))].Energy != e {
			pts += 2
		}
	})
	return pts
}

// pointsEach is Points(p, e) of each energy e, the score area read once.
func (s *State) pointsEach(p int) [NumEnergies]int {
	var other [NumEnergies]int // the sites in the score area not of e
	eachTile(s.scoreArea(p), func(t int) {
		own := Sites[siteOf(t, int(s.side[t]))].Energy
		for e := range NumEnergies {
			if e != own {
				other[e]++
			}
		}
	})
	var pts [NumEnergies]int
	for e := range NumEnergies {
		pts[e] = s.seedsHeld(p, e) + 2*other[e]
	}
	return pts
}

// tieBreak is seat p's tie-break under energy e: its seeds of e less its
// unravelled sites of e.
func (s *State) tieBreak(p int, e Energy) int {
	n := s.seedsHeld(p, e)
	eachTile(s.scoreArea(p), func(t int) {
		if Sites[siteOf(t, int(s.side[t]))].Energy == e {
			n--
		}
	})
	return n
}

// Teams returns the teams of a four-player game: seats 0 and 2 against 1
// and 3; nil otherwise.
func (s *State) Teams() [][]int {
	if s.players == 4 {
		return [][]int{{0, 2}, {1, 3}}
	}
	return nil
}

// partner returns the seats whose points count with seat p's.
func (s *State) unit(p int) []int {
	if s.players == 4 {
		return []int{p % 2, p%2 + 2}
	}
	return []int{p}
}

// Winners returns the seats that win if the game ended now: the most
// points (a team adding its members'), then the tie-break, then a shared
// victory. A draw of destiny is everyone's.
func (s *State) Winners() []int {
	n := int(s.players)
	d := s.Destiny()
	all := make([]int, n)
	for p := range all {
		all[p] = p
	}
	if d.Draw {
		return all
	}
	key := func(p int) (int, int) {
		pts, tb := 0, 0
		for _, q := range s.unit(p) {
			pts += s.Points(q, d.Energy)
			tb += s.tieBreak(q, d.Energy)
		}
		return pts, tb
	}
	bestP, bestT := key(0)
	for p := 1; p < n; p++ {
		if a, b := key(p); a > bestP || a == bestP && b > bestT {
			bestP, bestT = a, b
		}
	}
	var w []int
	for p := range n {
		if a, b := key(p); a == bestP && b == bestT {
			w = append(w, p)
		}
	}
	return w
}

// Standing returns each seat's points under the destiny of now and, once
// the game is over, the winners.
func (s *State) Standing() game.Standing {
	n := int(s.players)
	st := game.Standing{Scores: make([]int, n), Teams: s.Teams()}
	d := s.Destiny()
	for p := range n {
		if !d.Draw {
			st.Scores[p] = s.Points(p, d.Energy)
		}
	}
	if s.Over() {
		st.Winners = s.Winners()
	}
	return st
}

// seedsHeld counts seat p's seeds of energy e that score: those in its
// supply, and for AJ those he gave up onto unravelled sites.
func (s *State) seedsHeld(p int, e Energy) int {
	n := int(s.seeds[p][e])
	if p == ajSeat && s.aj != ajOff {
		n += int(s.ajSpent[e])
	}
	return n
}
