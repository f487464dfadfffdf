// Package ai holds the bots of Lagoon's games, from a random mover to Monte
// Carlo tree search, behind one small interface that the arena and the
// server use. Bots play any game through the contract (package game).
//
// Bots are made per game from specs, short strings that people type on the
// command line and that the server stores: "random", "mcts", "mcts:1s" (a
// time budget a move), "mcts:20000" (an iteration budget) for every game; a
// game's own bots (Blue Lagoon's "greedy" and "heuristic", Druids'
// "heuristic" and its solo opponent as a seat, "aj-legend", which live
// beside their game in its bots package); and the
// levels offered to people, "easy" to "max", for every game (Laguna's are
// its planner's). The search itself lives in ai/mcts and names no
// game: a game that knows more than the contract says (a move prior, a
// playout policy, shaped rewards) hands the search a state that offers it,
// through its Kit, which its bots package fills.
package ai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
)

// Bot chooses moves. Bots never change the state they are given and are
// safe to use concurrently in different games.
type Bot interface {
	Name() string
	// Move returns the move of the seat to move in st.
	Move(ctx context.Context, st game.State) (game.Move, error)
}

// ErrGameOver is returned by a bot asked to move in a game that is over.
var ErrGameOver = game.ErrOver

// New makes a bot for a game from a spec as used on the command line and in
// the server: "random", "mcts", "mcts:1s", "mcts:500ms", "mcts:20000"
// (iterations), "mcts:2s/turn", "mcts:20000/turn" (a budget for each whole
// turn of the seat, shared among its decisions: TurnLevel), the game's own bots ("greedy", "heuristic" for Blue Lagoon)
// and the levels "easy", "medium", "hard", "max". An unknown spec is an
// error that lists the known ones. The bot draws its random choices from a
// random seed and searches on all cores; NewWith makes reproducible bots.
func New(g *Game, spec string) (Bot, error) {
	return NewWith(g, spec, Options{Seed: rand.Uint64()})
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
	// Paced asks for a bot that acts at a person's pace where its game
	// has one (Laguna's planner, whose moves a sand timer must bind as it
	// binds a person's): what the server wants at a table. Such a bot
	// says so (a method Paced() bool), says how long each decision takes
	// at its pace (Pace() time.Duration) and still answers Move at once:
	// its host waits out the pace, as the server does on a timer, so that
	// no thread of its bots sleeps through it. The arena and the tools
	// leave it off.
	Paced bool
}

// NewWith is New with the options given.
func NewWith(g *Game, spec string, o Options) (Bot, error) {
	if g == nil || g.Rules == nil {
		return nil, errors.New("bot: no game")
	}
	name, arg, hasArg := strings.Cut(spec, ":")
	switch {
	case spec == "random":
		return NewRandom(o.Seed), nil
	case spec == "mcts":
		return NewMCTS(g, spec, mcts.Budget{Time: defaultSearchTime}, o), nil
	case name == "mcts" && hasArg:
		bot, err := mctsFromSpec(g, spec, arg, o)
		if err != nil {
			return nil, fmt.Errorf("bot %q: %w", spec, err)
		}
		return bot, nil
	}
	for _, m := range slices.Concat(g.Kit.Bots, g.levels()) {
		if spec == m.name {
			return m.make(g, o), nil
		}
	}
	return nil, fmt.Errorf("unknown bot %q for %s; known bots: %s", spec, g.Rules.Name, strings.Join(g.Specs(), ", "))
}

// Specs returns examples of every spec known for the game, for help texts
// and errors.
func (g *Game) Specs() []string {
	specs := []string{"random"}
	for _, b := range g.Kit.Bots {
		specs = append(specs, b.name)
	}
	specs = append(specs, "mcts", "mcts:500ms", "mcts:20000")
	return append(specs, g.Levels()...)
}

// Levels returns the level names of the game for people, easiest first:
// "easy", "medium", "hard", "max" for every game.
func (g *Game) Levels() []string {
	levels := g.levels()
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = l.name
	}
	return names
}
