package ai

import (
	"fmt"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/bluelagoon/bots"
	"github.com/lagoon-games/lagoon/druids"
	druidsbots "github.com/lagoon-games/lagoon/druids/bots"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
	lagunabots "github.com/lagoon-games/lagoon/laguna/bots"
)

// knowledge is what a game brings to the bots beyond the contract. The
// bots themselves live beside their game; this table is the one place in
// package ai that names games.
type knowledge struct {
	// bots are the game's own bots, by spec.
	bots []gameBot
	// search returns, for a search within a budget, what turns a state
	// into the state the search plays on, one that offers the search the
	// game's knowledge (mcts.Prior, mcts.Playout, mcts.Rewards,
	// mcts.Reroot); nil plays on the state itself. The budget lets a game
	// know more for a small search than for a large one.
	search func(mcts.Budget) func(game.State) (game.State, error)
	// searchWith is search with settings of the game's own, by name, from
	// a spec ("mcts:1000,token=0.9"); nil if the game has none.
	searchWith func(mcts.Budget, map[string]float64) (func(game.State) (game.State, error), error)
	// config is the game's settings of the search (Workers and Seed
	// aside): what the arena found best for it.
	config mcts.Config
	// levels are the game's levels, easy to max.
	levels []level
}

type gameBot struct {
	name string
	make func(o Options) Bot
}

// games holds the knowledge of the games that bring some, by game id. It is
// filled in init, since a level's bot looks its game up here.
var games map[string]*knowledge

// generic is the knowledge of a game that brings none: the generic levels.
var generic *knowledge

func init() {
	generic = &knowledge{levels: genericLevels()}
	games = map[string]*knowledge{
		// Blue Lagoon: hard searches 200 ms, not the generic 250, so
		// that with a loaded machine's waits for a core it still answers
		// in under 0.3 s a move (issue 16); it is thousands of
		// simulations, well above the 1,000 that beat greedy 96 games
		// in 100 (docs/strength.md, The levels).
		bluelagoon.Rules.ID: {
			bots: []gameBot{
				{"greedy", func(o Options) Bot { return bots.NewGreedy("greedy", 0, o.Seed) }},
				{"heuristic", func(o Options) Bot { return bots.NewHeuristic(o.Seed) }},
			},
			search:     bots.SearchFor,
			searchWith: bots.SearchWith,
			levels: []level{
				{"easy", func(_ *game.Rules, o Options) Bot { return guard{bots.NewGreedy("easy", 0.5, o.Seed)} }},
				{"medium", func(_ *game.Rules, o Options) Bot { return guard{bots.NewGreedy("medium", 0, o.Seed)} }},
				searchLevel("hard", mcts.Budget{Time: 200 * time.Millisecond}),
				searchLevel("max", mcts.Budget{Time: 3 * time.Second}),
			},
		},
		// Druids: the heuristic plans its turn from sampled turns (fewer
		// samples, a weaker plan); the search beats it from a few hundred
		// simulations (docs/druids.md, Bots). A heuristic keeps its plan
		// between calls and plans again when the game is not as planned,
		// so one serves several seats, planning more often. The search
		// counts its decisions in a turn (druidsbots.LimitTurns), so each
		// search bot prepares its own.
		druids.Rules.ID: {
			bots: druidsBots(),
			search: func(mcts.Budget) func(game.State) (game.State, error) {
				return druidsbots.LimitTurns(druidsbots.Search)
			},
			searchWith: func(_ mcts.Budget, settings map[string]float64) (func(game.State) (game.State, error), error) {
				prepare, err := druidsbots.SearchWith(settings)
				if err != nil {
					return nil, err
				}
				return druidsbots.LimitTurns(prepare), nil
			},
			levels: []level{
				{"easy", func(_ *game.Rules, o Options) Bot { return named{"easy", guard{druidsbots.NewHeuristic(o.Seed, 8)}} }},
				{"medium", func(_ *game.Rules, o Options) Bot { return named{"medium", guard{druidsbots.NewHeuristic(o.Seed, 0)}} }},
				searchLevel("hard", mcts.Budget{Time: 250 * time.Millisecond}),
				searchLevel("max", mcts.Budget{Time: 3 * time.Second}),
			},
		},
		// Laguna: the levels are the planner's own (docs/laguna.md, Bots),
		// which plans further and remembers more from level to level. At
		// a person's table it acts at its level's pace, so that the sand
		// timer binds it as it binds a person; elsewhere it answers at
		// once.
		laguna.Rules.ID: {
			search: anyBudget(lagunabots.Search),
			levels: lagunaLevels(),
		},
	}
}

// anyBudget is a game's knowledge for the search that is the same at every
// budget.
func anyBudget(search func(game.State) (game.State, error)) func(mcts.Budget) func(game.State) (game.State, error) {
	return func(mcts.Budget) func(game.State) (game.State, error) { return search }
}

// druidsBots are Druids' own bots: the heuristic, and the solo opponent AJ
// at each of his levels as a seat of a two-player game ("aj-legend"),
// playing by the solo rules' choices.
func druidsBots() []gameBot {
	out := []gameBot{{"heuristic", func(o Options) Bot { return druidsbots.NewHeuristic(o.Seed, 0) }}}
	for _, l := range druids.AJLevels[1:] {
		out = append(out, gameBot{"aj-" + l, func(o Options) Bot {
			b, err := druidsbots.NewAJ(l, o.Seed)
			if err != nil {
				panic(fmt.Sprintf("ai: AJ's level %q: %v", l, err)) // a level of AJLevels
			}
			return b
		}})
	}
	return out
}

// lagunaLevels are Laguna's levels: its planner at each of its own.
func lagunaLevels() []level {
	var out []level
	for _, l := range lagunabots.Levels {
		out = append(out, level{l.Name, func(_ *game.Rules, o Options) Bot {
			return pacer{guard{lagunabots.NewLevel(l, o.Seed, o.Paced)}, o.Paced}
		}})
	}
	return out
}

// pacer is a bot that keeps a person's pace itself when made Paced
// (Laguna's planner): Paced tells a host not to delay its moves further.
type pacer struct {
	guard
	paced bool
}

// Paced reports whether the bot keeps a person's pace itself.
func (p pacer) Paced() bool { return p.paced }

// named is a game's own bot offered as a level, under the level's name.
type named struct {
	name string
	Bot
}

func (n named) Name() string { return n.name }

func knowledgeOf(gameID string) *knowledge {
	if k, ok := games[gameID]; ok {
		return k
	}
	return generic
}
