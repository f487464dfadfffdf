package ai

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// tinyKitted is Tiny with a kit of the tests' own: a bot "first" that
// plays the first legal move, levels of its own (easy is first, medium
// keeps a person's pace when asked), and a search that plays on a position
// of its own (tinyPosition), with a setting "x" from 0 to 1.
var tinyKitted = &Game{Rules: gametest.Tiny, Kit: Kit{
	Bots: []Maker{OwnBot("first", func(Options) Bot { return firstBot{} })},
	Levels: []Maker{
		OwnBot("easy", func(Options) Bot { return firstBot{} }),
		OwnBot("medium", func(o Options) Bot { return firstBot{paced: o.Paced} }),
		SearchLevel("hard", mcts.Budget{Simulations: 50}),
		SearchLevel("max", mcts.Budget{Simulations: 100}),
	},
	Search: AnyBudget(prepareTiny),
	SearchWith: func(_ mcts.Budget, settings map[string]float64) (Prepare, error) {
		for k, v := range settings {
			if k != "x" || v > 1 {
				return nil, fmt.Errorf("no setting %s=%v", k, v)
			}
		}
		return prepareTiny, nil
	},
}}

// firstBot plays the first legal move, even in a finished game (where it
// has none): the kit's wrapper answers that.
type firstBot struct{ paced bool }

func (firstBot) Name() string { return "first" }

func (b firstBot) Paced() bool { return b.paced }

// Pace is a second a decision when paced.
func (b firstBot) Pace() time.Duration {
	if b.paced {
		return time.Second
	}
	return 0
}

func (firstBot) Move(_ context.Context, st game.State) (game.Move, error) {
	return game.Legal(st)[0], nil
}

// tinyPosition is the test kit's search position.
type tinyPosition struct{ game.State }

func prepareTiny(st game.State) (game.State, error) { return tinyPosition{st.Clone()}, nil }

func (p tinyPosition) Clone() game.State { return tinyPosition{p.State.Clone()} }

func (p tinyPosition) CopyFrom(src game.State) { p.State.CopyFrom(src.(tinyPosition).State) }

// isTinyState reports whether st is a state of Tiny itself, not a
// position wrapping one.
func isTinyState(st game.State) bool {
	_, wrapped := st.(tinyPosition)
	return st != nil && !wrapped
}

// TestKitBots: a kit's own bots and levels are named by their specs, answer
// a finished game with ErrGameOver whatever the bot itself would do, and
// tell a host whether they keep a person's pace.
func TestKitBots(t *testing.T) {
	over := tinyGame(t, 2, 1)
	for !over.Over() {
		over.Play(game.Legal(over)[0])
	}
	for _, spec := range []string{"first", "easy", "medium"} {
		bot, err := NewWith(tinyKitted, spec, Options{Paced: true})
		if err != nil {
			t.Fatal(err)
		}
		if bot.Name() != spec {
			t.Errorf("%q is named %q", spec, bot.Name())
		}
		if _, err := bot.Move(context.Background(), over); !errors.Is(err, ErrGameOver) {
			t.Errorf("%q in a finished game: %v, want ErrGameOver", spec, err)
		}
		p, ok := bot.(interface{ Paced() bool })
		if want := spec == "medium"; !ok || p.Paced() != want {
			t.Errorf("%q made Paced: says Paced %v (%v), want %v", spec, p.Paced(), ok, want)
		}
		pace, ok := bot.(interface{ Pace() time.Duration })
		if want := map[bool]time.Duration{true: time.Second}[spec == "medium"]; !ok || pace.Pace() != want {
			t.Errorf("%q made Paced: its pace is not passed on to a host, want %v", spec, want)
		}
	}
	bot, err := NewWith(tinyKitted, "medium", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if bot.(interface{ Paced() bool }).Paced() {
		t.Error("medium made without Paced says it keeps a person's pace")
	}
}

// TestSearchPlaysOnTheKitsPosition: the search bots, the levels' and a
// spec's with the game's settings, play on the position the kit prepares.
func TestSearchPlaysOnTheKitsPosition(t *testing.T) {
	for _, spec := range []string{"hard", "mcts", "mcts:50", "mcts:50,x=0.5"} {
		bot, err := NewWith(tinyKitted, spec, Options{Seed: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		b, ok := bot.(*MCTS)
		if !ok {
			t.Fatalf("%s is a %T, not the search", spec, bot)
		}
		pos, err := b.position(tinyGame(t, 2, 3))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := pos.(tinyPosition); !ok {
			t.Errorf("%s plays on a %T", spec, pos)
		}
	}
	bot, err := NewWith(tiny, "mcts:50", Options{Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if pos, _ := bot.(*MCTS).position(tinyGame(t, 2, 3)); !isTinyState(pos) {
		t.Errorf("the search of a game without a kit plays on a %T", pos)
	}
}
