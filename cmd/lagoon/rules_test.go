package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// rules runs lagoon rules with the given arguments and input.
func rules(t *testing.T, input string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"rules"}, args...), strings.NewReader(input), &out, &errb)
	return out.String(), errb.String(), code
}

func newState(t *testing.T, board string, players int, seed uint64) *bluelagoon.Game {
	t.Helper()
	st, err := bluelagoon.New(game.Setup{Players: players, Seed: seed, Options: map[string]string{"board": board}})
	if err != nil {
		t.Fatal(err)
	}
	return &st.Game
}

func TestRulesNew(t *testing.T) {
	out, _, code := rules(t, "", "new", "-board", "standard", "-players", "3", "-seed", "7")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := newState(t, "standard", 3, 7).String() + "\n"
	if out != want {
		t.Errorf("new printed\n%s\nwant\n%s", out, want)
	}
	if _, errOut, code := rules(t, "", "new", "-players", "5"); code != 2 || !strings.Contains(errOut, "5 players") {
		t.Errorf("5 players: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := rules(t, "", "new", "-board", "atlantis"); code != 2 || !strings.Contains(errOut, "atlantis") {
		t.Errorf("unknown board: exit %d, stderr %q", code, errOut)
	}
	if out, errOut, code := rules(t, "", "new", "standard"); code != 2 || out != "" || !strings.Contains(errOut, "-board") {
		t.Errorf("a board given without -board: exit %d, stdout %q, stderr %q; want 2 and a pointer to -board", code, out, errOut)
	}
}

func TestRulesNewBoardFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.txt")
	b, _ := bluelagoon.BoardByName("wheels")
	if err := os.WriteFile(path, []byte(b.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := rules(t, "", "new", "-board", path, "-seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := newState(t, "wheels", 2, 1).String() + "\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestRulesMoves(t *testing.T) {
	g := newState(t, "standard", 2, 1)
	g.ApplyLegal(bluelagoon.Move{Piece: bluelagoon.Settler, At: bluelagoon.Coord{Row: 2, Col: 2}})
	in := g.String() + "\nnot a state\n\n" + g.String() + "\n"
	out, _, code := rules(t, in, "moves")
	if code != 1 {
		t.Errorf("exit %d, want 1 (a line failed)", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("got %d output lines for 4 input lines:\n%s", len(lines), out)
	}
	var want []string
	for _, m := range g.LegalMoves() {
		want = append(want, m.String())
	}
	for _, i := range []int{0, 3} {
		var got []string
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("line %d: moves %v, want %v", i, got, want)
		}
	}
	for _, i := range []int{1, 2} {
		var e map[string]string
		if err := json.Unmarshal([]byte(lines[i]), &e); err != nil || e["error"] == "" {
			t.Errorf("line %d: %q is not a JSON error", i, lines[i])
		}
	}
}

func TestRulesScore(t *testing.T) {
	g := newState(t, "standard", 3, 2)
	for !g.Over() && g.Phase() == bluelagoon.Exploration {
		g.ApplyLegal(g.LegalMove(0))
	}
	out, _, code := rules(t, g.String()+"\n", "score")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	wantKeys := `{"islands":[`
	if !strings.HasPrefix(out, wantKeys) {
		t.Errorf("output %q does not start with %s", out, wantKeys)
	}
	var got map[string][]int
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	s := g.Scores()
	for p := range 3 {
		for key, v := range map[string]int{"islands": s[p].Islands, "links": s[p].Links, "majorities": s[p].Majorities,
			"resources": s[p].Resources, "set": s[p].Set, "statuettes": s[p].Statuettes, "total": s[p].Total} {
			if len(got[key]) != 3 || got[key][p] != v {
				t.Errorf("%s for player %d: got %v, want %d", key, p, got[key], v)
			}
		}
	}
}

func TestRulesApply(t *testing.T) {
	g := newState(t, "standard", 2, 5)
	state := g.String()
	m := g.LegalMove(3)
	in := state + "\t" + m.String() + "\n" + // legal
		state + "\tT 0,4\n" + // a village on the sea
		state + "\tX 1,1\n" + // malformed move
		state + "\n" // no tab
	out, _, code := rules(t, in, "apply")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("got %d lines:\n%s", len(lines), out)
	}
	g.ApplyLegal(m)
	if lines[0] != g.String() {
		t.Errorf("apply gave\n%s\nwant\n%s", lines[0], g.String())
	}
	for i, want := range []string{"", "village cannot be placed on the sea", "a move starts with S", "expected a state, a tab"} {
		if i > 0 && !(strings.HasPrefix(lines[i], "error: ") && strings.Contains(lines[i], want)) {
			t.Errorf("line %d: %q, want an error about %q", i, lines[i], want)
		}
	}
}

// The last exploration move with -seed lays out the settlement tokens from
// that seed.
func TestRulesApplySeed(t *testing.T) {
	g := newState(t, "sides", 2, 9)
	for g.Phase() == bluelagoon.Exploration {
		before := *g
		m := g.LegalMove(0)
		g.ApplyLegal(m)
		if g.Phase() == bluelagoon.Exploration {
			continue
		}
		for _, seed := range []uint64{1, 2} {
			want := before
			want.Reseed(seed)
			want.ApplyLegal(m)
			out, _, code := rules(t, before.String()+"\t"+m.String()+"\n", "apply", "-seed", map[uint64]string{1: "1", 2: "2"}[seed])
			if code != 0 || out != want.String()+"\n" {
				t.Errorf("seed %d: exit %d, got\n%s\nwant\n%s", seed, code, out, want.String())
			}
		}
	}
}

func TestRulesOverAndCheck(t *testing.T) {
	g := newState(t, "standard", 2, 1)
	done := g.Clone()
	for !done.Over() {
		done.ApplyLegal(done.LegalMove(0))
	}
	in := g.String() + "\n" + done.String() + "\na 13 2; c 0 E;\n"
	out, _, code := rules(t, in, "over")
	if code != 1 || !strings.HasPrefix(out, "false\ntrue\nerror: ") {
		t.Errorf("over: exit %d, output %q", code, out)
	}
	out, _, code = rules(t, in, "check")
	if code != 1 || !strings.HasPrefix(out, "ok\nok\nerror: ") {
		t.Errorf("check: exit %d, output %q", code, out)
	}
	if _, _, code := rules(t, g.String()+"\n", "check"); code != 0 {
		t.Errorf("check of a good state: exit %d", code)
	}
}

func TestRulesShowGolden(t *testing.T) {
	g := newState(t, "standard", 3, 4)
	for range 20 {
		g.ApplyLegal(g.LegalMove(g.NumLegalMoves() / 2))
	}
	out, _, code := rules(t, g.String()+"\n", "show")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.HasSuffix(out, "\nend\n") {
		t.Errorf("picture not ended by a line \"end\"")
	}
	golden := filepath.Join("testdata", "show.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("show output differs from %s (run with -update after checking):\n%s", golden, out)
	}
}

func TestRulesUsage(t *testing.T) {
	if _, errOut, code := rules(t, "", "frobnicate"); code != 2 || !strings.Contains(errOut, "unknown verb") {
		t.Errorf("unknown verb: exit %d, %q", code, errOut)
	}
	if _, _, code := rules(t, ""); code != 2 {
		t.Errorf("no verb: exit %d", code)
	}
	if _, _, code := rules(t, "", "moves", "-nope"); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
	// A line too long is an error on its own output line, and the lines
	// after it are still read: one output for each input line.
	state := newState(t, "standard", 2, 1).String()
	for _, input := range []string{
		state + "\n" + strings.Repeat("a", maxLine+10) + "\n" + state + "\n",
		state + "\r\n" + strings.Repeat("a", maxLine+1) + "\r\n" + state,
	} {
		out, _, code := rules(t, input, "check")
		if want := "ok\nerror: line longer than 1048576 bytes\nok\n"; code != 1 || out != want {
			t.Errorf("overlong line: exit %d, output %q; want exit 1 and %q", code, out, want)
		}
	}
	if out, _, code := rules(t, state+"\n"+strings.Repeat("a", maxLine)+"\n", "check"); code != 1 || strings.Contains(out, "longer") {
		t.Errorf("a line of exactly %d bytes: exit %d, output %.60q; want it read, and refused as a state", maxLine, code, out)
	}
	// show: a picture ends with a line "end", and so does an error.
	out, _, code := rules(t, "nonsense\n"+state+"\n", "show")
	if first, rest, _ := strings.Cut(out, "\nend\n"); code != 1 || !strings.HasPrefix(first, "error: ") || strings.Contains(first, "\n") || !strings.HasPrefix(rest, "2 players") || !strings.HasSuffix(rest, "\nend\n") {
		t.Errorf("show of a bad line and a state: exit %d, output\n%s", code, out)
	}
}

// A program that drives lagoon rules through a pipe writes a line and waits
// for its answer before it writes the next: each answer must come out
// while the input is still open.
func TestRulesAnswersEachLine(t *testing.T) {
	g := newState(t, "standard", 2, 1)
	for _, verb := range []string{"moves", "check", "show"} {
		t.Run(verb, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan int, 1)
			go func() {
				done <- run([]string{"rules", verb}, inR, outW, io.Discard)
				outW.Close()
			}()
			answers := bufio.NewReader(outR)
			readAnswer := func() string {
				t.Helper()
				got := make(chan string, 1)
				go func() {
					var b strings.Builder
					for {
						line, err := answers.ReadString('\n')
						b.WriteString(line)
						if err != nil || verb != "show" || line == "end\n" {
							got <- b.String()
							return
						}
					}
				}()
				select {
				case a := <-got:
					return a
				case <-time.After(10 * time.Second):
					t.Fatalf("no answer to a line while the input stays open")
					return ""
				}
			}
			pos := *g
			for range 3 {
				if _, err := io.WriteString(inW, pos.String()+"\n"); err != nil {
					t.Fatal(err)
				}
				a := readAnswer()
				if a == "" || strings.HasPrefix(a, "error") || strings.HasPrefix(a, "{") {
					t.Fatalf("answer %q", a)
				}
				pos.ApplyLegal(pos.LegalMove(0))
			}
			if _, err := io.WriteString(inW, "nonsense\n"); err != nil {
				t.Fatal(err)
			}
			if a := readAnswer(); !strings.Contains(a, "error") {
				t.Fatalf("answer to nonsense %q", a)
			} else if verb == "show" && !strings.HasSuffix(a, "\nend\n") {
				t.Fatalf("an error of show is not ended by \"end\": %q", a)
			}
			inW.Close()
			if code := <-done; code != 1 {
				t.Fatalf("exit %d after a line that failed", code)
			}
		})
	}
}
