package server

// What a newcomer met (issue 47, item 13) on the server's side: bots'
// pauses, and the increment of a turn ended before the time ran.

import (
	"net/http"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/game/gametest"
)

// TestBotTurnPacedAsAWhole: a bot's turn of several decisions pauses
// Config.BotDelay before its first and a quarter of it before each later
// one (issue 47), not BotDelay each. It runs on synctest's fake clock.
func TestBotTurnPacedAsAWhole(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const delay = 8 * time.Second
		b, _ := openBubble(t, func(c *Config) {
			c.BotDelay = delay
			c.Bots = func(string, string, bool) (Bot, error) { return firstBot{}, nil }
		})
		defer b.s.Close()
		// The first bot's lowest card is even: after it, the same bot
		// decides again in the same turn.
		bot := map[string]any{"kind": "bot", "level": "easy"}
		c := b.create(map[string]any{"game": "tiny", "seats": []map[string]any{bot, bot},
			"seed": tinySeed(t, 2, func(v gametest.TinyView) bool { return slices.Min(v.Hand)%2 == 0 })})
		steps := []struct {
			wait    time.Duration
			version int
		}{
			{delay - time.Millisecond, 0},
			{time.Millisecond, 1},
			{delay/stepPauses - time.Millisecond, 1},
			{time.Millisecond, 2},
		}
		for i, st := range steps {
			time.Sleep(st.wait)
			synctest.Wait()
			g := b.tiny(c.ID, "")
			if g.State.Version != st.version {
				t.Fatalf("step %d: at version %d, want %d (moves %+v)", i, g.State.Version, st.version, g.Moves)
			}
		}
		if g := b.tiny(c.ID, ""); g.Moves[1].Seat != g.Moves[0].Seat {
			t.Fatalf("the second decision was another seat's: %+v", g.Moves)
		}
	})
}

// TestBotsWithoutPauses: a person at the table may have the bots play
// without pauses, and with them again; a spectator or a token of no seat
// may not, and a body without "fast" is refused.
func TestBotsWithoutPauses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, func(c *Config) {
			c.BotDelay = 10 * time.Second
			c.Bots = func(string, string, bool) (Bot, error) { return firstBot{}, nil }
		})
		defer b.s.Close()
		c := b.timedTiny(map[string]any{"kind": "bot", "level": "easy"}, nil)
		id, ann := c.ID, c.Seats[0].Token
		for _, tc := range []struct {
			name, token string
			body        map[string]any
			status      int
		}{
			{"a spectator", "", map[string]any{"fast": true}, http.StatusUnauthorized},
			{"a token of no seat", "nope", map[string]any{"fast": true}, http.StatusForbidden},
			{"no fast", ann, map[string]any{}, http.StatusBadRequest},
			{"pauses again", ann, map[string]any{"fast": false}, http.StatusOK},
			{"no pauses", ann, map[string]any{"fast": true}, http.StatusOK},
		} {
			if status, body := b.do("POST", "/api/games/"+id+"/bots", tc.token, tc.body); status != tc.status {
				t.Errorf("%s: %d %s, want %d", tc.name, status, body, tc.status)
			}
		}
		b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
		v := b.tiny(id, ann).State.Version + 1 // after Ann's stop
		b.play(id, ann, "stop")
		synctest.Wait()
		if b.tiny(id, ann).State.Version == v {
			t.Errorf("the bot paused though Ann asked for no pauses")
		}
	})
}

// TestTakeBackBeforeTheClock: a turn ended before the clock started earned
// no increment, so taking it back takes none away (issue 47: a bank of
// 60 s + 10 s, a first move before the other seat joined, taken back
// after, left 50 s).
func TestTakeBackBeforeTheClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, nil)
		defer b.s.Close()
		c := b.timedTiny(map[string]any{"kind": "human", "name": "Bea"}, map[string]any{"kind": "bank", "initial_ms": 60000, "increment_ms": 10000})
		id, ann, bea := c.ID, c.Seats[0].Token, c.Seats[1].Token
		b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
		b.play(id, ann, "stop")
		b.checkClocks("Ann's turn before Bea joined", id, "60000", "60000")
		b.join(id, bea)
		time.Sleep(2 * time.Second)
		if status, body := b.do("POST", "/api/games/"+id+"/takeback", ann, map[string]any{"version": 2}); status != 200 {
			t.Fatalf("asking: %d %s", status, body)
		}
		if status, body := b.do("POST", "/api/games/"+id+"/takeback", bea, map[string]any{"version": 2, "accept": true}); status != 200 || !decode[takeBackResponse](t, body).Done {
			t.Fatalf("accepting: %d %s", status, body)
		}
		b.checkClocks("the turn before the clock taken back", id, "60000 running", "58000")
	})
}
