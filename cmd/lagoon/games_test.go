package main

import (
	"bufio"
	"io"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// TestArenaDruidsAndLaguna: lagoon arena plays whole games of the two
// games between random bots, and between their own bots.
func TestArenaDruidsAndLaguna(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-game", "druids", "-games", "2", "random", "random"}, "Lagoon: Land of Druids: 2 games, 2 players"},
		{[]string{"-game", "laguna", "-games", "2", "random", "random"}, "Laguna: 2 games, 2 players, board easy"},
		{[]string{"-game", "druids", "-games", "2", "-players", "3", "easy", "heuristic", "random"}, "Lagoon: Land of Druids: 3 games, 3 players"},
		{[]string{"-game", "laguna", "-games", "2", "-option", "board=hard", "max", "easy"}, "Laguna: 2 games, 2 players, board hard"},
	} {
		out, errOut, code := runArenaCmd(t, append([]string{"-q"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", c.args, code, errOut)
		}
		if !strings.Contains(out, c.want) || strings.Contains(out, "forfeit:") {
			t.Errorf("%q: the report lacks %q or holds a forfeit:\n%s", c.args, c.want, out)
		}
	}
}

// TestArenaAgainstAJ: in a game against AJ a bot takes the one seat the
// rules leave, and AJ stands in the report; a second bot is refused.
func TestArenaAgainstAJ(t *testing.T) {
	out, errOut, code := runArenaCmd(t, "-q", "-game", "druids", "-option", "aj=legend", "-games", "3", "heuristic")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"3 games, 2 players, set regular, aj legend, deals from seed 1, each in 1 seat orders", "heuristic", "AJ (Legend)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if _, errOut, code := runArenaCmd(t, "-q", "-game", "druids", "-option", "aj=legend", "-players", "2", "heuristic", "random"); code != 2 || !strings.Contains(errOut, "need 1 bots") {
		t.Errorf("two bots against AJ: exit %d, %s", code, errOut)
	}
}

// TestBotLevelsPlayWholeGames: each level of the two games, run as lagoon
// bot, is given the states of a game one a line and its answers are
// played until the game ends. (Druids' hard and max are searches of 2.5
// and 7 seconds a turn: a move of hard is enough to show it answers.)
func TestBotLevelsPlayWholeGames(t *testing.T) {
	for _, c := range []struct {
		rules   *game.Rules
		level   string
		players int
		whole   bool
	}{
		{druids.Rules, "easy", 2, true},
		{druids.Rules, "medium", 2, true},
		{druids.Rules, "hard", 2, false},
		{laguna.Rules, "easy", 2, true},
		{laguna.Rules, "medium", 2, true},
		{laguna.Rules, "hard", 3, true},
		{laguna.Rules, "max", 2, true},
	} {
		t.Run(c.rules.ID+"/"+c.level, func(t *testing.T) {
			st, err := c.rules.NewGame(game.Setup{Players: c.players, Seed: 9})
			if err != nil {
				t.Fatal(err)
			}
			moves := playThroughBot(t, st, c.whole, "-game", c.rules.ID, "-workers", "1", c.level)
			if c.whole && !st.Over() {
				t.Fatalf("the game did not end after %d moves", moves)
			}
			t.Logf("%d moves", moves)
		})
	}
}

// playThroughBot plays st by lagoon bot's answers, one process for the
// whole game as lagoon arena seats it: to the end, or one move if not
// whole. It returns the moves played.
func playThroughBot(t *testing.T, st game.State, whole bool, args ...string) int {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- run(append([]string{"bot"}, args...), inR, outW, &errOut)
		outW.Close()
	}()
	answers := bufio.NewScanner(outR)
	moves := 0
	for !st.Over() && (whole || moves == 0) {
		if _, err := io.WriteString(inW, st.String()+"\n"); err != nil {
			t.Fatalf("move %d: writing the state: %v (%s)", moves+1, err, errOut.String())
		}
		if !answers.Scan() {
			t.Fatalf("move %d: no answer: %s", moves+1, errOut.String())
		}
		if err := game.PlayText(st, answers.Text()); err != nil {
			t.Fatalf("move %d: %q: %v", moves+1, answers.Text(), err)
		}
		moves++
		if moves > 100000 {
			t.Fatal("no end after 100000 moves")
		}
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("lagoon bot exited %d: %s", code, errOut.String())
	}
	return moves
}
