package ai

import (
	"context"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
)

// A Game is a game as the bots play it: its rules, and the kit its bots
// package brings beyond them. The zero Kit is a game that brings nothing:
// random play and the generic search, at the generic levels.
type Game struct {
	Rules *game.Rules
	Kit   Kit
}

// A Kit is what a game brings to the bots beyond the contract, declared
// here and filled by the game's bots package (bluelagoon/bots, for one):
// its own bots, its levels, and how the search sees its states. Package ai
// names no game; a host pairs each game's rules with its kit once
// (cmd/lagoon's list of games).
type Kit struct {
	// Bots are the game's own bots, each made by the spec of its name
	// (Blue Lagoon's "greedy", Druids' "aj-legend").
	Bots []Maker
	// Levels are the bots offered to people, easiest first; nil offers
	// the generic levels (random play, then the search with more time).
	Levels []Maker
	// Search returns, for a search within a budget, what turns a state
	// into the state the search plays on: one that offers the search the
	// game's knowledge (mcts.Prior, mcts.Playout, mcts.Rewards,
	// mcts.Reroot). The budget lets a game know more for a small search
	// than for a large one. Nil: the search plays on the state itself.
	Search func(mcts.Budget) Prepare
	// SearchWith is Search with settings of the game's own, by name, from
	// a spec ("mcts:1000,token=0.9"); nil if the game has none.
	SearchWith func(b mcts.Budget, settings map[string]float64) (Prepare, error)
	// TurnShares is what a search with a budget for a whole turn
	// (TurnLevel, "mcts:2s/turn") shares it by: each decision of the turn
	// searches a part in TurnShares of what the turn has left. About the
	// number of decisions a turn asks the search for; 0 means 1 (a turn
	// of one decision).
	TurnShares int
}

// Prepare turns a state into the state a search plays on.
type Prepare func(game.State) (game.State, error)

// AnyBudget is a kit's Search that prepares positions the same way at
// every budget.
func AnyBudget(prepare Prepare) func(mcts.Budget) Prepare {
	return func(mcts.Budget) Prepare { return prepare }
}

// A Maker makes one bot of a game, named by its spec. Its constructors
// (OwnBot, SearchLevel) make every bot a kit hands out behave alike:
// named by its spec, refusing a finished game with ErrGameOver, and
// telling a host whether it keeps a person's pace.
type Maker struct {
	name string
	make func(g *Game, o Options) Bot
}

// Name returns the spec that makes the bot.
func (m Maker) Name() string { return m.name }

// OwnBot is a bot of the game's own under the spec name (a level's name,
// too: Blue Lagoon's "easy" is its greedy bot with random moves).
func OwnBot(name string, make func(o Options) Bot) Maker {
	return Maker{name, func(_ *Game, o Options) Bot { return own{make(o), name} }}
}

// SearchLevel is the search within a budget, with the game's knowledge,
// under the name of a level.
func SearchLevel(name string, b mcts.Budget) Maker {
	return Maker{name, func(g *Game, o Options) Bot { return NewMCTS(g, name, b, o) }}
}

// genericLevels are the levels of a game without levels of its own: random
// moves, then the search with more and more time.
var genericLevels = []Maker{
	{"easy", func(_ *Game, o Options) Bot {
		r := NewRandom(o.Seed)
		r.name = "easy"
		return r
	}},
	SearchLevel("medium", mcts.Budget{Time: 100 * time.Millisecond, Simulations: 1000}),
	SearchLevel("hard", mcts.Budget{Time: 250 * time.Millisecond}),
	SearchLevel("max", mcts.Budget{Time: 3 * time.Second}),
}

// levels returns the game's levels, its own or the generic ones.
func (g *Game) levels() []Maker {
	if g.Kit.Levels != nil {
		return g.Kit.Levels
	}
	return genericLevels
}

// own is a game's own bot as a kit hands it out: under the name of its
// spec, answering a finished game with ErrGameOver in the words of this
// package, and passing on whether it keeps a person's pace (Laguna's
// planner at a person's table), which the server asks of a bot.
type own struct {
	Bot
	name string
}

func (b own) Name() string { return b.name }

func (b own) Move(ctx context.Context, st game.State) (game.Move, error) {
	if st.Over() {
		return 0, ErrGameOver
	}
	return b.Bot.Move(ctx, st)
}

// Paced reports whether the bot keeps a person's pace, which its host
// waits out (Pace) rather than delay its moves further.
func (b own) Paced() bool {
	p, ok := b.Bot.(interface{ Paced() bool })
	return ok && p.Paced()
}

// Pace returns how long each of the bot's decisions takes at a person's
// pace (Options.Paced), 0 for a bot that keeps none.
func (b own) Pace() time.Duration {
	p, ok := b.Bot.(interface{ Pace() time.Duration })
	if !ok {
		return 0
	}
	return p.Pace()
}
