package bluelagoon_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

func TestRecordJSON(t *testing.T) {
	rec := bluelagoon.Record{
		Setup: bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 7, First: 1},
		Moves: []move{mustMove(t, "S 9,3"), mustMove(t, "S 0,4")},
	}
	data, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"board":"standard","players":2,"seed":7,"first":1,"moves":["S 9,3","S 0,4"]}`; string(data) != want {
		t.Errorf("JSON %s, want %s", data, want)
	}
	g, err := rec.Replay(-1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Current() != 1 {
		t.Errorf("after two moves from seat 1, player %d is to move", g.Current())
	}

	// A board that is not built in is written in the notation.
	custom, err := bluelagoon.ParseBoard(stripedBoard(9))
	if err != nil {
		t.Fatal(err)
	}
	rec = bluelagoon.Record{Setup: bluelagoon.Setup{Board: custom, Players: 3, Seed: 1}}
	r := rand.New(rand.NewPCG(1, 1))
	g, err = bluelagoon.NewGame(rec.Setup)
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		m := g.LegalMove(r.IntN(g.NumLegalMoves()))
		g.ApplyLegal(m)
		rec.Moves = append(rec.Moves, m)
	}
	data, err = json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"board":"a 9 2;`) {
		t.Errorf("custom board not written in the notation: %.80s", data)
	}
	var back bluelagoon.Record
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	h, err := back.Replay(-1)
	if err != nil || h.String() != g.String() {
		t.Errorf("replay of the record read back: %v\n%s\nwant\n%s", err, h, g)
	}
}

// TestDecodingLeavesBuiltinBoardsAlone: decoding JSON where a built-in
// board is held replaces the pointer, never the board, which the whole
// program shares.
func TestDecodingLeavesBuiltinBoardsAlone(t *testing.T) {
	rec := bluelagoon.Record{Setup: bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2}}
	if err := json.Unmarshal([]byte(`{"board":"sides","players":2,"seed":1,"first":0,"moves":[]}`), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Board.Name() != "sides" {
		t.Errorf("the record read has board %q, want sides", rec.Board.Name())
	}
	held := struct{ Board *bluelagoon.Board }{bluelagoon.StandardBoard()}
	if err := json.Unmarshal([]byte(`{"Board":"sides"}`), &held); err == nil {
		t.Error("a board name decoded into a *Board: a Board is not decoded on its own, a Record is")
	}
	if b := bluelagoon.StandardBoard(); b.Name() != "standard" || b.Height() != 13 {
		t.Fatalf("after decoding, the standard board is %q with %d rows", b.Name(), b.Height())
	}
	if b, err := bluelagoon.BoardByName("standard"); err != nil || b.Name() != "standard" {
		t.Fatalf("BoardByName(standard) = %v, %v", b, err)
	}
}

func TestRecordErrors(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"board":"atlantis","players":2,"seed":1,"first":0,"moves":[]}`, "atlantis"},
		{`{"players":2,"seed":1,"first":0,"moves":[]}`, "no board"},
		{`{"board":"standard","players":2,"seed":1,"first":0,"moves":["Q 1,1"]}`, "a move starts with S"},
		{`{"board":"a 13 2; c 0 E;","players":2,"seed":1,"first":0,"moves":[]}`, "offset"},
	} {
		var rec bluelagoon.Record
		if err := json.Unmarshal([]byte(tc.json), &rec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Unmarshal(%s) = %v, want an error saying %q", tc.json, err, tc.want)
		}
	}
	for _, tc := range []struct {
		rec  bluelagoon.Record
		want string
	}{
		{bluelagoon.Record{Setup: bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 5}}, "5 players"},
		{bluelagoon.Record{Setup: bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, First: 2}}, "first player 2"},
		{bluelagoon.Record{Setup: bluelagoon.Setup{Players: 2}}, "no board"},
		{bluelagoon.Record{Setup: bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2},
			Moves: []move{mustMove(t, "S 0,4"), mustMove(t, "S 0,4")}}, "move 2"},
	} {
		if _, err := tc.rec.Replay(-1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Replay = %v, want an error saying %q", err, tc.want)
		}
	}
}

// TestReseed checks the chance event: the settlement layout comes from the
// game's generator, the same seed gives the same layout, and copies given
// other seeds sample other layouts with everything else the same.
func TestReseed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	g, err := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	var last move // the move that ends the exploration phase
	for {
		last = g.LegalMove(r.IntN(g.NumLegalMoves()))
		c := *g
		c.ApplyLegal(last)
		if c.Phase() == bluelagoon.Settlement {
			break
		}
		*g = c
	}
	layouts := map[string]bool{}
	rest := ""
	for seed := range uint64(5) {
		a, b := *g, *g
		a.Reseed(seed)
		b.Reseed(seed)
		a.ApplyLegal(last)
		b.ApplyLegal(last)
		if a.String() != b.String() {
			t.Errorf("seed %d laid out two different layouts", seed)
		}
		layout, others := splitLayout(a.String())
		layouts[layout] = true
		if rest == "" {
			rest = others
		} else if others != rest {
			t.Errorf("seed %d changed more than the tokens:\n%s\n%s", seed, others, rest)
		}
	}
	if len(layouts) != 5 {
		t.Errorf("5 seeds gave %d layouts", len(layouts))
	}
}

// splitLayout returns the r statement of a state and the rest of it.
func splitLayout(s string) (layout, rest string) {
	i := strings.Index(s, "; r ") + 2
	j := i + strings.Index(s[i:], ";")
	return s[i:j], s[:i] + s[j:]
}
