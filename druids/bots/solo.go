package bots

import (
	"context"
	"fmt"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// soloLevel is a level that plays the solo game against AJ by the planner
// and every other game by the search. Against AJ the planner, judging
// whole lines of a turn by playouts, won more than the search for the same
// CPU (docs/druids.md, Bots, "The planner"); against other seats the
// search is measured and the planner is not.
type soloLevel struct {
	planner *Heuristic
	search  ai.Bot
}

// soloPlanner is the level name: the search of spec (a turn's budget, as
// "mcts:2500ms/turn") in games of seats, the planner with samples and
// rollouts (its first round's playouts) in the solo game, its plans within
// turn, each with half of what the turn has left, which its rounds share
// equally (Heuristic.planTime, firstRoundTopUp, roundPlayouts). Its playouts play
// the seat's turns towards unravels (unravelPlan), which against AJ judged
// far better than the prior's draws (docs/druids.md, "The planner").
func soloPlanner(name, spec string, turn time.Duration, samples, rollouts int) ai.Maker {
	return ai.OwnBot(name, func(o ai.Options) ai.Bot {
		search, err := ai.NewWith(&ai.Game{Rules: druids.Rules, Kit: Kit()}, spec, o)
		if err != nil {
			panic(fmt.Sprintf("druids/bots: level %s's search %q: %v", name, spec, err)) // a spec of this file
		}
		p := NewPlanner(o.Seed, samples, rollouts)
		p.turnTime = turn
		p.playout.unravels = true
		return &soloLevel{planner: p, search: search}
	})
}

// Name returns the search's name; the kit names the level.
func (b *soloLevel) Name() string { return b.search.Name() }

// Move returns the planner's move in a game against AJ, else the search's.
func (b *soloLevel) Move(ctx context.Context, st game.State) (game.Move, error) {
	s, err := stateOf(st)
	if err != nil {
		return 0, err
	}
	if s.AJ() != 0 {
		return b.planner.Move(ctx, st)
	}
	return b.search.Move(ctx, st)
}
