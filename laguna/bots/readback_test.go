package bots

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// TestStatesReadBack: every state the engine writes on the way through a
// game played by the planners, to its end, reads back as itself
// (ParseState, then String) with the same moves: in particular a game won
// in the middle of a turn (the turn's steps kept), a solo game solved in
// the middle of an exchange, and games stopped by the round limit.
func TestStatesReadBack(t *testing.T) {
	if raceEnabled {
		// The test plays in one goroutine, so the race detector finds
		// nothing in it that fewer games would not show it; it made the
		// 100 games take most of the package's 7 minutes under -race.
		fewerChecks(t, 20)
	}
	rapid.Check(t, func(t *rapid.T) {
		least, limits := 1, []int{0, 0, 3}
		if testing.Short() || raceEnabled {
			least, limits = 2, []int{3} // short games, no solo plans
		}
		players := rapid.IntRange(least, 4).Draw(t, "players")
		opts := map[string]string{
			"board": rapid.SampledFrom([]string{"easy", "hard"}).Draw(t, "board"),
			"timer": rapid.SampledFrom([]string{"on", "off"}).Draw(t, "timer"),
			"raft":  rapid.SampledFrom([]string{"4", "5"}).Draw(t, "raft"),
			"limit": fmt.Sprint(rapid.SampledFrom(limits).Draw(t, "limit")),
		}
		if players == 1 {
			opts["puzzle"] = fmt.Sprint(rapid.IntRange(0, 3).Draw(t, "puzzle"))
			opts["timer"] = "on"
		}
		seed := rapid.Uint64Range(1, 1<<20).Draw(t, "seed")
		st, err := laguna.Rules.NewGame(game.Setup{Players: players, Options: opts, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		seats := make([]*Planner, players)
		for p := range seats {
			seats[p] = NewLevel(rapid.SampledFrom(Levels).Draw(t, "level"), seed+uint64(p), false)
		}
		for n := 0; ; n++ {
			readsBack(t, st.(*laguna.State))
			if st.Over() {
				return
			}
			if n > 20000 {
				t.Fatalf("no end after %d decisions: %s", n, st)
			}
			m, err := seats[st.ToMove()].Move(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// readsBack fails t unless s's text reads back as s, with the same moves.
func readsBack(t *rapid.T, s *laguna.State) {
	text := s.String()
	r, err := laguna.ParseState(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if r.String() != text {
		t.Fatalf("read back as\n%s\nnot\n%s", r, text)
	}
	if a, b := fmt.Sprint(s.AppendLegal(nil)), fmt.Sprint(r.AppendLegal(nil)); a != b {
		t.Fatalf("read back with moves %s, not %s: %s", b, a, text)
	}
}

// fewerChecks makes rapid check n examples in t, rather than its default,
// unless -rapid.checks was given.
func fewerChecks(t *testing.T, n int) {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	f := flag.Lookup("rapid.checks")
	if set || f == nil {
		return
	}
	old := f.Value.String()
	if err := f.Value.Set(fmt.Sprint(n)); err != nil {
		t.Fatalf("rapid.checks: %v", err)
	}
	t.Cleanup(func() {
		if err := f.Value.Set(old); err != nil {
			t.Errorf("rapid.checks back to %s: %v", old, err)
		}
	})
}
