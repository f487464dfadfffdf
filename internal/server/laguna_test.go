package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// withLaguna makes a test server host Laguna too, whose sand timer is its
// default time rule.
var withLaguna = hosting(laguna.Rules)

// TestLagunaDefaultTime: a table of Laguna that asks for no time in
// particular keeps the sand timer (30 s a turn, the leftover carried); the
// solo puzzle and the variant without the timer keep none, as does a table
// that asks for none. The rules and the preview say so for the form, and
// an option for some player counts only says which.
func TestLagunaDefaultTime(t *testing.T) {
	ts := newTestServer(t, withLaguna)
	glass := `{"kind":"turn","initial_ms":0,"increment_ms":0,"turn_ms":30000,"carry":true}`
	_, body := ts.request("GET", "/api/rules", "", nil)
	if !strings.Contains(string(body), `"default_time":`+glass) || !strings.Contains(string(body), `"default_time":null`) {
		t.Errorf("the rules do not give Laguna the glass and Blue Lagoon none: %.2000s", body)
	}
	if !strings.Contains(string(body), `"key":"puzzle"`) || !strings.Contains(string(body), `"players":[1]}`) {
		t.Errorf("the rules do not say the puzzle is for one player: %.3000s", body)
	}
	for _, c := range []struct {
		players int
		opts    map[string]string
		want    string
	}{
		{2, nil, `"time":` + glass},
		{4, map[string]string{"board": "hard"}, `"time":` + glass},
		{2, map[string]string{"timer": "off"}, `"time":null`},
		{1, nil, `"time":null`},
	} {
		status, body := ts.request("POST", "/api/rules/laguna/preview", "", map[string]any{"players": c.players, "options": c.opts})
		if status != 200 || !strings.Contains(string(body), c.want) {
			t.Errorf("preview of %d players, %v: %d %.200s; want %s", c.players, c.opts, status, body, c.want)
		}
	}
	status, body := ts.request("POST", "/api/rules/laguna/preview", "", map[string]any{"players": 2, "options": map[string]string{"puzzle": "2"}})
	if status != http.StatusBadRequest || !strings.Contains(string(body), "option puzzle: only with 1 player") {
		t.Errorf("a puzzle for two: %d %s", status, body)
	}
	two := []map[string]string{{"kind": "human"}, {"kind": "human"}}
	for _, c := range []struct {
		time any
		want *timeView
	}{
		{nil, &timeView{Kind: "turn", TurnMS: 30000, Carry: true}},
		{map[string]any{"kind": "none"}, nil},
		{map[string]any{"kind": "turn", "turn_ms": 60000}, &timeView{Kind: "turn", TurnMS: 60000}},
	} {
		req := map[string]any{"game": "laguna", "seats": two}
		if c.time != nil {
			req["time"] = c.time
		}
		got := ts.create(req).Game.Time
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("time asked %v: %+v, want %+v", c.time, got, c.want)
		}
	}
}

// isStep reports whether a move of Laguna is a raft's step.
func isStep(text string) bool { return slices.Contains(laguna.DirNames[:], text) }

// stepFor plays decisions until seat may step its raft, and returns that
// step's text: for seat, one after which a step is legal if there is one
// (a pearl moved to cover a reef), else its first legal one; for the
// others, the end of their turn where they may end it. (In Laguna each
// seat first places its raft against an island and loads it.)
func (b bubbleServer) stepFor(id string, tokens []string, seat int) string {
	b.t.Helper()
	for range 200 {
		g := b.s.games[id]
		g.mu.Lock()
		cur, v := g.cur.Clone(), len(g.moves)
		g.mu.Unlock()
		legal := game.Legal(cur)
		var text string
		for _, m := range legal {
			if t := cur.MoveText(m); isStep(t) && cur.ToMove() == seat {
				return t
			}
		}
		for _, m := range legal {
			t := cur.MoveText(m)
			if cur.ToMove() != seat {
				if t == "end" || text == "" {
					text = t
				}
				continue
			}
			if t == "end" || t == "peek" {
				continue
			}
			if text == "" {
				text = t
			}
			after := cur.Clone()
			after.Play(m)
			if after.ToMove() == seat && slices.ContainsFunc(game.Legal(after), func(n game.Move) bool { return isStep(after.MoveText(n)) }) {
				text = t
				break
			}
		}
		if status, body := b.do("POST", "/api/games/"+id+"/moves", tokens[cur.ToMove()], map[string]any{"version": v, "move": text}); status != 200 {
			b.t.Fatalf("%s at %d: %d %s", text, v, status, body)
		}
	}
	b.t.Fatalf("seat %d never had a step to make", seat)
	return ""
}

