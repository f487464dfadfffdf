package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/internal/store"
)

// bubbleServer is a server called directly, without the network, so that it
// can run in a synctest bubble with its fake clock.
type bubbleServer struct {
	t *testing.T
	s *Server
}

func (b bubbleServer) do(method, path, token string, body any) (int, []byte) {
	b.t.Helper()
	req := httptest.NewRequest(method, path, nil)
	if body != nil {
		req = httptest.NewRequest(method, path, bytes.NewReader(mustJSON(body)))
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	b.s.ServeHTTP(w, req)
	return w.Code, w.Body.Bytes()
}

// openBubble opens a store in a temporary directory, closed when the test
// ends, and a server on it with the test configuration changed by
// configure; the caller closes the server.
func openBubble(t *testing.T, configure func(*Config)) (bubbleServer, store.Store) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return startBubble(t, st, configure), st
}

// startBubble starts a server on st.
func startBubble(t *testing.T, st store.Store, configure func(*Config)) bubbleServer {
	t.Helper()
	cfg := testConfig(t, st)
	if configure != nil {
		configure(&cfg)
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return bubbleServer{t, s}
}

// create makes a game.
func (b bubbleServer) create(spec map[string]any) createResponse {
	b.t.Helper()
	status, body := b.do("POST", "/api/games", "", spec)
	if status != http.StatusCreated {
		b.t.Fatalf("create: %d %s", status, body)
	}
	return decode[createResponse](b.t, body)
}

func (b bubbleServer) get(id string) fullGame {
	b.t.Helper()
	status, body := b.do("GET", "/api/games/"+id, "", nil)
	if status != 200 {
		b.t.Fatalf("get: %d %s", status, body)
	}
	return decode[fullGame](b.t, body)
}

// TestClock checks the time bank, the increment, the start of the clocks
// when every person has joined, and the stand-in bot that plays for a person
// whose time is up until they move again. It runs on synctest's fake clock.
func TestClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		grace := func(cfg *Config) { cfg.StandInGrace = 5 * time.Second }
		b, st := openBubble(t, grace)
		s := b.s
		defer s.Close()
		c := b.create(map[string]any{
			"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}},
			"time":  map[string]any{"kind": "bank", "initial_ms": 10000, "increment_ms": 2000},
		})
		id, ann := c.ID, c.Seats[0].Token

		check := func(when string, version int, remaining int64, running, standIn bool) fullGame {
			t.Helper()
			synctest.Wait()
			g := b.get(id)
			cl := g.State.Clocks[0]
			if g.State.Version != version || cl.RemainingMS != remaining || cl.Running != running || g.Seats[0].StandIn != standIn {
				t.Fatalf("%s: version %d, Ann's clock %+v, stand-in %v; want version %d, %d ms, running %v, stand-in %v",
					when, g.State.Version, cl, g.Seats[0].StandIn, version, remaining, running, standIn)
			}
			return g
		}
		move := func(version int) {
			t.Helper()
			g := b.get(id)
			status, body := b.do("POST", "/api/games/"+id+"/moves", ann, map[string]any{"version": version, "move": g.State.View.Legal[0]})
			if status != 200 {
				t.Fatalf("move at %d: %d %s", version, status, body)
			}
		}

		time.Sleep(time.Hour)
		watch := spectate(t, s, id)
		if g := check("before Ann joins", 0, 10000, false, false); g.Time == nil || g.Time.Started || g.Time.Kind != "bank" || g.Time.InitialMS != 10000 || g.Time.IncrementMS != 2000 {
			t.Fatalf("time %+v before Ann joins", g.Time)
		}
		if status, body := b.do("POST", "/api/games/"+id+"/join", ann, nil); status != 200 {
			t.Fatalf("join: %d %s", status, body)
		}
		check("as Ann joins", 0, 10000, true, false)
		time.Sleep(9 * time.Second)
		check("after 9 s", 0, 1000, true, false)
		move(0)
		// The bot answers at once; Ann has 1 s left plus the 2 s increment.
		check("after Ann's move and the bot's", 2, 3000, true, false)
		time.Sleep(3 * time.Second)
		// Time is up: the stand-in plays for Ann (and gets her the
		// increment), the bot answers, and Ann has the grace to come back.
		check("after Ann's time is up", 4, 5000, true, true)
		// The move that began Ann's turn told everyone of her grace.
		if cl := watch.clocksAt(t, 4); cl[0].RemainingMS != 5000 || !cl[0].Running {
			t.Errorf("the move event of version 4 says Ann's clock is %+v, want 5000 ms running", cl[0])
		}
		time.Sleep(4 * time.Second)
		check("4 s into the grace", 4, 1000, true, true)
		// A replay shows the banks the moves left, not what the clocks
		// did since (the time running out at version 2).
		status, body := b.do("GET", "/api/games/"+id+"?at=2", "", nil)
		if at := decode[fullGame](t, body); status != 200 || at.State.Clocks[0].RemainingMS != 3000 {
			t.Errorf("the game at version 2 shows Ann's clock as %+v, want the 3000 ms move 2 left", at.State.Clocks)
		}
		// A restart keeps what is left of the grace, and gives no more.
		s.Close()
		time.Sleep(time.Hour)
		b = startBubble(t, st, grace)
		defer b.s.Close()
		check("after a restart", 4, 1000, true, true)
		move(4)
		check("when Ann is back", 6, 3000, true, false)

		moves, err := st.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		// The move that gives the stand-in's seat its turn leaves it the
		// grace.
		want := [][]int64{{3000, 10000}, {3000, 10000}, {2000, 10000}, {5000, 10000}, {3000, 10000}, {3000, 10000}}
		for i, m := range moves.Moves {
			if m.Clocks[0] != want[i][0] || m.Clocks[1] != want[i][1] {
				t.Errorf("move %d stored with clocks %v, want %v", i+1, m.Clocks, want[i])
			}
		}
		if moves.Moves[2].Seat != 0 {
			t.Errorf("move 3 was made by seat %d, want the stand-in for seat 0", moves.Moves[2].Seat)
		}
	})
}

