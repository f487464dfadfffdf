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
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
	"github.com/lagoon-games/lagoon/internal/store"
)

// firstBot plays the first legal move: fast and deterministic.
type firstBot struct{}

func (firstBot) Move(ctx context.Context, st game.State) (game.Move, error) {
	if st.Over() {
		return 0, errors.New("the game is over")
	}
	return game.Legal(st)[0], nil
}

var testLevels = []string{"easy", "medium"}

func testBots(gameID, level string, _ bool) (Bot, error) {
	if !slices.Contains(testLevels, level) {
		return nil, fmt.Errorf("no level %q", level)
	}
	if testGames.Lookup(gameID) == nil {
		return nil, fmt.Errorf("no game %q", gameID)
	}
	return firstBot{}, nil
}

func testLevelsOf(string) []string { return testLevels }

// testGames are the games of the test servers: Blue Lagoon, the default,
// and the tiny game of game/gametest, which names nothing of Blue Lagoon.
var testGames = func() *game.Registry {
	reg, err := game.NewRegistry(bluelagoon.Rules, gametest.Tiny)
	if err != nil {
		panic(err)
	}
	return reg
}()

var testStatic = fstest.MapFS{
	"index.html": {Data: []byte("<!doctype html><title>Lagoon</title>")},
	"app.js":     {Data: []byte("console.log('lagoon')")},
}

// testConfig is the configuration of the test servers: the test bots, no
// rate limits unless a test sets them, and logs only on failure.
func testConfig(t testing.TB, st store.Store) Config {
	return Config{
		Games: testGames, Store: st, Static: testStatic, Bots: testBots, Levels: testLevelsOf,
		Rate: -1, MessageRate: -1, Log: slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})),
		// The host of httptest.NewRequest, which the tests in a bubble use.
		Hosts: []string{"example.com"},
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
	store store.Store
	s     *Server
	http  *httptest.Server
	// prefix is a node's NATS subject prefix, for a test to join its
	// cluster with a connection of its own.
	prefix string
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
	// The server first: it closes the WebSockets, whose handlers the HTTP
	// server would otherwise wait for.
	ts.s.Close()
	ts.http.Close()
	ts.store.Close()
	ts.http = nil
}

// request makes an API request and returns the status and body.
func (ts *testServer) request(method, path, token string, body any, header ...string) (int, []byte) {
	ts.t.Helper()
	return ts.requestVia(ts.http.Client(), method, path, token, body, header...)
}

// requestVia is request made by client: one with cookies is a browser.
func (ts *testServer) requestVia(client *http.Client, method, path, token string, body any, header ...string) (int, []byte) {
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
		if header[i] == "Host" {
			req.Host = header[i+1]
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
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

// humans makes a game of Blue Lagoon on the standard board with n human
// seats and the given seed, and returns its id and the seats' tokens.
func (ts *testServer) humans(n int, seed uint64) (string, []string) {
	ts.t.Helper()
	return ts.humansOf("", n, seed)
}

// humansOf makes a game of the given game (the default if "") with n
// human seats and the given seed, and returns its id and the seats'
// tokens.
func (ts *testServer) humansOf(gameID string, n int, seed uint64) (string, []string) {
	ts.t.Helper()
	seats := make([]seatRequest, n)
	for i := range seats {
		seats[i] = seatRequest{Kind: "human", Name: fmt.Sprint("P", i)}
	}
	c := ts.create(createRequest{Game: gameID, Seats: seats, Seed: &seed})
	tokens := make([]string, n)
	for i, l := range c.Seats {
		tokens[i] = l.Token
	}
	return c.ID, tokens
}

// blView is Blue Lagoon's view (bluelagoon/view.go) as the tests read it.
type blView struct {
	Phase   string    `json:"phase"`
	Current int       `json:"current"`
	Over    bool      `json:"over"`
	Pieces  []blPiece `json:"pieces"`
	Tokens  []struct {
		At    string `json:"at"`
		Token string `json:"token"`
	} `json:"tokens"`
	Legal   []string `json:"legal"`
	Players []struct {
		SettlersLeft int            `json:"settlers_left"`
		VillagesLeft int            `json:"villages_left"`
		Held         map[string]int `json:"held"`
		TokensHeld   int            `json:"tokens_held"`
		Total        int            `json:"total"`
	} `json:"players"`
	Scores struct {
		Live        []bluelagoon.Score `json:"live"`
		Exploration []bluelagoon.Score `json:"exploration"`
		Settlement  []bluelagoon.Score `json:"settlement"`
		Totals      []int              `json:"totals"`
	} `json:"scores"`
	Result *struct {
		Winners     []int  `json:"winners"`
		Totals      []int  `json:"totals"`
		TieBreak    string `json:"tie_break"`
		Explanation string `json:"explanation"`
	} `json:"result"`
}

type blPiece struct {
	At    string `json:"at"`
	Seat  int    `json:"seat"`
	Piece string `json:"piece"`
}

// blNote is Blue Lagoon's note on a move as the tests read it.
type blNote struct {
	Phase     string  `json:"phase"`
	Took      *string `json:"took"`
	PhaseEnds []struct {
		Phase           string             `json:"phase"`
		Scores          []bluelagoon.Score `json:"scores"`
		Totals          []int              `json:"totals"`
		SettlersRemoved [][]string         `json:"settlers_removed"`
		VillagesRemoved [][]string         `json:"villages_removed"`
		VillagesKept    [][]string         `json:"villages_kept"`
		Tokens          []struct {
			At    string `json:"at"`
			Token string `json:"token"`
		} `json:"tokens"`
	} `json:"phase_ends"`
}

// aState is a state as the tests read it, with the game's view read as a
// V.
type aState[V any] struct {
	stateHead
	View V `json:"view"`
}

// stateView is a state of Blue Lagoon.
type stateView = aState[blView]

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
		Code    string        `json:"code"`
		Message string        `json:"message"`
		Refusal *game.Refusal `json:"refusal"`
	} `json:"error"`
	State *stateView `json:"state"`
}

type moveResponse struct {
	Version   int                     `json:"version"`
	Duplicate bool                    `json:"duplicate"`
	State     aState[json.RawMessage] `json:"state"`
}

// note reads a move's note as Blue Lagoon's.
func note(t testing.TB, mv *moveView) blNote {
	t.Helper()
	return decode[blNote](t, mv.Note)
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

// replay plays a stored game's moves with its rules and returns the final
// state.
func replay(t testing.TB, sg *store.Game) game.State {
	t.Helper()
	rec := game.Record{Game: sg.Game, Players: sg.Players, Options: sg.Options, Seed: sg.Seed}
	for _, m := range sg.Moves {
		rec.Moves = append(rec.Moves, m.Move)
	}
	st, err := rec.Replay(testGames.Lookup(sg.Game), -1)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// engine returns the Blue Lagoon engine's game behind a state.
func engine(t testing.TB, st game.State) *bluelagoon.Game {
	t.Helper()
	g := bluelagoon.GameOf(st)
	if g == nil {
		t.Fatalf("%T is not a state of Blue Lagoon", st)
	}
	return g
}
