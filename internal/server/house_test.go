package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// hosting makes a test server host Blue Lagoon, Tiny and the games given,
// with the test bots.
func hosting(games ...*game.Rules) func(*Config) {
	reg, err := game.NewRegistry(append([]*game.Rules{bluelagoon.Rules, gametest.Tiny}, games...)...)
	if err != nil {
		panic(err)
	}
	return func(c *Config) {
		c.Games = reg
		c.Bots = func(gameID, level string, _ bool) (Bot, error) {
			if reg.Lookup(gameID) == nil || !slices.Contains(testLevels, level) {
				return nil, fmt.Errorf("no bot %s %s", gameID, level)
			}
			return firstBot{}, nil
		}
	}
}

// withDruids makes a test server host Lagoon: Land of Druids too, whose
// solo opponent AJ is a seat its rules play themselves.
var withDruids = hosting(druids.Rules)

// TestHouseSeat: a solo game against AJ is one request by one person: the
// seat the rules play is filled by the server under AJ's name, joined, never
// open in the lobby, never to move and never timed; the person's moves
// alone make the versions, AJ's turns happening inside them.
func TestHouseSeat(t *testing.T) {
	ts := newTestServer(t, withDruids)
	seed := uint64(5)
	c := ts.create(map[string]any{
		"game": "druids", "options": map[string]string{"aj": "legend"}, "seed": seed,
		"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "house"}},
		"time":  map[string]any{"kind": "bank", "initial_ms": 600000, "increment_ms": 0},
	})
	if len(c.Seats) != 1 || c.Seats[0].Seat != 0 {
		t.Fatalf("seat links %+v, want seat 0's alone", c.Seats)
	}
	// Joined, the person is the last seat the time waits for.
	if status, body := ts.request("POST", "/api/games/"+c.ID+"/join", c.Seats[0].Token, nil); status != 200 {
		t.Fatalf("join: %d %s", status, body)
	}
	g := ts.get(c.ID, c.Seats[0].Token)
	if s := g.Seats[1]; s.Kind != "house" || s.Name != "AJ (Legend)" || !s.Joined || s.Level != "" {
		t.Errorf("AJ's seat %+v", s)
	}
	if g.Time == nil || !g.Time.Started {
		t.Errorf("the time %+v has not started: it waits for AJ's seat", g.Time)
	}
	status, body := ts.request("GET", "/api/lobby", "", nil)
	lobby := decode[struct {
		Open, Playing []summaryView
	}](t, body)
	if status != 200 || len(lobby.Open) != 0 || len(lobby.Playing) != 1 || lobby.Playing[0].Seats[1].Kind != "house" {
		t.Errorf("lobby: %d %s", status, body)
	}

	m := ts.s.games[c.ID]
	ajTurns := 0
	for v := 0; v < 60; v++ {
		m.mu.Lock()
		cur := m.cur.Clone()
		clocks := m.clockViews(m.turnStart)
		m.mu.Unlock()
		if cur.Over() {
			break
		}
		if p := cur.ToMove(); p != 0 {
			t.Fatalf("version %d: seat %d is to move in a game against AJ", v, p)
		}
		if clocks[1].Running || clocks[1].RemainingMS != 600000 {
			t.Fatalf("version %d: AJ's clock %+v", v, clocks[1])
		}
		legal := game.Legal(cur)
		text := cur.MoveText(legal[v*7%len(legal)])
		before := cur.Turn()
		if err := game.PlayText(cur, text); err != nil {
			t.Fatal(err)
		}
		if cur.Turn() > before+1 {
			ajTurns++
		}
		ts.move(c.ID, c.Seats[0].Token, v, text)
	}
	if ajTurns == 0 {
		t.Error("AJ took no turn in the person's moves: the test shows nothing")
	}

	// Restarted, the game keeps AJ's seat.
	ts.stop()
	ts.start(withDruids)
	if s := ts.get(c.ID, "").Seats[1]; s.Kind != "house" || s.Name != "AJ (Legend)" {
		t.Errorf("after a restart, AJ's seat %+v", s)
	}
}

// TestHouseSeatPreview: a table's preview says which seats the rules
// play, so that a form asks for them as the house's.
func TestHouseSeatPreview(t *testing.T) {
	ts := newTestServer(t, withDruids)
	for _, c := range []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{"aj": "eldrid"}, `"house":[{"seat":1,"name":"AJ (Eldrid)"}]`},
		{nil, `"house":[]`},
	} {
		status, body := ts.request("POST", "/api/rules/druids/preview", "", map[string]any{"players": 2, "options": c.opts})
		if status != 200 || !strings.Contains(string(body), c.want) {
			t.Errorf("preview of %v: %d %.300s; want %s", c.opts, status, body, c.want)
		}
	}
}

// TestHouseSeatAsked: a seat the rules play is theirs however the request
// gives it (a form may offer it a bot or a person): no token is made for
// it and nobody may join it.
func TestHouseSeatAsked(t *testing.T) {
	ts := newTestServer(t, withDruids)
	for _, seat := range []map[string]string{{"kind": "human", "name": "Bob"}, {"kind": "bot", "level": "easy"}, {"kind": "open"}} {
		c := ts.create(map[string]any{"game": "druids", "options": map[string]string{"aj": "adept"},
			"seats": []map[string]string{{"kind": "human"}, seat}})
		if s := c.Game.Seats[1]; s.Kind != "house" || s.Name != "AJ (Adept)" || len(c.Seats) != 1 {
			t.Errorf("seat 2 asked as %v: %+v, links %+v", seat, s, c.Seats)
		}
		if status, body := ts.request("POST", "/api/games/"+c.ID+"/join", "", map[string]any{"seat": 1}); status != http.StatusConflict {
			t.Errorf("joining AJ's seat: %d %s", status, body)
		}
	}
}

// TestHouseSeatRefusals: a house seat is asked for only where the rules
// play one.
func TestHouseSeatRefusals(t *testing.T) {
	ts := newTestServer(t, withDruids)
	for _, c := range []struct {
		opts  map[string]string
		seats []map[string]string
		want  string
	}{
		{nil, []map[string]string{{"kind": "human"}, {"kind": "house"}}, "play no seat"},
		{map[string]string{"aj": "adept"}, []map[string]string{{"kind": "house"}, {"kind": "house"}}, "play no seat"},
	} {
		status, body := ts.request("POST", "/api/games", "", map[string]any{"game": "druids", "options": c.opts, "seats": c.seats})
		if status != http.StatusBadRequest || !strings.Contains(string(body), c.want) {
			t.Errorf("%v %v: %d %s; want 400 saying %q", c.opts, c.seats, status, body, c.want)
		}
	}
}
