package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// corrGame is a game of any kind as the tests of correspondence read it.
type corrGame struct {
	gameView
	State aState[json.RawMessage] `json:"state"`
}

// corrGet reads game id as a spectator, once everything due has run.
func (b bubbleServer) corrGet(id string) corrGame {
	b.t.Helper()
	synctest.Wait()
	status, body := b.do("GET", "/api/games/"+id, "", nil)
	if status != http.StatusOK {
		b.t.Fatalf("get %s: %d %.300s", id, status, body)
	}
	return decode[corrGame](b.t, body)
}

// warnings reads the count of correspondence warnings.
func (b bubbleServer) warnings() float64 {
	b.t.Helper()
	families, err := b.s.metrics.reg.Gather()
	if err != nil {
		b.t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == "lagoon_time_warnings_total" {
			return f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	b.t.Fatal("no lagoon_time_warnings_total")
	return 0
}

// reopen closes b's server and its store st, lets the fake clock run for
// away, and opens both again from dir: closed, the store's checkpoints do
// not run four times a fake second all that while.
func (b bubbleServer) reopen(st store.Store, dir string, away time.Duration) (bubbleServer, store.Store) {
	b.t.Helper()
	b.s.Close()
	if err := st.Close(); err != nil {
		b.t.Fatal(err)
	}
	time.Sleep(away)
	st = storeIn(b.t, dir)
	b.t.Cleanup(func() { st.Close() })
	return startBubble(b.t, st, nil), st
}

// storeIn opens a store in dir, which reopen closes.
func storeIn(t *testing.T, dir string) store.Store {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// days is a correspondence rule as a new game asks for it.
func days(n int) map[string]any {
	return map[string]any{"kind": "days", "turn_ms": (time.Duration(n) * game.Day).Milliseconds()}
}

// corrTable creates a game of id between Ann and Bea with a time of n
// days a turn, both joined, and returns it with the moment its time began.
func (b bubbleServer) corrTable(id string, n int) (createResponse, time.Time) {
	b.t.Helper()
	c := b.create(map[string]any{"game": id, "seed": 3, "time": days(n),
		"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}})
	b.join(c.ID, c.Seats[0].Token, c.Seats[1].Token)
	return c, time.Now()
}

// checkDeadline fails unless the seat to move in g has its time running,
// with that deadline and warning.
func checkDeadline(t *testing.T, when string, g corrGame, deadline time.Time, warned bool) {
	t.Helper()
	checkLeft(t, when, g, deadline, time.Until(deadline), warned)
}

// checkLeft is checkDeadline with left to run, its player away meanwhile.
func checkLeft(t *testing.T, when string, g corrGame, deadline time.Time, left time.Duration, warned bool) {
	t.Helper()
	cl := g.State.Clocks[g.State.ToMove]
	if !cl.Running || cl.Deadline == nil || !cl.Deadline.Equal(deadline) || cl.Warned != warned {
		t.Fatalf("%s: the clock of seat %d is %+v (deadline %v); want running to %v, warned %v",
			when, g.State.ToMove, cl, cl.Deadline, deadline, warned)
	}
	if want := left.Milliseconds(); cl.RemainingMS != want {
		t.Fatalf("%s: %d ms left, want %d", when, cl.RemainingMS, want)
	}
}

// TestCorrespondenceTimeRunsOut: each game is playable by correspondence;
// the seat to move has its days, is warned when 80% of them are gone, and
// when they run out the stand-in plays for it, as with a bank.
func TestCorrespondenceTimeRunsOut(t *testing.T) {
	for _, tc := range []struct {
		game      string
		configure func(*Config)
	}{
		{"tiny", nil},
		{"bluelagoon", nil},
		{"druids", withDruids},
		{"laguna", withLaguna},
	} {
		t.Run(tc.game, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b, _ := openBubble(t, tc.configure)
				defer b.s.Close()
				c, start := b.corrTable(tc.game, 1)
				g := b.corrGet(c.ID)
				if g.Time == nil || g.Time.Kind != "days" || g.Time.TurnMS != game.Day.Milliseconds() || !g.Time.Started {
					t.Fatalf("the time rule is %+v, want one day a turn, started", g.Time)
				}
				deadline := start.Add(game.Day)
				checkDeadline(t, "at the start", g, deadline, false)
				// 80% of a day is 19h12m.
				time.Sleep(19*time.Hour + 12*time.Minute - time.Millisecond)
				checkDeadline(t, "just before the warning", b.corrGet(c.ID), deadline, false)
				warnings := b.warnings()
				time.Sleep(time.Millisecond)
				checkDeadline(t, "at the warning", b.corrGet(c.ID), deadline, true)
				if n := b.warnings(); n != warnings+1 {
					t.Errorf("%v warnings counted at the warning, want %v", n, warnings+1)
				}
				seat := g.State.ToMove
				time.Sleep(time.Until(deadline))
				g = b.corrGet(c.ID)
				if !g.Seats[seat].StandIn || g.State.Version == 0 {
					t.Fatalf("after the day: version %d, seat %d's stand-in %v; want the stand-in to have played", g.State.Version, seat, g.Seats[seat].StandIn)
				}
			})
		})
	}
}

// TestCorrespondenceAcrossRestart: a correspondence turn's time runs while
// the server is down, and its deadline after a restart is the one before,
// to the millisecond.
func TestCorrespondenceAcrossRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		st := storeIn(t, dir)
		b := startBubble(t, st, nil)
		c, start := b.corrTable("tiny", 2)
		// A rename mid-turn writes the seats, with the clocks as of then.
		time.Sleep(3 * time.Hour)
		if status, body := b.do("POST", "/api/games/"+c.ID+"/join", c.Seats[1].Token, map[string]string{"name": "Bee"}); status != 200 {
			t.Fatalf("rename: %d %s", status, body)
		}
		time.Sleep(7 * time.Hour)
		b, _ = b.reopen(st, dir, 30*time.Hour)
		defer b.s.Close()
		deadline := start.Add(2 * game.Day)
		g := b.corrGet(c.ID)
		checkDeadline(t, "after the restart", g, deadline, true)
		time.Sleep(time.Until(deadline) - time.Millisecond)
		if g := b.corrGet(c.ID); g.State.Version != 0 || g.Seats[g.State.ToMove].StandIn {
			t.Fatalf("a millisecond before the deadline: version %d, seats %+v", g.State.Version, g.Seats)
		}
		time.Sleep(time.Millisecond)
		if g := b.corrGet(c.ID); !g.Seats[0].StandIn || g.State.Version == 0 {
			t.Fatalf("at the deadline: version %d, seats %+v; want the stand-in to have played", g.State.Version, g.Seats)
		}
	})
}

