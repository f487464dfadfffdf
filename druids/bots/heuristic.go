package bots

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

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
// otherwise, another seat's choice mid-turn). The planner (NewPlanner) is
// the same bot choosing among its sampled turns by playouts instead
// (planByRollouts).
type Heuristic struct {
	samples int
	// rollouts, if above 0, has the plan chosen by playouts
	// (planByRollouts): rollouts each in the first round of its
	// successive halving.
	rollouts int
	// turnTime, if above 0, is the time of a turn's plans: each plan is
	// given half of what the turn has left (planTime); its successive
	// halving gives each round an equal share of that, the first after
	// its fixed playouts (firstRoundTopUp), the later ones as many
	// playouts as fit in theirs (roundPlayouts); no round begins past it,
	// and the best of the last round is kept.
	turnTime time.Duration
	// turn is the turn last planned in, spent the time its plans took.
	turn  int
	spent time.Duration
	// playout is the policy of the plan's playouts.
	playout policy
	name    string
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
	return &Heuristic{samples: samples, name: "heuristic", rng: rand.New(rand.NewPCG(seed, 0x68657572))}
}

// Name returns "heuristic", or "planner".
func (b *Heuristic) Name() string { return b.name }

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
	c := closingOf(s, s.AppendLegal(nil))
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.ok {
		b.plan = nil
		return c.move, nil
	}
	if len(b.plan) == 0 || b.plan[0].key != keyOf(text) || c.idle && b.plan[0].move == c.pass {
		start, limit := time.Now(), b.planTime(s.Turn())
		b.plan = b.planTurn(s, c, limit)
		b.spent += time.Since(start)
	}
	m := b.plan[0].move
	b.plan = b.plan[1:]
	return m, nil
}

// planTime returns the time of a plan in turn: half of what the turn has
// left of turnTime, 0 (no bound) without one. A turn asks two to four
// plans (one, and one after each tile drawn): the first, which shapes the
// turn, gets the most, and together they keep within turnTime but for
// the overrun of a plan's first round, whose playouts are fixed, and of
// its last.
func (b *Heuristic) planTime(turn int) time.Duration {
	if b.turnTime <= 0 {
		return 0
	}
	if turn != b.turn {
		b.turn, b.spent = turn, 0
	}
	return max((b.turnTime-b.spent)/2, time.Nanosecond)
}

// planTurn returns the best of the sampled turns from s: the decisions of
// the seat to move, with their views, up to the first decision of another
// seat or the turn's end. None of them begins with the pass c forbids. A
// plan by playouts takes about planTime if it is above 0.
func (b *Heuristic) planTurn(s *druids.State, c closing, planTime time.Duration) []step {
	seat := s.ToMove()
	var buf [256]game.Move
	legal := withoutPass(s.AppendLegal(buf[:0]), c)
	if len(legal) == 1 {
		return []step{{move: legal[0]}}
	}
	if b.rollouts > 0 {
		plan, _ := b.planByRollouts(s, c, planTime)
		return plan
	}
	var t druids.State
	var moves, best []game.Move
	var bestSeed [2]uint64
	bestValue := math.Inf(-1)
	for i := range b.samples {
		seed := [2]uint64{b.rng.Uint64(), b.rng.Uint64()}
		moves = sampleTurn(s, &t, c, i == 0, seed, moves[:0])
		if v := value(&t, seat); v > bestValue {
			bestValue, bestSeed = v, seed
			best = append(best[:0], moves...)
		}
	}
	return planOf(s, bestSeed, best)
}

