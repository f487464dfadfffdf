package bots

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/aitest"
	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/laguna"
)

// kitGame is the game as the bots play it, with its kit.
var kitGame = &ai.Game{Rules: laguna.Rules, Kit: Kit()}

// TestKit holds the kit to what package ai promises of it, and its search
// to playing on the game's Position.
func TestKit(t *testing.T) {
	bot, err := ai.NewWith(kitGame, "max", ai.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	over := aitest.PlayOut(t, bot, newGame(t, 2, "easy", 5))
	st := newGame(t, 2, "easy", 3)
	aitest.CheckKit(t, kitGame, st, over)
	pos, err := kitGame.Kit.Search(mcts.Budget{Simulations: 50})(st)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pos.(*Position); !ok {
		t.Errorf("the search plays on a %T", pos)
	}
}

// TestKitLevelsPlayWholeGames: the planner's levels, by the names people
// choose them by, play whole games on both boards and player counts.
func TestKitLevelsPlayWholeGames(t *testing.T) {
	for _, c := range []struct {
		level, board string
		players      int
	}{
		{"easy", "easy", 2},
		{"medium", "hard", 3},
		{"hard", "easy", 2},
		{"max", "easy", 4},
	} {
		t.Run(c.level, func(t *testing.T) {
			if testing.Short() && c.players > 2 {
				t.Skip("a longer game")
			}
			bot, err := ai.NewWith(kitGame, c.level, ai.Options{Seed: 5, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			st := aitest.PlayOut(t, bot, newGame(t, c.players, c.board, 11))
			if _, err := bot.Move(context.Background(), st); !errors.Is(err, ai.ErrGameOver) {
				t.Errorf("move in a finished game: got %v, want ErrGameOver", err)
			}
		})
	}
}

// TestKitLevelsPace: a level made for a person's table (Paced) says so to
// a host and gives its level's time for a move (Pace), which the host
// waits out, so that a sand timer binds it; made for the arena and the
// tools it keeps none. Either answers at once. The bubble's clock is
// fake, so the times are exact.
func TestKitLevelsPace(t *testing.T) {
	st := newGame(t, 2, "easy", 4)
	for _, paced := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			bot, err := ai.NewWith(kitGame, "easy", ai.Options{Seed: 1, Paced: paced})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if _, err := bot.Move(context.Background(), st); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took != 0 {
				t.Errorf("a planner made with Paced %v took %v for a move, want none", paced, took)
			}
			if p, ok := bot.(interface{ Paced() bool }); !ok || p.Paced() != paced {
				t.Errorf("a planner made with Paced %v does not say so to a host", paced)
			}
			want := map[bool]time.Duration{false: 0, true: time.Second}[paced]
			if p, ok := bot.(interface{ Pace() time.Duration }); !ok || p.Pace() != want {
				t.Errorf("a planner made with Paced %v does not tell a host its pace, %v", paced, want)
			}
		})
	}
}