// TestCorrespondenceNotExpired: a game of 14 days a turn waits on its
// person beyond the 7 days after which a game nobody plays is given up,
// both when a server starts and at the sweep; a game without time is given
// up then. (The server is down meanwhile, so that the fake clock does not
// run 13 days of the sweep's minutes.)
func TestCorrespondenceNotExpired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		st := storeIn(t, dir)
		b := startBubble(t, st, nil)
		c, start := b.corrTable("tiny", 14)
		idle := b.create(map[string]any{"game": "tiny",
			"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}})
		b.join(idle.ID, idle.Seats[0].Token, idle.Seats[1].Token)
		b, _ = b.reopen(st, dir, 13*game.Day)
		defer b.s.Close()
		if status, _ := b.do("GET", "/api/games/"+idle.ID, "", nil); status != http.StatusGone {
			t.Errorf("a game without time idle for 13 days: %d, want 410", status)
		}
		deadline := start.Add(14 * game.Day)
		checkDeadline(t, "after a restart at 13 days", b.corrGet(c.ID), deadline, true)
		b.s.expire(time.Now())
		checkDeadline(t, "after the sweep at 13 days", b.corrGet(c.ID), deadline, true)
	})
}

// TestCorrespondenceBadDays: a correspondence rule of days not in the list
// is refused with a clear error, and no game is made.
func TestCorrespondenceBadDays(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, st := openBubble(t, nil)
		defer b.s.Close()
		for _, turn := range []time.Duration{0, 4 * game.Day, game.Day + time.Hour, 15 * game.Day, -game.Day} {
			status, body := b.do("POST", "/api/games", "", map[string]any{"game": "tiny",
				"time":  map[string]any{"kind": "days", "turn_ms": turn.Milliseconds()},
				"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}})
			if status != http.StatusBadRequest || !strings.Contains(string(body), "1, 2, 3, 5, 7, 10 or 14 days") {
				t.Errorf("%v a turn: %d %s; want 400 naming the days allowed", turn, status, body)
			}
		}
		if ids, err := st.IDs(context.Background()); err != nil || len(ids) != 0 {
			t.Errorf("games stored after the refusals: %v, %v", ids, err)
		}
	})
}

