package bots

import (
	"fmt"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/druids"
)

// turnShares is what a search with a budget a turn shares it by
// (ai.Kit.TurnShares): each decision searches a part in turnShares of what
// is left of the turn's. A turn asks the search for some six decisions that
// offer a choice (the turns of BenchmarkTurn ask 7 to 9 decisions, some
// of them forced).
const turnShares = 6

// Kit is what Lagoon: Land of Druids brings to the bots (ai.Kit): the
// heuristic, the planner, AJ at each of his levels as a seat ("aj-legend"),
// the search's positions, and the levels. Easy is the heuristic planning
// from a few sampled turns; medium the planner, which chooses among the
// heuristic's sampled turns by playouts and beats AJ in the solo game far
// more often than the heuristic (docs/druids.md, Bots); hard and max are
// the search with 2.5 s and 7 s for each whole turn, which a person waits,
// however many decisions it asks (ai.TurnLevel). Every bot ends its games (CloseGames;
// docs/druids.md, Bots, "Games that end"). A heuristic keeps its plan between
// calls and plans again when the game is not as planned, so one serves
// several seats. The search counts its decisions in a turn (LimitTurns), so
// each search bot prepares its own positions: Search makes a new counter
// at every call.
func Kit() ai.Kit {
	bots := []ai.Maker{
		ai.OwnBot("heuristic", func(o ai.Options) ai.Bot { return NewHeuristic(o.Seed, 0) }),
		ai.OwnBot("planner", func(o ai.Options) ai.Bot { return NewPlanner(o.Seed, 0, 0) }),
	}
	for _, l := range druids.AJLevels[1:] {
		bots = append(bots, ai.OwnBot("aj-"+l, func(o ai.Options) ai.Bot {
			b, err := NewAJ(l, o.Seed)
			if err != nil {
				panic(fmt.Sprintf("druids/bots: AJ's level %q: %v", l, err)) // a level of AJLevels
			}
			return b
		}))
	}
	return ai.Kit{
		Bots: bots,
		Levels: []ai.Maker{
			ai.OwnBot("easy", func(o ai.Options) ai.Bot { return NewHeuristic(o.Seed, 8) }),
			ai.OwnBot("medium", func(o ai.Options) ai.Bot { return NewPlanner(o.Seed, 0, 0) }),
			soloPlanner("hard", "mcts:2500ms/turn", 2500*time.Millisecond, 0, 8),
			soloPlanner("max", "mcts:7s/turn", 7*time.Second, 0, 32),
		},
		Search:     func(mcts.Budget) ai.Prepare { return LimitTurns(CloseGames(Search)) },
		TurnShares: turnShares,
		SearchWith: func(_ mcts.Budget, settings map[string]float64) (ai.Prepare, error) {
			prepare, err := SearchWith(settings)
			if err != nil {
				return nil, err
			}
			return LimitTurns(CloseGames(prepare)), nil
		},
	}
}
