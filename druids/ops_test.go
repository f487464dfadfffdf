package druids

import "testing"

func TestOpNames(t *testing.T) {
	seen := map[string]opCode{}
	for c := range numOps {
		name := c.String()
		if name == "" {
			t.Errorf("op %d has no name", c)
		}
		if d, ok := seen[name]; ok {
			t.Errorf("ops %d and %d are both %q", d, c, name)
		}
		seen[name] = c
	}
}

// The state notation writes the four counting registers of a frame in one
// column: the one its program counts with at its step.
func TestCountColumn(t *testing.T) {
	for _, c := range []struct {
		name    string
		prog    int
		pc      uint8
		counter counter
	}{
		{"explore, before the side", progExplore, 2, countSide},
		{"explore, moving in", progExplore, 3, countSide},
		{"explore, done", progExplore, 5, countSide},
		{"Fork of Destiny", site("12A"), 1, countSide},
		{"summon", progSummon, 1, countSummoned},
		{"Song of Seeds, giving up", siteSongbird, 0, countGiven},
		{"Song of Seeds, refreshing", siteSongbird, 1, countLeft},
		{"Awakening Portal", progPortal, 0, countLeft},
		{"move", progMove, 1, countNothing},
		{"unravel, done", progUnravel, 2, countNothing},
	} {
		f := frame{prog: uint8(c.prog), pc: c.pc}
		if got := f.counter(); got != c.counter {
			t.Errorf("%s: counter %d, want %d", c.name, got, c.counter)
		}
		for n := -1; n <= maxCount[c.counter]+1; n++ {
			g := f
			ok := g.setCount(n)
			if want := n >= 0 && n <= maxCount[c.counter]; ok != want {
				t.Errorf("%s: setCount(%d) %v, want %v", c.name, n, ok, want)
			}
			if ok && g.count() != n {
				t.Errorf("%s: count %d after setCount(%d)", c.name, g.count(), n)
			}
		}
	}
}
