package bots

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/aitest"
	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// kitGame is the game as the bots play it, with its kit.
var kitGame = &ai.Game{Rules: druids.Rules, Kit: Kit()}

// TestKit holds the kit to what package ai promises of it.
func TestKit(t *testing.T) {
	st := newGame(t, 2, 3, nil)
	over := newGame(t, 2, 5, nil)
	aitest.PlayOut(t, ai.NewRandom(1), over)
	aitest.CheckKit(t, kitGame, st, over)
	if got, want := kitGame.Specs(), []string{"random", "heuristic", "planner", "aj-initiate", "aj-acolyte", "aj-adept", "aj-eldrid", "aj-legend",
		"mcts", "mcts:500ms", "mcts:20000", "easy", "medium", "hard", "max"}; !slices.Equal(got, want) {
		t.Errorf("Druids' specs %v, want %v", got, want)
	}
}

// TestKitBotsPlayWholeGames: the game's own bots and levels, by the names
// people choose them by, play whole games of every kind.
func TestKitBotsPlayWholeGames(t *testing.T) {
	for _, c := range []struct {
		spec    string
		players int
		opts    map[string]string
	}{
		{"heuristic", 2, nil},
		{"aj-legend", 2, nil},
		{"aj-initiate", 2, map[string]string{"set": "advanced"}},
		{"easy", 3, nil},
		{"medium", 2, map[string]string{"aj": "legend"}},
	} {
		t.Run(c.spec, func(t *testing.T) {
			if testing.Short() && c.players > 2 {
				t.Skip("a longer game")
			}
			bot, err := ai.NewWith(kitGame, c.spec, ai.Options{Seed: 5, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			st := aitest.PlayOut(t, bot, newGame(t, c.players, 11, c.opts))
			if _, err := bot.Move(context.Background(), st); !errors.Is(err, ai.ErrGameOver) {
				t.Errorf("move in a finished game: got %v, want ErrGameOver", err)
			}
		})
	}
}

// TestKitSearchPlaysOnPosition: the search, with the game's settings or a
// spec's own, plays on the game's Position (its prior, playout and
// rewards).
func TestKitSearchPlaysOnPosition(t *testing.T) {
	st := newGame(t, 2, 3, nil)
	search, err := kitGame.Kit.SearchWith(mcts.Budget{Simulations: 50}, map[string]float64{"margin": 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for _, prepare := range []ai.Prepare{kitGame.Kit.Search(mcts.Budget{Simulations: 50}), search} {
		pos, err := prepare(st)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := pos.(*Position); !ok {
			t.Errorf("the search plays on a %T", pos)
		}
	}
}

// TestSearchEndsALongTurn: the search bot, with the game's settings or a
// spec's own, ends a turn once it has made TurnLimit decisions in it. The
// test plays the decisions itself, going round a cycle that never ends the
// turn (seat 1's Eldrid and acolyte refreshing each other on Gruu's
// Refuge), and asks the bot for each.
func TestSearchEndsALongTurn(t *testing.T) {
	for _, spec := range []string{"mcts:20", "mcts:20,margin=0.5"} {
		bot, err := ai.NewWith(kitGame, spec, ai.Options{Seed: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		st, err := druids.ParseState(cycleState)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; st.Turn() == 0; n++ {
			m, err := bot.Move(context.Background(), st)
			if err != nil {
				t.Fatalf("%s, decision %d: %v", spec, n, err)
			}
			text := st.MoveText(m)
			if n > TurnLimit && text == "end" {
				break
			}
			if n > TurnLimit+len(cycleMoves) {
				t.Fatalf("%s chose %q at decision %d of the turn, want the end", spec, text, n)
			}
			if err := game.PlayText(st, cycleMoves[(n-1)%len(cycleMoves)]); err != nil {
				t.Fatalf("decision %d: %v", n, err)
			}
		}
	}
}
