package bots

import "github.com/lagoon-games/lagoon/ai"

// Kit is what Laguna brings to the bots (ai.Kit): the search's positions,
// and as levels the planner's own (docs/laguna.md, Bots), which plan further
// and remember more from level to level. At a person's table a level keeps
// its pace (ai.Options.Paced): it tells its host the time of a decision
// (Pace), which the host waits out, so that the sand timer binds it as it
// binds a person; elsewhere it keeps none.
func Kit() ai.Kit {
	levels := make([]ai.Maker, len(Levels))
	for i, l := range Levels {
		levels[i] = ai.OwnBot(l.Name, func(o ai.Options) ai.Bot { return NewLevel(l, o.Seed, o.Paced) })
	}
	return ai.Kit{Levels: levels, Search: ai.AnyBudget(Search)}
}

// Paced reports whether the planner keeps its level's pace (Pace), which
// a host asks so as to wait it out rather than delay its moves further.
func (b *Planner) Paced() bool { return b.paced }
