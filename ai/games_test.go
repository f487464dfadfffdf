package ai

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/druids"
	druidsbots "github.com/lagoon-games/lagoon/druids/bots"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
	lagunabots "github.com/lagoon-games/lagoon/laguna/bots"
)

func newGame(t *testing.T, rules *game.Rules, players int, opts map[string]string, seed uint64) game.State {
	t.Helper()
	st, err := rules.NewGame(game.Setup{Players: players, Options: opts, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestDruidsAndLagunaBots: the two games' own bots and levels are in the
// table, by the names people choose them by, and play whole games.
func TestDruidsAndLagunaBots(t *testing.T) {
	if got, want := Specs(druids.Rules.ID), []string{"random", "heuristic", "aj-initiate", "aj-acolyte", "aj-adept", "aj-eldrid", "aj-legend",
		"mcts", "mcts:500ms", "mcts:20000", "easy", "medium", "hard", "max"}; !slices.Equal(got, want) {
		t.Errorf("Druids' specs %v, want %v", got, want)
	}
	for _, c := range []struct {
		rules   *game.Rules
		spec    string
		players int
		opts    map[string]string
	}{
		{druids.Rules, "heuristic", 2, nil},
		{druids.Rules, "aj-legend", 2, nil},
		{druids.Rules, "aj-initiate", 2, map[string]string{"set": "advanced"}},
		{druids.Rules, "easy", 3, nil},
		{druids.Rules, "medium", 2, map[string]string{"aj": "legend"}},
		{laguna.Rules, "easy", 2, nil},
		{laguna.Rules, "medium", 3, map[string]string{"board": "hard"}},
		{laguna.Rules, "hard", 2, nil},
		{laguna.Rules, "max", 4, nil},
	} {
		t.Run(c.rules.ID+"/"+c.spec, func(t *testing.T) {
			if testing.Short() && c.players > 2 {
				t.Skip("a longer game")
			}
			bot, err := NewWith(c.rules, c.spec, Options{Seed: 5, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if bot.Name() != c.spec {
				t.Errorf("bot %q is named %q", c.spec, bot.Name())
			}
			st := playOut(t, bot, newGame(t, c.rules, c.players, c.opts, 11))
			if _, err := bot.Move(context.Background(), st); !errors.Is(err, ErrGameOver) {
				t.Errorf("move in a finished game: got %v, want ErrGameOver", err)
			}
		})
	}
}

// TestSearchLevelsUseTheGamesKnowledge: the search plays on the position
// the game's bots package offers (its playout, prior and rewards), not on
// the bare state, and moves.
func TestSearchLevelsUseTheGamesKnowledge(t *testing.T) {
	for _, c := range []struct {
		rules *game.Rules
		spec  string
		want  func(game.State) bool
	}{
		{druids.Rules, "hard", func(s game.State) bool { _, ok := s.(*druidsbots.Position); return ok }},
		{druids.Rules, "mcts:50,margin=0.5", func(s game.State) bool { _, ok := s.(*druidsbots.Position); return ok }},
		{laguna.Rules, "mcts:50", func(s game.State) bool { _, ok := s.(*lagunabots.Position); return ok }},
	} {
		bot, err := NewWith(c.rules, c.spec, Options{Seed: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		b, ok := bot.(*MCTS)
		if !ok {
			t.Fatalf("%s %s is a %T, not the search", c.rules.ID, c.spec, bot)
		}
		st := newGame(t, c.rules, 2, nil, 3)
		pos, err := b.position(st)
		if err != nil {
			t.Fatal(err)
		}
		if !c.want(pos) {
			t.Errorf("%s %s plays on a %T", c.rules.ID, c.spec, pos)
		}
		m, err := bot.Move(context.Background(), st)
		if err != nil {
			t.Fatalf("%s %s: %v", c.rules.ID, c.spec, err)
		}
		if err := st.Clone().Play(m); err != nil {
			t.Errorf("%s %s: %v", c.rules.ID, c.spec, err)
		}
	}
}

// TestDruidsSearchEndsALongTurn: the Druids search, with the game's
// settings or a spec's own, ends a turn once it has made
// druidsbots.TurnLimit decisions in it. The test plays the decisions
// itself, going round a cycle that never ends the turn (seat 1's Eldrid
// and acolyte refreshing each other on Gruu's Refuge), and asks the bot
// for each.
func TestDruidsSearchEndsALongTurn(t *testing.T) {
	cycle := []string{"use 1A", "1E@1A", "1a@1A", "use 1A", "1A@1A", "1e@1A"}
	for _, spec := range []string{"mcts:20", "mcts:20,margin=0.5"} {
		bot, err := NewWith(druids.Rules, spec, Options{Seed: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		st, err := druids.ParseState("druids 2; first 0; active 0; step action; turns 0; ply 0; set 1-3,14,19,21; bag 2 3 19 21; world 1A@11,16 14A@12,16; hand -; score1 -; score2 -; seeds1 0 0 0; seeds2 0 0 0; markers - +; druids1 E@1A a@1A; druids2 E@14A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a00000000000000070000000000000007")
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; st.Turn() == 0; n++ {
			m, err := bot.Move(context.Background(), st)
			if err != nil {
				t.Fatalf("%s, decision %d: %v", spec, n, err)
			}
			text := st.MoveText(m)
			if n > druidsbots.TurnLimit && text == "end" {
				break
			}
			if n > druidsbots.TurnLimit+len(cycle) {
				t.Fatalf("%s chose %q at decision %d of the turn, want the end", spec, text, n)
			}
			if err := game.PlayText(st, cycle[(n-1)%len(cycle)]); err != nil {
				t.Fatalf("decision %d: %v", n, err)
			}
		}
	}
}

// TestLagunaPace: a Laguna level made for a person's table (Paced) takes
// its level's time for a move, so that a sand timer binds it; made for the
// arena and the tools it answers at once. The bubble's clock is fake, so
// the times are exact.
func TestLagunaPace(t *testing.T) {
	st := newGame(t, laguna.Rules, 2, nil, 4)
	for _, paced := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			bot, err := NewWith(laguna.Rules, "easy", Options{Seed: 1, Paced: paced})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if _, err := bot.Move(context.Background(), st); err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			if p, ok := bot.(interface{ Paced() bool }); !ok || p.Paced() != paced {
				t.Errorf("a planner made with Paced %v does not say so to a host", paced)
			}
			if want := time.Duration(0); paced {
				if took != time.Second {
					t.Errorf("a paced easy planner took %v for a move, want its pace's second", took)
				}
			} else if took != want {
				t.Errorf("an unpaced planner took %v for a move, want none", took)
			}
		})
	}
}
