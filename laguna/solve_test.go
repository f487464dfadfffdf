package laguna

import (
	"container/heap"
	"flag"
	"testing"
)

func TestSoloPar(t *testing.T) {
	for _, board := range BoardNames() {
		for level := range 4 {
			for seed := uint64(1); seed <= 3; seed++ {
				s, _ := newGame(1, options{Board: BoardByName(board), Puzzle: level}, seed)
				par, ok := SoloPar(s, 200000)
				if !ok || par <= 0 {
					t.Fatalf("%s level %d seed %d: par %d %v", board, level, seed, par, ok)
				}
				// Placed at an island and loaded, the par is no less.
				c := *s
				legal := c.AppendLegal(nil)
				mustPlay(t, &c, MoveText(legal[len(legal)/2]))
				for c.rafts[0].aboard() < MinAboard {
					mustPlay(t, &c, MoveText(c.AppendLegal(nil)[0]))
				}
				if placed, ok := SoloPar(&c, 200000); !ok || placed < par {
					t.Fatalf("%s level %d seed %d: par %d, but %d once placed at %v", board, level, seed, par, placed, Square(c.rafts[0].at))
				}
			}
		}
	}
	// Not a solo game: no par.
	if _, ok := SoloPar(position(t, Frame(), options{}, "H f16 RY....", far), 10); ok {
		t.Fatal("a par for a game of two")
	}
}

var wholeSearch = flag.Bool("whole", false, "compare the par with the whole search on more puzzles (slow)")

// TestParAgainstTheWholeSearch solves puzzles again with the search that
// may revisit islands at will (raft position by position, any sharing at
// any island): the par is the same. One puzzle by default (3 s); -whole
// adds three more (easy 2 2, hard 2 2 and easy 0 4 agree too).
func TestParAgainstTheWholeSearch(t *testing.T) {
	cases := []struct {
		board string
		level int
		seed  uint64
	}{{"hard", 0, 4}}
	if *wholeSearch {
		cases = append(cases, []struct {
			board string
			level int
			seed  uint64
		}{{"easy", 2, 2}, {"hard", 2, 2}, {"easy", 0, 4}}...)
	}
	for _, c := range cases {
		s, _ := newGame(1, options{Board: BoardByName(c.board), Puzzle: c.level}, c.seed)
		par, ok := SoloPar(s, 200000)
		whole, wok := wholePar(s, 3000000)
		if !ok || !wok || par != whole {
			t.Errorf("%+v: par %d %v, the whole search %d %v", c, par, ok, whole, wok)
		}
	}
}

// wholePar is the search without the restriction: step by step, any
// sharing at any island docked at.
func wholePar(s *State, budget int) (int, bool) {
	sv := newSolver(s)
	sv.placings(s)
	for expanded := 0; sv.q.Len() > 0 && expanded < budget; expanded++ {
		it := heap.Pop(sv.q).(parItem)
		st, g := it.st, it.g
		if sv.seen[st] < g {
			continue
		}
		if st.isl == sv.target {
			return g, true
		}
		m := sv.graphs[st.o][st.aboard()]
		for d := range Dir(4) {
			if m.next[st.at]>>d&1 != 0 {
				next := st
				tt, _ := step(st.o, Square(st.at), d)
				next.at = int16(tt)
				sv.push(next, g+1)
			}
		}
		if i := m.dock[st.at]; i >= 0 && i < NumIslands {
			sv.splits(st, int(i), func(next parState) {
				if sv.graphs[next.o][next.aboard()].dock[next.at] == i {
					sv.push(next, g)
				}
			})
		}
	}
	return 0, false
}

// TestSoloPlanPlays plays the plan SoloPlan gives: the game ends solved,
// in no fewer steps than the par (a few more where, before a first step,
// a pearl may not be moved off a reef or an arrow).
func TestSoloPlanPlays(t *testing.T) {
	for _, board := range BoardNames() {
		for level := range 4 {
			for seed := uint64(1); seed <= 3; seed++ {
				s, _ := newGame(1, options{Board: BoardByName(board), Puzzle: level}, seed)
				moves, par, ok := SoloPlan(s, 200000)
				if !ok {
					t.Fatalf("%s level %d seed %d: no plan (par %d)", board, level, seed, par)
				}
				for _, m := range moves {
					if err := s.Play(m); err != nil {
						t.Fatalf("%s level %d seed %d: %s: %v", board, level, seed, MoveText(m), err)
					}
				}
				if !s.Over() || int(s.moved) < par {
					t.Fatalf("%s level %d seed %d: after the plan, over %v in %d steps, par %d", board, level, seed, s.Over(), s.moved, par)
				}
				t.Logf("%s, puzzle %d, seed %d: %d steps, par %d", board, level, seed, s.moved, par)
			}
		}
	}
}
