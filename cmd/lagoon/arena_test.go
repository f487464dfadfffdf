package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

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
	for _, want := range []string{"4 games, 2 players, board standard", "win share", "95% CI", "Elo", "random", "greedy"} {
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
		Games []struct {
			Record bluelagoon.Record `json:"record"`
			Scores []int             `json:"scores"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(rep.Games) != 3 || len(rep.Standings) != 3 || rep.Standings[2].Bot != "random #2" {
		t.Fatalf("report %+v", rep)
	}
	for _, g := range rep.Games {
		end, err := g.Record.Replay(-1)
		if err != nil {
			t.Fatal(err)
		}
		if !end.Over() || end.Board().Name() != "wheels" {
			t.Errorf("record does not replay to the end of a wheels game")
		}
	}
}

func TestArenaBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"random"},
		{"-players", "3", "random", "random"},
		{"-board", "nowhere", "random", "random"},
		{"random", "nonsense"},
		{"-games", "0", "random", "random"},
	} {
		_, errOut, code := runArenaCmd(t, args...)
		if code == 0 || errOut == "" {
			t.Errorf("arena %v: exit %d, stderr %q; want a failure that says why", args, code, errOut)
		}
	}
}
