package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/ai/arena"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// The tools play the tiny test game too in the tests, to show that they
// name no game but in their list.
func init() { hosted = append(hosted, hostedGame{rules: gametest.Tiny}) }

// asLagoon makes a re-executed test binary run as lagoon with the
// arguments it holds (split at spaces), so that lagoon arena can seat
// lagoon bot as an external program.
const asLagoon = "LAGOON_TEST_AS_LAGOON"

func TestMain(m *testing.M) {
	if args := os.Getenv(asLagoon); args != "" {
		os.Exit(run(strings.Fields(args), os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// lagoonBot returns the spec of an external bot that runs lagoon bot with
// the given arguments.
func lagoonBot(t *testing.T, args string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`extern:"%s='bot %s' exec %s"`, asLagoon, args, exe)
}

func runArenaCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	code = run(append([]string{"arena"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestArenaTable(t *testing.T) {
	out, errOut, code := runArenaCmd(t, "-games", "4", "random", "greedy")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Blue Lagoon: 4 games, 2 players, board standard, deals from seed 1", "win share", "95% CI", "Elo", "random", "greedy"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "4/4 games") {
		t.Errorf("no progress bar on stderr: %q", errOut)
	}
}

func TestArenaJSON(t *testing.T) {
	out, errOut, code := runArenaCmd(t, "-json", "-q", "-games", "3", "-players", "3", "-board", "wheels", "random", "easy", "random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("-q still wrote %q", errOut)
	}
	var rep struct {
		Standings []struct {
			Bot   string  `json:"bot"`
			Games int     `json:"games"`
			Share float64 `json:"share"`
		} `json:"standings"`
		Endings struct {
			By map[string]int `json:"by"`
		} `json:"endings"`
		Games []struct {
			Record game.Record `json:"record"`
			Scores []int       `json:"scores"`
			Turns  int         `json:"turns"`
			End    string      `json:"end"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(rep.Games) != 3 || len(rep.Standings) != 3 || rep.Standings[2].Bot != "random #2" {
		t.Fatalf("report %+v", rep)
	}
	for _, g := range rep.Games {
		end, err := g.Record.Replay(bluelagoon.Rules, -1)
		if err != nil {
			t.Fatal(err)
		}
		if !end.Over() || bluelagoon.GameOf(end).Board().Name() != "wheels" {
			t.Errorf("record does not replay to the end of a wheels game")
		}
		if g.End != "over" || g.Turns != end.Turn() {
			t.Errorf("game ended %q after %d turns; its record replays to %d", g.End, g.Turns, end.Turn())
		}
	}
	if !maps.Equal(rep.Endings.By, map[string]int{"over": 3}) {
		t.Errorf("endings %v, want 3 over", rep.Endings.By)
	}
}

func TestArenaBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"random"},
		{"-players", "3", "random", "random"},
		{"-board", "nowhere", "random", "random"},
		{"random", "nonsense"},
		{"-games", "0", "random", "random"},
		{"-timeout", "0s", "random", "random"},
		{"-game", "chess", "random", "random"},
		{"-game", "tiny", "greedy", "random"},
		{"-game", "tiny", "-option", "hand=9", "random", "random"},
		{"-game", "tiny", "-option", "colour=blue", "random", "random"},
		{"-option", "board", "random", "random"},
		{"-game", "tiny", "random", "random", "random", "random", "random"},
	} {
		_, errOut, code := runArenaCmd(t, args...)
		if code != 2 || errOut == "" || strings.Contains(errOut, "arena: arena:") {
			t.Errorf("arena %v: exit %d, stderr %q; want a usage failure (2) that says why, once", args, code, errOut)
		}
	}
}

// writeRun plays a small tournament with -json and writes its report to a
// file in dir.
func writeRun(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, errOut, code := runArenaCmd(t, append([]string{"-json", "-q"}, args...)...)
	if code != 0 {
		t.Fatalf("arena %v: exit %d: %s", args, code, errOut)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestArenaMerge(t *testing.T) {
	dir := t.TempDir()
	a := writeRun(t, dir, "a.json", "-games", "4", "-seed", "1", "random", "greedy")
	b := writeRun(t, dir, "b.json", "-games", "2", "-seed", "3", "random", "greedy")
	whole := writeRun(t, dir, "whole.json", "-games", "6", "-seed", "1", "random", "greedy")

	out, errOut, code := runArenaCmd(t, "-merge", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "Blue Lagoon: 6 games, 2 players, board standard, deals of seeds 1 to 3, each in 2 seat orders, 2 runs"; !strings.Contains(out, want) {
		t.Errorf("merged report lacks %q:\n%s", want, out)
	}

	// Merged as JSON, the runs are the games of the one run over the same
	// deals, deal for deal: the same layouts, seat orders and numbering.
	out, errOut, code = runArenaCmd(t, "-merge", "-json", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var merged, one report
	if err := json.Unmarshal([]byte(out), &merged); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &one); err != nil {
		t.Fatal(err)
	}
	if merged.Seed != 1 || len(merged.Games) != 6 || len(merged.Standings) != 2 {
		t.Fatalf("merged: seed %d, %d games, %d standings", merged.Seed, len(merged.Games), len(merged.Standings))
	}
	wins := 0.0
	for _, s := range merged.Standings {
		wins += s.Wins
		if s.Games != 6 {
			t.Errorf("%s played %d games, want 6", s.Bot, s.Games)
		}
	}
	if wins != 6 {
		t.Errorf("wins add up to %v, want 6", wins)
	}
	for i, g := range merged.Games {
		w := one.Games[i]
		if g.Deal != w.Deal || g.Record.Seed != w.Record.Seed || !slices.Equal(g.Seats, w.Seats) {
			t.Errorf("game %d: deal %d, seed %d, seats %v; the single run has deal %d, seed %d, seats %v",
				i, g.Deal, g.Record.Seed, g.Seats, w.Deal, w.Record.Seed, w.Seats)
		}
	}
}

func TestArenaMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	a := writeRun(t, dir, "a.json", "-games", "2", "-seed", "1", "random", "greedy")
	overlap := writeRun(t, dir, "overlap.json", "-games", "4", "-seed", "1", "random", "greedy")
	other := writeRun(t, dir, "other.json", "-games", "2", "-seed", "9", "greedy", "random")
	garbage := filepath.Join(dir, "garbage.json")
	if err := os.WriteFile(garbage, []byte("{\"bots\": ["), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-merge"}, "no reports given"},
		{[]string{"-merge", a, a}, "the deal of seed 1 is in both"},
		{[]string{"-merge", a, overlap}, "the deal of seed 1 is in both"},
		{[]string{"-merge", a, other}, "is of greedy random"},
		{[]string{"-merge", a, garbage}, "not a report of lagoon arena -json"},
		{[]string{"-merge", a, filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"-merge", "-games", "4", a}, "-games: the runs being merged already fixed it"},
	} {
		out, errOut, code := runArenaCmd(t, c.args...)
		if code == 0 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("arena %v: exit %d, stdout %q, stderr %q; want a failure saying %q", c.args, code, out, errOut, c.want)
		}
	}
}

func TestSeedRanges(t *testing.T) {
	for _, c := range []struct {
		seeds []uint64
		want  string
	}{
		{[]uint64{7}, "7"},
		{[]uint64{1, 2, 3}, "1 to 3"},
		{[]uint64{1, 2, 3, 5, 51, 52}, "1 to 3, 5, 51 to 52"},
	} {
		if got := seedRanges(c.seeds); got != c.want {
			t.Errorf("seedRanges(%v) = %q, want %q", c.seeds, got, c.want)
		}
	}
}

// TestArenaAllForfeits: a bot that cannot play at all loses every game by
// forfeit; the run says so and fails, and the table has no mean score for
// it rather than a zero.
func TestArenaAllForfeits(t *testing.T) {
	out, errOut, code := runArenaCmd(t, "-q", "-games", "2", "random", `extern:"/nonexistent/bot"`)
	if code != 1 || !strings.Contains(errOut, `extern:"/nonexistent/bot" lost every game by forfeit`) {
		t.Errorf("exit %d, stderr %q; want 1 and the bot named", code, errOut)
	}
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		// bot, games, wins, share, low "to" high, mean score, mean margin
		if f := strings.Fields(line); len(f) > 8 && strings.HasPrefix(f[0], "extern:") {
			rows++
			if f[7] != "-" || f[8] != "-" {
				t.Errorf("the forfeiting bot's row %q: want - for its mean score and margin", line)
			}
		}
	}
	if rows != 1 {
		t.Errorf("%d rows for the forfeiting bot in\n%s", rows, out)
	}
}

func TestWholeDeals(t *testing.T) {
	games := []arena.Game{{Deal: 0}, {Deal: 0}, {Deal: 1}, {Deal: 2}, {Deal: 2}}
	var deals []int
	for _, g := range wholeDeals(games, 2) {
		deals = append(deals, g.Deal)
	}
	if want := []int{0, 0, 2, 2}; !slices.Equal(deals, want) {
		t.Errorf("whole deals %v, want %v", deals, want)
	}
}

// TestArenaAnyGame plays tournaments of Tiny, which the arena knows only
// from the tools' table: with an option, the levels, the search and lagoon
// bot seated as an external program, told the game by its environment.
func TestArenaAnyGame(t *testing.T) {
	out, errOut, code := runArenaCmd(t, "-game", "tiny", "-option", "hand=4", "-option", "goal=low", "-q", "-games", "6", "-players", "3",
		"medium", "mcts:50", lagoonBot(t, "-workers 1 random"))
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	if want := "Tiny: 6 games, 3 players, hand 4, goal low, deals from seed 1"; !strings.Contains(out, want) {
		t.Errorf("report lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "forfeit after") {
		t.Errorf("a bot forfeited:\n%s", out)
	}

	dir := t.TempDir()
	a := writeRun(t, dir, "a.json", "-game", "tiny", "-games", "4", "-seed", "1", "random", "easy")
	b := writeRun(t, dir, "b.json", "-game", "tiny", "-games", "2", "-seed", "3", "random", "easy")
	other := writeRun(t, dir, "other.json", "-game", "tiny", "-option", "hand=2", "-games", "2", "-seed", "9", "random", "easy")
	var rep report
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Game != "tiny" || rep.Options["hand"] != "3" || len(rep.Games) != 4 {
		t.Fatalf("report of game %q, options %v, %d games", rep.Game, rep.Options, len(rep.Games))
	}
	for _, g := range rep.Games {
		end, err := g.Record.Replay(gametest.Tiny, -1)
		if err != nil {
			t.Fatal(err)
		}
		if !end.Over() || !slices.Equal(end.Standing().Winners, g.Winners) {
			t.Errorf("deal %d: the record replays to winners %v, reported %v", g.Deal, end.Standing().Winners, g.Winners)
		}
	}
	out, errOut, code = runArenaCmd(t, "-merge", a, b)
	if want := "Tiny: 6 games, 2 players, hand 3, deals of seeds 1 to 3"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("merge: exit %d (%s), report lacks %q:\n%s", code, errOut, want, out)
	}
	if _, errOut, code := runArenaCmd(t, "-merge", a, other); code != 1 || !strings.Contains(errOut, "hand 2") {
		t.Errorf("merging runs of other options: exit %d, stderr %q", code, errOut)
	}
}

// TestArenaMergeOldReports: a report written before there were other
// games (a board, no game) merges as one of Blue Lagoon on that board.
func TestArenaMergeOldReports(t *testing.T) {
	dir := t.TempDir()
	a := writeRun(t, dir, "a.json", "-games", "2", "-seed", "1", "random", "greedy")
	// A report written when Blue Lagoon was the only game: no game, a
	// board, records without theirs, and no turns or endings, which the
	// merge finds by replaying the records.
	var rep map[string]any
	data, err := os.ReadFile(writeRun(t, dir, "new.json", "-games", "2", "-seed", "5", "random", "greedy"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	delete(rep, "game")
	delete(rep, "options")
	delete(rep, "endings")
	rep["board"] = "standard"
	for _, g := range rep["games"].([]any) {
		g := g.(map[string]any)
		delete(g, "turns")
		delete(g, "end")
		rec := g["record"].(map[string]any)
		delete(rec, "game")
		delete(rec, "options")
		rec["board"], rec["first"] = "standard", 0
	}
	old := filepath.Join(dir, "old.json")
	if data, err = json.Marshal(rep); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runArenaCmd(t, "-merge", a, old)
	if want := "Blue Lagoon: 4 games, 2 players, board standard, deals of seeds 1, 5"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d (%s); report lacks %q:\n%s", code, errOut, want, out)
	}
	if want := "ended: 4 over; 0 stopped unfinished, 0 forfeited; turns p50 "; !strings.Contains(out, want) {
		t.Errorf("report lacks %q:\n%s", want, out)
	}
}