// TestLagunaSandTimer: under Laguna's sand timer, a turn ended early
// passes what it left to the next on top of a fresh 30 s; a raft step sent
// after a turn's time ran out is refused, whether or not the server's
// timer has fired yet, and the rules end the turn, the next player having
// a fresh glass. The bubble's clock is fake, so the times are exact.
func TestLagunaSandTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, withLaguna)
		defer b.s.Close()
		c := b.create(map[string]any{"game": "laguna", "seed": 3,
			"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}})
		id := c.ID
		tokens := []string{c.Seats[0].Token, c.Seats[1].Token}
		b.join(id, tokens...)
		g := b.s.games[id]
		first := g.cur.ToMove()
		second := 1 - first
		// Both rafts placed and loaded, the first seat's turn begins
		// with a step to make.
		step := b.stepFor(id, tokens, first)
		g.mu.Lock()
		start, left := g.turnStart, g.clocks[first]
		g.mu.Unlock()
		t.Logf("the first seat's turn starts with %d ms", left)

		// The first seat takes 10 s, steps and ends its turn: the second
		// gets what it left on top of a fresh glass.
		time.Sleep(10 * time.Second)
		v := int(g.version.Load())
		if status, body := b.do("POST", "/api/games/"+id+"/moves", tokens[first], map[string]any{"version": v, "move": step}); status != 200 {
			t.Fatalf("a step in time: %d %s", status, body)
		}
		for g.cur.ToMove() == first {
			v := int(g.version.Load())
			if status, body := b.do("POST", "/api/games/"+id+"/moves", tokens[first], map[string]any{"version": v, "move": "end"}); status != 200 {
				t.Fatalf("end: %d %s", status, body)
			}
		}
		rest := left - time.Since(start).Milliseconds()
		want := make([]string, 2)
		want[first] = "0"
		want[second] = fmt.Sprint(30000+min(rest, 30000), " running")
		if rest > 30000 {
			want[second] = fmt.Sprint(30000+rest-30000, " running")
		}
		b.checkClocks("the second seat's turn", id, want...)

		// The second seat steps once in time, then lets its glass run
		// out; its timer is held back, as a busy server might be late to
		// fire it, so that the step sent after the time reaches the game
		// first: refused all the same.
		step = b.stepFor(id, tokens, second)
		time.Sleep(5 * time.Second)
		v = int(g.version.Load())
		if status, body := b.do("POST", "/api/games/"+id+"/moves", tokens[second], map[string]any{"version": v, "move": step}); status != 200 {
			t.Fatalf("a step in time: %d %s", status, body)
		}
		step = b.stepFor(id, tokens, second)
		g.mu.Lock()
		g.timer.Stop()
		remaining := g.remaining(second, time.Now())
		v, gen := len(g.moves), g.takeBacks
		g.mu.Unlock()
		time.Sleep(time.Duration(remaining)*time.Millisecond + time.Second)
		status, body := b.do("POST", "/api/games/"+id+"/moves", tokens[second], map[string]any{"version": v, "move": step})
		if status != http.StatusConflict || !strings.Contains(string(body), `"time_up"`) {
			t.Fatalf("a step after the time ran out: %d %s; want 409 time_up", status, body)
		}
		if int(g.version.Load()) != v {
			t.Fatal("the late step was played")
		}
		g.timeout(v, gen)
		want[first], want[second] = "30000 running", "0"
		b.checkClocks("the first seat's turn after the second's ran out", id, want...)
		_, body = b.do("GET", "/api/games/"+id, "", nil)
		if m := decode[gameView](t, body).Moves; m[len(m)-1].Seat != second || m[len(m)-1].Move != "end" {
			t.Errorf("the turn that ran out ended by %+v", m[len(m)-1])
		}

		// The first seat lets its glass run out with the timer running:
		// the rules end its turn at once, and a step sent after is not
		// its to make.
		// (What the hands did to get the raft stepping took sand too.)
		step = b.stepFor(id, tokens, first)
		g.mu.Lock()
		remaining = g.remaining(first, time.Now())
		v = len(g.moves)
		g.mu.Unlock()
		time.Sleep(time.Duration(remaining)*time.Millisecond + time.Second)
		synctest.Wait()
		status, body = b.do("POST", "/api/games/"+id+"/moves", tokens[first], map[string]any{"version": int(g.version.Load()), "move": step})
		if status != http.StatusConflict {
			t.Fatalf("a step after the time ran out: %d %s; want 409", status, body)
		}
		// A second has passed since: the second seat's fresh glass runs.
		want[first], want[second] = "0", "29000 running"
		b.checkClocks("the second seat's turn after the first's ran out", id, want...)
		if int(g.version.Load()) != v+1 {
			t.Errorf("the turn ended in %d moves, want the rules' one", int(g.version.Load())-v)
		}
	})
}

