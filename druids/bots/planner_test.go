package bots

import (
	"context"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// The planner's plans are the seat's own legal decisions, and they unravel
// where an unravel is there to take: Kindred Stone (21B, Elemeen) is a leaf
// the seat's Eldrid stands on and three Deonin seeds pay for it; with it
// gone the three energies tie and the seat's five Vowelon seeds make
// Vowelon dominate, which leaves the other seat's Elemeen seeds and its
// unravelled 2A (Vowelon) worth nothing, with one tile left in the bag. At
// the Action step the plan unravels at once; at the Refresh step, the
// Eldrid exhausted, it refreshes it first.
func TestPlannerUnravels(t *testing.T) {
	const world = "set 1-2,14-15,19,21; bag 19; world 1A@11,16 14A@12,16 15A@13,16 21B@10,16; hand -; score1 -; score2 2A; seeds1 0 5 3; seeds2 4 0 0; markers + +"
	for _, c := range []struct {
		name, state string
		want        []string
	}{
		{"action", "druids 2; first 0; active 0; step action; turns 0; ply 0; " + world + "; druids1 E@21B; druids2 E@1A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a00000000000000070000000000000007",
			[]string{"unravel", "1E@21B"}},
		{"refresh", "druids 2; first 0; active 0; step refresh; turns 2; ply 9; " + world + "; druids1 e@21B; druids2 E@1A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a00000000000000070000000000000007",
			[]string{"1e@21B", "unravel", "1E@21B"}},
	} {
		s, err := druids.ParseState(c.state)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(3) {
			plan := NewPlanner(seed, 16, 32).planTurn(s, closing{})
			got := legalPlan(t, s, plan)
			if !slices.Contains(got, "unravel") || !isSubsequence(c.want, got) {
				t.Errorf("%s, seed %d: the plan %v does not unravel as %v", c.name, seed, got, c.want)
			}
		}
	}
}

// legalPlan plays plan on a copy of s, each decision checked and its view
// the one the plan expects, and returns the plan's decisions as text.
func legalPlan(t *testing.T, s *druids.State, plan []step) []string {
	t.Helper()
	c := *s
	var text []string
	for i, st := range plan {
		if st.key != "" && st.key != viewKey(&c) {
			t.Fatalf("decision %d of the plan expects another view", i)
		}
		text = append(text, c.MoveText(st.move))
		if err := c.Play(st.move); err != nil {
			t.Fatalf("decision %d of the plan %v: %v", i, text, err)
		}
	}
	return text
}

// isSubsequence reports whether want appears in got in order.
func isSubsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

// Every plan the planner makes in whole games, two players against random
// play and solo against AJ, is legal, its views the ones it meets, and it
// ends at the seat's next chance event: a tile drawn or the turn's end.
func TestPlannerPlansAreLegal(t *testing.T) {
	for _, setup := range []game.Setup{
		{Players: 2, Seed: 3},
		{Players: 2, Seed: 4, Options: map[string]string{"aj": "legend"}},
	} {
		st, err := druids.Rules.NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*druids.State)
		b := NewPlanner(7, 16, 1)
		other := ai.NewRandom(8)
		plans := 0
		for n := 0; !s.Over(); n++ {
			if n > 5000 {
				t.Fatalf("%v: the game does not end", setup)
			}
			var m game.Move
			if s.ToMove() == 0 {
				plan := b.planTurn(s, closingOf(s, s.String(), s.AppendLegal(nil)))
				legalPlan(t, s, plan)
				if k := untilChance(s, movesOf(plan)); k != len(plan) {
					t.Fatalf("%v: the plan goes on past a chance event after %d of its %d decisions", setup, k, len(plan))
				}
				plans++
				m = plan[0].move
			} else {
				if m, err = other.Move(context.Background(), s); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if plans < 10 {
			t.Errorf("%v: %d plans", setup, plans)
		}
	}
}

func movesOf(plan []step) []game.Move {
	var m []game.Move
	for _, s := range plan {
		m = append(m, s.move)
	}
	return m
}

// fixedBot answers every position with one move, so that a test can tell
// whose move a level played.
type fixedBot struct{ m game.Move }

func (fixedBot) Name() string { return "fixed" }
func (b fixedBot) Move(context.Context, game.State) (game.Move, error) {
	return b.m, nil
}

// The levels that plan play the solo game against AJ by the planner and
// other games by their search.
func TestSoloLevelPlansAgainstAJ(t *testing.T) {
	const searched = game.Move(1 << 20) // no move of the game: only the search answers it
	for _, c := range []struct {
		name    string
		options map[string]string
		planned bool
	}{
		{"two players", nil, false},
		{"solo against AJ", map[string]string{"aj": "acolyte"}, true},
	} {
		st := newGame(t, 2, 6, c.options)
		level := &soloLevel{planner: NewPlanner(2, 16, 1), search: fixedBot{searched}}
		m, err := level.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		want, err := NewPlanner(2, 16, 1).Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if !c.planned {
			want = searched
		}
		if m != want {
			t.Errorf("%s: the level played %d, want %d", c.name, m, want)
		}
	}
	for _, level := range []string{"hard", "max"} {
		bot, err := ai.NewWith(kitGame, level, ai.Options{Seed: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		st := newGame(t, 2, 6, map[string]string{"aj": "legend"})
		m, err := bot.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Play(m); err != nil {
			t.Errorf("%s in the solo game: %v", level, err)
		}
	}
}
