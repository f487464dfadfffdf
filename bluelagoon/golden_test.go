package bluelagoon_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

var update = flag.Bool("update", false, "rewrite the golden initial states under testdata/initial (testdata/boards holds the rules' own board files and is never rewritten)")

// TestBoardNotation checks that each built-in board prints byte for byte as
// its file in the rules (copied to testdata/boards, one line and a newline),
// and that reading the file gives the built-in board back.
func TestBoardNotation(t *testing.T) {
	names := bluelagoon.BoardNames()
	if want := []string{"standard", "wheels", "face", "sides", "space_invaders"}; fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("BoardNames() = %v, want %v", names, want)
	}
	if bluelagoon.StandardBoard().Name() != "standard" {
		t.Errorf("StandardBoard is %q", bluelagoon.StandardBoard().Name())
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "boards", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			b, err := bluelagoon.BoardByName(name)
			if err != nil {
				t.Fatal(err)
			}
			if got := []byte(b.String() + "\n"); !bytes.Equal(got, want) {
				t.Errorf("board %s prints as\n%s\nwant\n%s", name, got, want)
			}
			parsed, err := bluelagoon.ParseBoard(string(bytes.TrimSuffix(want, []byte("\n"))))
			if err != nil {
				t.Fatal(err)
			}
			if parsed.Name() != name || parsed.String() != b.String() {
				t.Errorf("reading %s.txt gives board %q:\n%s", name, parsed.Name(), parsed)
			}
			if byName, err := bluelagoon.BoardFromText(name); err != nil || byName != b {
				t.Errorf("BoardFromText(%q) = %v, %v; want the board itself", name, byName, err)
			}
			if byText, err := bluelagoon.BoardFromText(b.String()); err != nil || byText != b {
				t.Errorf("BoardFromText of its notation = %v, %v; want the board itself", byText, err)
			}
		})
	}
	if _, err := bluelagoon.BoardByName("atlantis"); err == nil {
		t.Error("BoardByName of an unknown board succeeded")
	}
}

// TestInitialStates compares the initial state of a seeded game on every
// board for 2, 3 and 4 players with its golden file: the notation and the
// seeded token layout must not change from one version to the next.
func TestInitialStates(t *testing.T) {
	for _, name := range bluelagoon.BoardNames() {
		b, _ := bluelagoon.BoardByName(name)
		for players := 2; players <= 4; players++ {
			file := filepath.Join("testdata", "initial", fmt.Sprintf("%s-%dp.txt", name, players))
			g := newGame(t, b, players, 7, players-1)
			got := []byte(g.String() + "\n")
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update to write the golden files)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: initial state\n%s\nwant\n%s", file, got, want)
			}
			back, err := bluelagoon.ParseState(string(bytes.TrimSuffix(want, []byte("\n"))))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if back.String() != g.String() {
				t.Errorf("%s does not read back to the same state", file)
			}
			// Same seed, same layout; another seed, another layout.
			again := newGame(t, b, players, 7, players-1)
			other := newGame(t, b, players, 8, players-1)
			if again.String() != g.String() || other.String() == g.String() {
				t.Errorf("%s: the seed does not decide the layout", file)
			}
		}
	}
}
