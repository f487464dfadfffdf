package server

import (
	"bytes"
	"context"
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
		st, err := store.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		cfg := testConfig(t, st)
		cfg.StandInGrace = 5 * time.Second
		s, err := New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		b := bubbleServer{t, s}

		status, body := b.do("POST", "/api/games", "", map[string]any{
			"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}},
			"clock": map[string]any{"initial_ms": 10000, "increment_ms": 2000},
		})
		if status != http.StatusCreated {
			t.Fatalf("create: %d %s", status, body)
		}
		c := decode[createResponse](t, body)
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
			status, body := b.do("POST", "/api/games/"+id+"/moves", ann, map[string]any{"version": version, "move": g.State.Legal[0]})
			if status != 200 {
				t.Fatalf("move at %d: %d %s", version, status, body)
			}
		}

		time.Sleep(time.Hour)
		if g := check("before Ann joins", 0, 10000, false, false); g.Clock == nil || g.Clock.Started {
			t.Fatalf("clock settings %+v before Ann joins", g.Clock)
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
		time.Sleep(4 * time.Second)
		check("4 s into the grace", 4, 1000, true, true)
		move(4)
		check("when Ann is back", 6, 3000, true, false)

		moves, err := st.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		want := [][]int64{{3000, 10000}, {3000, 10000}, {2000, 10000}, {2000, 10000}, {3000, 10000}, {3000, 10000}}
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
