package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsClient is a test's WebSocket client.
type wsClient struct {
	t *testing.T
	c *websocket.Conn
}

// message is any server message, with the fields the tests look at.
type message struct {
	Type      string          `json:"type"`
	Version   int             `json:"version"`
	ID        string          `json:"id"`
	Seat      int             `json:"seat"`
	Move      string          `json:"move"`
	You       *int            `json:"you"`
	Resume    string          `json:"resume"`
	TakeBacks int             `json:"take_backs"`
	Duplicate bool            `json:"duplicate"`
	Status    int             `json:"status"`
	Code      string          `json:"code"`
	Message   string          `json:"message"`
	Note      json.RawMessage `json:"note"`
	Seats     []seatView      `json:"seats"`
	State     json.RawMessage `json:"state"`
	Game      json.RawMessage `json:"game"`
	Standing  *standingView   `json:"standing"`
	raw       []byte
}

func (ts *testServer) dial(id string, header http.Header) (*wsClient, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(ts.http.URL, "http") + "/api/games/" + id + "/ws"
	c, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		if resp != nil {
			return nil, &dialError{resp.StatusCode, err}
		}
		return nil, err
	}
	c.SetReadLimit(1 << 20)
	return &wsClient{t: ts.t, c: c}, nil
}

type dialError struct {
	status int
	err    error
}

func (e *dialError) Error() string { return e.err.Error() }

// connect dials and says hello with a token ("" for a spectator) and the
// last version seen (-1 for none), and reads the welcome.
func (ts *testServer) connect(id, token string, last int) (*wsClient, message) {
	ts.t.Helper()
	c, err := ts.dial(id, nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	ts.t.Cleanup(func() { c.c.CloseNow() })
	hello := map[string]any{"type": "hello", "version": last}
	if token != "" {
		hello["token"] = token
	}
	c.send(hello)
	w := c.read()
	if w.Type != "welcome" {
		ts.t.Fatalf("first message %s, want a welcome", w.raw)
	}
	return c, w
}

func (c *wsClient) send(v any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.c.Write(ctx, websocket.MessageText, mustJSON(v)); err != nil {
		c.t.Fatal(err)
	}
}

func (c *wsClient) readErr() (message, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, data, err := c.c.Read(ctx)
	if err != nil {
		return message{}, err
	}
	var m message
	if err := json.Unmarshal(data, &m); err != nil {
		return message{}, err
	}
	m.raw = data
	return m, nil
}

// read reads the next message that is not a seats change or a heartbeat.
func (c *wsClient) read() message {
	c.t.Helper()
	for {
		m, err := c.readErr()
		if err != nil {
			c.t.Fatal(err)
		}
		if m.Type != "seats" && m.Type != "heartbeat" {
			return m
		}
	}
}

// readUntil reads messages up to and including the first of type typ.
func (c *wsClient) readUntil(typ string) []message {
	c.t.Helper()
	var out []message
	for {
		m := c.read()
		out = append(out, m)
		if m.Type == "error" && typ != "error" {
			c.t.Fatalf("waiting for %s: %s", typ, m.raw)
		}
		if m.Type == typ {
			return out
		}
	}
}

// closeStatus reads until the connection closes and returns its status. It
// drains the frames without decoding them, so that a client behind by
// megabytes reaches the close frame before the server gives up sending it.
func (c *wsClient) closeStatus() websocket.StatusCode {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, r, err := c.c.Reader(ctx)
		if err == nil {
			_, err = io.Copy(io.Discard, r)
		}
		cancel()
		if err != nil {
			return websocket.CloseStatus(err)
		}
	}
}

