package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// playFirst plays, n times, the first legal move of the seat to move in a
// game of Blue Lagoon among people.
func (ts *testServer) playFirst(id string, tokens []string, n int) {
	ts.t.Helper()
	for range n {
		g := ts.get(id, "")
		p := g.State.ToMove
		ts.move(id, tokens[p], g.State.Version, ts.get(id, tokens[p]).State.View.Legal[0])
	}
}

// TestMoveLimitEndsTheGame: a game its rules have not ended when it
// reaches the server's bound on moves ends there, nobody winning: no seat
// is to move, a further move is refused, the standing says the bound ended
// it, the store has it finished (the lobby lists it so, and a restart with
// a higher bound leaves it so), and its record is no longer withheld, for
// no draw is to come. The positions before the bound are as they were.
func TestMoveLimitEndsTheGame(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.MaxMoves = 6 })
	id, tokens := ts.humans(2, 1)
	if g := ts.get(id, ""); g.MaxMoves != 6 {
		t.Errorf("the game says max_moves %d, want 6", g.MaxMoves)
	}
	if status, _ := ts.request("GET", "/api/games/"+id+"/record", "", nil); status != http.StatusForbidden {
		t.Fatalf("the record in the exploration phase: %d, want it withheld", status)
	}
	ts.playFirst(id, tokens, 5)
	if g := ts.get(id, ""); g.State.Over || g.State.Standing.MoveLimit != 0 {
		t.Fatalf("at move 5 of 6: over %v, move_limit %d", g.State.Over, g.State.Standing.MoveLimit)
	}
	ts.playFirst(id, tokens, 1)
	check := func(when string) {
		t.Helper()
		g := ts.get(id, "")
		st := g.State
		if !st.Over || st.ToMove != -1 || st.Standing.MoveLimit != 6 || len(st.Standing.Winners) != 0 || len(g.Moves) != 6 {
			t.Errorf("%s: over %v, to move %d, move_limit %d, winners %v, %d moves; want over at the bound of 6, nobody winning",
				when, st.Over, st.ToMove, st.Standing.MoveLimit, st.Standing.Winners, len(g.Moves))
		}
		before := decode[fullGame](t, ts.ok("GET", "/api/games/"+id+"?at=5", "", nil))
		if before.State.Over || before.State.Standing.MoveLimit != 0 || before.State.ToMove < 0 {
			t.Errorf("%s: the position at move 5 reads over %v, move_limit %d, to move %d", when, before.State.Over, before.State.Standing.MoveLimit, before.State.ToMove)
		}
		status, body := ts.request("POST", "/api/games/"+id+"/moves", tokens[0], map[string]any{"version": 6, "move": "S 1,1"})
		if e := decode[errorResponse](t, body); status != http.StatusConflict || e.Error.Code != "game_over" {
			t.Errorf("%s: a move after the bound: %d %s", when, status, body)
		}
		if status, body := ts.request("GET", "/api/games/"+id+"/record", "", nil); status != http.StatusOK {
			t.Errorf("%s: the record of the game the bound ended: %d %s", when, status, body)
		}
		lobby := decode[map[string][]summaryView](t, ts.ok("GET", "/api/lobby", "", nil))
		if !slices.ContainsFunc(lobby["finished"], func(v summaryView) bool { return v.ID == id && v.Over && len(v.Winners) == 0 }) {
			t.Errorf("%s: the lobby's finished games are %+v", when, lobby["finished"])
		}
	}
	check("at the bound")
	ts.stop()
	ts.start(func(c *Config) { c.MaxMoves = 100 })
	check("after a restart with a higher bound")
}

// TestMoveLimitLowered: a game in progress that is already as long as a
// bound lowered since makes one more move and ends there.
func TestMoveLimitLowered(t *testing.T) {
	ts := newTestServer(t, nil)
	id, tokens := ts.humans(2, 1)
	ts.playFirst(id, tokens, 3)
	ts.stop()
	ts.start(func(c *Config) { c.MaxMoves = 2 })
	if g := ts.get(id, ""); g.State.Over || g.MaxMoves != 4 {
		t.Fatalf("after the restart: over %v, max_moves %d; want the game on, to end at 4", g.State.Over, g.MaxMoves)
	}
	ts.playFirst(id, tokens, 1)
	if g := ts.get(id, ""); !g.State.Over || g.State.Standing.MoveLimit != 4 {
		t.Errorf("after one more move: over %v, move_limit %d", g.State.Over, g.State.Standing.MoveLimit)
	}
}

// TestMoveLimitStopsBots: bots alone stop at the bound, and the store has
// the game over with exactly that many moves.
func TestMoveLimitStopsBots(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.MaxMoves = 5 })
	bots := []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}}
	c := ts.create(map[string]any{"game": "tiny", "seats": bots, "seed": 2})
	st := ts.waitState(c.ID, func(st aState[json.RawMessage]) bool { return st.Over })
	if st.Version != 5 || st.Standing.MoveLimit != 5 {
		t.Errorf("the bots' game ended at version %d, move_limit %d; want 5, 5", st.Version, st.Standing.MoveLimit)
	}
	sg, err := ts.store.Game(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !sg.Over || len(sg.Moves) != 5 {
		t.Errorf("the store has the game over %v with %d moves", sg.Over, len(sg.Moves))
	}
}
