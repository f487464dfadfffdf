package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// myGamesPage is a page of GET /api/me/games as a test reads it.
type myGamesPage struct {
	Games []struct {
		ID       string `json:"id"`
		ToMove   int    `json:"to_move"`
		Version  int    `json:"version"`
		YourTurn bool   `json:"your_turn"`
		Ended    bool   `json:"ended"`
	} `json:"games"`
	Waiting int    `json:"waiting"`
	More    string `json:"more"`
}

// endedGames stores n ended games of tiny with seat 0 player's, each a
// second after the last, straight into ts's store.
func endedGames(t *testing.T, ts *testServer, player string, n int) {
	ctx := context.Background()
	for i := range n {
		g := storetest.NewGame(fmt.Sprintf("ended%03d", i))
		g.Game, g.Options, g.Time, g.Clocks = "tiny", map[string]string{}, nil, nil
		g.Updated, g.Over = g.Created.Add(time.Duration(i)*time.Second), true
		if err := ts.store.Import(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := ts.store.OwnSeat(ctx, g.ID, 0, player, g.Created); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMyGamesPages: a player's ended games come 50 a page, newest first,
// with a cursor to the next page, which has the rest and none; a cursor
// that does not parse is refused and reads nothing; a page asked again
// with its ETag is answered 304 without a body.
func TestMyGamesPages(t *testing.T) {
	ts := newTestServer(t, nil)
	ann := ts.browser()
	endedGames(t, ts, ann.me().ID, 53)
	first := getAs[myGamesPage](ann, "/api/me/games")
	if len(first.Games) != 50 || first.More == "" || first.Waiting != 0 {
		t.Fatalf("the first page: %d games, more %q, waiting %d", len(first.Games), first.More, first.Waiting)
	}
	if first.Games[0].ID != "ended052" || first.Games[49].ID != "ended003" {
		t.Errorf("the first page runs from %s to %s, want ended052 to ended003", first.Games[0].ID, first.Games[49].ID)
	}
	next := getAs[myGamesPage](ann, "/api/me/games?before="+url.QueryEscape(first.More))
	var ids []string
	for _, g := range next.Games {
		ids = append(ids, g.ID)
		if !g.Ended {
			t.Errorf("game %s on a page of ended games is not ended", g.ID)
		}
	}
	if strings.Join(ids, " ") != "ended002 ended001 ended000" || next.More != "" {
		t.Errorf("the second page: %v, more %q; want the last three and no more", ids, next.More)
	}
	for _, bad := range []string{"x", "12", ".ended001", "12.", "-1.ended001", "012.ended001", "12.no/such", "99999999999999999999.a"} {
		status, body := ann.request("GET", "/api/me/games?before="+url.QueryEscape(bad), "", nil)
		if status != http.StatusBadRequest || !strings.Contains(string(body), `"bad_request"`) {
			t.Errorf("before=%q: %d %s, want 400 bad_request", bad, status, body)
		}
	}
	req, _ := http.NewRequest("GET", ts.http.URL+"/api/me/games", nil)
	resp, err := ann.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	tag := resp.Header.Get("ETag")
	if tag == "" {
		t.Fatal("no ETag")
	}
	status, body := ann.request("GET", "/api/me/games", "", nil, "If-None-Match", tag)
	if status != http.StatusNotModified || len(body) != 0 {
		t.Errorf("the page again with its ETag: %d %q, want 304 and no body", status, body)
	}
	if err := ts.store.OwnSeat(context.Background(), "ended052", 1, ann.me().ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if status, _ := ann.request("GET", "/api/me/games", "", nil, "If-None-Match", tag); status != http.StatusOK {
		t.Errorf("a changed page with the old ETag: %d, want 200", status)
	}
}

// FuzzParseCursor: a cursor that parses is written back as it was read,
// and every cursor formatted parses to itself.
func FuzzParseCursor(f *testing.F) {
	for _, s := range []string{"1764576000000.abc", "0.a", "12.", ".x", "1.a.b", "-1.a", "01.a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := parseCursor(text)
		if err != nil {
			return
		}
		if back := formatCursor(c); back != text {
			t.Fatalf("%q parses to %+v, which is written %q", text, c, back)
		}
		if again, err := parseCursor(formatCursor(c)); err != nil || again != c {
			t.Fatalf("%+v formatted does not parse back: %+v, %v", c, again, err)
		}
	})
}

// twoOfTiny is a game of Tiny of two people that first creates, holding
// seat 0, and second joins in seat 1.
func twoOfTiny(t *testing.T, first, second *browser) createResponse {
	t.Helper()
	human := map[string]any{"kind": "human"}
	status, body := first.request("POST", "/api/games", "", map[string]any{"game": "tiny", "seed": 5, "seats": []any{human, human}})
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, body)
	}
	g := decode[createResponse](t, body)
	if status, body := second.request("POST", "/api/games/"+g.ID+"/join", g.Seats[1].Token, nil); status != http.StatusOK {
		t.Fatalf("join: %d %s", status, body)
	}
	return g
}

// dialMyGames opens GET /api/me/ws as b.
func (b *browser) dialMyGames(t *testing.T, header http.Header) (*websocket.Conn, int, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u, _ := url.Parse(b.ts.http.URL)
	if header == nil {
		header = http.Header{}
	}
	for _, c := range b.client.Jar.Cookies(u) {
		header.Add("Cookie", c.Name+"="+c.Value)
	}
	c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(b.ts.http.URL, "http")+"/api/me/ws", &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		if resp != nil {
			return nil, resp.StatusCode, err
		}
		return nil, 0, err
	}
	c.SetReadLimit(1 << 20)
	return c, http.StatusSwitchingProtocols, nil
}