// TestPlayOverWebSocket plays a whole game between two seats over
// WebSocket with a spectator watching, and checks that all three see the
// same events, in order, and that each move is acknowledged after its event.
func TestPlayOverWebSocket(t *testing.T) {
	ts := newTestServer(t, nil)
	id, tokens := ts.humans(2, 21)
	var seats [2]*wsClient
	for i, tok := range tokens {
		c, w := ts.connect(id, tok, -1)
		if w.You == nil || *w.You != i || w.Resume != "snapshot" {
			t.Fatalf("welcome %s", w.raw)
		}
		if s := c.read(); s.Type != "snapshot" {
			t.Fatalf("after the welcome: %s", s.raw)
		}
		seats[i] = c
	}
	spectator, w := ts.connect(id, "", -1)
	if w.You != nil {
		t.Fatalf("spectator welcome %s", w.raw)
	}
	snap := spectator.read()
	g := decode[fullGame](t, snap.Game)
	if g.State.Version != 0 || len(g.Seats) != 2 || !g.Seats[0].Joined || g.Seats[0].Connected != 1 {
		t.Fatalf("snapshot %s", snap.Game)
	}

	spectator.send(map[string]any{"type": "move", "id": "s1", "version": 0, "move": g.State.View.Legal[0]})
	if e := spectator.read(); e.Type != "error" || e.Code != "no_token" || e.ID != "s1" || len(e.State) == 0 {
		t.Errorf("a spectator's move: %s", e.raw)
	}
	seats[1].send(map[string]any{"type": "move", "id": "x", "version": 0, "move": g.State.View.Legal[0]})
	if e := seats[1].read(); e.Type != "error" || e.Code != "not_your_turn" || e.Status != 409 {
		t.Errorf("a move out of turn: %s", e.raw)
	}

	state := g.State
	var events [3][]string
	for !state.Over {
		mover := seats[state.ToMove]
		mv := state.View.Legal[len(state.View.Legal)-1]
		mover.send(map[string]any{"type": "move", "id": "m", "version": state.Version, "move": mv})
		got := mover.readUntil("ack")
		ack := got[len(got)-1]
		if ack.Version != state.Version+1 || ack.Duplicate || got[0].Type != "move" || got[0].Move != mv {
			t.Fatalf("moving %s: %s then %s", mv, got[0].raw, ack.raw)
		}
		for _, e := range got[:len(got)-1] {
			events[state.ToMove] = append(events[state.ToMove], string(e.raw))
		}
		for i, c := range []*wsClient{seats[1-state.ToMove], spectator} {
			for range len(got) - 1 {
				e := c.read()
				events[map[int]int{0: 1 - state.ToMove, 1: 2}[i]] = append(events[map[int]int{0: 1 - state.ToMove, 1: 2}[i]], string(e.raw))
			}
		}
		state = decode[stateView](t, got[0].State)
	}
	if !slices.Equal(events[0], events[1]) || !slices.Equal(events[0], events[2]) {
		t.Fatal("the clients saw different events")
	}
	// The phases' ends are in the notes of the moves that ended them, and
	// the game's end is an event of its own, with the winners.
	var types []string
	for _, e := range events[0] {
		var m message
		json.Unmarshal([]byte(e), &m)
		switch m.Type {
		case "move":
			for _, end := range decode[blNote](t, m.Note).PhaseEnds {
				types = append(types, "phase_end "+end.Phase)
			}
		case "game_over":
			if m.Standing == nil || !slices.Equal(m.Standing.Winners, state.Standing.Winners) || len(m.Standing.Winners) == 0 {
				t.Errorf("game over %s; the last state's standing %+v", e, state.Standing)
			}
			types = append(types, m.Type)
		default:
			types = append(types, m.Type)
		}
	}
	if want := []string{"phase_end exploration", "phase_end settlement", "game_over"}; !slices.Equal(types, want) {
		t.Errorf("events other than moves: %q, want %q", types, want)
	}
	if got := ts.storedMoves(id); len(got) != state.Version {
		t.Errorf("%d moves stored, %d played", len(got), state.Version)
	}

	// A move after the end, and a move repeated, over the socket.
	seats[0].send(map[string]any{"type": "move", "id": "late", "version": state.Version, "move": "S 0,0"})
	if e := seats[0].read(); e.Code != "game_over" {
		t.Errorf("a move after the end: %s", e.raw)
	}
	first := decode[fullGame](t, ts.ok("GET", "/api/games/"+id, "", nil)).Moves[0]
	seats[first.Seat].send(map[string]any{"type": "move", "id": "again", "version": 0, "move": first.Move})
	if a := seats[first.Seat].read(); a.Type != "ack" || !a.Duplicate || a.Version != 1 || a.ID != "again" {
		t.Errorf("the first move repeated: %s", a.raw)
	}
}