// sampleTurn plays the rest of the seat's turn from s on t, a copy whose
// bag is drawn anew from seed, greedily by the prior if greedyFirst, else
// by the prior's draws, and appends its decisions to moves. t is left where
// the turn ended, after the other seats' replies.
func sampleTurn(s, t *druids.State, c closing, greedyFirst bool, seed [2]uint64, moves []game.Move) []game.Move {
	var buf [256]game.Move
	*t = *s
	t.Resample(s.ToMove(), rand.New(rand.NewPCG(seed[0], seed[1])))
	r := rand.New(rand.NewPCG(seed[1], seed[0]))
	first := len(moves)
	turn := t.Turn()
	for t.Turn() == turn && !t.Over() {
		l := t.AppendLegal(buf[:0])
		if len(moves) == first {
			l = withoutPass(l, c)
		}
		var m game.Move
		// The greedy sample gives way to the prior's draws after a
		// while: some sites' actions can be repeated in a cycle.
		if greedyFirst && len(moves)-first < greedySteps {
			m = greedy(t, l, r)
		} else {
			m = pick(t, l, r)
		}
		m = druids.CapTurn(len(moves)-first+1, l, m)
		moves = append(moves, m)
		t.PlayLegal(m)
	}
	return moves
}

// planOf replays the turn moves, sampled with the bag drawn from seed, to
// record what the seat should see before each of its decisions; the plan
// stops at another seat's decision.
func planOf(s *druids.State, seed [2]uint64, moves []game.Move) []step {
	seat := s.ToMove()
	t := *s
	t.Resample(seat, rand.New(rand.NewPCG(seed[0], seed[1])))
	plan := make([]step, 0, len(moves))
	for _, m := range moves {
		if t.ToMove() != seat {
			break
		}
		plan = append(plan, step{key: viewKey(&t), move: m})
		t.PlayLegal(m)
	}
	return plan
}

// planByRollouts chooses the seat's decisions up to the next chance event
// (a tile drawn, the turn's end and the other seats' replies) by playouts:
// the turns sampled as planTurn samples them, each cut after its first
// chance event, are the candidates, and successive halving gives those
// still in the running more playouts each round. A playout plays the
// candidate on a copy whose bag and future are drawn anew (each a
// determinization: the moves before a chance event are legal in every
// one), the rest of the turn by the prior's draws and then the game to its
// end as the search's playout does (Position), and is rewarded as the
// search is. The plan ends at the chance event; the next call plans again
// from what came out. It also returns what the plan cost (planCost).
func (b *Heuristic) planByRollouts(s *druids.State, c closing, planTime time.Duration) ([]step, planCost) {
	seat, start := s.ToMove(), time.Now()
	type cand struct {
		moves []game.Move
		sum   float64
		n     int
	}
	var cands []cand
	seen := map[string]bool{}
	var t druids.State
	for i := range b.samples {
		moves := sampleTurn(s, &t, c, i == 0, [2]uint64{b.rng.Uint64(), b.rng.Uint64()}, nil)
		var key string
		moves, key = lineOf(s, moves)
		if !seen[key] {
			seen[key] = true
			cands = append(cands, cand{moves: moves})
		}
	}
	live := cands
	cost := planCost{candidates: len(cands)}
	rewards := make([]float64, s.Players())
	var p Position
	var buf [256]game.Move
	var seeds [][2]uint64
	// One generator, reseeded for each playout: a playout's own would be
	// two allocations, which cost more than the rest of its garbage.
	var pcg rand.PCG
	r := rand.New(&pcg)
	round := func(per int) {
		// Each round's playouts draw their bags and futures from the same
		// seeds for every candidate: the candidates are compared on the
		// same determinizations, which takes most of the luck out of the
		// comparison.
		seeds = seeds[:0]
		for range per {
			seeds = append(seeds, [2]uint64{b.rng.Uint64(), b.rng.Uint64()})
		}
		for i := range live {
			for _, seed := range seeds {
				p = Position{State: *s, policy: b.playout, root: s.Turn()}
				pcg.Seed(seed[0], seed[1])
				p.Resample(seat, r)
				turn := p.Turn()
				for _, m := range live[i].moves {
					p.PlayLegal(m)
				}
				for n := len(live[i].moves) + 1; p.Turn() == turn && !p.Over(); n++ {
					l := p.AppendLegal(buf[:0])
					p.PlayLegal(druids.CapTurn(n, l, p.choose(l, r, nil)))
				}
				if !p.Over() {
					p.Playout(r)
				}
				p.Rewards(rewards)
				live[i].sum += rewards[seat]
				live[i].n++
				cost.playouts++
			}
		}
	}
	for per, first := b.rollouts, true; len(live) > 1 && (planTime <= 0 || time.Since(start) < planTime); first = false {
		round(per)
		if first {
			if more := firstRoundTopUp(planTime, time.Since(start), cost.playouts, len(live)); more > 0 {
				round(more)
			}
		}
		slices.SortStableFunc(live, func(x, y cand) int {
			return cmp.Compare(y.sum/float64(y.n), x.sum/float64(x.n))
		})
		live = live[:(len(live)+1)/2]
		per = roundPlayouts(per, planTime, time.Since(start), cost.playouts, len(live))
	}
	return planOf(s, [2]uint64{}, live[0].moves), cost
}