// readGames reads c's messages until a list of games comes for which
// cond holds.
func readGames(t *testing.T, c *websocket.Conn, cond func(myGamesPage) bool) myGamesPage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("reading my games' socket: %v", err)
		}
		var m struct {
			Type string `json:"type"`
			myGamesPage
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "games" && cond(m.myGamesPage) {
			return m.myGamesPage
		}
	}
}

// TestMyGamesSocket: GET /api/me/ws sends the player's games at once, and
// again when a game of theirs changes: a new game of theirs, the other
// seat's move that makes it their turn, on every device of the player; a
// page of another site and a request without a player are refused.
func TestMyGamesSocket(t *testing.T) {
	ts := newTestServer(t, nil)
	ann, bea := ts.browser(), ts.browser()
	ann.me()
	bea.me()
	phone := &browser{ts: ts, client: ann.client}
	var conns []*websocket.Conn
	for _, b := range []*browser{ann, phone} {
		c, status, err := b.dialMyGames(t, nil)
		if err != nil {
			t.Fatalf("dial: %d %v", status, err)
		}
		defer c.CloseNow()
		conns = append(conns, c)
		if first := readGames(t, c, func(myGamesPage) bool { return true }); len(first.Games) != 0 {
			t.Fatalf("a new player's games: %+v", first)
		}
	}
	g := twoOfTiny(t, bea, ann)
	for _, c := range conns {
		readGames(t, c, func(p myGamesPage) bool { return len(p.Games) == 1 && p.Games[0].ID == g.ID && !p.Games[0].YourTurn })
	}
	// Bea plays seat 0 until seat 1, Ann's, is to move.
	for {
		st := ts.waitState(g.ID, func(aState[json.RawMessage]) bool { return true })
		if st.ToMove != 0 {
			break
		}
		ts.move(g.ID, g.Seats[0].Token, st.Version, ts.getTiny(g.ID, g.Seats[0].Token, -1).State.View.Legal[0])
	}
	for _, c := range conns {
		if got := readGames(t, c, func(p myGamesPage) bool { return len(p.Games) == 1 && p.Games[0].YourTurn }); got.Waiting != 1 {
			t.Errorf("Ann's turn: waiting %d, want 1", got.Waiting)
		}
	}
	if _, status, err := ann.dialMyGames(t, http.Header{"Origin": {"https://elsewhere.example"}}); err == nil || status != http.StatusForbidden {
		t.Errorf("a page of another site: %d %v, want 403", status, err)
	}
	nobody := ts.browser()
	if _, status, err := nobody.dialMyGames(t, nil); err == nil || status != http.StatusUnauthorized {
		t.Errorf("without a player: %d %v, want 401", status, err)
	}
	if n := ts.s.changes.Watched(); n == 0 {
		t.Error("the open sockets watch nothing")
	}
}

// TestNodesMyGamesTurn: in a cluster, a player's list read on a node that
// does not own the game says whose turn it is after every move, though
// the moves after the first write no game's row.
func TestNodesMyGamesTurn(t *testing.T) {
	nodes, _ := newTestNodes(t, nil, "a", "b")
	owner, other := nodes[0], nodes[1]
	ann, bea := owner.browser(), owner.browser()
	ann.me()
	g := twoOfTiny(t, ann, bea)
	tokens := []string{g.Seats[0].Token, g.Seats[1].Token}
	for range 6 {
		st := owner.waitState(g.ID, func(aState[json.RawMessage]) bool { return true })
		if st.Over {
			break
		}
		owner.move(g.ID, tokens[st.ToMove], st.Version, owner.getTiny(g.ID, tokens[st.ToMove], -1).State.View.Legal[0])
		st = owner.waitState(g.ID, func(aState[json.RawMessage]) bool { return true })
		for i, b := range []*browser{ann, bea} {
			list := getAs[myGamesPage](b.on(other), "/api/me/games")
			if len(list.Games) != 1 || list.Games[0].Version != st.Version || list.Games[0].YourTurn != (st.ToMove == i && !st.Over) {
				t.Fatalf("seat %d's games on the other node at version %d, seat %d to move: %+v", i, st.Version, st.ToMove, list)
			}
		}
	}
}