// TestReconnect checks that a client that says the last version it saw gets
// exactly the events it missed, and a snapshot when it is too far behind.
func TestReconnect(t *testing.T) {
	ts := newTestServer(t, nil)
	id, tokens := ts.humans(2, 8)
	watcher, _ := ts.connect(id, "", -1)
	watcher.read() // snapshot
	var all []string
	for v := range resumeLimit + 10 {
		g := ts.get(id, "")
		ts.move(id, tokens[g.State.ToMove], v, g.State.View.Legal[v%len(g.State.View.Legal)])
		all = append(all, string(watcher.read().raw))
	}
	for _, last := range []int{0, 9, 30, resumeLimit + 9, resumeLimit + 10} {
		c, w := ts.connect(id, tokens[0], last)
		want := "events"
		if resumeLimit+10-last > resumeLimit {
			want = "snapshot"
		}
		if w.Resume != want || w.Version != resumeLimit+10 {
			t.Errorf("reconnecting from %d: %s, want %s", last, w.raw, want)
			continue
		}
		if want == "snapshot" {
			if s := c.read(); s.Type != "snapshot" {
				t.Errorf("reconnecting from %d: %s, want a snapshot", last, s.raw)
			}
			continue
		}
		for v := last + 1; v <= resumeLimit+10; v++ {
			if got := c.read(); got.Version != v || got.Type != "move" || !sameEvent(string(got.raw), all[v-1]) {
				t.Fatalf("reconnecting from %d: event %s, want %s", last, got.raw, all[v-1])
			}
		}
		c.send(map[string]any{"type": "ping", "id": "p"})
		if p := c.read(); p.Type != "pong" || p.ID != "p" {
			t.Errorf("after the missed events: %s, want the pong", p.raw)
		}
	}
	for _, last := range []int{-1, resumeLimit + 11} {
		c, w := ts.connect(id, "", last)
		if s := c.read(); w.Resume != "snapshot" || s.Type != "snapshot" {
			t.Errorf("reconnecting from %d: %s then %s, want a snapshot", last, w.raw, s.raw)
		}
	}
}

// sameEvent compares two move events, leaving out the clocks, which are
// read at the moment of sending.
func sameEvent(a, b string) bool {
	var x, y map[string]any
	json.Unmarshal([]byte(a), &x)
	json.Unmarshal([]byte(b), &y)
	return mustEqualJSON(x) == mustEqualJSON(y)
}

func mustEqualJSON(v any) string { return string(mustJSON(v)) }

// in returns the test server for a subtest, whose clients then fail the
// subtest and not its parent.
func (ts *testServer) in(t *testing.T) *testServer {
	sub := *ts
	sub.t = t
	return &sub
}

