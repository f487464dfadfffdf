package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// These tests take moves back in games of Tiny, which names nothing of
// Blue Lagoon: at once against a bot, asked for and accepted or refused
// among people, across a restart, and refused when stale or off.

// lastMoveOf returns the version before seat's last move, -1 if it made
// none: where a take-back for seat goes.
func lastMoveOf(moves []*moveView, seat int) int {
	for i := len(moves) - 1; i >= 0; i-- {
		if moves[i].Seat == seat {
			return i
		}
	}
	return -1
}

type takeBackResponse struct {
	Done      bool                    `json:"done"`
	Version   int                     `json:"version"`
	TakeBacks takeBacksView           `json:"take_backs"`
	State     aState[json.RawMessage] `json:"state"`
}

// takeBack asks for a take-back (accept nil) or answers one over HTTP.
func (ts *testServer) takeBack(id, token string, version int, accept *bool) (int, takeBackResponse, []byte) {
	ts.t.Helper()
	body := map[string]any{"version": version}
	if accept != nil {
		body["accept"] = *accept
	}
	status, b := ts.request("POST", "/api/games/"+id+"/takeback", token, body)
	var r takeBackResponse
	if status == 200 {
		r = decode[takeBackResponse](ts.t, b)
	}
	return status, r, b
}

// playTiny plays legal[0] for token's seat whenever it is to move, n
// times, waiting for the others (bots) between.
func (ts *testServer) playTiny(id, token string, seat, n int) {
	ts.t.Helper()
	for range n {
		st := ts.waitState(id, func(st aState[json.RawMessage]) bool { return st.ToMove == seat || st.Over })
		if st.Over {
			ts.t.Fatal("the game ended")
		}
		ts.move(id, token, st.Version, ts.getTiny(id, token, -1).State.View.Legal[0])
	}
	ts.waitState(id, func(st aState[json.RawMessage]) bool { return st.ToMove == seat })
}

// TestTakeBackAgainstBots: against bots alone a take-back is done at once:
// the game goes back to before the person's last move (and the bot's
// replies), the store holds only the moves before it, the clocks are what
// the move before left, every subscriber is sent the state at the lower
// version, and the bot plays on after the person's next move.
func TestTakeBackAgainstBots(t *testing.T) {
	ts := newTestServer(t, nil)
	c := ts.create(map[string]any{"game": "tiny", "seed": 3,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}},
		"time":  map[string]any{"kind": "bank", "initial_ms": 600000, "increment_ms": 7000}})
	id, token := c.ID, c.Seats[0].Token
	ts.ok("POST", "/api/games/"+id+"/join", token, nil)
	spectator, _ := ts.connect(id, "", -1)
	spectator.read() // the snapshot
	ts.playTiny(id, token, 0, 3)
	before := ts.getTiny(id, "", -1)
	to := lastMoveOf(before.Moves, 0)
	sg, err := ts.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	wantClocks := sg.Moves[to-1].Clocks

	status, r, body := ts.takeBack(id, token, before.State.Version, nil)
	if status != 200 || !r.Done || r.Version != to || r.State.Version != to || r.State.ToMove != 0 || r.TakeBacks.Count != 1 {
		t.Fatalf("take-back at %d, want to %d: %d %s", before.State.Version, to, status, body)
	}
	for q, cl := range r.State.Clocks {
		if got, want := cl.RemainingMS, wantClocks[q]; got > want || got < want-2000 || cl.Running != (q == 0) {
			t.Errorf("seat %d's clock after the take-back %+v, want %d ms as move %d left it", q, cl, want, to)
		}
	}
	if got := ts.storedMoves(id); len(got) != to {
		t.Errorf("stored after the take-back: %d moves, want %d", len(got), to)
	}
	for {
		m := spectator.nextEvent()
		if m.Type != "take_back" {
			continue
		}
		st := decode[tinyState](t, m.State)
		if m.Version != to || st.Version != to || st.View.Hand != nil || st.ToMove != 0 {
			t.Fatalf("the spectator's take_back event %s", m.raw)
		}
		break
	}
	// The person plays on; the bot answers from the new position.
	ts.playTiny(id, token, 0, 3)
	g := ts.getTiny(id, "", -1)
	if slices.IndexFunc(g.Moves[to:], func(m *moveView) bool { return m.Seat == 1 }) < 0 {
		t.Errorf("after the person's moves from %d the bot has not moved: %d moves", to, len(g.Moves))
	}
	if sm := ts.storedMoves(id); len(sm) != g.State.Version {
		t.Errorf("%d stored moves at version %d", len(sm), g.State.Version)
	}
	// Nothing to take back for a seat that made no move; off by choice.
	d := ts.create(map[string]any{"game": "tiny", "take_backs": false,
		"seats": []map[string]any{{"kind": "human"}, {"kind": "bot", "level": "easy"}}})
	if status, _, body := ts.takeBack(d.ID, d.Seats[0].Token, 0, nil); status != http.StatusForbidden {
		t.Errorf("a take-back in a game without: %d %s", status, body)
	}
	if g := ts.getTiny(d.ID, "", -1); g.TakeBacks.Allowed {
		t.Errorf("a game created without take-backs says %+v", g.TakeBacks)
	}
	e := ts.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human"}, {"kind": "bot", "level": "easy"}}})
	if status, _, body := ts.takeBack(e.ID, e.Seats[0].Token, 0, nil); status != http.StatusConflict {
		t.Errorf("a take-back before any move: %d %s", status, body)
	}
}

