package web_test

// The server the browser tests play on, and what the rules engine says the
// page should show.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/bluelagoon"
	blbots "github.com/lagoon-games/lagoon/bluelagoon/bots"
	"github.com/lagoon-games/lagoon/druids"
	druidsbots "github.com/lagoon-games/lagoon/druids/bots"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/server"
	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/laguna"
	lagunabots "github.com/lagoon-games/lagoon/laguna/bots"
	"github.com/lagoon-games/lagoon/web"
)

// blueLagoonOnly is the games of the tests' server, as `lagoon serve` has
// them.
var blueLagoonOnly = must(game.NewRegistry(bluelagoon.Rules))

// kits are the bots' kits of the games the tests serve, by game id, as
// lagoon serve pairs them; a game without one (Tiny) gets the generic bots.
var kits = map[string]ai.Kit{
	bluelagoon.Rules.ID: blbots.Kit(),
	druids.Rules.ID:     druidsbots.Kit(),
	laguna.Rules.ID:     lagunabots.Kit(),
}

// botGame returns a game of the tests' server as the bots play it.
func botGame(games *game.Registry, id string) (*ai.Game, error) {
	rules, err := games.Get(id)
	if err != nil {
		return nil, err
	}
	return &ai.Game{Rules: rules, Kit: kits[id]}, nil
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// lagoon is a Lagoon server on a loopback port, with its data directory, that
// can be stopped and started again on the same address and data.
type lagoon struct {
	t         *testing.T
	dir       string
	addr      string
	url       string
	configure func(*server.Config) // nil: the browser tests' configuration

	mu   sync.Mutex
	st   store.Store
	srv  *server.Server
	http *http.Server
}

func startLagoon(t *testing.T) *lagoon {
	t.Helper()
	return startLagoonWith(t, nil)
}

// startLagoonWith starts a server whose configuration configure changes.
func startLagoonWith(t *testing.T, configure func(*server.Config)) *lagoon {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &lagoon{t: t, dir: t.TempDir(), addr: ln.Addr().String(), configure: configure}
	l.url = "http://" + l.addr
	l.serve(ln)
	t.Cleanup(l.stop)
	return l
}

func (l *lagoon) serve(ln net.Listener) {
	l.t.Helper()
	st, err := store.Open(l.dir)
	if err != nil {
		l.t.Fatal(err)
	}
	cfg := server.Config{
		Games:  blueLagoonOnly,
		Store:  st,
		Static: web.Files(),
		Levels: func(id string) []string { return (&ai.Game{Kit: kits[id]}).Levels() },
		// Limits no test's clicks and polls reach on however fast a
		// machine: a refused message would stall a test at random.
		Rate: 1e6, Burst: 1e6, MessageRate: 1e6, MessageBurst: 1e6,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if l.configure != nil {
		l.configure(&cfg)
	}
	// Bots that always choose alike, so that a failure can be replayed.
	games := cfg.Games
	cfg.Bots = func(id, level string, withPeople bool) (server.Bot, error) {
		g, err := botGame(games, id)
		if err != nil {
			return nil, err
		}
		return ai.NewWith(g, level, ai.Options{Seed: 1, Workers: 1, Paced: withPeople})
	}
	srv, err := server.New(context.Background(), cfg)
	if err != nil {
		st.Close()
		l.t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(ln)
	l.mu.Lock()
	l.st, l.srv, l.http = st, srv, hs
	l.mu.Unlock()
}

// stop stops the server as a crash would look to its clients: the listener
// and every connection close at once.
func (l *lagoon) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.http == nil {
		return
	}
	l.http.Close()
	l.srv.Close()
	l.st.Close()
	l.http, l.srv, l.st = nil, nil, nil
}

// restart starts the server again on the same address and data.
func (l *lagoon) restart() {
	l.t.Helper()
	var ln net.Listener
	var err error
	for range 100 {
		if ln, err = net.Listen("tcp", l.addr); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		l.t.Fatalf("listening on %s again: %v", l.addr, err)
	}
	l.serve(ln)
}

// api calls the server's HTTP API and decodes the answer into out.
func (l *lagoon) api(method, path, token string, body, out any) {
	l.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			l.t.Fatal(err)
		}
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, l.url+path, rd)
	if err != nil {
		l.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		l.t.Fatal(err)
	}
	if res.StatusCode >= 300 {
		l.t.Fatalf("%s %s: %s: %s", method, path, res.Status, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			l.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

type created struct {
	ID    string `json:"id"`
	Seats []struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
		Link  string `json:"link"`
	} `json:"seats"`
}

// createGame makes a game through the API.
func (l *lagoon) createGame(spec map[string]any) created {
	l.t.Helper()
	var c created
	l.api("POST", "/api/games", "", spec, &c)
	return c
}

// record returns a game's record, replayable by the engine.
func (l *lagoon) record(id string) game.Record {
	l.t.Helper()
	var rec game.Record
	l.api("GET", "/api/games/"+id+"/record", "", nil, &rec)
	return rec
}

// replay returns the Blue Lagoon game of a record after its first n moves
// (all of them if n < 0).
func replay(t *testing.T, rec game.Record, n int) *bluelagoon.Game {
	t.Helper()
	st, err := rec.Replay(bluelagoon.Rules, n)
	if err != nil {
		t.Fatal(err)
	}
	return bluelagoon.GameOf(st)
}

type gameInfo struct {
	Seats []struct {
		Name   string `json:"name"`
		Joined bool   `json:"joined"`
	} `json:"seats"`
	Moves []struct {
		Seat int    `json:"seat"`
		Move string `json:"move"`
	} `json:"moves"`
	State struct {
		Version int  `json:"version"`
		Over    bool `json:"over"`
	} `json:"state"`
}

func (l *lagoon) game(id string) gameInfo {
	l.t.Helper()
	var g gameInfo
	l.api("GET", "/api/games/"+id, "", nil, &g)
	return g
}

// tokenNames are the API's names of the engine's token kinds.
var tokenNames = [bluelagoon.NumTokenKinds]string{"coconut", "bamboo", "water", "stone", "statuette"}

// enginePosition is what the board should show for g.
func enginePosition(g *bluelagoon.Game) (pieces, tokens []string) {
	b := g.Board()
	pieces, tokens = []string{}, []string{}
	for r := range b.Height() {
		for c := range bluelagoon.RowLen(b.Height(), r) {
			at := bluelagoon.Coord{Row: r, Col: c}
			if p, piece, ok := g.PieceAt(at); ok {
				pieces = append(pieces, fmt.Sprintf("%v %d %v", at, p, piece))
			}
			if t, ok := g.TokenAt(at); ok {
				tokens = append(tokens, fmt.Sprintf("%v %s", at, tokenNames[t]))
			}
		}
	}
	slices.Sort(pieces)
	slices.Sort(tokens)
	return pieces, tokens
}

// checkSheet compares the score sheet with the engine's scores of g: the
// phases scored, the live scores of the phase being played, and the totals.
func checkSheet(t *testing.T, got map[string]int, g *bluelagoon.Game) {
	t.Helper()
	rows := func(s bluelagoon.Score) map[string]int {
		return map[string]int{"islands": s.Islands, "links": s.Links, "majorities": s.Majorities,
			"resources": s.Resources, "set": s.Set, "statuettes": s.Statuettes, "total": s.Total}
	}
	want := make(map[string]int)
	live := g.Scores()
	totals := g.Totals()
	for _, ph := range []bluelagoon.Phase{bluelagoon.Exploration, bluelagoon.Settlement} {
		scores, ok := g.PhaseScores(ph)
		if !ok && g.Phase() == ph {
			scores, ok = live, true
		}
		if !ok {
			continue
		}
		for p := range g.Players() {
			for row, n := range rows(scores[p]) {
				want[fmt.Sprintf("%v %s %d", ph, row, p)] = n
			}
		}
	}
	for p := range g.Players() {
		total := totals[p]
		if !g.Over() {
			if _, scored := g.PhaseScores(g.Phase()); !scored {
				total += live[p].Total
			}
		}
		want[fmt.Sprintf("game total %d", p)] = total
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("score sheet %q = %d, the engine says %d", k, got[k], n)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("score sheet shows %q = %d, which the engine has not scored", k, got[k])
		}
	}
}

// stateAt returns the engine's position of a game at version n, read from
// the server in the rules' notation (the record, with its seed, is secret
// while the exploration phase lasts).
func stateAt(t *testing.T, l *lagoon, id string, n int) *bluelagoon.Game {
	t.Helper()
	res, err := http.Get(fmt.Sprintf("%s/api/games/%s/state?at=%d", l.url, id, n))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the state of %s at %d: %s: %s", id, n, res.Status, text)
	}
	g, err := bluelagoon.ParseState(strings.TrimSpace(string(text)))
	if err != nil {
		t.Fatalf("the state of %s at %d: %v", id, n, err)
	}
	return g
}