// TestClockAcrossRestart: the time the player to move used before the
// server stopped still counts when it starts again; the time it was down
// does not; and a spectator who missed no move hears the clocks as they are.
func TestClockAcrossRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, st := openBubble(t, nil)
		c := b.create(map[string]any{
			"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}},
			"time":  map[string]any{"kind": "bank", "initial_ms": 10000, "increment_ms": 0},
		})
		for _, seat := range c.Seats {
			if status, body := b.do("POST", "/api/games/"+c.ID+"/join", seat.Token, nil); status != 200 {
				t.Fatalf("join: %d %s", status, body)
			}
		}
		time.Sleep(3 * time.Second)
		b.s.Close()
		time.Sleep(time.Hour)

		b = startBubble(t, st, nil)
		defer b.s.Close()
		if cl := b.get(c.ID).State.Clocks[0]; cl.RemainingMS != 7000 || !cl.Running {
			t.Errorf("after the restart Ann's clock is %+v, want the 7000 ms she had left, running", cl)
		}
		time.Sleep(time.Second)
		watch := spectate(t, b.s, c.ID)
		if cl := watch.clocksAt(t, 0); cl[0].RemainingMS != 6000 {
			t.Errorf("a spectator back at version 0 hears Ann's clock is %+v, want 6000 ms", cl[0])
		}
	})
}

// spectator is a WebSocket spectator without the network: the messages
// the game sends it wait in its queue.
type spectator struct{ c *wsConn }

// spectate subscribes a spectator to game id, as one that has seen its
// current version.
func spectate(t *testing.T, s *Server, id string) spectator {
	t.Helper()
	g, err := s.match(context.Background(), id)
	if err != nil || g == nil {
		t.Fatalf("game %s: %v", id, err)
	}
	c := &wsConn{s: s, g: g, seat: -1, out: make(chan outgoing, 1000), ctx: context.Background()}
	if !g.subscribe(c, int(g.version.Load()), 0) {
		t.Fatal("the game is closed")
	}
	return spectator{c}
}

// clocksAt reads the spectator's queue up to the first message of version v
// that carries clocks (a move's state, or the seats), and returns them.
func (sp spectator) clocksAt(t *testing.T, v int) []clockView {
	t.Helper()
	synctest.Wait()
	for {
		select {
		case o := <-sp.c.out:
			var m struct {
				Type    string                   `json:"type"`
				Version int                      `json:"version"`
				Clocks  []clockView              `json:"clocks"`
				State   *aState[json.RawMessage] `json:"state"`
			}
			if err := json.Unmarshal(o.msg, &m); err != nil {
				t.Fatal(err)
			}
			if m.State != nil && m.Clocks == nil {
				m.Clocks, m.Version = m.State.Clocks, m.State.Version
			}
			if m.Version == v && m.Clocks != nil {
				return m.Clocks
			}
		default:
			t.Fatalf("no message of version %d with clocks", v)
		}
	}
}
