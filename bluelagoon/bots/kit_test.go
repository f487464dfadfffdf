package bots

import (
	"context"
	"errors"
	"testing"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/aitest"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

// kitGame is the game as the bots play it, with its kit.
var kitGame = &ai.Game{Rules: bluelagoon.Rules, Kit: Kit()}

func newGame(t testing.TB, players int, seed uint64) game.State {
	t.Helper()
	st, err := bluelagoon.Rules.NewGame(game.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestKit holds the kit to what package ai promises of it.
func TestKit(t *testing.T) {
	over := aitest.PlayOut(t, ai.NewRandom(1), newGame(t, 2, 5))
	aitest.CheckKit(t, kitGame, newGame(t, 2, 3), over)
}

// TestKitBotsPlayWholeGames: the game's own bots and levels play whole
// games of every player count.
func TestKitBotsPlayWholeGames(t *testing.T) {
	counts := []int{2, 3, 4}
	if testing.Short() {
		counts = []int{3}
	}
	for _, spec := range []string{"greedy", "heuristic", "easy", "medium", "mcts:40"} {
		t.Run(spec, func(t *testing.T) {
			bot, err := ai.NewWith(kitGame, spec, ai.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, players := range counts {
				st := aitest.PlayOut(t, bot, newGame(t, players, uint64(players)))
				if _, err := bot.Move(context.Background(), st); !errors.Is(err, ai.ErrGameOver) {
					t.Errorf("move in a finished game: got %v, want ErrGameOver", err)
				}
			}
		})
	}
}

// TestKitSearchSettings: a spec's settings of the game's own reach its
// playout policy, and the bot they make plays; bad ones are refused.
func TestKitSearchSettings(t *testing.T) {
	spec := "mcts:200,bias=2,mast=0.5,minimax=0.5,c=0.3,w=1.5,token=0.9,settlefresh=0.5,margin=0.3"
	bot, err := ai.NewWith(kitGame, spec, ai.Options{Seed: 1, Workers: 1})
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	st := newGame(t, 2, 3)
	m, err := bot.Move(context.Background(), st)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	if err := st.Clone().Play(m); err != nil {
		t.Errorf("%s: %v", spec, err)
	}
	for _, spec := range []string{"mcts:1000,token=x", "mcts:1000,margin=2", "mcts:1000,nosuch=1", "greedy:1s"} {
		if _, err := ai.NewWith(kitGame, spec, ai.Options{}); err == nil {
			t.Errorf("%q made a bot", spec)
		}
	}
}
