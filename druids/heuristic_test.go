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
		st, err := NewState(Config{Players: 2, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: uint64(g)})
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
