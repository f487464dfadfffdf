package main

import (
	"context"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/extern"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

func runBotCmd(t *testing.T, input string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	code = run(append([]string{"bot"}, args...), strings.NewReader(input), &out, &errOut)
	return out.String(), errOut.String(), code
}

// botStates returns states from a seeded game, one from each phase, in the
// notation with CRLF and LF line ends.
func botStates(t *testing.T) ([]*bluelagoon.Game, string) {
	t.Helper()
	g := newState(t, "standard", 2, 3)
	var states []*bluelagoon.Game
	var input strings.Builder
	for turn := 0; !g.Over(); turn++ {
		if turn == 0 || turn == 40 || (g.Phase() == bluelagoon.Settlement && len(states) == 2) {
			states = append(states, g.Clone())
			input.WriteString(g.String())
			if len(states) == 2 {
				input.WriteString("\r")
			}
			input.WriteString("\n")
		}
		g.ApplyLegal(g.LegalMove(turn * 7 % g.NumLegalMoves()))
	}
	if len(states) != 3 {
		t.Fatalf("found %d states, want 3", len(states))
	}
	return states, input.String()
}

func TestBotAnswersEachState(t *testing.T) {
	states, input := botStates(t)
	for _, spec := range []string{"greedy", "mcts:200"} {
		out, errOut, code := runBotCmd(t, input, spec)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", spec, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(states) {
			t.Fatalf("%s: %d answers to %d states:\n%s", spec, len(lines), len(states), out)
		}
		for i, line := range lines {
			st := bluelagoon.StateOf(states[i])
			m, err := st.ParseMove(line)
			if err != nil {
				t.Fatalf("%s: answer %d %q: %v", spec, i+1, line, err)
			}
			if err := st.Play(m); err != nil {
				t.Errorf("%s: answer %d: %v", spec, i+1, err)
			}
		}
	}
}

func TestBotFailures(t *testing.T) {
	states, _ := botStates(t)
	input := states[0].String() + "\nnot a state\n" + states[1].String() + "\n"
	out, errOut, code := runBotCmd(t, input, "greedy")
	if code != 1 || !strings.Contains(errOut, "line 2") {
		t.Errorf("a bad state: exit %d, stderr %q; want exit 1 naming line 2", code, errOut)
	}
	if n := strings.Count(out, "\n"); n != 1 {
		t.Errorf("answered %d lines before the bad one, want 1:\n%s", n, out)
	}

	over := states[2].Clone()
	for !over.Over() {
		over.ApplyLegal(over.LegalMove(0))
	}
	if _, errOut, code := runBotCmd(t, over.String()+"\n", "greedy"); code != 1 || errOut == "" {
		t.Errorf("a finished game: exit %d, stderr %q; want exit 1 and why", code, errOut)
	}
	if _, errOut, code := runBotCmd(t, "", "grandmaster"); code != 2 || !strings.Contains(errOut, "grandmaster") {
		t.Errorf("an unknown bot: exit %d, stderr %q; want exit 2 naming it", code, errOut)
	}
	if _, _, code := runBotCmd(t, "", "greedy", "random"); code != 2 {
		t.Errorf("two bots: exit %d, want 2", code)
	}
	if _, _, code := runBotCmd(t, "", "-workers", "-1", "greedy"); code != 2 {
		t.Errorf("-workers -1: exit %d, want 2", code)
	}
}

// TestBotWorkers: with -workers and -seed, lagoon bot searches as the
// in-process bot with the same options does, move for move, so two builds
// can be compared like with like.
func TestBotWorkers(t *testing.T) {
	states, input := botStates(t)
	bot, err := ai.NewWith(hosted[0].bots(), "mcts:300", ai.Options{Seed: 5, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, g := range states {
		st := bluelagoon.StateOf(g)
		m, err := bot.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		want.WriteString(st.MoveText(m) + "\n")
	}
	out, errOut, code := runBotCmd(t, input, "-workers", "1", "-seed", "5", "mcts:300")
	if code != 0 || out != want.String() {
		t.Errorf("lagoon bot -workers 1 -seed 5 mcts:300: exit %d (%s), answers\n%s; the in-process bot's\n%s", code, errOut, out, want.String())
	}
}

// tinyStates returns states of a game of Tiny, through decisions of every
// kind, one a line.
func tinyStates(t *testing.T) ([]game.State, string) {
	t.Helper()
	st, err := gametest.Tiny.NewGame(game.Setup{Players: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var states []game.State
	var input strings.Builder
	for k := 0; !st.Over(); k++ {
		if k%3 == 0 {
			states = append(states, st.Clone())
			input.WriteString(st.String() + "\n")
		}
		moves := game.Legal(st)
		st.Play(moves[k%len(moves)])
	}
	return states, input.String()
}

// TestBotAnyGame: lagoon bot plays Tiny, named by -game or, as lagoon
// arena seats a program, by the environment.
func TestBotAnyGame(t *testing.T) {
	states, input := tinyStates(t)
	check := func(how, out, errOut string, code int) {
		t.Helper()
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != 0 || len(lines) != len(states) {
			t.Fatalf("%s: exit %d (%s), %d answers to %d states", how, code, errOut, len(lines), len(states))
		}
		for i, line := range lines {
			m, err := states[i].ParseMove(line)
			if err == nil {
				err = states[i].Clone().Play(m)
			}
			if err != nil {
				t.Errorf("%s: answer %d %q: %v", how, i+1, line, err)
			}
		}
	}
	out, errOut, code := runBotCmd(t, input, "-game", "tiny", "mcts:100")
	check("-game tiny", out, errOut, code)
	t.Setenv(extern.GameEnv, "tiny")
	out, errOut, code = runBotCmd(t, input, "random")
	check(extern.GameEnv+"=tiny", out, errOut, code)
	// -game wins over the environment.
	if _, errOut, code := runBotCmd(t, input, "-game", "bluelagoon", "random"); code != 1 || !strings.Contains(errOut, "line 1") {
		t.Errorf("Tiny's states read as Blue Lagoon's: exit %d, stderr %q; want 1 and the line", code, errOut)
	}
	if _, errOut, code := runBotCmd(t, "", "-game", "chess", "random"); code != 2 || !strings.Contains(errOut, `unknown game "chess"`) {
		t.Errorf("an unknown game: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runBotCmd(t, "", "-game", "tiny", "greedy"); code != 2 || !strings.Contains(errOut, "greedy") {
		t.Errorf("Blue Lagoon's bot for Tiny: exit %d, stderr %q", code, errOut)
	}
}
