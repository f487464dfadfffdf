package bots

import "math/rand/v2"

// DefaultRollouts is how many playouts each of the planner's candidates
// gets in the first round of its successive halving.
const DefaultRollouts = 2

// NewPlanner returns the turn planner: the heuristic's sampled turns
// (NewHeuristic, samples of them) as candidates, each cut at its first
// chance event, chosen among by the search's playouts rather than by a
// static rating (Heuristic.planByRollouts), rollouts (DefaultRollouts if
// rollouts <= 0) each in the first round. Its unit is the turn up to the
// next draw, not the single decision: the search spends a decision's
// budget on each of a turn's dozen small decisions, the planner spends it
// on whole lines of them, judged on bags and futures drawn anew.
func NewPlanner(seed uint64, samples, rollouts int) *Heuristic {
	if rollouts <= 0 {
		rollouts = DefaultRollouts
	}
	b := NewHeuristic(seed, samples)
	b.rollouts, b.name, b.playout = rollouts, "planner", defaultPolicy
	b.rng = rand.New(rand.NewPCG(seed, 0x706c616e))
	return b
}
