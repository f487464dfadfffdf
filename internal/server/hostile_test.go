package server

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/lagoon-games/lagoon/game"
)

// These tests drive hostile faults and loads (docs/api.md, Limits) against a server on a
// loopback address, each bounded so that the suite stays fast.

// slowBot thinks until its context ends (a search answers then with the
// best move it has): a max bot that would otherwise think for ever, so a
// move is only ever made by a bot the pool hurried.
type slowBot struct{ thinking, hurried *atomic.Int64 }

func (b slowBot) Move(ctx context.Context, st game.State) (game.Move, error) {
	b.thinking.Add(1)
	defer b.thinking.Add(-1)
	<-ctx.Done()
	b.hurried.Add(1)
	return game.Legal(st)[0], nil
}

// TestBotFairness fills the one bot worker with games of max bots alone,
// then a person plays an easy bot: the max bot thinking is hurried for the
// person's move (it would never answer otherwise, so the easy bot's reply
// comes only by the pool putting the person first), and the hurried game
// of bots alone has moved on.
func TestBotFairness(t *testing.T) {
	slow := slowBot{thinking: new(atomic.Int64), hurried: new(atomic.Int64)}
	ts := newTestServer(t, func(c *Config) {
		c.BotWorkers = 1
		c.MaxBotGamesPerAddr = -1
		c.Levels = func(string) []string { return []string{"easy", "medium", "max"} }
		c.Bots = func(gameID, level string, _ bool) (Bot, error) {
			if level == "max" {
				return slow, nil
			}
			return firstBot{}, nil
		}
	})
	var botGames []string
	for range 6 {
		c := ts.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "bot", "level": "max"}, {"kind": "bot", "level": "max"}}})
		botGames = append(botGames, c.ID)
	}
	for i := 0; slow.thinking.Load() < 1; i++ {
		if i > 5000 {
			t.Fatal("no max bot is thinking")
		}
		time.Sleep(time.Millisecond)
	}
	if h := decode[healthView](t, ts.ok("GET", "/api/health", "", nil)); h.BotQueue != 5 || h.BotThinking != 1 {
		t.Errorf("health with one max bot thinking and five waiting: %+v", h)
	}
	if n := slow.hurried.Load(); n != 0 {
		t.Fatalf("%d max bots hurried before a person played", n)
	}
	c := ts.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "human"}}})
	ts.waitState(c.ID, func(st aState[json.RawMessage]) bool { return st.Version >= 1 })
	if n := slow.hurried.Load(); n != 1 {
		t.Errorf("the easy bot answered the person with %d max bots hurried, want 1", n)
	}
	// The hurried game of bots alone has moved on.
	moved := 0
	for _, id := range botGames {
		if ts.getTiny(id, "", -1).State.Version > 0 {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no game of bots alone moved: the hurried bot's move was lost")
	}
}

// TestGameCaps: games of bots alone from one address, games from one
// address and games in all are capped; a refusal says so.
func TestGameCaps(t *testing.T) {
	ts := newTestServer(t, func(c *Config) {
		c.MaxBotGamesPerAddr = 2
		c.MaxGamesPerAddr = 4
		c.MaxGames = 5
		c.MaxGamesShare = -1 // 1% of 5 would be one game an address
	})
	for i := range 2 {
		// The person never moves, so these stay in progress.
		ts.create(map[string]any{"game": "tiny", "seed": i + 1, "seats": []map[string]any{{"kind": "human"}, {"kind": "bot", "level": "medium"}}})
	}
	botsAlone := map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}}}
	// Games of bots alone end at once with the test bots: the pool is
	// stopped so that they stay in progress.
	ts.s.bots.mu.Lock()
	ts.s.bots.closed = true
	ts.s.bots.mu.Unlock()
	ts.create(botsAlone)
	ts.create(botsAlone)
	status, body := ts.request("POST", "/api/games", "", botsAlone)
	if status != http.StatusTooManyRequests || !strings.Contains(string(body), "too_many_games") {
		t.Errorf("a third game of bots alone from one address: %d %s", status, body)
	}
	status, body = ts.request("POST", "/api/games", "", map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
	if status != http.StatusTooManyRequests {
		t.Errorf("a fifth game from one address: %d %s", status, body)
	}
}