// tinyPeople makes a game of Tiny between two people and plays until
// each has moved, and returns it with the tokens and a WebSocket of each.
func tinyPeople(ts *testServer, seed uint64) (string, []string, []*wsClient) {
	ts.t.Helper()
	id, tokens := ts.humansOf("tiny", 2, seed)
	var clients []*wsClient
	for p := range 2 {
		cl, _ := ts.connect(id, tokens[p], -1)
		cl.read()
		clients = append(clients, cl)
	}
	for {
		g := ts.getTiny(id, "", -1)
		if lastMoveOf(g.Moves, 0) >= 0 && lastMoveOf(g.Moves, 1) >= 0 && g.State.ToMove == 1 {
			return id, tokens, clients
		}
		p := g.State.ToMove
		ts.move(id, tokens[p], g.State.Version, ts.getTiny(id, tokens[p], -1).State.View.Legal[0])
	}
}

// nextOf reads c's messages until one of type typ.
func (c *wsClient) nextOf(typ string) message {
	c.t.Helper()
	for {
		m, err := c.readErr()
		if err != nil {
			c.t.Fatalf("waiting for a %s: %v", typ, err)
		}
		if m.Type == typ {
			return m
		}
		c.t.Logf("passed over %s", m.raw)
	}
}

// TestTakeBackAmongPeople: among people a take-back is a request that the
// others answer: accepted, it is done; refused, or overtaken by a move, it
// ends and nothing changes. A request or an answer at a version the game
// is not at is refused.
func TestTakeBackAmongPeople(t *testing.T) {
	ts := newTestServer(t, nil)
	id, tokens, clients := tinyPeople(ts, 11)
	yes, no := true, false
	g := ts.getTiny(id, "", -1)
	v, to := g.State.Version, lastMoveOf(g.Moves, 0)

	if status, _, body := ts.takeBack(id, tokens[0], v-1, nil); status != http.StatusConflict {
		t.Errorf("a take-back asked at a stale version: %d %s", status, body)
	}
	if status, _, body := ts.takeBack(id, tokens[1], v, &yes); status != http.StatusConflict {
		t.Errorf("an answer with nothing asked: %d %s", status, body)
	}

	// Refused.
	status, r, body := ts.takeBack(id, tokens[0], v, nil)
	if status != 200 || r.Done || r.TakeBacks.Request == nil || !slices.Equal(r.TakeBacks.Request.Waiting, []int{1}) || r.TakeBacks.Request.To != to {
		t.Fatalf("asking: %d %s", status, body)
	}
	if m := clients[1].nextOf("take_back_request"); m.Seat != 0 || m.Version != v {
		t.Errorf("the request as seat 1 hears it: %s", m.raw)
	}
	if status, _, body := ts.takeBack(id, tokens[0], v, &yes); status != http.StatusConflict {
		t.Errorf("the asker accepting its own take-back: %d %s", status, body)
	}
	if status, _, body := ts.takeBack(id, tokens[1], v+1, &yes); status != http.StatusConflict {
		t.Errorf("an answer at another version: %d %s", status, body)
	}
	if status, _, body := ts.takeBack(id, tokens[1], v, &no); status != 200 {
		t.Fatalf("refusing: %d %s", status, body)
	}
	if m := clients[0].nextOf("take_back_ended"); m.Seat != 1 || !json.Valid(m.raw) || ts.getTiny(id, "", -1).State.Version != v {
		t.Errorf("after the refusal: %s, version %d", m.raw, ts.getTiny(id, "", -1).State.Version)
	}

	// Overtaken by a move.
	ts.takeBack(id, tokens[0], v, nil)
	ts.move(id, tokens[1], v, ts.getTiny(id, tokens[1], -1).State.View.Legal[0])
	if m := clients[0].nextOf("take_back_ended"); m.Seat != 1 || m.Version != v {
		t.Errorf("a move made meanwhile: %s", m.raw)
	}
	if g := ts.getTiny(id, "", -1); g.TakeBacks.Request != nil {
		t.Errorf("the request outlived a move: %+v", g.TakeBacks)
	}

	// Accepted, over WebSocket.
	g = ts.getTiny(id, "", -1)
	v, to = g.State.Version, lastMoveOf(g.Moves, 0)
	clients[0].send(map[string]any{"type": "take_back", "id": "t1", "version": v})
	if m := clients[0].nextOf("ack"); m.ID != "t1" || m.Version != v {
		t.Fatalf("the ack of the request: %s", m.raw)
	}
	clients[1].send(map[string]any{"type": "take_back_answer", "id": "a1", "version": v, "accept": true})
	for p, cl := range clients {
		m := cl.nextOf("take_back")
		st := decode[tinyState](t, m.State)
		if m.Version != to || st.Version != to || st.ToMove != 0 || len(st.View.Hand) == 0 {
			t.Errorf("seat %d's take_back event: %s", p, m.raw)
		}
	}
	if g := ts.getTiny(id, "", -1); g.State.Version != to || len(g.Moves) != to || g.TakeBacks.Count != 1 || len(ts.storedMoves(id)) != to {
		t.Errorf("after the accepted take-back: version %d, %d moves, %+v", g.State.Version, len(g.Moves), g.TakeBacks)
	}
}

