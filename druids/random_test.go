package druids

import (
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// playRandom plays a game to its end with uniformly random choices and
// returns the number of decisions.
func playRandom(tb testing.TB, st *State, rng *rand.Rand, check func(*State)) int {
	var buf [256]game.Move
	n := 0
	for !st.Over() {
		legal := st.AppendLegal(buf[:0])
		if len(legal) == 0 {
			tb.Fatalf("no legal moves: %s", st)
		}
		st.PlayLegal(legal[rng.IntN(len(legal))])
		n++
		if check != nil {
			check(st)
		}
		if n > 200000 {
			tb.Fatalf("no end: %s", st)
		}
	}
	return n
}

func TestRandomGamesStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	total, turns := 0, 0
	used := map[int]int{}
	for seed := range uint64(200) {
		st, err := NewState(Config{Players: 2 + int(seed%3), Set: mustSet("all"), Start: [3]int{-1, -1, -1}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		total += playRandom(t, st, rng, func(s *State) {
			if s.depth > 0 {
				used[int(s.stack[s.depth-1].prog)]++
			}
		})
		turns += st.Turn()
	}
	t.Logf("decisions a game %d, turns %d", total/200, turns/200)
	for p := range numProgs {
		if p < NumSites && !Implemented(p) {
			continue
		}
		if used[p] == 0 && len(programs[p]) > 0 {
			name := ""
			if p < NumSites {
				name = Sites[p].ID
			}
			t.Logf("program %d %s never ran", p, name)
		}
	}
}

func mustSet(name string) []int {
	s, err := ParseSet(name)
	if err != nil {
		panic(err)
	}
	return s
}
