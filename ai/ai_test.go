package ai

import (
	"context"
	"strings"
	"testing"

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
	for _, spec := range Specs() {
		t.Run(spec, func(t *testing.T) {
			bot, err := NewSeeded(spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			for players := bluelagoon.MinPlayers; players <= bluelagoon.MaxPlayers; players++ {
				g := playOut(t, bot, players, uint64(players))
				if _, err := bot.Move(context.Background(), g); err != ErrGameOver {
					t.Errorf("move in a finished game: got %v, want ErrGameOver", err)
				}
			}
		})
	}
}
