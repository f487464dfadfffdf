package ai_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/aitest"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// TestGenericKit: a game that brings nothing to the bots (Tiny) gets every
// bot package ai promises: random play and the search, at the generic
// levels.
func TestGenericKit(t *testing.T) {
	g := &ai.Game{Rules: gametest.Tiny}
	st, err := g.Rules.NewGame(game.Setup{Players: 3, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	over := st.Clone()
	for !over.Over() {
		if err := over.Play(game.Legal(over)[0]); err != nil {
			t.Fatal(err)
		}
	}
	aitest.CheckKit(t, g, st, over)
}

// TestBotsPlayAnyGame plays Tiny, a game package ai knows nothing of, with
// every spec it offers for it: the bots go through the contract alone.
func TestBotsPlayAnyGame(t *testing.T) {
	g := &ai.Game{Rules: gametest.Tiny}
	specs := g.Specs()
	for _, want := range []string{"random", "mcts", "easy", "medium", "hard", "max"} {
		if !slices.Contains(specs, want) {
			t.Errorf("Tiny's specs %v lack %q", specs, want)
		}
	}
	for _, spec := range []string{"random", "mcts:200", "easy", "medium"} {
		t.Run(spec, func(t *testing.T) {
			bot, err := ai.NewWith(g, spec, ai.Options{Seed: 1, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, players := range []int{2, 3, 4} {
				st, err := g.Rules.NewGame(game.Setup{Players: players, Seed: uint64(players)})
				if err != nil {
					t.Fatal(err)
				}
				st = aitest.PlayOut(t, bot, st)
				if _, err := bot.Move(context.Background(), st); !errors.Is(err, ai.ErrGameOver) {
					t.Errorf("move in a finished game: got %v, want ErrGameOver", err)
				}
			}
		})
	}
}
