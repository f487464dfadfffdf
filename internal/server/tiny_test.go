package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// These tests play the tiny game of game/gametest through the server: a
// game that is not Blue Lagoon, whose hands are hidden from the other
// seats, whose turns have several decisions and a choice by another seat
// in the middle, and whose deck is drawn by its generator.

// tinyState is a state of Tiny as the tests read it.
type tinyState = aState[gametest.TinyView]

type tinyGame struct {
	gameView
	State tinyState `json:"state"`
}

// getTiny reads a game of Tiny as token's seat sees it.
func (ts *testServer) getTiny(id, token string, at int) tinyGame {
	ts.t.Helper()
	path := "/api/games/" + id
	if at >= 0 {
		path += fmt.Sprintf("?at=%d", at)
	}
	status, body := ts.request("GET", path, token, nil)
	if status != 200 {
		ts.t.Fatalf("get %s: %d %s", path, status, body)
	}
	return decode[tinyGame](ts.t, body)
}

// waitState polls game id until cond holds of its state, as a spectator
// sees it, and returns the state.
func (ts *testServer) waitState(id string, cond func(aState[json.RawMessage]) bool) aState[json.RawMessage] {
	ts.t.Helper()
	for range 10000 {
		status, body := ts.request("GET", "/api/games/"+id, "", nil)
		if status != 200 {
			ts.t.Fatalf("get %s: %d %s", id, status, body)
		}
		g := decode[struct {
			State aState[json.RawMessage] `json:"state"`
		}](ts.t, body)
		if cond(g.State) {
			return g.State
		}
		time.Sleep(time.Millisecond)
	}
	ts.t.Fatalf("game %s: condition never met", id)
	return aState[json.RawMessage]{}
}

// nextEvent reads the next message that is not an ack.
func (c *wsClient) nextEvent() message {
	c.t.Helper()
	for {
		if m := c.read(); m.Type != "ack" {
			return m
		}
	}
}

// viewOf is the view the rules give seat of st, encoded as the server
// encodes it.
func viewOf(t testing.TB, st game.State, seat int) string {
	t.Helper()
	return string(mustJSON(st.View(game.Viewer{Seat: seat})))
}

