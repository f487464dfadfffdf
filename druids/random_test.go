package druids

import (
	"encoding/binary"
	"hash/fnv"
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
		st, err := newGame(config{Players: 2 + int(seed%3), Set: mustSet("all"), Start: [3]int{-1, -1, -1}, Seed: seed})
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

// TestRandomGamesGolden plays seeded random games of every play set, player
// count and AJ level, and compares a hash of every
// decision's legal moves, the choice and each game's final state with the
// hash recorded: a change to the engine made for speed must not change a
// single list or its order. A change of the rules changes it on purpose;
// then the test prints the new hash to record.
func TestRandomGamesGolden(t *testing.T) {
	const want uint64 = 0x2d29c72ad46bd2f4
	rng := rand.New(rand.NewPCG(5, 6))
	sets := []string{"beginner", "regular", "advanced", "all"}
	h := fnv.New64a()
	var buf [256]game.Move
	word := func(v int64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	for g := range 240 {
		cfg := config{Players: 2 + g%3, Set: mustSet(sets[g%4]), Start: [3]int{-1, -1, -1}, Seed: uint64(g), First: g % 2}
		if g%5 == 4 {
			cfg.Players, cfg.First, cfg.AJ, cfg.AJShrewd = 2, 0, 1+g/5%5, g%2 == 0
		}
		st, err := newGame(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for !st.Over() {
			legal := st.AppendLegal(buf[:0])
			word(int64(len(legal)))
			for _, m := range legal {
				word(int64(m))
			}
			m := legal[rng.IntN(len(legal))]
			word(int64(m))
			st.PlayLegal(m)
			if g%8 == 0 && st.Ply() == 120 {
				// The same position read back from its notation (its
				// masks rebuilt) plays on as the original does.
				back, err := ParseState(st.String())
				if err != nil {
					t.Fatal(err)
				}
				on := *st
				playRandom(t, &on, rand.New(rand.NewPCG(uint64(g), 7)), nil)
				playRandom(t, back, rand.New(rand.NewPCG(uint64(g), 7)), nil)
				if back.String() != on.String() {
					t.Fatalf("a state read back plays on otherwise:\n%s\n%s", back, &on)
				}
				h.Write([]byte(on.String()))
			}
		}
		h.Write([]byte(st.String()))
	}
	if got := h.Sum64(); got != want {
		t.Errorf("hash of the random games %#x, recorded %#x", got, want)
	}
}
