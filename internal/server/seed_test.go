package server

import (
	"testing"
	"time"
)

// TestChosenSeedIsMarked: a seed chosen when a table is made decides every
// draw, and anyone who read it in another game's record knows them; such a
// table says so to every seat and spectator and in each of the lobby's
// lists (the finished ones read from the store), before anyone has joined.
// A table dealt from a random seed says it was not chosen.
func TestChosenSeedIsMarked(t *testing.T) {
	ts := newTestServer(t, nil)
	seats := []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "open"}}
	chosen := ts.create(map[string]any{"seats": seats, "seed": 7})
	random := ts.create(map[string]any{"seats": seats})
	bots := []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}}
	finished := ts.create(map[string]any{"seats": bots, "seed": 7})
	ts.waitFor(finished.ID, "", func(g fullGame) bool { return g.State.Over })
	ts.s.forgetIdle(time.Now().Add(time.Hour), time.Minute)

	for _, c := range []struct {
		game createResponse
		want bool
	}{{chosen, true}, {random, false}} {
		if c.game.Game.SeedChosen != c.want {
			t.Errorf("the answer to the creation says seed_chosen %v, want %v", c.game.Game.SeedChosen, c.want)
		}
		for _, token := range []string{"", c.game.Seats[0].Token} {
			g := ts.get(c.game.ID, token)
			if g.Seats[0].Joined {
				t.Fatal("Ann's seat is joined: the test is not before anyone joins")
			}
			if g.SeedChosen != c.want {
				t.Errorf("game %s as seen with token %q: seed_chosen %v, want %v", c.game.ID, token, g.SeedChosen, c.want)
			}
		}
	}

	_, body := ts.request("GET", "/api/lobby", "", nil)
	lobby := decode[map[string][]map[string]any](t, body)
	want := map[string]any{chosen.ID: true, random.ID: false, finished.ID: true}
	for list, games := range lobby {
		for _, g := range games {
			id, _ := g["id"].(string)
			w, ok := want[id]
			if !ok {
				continue
			}
			delete(want, id)
			if g["seed_chosen"] != w {
				t.Errorf("the lobby's %s list says game %s has seed_chosen %v, want %v", list, id, g["seed_chosen"], w)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("the lobby lists none of %v", want)
	}
}
