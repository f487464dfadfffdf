package druids

import (
	"math/rand/v2"
	"testing"
)

// The heuristic player beats random players most of the time, and never
// changes the state it is asked about.
func TestHeuristicBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	wins, games := 0.0, 20
	for g := range games {
		st, err := newGame(config{Players: 2, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		smart := g % 2
		for !st.Over() {
			if st.ToMove() == smart {
				before := st.String()
				m := st.HeuristicMove(rng)
				if st.String() != before {
					t.Fatal("the heuristic changed the state")
				}
				if err := st.Play(m); err != nil {
					t.Fatal(err)
				}
				continue
			}
			legal := st.AppendLegal(nil)
			st.PlayLegal(legal[rng.IntN(len(legal))])
		}
		w := st.Winners()
		for _, p := range w {
			if p == smart {
				wins += 1 / float64(len(w))
			}
		}
	}
	t.Logf("heuristic won %.1f of %d against random", wins, games)
	if wins < float64(games)*0.75 {
		t.Fatalf("heuristic won only %.1f of %d", wins, games)
	}
}

// The heuristic reads destiny: of a drawn tile's two sides it lays the one
// whose energy, dominating, scores its seeds; and it unravels the site
// whose removal turns destiny its way, where ending the turn would leave
// the other seat's energy dominating.
func TestHeuristicReadsDestiny(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := pos(t, 2, line("1A 14A 21A")) // one site of each energy
	onlyInBag(s, 19)                   // 19A Elemeen, 19B Vowelon
	put(t, s, "1E@1A", "2E@1A")
	s.seeds[0] = [3]uint8{0, 5, 0}
	s.seeds[1] = [3]uint8{5, 0, 0}
	play(t, s, "explore", "1E@1A")
	if m := s.HeuristicMove(rng); s.MoveText(m) != "side B" {
		t.Errorf("laid %s, want side B (Vowelon, its seeds' energy)", s.MoveText(m))
	}
	if a, b := evaluateAfter(t, s, "side A", "9,16"), evaluateAfter(t, s, "side B", "9,16"); a >= b {
		t.Errorf("Evaluate: side A %.2f, side B %.2f", a, b)
	}

	// Elemeen leads 2 to 1 to 1; unravelling 21B (Elemeen, a leaf) ties
	// the three, and the seeds in the supplies then make Vowelon dominate.
	s = pos(t, 2, line("21B 1A 14A 15A"))
	onlyInBag(s, 19)
	put(t, s, "1E@21B", "2E@1A")
	s.seeds[0] = [3]uint8{0, 5, 3}
	s.seeds[1] = [3]uint8{4, 0, 0}
	if got := s.MoveText(s.HeuristicMove(rng)); got != "unravel" {
		t.Errorf("chose %s at the menu, want unravel (legal %v)", got, legalText(s))
	}
	if a, b := evaluateAfter(t, s, "end"), evaluateAfter(t, s, "unravel", "1E@21B"); a >= b {
		t.Errorf("Evaluate: ending %.2f, unravelling %.2f", a, b)
	}
}

// evaluateAfter is seat 0's Evaluate after moves played on a copy of s.
func evaluateAfter(t *testing.T, s *State, moves ...string) float64 {
	t.Helper()
	c := *s
	play(t, &c, moves...)
	return c.Evaluate(0)
}