// TestTakeBackRestart: a take-back is in the store: a restarted server
// resumes the game at the version it went back to, counts the take-back,
// and a client that resumes with the count it saw before the take-back
// gets a snapshot rather than events of a history that is gone.
func TestTakeBackRestart(t *testing.T) {
	ts := newTestServer(t, nil)
	c := ts.create(map[string]any{"game": "tiny", "seed": 9,
		"seats": []map[string]any{{"kind": "human"}, {"kind": "bot", "level": "easy"}}})
	id, token := c.ID, c.Seats[0].Token
	ts.playTiny(id, token, 0, 4)
	before := ts.getTiny(id, "", -1)
	to := lastMoveOf(before.Moves, 0)
	if status, _, body := ts.takeBack(id, token, before.State.Version, nil); status != 200 {
		t.Fatalf("take-back: %d %s", status, body)
	}
	ts.stop()
	ts.start(nil)
	g := ts.getTiny(id, token, -1)
	if g.State.Version != to || g.TakeBacks.Count != 1 || g.State.ToMove != 0 {
		t.Fatalf("after a restart: version %d (want %d), %+v, to move %d", g.State.Version, to, g.TakeBacks, g.State.ToMove)
	}
	ts.playTiny(id, token, 0, 2)
	if _, w := ts.connect(id, "", to); w.Resume != "snapshot" || w.TakeBacks != 1 {
		t.Errorf("a client that has not seen the take-back: %s", w.raw)
	}
	now := ts.getTiny(id, "", -1).State.Version
	cl, err := ts.dial(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.c.CloseNow()
	cl.send(map[string]any{"type": "hello", "version": now, "take_backs": 1})
	if w := cl.read(); w.Resume != "events" {
		t.Errorf("a client that has seen it: %s", w.raw)
	}
}

// TestTakeBackDrawsAnew: in a game that cannot tell which moves showed
// chance (Tiny counts no revelations), a move taken back and played again
// draws anew (issue 28, item 1): playing a card, which draws one from the
// deck, and taking it back, 50 times, draws more than one card. The record holds the
// reseeds, and replays to the game exactly at every version, before and
// after a restart.
func TestTakeBackDrawsAnew(t *testing.T) {
	ts := newTestServer(t, nil)
	id, tokens, _ := tinyPeople(ts, 5)
	start := ts.getTiny(id, tokens[0], -1).State
	for start.ToMove != 0 || start.View.Decision != "play" {
		p := start.ToMove
		ts.move(id, tokens[p], start.Version, ts.getTiny(id, tokens[p], -1).State.View.Legal[0])
		start = ts.getTiny(id, tokens[0], -1).State
	}
	yes := true
	drawn := map[string]bool{}
	for range 50 {
		r := ts.move(id, tokens[0], start.Version, start.View.Legal[0])
		drawn[fmt.Sprint(decode[gametest.TinyView](t, r.State.View).Hand)] = true
		status, tb, body := ts.takeBack(id, tokens[0], r.Version, nil)
		if status == 200 && !tb.Done {
			status, tb, body = ts.takeBack(id, tokens[1], r.Version, &yes)
		}
		if status != 200 || !tb.Done || tb.Version != start.Version {
			t.Fatalf("taking back %s: %d %s", start.View.Legal[0], status, body)
		}
	}
	if len(drawn) < 2 {
		t.Errorf("50 times %s and a take-back drew the same every time: hands %v", start.View.Legal[0], drawn)
	}
	for {
		g := ts.getTiny(id, "", -1)
		if g.State.Over {
			break
		}
		p := g.State.ToMove
		ts.move(id, tokens[p], g.State.Version, ts.getTiny(id, tokens[p], -1).State.View.Legal[0])
	}
	ts.recordReplaysExactly(id, 50)
	ts.stop()
	ts.start(nil)
	ts.recordReplaysExactly(id, 50)
}

// recordReplaysExactly checks that game id's record, with its reseeds,
// replays to the state the server shows at every version.
func (ts *testServer) recordReplaysExactly(id string, reseeds int) {
	ts.t.Helper()
	status, body := ts.request("GET", "/api/games/"+id+"/record", "", nil)
	if status != 200 {
		ts.t.Fatalf("record: %d %s", status, body)
	}
	rec := decode[game.Record](ts.t, body)
	if len(rec.Reseeds) != reseeds {
		ts.t.Errorf("the record holds %d reseeds, want %d", len(rec.Reseeds), reseeds)
	}
	for at := 0; at <= len(rec.Moves); at++ {
		replayed, err := rec.Replay(gametest.Tiny, at)
		if err != nil {
			ts.t.Fatalf("the record does not replay: %v", err)
		}
		status, text := ts.request("GET", fmt.Sprintf("/api/games/%s/state?at=%d", id, at), "", nil)
		if status != 200 || strings.TrimSpace(string(text)) != replayed.String() {
			ts.t.Fatalf("at %d the server shows %d %s, the record replays to %s", at, status, text, replayed.String())
		}
	}
}

// playQuietOrNot plays, for the person to move in game id, a legal move
// drawn by rng of those that show chance (reveal) or of those that do not,
// and returns the version after it; false when no legal move is of the
// kind. What a move shows is the game's own count (game.Revealer), tried
// on a copy.
func (ts *testServer) playQuietOrNot(id string, tokens []string, rng *rand.Rand, reveal bool) (int, bool) {
	ts.t.Helper()
	ts.s.mu.Lock()
	g := ts.s.games[id]
	ts.s.mu.Unlock()
	g.mu.Lock()
	cur, v := unbounded(g.cur).Clone(), len(g.moves)
	g.mu.Unlock()
	before, _ := game.Revealed(cur)
	var kind []game.Move
	for _, m := range cur.AppendLegal(nil) {
		next := cur.Clone()
		if err := next.Play(m); err != nil {
			ts.t.Fatal(err)
		}
		if after, _ := game.Revealed(next); (after != before) == reveal {
			kind = append(kind, m)
		}
	}
	if len(kind) == 0 {
		return v, false
	}
	m := kind[rng.IntN(len(kind))]
	return ts.move(id, tokens[cur.ToMove()], v, cur.MoveText(m)).Version, true
}

// askAndAccept asks, for seat, to take back its last move at version, and
// has the other person accept: the status and body of the last answer.
func (ts *testServer) askAndAccept(id string, tokens []string, seat, version int) (int, takeBackResponse, []byte) {
	ts.t.Helper()
	status, r, body := ts.takeBack(id, tokens[seat], version, nil)
	if status == 200 && !r.Done {
		yes := true
		status, r, body = ts.takeBack(id, tokens[1-seat], version, &yes)
	}
	return status, r, body
}

// TestTakeBackStopsAtChance: a take-back never goes back past a move that
// showed what chance drew (issue 47, item 10): Blue Lagoon's move that
// ends the exploration and lays the settlement's tokens, a tile Druids
// draws. It is refused with chance_shown, for the seat that made the move
// and for the seat that moved before it, and the state says how far back
// a take-back may go; a move that showed nothing is taken back as before,
// and its chance is not drawn anew, since nothing of it was seen.
func TestTakeBackStopsAtChance(t *testing.T) {
	for _, c := range []struct {
		game string
		seed uint64
	}{
		{"bluelagoon", 4},
		{"druids", 2},
	} {
		t.Run(c.game, func(t *testing.T) {
			ts := newTestServer(t, withDruids)
			id, tokens := ts.humansOf(c.game, 2, c.seed)
			rng := rand.New(rand.NewPCG(c.seed, 1))
			type headOnly struct {
				State stateHead `json:"state"`
			}
			floor := func() int {
				_, body := ts.request("GET", "/api/games/"+id, "", nil)
				return decode[headOnly](t, body).State.TakeBackFloor
			}

			// A move that shows nothing goes back, and draws nothing anew.
			v, ok := ts.playQuietOrNot(id, tokens, rng, false)
			if !ok {
				t.Fatal("no first move shows nothing")
			}
			if status, r, body := ts.askAndAccept(id, tokens, 0, v); status != 200 || !r.Done || r.Version != 0 {
				t.Fatalf("taking back a move that showed nothing: %d %s", status, body)
			}
			if sg, err := ts.store.Game(context.Background(), id); err != nil || len(sg.Reseeds) != 0 {
				t.Errorf("a take-back of a move that showed nothing stored reseeds %v (%v)", sg.Reseeds, err)
			}

			// Moves that show nothing, until one shows chance.
			var seat, shown int
			for {
				if n, ok := ts.playQuietOrNot(id, tokens, rng, true); ok {
					shown = n
					break
				}
				if _, ok := ts.playQuietOrNot(id, tokens, rng, false); !ok {
					t.Fatal("the game has no move left")
				}
			}
			g := ts.get(id, "")
			seat = g.Moves[shown-1].Seat
			if f := floor(); f != shown {
				t.Errorf("after the move %d that showed chance, the state's take_back_floor is %d", shown, f)
			}
			for _, p := range []int{seat, 1 - seat} {
				if lastMoveOf(g.Moves, p) < 0 {
					continue
				}
				status, r, body := ts.takeBack(id, tokens[p], shown, nil)
				var e errorResponse
				if status == http.StatusConflict {
					e = decode[errorResponse](t, body)
				}
				if status != http.StatusConflict || e.Error.Code != "chance_shown" || r.Done {
					t.Errorf("seat %d taking back past move %d, which showed chance: %d %s", p, shown, status, body)
				}
			}
			if g := ts.get(id, ""); g.State.Version != shown || g.TakeBacks.Request != nil {
				t.Errorf("after the refusals the game is at version %d, request %+v; want %d and none", g.State.Version, g.TakeBacks.Request, shown)
			}

			// A move after it goes back to it, not beyond.
			v, ok = ts.playQuietOrNot(id, tokens, rng, false)
			if !ok {
				t.Fatal("no move after the revelation shows nothing")
			}
			p := ts.get(id, "").Moves[v-1].Seat
			if status, r, body := ts.askAndAccept(id, tokens, p, v); status != 200 || !r.Done || r.Version != shown {
				t.Errorf("taking back the move after the revelation: %d %s", status, body)
			}
		})
	}
}

// TestTakeBackStopsAtChanceAgainstBots: what the outside probe did (issue
// 47, item 10), taking back an explore against a bot to draw another tile,
// is refused as among people: against bots a take-back is done at once,
// but never past a tile drawn.
func TestTakeBackStopsAtChanceAgainstBots(t *testing.T) {
	ts := newTestServer(t, withDruids)
	c := ts.create(map[string]any{"game": "druids", "seed": 6,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
	id, tokens := c.ID, []string{c.Seats[0].Token, ""}
	ts.ok("POST", "/api/games/"+id+"/join", tokens[0], nil)
	rng := rand.New(rand.NewPCG(6, 1))
	for {
		st := ts.waitState(id, func(st aState[json.RawMessage]) bool { return st.ToMove == 0 || st.Over })
		if st.Over {
			t.Fatal("the game ended before Ann drew a tile")
		}
		if _, ok := ts.playQuietOrNot(id, tokens, rng, true); ok {
			break
		}
		ts.playQuietOrNot(id, tokens, rng, false)
	}
	for {
		g := ts.get(id, "")
		status, _, body := ts.takeBack(id, tokens[0], g.State.Version, nil)
		if status == http.StatusConflict && decode[errorResponse](t, body).Error.Code == "stale_version" {
			continue // the bot moved meanwhile
		}
		if status != http.StatusConflict || decode[errorResponse](t, body).Error.Code != "chance_shown" {
			t.Errorf("taking back a tile drawn against a bot: %d %s", status, body)
		}
		if after := ts.get(id, ""); after.State.Version < g.State.Version {
			t.Errorf("the refused take-back went back from %d to %d", g.State.Version, after.State.Version)
		}
		return
	}
}