// TestLagunaLeftByItsPeopleExpires: a Laguna table its people left goes
// on turn after turn by its sand timer (the rules end each turn); those
// moves are no sign of life, so the game is given up all the same.
func TestLagunaLeftByItsPeopleExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, func(c *Config) {
			withLaguna(c)
			c.IdleExpiry = 3 * time.Minute
		})
		defer b.s.Close()
		c := b.create(map[string]any{"game": "laguna", "seed": 3,
			"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}})
		tokens := []string{c.Seats[0].Token, c.Seats[1].Token}
		b.join(c.ID, tokens...)
		g := b.s.games[c.ID]
		// The people place their rafts, which the glass does not time,
		// and leave the table.
		placed := b.placeRafts(c.ID, tokens)
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if v := g.version.Load(); v < int64(placed)+3 {
			t.Fatalf("after two minutes the timer made %d moves; the test shows nothing", v)
		}
		if status, body := b.do("GET", "/api/games/"+c.ID, "", nil); status != 200 {
			t.Fatalf("after two minutes: %d %s", status, body)
		}
		time.Sleep(3 * time.Minute)
		synctest.Wait()
		if status, body := b.do("GET", "/api/games/"+c.ID, "", nil); status != http.StatusGone {
			t.Errorf("after five minutes of the timer's moves alone: %d %.200s; want 410", status, body)
		}
	})
}

// TestLagunaGlassTurnedWhenPlayBegins: the sand does not run while the
// rafts are placed, and nothing of it carries into the first turn, which
// begins with a full glass (issue 30, item 12). When the sand runs out,
// the rules' end is said to be the glass's, in the note and the move, and
// still after a restart (issue 28, item 11).
func TestLagunaGlassTurnedWhenPlayBegins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, st := openBubble(t, withLaguna)
		c := b.create(map[string]any{"game": "laguna", "seed": 3,
			"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}})
		id := c.ID
		tokens := []string{c.Seats[0].Token, c.Seats[1].Token}
		b.join(id, tokens...)
		g := b.s.games[id]
		b.placeRafts(id, tokens)
		first := g.cur.ToMove()
		want := []string{"0", "0"}
		want[first] = "30000 running"
		b.checkClocks("play begins", id, want...)

		time.Sleep(31 * time.Second)
		synctest.Wait()
		sandRanOut := func(when string) {
			t.Helper()
			_, body := b.do("GET", "/api/games/"+id, "", nil)
			moves := decode[gameView](t, body).Moves
			last := moves[len(moves)-1]
			var note laguna.NoteView
			if err := json.Unmarshal(last.Note, &note); err != nil {
				t.Fatal(err)
			}
			if last.Move != "end" || last.Seat != first || !last.ByTime || note.TurnEnds != "time" || !note.ByTime {
				t.Errorf("%s: the turn the sand ended ends with %+v, note %+v", when, last, note)
			}
		}
		sandRanOut("the sand ran out")
		b.s.Close()
		b = startBubble(t, st, withLaguna)
		defer b.s.Close()
		sandRanOut("after a restart")
	})
}

// placeRafts places every raft of Laguna game id, each where it may first
// go, two minutes after its turn to place began: the glass does not run
// for them, and nothing is placed for a player. It returns the moves made.
func (b bubbleServer) placeRafts(id string, tokens []string) int {
	b.t.Helper()
	g := b.s.games[id]
	for {
		g.mu.Lock()
		cur, v := g.cur.Clone(), len(g.moves)
		g.mu.Unlock()
		if cur.Standing().Phase != "place" {
			return v
		}
		for _, cl := range b.tiny(id, "").State.Clocks {
			if cl.Running {
				b.t.Fatalf("the glass runs while raft %d is placed: %+v", v+1, cl)
			}
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if now := int(g.version.Load()); now != v {
			b.t.Fatalf("raft %d was placed for its player by the time", v+1)
		}
		move := cur.MoveText(game.Legal(cur)[0])
		if status, body := b.do("POST", "/api/games/"+id+"/moves", tokens[cur.ToMove()], map[string]any{"version": v, "move": move}); status != 200 {
			b.t.Fatalf("placing %s at %d: %d %s", move, v, status, body)
		}
	}
}
