package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/game"
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
	cl := g.State.Clocks[g.State.ToMove]
	if !cl.Running || cl.Deadline == nil || !cl.Deadline.Equal(deadline) || cl.Warned != warned {
		t.Fatalf("%s: the clock of seat %d is %+v (deadline %v); want running to %v, warned %v",
			when, g.State.ToMove, cl, cl.Deadline, deadline, warned)
	}
	if want := time.Until(deadline).Milliseconds(); cl.RemainingMS != want {
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
