package laguna

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "write the original boards again from their seeds")

// boardFile writes a board as the data file keeps it: a header saying how
// it is drawn, then the board.
func boardFile(name string, seed uint64, d Density, b *Board) string {
	return fmt.Sprintf("; Laguna, original board %q: Lagoon's own, not the printed board.\n"+
		"; Drawn by laguna.Generate(%d, %+v) and checked fair (laguna.Check).\n"+
		"; . water  # reef  ^ > v < current arrows  @ volcano  A-H islands  a-h their landing lines\n%s",
		name, seed, d, b.String())
}

// TestOriginalBoards draws the original boards again from their seeds and
// compares them with the data kept; -update writes the data.
func TestOriginalBoards(t *testing.T) {
	for _, c := range []struct {
		name string
		seed uint64
		d    Density
		text string
	}{{"easy", EasySeed, EasyDensity, easyText}, {"hard", HardSeed, HardDensity, hardText}} {
		b, _, err := Generate(c.seed, c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := boardFile(c.name, c.seed, c.d, b)
		if *update {
			if err := os.WriteFile("boards/"+c.name+".txt", []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if c.text != want {
			t.Errorf("board %s: the data differs from what its seed draws; run go test -run TestOriginalBoards -update", c.name)
		}
	}
}