// roundPlayouts returns how many playouts each of live candidates gets in
// the next round of a plan's successive halving, after per each in the
// last: twice per, or, with a time bound planTime, more if the playouts
// made so far in elapsed say that the time left, shared equally among the
// rounds left (one for each halving down to one candidate), allows more.
// A plan so spends its time whatever the machine's speed and load, where a
// fixed number of playouts would leave most of it unused on a quiet core
// and overrun it on a busy one; and it spends it in the later rounds, on
// the few candidates still in the running.
func roundPlayouts(per int, planTime, elapsed time.Duration, playouts, live int) int {
	next := 2 * per
	rounds := bits.Len(uint(live - 1))
	if planTime <= 0 || elapsed <= 0 || playouts == 0 || rounds == 0 || elapsed >= planTime {
		return next
	}
	rate := float64(playouts) / elapsed.Seconds()
	fit := int((planTime - elapsed).Seconds() / float64(rounds) * rate / float64(live))
	return max(next, fit)
}

// firstRoundTopUp returns how many more playouts each of live candidates
// gets in a plan's first round, after the first round's fixed playouts
// took elapsed for playouts in all: the first round's share of planTime
// (planTime over the rounds of halving down to one candidate), less what
// it took, at the rate so measured. Without it the first round's fixed
// playouts (8 a candidate for hard, some 1% of its plan's time) halve the
// candidates on rewards noisier than most of their differences, and the
// later rounds spend the time on the half so kept.
func firstRoundTopUp(planTime, elapsed time.Duration, playouts, live int) int {
	rounds := bits.Len(uint(live - 1))
	if planTime <= 0 || elapsed <= 0 || playouts == 0 || rounds == 0 {
		return 0
	}
	share := planTime / time.Duration(rounds)
	if elapsed >= share {
		return 0
	}
	rate := float64(playouts) / elapsed.Seconds()
	return int((share - elapsed).Seconds() * rate / float64(live))
}

// planCost is what a plan by playouts cost: its distinct candidates and
// the playouts among them.
type planCost struct{ candidates, playouts int }

// untilChance returns how many of moves, a turn of the seat to move in s,
// lead up to its first chance event: the first move that draws a tile
// (the bag changes) or ends the turn (the other seats reply), included.
func untilChance(s *druids.State, moves []game.Move) int {
	n, _ := chanceAt(s, moves)
	return n
}

// lineOf returns moves, a turn of the seat to move in s, cut after its
// first chance event (untilChance), and the line's key: the seat's view
// before the chance event's move, and that move. Lines of the same key
// are one candidate: they meet the chance event in the same position the
// same way (in another order of the same decisions, or by decisions that
// come to the same), and a playout, which draws the bag anew, cannot tell
// them apart. Of the 200 sampled turns of a plan, 51 differ in their
// decisions (BenchmarkPlan, solo turns against AJ Legend); fewer differ
// in where they lead.
func lineOf(s *druids.State, moves []game.Move) ([]game.Move, string) {
	n, before := chanceAt(s, moves)
	return moves[:n], fmt.Sprintf("%s|%d", viewKey(&before), moves[n-1])
}

// chanceAt returns untilChance of moves and the state before the move
// that makes the chance event (before the last of moves if none does).
func chanceAt(s *druids.State, moves []game.Move) (int, druids.State) {
	t := *s
	before := t
	turn, bag := t.Turn(), t.Bag()
	for i, m := range moves {
		before = t
		t.PlayLegal(m)
		if t.Turn() != turn || t.Bag() != bag || t.Over() {
			return i + 1, before
		}
	}
	return len(moves), before
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
