package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/druids"
)

// lagoon rules -game druids: a new state (with options), its moves, a move
// applied, a check, and show drawing the engine's text picture.
func TestRulesDruids(t *testing.T) {
	state, errOut, code := rules(t, "", "-game", "druids", "new", "-players", "2", "-seed", "3", "-option", "start=gruu", "-option", "aj=legend")
	if code != 0 || !strings.HasPrefix(state, "druids 2; aj legend arbitrary") || !strings.Contains(state, "world 1A@") {
		t.Fatalf("new: exit %d, %q, %q", code, state, errOut)
	}
	state = strings.TrimSuffix(state, "\n")
	out, _, code := rules(t, state+"\n", "-game", "druids", "moves")
	var moves []string
	if err := json.Unmarshal([]byte(out), &moves); code != 0 || err != nil || !slices.Equal(moves, []string{"move", "summon", "explore", "end"}) {
		t.Fatalf("moves: exit %d, %q", code, out)
	}
	next, _, code := rules(t, state+"\texplore\n", "-game", "druids", "apply")
	if code != 0 || !strings.Contains(next, "; ply 1;") {
		t.Fatalf("apply explore: exit %d, %q", code, next)
	}
	out, _, code = rules(t, next+strings.Replace(state, "seeds1 0 0 0", "seeds1 0 0", 1)+"\n", "-game", "druids", "check")
	if code != 1 || !strings.HasPrefix(out, "ok\nerror: druids state") {
		t.Fatalf("check: exit %d, %q", code, out)
	}
	st, err := druids.ParseState(state)
	if err != nil {
		t.Fatal(err)
	}
	out, _, _ = rules(t, state+"\n", "-game", "druids", "show")
	if want := st.Picture() + "end\n"; out != want {
		t.Fatalf("show: %q, want %q", out, want)
	}
}
