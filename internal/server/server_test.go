package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/internal/store"
)

// firstBot plays the first legal move: fast and deterministic.
type firstBot struct{}

func (firstBot) Move(ctx context.Context, g *bluelagoon.Game) (bluelagoon.Move, error) {
	if g.Over() {
		return bluelagoon.Move{}, errors.New("the game is over")
	}
	return g.LegalMove(0), nil
}

var testLevels = []string{"easy", "medium"}

func testBots(level string) (Bot, error) {
	if !slices.Contains(testLevels, level) {
		return nil, fmt.Errorf("no level %q", level)
	}
	return firstBot{}, nil
}

var testStatic = fstest.MapFS{
	"index.html": {Data: []byte("<!doctype html><title>Lagoon</title>")},
	"app.js":     {Data: []byte("console.log('lagoon')")},
}

// testConfig is the configuration of the test servers: the test bots, no
// rate limits unless a test sets them, and logs only on failure.
func testConfig(t testing.TB, st *store.Store) Config {
	return Config{
		Store: st, Static: testStatic, Bots: testBots, Levels: testLevels,
		Rate: -1, MessageRate: -1, Log: slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
}

// testWriter sends log lines to the test's log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}

// testServer is a server on a loopback port with its store.
type testServer struct {
	t     *testing.T
	dir   string
	store *store.Store
	s     *Server
	http  *httptest.Server
}

func newTestServer(t *testing.T, configure func(*Config)) *testServer {
	t.Helper()
	ts := &testServer{t: t, dir: t.TempDir()}
	ts.start(configure)
	t.Cleanup(ts.stop)
	return ts
}

func (ts *testServer) start(configure func(*Config)) {
	st, err := store.Open(ts.dir)
	if err != nil {
		ts.t.Fatal(err)
	}
	cfg := testConfig(ts.t, st)
	if configure != nil {
		configure(&cfg)
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		st.Close()
		ts.t.Fatal(err)
	}
	ts.store, ts.s, ts.http = st, s, httptest.NewServer(s)
}

func (ts *testServer) stop() {
	if ts.http == nil {
		return
	}
	ts.http.Close()
	ts.s.Close()
	ts.store.Close()
	ts.http = nil
}

// request makes an API request and returns the status and body.
func (ts *testServer) request(method, path, token string, body any, header ...string) (int, []byte) {
	ts.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = bytes.NewReader([]byte(b))
	default:
		r = bytes.NewReader(mustJSON(b))
	}
	req, err := http.NewRequest(method, ts.http.URL+path, r)
	if err != nil {
		ts.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := ts.http.Client().Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatal(err)
	}
	return resp.StatusCode, out
}

// decode decodes JSON into a new T or fails the test.
func decode[T any](t testing.TB, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decoding %T from %s: %v", v, b, err)
	}
	return v
}

type createResponse struct {
	ID       string     `json:"id"`
	Spectate string     `json:"spectate"`
	Seats    []seatLink `json:"seats"`
	Game     gameView   `json:"game"`
}

// create makes a game and returns the answer.
func (ts *testServer) create(req any) createResponse {
	ts.t.Helper()
	status, body := ts.request("POST", "/api/games", "", req)
	if status != http.StatusCreated {
		ts.t.Fatalf("create: %d %s", status, body)
	}
	return decode[createResponse](ts.t, body)
}

// humans makes a game on the standard board with n human seats and the
// given seed, and returns its id and the seats' tokens.
func (ts *testServer) humans(n int, seed uint64) (string, []string) {
	ts.t.Helper()
	seats := make([]seatRequest, n)
	for i := range seats {
		seats[i] = seatRequest{Kind: "human", Name: fmt.Sprint("P", i)}
	}
	c := ts.create(createRequest{Seats: seats, Seed: &seed})
	tokens := make([]string, n)
	for i, l := range c.Seats {
		tokens[i] = l.Token
	}
	return c.ID, tokens
}

type fullGame struct {
	gameView
	State stateView `json:"state"`
}

// get reads a game as the given token sees it.
func (ts *testServer) get(id, token string) fullGame {
	ts.t.Helper()
	status, body := ts.request("GET", "/api/games/"+id, token, nil)
	if status != 200 {
		ts.t.Fatalf("get %s: %d %s", id, status, body)
	}
	return decode[fullGame](ts.t, body)
}

type errorResponse struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	State *stateView `json:"state"`
}

type moveResponse struct {
	Version   int       `json:"version"`
	Duplicate bool      `json:"duplicate"`
	State     stateView `json:"state"`
}

// move makes a move over HTTP and fails the test unless it is accepted.
func (ts *testServer) move(id, token string, version int, m string) moveResponse {
	ts.t.Helper()
	status, body := ts.request("POST", "/api/games/"+id+"/moves", token, map[string]any{"version": version, "move": m})
	if status != 200 {
		ts.t.Fatalf("move %s at %d: %d %s", m, version, status, body)
	}
	return decode[moveResponse](ts.t, body)
}

// storedMoves reads a game's moves from the store.
func (ts *testServer) storedMoves(id string) []string {
	ts.t.Helper()
	g, err := ts.store.Game(context.Background(), id)
	if err != nil {
		ts.t.Fatal(err)
	}
	var out []string
	for _, m := range g.Moves {
		out = append(out, m.Move)
	}
	return out
}

// replay plays a record's moves on the engine and returns the final game.
func replay(t testing.TB, setup bluelagoon.Setup, moves []string) *bluelagoon.Game {
	t.Helper()
	g, err := bluelagoon.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range moves {
		m, err := bluelagoon.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Apply(m); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
	}
	return g
}
