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
// random choices from a random seed; NewSeeded makes reproducible bots.
func New(spec string) (Bot, error) {
	return NewSeeded(spec, rand.Uint64())
}

// NewSeeded is New with the seed of the bot's random choices given, for
// reproducible games: a bot made with the same spec and seed, moving in the
// same positions in the same order, makes the same moves (for a search bot,
// only with an iteration budget, since a time budget depends on the machine).
func NewSeeded(spec string, seed uint64) (Bot, error) {
	name, arg, hasArg := strings.Cut(spec, ":")
	k, ok := kinds[name]
	if !ok {
		return nil, fmt.Errorf("unknown bot %q; known bots: %s", spec, strings.Join(Specs(), ", "))
	}
	if hasArg && k.withArg == nil {
		return nil, fmt.Errorf("bot %q takes no budget (in %q)", name, spec)
	}
	if hasArg {
		return k.withArg(arg, seed)
	}
	return k.plain(seed)
}

// A kind is a family of bots: how to make one with and without an argument.
type kind struct {
	plain   func(seed uint64) (Bot, error)
	withArg func(arg string, seed uint64) (Bot, error) // nil: takes no argument
}

var kinds = map[string]kind{
	"random": {plain: func(seed uint64) (Bot, error) { return NewRandom(seed), nil }},
}

// Specs returns examples of every known spec, for help texts and errors.
func Specs() []string {
	return []string{"random"}
}

// Levels returns the level names for people, easiest first.
func Levels() []string {
	return []string{}
}
