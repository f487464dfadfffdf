package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/laguna"
)

// lagoon rules -game plays any game through the contract: a new state, its
// moves, a move applied, and the questions asked of states.
func TestRulesOfAnyGame(t *testing.T) {
	state, errOut, code := rules(t, "", "-game", "tiny", "new", "-players", "3", "-seed", "4", "-option", "hand=2")
	if code != 0 || !strings.HasPrefix(state, "tiny 3 2 high solo;") {
		t.Fatalf("new: exit %d, %q, %q", code, state, errOut)
	}
	state = strings.TrimSuffix(state, "\n")
	out, _, code := rules(t, state+"\n", "-game", "tiny", "moves")
	var moves []string
	if err := json.Unmarshal([]byte(out), &moves); code != 0 || err != nil || len(moves) == 0 {
		t.Fatalf("moves: exit %d, %q", code, out)
	}
	next, _, code := rules(t, state+"\t"+moves[0]+"\n", "-game", "tiny", "apply")
	if code != 0 || !strings.HasPrefix(next, "tiny 3 2") || next == state+"\n" {
		t.Fatalf("apply %s: exit %d, %q", moves[0], code, next)
	}
	out, _, code = rules(t, state+"\n"+"tiny nonsense\n", "-game", "tiny", "check")
	if code != 1 || !strings.HasPrefix(out, "ok\nerror: tiny state:") {
		t.Fatalf("check: exit %d, %q", code, out)
	}
	out, _, _ = rules(t, state+"\n", "-game", "tiny", "over")
	if out != "false\n" {
		t.Fatalf("over: %q", out)
	}
	out, _, _ = rules(t, state+"\n", "-game", "tiny", "score")
	if out != `{"phase":"","scores":[0,0,0],"teams":null,"winners":[]}`+"\n" {
		t.Fatalf("score: %q", out)
	}
	// Tiny has no picture of its own: show writes its view for a
	// spectator, which holds no hand.
	out, _, _ = rules(t, state+"\n", "-game", "tiny", "show")
	if !strings.HasSuffix(out, "\nend\n") || !strings.Contains(out, `"hand":null`) {
		t.Fatalf("show: %q", out)
	}
	out, _, code = rules(t, state+"\tplay 0\n", "-game", "tiny", "apply")
	if code != 1 || !strings.HasPrefix(out, "error: ") {
		t.Fatalf("apply of a move that is not one: exit %d, %q", code, out)
	}
}

func TestRulesOfAnyGameRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-game", "chess", "moves"}, `unknown game "chess"; the games are bluelagoon, druids, laguna, tiny`},
		{[]string{"-game", "tiny", "new", "-option", "hand=9"}, `option hand: "9" is not a whole number from 2 to 4`},
		{[]string{"-game", "tiny", "new", "-players", "7"}, "7 players; a game has 2 to 4"},
		{[]string{"-game", "tiny", "dance"}, `unknown verb "dance"`},
		{[]string{"-game", "tiny"}, "a verb is needed"},
	} {
		_, errOut, code := rules(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// A game with a picture of its own is shown by it.
func TestRulesShowsAGamesPicture(t *testing.T) {
	state, _, code := rules(t, "", "-game", "laguna", "new", "-players", "2")
	if code != 0 {
		t.Fatalf("new: exit %d", code)
	}
	st, err := laguna.Rules.ParseState(strings.TrimSuffix(state, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimRight(st.(*laguna.State).Picture(), "\n") + "\nend\n"
	if out, _, _ := rules(t, state, "-game", "laguna", "show"); out != want {
		t.Fatalf("show: %q, want %q", out, want)
	}
}
