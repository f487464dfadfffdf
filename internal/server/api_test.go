package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/store"
)

// waitFor polls the game until cond holds.
func (ts *testServer) waitFor(id, token string, cond func(fullGame) bool) fullGame {
	ts.t.Helper()
	for range 10000 {
		g := ts.get(id, token)
		if cond(g) {
			return g
		}
		time.Sleep(time.Millisecond)
	}
	ts.t.Fatalf("game %s: condition never met", id)
	return fullGame{}
}

func TestPlayAgainstBotOverHTTP(t *testing.T) {
	ts := newTestServer(t, nil)
	seed := uint64(3)
	c := ts.create(map[string]any{
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "medium"}},
		"seed":  seed,
	})
	if len(c.Seats) != 1 || c.Seats[0].Seat != 0 || c.Spectate != "/game/"+c.ID || c.Seats[0].Link != c.Spectate+"#seat="+c.Seats[0].Token {
		t.Fatalf("links: %+v, spectate %q", c.Seats, c.Spectate)
	}
	if c.Game.Game != "bluelagoon" || c.Game.GameName != "Blue Lagoon" || c.Game.Options["board"] != "standard" || c.Game.Options["first"] != "0" {
		t.Fatalf("created %s %q with options %v; want Blue Lagoon, the default, with its default options", c.Game.Game, c.Game.GameName, c.Game.Options)
	}
	token := c.Seats[0].Token
	for {
		g := ts.waitFor(c.ID, token, func(g fullGame) bool { return g.State.Over || g.State.ToMove == 0 })
		if g.You == nil || *g.You != 0 {
			t.Fatalf("you = %v, want 0", g.You)
		}
		if g.State.Over {
			break
		}
		if status, body := ts.request("GET", "/api/games/"+c.ID+"/record", "", nil); g.State.Standing.Phase == "exploration" && status != http.StatusForbidden {
			t.Errorf("record during the exploration phase: %d %s", status, body)
		}
		legal := g.State.View.Legal
		ts.move(c.ID, token, g.State.Version, legal[len(legal)/2])
	}

	sg, err := ts.store.Game(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	moves := ts.storedMoves(c.ID)
	end := replay(t, sg)
	want := engine(t, end)
	g := ts.get(c.ID, "")
	if g.You != nil {
		t.Errorf("a spectator's view has you = %d", *g.You)
	}
	if g.State.Version != len(moves) || len(g.Moves) != len(moves) || g.State.ToMove != game.NoSeat {
		t.Errorf("version %d with %d moves listed, to move %d; %d stored", g.State.Version, len(g.Moves), g.State.ToMove, len(moves))
	}
	r := g.State.View.Result
	if r == nil || !slices.Equal(r.Winners, want.Winners()) || r.Explanation == "" || !slices.Equal(g.State.Standing.Winners, want.Winners()) {
		t.Fatalf("result %+v, standing %+v, want winners %v", r, g.State.Standing, want.Winners())
	}
	totals := want.Totals()
	if !slices.Equal(r.Totals, totals[:2]) || !slices.Equal(g.State.View.Scores.Totals, totals[:2]) || !slices.Equal(g.State.Standing.Scores, totals[:2]) {
		t.Errorf("totals %v, %v and %v, want %v", r.Totals, g.State.View.Scores.Totals, g.State.Standing.Scores, totals[:2])
	}
	for ph, got := range [][]bluelagoon.Score{g.State.View.Scores.Exploration, g.State.View.Scores.Settlement} {
		s, _ := want.PhaseScores(bluelagoon.Phase(ph))
		if !slices.Equal(got, s[:2]) {
			t.Errorf("phase %d scores %+v, want %+v", ph, got, s[:2])
		}
	}
	if ends := phaseEnds(t, g.Moves); len(ends) == 0 {
		t.Errorf("no move's note says the exploration phase ended: %v", ends)
	} else if n := note(t, g.Moves[ends[0]-1]); len(n.PhaseEnds[0].Tokens) == 0 {
		t.Errorf("the exploration phase's end has no new tokens: %+v", n.PhaseEnds[0])
	}
	// A finished game's seats are part of its record: they are not left
	// to a bot, nor renamed, afterwards.
	for _, req := range []struct{ path, body string }{{"/leave", ""}, {"/join", "Mallory"}} {
		var body any
		if req.body != "" {
			body = map[string]any{"name": req.body}
		}
		if status, out := ts.request("POST", "/api/games/"+c.ID+req.path, token, body); status != 409 || !strings.Contains(string(out), "game_over") {
			t.Errorf("%s on a finished game: %d %s; want 409 game_over", req.path, status, out)
		}
	}
	if after := ts.get(c.ID, ""); after.Seats[0].Name != "Ann" || after.Seats[0].Kind != "human" {
		t.Errorf("the finished game's seat 0 is now %+v", after.Seats[0])
	}

	status, body := ts.request("GET", "/api/games/"+c.ID+"/record", "", nil)
	if status != 200 {
		t.Fatalf("record: %d %s", status, body)
	}
	var rec game.Record
	if err := json.Unmarshal(body, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Game != "bluelagoon" || rec.Seed != seed || rec.Options["board"] != "standard" {
		t.Errorf("record %+v", rec)
	}
	replayed, err := rec.Replay(bluelagoon.Rules, -1)
	if err != nil || replayed.String() != end.String() {
		t.Errorf("the record replays to %v, %v; want %s", replayed, err, end)
	}

	for _, at := range []int{0, 1, len(moves) / 2, len(moves)} {
		pos, err := rec.Replay(bluelagoon.Rules, at)
		if err != nil {
			t.Fatal(err)
		}
		status, body := ts.request("GET", fmt.Sprintf("/api/games/%s/state?at=%d", c.ID, at), "", nil)
		if status != 200 || strings.TrimSpace(string(body)) != pos.String() {
			t.Errorf("state at %d: %d %s, want %s", at, status, body, pos)
		}
		status, body = ts.request("GET", fmt.Sprintf("/api/games/%s?at=%d", c.ID, at), "", nil)
		v := decode[fullGame](t, body)
		live := engine(t, pos).Scores()
		if status != 200 || v.State.Version != at || len(v.Moves) != at || !slices.Equal(v.State.View.Scores.Live, live[:2]) {
			t.Errorf("game at %d: %d, version %d, %d moves, live scores %v want %v", at, status, v.State.Version, len(v.Moves), v.State.View.Scores.Live, live[:2])
		}
		if ends := phaseEnds(t, v.Moves); (len(ends) > 0) != (engine(t, pos).Phase() == bluelagoon.Settlement) {
			t.Errorf("game at %d in phase %v: phase ends in the notes at %v", at, engine(t, pos).Phase(), ends)
		}
	}
}

// phaseEnds returns the versions of the moves whose notes say they ended a
// phase.
func phaseEnds(t testing.TB, moves []*moveView) []int {
	t.Helper()
	var out []int
	for _, mv := range moves {
		if len(note(t, mv).PhaseEnds) > 0 {
			out = append(out, mv.Version)
		}
	}
	return out
}

// TestStateMatchesEngine checks the state's pieces, tokens, legal moves and
// players against the engine, move by move, and what the notes say the
// moves took.
func TestStateMatchesEngine(t *testing.T) {
	ts := newTestServer(t, nil)
	id, tokens := ts.humans(3, 11)
	st, err := bluelagoon.New(game.Setup{Players: 3, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	eng := &st.Game
	for v := 0; v < 40; v++ {
		g := ts.get(id, "")
		st := g.State.View
		var legal []string
		for _, m := range eng.LegalMoves() {
			legal = append(legal, m.String())
		}
		if !slices.Equal(st.Legal, legal) || st.Current != eng.Current() || g.State.ToMove != eng.Current() || st.Phase != eng.Phase().String() {
			t.Fatalf("version %d: state differs from the engine's", v)
		}
		for _, p := range st.Pieces {
			var c bluelagoon.Coord
			fmt.Sscanf(p.At, "%d,%d", &c.Row, &c.Col)
			seat, piece, ok := eng.PieceAt(c)
			if !ok || seat != p.Seat || piece.String() != p.Piece {
				t.Fatalf("version %d: piece %+v; the engine has %d %v %v", v, p, seat, piece, ok)
			}
		}
		if len(st.Pieces) != v {
			t.Fatalf("version %d: %d pieces", v, len(st.Pieces))
		}
		for _, tk := range st.Tokens {
			var c bluelagoon.Coord
			fmt.Sscanf(tk.At, "%d,%d", &c.Row, &c.Col)
			if kind, ok := eng.TokenAt(c); !ok || bluelagoon.TokenNames[kind] != tk.Token {
				t.Fatalf("version %d: token %+v; the engine has %v %v", v, tk, kind, ok)
			}
		}
		for p, pv := range st.Players {
			h := eng.Held(p)
			if pv.SettlersLeft != eng.SettlersLeft(p) || pv.VillagesLeft != eng.VillagesLeft(p) || pv.TokensHeld != eng.TokensHeld(p) ||
				pv.Held["coconut"] != h[bluelagoon.Coconut] || pv.Held["statuette"] != h[bluelagoon.Statuette] {
				t.Fatalf("version %d: player %d %+v differs from the engine", v, p, pv)
			}
		}
		m := eng.LegalMove((v * 7) % eng.NumLegalMoves())
		before := eng.Clone()
		if err := eng.Apply(m); err != nil {
			t.Fatal(err)
		}
		r := ts.move(id, tokens[before.Current()], v, m.String())
		var took string
		if tk, ok := before.TokenAt(m.At); ok {
			took = bluelagoon.TokenNames[tk]
		}
		lm := r.State.LastMove
		if lm == nil || lm.Move != m.String() || lm.Seat != before.Current() || lm.Version != v+1 {
			t.Fatalf("version %d: last move %+v, want %v by %d", v, lm, m, before.Current())
		}
		if n := note(t, lm); n.Phase != before.Phase().String() || (n.Took == nil) != (took == "") || n.Took != nil && *n.Took != took {
			t.Fatalf("version %d: the note of %v says %s, want phase %v taking %q", v, m, lm.Note, before.Phase(), took)
		}
	}
}

// TestBadRequests sends every kind of bad request and checks the status,
// the code, and that the stored game does not change.
func TestBadRequests(t *testing.T) {
	ts := newTestServer(t, nil)
	id, tokens := ts.humans(2, 5)
	other, otherTokens := ts.humans(2, 6)
	g := ts.get(id, "")
	first := g.State.View.Legal[0]
	ts.move(id, tokens[0], 0, first)
	g = ts.get(id, "")
	legal := g.State.View.Legal[0]
	var occupiedVillage string // a village away from seat 1's pieces, which it has none of
	for _, m := range []string{"T 0,0", "T 12,0", "T 6,6"} {
		if !slices.Contains(g.State.View.Legal, m) {
			occupiedVillage = m
			break
		}
	}
	movePath := "/api/games/" + id + "/moves"
	moveBody := func(v int, m string) map[string]any { return map[string]any{"version": v, "move": m} }

	for _, tc := range []struct {
		name         string
		method, path string
		token        string
		body         any
		header       []string
		status       int
		code         string
	}{
		{"malformed JSON", "POST", movePath, tokens[1], `{"version": 1, "move": `, nil, 400, "bad_request"},
		{"not an object", "POST", movePath, tokens[1], `[1, 2]`, nil, 400, "bad_request"},
		{"unknown field", "POST", movePath, tokens[1], `{"version": 1, "move": "` + legal + `", "seat": 0}`, nil, 400, "bad_request"},
		{"two objects", "POST", movePath, tokens[1], `{"version": 1, "move": "` + legal + `"} {}`, nil, 400, "bad_request"},
		{"no version", "POST", movePath, tokens[1], map[string]any{"move": legal}, nil, 400, "bad_request"},
		{"bad move syntax", "POST", movePath, tokens[1], moveBody(1, "X 1,1"), nil, 400, "bad_request"},
		{"wrong content type", "POST", movePath, tokens[1], `{"version": 1, "move": "` + legal + `"}`, []string{"Content-Type", "text/plain"}, 400, "bad_request"},
		{"unknown game", "POST", "/api/games/nosuchgame/moves", tokens[1], moveBody(1, legal), nil, 404, "not_found"},
		{"unknown game view", "GET", "/api/games/nosuchgame", "", nil, nil, 404, "not_found"},
		{"unknown path", "GET", "/api/nothing", "", nil, nil, 404, "not_found"},
		{"wrong method", "DELETE", "/api/games/" + id, "", nil, nil, 405, "method_not_allowed"},
		{"no token", "POST", movePath, "", moveBody(1, legal), nil, 401, "no_token"},
		{"not a bearer token", "POST", movePath, "", moveBody(1, legal), []string{"Authorization", "Basic abc"}, 401, "no_token"},
		{"wrong token", "POST", movePath, "nottherighttoken", moveBody(1, legal), nil, 403, "bad_token"},
		{"another game's token", "POST", movePath, otherTokens[1], moveBody(1, legal), nil, 403, "bad_token"},
		{"bad token to view", "GET", "/api/games/" + id, "nottherighttoken", nil, nil, 403, "bad_token"},
		{"out of turn", "POST", movePath, tokens[0], moveBody(1, legal), nil, 409, "not_your_turn"},
		{"stale version", "POST", movePath, tokens[1], moveBody(0, legal), nil, 409, "stale_version"},
		{"future version", "POST", movePath, tokens[1], moveBody(7, legal), nil, 409, "stale_version"},
		{"repeated move, other seat", "POST", movePath, tokens[1], moveBody(0, first), nil, 409, "stale_version"},
		{"illegal move", "POST", movePath, tokens[1], moveBody(1, occupiedVillage), nil, 422, "illegal_move"},
		{"off the board", "POST", movePath, tokens[1], moveBody(1, "S 40,40"), nil, 400, "bad_request"},
		{"empty move", "POST", movePath, tokens[1], moveBody(1, ""), nil, 400, "bad_request"},
		{"too large", "POST", movePath, tokens[1], `{"version": 1, "move": "` + strings.Repeat(" ", maxBodyBytes) + `"}`, nil, 413, "too_large"},
		{"cross-origin move", "POST", movePath, tokens[1], moveBody(1, legal), []string{"Origin", "https://evil.example"}, 403, "cross_origin"},
		{"cross-origin create", "POST", "/api/games", "", map[string]any{"seats": []any{}}, []string{"Origin", "https://evil.example"}, 403, "cross_origin"},
		{"bad version query", "GET", "/api/games/" + id + "?at=9", "", nil, nil, 400, "bad_request"},
		{"record too early", "GET", "/api/games/" + id + "/record", "", nil, nil, 403, "seed_secret"},
		{"leave without token", "POST", "/api/games/" + id + "/leave", "", nil, nil, 401, "no_token"},
		{"leave to an unknown level", "POST", "/api/games/" + id + "/leave", tokens[1], map[string]any{"level": "godlike"}, nil, 400, "bad_request"},
		{"join a taken seat", "POST", "/api/games/" + id + "/join", "", map[string]any{"seat": 1}, nil, 409, "seat_taken"},
		{"join as another seat", "POST", "/api/games/" + id + "/join", tokens[1], map[string]any{"seat": 0}, nil, 403, "bad_token"},
		{"bad board", "POST", "/api/rules/bluelagoon/preview", "", map[string]any{"options": map[string]any{"board": "a 7 2; c 0 E;"}}, nil, 400, "bad_request"},
		{"preview of no game", "POST", "/api/rules/chess/preview", "", nil, nil, 404, "not_found"},
		{"preview with too many players", "POST", "/api/rules/bluelagoon/preview", "", map[string]any{"players": 5}, nil, 400, "bad_request"},
		{"preview with an unknown option", "POST", "/api/rules/bluelagoon/preview", "", map[string]any{"options": map[string]any{"colour": "red"}}, nil, 400, "bad_request"},
		{"one seat", "POST", "/api/games", "", map[string]any{"seats": []any{map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"five seats", "POST", "/api/games", "", map[string]any{"seats": slices.Repeat([]any{map[string]any{"kind": "bot", "level": "easy"}}, 5)}, nil, 400, "bad_request"},
		{"unknown kind", "POST", "/api/games", "", map[string]any{"seats": []any{map[string]any{"kind": "alien"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"unknown level", "POST", "/api/games", "", map[string]any{"seats": []any{map[string]any{"kind": "bot", "level": "godlike"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"unknown game", "POST", "/api/games", "", map[string]any{"game": "chess", "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"unknown board", "POST", "/api/games", "", map[string]any{"options": map[string]any{"board": "atlantis"}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"bad first", "POST", "/api/games", "", map[string]any{"options": map[string]any{"first": "2"}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"first not a string", "POST", "/api/games", "", map[string]any{"options": map[string]any{"first": 1}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"unknown option", "POST", "/api/games", "", map[string]any{"options": map[string]any{"hand": "3"}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"an old create", "POST", "/api/games", "", map[string]any{"board": "standard", "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"long name", "POST", "/api/games", "", map[string]any{"seats": []any{map[string]any{"kind": "human", "name": strings.Repeat("a", 33)}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"bad clock", "POST", "/api/games", "", map[string]any{"time": map[string]any{"kind": "bank", "initial_ms": 10}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"time the game does not keep", "POST", "/api/games", "", map[string]any{"time": map[string]any{"kind": "turn", "turn_ms": 30000}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"unknown time", "POST", "/api/games", "", map[string]any{"time": map[string]any{"kind": "hourglass"}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"bad turn", "POST", "/api/games", "", map[string]any{"game": "tiny", "time": map[string]any{"kind": "turn", "turn_ms": 0}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"tiny with five seats", "POST", "/api/games", "", map[string]any{"game": "tiny", "seats": slices.Repeat([]any{map[string]any{"kind": "human"}}, 5)}, nil, 400, "bad_request"},
		{"tiny with an option out of range", "POST", "/api/games", "", map[string]any{"game": "tiny", "options": map[string]any{"hand": "9"}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
		{"tiny's pairs with two", "POST", "/api/games", "", map[string]any{"game": "tiny", "options": map[string]any{"teams": "pairs"}, "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, nil, 400, "bad_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := ts.request(tc.method, tc.path, tc.token, tc.body, tc.header...)
			e := decode[errorResponse](t, body)
			if status != tc.status || e.Error.Code != tc.code || e.Error.Message == "" {
				t.Errorf("%d %s, want %d %s", status, body, tc.status, tc.code)
			}
			if tc.path == movePath && tc.status != 413 && tc.code != "cross_origin" && (e.State == nil || e.State.Version != 1) {
				t.Errorf("the refusal does not come with the current state: %s", body)
			}
			// An illegal move carries the rules' refusal, a code and the
			// words for the player; no other refusal does.
			if r := e.Error.Refusal; (tc.code == "illegal_move") != (r != nil) || r != nil && (r.Code != bluelagoon.RefusedNotNext || r.Reason != "land must be next to one of your pieces") {
				t.Errorf("refusal %+v in %s", r, body)
			}
		})
	}
	if got := ts.storedMoves(id); !slices.Equal(got, []string{first}) {
		t.Errorf("stored moves %v after the bad requests, want [%s]", got, first)
	}
	if got := ts.storedMoves(other); len(got) != 0 {
		t.Errorf("the other game has moves %v", got)
	}

	// The same move at the same version again is answered, not applied.
	r := ts.move(id, tokens[0], 0, first)
	if !r.Duplicate || r.Version != 1 {
		t.Errorf("repeated move: %+v, want a duplicate at version 1", r)
	}
	if got := ts.storedMoves(id); !slices.Equal(got, []string{first}) {
		t.Errorf("stored moves %v after a repeated move, want [%s]", got, first)
	}
}

func TestRateLimit(t *testing.T) {
	// A request an hour: the burst is all there is, however slow the test.
	ts := newTestServer(t, func(c *Config) { c.Rate, c.Burst = 1.0/3600, 3 })
	for i := range 3 {
		if status, body := ts.request("GET", "/api/rules", "", nil); status != 200 {
			t.Fatalf("request %d: %d %s", i, status, body)
		}
	}
	req, _ := http.NewRequest("GET", ts.http.URL+"/api/lobby", nil)
	resp, err := ts.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// TestLimiter checks the exact wait; here, that it is said in whole
	// seconds, up to the hour a token takes.
	retry, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != http.StatusTooManyRequests || err != nil || retry < 1 || retry > 3600 {
		t.Errorf("the fourth request: %d, Retry-After %q; want 429, whole seconds from 1 to 3600", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	// Static files are not API requests and are not limited.
	if status, _ := ts.request("GET", "/app.js", "", nil); status != 200 {
		t.Errorf("a static file while limited: %d", status)
	}
}

func TestLimiter(t *testing.T) {
	l := newLimiter(2, 4)
	now := time.Unix(1000, 0)
	for i := range 4 {
		if ok, _ := l.allow("a", now); !ok {
			t.Fatalf("request %d of a burst of 4 refused", i)
		}
	}
	if ok, wait := l.allow("a", now); ok || wait != 500*time.Millisecond {
		t.Errorf("fifth request: %v, wait %v; want refused, 500ms", ok, wait)
	}
	if ok, _ := l.allow("b", now); !ok {
		t.Error("another client is refused")
	}
	if ok, _ := l.allow("a", now.Add(500*time.Millisecond)); !ok {
		t.Error("refused after the wait")
	}
	l.allow("c", now.Add(2*time.Minute))
	if len(l.clients) != 1 {
		t.Errorf("%d clients remembered after a sweep, want 1", len(l.clients))
	}
}

func TestJoinOpenSeatAndLeave(t *testing.T) {
	ts := newTestServer(t, nil)
	c := ts.create(map[string]any{"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "open"}}, "seed": 9})
	if len(c.Seats) != 1 || c.Seats[0].Seat != 0 {
		t.Fatalf("created seats %+v, want a token for seat 0 only: the open seat's comes with joining it", c.Seats)
	}
	ann := c.Seats[0].Token
	lobby := decode[map[string][]summaryView](t, ts.ok("GET", "/api/lobby", "", nil))
	if len(lobby["open"]) != 1 || lobby["open"][0].ID != c.ID || !slices.Equal(lobby["open"][0].OpenSeats, []int{1}) {
		t.Fatalf("lobby %+v, want the game with seat 1 open", lobby)
	}

	status, body := ts.request("POST", "/api/games/"+c.ID+"/join", "", map[string]any{"seat": 1, "name": "Bob"})
	if status != 200 {
		t.Fatalf("join: %d %s", status, body)
	}
	joined := decode[struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
		Link  string `json:"link"`
	}](t, body)
	bob := joined.Token
	if joined.Seat != 1 || bob == "" || joined.Link != "/game/"+c.ID+"#seat="+bob {
		t.Fatalf("join answered %s", body)
	}
	if status, _ := ts.request("POST", "/api/games/"+c.ID+"/join", "", map[string]any{"seat": 1}); status != 409 {
		t.Errorf("joining a taken seat: %d, want 409", status)
	}
	if status, body := ts.request("POST", "/api/games/"+c.ID+"/join", ann, map[string]any{"name": "Annie"}); status != 200 {
		t.Errorf("joining with an invite: %d %s", status, body)
	}
	g := ts.get(c.ID, bob)
	if *g.You != 1 || g.Seats[1].Name != "Bob" || g.Seats[1].Kind != "human" || !g.Seats[1].Joined || g.Seats[0].Name != "Annie" {
		t.Fatalf("seats after joining: %+v", g.Seats)
	}
	lobby = decode[map[string][]summaryView](t, ts.ok("GET", "/api/lobby", "", nil))
	if len(lobby["open"]) != 0 || len(lobby["playing"]) != 1 {
		t.Errorf("lobby after joining: %+v", lobby)
	}

	ts.move(c.ID, ann, 0, g.State.View.Legal[0])
	if status, body := ts.request("POST", "/api/games/"+c.ID+"/leave", ann, nil); status != 200 {
		t.Fatalf("leave: %d %s", status, body)
	}
	if status, _ := ts.request("GET", "/api/games/"+c.ID, ann, nil); status != 403 {
		t.Errorf("a left seat's token still works: %d", status)
	}
	for {
		g = ts.waitFor(c.ID, bob, func(g fullGame) bool { return g.State.Over || g.State.ToMove == 1 })
		if g.Seats[0].Kind != "bot" || g.Seats[0].Level != "medium" {
			t.Fatalf("seat 0 after leaving: %+v", g.Seats[0])
		}
		if g.State.Over {
			break
		}
		ts.move(c.ID, bob, g.State.Version, g.State.View.Legal[0])
	}
	lobby = decode[map[string][]summaryView](t, ts.ok("GET", "/api/lobby", "", nil))
	if len(lobby["finished"]) != 1 || lobby["finished"][0].ID != c.ID || lobby["finished"][0].Winners == nil {
		t.Errorf("lobby after the game: %+v", lobby)
	}
}

// ok makes a request that must succeed and returns the body.
func (ts *testServer) ok(method, path, token string, body any) []byte {
	ts.t.Helper()
	status, out := ts.request(method, path, token, body)
	if status != 200 {
		ts.t.Fatalf("%s %s: %d %s", method, path, status, out)
	}
	return out
}

// TestRulesAndPreview: the games hosted, their options, times and levels,
// and a preview of a table's choices: here Blue Lagoon's boards, which the
// page draws from it.
func TestRulesAndPreview(t *testing.T) {
	ts := newTestServer(t, nil)
	rules := decode[struct {
		Games []struct {
			rulesView
			Options []game.Option `json:"options"`
		} `json:"games"`
	}](t, ts.ok("GET", "/api/rules", "", nil))
	if len(rules.Games) != 2 || rules.Games[0].ID != "bluelagoon" || rules.Games[1].ID != "tiny" {
		t.Fatalf("games %+v, want Blue Lagoon then Tiny", rules.Games)
	}
	bl, tiny := rules.Games[0], rules.Games[1]
	if bl.Name != "Blue Lagoon" || bl.MinPlayers != 2 || bl.MaxPlayers != 4 || !slices.Equal(bl.Times, []game.TimeKind{game.Bank, game.Correspondence}) ||
		!slices.Equal(bl.Levels, testLevels) || len(bl.Options) != 2 || bl.Options[0].Key != "board" || !bl.Options[0].Custom ||
		len(bl.Options[0].Choices) != len(bluelagoon.BoardNames()) || bl.Options[1].Key != "first" {
		t.Errorf("Blue Lagoon's rules: %+v", bl)
	}
	if !slices.Equal(tiny.Times, []game.TimeKind{game.TurnTimer, game.Bank, game.Correspondence}) || len(tiny.Options) != 3 || tiny.Options[0].Kind != game.Number || tiny.Options[0].Max != 4 {
		t.Errorf("Tiny's rules: %+v", tiny)
	}

	type board struct {
		Name         string   `json:"name"`
		Height       int      `json:"height"`
		Notation     string   `json:"notation"`
		StoneCircles []string `json:"stone_circles"`
		Islands      []struct {
			Spaces []string `json:"spaces"`
		} `json:"islands"`
	}
	type preview struct {
		Options map[string]string `json:"options"`
		Table   board             `json:"table"`
		State   stateView         `json:"state"`
	}
	for _, name := range bluelagoon.BoardNames() {
		p := decode[preview](t, ts.ok("POST", "/api/rules/bluelagoon/preview", "", map[string]any{"players": 3, "options": map[string]any{"board": name}}))
		if p.Table.Name != name || p.Options["board"] != name || p.Options["first"] != "0" || len(p.State.View.Players) != 3 || len(p.State.View.Tokens) != 32 || p.State.Version != 0 {
			t.Errorf("preview of %s: %+v", name, p)
		}
	}
	std := decode[preview](t, ts.ok("POST", "/api/rules/bluelagoon/preview", "", nil)).Table
	land := 0
	for _, isl := range std.Islands {
		land += len(isl.Spaces)
	}
	if std.Name != "standard" || std.Height != 13 || len(std.Islands) != 8 || land != 116 {
		t.Errorf("standard board: height %d, %d islands, %d land", std.Height, len(std.Islands), land)
	}
	wheels, err := bluelagoon.BoardByName("wheels")
	if err != nil {
		t.Fatal(err)
	}
	own := strings.Replace(wheels.String(), "i 5 ", "i 6 ", 1)
	ownBoard, err := bluelagoon.ParseBoard(own)
	if err != nil {
		t.Fatal(err)
	}
	checked := decode[preview](t, ts.ok("POST", "/api/rules/bluelagoon/preview", "", map[string]any{"options": map[string]any{"board": own}}))
	if checked.Table.Height != wheels.Height() || checked.Table.Notation != ownBoard.String() || checked.Table.Name != "" || checked.Options["board"] != own {
		t.Errorf("checked board: %+v", checked.Table)
	}
	c := ts.create(map[string]any{"options": map[string]any{"board": own}, "seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}}})
	if tb := decode[board](t, c.Game.Table); tb.Notation != ownBoard.String() {
		t.Errorf("the game's table is %+v", tb)
	}
	lobby := decode[map[string][]summaryView](t, ts.ok("GET", "/api/lobby", "", nil))
	found := false
	for _, l := range lobby {
		for _, s := range l {
			if s.ID == c.ID {
				found = true
				if s.Options["board"] != own || s.Game != "bluelagoon" || s.GameName != "Blue Lagoon" {
					t.Errorf("lobby: %+v", s)
				}
			}
		}
	}
	if !found {
		t.Error("the game is not in the lobby")
	}
	tp := decode[struct {
		Options map[string]string `json:"options"`
		Table   json.RawMessage   `json:"table"`
		State   aState[map[string]any]
	}](t, ts.ok("POST", "/api/rules/tiny/preview", "", map[string]any{"players": 4, "options": map[string]any{"teams": "pairs"}}))
	if tp.Options["hand"] != "3" || tp.Options["teams"] != "pairs" || string(tp.Table) != "null" || tp.State.View["hand"] != nil || len(tp.State.Standing.Teams) != 2 {
		t.Errorf("Tiny's preview: %+v", tp)
	}
}

func TestStaticFiles(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, tc := range []struct{ path, want string }{
		{"/", "<!doctype html>"},
		{"/app.js", "console.log"},
		{"/game/abc123", "<!doctype html>"},
	} {
		status, body := ts.request("GET", tc.path, "", nil)
		if status != 200 || !strings.HasPrefix(string(body), tc.want) {
			t.Errorf("GET %s: %d %.40s, want %q", tc.path, status, body, tc.want)
		}
	}
}

// blockingBot thinks until it is released, counting the bots thinking at
// once.
type blockingBot struct {
	release  chan struct{}
	thinking *atomic.Int64
	most     *atomic.Int64
}

func (b blockingBot) Move(ctx context.Context, st game.State) (game.Move, error) {
	n := b.thinking.Add(1)
	defer b.thinking.Add(-1)
	for m := b.most.Load(); n > m && !b.most.CompareAndSwap(m, n); m = b.most.Load() {
	}
	select {
	case <-b.release:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	return game.Legal(st)[0], nil
}

// TestBotsCannotStarvePeople fills the bot pool with bots that think
// forever and checks that people's games go on, and that no more bots think
// at once than the pool has workers.
func TestBotsCannotStarvePeople(t *testing.T) {
	bot := blockingBot{release: make(chan struct{}), thinking: new(atomic.Int64), most: new(atomic.Int64)}
	ts := newTestServer(t, func(c *Config) {
		c.BotWorkers = 2
		c.Bots = func(string, string, bool) (Bot, error) { return bot, nil }
	})
	var botGames []string
	for range 6 {
		c := ts.create(map[string]any{"seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "human"}}})
		botGames = append(botGames, c.ID)
	}
	for i := 0; bot.thinking.Load() < 2; i++ {
		if i > 10000 {
			t.Fatalf("%d bots thinking, want the pool's 2", bot.thinking.Load())
		}
		time.Sleep(time.Millisecond)
	}
	id, tokens := ts.humans(2, 1)
	for v := range 20 {
		g := ts.get(id, "")
		ts.move(id, tokens[g.State.ToMove], v, g.State.View.Legal[0])
	}
	close(bot.release)
	for _, id := range botGames {
		ts.waitFor(id, "", func(g fullGame) bool { return g.State.Version >= 1 })
	}
	if n := bot.most.Load(); n > 2 {
		t.Errorf("%d bots thought at once; the pool has 2 workers", n)
	}
}

// TestAGameThatNoLongerLoads: a stored game that does not replay (here a
// move the rules refuse, written behind the server's back) is left out at
// start, and every other game is played on.
func TestAGameThatNoLongerLoads(t *testing.T) {
	ts := newTestServer(t, nil)
	broken, _ := ts.humans(2, 1)
	fine, tokens := ts.humans(2, 2)
	ts.stop()
	st, err := store.Open(ts.dir)
	if err != nil {
		t.Fatal(err)
	}
	after := store.After{Summary: store.Summary{Phase: "exploration", ToMove: 1, Scores: []int{0, 0}}}
	if err := st.AppendMove(context.Background(), broken, 1, store.Move{Seat: 0, Move: "S 99,99", At: time.Now()}, after); err != nil {
		t.Fatal(err)
	}
	st.Close()

	ts.start(nil)
	g := ts.get(fine, tokens[0])
	ts.move(fine, tokens[0], 0, g.State.View.Legal[0])
	for range 2 {
		if status, _ := ts.request("GET", "/api/games/"+broken, "", nil); status != http.StatusInternalServerError {
			t.Errorf("the game that does not load: %d, want 500", status)
		}
	}
	ts.s.mu.Lock()
	remembered := ts.s.broken[broken] != nil
	ts.s.mu.Unlock()
	if !remembered {
		t.Error("the game that does not load is not remembered: every request would replay it again")
	}
}

// TestSweepForgetsIdleFinishedGames: a finished game nobody has asked for
// in a while leaves memory, and is read from the store when asked for
// again; a game in progress stays.
func TestSweepForgetsIdleFinishedGames(t *testing.T) {
	ts := newTestServer(t, nil)
	bots := []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}}
	done := ts.create(map[string]any{"seats": bots, "seed": 1})
	playing, _ := ts.humans(2, 2)
	ts.waitFor(done.ID, "", func(g fullGame) bool { return g.State.Over })
	inMemory := func(id string) bool {
		ts.s.mu.Lock()
		defer ts.s.mu.Unlock()
		return ts.s.games[id] != nil
	}
	ts.s.forgetIdle(time.Now(), time.Hour)
	if !inMemory(done.ID) {
		t.Error("a finished game just looked at was forgotten")
	}
	ts.s.forgetIdle(time.Now().Add(2*time.Hour), time.Hour)
	if inMemory(done.ID) || !inMemory(playing) {
		t.Errorf("after two idle hours: the finished game in memory %v (want false), the one in progress %v (want true)", inMemory(done.ID), inMemory(playing))
	}
	if g := ts.get(done.ID, ""); !g.State.Over || len(g.Moves) == 0 {
		t.Errorf("the forgotten game read again: over %v, %d moves", g.State.Over, len(g.Moves))
	}
}
