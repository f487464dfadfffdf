package ai

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

func TestNewUnknownListsKnown(t *testing.T) {
	_, err := New("nonsense")
	if err == nil {
		t.Fatal("New(nonsense) succeeded")
	}
	for _, s := range Specs() {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not list %q", err, s)
		}
	}
}

// playOut plays a whole game with bot in every seat, checking every move.
func playOut(t *testing.T, bot Bot, players int, seed uint64) *bluelagoon.Game {
	t.Helper()
	g, err := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		before := g.String()
		m, err := bot.Move(context.Background(), g)
		if err != nil {
			t.Fatalf("%s: %v in %s", bot.Name(), err, before)
		}
		if g.String() != before {
			t.Fatalf("%s changed the game it was given", bot.Name())
		}
		if err := g.Apply(m); err != nil {
			t.Fatalf("%s: %v in %s", bot.Name(), err, before)
		}
	}
	return g
}

func TestBotsPlayLegalMoves(t *testing.T) {
	counts := []int{2, 3, 4}
	if testing.Short() || raceEnabled {
		counts = []int{3}
	}
	for _, spec := range []string{"random", "greedy", "heuristic", "easy", "medium", "mcts:40"} {
		t.Run(spec, func(t *testing.T) {
			bot, err := NewWith(spec, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, players := range counts {
				g := playOut(t, bot, players, uint64(players))
				if _, err := bot.Move(context.Background(), g); !errors.Is(err, ErrGameOver) {
					t.Errorf("move in a finished game: got %v, want ErrGameOver", err)
				}
			}
		})
	}
}

func TestEverySpecMakesABot(t *testing.T) {
	g, err := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range Specs() {
		bot, err := New(spec)
		if err != nil {
			t.Errorf("New(%q): %v", spec, err)
			continue
		}
		if bot.Name() == "" {
			t.Errorf("New(%q) has no name", spec)
		}
		// A short deadline keeps the search bots quick; they still move.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		m, err := bot.Move(ctx, g)
		cancel()
		if err != nil {
			t.Errorf("%s: %v", spec, err)
		} else if err := g.Check(m); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
}

func TestBadSpecs(t *testing.T) {
	for _, spec := range []string{"", "mcts:", "mcts:0", "mcts:-1s", "mcts:fast", "greedy:1s", "Random", "extern:x"} {
		if _, err := New(spec); err == nil {
			t.Errorf("New(%q) succeeded", spec)
		}
	}
}