// TestTinyEndToEnd plays games of Tiny between two people and a bot over
// HTTP and WebSocket, with a restart in the middle, and checks that each
// seat sees its own hand and nobody else's (a spectator none), that the
// record is withheld until the end and then replays to the same game, and
// that every view the server gave, live, by the events since a version and
// in a replay, is the rules' own view of that seat.
func TestTinyEndToEnd(t *testing.T) {
	ts := newTestServer(t, nil)
	const seed = 42
	c := ts.create(map[string]any{
		"game":    "tiny",
		"options": map[string]any{"hand": "4", "goal": "low"},
		"seats":   []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot", "level": "easy"}},
		"seed":    seed,
	})
	id := c.ID
	if c.Game.Game != "tiny" || c.Game.GameName != "Tiny" || string(c.Game.Table) != "null" ||
		!maps(c.Game.Options, map[string]string{"hand": "4", "goal": "low", "teams": "solo"}) || c.Game.Time != nil {
		t.Fatalf("created %+v", c.Game)
	}
	tokens := map[int]string{c.Seats[0].Seat: c.Seats[0].Token, c.Seats[1].Seat: c.Seats[1].Token}
	rules := gametest.Tiny
	setup := game.Setup{Players: 3, Options: map[string]string{"hand": "4", "goal": "low", "teams": "solo"}, Seed: seed}

	// The seats and a spectator follow the game over WebSocket.
	var clients [2]*wsClient
	for p := range clients {
		cl, _ := ts.connect(id, tokens[p], -1)
		snap := cl.read()
		g := decode[tinyGame](t, snap.Game)
		if len(g.State.View.Hand) != 4 || *g.You != p {
			t.Fatalf("seat %d's snapshot: %s", p, snap.Game)
		}
		clients[p] = cl
	}
	spectator, _ := ts.connect(id, "", -1)
	if g := decode[tinyGame](t, spectator.read().Game); g.State.View.Hand != nil || len(g.State.View.Holding) != 3 {
		t.Fatalf("the spectator's snapshot: %+v", g.State.View)
	}

	// expect checks what the server showed seat p of version v against
	// the rules' own view, replayed from the setup.
	var texts []string
	replayTo := func(v int) game.State {
		t.Helper()
		st, err := (&game.Record{Game: "tiny", Players: 3, Options: setup.Options, Seed: seed, Moves: texts[:v]}).Replay(rules, -1)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	expect := func(where string, p int, st tinyState) {
		t.Helper()
		want := replayTo(st.Version)
		if got := string(mustJSON(st.View)); got != viewOf(t, want, p) {
			t.Fatalf("%s: seat %d's view at version %d is %s, want %s", where, p, st.Version, got, viewOf(t, want, p))
		}
		if st.ToMove != want.ToMove() || st.Over != want.Over() {
			t.Fatalf("%s: to move %d over %v, want %d %v", where, st.ToMove, st.Over, want.ToMove(), want.Over())
		}
	}

	rng := rand.New(rand.NewPCG(seed, 1))
	restarted, triggered := false, 0
	for v := 0; ; {
		g := ts.getTiny(id, "", -1)
		if g.State.Version < v {
			t.Fatalf("the game went back from %d to %d", v, g.State.Version)
		}
		// What the clients were told of the moves since, each seat its
		// own view.
		for ; v < g.State.Version; v++ {
			texts = append(texts, g.Moves[v].Move)
			for p, cl := range clients {
				e := cl.nextEvent()
				if e.Type != "move" || e.Version != v+1 || e.Move != g.Moves[v].Move {
					t.Fatalf("seat %d was told %s, want move %d %s", p, e.raw, v+1, g.Moves[v].Move)
				}
				expect("a move event", p, decode[struct {
					State tinyState `json:"state"`
				}](t, e.raw).State)
			}
			e := spectator.read()
			expect("a spectator's move event", game.NoSeat, decode[struct {
				State tinyState `json:"state"`
			}](t, e.raw).State)
		}
		if g.State.Over {
			break
		}
		if status, _ := ts.request("GET", "/api/games/"+id+"/record", "", nil); status != http.StatusForbidden {
			t.Fatalf("the record of a game of Tiny in progress: %d, want it withheld", status)
		}
		if status, _ := ts.request("GET", "/api/games/"+id+"/state", "", nil); status != http.StatusForbidden {
			t.Fatalf("the notation of a game of Tiny in progress, with every hand: %d, want it withheld", status)
		}
		p := g.State.ToMove
		token, ours := tokens[p]
		if !ours {
			// The bot's turn, or its choice: wait for it.
			ts.waitState(id, func(st aState[json.RawMessage]) bool { return st.Version > v })
			continue
		}
		mine := ts.getTiny(id, token, -1)
		expect("a GET", p, mine.State)
		for q := range clients {
			if q != p {
				other := ts.getTiny(id, tokens[q], -1)
				expect("another seat's GET", q, other.State)
				if len(other.State.View.Legal) != 0 {
					t.Fatalf("seat %d sees moves %v while seat %d is to move", q, other.State.View.Legal, p)
				}
			}
		}
		if mine.State.View.Decision == "trigger" {
			triggered++
			if mine.State.View.Owner == p {
				t.Fatalf("a triggered choice for the turn's owner %d", p)
			}
		}
		legal := mine.State.View.Legal
		m := legal[rng.IntN(len(legal))]
		if v%2 == 0 {
			ts.move(id, token, v, m)
		} else {
			clients[p].send(map[string]any{"type": "move", "id": "m", "version": v, "move": m})
			ts.waitState(id, func(st aState[json.RawMessage]) bool { return st.Version > v })
		}
		if v >= 6 && !restarted {
			// A restart in the middle: the clients come back with the
			// last version they saw and get exactly the events they
			// missed, as they may see them.
			restarted = true
			ts.waitState(id, func(st aState[json.RawMessage]) bool { return st.Version > v })
			for _, cl := range append(clients[:], spectator) {
				cl.c.CloseNow()
			}
			ts.stop()
			ts.start(nil)
			for p := range clients {
				cl, w := ts.connect(id, tokens[p], v)
				if w.Resume != "events" {
					t.Fatalf("seat %d back at version %d: %s", p, v, w.raw)
				}
				clients[p] = cl
			}
			spectator, _ = ts.connect(id, "", v)
		}
	}
	if !restarted {
		t.Error("the game ended before the restart")
	}
	if triggered == 0 {
		t.Error("no choice was asked of a seat in the middle of another's turn; choose another seed")
	}
	for _, cl := range clients {
		if e := cl.readUntil("game_over"); e[len(e)-1].Standing == nil || len(e[len(e)-1].Standing.Winners) == 0 {
			t.Errorf("game over without winners: %s", e[len(e)-1].raw)
		}
	}

	// The record replays to the same game, and a replay at every version
	// shows each seat its own view.
	status, body := ts.request("GET", "/api/games/"+id+"/record", "", nil)
	if status != 200 {
		t.Fatalf("the record of the finished game: %d %s", status, body)
	}
	rec := decode[game.Record](t, body)
	if !slices.Equal(rec.Moves, texts) || rec.Seed != seed || rec.Game != "tiny" || !maps(rec.Options, setup.Options) {
		t.Fatalf("record %+v, want the moves %v", rec, texts)
	}
	end, err := rec.Replay(rules, -1)
	if err != nil || !end.Over() {
		t.Fatalf("the record replays to %v, %v", end, err)
	}
	final := ts.getTiny(id, "", -1)
	if !slices.Equal(final.State.Standing.Winners, end.Standing().Winners) || !slices.Equal(final.State.Standing.Scores, end.Standing().Scores) {
		t.Errorf("standing %+v, the record's %+v", final.State.Standing, end.Standing())
	}
	for at := range len(texts) + 1 {
		for p := -1; p < 2; p++ {
			token := ""
			if p >= 0 {
				token = tokens[p]
			}
			g := ts.getTiny(id, token, at)
			if len(g.Moves) != at {
				t.Fatalf("the game at %d has %d moves", at, len(g.Moves))
			}
			expect(fmt.Sprintf("the game at %d", at), p, g.State)
		}
	}
	status, body = ts.request("GET", "/api/games/"+id+"/state", "", nil)
	if status != 200 || string(body) != end.String()+"\n" {
		t.Errorf("the notation of the finished game: %d %s, want %s", status, body, end)
	}
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestTinyNeverShowsAnotherHand plays games of Tiny of two to four seats to
// their end with people moving at random and checks every state each seat
// and a spectator were sent: the seat's own hand, nothing of another's.
func TestTinyNeverShowsAnotherHand(t *testing.T) {
	ts := newTestServer(t, nil)
	for n := 2; n <= 4; n++ {
		id, tokens := ts.humansOf("tiny", n, uint64(n))
		watchers := make([]*wsClient, n+1)
		for p := range n + 1 {
			token := ""
			if p < n {
				token = tokens[p]
			}
			watchers[p], _ = ts.connect(id, token, 0)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		var texts []string
		for {
			g := ts.getTiny(id, "", -1)
			if g.State.Over {
				break
			}
			p := g.State.ToMove
			legal := ts.getTiny(id, tokens[p], -1).State.View.Legal
			m := legal[rng.IntN(len(legal))]
			ts.move(id, tokens[p], g.State.Version, m)
			texts = append(texts, m)
			st, err := (&game.Record{Game: "tiny", Players: n, Options: g.Options, Seed: uint64(n), Moves: texts}).Replay(gametest.Tiny, -1)
			if err != nil {
				t.Fatal(err)
			}
			for q, w := range watchers {
				seat := q
				if q == n {
					seat = game.NoSeat
				}
				e := w.read()
				got := decode[struct {
					State tinyState `json:"state"`
				}](t, e.raw).State.View
				if string(mustJSON(got)) != viewOf(t, st, seat) {
					t.Fatalf("%d players, version %d: viewer %d was sent %s, want %s", n, len(texts), seat, mustJSON(got), viewOf(t, st, seat))
				}
			}
		}
		if status, _ := ts.request("GET", "/api/games/"+id+"/record", "", nil); status != 200 {
			t.Errorf("%d players: the record of the finished game: %d", n, status)
		}
	}
}

// TestTinyStoredAndResumed: a game of Tiny with a bot left in progress is
// resumed by a new server from the store, and the bot plays on.
func TestTinyStoredAndResumed(t *testing.T) {
	ts := newTestServer(t, nil)
	c := ts.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "human"}}, "seed": 5})
	token := c.Seats[0].Token
	if c.Seats[0].Seat != 1 {
		t.Fatalf("seats %+v", c.Seats)
	}
	ts.waitState(c.ID, func(st aState[json.RawMessage]) bool { return st.ToMove == 1 })
	ts.stop()
	ts.start(nil)
	for {
		st := ts.waitState(c.ID, func(st aState[json.RawMessage]) bool { return st.Over || st.ToMove == 1 })
		if st.Over {
			break
		}
		legal := ts.getTiny(c.ID, token, -1).State.View.Legal
		ts.move(c.ID, token, st.Version, legal[0])
	}
	sg, err := ts.store.Game(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if end := replay(t, sg); !end.Over() || !sg.Over || sg.Game != "tiny" {
		t.Errorf("stored: over %v, game %q; the moves replay to over %v", sg.Over, sg.Game, end.Over())
	}
	lobby := decode[map[string][]json.RawMessage](t, ts.ok("GET", "/api/lobby", "", nil))
	if len(lobby["finished"]) != 1 {
		t.Fatalf("lobby %s", ts.ok("GET", "/api/lobby", "", nil))
	}
	if s := decode[summaryView](t, lobby["finished"][0]); s.Game != "tiny" || s.GameName != "Tiny" || s.ToMove != game.NoSeat || len(s.Winners) == 0 || s.Options["hand"] != "3" {
		t.Errorf("the finished game in the lobby: %+v", s)
	}
}

// The notation of a game in progress is withheld because its rules say it
// is not public, not because of anything else: the same game declaring its
// notation public has it served while it is secret.
func TestStateWithheldUnlessPublic(t *testing.T) {
	open := *gametest.Tiny
	open.ID, open.PublicNotation = "tinyopen", true
	reg, err := game.NewRegistry(gametest.Tiny, &open)
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, func(c *Config) { c.Games = reg })
	for _, tc := range []struct {
		id   string
		want int
	}{{"tiny", http.StatusForbidden}, {"tinyopen", http.StatusOK}} {
		c := ts.create(map[string]any{"game": tc.id, "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
		if status, body := ts.request("GET", "/api/games/"+c.ID+"/state", "", nil); status != tc.want {
			t.Errorf("%s in progress: /state %d %s, want %d", tc.id, status, body, tc.want)
		}
	}
}
