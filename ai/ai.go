// Package ai holds the Blue Lagoon bots, from a random mover to Monte Carlo
// tree search, behind one small interface that the arena and the server use.
//
// Bots are made from specs, short strings that people type on the command
// line and that the server stores: "random", "greedy", "heuristic", "mcts",
// "mcts:1s" (a time budget a move), "mcts:20000" (an iteration budget), and
// the levels offered to people, "easy" to "max". The search itself lives in
// ai/mcts and knows nothing of Blue Lagoon beyond a small interface, so that
// other games can reuse it.
package ai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/bluelagoon"
)

// Bot chooses moves. Bots never mutate the game they are given and are safe
// to use concurrently in different games.
type Bot interface {
	Name() string
	Move(ctx context.Context, g *bluelagoon.Game) (bluelagoon.Move, error)
}

// ErrGameOver is returned by a bot asked to move in a game that is over.
var ErrGameOver = errors.New("the game is over")

// New makes a bot from a spec as used on the command line and in the server:
// "random", "greedy", "heuristic", "mcts", "mcts:1s", "mcts:500ms",
// "mcts:20000" (iterations), and the levels "easy", "medium", "hard", "max".
// An unknown spec is an error that lists the known ones. The bot draws its
// random choices from a random seed and searches on all cores; NewWith
// makes reproducible bots.
func New(spec string) (Bot, error) {
	return NewWith(spec, Options{Seed: rand.Uint64()})
}

// Options are the settings of a bot that are not part of its spec.
type Options struct {
	// Seed seeds the bot's random choices. A bot made with the same spec
	// and seed, asked for moves in the same positions in the same order,
	// makes the same moves (a search bot only with an iteration budget and
	// the same Workers, since a time budget depends on the machine).
	Seed uint64
	// Workers is the number of goroutines a search bot uses; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
}

// NewWith is New with the options given.
func NewWith(spec string, o Options) (Bot, error) {
	name, arg, hasArg := strings.Cut(spec, ":")
	switch {
	case spec == "random":
		return NewRandom(o.Seed), nil
	case spec == "greedy":
		return NewGreedy(o.Seed), nil
	case spec == "heuristic":
		return NewHeuristic(o.Seed), nil
	case spec == "mcts":
		return NewMCTS(spec, mcts.Budget{Time: defaultSearchTime}, o), nil
	case name == "mcts" && hasArg:
		b, err := parseBudget(arg)
		if err != nil {
			return nil, fmt.Errorf("bot %q: %w", spec, err)
		}
		return NewMCTS(spec, b, o), nil
	}
	for _, l := range levels {
		if spec == l.name {
			return l.make(o), nil
		}
	}
	return nil, fmt.Errorf("unknown bot %q; known bots: %s", spec, strings.Join(Specs(), ", "))
}

// A level is a bot offered to people, named by how hard it is to beat.
type level struct {
	name string
	make func(o Options) Bot
}

var levels = []level{
	{"easy", func(o Options) Bot {
		b := NewGreedy(o.Seed)
		b.name, b.randomness = "easy", 0.5
		return b
	}},
	{"medium", func(o Options) Bot {
		b := NewGreedy(o.Seed)
		b.name = "medium"
		return b
	}},
	{"hard", func(o Options) Bot { return NewMCTS("hard", mcts.Budget{Time: 250 * time.Millisecond}, o) }},
	{"max", func(o Options) Bot { return NewMCTS("max", mcts.Budget{Time: 3 * time.Second}, o) }},
}

// Specs returns examples of every known spec, for help texts and errors.
func Specs() []string {
	return append([]string{"random", "greedy", "heuristic", "mcts", "mcts:500ms", "mcts:20000"}, Levels()...)
}

// Levels returns the level names for people, easiest first.
func Levels() []string {
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = l.name
	}
	return names
}
