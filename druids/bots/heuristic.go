package bots

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// Heuristic plans its turn and then plays it decision by decision. To plan,
// it plays the rest of the turn many times on copies whose bag order is
// drawn anew (so it never reads the real draws), each time by choices led
// by the prior, and judges where each turn leaves it by destiny: which
// energy is likely to dominate, what each seat would score under it (the
// engine's Evaluate) and its margin under the destiny of now. The best
// turn's decisions are its plan, each kept with what the seat should see
// when it comes to that decision; while the game is as expected it plays
// the plan, and it plans again when it is not (a draw that came out
// otherwise, another seat's choice mid-turn).
type Heuristic struct {
	samples int
	mu      sync.Mutex
	rng     *rand.Rand
	plan    []step
}

type step struct {
	key  string // the seat's view before the decision
	move game.Move
}

// DefaultSamples is how many turns the heuristic plays out to plan one.
const DefaultSamples = 200

// NewHeuristic returns a heuristic bot that plans from samples played out
// turns (DefaultSamples if samples <= 0). A bot keeps its plan between
// calls: give each seat its own.
func NewHeuristic(seed uint64, samples int) *Heuristic {
	if samples <= 0 {
		samples = DefaultSamples
	}
	return &Heuristic{samples: samples, rng: rand.New(rand.NewPCG(seed, 0x68657572))}
}

// Name returns "heuristic".
func (*Heuristic) Name() string { return "heuristic" }

// Move returns the plan's next decision, planning anew when the state is
// not the one the plan expected; st is not changed. It ends its games as
// the search does (CloseGames): in a stalled game it explores when it is
// offered, and it never passes a free refresh that would leave its turn
// with nothing to do.
func (b *Heuristic) Move(ctx context.Context, st game.State) (game.Move, error) {
	s, err := toDecide(ctx, st)
	if err != nil {
		return 0, err
	}
	text := s.String()
	c := closingOf(s, text, s.AppendLegal(nil))
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.ok {
		b.plan = nil
		return c.move, nil
	}
	if len(b.plan) == 0 || b.plan[0].key != keyOf(text) || c.idle && b.plan[0].move == c.pass {
		b.plan = b.planTurn(s, c)
	}
	m := b.plan[0].move
	b.plan = b.plan[1:]
	return m, nil
}

// planTurn returns the best of the sampled turns from s: the decisions of
// the seat to move, with their views, up to the first decision of another
// seat or the turn's end. None of them begins with the pass c forbids.
func (b *Heuristic) planTurn(s *druids.State, c closing) []step {
	seat := s.ToMove()
	var buf [256]game.Move
	legal := withoutPass(s.AppendLegal(buf[:0]), c)
	if len(legal) == 1 {
		return []step{{move: legal[0]}}
	}
	var t druids.State
	var moves, best []game.Move
	var bestSeed [2]uint64
	bestValue := math.Inf(-1)

	for i := range b.samples {
		seed := [2]uint64{b.rng.Uint64(), b.rng.Uint64()}
		t = *s
		t.Resample(seat, rand.New(rand.NewPCG(seed[0], seed[1])))
		r := rand.New(rand.NewPCG(seed[1], seed[0]))
		moves = moves[:0]
		turn := t.Turn()
		for t.Turn() == turn && !t.Over() {
			l := t.AppendLegal(buf[:0])
			if len(moves) == 0 {
				l = withoutPass(l, c)
			}
			var m game.Move
			// The greedy sample gives way to the prior's draws after a
			// while: some sites' actions can be repeated in a cycle.
			if i == 0 && len(moves) < greedySteps {
				m = greedy(&t, l, r)
			} else {
				m = pick(&t, l, r)
			}
			m = druids.CapTurn(len(moves)+1, l, m)
			moves = append(moves, m)
			t.PlayLegal(m)
		}
		if v := value(&t, seat); v > bestValue {
			bestValue, bestSeed = v, seed
			best = append(best[:0], moves...)
		}
	}
	// Replay the best turn to record what the seat should see before each
	// of its decisions; the plan stops at another seat's decision.
	t = *s
	t.Resample(seat, rand.New(rand.NewPCG(bestSeed[0], bestSeed[1])))
	plan := make([]step, 0, len(best))
	for _, m := range best {
		if t.ToMove() != seat {
			break
		}
		plan = append(plan, step{key: viewKey(&t), move: m})
		t.PlayLegal(m)
	}
	return plan
}

// withoutPass returns legal without the pass c forbids.
func withoutPass(legal []game.Move, c closing) []game.Move {
	if !c.idle {
		return legal
	}
	return slices.DeleteFunc(legal, func(m game.Move) bool { return m == c.pass })
}

// greedySteps is how many decisions the first sample of a plan makes
// greedily.
const greedySteps = 40

// greedy returns one of the moves of the highest prior.
func greedy(s *druids.State, legal []game.Move, r *rand.Rand) game.Move {
	return druids.Best(legal, r, s.Prior)
}