// TestGameCapsAtOnce: creations sent at once cannot pass the caps
// together, each seeing room for one more: of 40 games asked for at once,
// as many are made as the caps allow, and no more. They are games of bots
// alone, with the pool stopped so that they stay in progress: a table
// nobody joined would give way to the next.
func TestGameCapsAtOnce(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.MaxGames, c.MaxGamesPerAddr, c.MaxGamesShare, c.MaxBotGamesPerAddr = 6, 0, -1, -1 })
	ts.s.bots.mu.Lock()
	ts.s.bots.closed = true
	ts.s.bots.mu.Unlock()
	var made atomic.Int64
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			status, body := ts.request("POST", "/api/games", "", map[string]any{"game": "tiny", "seed": i + 1,
				"seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}}})
			switch status {
			case http.StatusCreated:
				made.Add(1)
			case http.StatusServiceUnavailable:
			default:
				t.Errorf("a creation: %d %s", status, body)
			}
		})
	}
	wg.Wait()
	if n := made.Load(); n != 6 {
		t.Errorf("40 creations at once under a cap of 6 made %d games", n)
	}
}

// TestConnectionCaps holds idle connections open from one address up to
// its cap, and from others up to the server's: connections over a cap are
// answered 503 and closed, ordinary requests from other addresses still
// answer, and a slow body is cut off.
func TestConnectionCaps(t *testing.T) {
	ln, addr := serveOnListener(t, 8, 4, func(c *Config) { c.BodyTimeout = 200 * time.Millisecond }, nil)

	dialFrom := func(src string) net.Conn {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// get asks for the health from src and returns the status.
	get := func(src string) int {
		t.Helper()
		c := dialFrom(src)
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, "GET /api/health HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", addr)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("from %s: %v", src, err)
		}
		io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	for range 4 {
		idle = append(idle, dialFrom("127.0.0.1"))
	}
	waitOpen := func(n int) {
		t.Helper()
		for i := 0; ln.Open() != n; i++ {
			if i > 5000 {
				t.Fatalf("%d connections open, want %d", ln.Open(), n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	waitOpen(4)
	if status := get("127.0.0.1"); status != http.StatusServiceUnavailable {
		t.Errorf("a fifth connection from one address: %d, want 503", status)
	}
	if status := get("127.0.0.2"); status != 200 {
		t.Errorf("a request from another address while one is at its cap: %d", status)
	}
	// The server closes its side of that request's connection a moment
	// after the answer: until it has, a new connection may be over the cap.
	waitOpen(4)
	for _, src := range []string{"127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"} {
		idle = append(idle, dialFrom(src))
	}
	waitOpen(8)
	if status := get("127.0.0.7"); status != http.StatusServiceUnavailable {
		t.Errorf("a connection over the server's cap: %d, want 503", status)
	}
	idle[0].Close()
	waitOpen(7)
	if status := get("127.0.0.7"); status != 200 {
		t.Errorf("a request once a connection closed: %d", status)
	}
	if ln.Refused() != 2 {
		t.Errorf("%d connections refused, want 2", ln.Refused())
	}

	// A body sent a byte at a time, once the server has closed its side
	// of the last request's connection.
	waitOpen(7)
	c := dialFrom("127.0.0.8")
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	fmt.Fprintf(c, "POST /api/games HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", addr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestTimeout || time.Since(start) > 3*time.Second {
		t.Errorf("a slow body: %d after %v", resp.StatusCode, time.Since(start))
	}
}

// TestExpiry: a game with a seat nobody took expires after a while, an
// idle one after longer; both leave memory, answer 410, and a start does
// not replay a game that expired while the server was down.
func TestExpiry(t *testing.T) {
	ts := newTestServer(t, func(c *Config) {
		c.OpenExpiry, c.IdleExpiry = time.Hour, 3*time.Hour
	})
	open := ts.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human"}, {"kind": "open"}}})
	idle := ts.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human"}, {"kind": "bot", "level": "easy"}}})
	ts.ok("POST", "/api/games/"+idle.ID+"/join", idle.Seats[0].Token, nil)
	late := ts.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human"}, {"kind": "open"}}})
	now := time.Now()
	ts.s.expire(now.Add(2 * time.Hour))
	if status, body := ts.request("GET", "/api/games/"+open.ID, "", nil); status != http.StatusGone {
		t.Errorf("a game with an open seat after two idle hours: %d %s", status, body)
	}
	if status, _ := ts.request("GET", "/api/games/"+idle.ID, "", nil); status != 200 {
		t.Errorf("a game of people after two idle hours: %d", status)
	}
	ts.s.expire(now.Add(4 * time.Hour))
	if status, _ := ts.request("GET", "/api/games/"+idle.ID, "", nil); status != http.StatusGone {
		t.Errorf("a game of people after four idle hours: %d", status)
	}
	if h := decode[healthView](t, ts.ok("GET", "/api/health", "", nil)); h.Games != 0 {
		t.Errorf("expired games still in memory: %+v", h)
	}
	// late expired while the server was down (an expiry of a millisecond).
	ts.stop()
	time.Sleep(5 * time.Millisecond)
	ts.start(func(c *Config) { c.OpenExpiry = time.Millisecond })
	if n := len(ts.s.active()); n != 0 {
		t.Errorf("%d games replayed at the start, want none", n)
	}
	for _, id := range []string{open.ID, idle.ID, late.ID} {
		if status, _ := ts.request("GET", "/api/games/"+id, "", nil); status != http.StatusGone {
			t.Errorf("game %s after a restart: %d, want 410", id, status)
		}
	}
}

// TestDamagedGamesLeftOut: games damaged in the store (a gap in the
// moves, seats that do not decode, a column holding a value of the wrong
// type, an over that is neither 0 nor 1, a finished game whose summary
// does not decode, and flipped bits that leave every value readable: a
// seat's name made the other's, a move's time) are logged once and left
// out, and answer as damaged; every other game starts and the lobby
// answers.
func TestDamagedGamesLeftOut(t *testing.T) {
	lines := &lineCounter{text: "damaged"}
	ts := newTestServer(t, func(c *Config) { c.Log = slog.New(slog.NewTextHandler(lines, nil)) })
	played := func(seed uint64) string {
		id, tokens := ts.humansOf("tiny", 2, seed)
		for range 3 {
			g := ts.getTiny(id, "", -1)
			p := g.State.ToMove
			ts.move(id, tokens[p], g.State.Version, ts.getTiny(id, tokens[p], -1).State.View.Legal[0])
		}
		return id
	}
	gap := played(1)
	fine, tokens := ts.humansOf("tiny", 2, 3)
	damage := map[string]string{"gap": fmt.Sprintf(`DELETE FROM moves WHERE game = '%s' AND version = 2`, gap)}
	seated, _ := ts.humansOf("tiny", 2, 4)
	damage[seated] = fmt.Sprintf(`UPDATE games SET seats = replace(seats, '"name":"P0"', '"name":"P1"') WHERE id = '%s'`, seated)
	timed := played(5)
	damage[timed] = fmt.Sprintf(`UPDATE moves SET at = at + 1 - 2 * (at & 1) WHERE game = '%s' AND version = 2`, timed)
	for i, set := range []string{`seats = '[{"kind": 7'`, `players = 'two'`, `seed = 'abc'`, `created = 'yesterday'`,
		`over = 'yes'`, `over = 1, summary = '{"totals": [1,'`} {
		id, _ := ts.humansOf("tiny", 2, uint64(10+i))
		damage[id] = fmt.Sprintf(`UPDATE games SET %s WHERE id = '%s'`, set, id)
	}
	ts.stop()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(ts.dir, "lagoon.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range damage {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	ts.start(func(c *Config) { c.Log = slog.New(slog.NewTextHandler(lines, nil)) })
	g := ts.getTiny(fine, tokens[0], -1)
	ts.move(fine, tokens[0], 0, g.State.View.Legal[0])
	for range 2 {
		if status, body := ts.request("GET", "/api/lobby", "", nil); status != http.StatusOK {
			t.Errorf("the lobby with a damaged finished game: %d %s", status, body)
		}
	}
	for id := range damage {
		if id == "gap" {
			id = gap
		}
		status, body := ts.request("GET", "/api/games/"+id, "", nil)
		if status != http.StatusInternalServerError || !strings.Contains(string(body), `"damaged"`) {
			t.Errorf("a damaged game: %d %s", status, body)
		}
	}
	if n := lines.n.Load(); n != int64(len(damage)) {
		t.Errorf("%d damaged games made %d log lines, want one each", len(damage), n)
	}
}

// TestHelloTimeout: a WebSocket that says no hello is told so and closed
// with 1008, as protocol.md says.
func TestHelloTimeout(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.HelloTimeout = 100 * time.Millisecond })
	id, _ := ts.humansOf("tiny", 2, 1)
	c, err := ts.dial(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.c.CloseNow()
	m, err := c.readErr()
	if err != nil || m.Type != "error" || m.Code != "bad_request" {
		t.Fatalf("after no hello: %s, %v", m.raw, err)
	}
	_, err = c.readErr()
	if status := websocket.CloseStatus(err); status != websocket.StatusPolicyViolation {
		t.Errorf("closed with %v (%v), want 1008", status, err)
	}
}

// TestForeignHost: a request or a WebSocket naming another host (a page
// of another site whose name points at this server) is refused.
func TestForeignHost(t *testing.T) {
	ts := newTestServer(t, nil)
	id, _ := ts.humansOf("tiny", 2, 1)
	status, body := ts.request("POST", "/api/games", "", map[string]any{"seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}},
		"Host", "attacker.example:8080", "Origin", "http://attacker.example:8080")
	if status != http.StatusMisdirectedRequest {
		t.Errorf("a game created for another host: %d %s", status, body)
	}
	req, _ := http.NewRequest("GET", ts.http.URL+"/api/games/"+id, nil)
	req.Host = "attacker.example:8080"
	if resp, err := ts.http.Client().Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a game read for another host: %v %v", resp.Status, err)
	}
	// The WebSocket's upgrade, by hand: a client sends the Host of its URL.
	c, err := net.Dial("tcp", strings.TrimPrefix(ts.http.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /api/games/%s/ws HTTP/1.1\r\nHost: attacker.example:8080\r\nOrigin: http://attacker.example:8080\r\n"+
		"Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n", id)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a WebSocket for another host: %v %v", resp, err)
	}
	for _, host := range []string{"localhost:8080", "127.0.0.1", "[::1]:80", "example.com"} {
		req, _ := http.NewRequest("GET", ts.http.URL+"/api/health", nil)
		req.Host = host
		if resp, err := ts.http.Client().Do(req); err != nil || resp.StatusCode != 200 {
			t.Errorf("host %s: %v %v", host, resp.Status, err)
		}
	}
}

// TestSecurityHeaders: every page and answer carries the content policy,
// no framing and no sniffing.
func TestSecurityHeaders(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, path := range []string{"/", "/game/abc", "/app.js", "/api/health", "/api/nothing"} {
		resp, err := ts.http.Client().Get(ts.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") ||
			h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
			t.Errorf("%s: headers %v", path, h)
		}
	}
}

// lineCounter counts the log lines written to it that hold a text.
type lineCounter struct {
	text string
	n    atomic.Int64
}

func (c *lineCounter) Write(p []byte) (int, error) {
	c.n.Add(int64(strings.Count(string(p), c.text)))
	return len(p), nil
}

// TestForeignHostLogsLittle: requests for another host by the thousand
// make a log line a second at the most, the first at once; each line says
// how many it stands for.
func TestForeignHostLogsLittle(t *testing.T) {
	lines := &lineCounter{text: "another host"}
	ts := newTestServer(t, func(c *Config) { c.Log = slog.New(slog.NewTextHandler(lines, nil)) })
	start := time.Now()
	const requests = 2000
	for range requests {
		req, _ := http.NewRequest("GET", ts.http.URL+"/api/health", nil)
		req.Host = "attacker.example"
		resp, err := ts.http.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusMisdirectedRequest {
			t.Fatalf("a request for another host: %s", resp.Status)
		}
	}
	took := time.Since(start)
	if n := lines.n.Load(); n < 1 || float64(n) > took.Seconds()+1 {
		t.Errorf("%d requests for another host in %v logged %d lines; want one, and at most one a second", requests, took, n)
	}
}

// TestNamesCleaned: control characters and invisible direction marks are
// taken out of names.
func TestNamesCleaned(t *testing.T) {
	ts := newTestServer(t, nil)
	c := ts.create(map[string]any{"game": "tiny", "seats": []map[string]any{
		{"kind": "human", "name": "Ann\u202etxt.exe\u0007"}, {"kind": "human", "name": " \u2066Bob\u200b\u2069 "}}})
	if got := []string{c.Game.Seats[0].Name, c.Game.Seats[1].Name}; got[0] != "Anntxt.exe" || got[1] != "Bob" {
		t.Errorf("names %q", got)
	}
	ts.ok("POST", "/api/games/"+c.ID+"/join", c.Seats[0].Token, map[string]any{"name": "\u202dZoë\u202c"})
	if got := ts.getTiny(c.ID, "", -1).Seats[0].Name; got != "Zoë" {
		t.Errorf("renamed %q", got)
	}
}

// TestNamesThatShow: a name given that has nothing that shows (a joiner, a
// Hangul filler, a blank Braille pattern, separators) is refused, line
// separators inside one become spaces, and a person may not take a name
// of the kind bots and the rules' own seats carry ("AJ (Legend)", "Ann
// (bot)"); a bot seat keeps its own.
func TestNamesThatShow(t *testing.T) {
	ts := newTestServer(t, nil)
	seats := func(name string) map[string]any {
		return map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human", "name": name}, {"kind": "human"}}}
	}
	for _, name := range []string{"\u200d", "\u3164", "\u2800\u2800", "\u2028", " \u115f\u1160 ", "\u0301", "AJ (Legend)", "Ann (bot)", "Bot (medium)"} {
		if status, body := ts.request("POST", "/api/games", "", seats(name)); status != http.StatusBadRequest {
			t.Errorf("a person named %q: %d %s, want 400", name, status, body)
		}
	}
	c := ts.create(seats("Ann\u2028Lee"))
	if got := c.Game.Seats[0].Name; got != "Ann Lee" {
		t.Errorf("a name with a line separator is %q, want %q", got, "Ann Lee")
	}
	if status, body := ts.request("POST", "/api/games/"+c.ID+"/join", c.Seats[0].Token, map[string]any{"name": "AJ (Initiate)"}); status != http.StatusBadRequest {
		t.Errorf("renamed AJ (Initiate): %d %s, want 400", status, body)
	}
	bot := ts.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human"}, {"kind": "bot", "level": "easy", "name": "Robo (easy)"}}})
	if got := bot.Game.Seats[1].Name; got != "Robo (easy)" {
		t.Errorf("a bot named Robo (easy) is named %q", got)
	}
}

// TestLobbyWhileGamesAreBusy: the lobby and the health answer while every
// game is busy (here, its lock held, as a move holds it while the store
// writes it under load).
func TestLobbyWhileGamesAreBusy(t *testing.T) {
	ts := newTestServer(t, nil)
	var games []*match
	for i := range 20 {
		id, _ := ts.humansOf("tiny", 2, uint64(i))
		g, err := ts.s.match(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	for _, g := range games {
		g.mu.Lock()
	}
	defer func() {
		for _, g := range games {
			g.mu.Unlock()
		}
	}()
	for _, path := range []string{"/api/lobby", "/api/health"} {
		done := make(chan int, 1)
		go func() {
			resp, err := ts.http.Client().Get(ts.http.URL + path)
			if err != nil {
				done <- 0
				return
			}
			resp.Body.Close()
			done <- resp.StatusCode
		}()
		select {
		case status := <-done:
			if status != 200 {
				t.Errorf("%s: %d", path, status)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%s waits for the games' locks", path)
		}
	}
}
