package server

import (
	"net/http"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// TestLobbyIdleGames: a game against a bot left at its person's move is
// listed as idle, not in progress, once it has waited lobbyIdleAfter, and
// in progress again once the person moves (issue 47). It runs on
// synctest's fake clock.
func TestLobbyIdleGames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, func(c *Config) {
			c.Bots = func(string, string, bool) (Bot, error) { return firstBot{}, nil }
		})
		defer b.s.Close()
		c := b.timedTiny(map[string]any{"kind": "bot", "level": "easy"}, nil)
		id, ann := c.ID, c.Seats[0].Token
		b.join(id, ann)
		lists := func() map[string][]string {
			status, body := b.do("GET", "/api/lobby", "", nil)
			if status != http.StatusOK {
				t.Fatalf("lobby: %d %s", status, body)
			}
			out := map[string][]string{}
			for list, games := range decode[map[string][]summaryView](t, body) {
				for _, g := range games {
					out[list] = append(out[list], g.ID)
				}
			}
			return out
		}
		for _, step := range []struct {
			name string
			wait time.Duration
			move bool
			list string
		}{
			{"just made", 0, false, "playing"},
			{"a moment short", lobbyIdleAfter - time.Second, false, "playing"},
			{"left", time.Second, false, "idle"},
			{"moved again", time.Hour, true, "playing"},
		} {
			time.Sleep(step.wait)
			if step.move {
				b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
			}
			synctest.Wait()
			got := lists()
			for _, list := range []string{"open", "playing", "idle", "finished"} {
				if in := slices.Contains(got[list], id); in != (list == step.list) {
					t.Errorf("%s: in %q %v, want only in %q (%v)", step.name, list, in, step.list, got)
				}
			}
		}
	})
}
