package bots

import (
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/mcts"
)

// Kit is what Blue Lagoon brings to the bots (ai.Kit): greedy and the
// heuristic, the search's positions by its budget (SearchFor, SearchWith),
// and the levels. Easy and medium are greedy, with and without random
// moves; hard searches 200 ms a move rather than the generic 250, so that
// on a loaded machine, waiting for a core, it still answers within about
// 0.3 s (docs/strength.md, The levels).
func Kit() ai.Kit {
	return ai.Kit{
		Bots: []ai.Maker{
			ai.OwnBot("greedy", func(o ai.Options) ai.Bot { return NewGreedy("greedy", 0, o.Seed) }),
			ai.OwnBot("heuristic", func(o ai.Options) ai.Bot { return NewHeuristic(o.Seed) }),
		},
		Levels: []ai.Maker{
			ai.OwnBot("easy", func(o ai.Options) ai.Bot { return NewGreedy("easy", 0.5, o.Seed) }),
			ai.OwnBot("medium", func(o ai.Options) ai.Bot { return NewGreedy("medium", 0, o.Seed) }),
			ai.SearchLevel("hard", mcts.Budget{Time: 200 * time.Millisecond}),
			ai.SearchLevel("max", mcts.Budget{Time: 3 * time.Second}),
		},
		Search:     SearchFor,
		SearchWith: SearchWith,
	}
}
