package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runBoardsCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	code = run(append([]string{"boards"}, args...), strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// TestBoardsCheck: lagoon boards check passes Laguna's original boards and
// a Blue Lagoon board in the notation, and refuses a Laguna board with an
// arrow into an island and a Blue Lagoon board cut short, saying why, with
// exit status 1.
func TestBoardsCheck(t *testing.T) {
	dir := t.TempDir()
	easy, err := os.ReadFile(filepath.Join("..", "..", "laguna", "boards", "easy.txt"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// An arrow on the square before island A's first row, pointing into it.
	bad := strings.Replace(string(easy), "\n...#.AAA#", "\n...#>AAA#", 1)
	if bad == string(easy) {
		t.Fatal("the easy board's first row is not as the test expects")
	}
	good, wrong := write("easy.txt", string(easy)), write("bad.txt", bad)
	bl := write("standard.txt", newState(t, "standard", 2, 3).String()+"\n")
	blShort := write("short.txt", "a 13 2; c 0 E; i 6 0,0;")

	out, errOut, code := runBoardsCmd(t, "", "check", good, bl)
	if code != 0 || out != good+": ok\n"+bl+": ok\n" {
		t.Errorf("good boards: exit %d, %q (%s)", code, out, errOut)
	}
	out, _, code = runBoardsCmd(t, "", "check", good, wrong, blShort)
	for _, want := range []string{good + ": ok\n", wrong + ": not a good board of laguna:\n  board: the arrow at e1 points off the board or into land\n", blShort + ": not a good board of bluelagoon:"} {
		if !strings.Contains(out, want) {
			t.Errorf("bad boards: the report lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("bad boards: exit %d, want 1", code)
	}
	// Standard input, and a game named: a Blue Lagoon board is not Laguna's.
	if out, _, code := runBoardsCmd(t, string(easy), "check", "-"); code != 0 || out != "-: ok\n" {
		t.Errorf("standard input: exit %d, %q", code, out)
	}
	if out, _, code := runBoardsCmd(t, "", "check", "-game", "laguna", bl); code != 1 || !strings.Contains(out, "not a good board of laguna") {
		t.Errorf("Blue Lagoon's board as Laguna's: exit %d, %q", code, out)
	}
	if out, _, code := runBoardsCmd(t, "", "check", filepath.Join(dir, "none.txt")); code != 1 || !strings.Contains(out, "no such file") {
		t.Errorf("a missing file: exit %d, %q", code, out)
	}
	for _, args := range [][]string{nil, {"check"}, {"list"}, {"check", "-game", "chess", good}} {
		if _, errOut, code := runBoardsCmd(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 and why", args, code, errOut)
		}
	}
}