// doAs is do with a session cookie, returning the cookie the answer sets
// in its place if it sets one.
func (b bubbleServer) doAs(cookie *http.Cookie, method, path, token string, body any) (int, []byte, *http.Cookie) {
	b.t.Helper()
	req := httptest.NewRequest(method, path, nil)
	if body != nil {
		req = httptest.NewRequest(method, path, bytes.NewReader(mustJSON(body)))
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	w := httptest.NewRecorder()
	b.s.ServeHTTP(w, req)
	for _, c := range w.Result().Cookies() {
		if c.Name == players.CookieName {
			cookie = c
		}
	}
	return w.Code, w.Body.Bytes(), cookie
}

// TestCorrespondenceVacation: a player's vacation stops the clock of the
// seat they hold, and the others see them away and until when; its
// deadline moves by the time away; ended early it moves by what it took,
// after a restart too; a vacation of more days than the year has left,
// of no days, or while away is refused with a clear error and changes
// nothing.
func TestCorrespondenceVacation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		st := storeIn(t, dir)
		b := startBubble(t, st, nil)
		_, _, ann := b.doAs(nil, "GET", "/api/me", "", nil)
		_, _, bea := b.doAs(nil, "GET", "/api/me", "", nil)
		status, body, _ := b.doAs(ann, "POST", "/api/games", "", map[string]any{"game": "tiny", "seed": 3, "time": days(3),
			"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}})
		if status != http.StatusCreated {
			t.Fatalf("create: %d %s", status, body)
		}
		c := decode[createResponse](t, body)
		for i, who := range []*http.Cookie{ann, bea} {
			if status, body, _ := b.doAs(who, "POST", "/api/games/"+c.ID+"/join", c.Seats[i].Token, nil); status != 200 {
				t.Fatalf("join: %d %s", status, body)
			}
		}
		start := time.Now()
		g := b.corrGet(c.ID)
		p := g.State.ToMove
		mover := []*http.Cookie{ann, bea}[p]
		checkDeadline(t, "at the start", g, start.Add(3*game.Day), false)

		time.Sleep(game.Day)
		vacation := func(method string, body any) (int, string) {
			t.Helper()
			status, out, _ := b.doAs(mover, method, "/api/me/vacation", "", body)
			return status, string(out)
		}
		if status, out := vacation("POST", map[string]int{"days": 5}); status != 200 || !strings.Contains(out, `"left_days":25`) {
			t.Fatalf("a vacation of 5 days: %d %s", status, out)
		}
		deadline := start.Add(8 * game.Day)
		g = b.corrGet(c.ID)
		checkLeft(t, "on vacation", g, deadline, 2*game.Day, false)
		if until := g.Seats[p].AwayUntil; until == nil || !until.Equal(start.Add(6*game.Day)) {
			t.Fatalf("the seat away until %v, want %v", until, start.Add(6*game.Day))
		}
		for _, tc := range []struct {
			method string
			body   any
			status int
			says   string
		}{
			{"POST", map[string]int{"days": 1}, http.StatusConflict, "on vacation already, until 2000-01-07T00:00:00Z"},
			{"POST", map[string]int{"days": 0}, http.StatusBadRequest, "a whole number of days, at least 1"},
			{"POST", map[string]any{"days": "two"}, http.StatusBadRequest, ""},
		} {
			if status, out := vacation(tc.method, tc.body); status != tc.status || !strings.Contains(out, tc.says) {
				t.Errorf("%s %v: %d %s; want %d saying %q", tc.method, tc.body, status, out, tc.status, tc.says)
			}
		}
		time.Sleep(time.Hour)
		checkLeft(t, "after the refusals, an hour away", b.corrGet(c.ID), deadline, 2*game.Day, false)

		// Back after 2 days of the 5: the deadline moves by 2.
		time.Sleep(2*game.Day - time.Hour)
		if status, out := vacation("DELETE", nil); status != 200 || !strings.Contains(out, `"until":null`) || !strings.Contains(out, `"left_days":28`) {
			t.Fatalf("back early: %d %s", status, out)
		}
		deadline = start.Add(5 * game.Day)
		checkDeadline(t, "back early", b.corrGet(c.ID), deadline, false)
		if status, out := vacation("POST", map[string]int{"days": 29}); status != http.StatusBadRequest || !strings.Contains(out, "28 of 30 days left in 2000") {
			t.Errorf("29 days with 28 left: %d %s", status, out)
		}
		if status, out := vacation("DELETE", nil); status != http.StatusConflict || !strings.Contains(out, "not on vacation") {
			t.Errorf("back when not away: %d %s", status, out)
		}

		b, _ = b.reopen(st, dir, 6*time.Hour)
		defer b.s.Close()
		g = b.corrGet(c.ID)
		checkDeadline(t, "after a restart", g, deadline, false)
		if g.Seats[p].AwayUntil != nil {
			t.Errorf("back, the seat is away until %v", g.Seats[p].AwayUntil)
		}
		time.Sleep(time.Until(deadline))
		if g := b.corrGet(c.ID); !g.Seats[p].StandIn {
			t.Fatalf("at the deadline moved by the vacation: seats %+v; want the stand-in", g.Seats)
		}
	})
}