func TestWebSocketBadActors(t *testing.T) {
	ts := newTestServer(t, nil)
	id, tokens := ts.humans(2, 4)

	t.Run("cross origin", func(t *testing.T) {
		_, err := ts.dial(id, http.Header{"Origin": {"https://evil.example"}})
		var de *dialError
		if !errors.As(err, &de) || de.status != http.StatusForbidden {
			t.Errorf("cross-origin dial: %v, want 403", err)
		}
		c, err := ts.dial(id, http.Header{"Origin": {ts.http.URL}})
		if err != nil {
			t.Fatalf("same-origin dial: %v", err)
		}
		c.c.CloseNow()
	})
	t.Run("unknown game", func(t *testing.T) {
		_, err := ts.dial("nosuchgame", nil)
		var de *dialError
		if !errors.As(err, &de) || de.status != http.StatusNotFound {
			t.Errorf("dialing an unknown game: %v, want 404", err)
		}
	})
	t.Run("bad token", func(t *testing.T) {
		ts := ts.in(t)
		c, err := ts.dial(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.send(map[string]any{"type": "hello", "token": "nope"})
		if e := c.read(); e.Code != "bad_token" {
			t.Errorf("hello with a bad token: %s", e.raw)
		}
		if s := c.closeStatus(); s != websocket.StatusPolicyViolation {
			t.Errorf("closed with %v, want policy violation", s)
		}
	})
	t.Run("no hello", func(t *testing.T) {
		ts := ts.in(t)
		c, err := ts.dial(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.send(map[string]any{"type": "move", "version": 0, "move": "S 0,0"})
		if e := c.read(); e.Code != "bad_request" {
			t.Errorf("a move before hello: %s", e.raw)
		}
		if s := c.closeStatus(); s != websocket.StatusPolicyViolation {
			t.Errorf("closed with %v, want policy violation", s)
		}
	})
	t.Run("bad messages", func(t *testing.T) {
		ts := ts.in(t)
		c, _ := ts.connect(id, tokens[0], -1)
		c.read()
		for _, bad := range []string{`{`, `{"type":"dance"}`, `{"type":"move","version":0,"move":"S nine"}`, `{"type":"move","move":"S 0,0"}`, `{"type":"ping","token":"x"}`, `{"type":"hello"}`} {
			if err := c.c.Write(context.Background(), websocket.MessageText, []byte(bad)); err != nil {
				t.Fatal(err)
			}
			if e := c.read(); e.Code != "bad_request" || e.Message == "" {
				t.Errorf("%s: answered %s", bad, e.raw)
			}
		}
		if got := ts.storedMoves(id); len(got) != 0 {
			t.Errorf("bad messages stored moves %v", got)
		}
	})
	t.Run("too large", func(t *testing.T) {
		ts := ts.in(t)
		c, _ := ts.connect(id, tokens[0], -1)
		c.read()
		big := `{"type":"ping","id":"` + strings.Repeat("x", maxMessageBytes) + `"}`
		c.c.Write(context.Background(), websocket.MessageText, []byte(big))
		if s := c.closeStatus(); s != websocket.StatusMessageTooBig {
			t.Errorf("closed with %v, want message too big", s)
		}
	})
	t.Run("flood", func(t *testing.T) {
		// A token a million seconds: the burst is all there is.
		ts := newTestServer(t, func(c *Config) { c.MessageRate, c.MessageBurst = 1e-6, 5 })
		id, _ := ts.humans(2, 4)
		c, _ := ts.connect(id, "", -1)
		c.read()
		// Five messages pass, and the refusals of the next ones say which
		// message they refuse.
		burst := []string{
			`{"type":"ping","id":"p0"}`, `{"type":"ping","id":"p1"}`, `{"type":"ping","id":"p2"}`, `{"type":"ping","id":"p3"}`, `{"type":"ping","id":"p4"}`,
			`{"type":"move","id":"m5","version":0,"move":"S 0,0"}`, `{"type":"ping","id":"p6"}`, `{"type":"ping"}`,
		}
		for _, m := range burst {
			c.c.Write(context.Background(), websocket.MessageText, []byte(m))
		}
		var got []string
		for range burst {
			m := c.read()
			got = append(got, m.Type+" "+m.Code+" "+m.ID)
		}
		want := []string{"pong  p0", "pong  p1", "pong  p2", "pong  p3", "pong  p4", "error rate_limited m5", "error rate_limited p6", "error rate_limited "}
		if !slices.Equal(got, want) {
			t.Errorf("a burst of 8: %q, want %q", got, want)
		}
		ping := []byte(`{"type":"ping","id":"p"}`)
		for range refusalsToClose {
			c.c.Write(context.Background(), websocket.MessageText, ping)
		}
		if s := c.closeStatus(); s != websocket.StatusPolicyViolation {
			t.Errorf("closed with %v, want policy violation", s)
		}
	})
	t.Run("a seat moves only for itself", func(t *testing.T) {
		ts := ts.in(t)
		g := ts.get(id, "")
		c, _ := ts.connect(id, tokens[1-g.State.ToMove], -1)
		c.read()
		c.send(map[string]any{"type": "move", "id": "1", "version": g.State.Version, "move": g.State.View.Legal[0]})
		if e := c.read(); e.Code != "not_your_turn" {
			t.Errorf("moving for the other seat: %s", e.raw)
		}
		if got := ts.storedMoves(id); len(got) != g.State.Version {
			t.Errorf("stored moves %v", got)
		}
	})
}

// TestSlowClientDropped checks that a client that does not read is closed
// with the too-slow status instead of holding up the game.
func TestSlowClientDropped(t *testing.T) {
	ts := newTestServer(t, nil)
	id, _ := ts.humans(2, 2)
	slow, _ := ts.connect(id, "", -1)
	g, _ := ts.s.match(context.Background(), id)
	// Broadcast big messages until the socket's buffers and then the queue
	// are full.
	big := mustJSON(map[string]string{"type": "heartbeat", "pad": strings.Repeat("x", 64<<10)})
	for i := 0; ; i++ {
		g.mu.Lock()
		g.broadcast(big)
		subs := len(g.subs)
		g.mu.Unlock()
		if subs == 0 {
			break
		}
		if i > 10000 {
			t.Fatal("the slow client was never dropped")
		}
	}
	if s := slow.closeStatus(); s != statusTooSlow {
		t.Errorf("closed with %v, want %v", s, statusTooSlow)
	}
}
