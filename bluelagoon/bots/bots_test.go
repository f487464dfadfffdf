package bots

import (
	"context"
	"math"
	"math/rand/v2"
	"regexp"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// TestPositionKeepsItsExtras: however a position is played (checked moves
// through the contract, or the playout policy's own steps), its extras are
// what a recount from the board makes them.
func TestPositionKeepsItsExtras(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, players := range []int{2, 3, 4} {
		s := newPosition(t, players, uint64(players))
		for step := 0; !s.Over(); step++ {
			if step%2 == 0 {
				moves := game.Legal(s)
				if err := s.Play(moves[r.IntN(len(moves))]); err != nil {
					t.Fatal(err)
				}
			} else {
				s.playoutStep(r, nil)
			}
			want := *s
			want.recount()
			if s.islands != want.islands || s.reached != want.reached || s.ply != want.ply {
				t.Fatalf("%d players, step %d: the extras drifted from the board", players, step)
			}
		}
	}
}

func TestPositionCopiesWithoutAllocating(t *testing.T) {
	start := newPosition(t, 2, 1)
	var s game.State = start.Clone()
	r := rand.New(rand.NewPCG(1, 1))
	allocs := testing.AllocsPerRun(100, func() {
		s.CopyFrom(start)
		s.Resample(0, r)
		s.(*Position).Playout(r)
	})
	if allocs != 0 {
		t.Errorf("a copy, a resample and a playout allocate %v times, want 0", allocs)
	}
}

// TestSearchAllocatesNothingASimulation: a search's allocations do not grow
// with its simulations (the tree's nodes grow by doubling, so a few more for
// many more simulations), as docs/performance.md says.
func TestSearchAllocatesNothingASimulation(t *testing.T) {
	pos := newPosition(t, 2, 1)
	count := func(sims int) float64 {
		return testing.AllocsPerRun(3, func() {
			s := mcts.New(mcts.Config{Workers: 1, Seed: 1})
			if _, err := s.Search(context.Background(), pos, mcts.Budget{Simulations: sims}); err != nil {
				t.Fatal(err)
			}
		})
	}
	few, many := count(500), count(4000)
	t.Logf("%v allocations for 500 simulations, %v for 4000", few, many)
	if many-few > 100 {
		t.Errorf("%v allocations for 500 simulations, %v for 4000: the search allocates as it simulates", few, many)
	}
}

func TestOtherGamesAreRefused(t *testing.T) {
	st, err := gametest.Tiny.NewGame(game.Setup{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPosition(st); err == nil {
		t.Error("a position was made of a game of Tiny")
	}
	if _, err := NewHeuristic(1).Move(context.Background(), st); err == nil {
		t.Error("heuristic moved in a game of Tiny")
	}
}

// positionWith returns the search's position for st with the settings of a
// spec, as the bots make it.
func positionWith(t *testing.T, st game.State, settings map[string]float64) *Position {
	t.Helper()
	prepare, err := SearchWith(mcts.Budget{Simulations: 1000}, settings)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := prepare(st)
	if err != nil {
		t.Fatal(err)
	}
	return pos.(*Position)
}

// TestCutPlayoutsEndWithTheExploration: with cut, a playout from the
// exploration phase stops where that phase ends, and the rewards are the
// estimate: the exploration's totals and Village points a village kept,
// its margin squashed by the policy's scale. From the settlement phase a
// playout still plays to the end.
func TestCutPlayoutsEndWithTheExploration(t *testing.T) {
	start := newPosition(t, 2, 4)
	s := positionWith(t, &start.State, map[string]float64{"cut": 1, "margin": 1, "village": 10, "circle": 0, "scale": 80})
	r := rand.New(rand.NewPCG(4, 4))
	s.Playout(r)
	if s.Over() || s.Phase() != bluelagoon.Settlement {
		t.Fatalf("the playout ended in phase %v, game over %v; want the settlement phase's start", s.Phase(), s.Over())
	}
	if s.ply != settlementPly {
		t.Fatalf("the playout went %d moves into the settlement phase", s.ply-settlementPly)
	}
	totals := s.Totals()
	var est [2]float64
	for p := range 2 {
		kept := s.PieceSpaces(p).Len()
		est[p] = float64(totals[p] + 10*kept)
	}
	var got [2]float64
	s.Rewards(got[:])
	for p := range 2 {
		want := 0.5 + 0.5*math.Tanh((est[p]-est[1-p])/80)
		if math.Abs(got[p]-want) > 1e-9 {
			t.Errorf("seat %d: reward %v, want %v from the estimate %v", p, got[p], want, est)
		}
	}

	settle := positionWith(t, &s.State, map[string]float64{"cut": 1})
	settle.Playout(r)
	if !settle.Over() {
		t.Error("a playout from the settlement phase stopped before the game's end")
	}
}

// TestRootPriorIsGreedysRating: with root, the moves at the search's root
// are rated as greedy rates them (so greedy's move is the first tried), and
// the moves below it by the cheap prior.
func TestRootPriorIsGreedysRating(t *testing.T) {
	st := newPosition(t, 2, 5)
	r := rand.New(rand.NewPCG(5, 5))
	for range 21 {
		st.playoutStep(r, nil)
	}
	s := positionWith(t, &st.State, map[string]float64{"root": 1})
	g := &s.Game
	rated := rateMoves(g, ai.NewLockedRand(1, 1))
	islands := islandsOf(g, g.Current())
	for _, rm := range rated {
		cm := bluelagoon.ContractMove(g.Board(), rm.move)
		if got, want := s.Prior(cm), rm.key[0]; math.Abs(got-want) > 1e-9 {
			t.Fatalf("%v: prior %v at the root, greedy's rating %v", rm.move, got, want)
		}
		if got, want := st.Prior(cm), movePrior(g, islands, rm.move); got < want {
			t.Fatalf("%v: the cheap prior %v is less than the move's own %v", rm.move, got, want)
		}
	}
	below := s.Clone().(*Position)
	m := rated[0].move
	if err := below.Play(bluelagoon.ContractMove(g.Board(), m)); err != nil {
		t.Fatal(err)
	}
	cheap := positionWith(t, &below.State, map[string]float64{"root": 0})
	for _, em := range below.LegalMoves() {
		cm := bluelagoon.ContractMove(below.Board(), em)
		if below.Prior(cm) != cheap.Prior(cm) {
			t.Fatalf("%v below the root: prior %v, the cheap prior %v", em, below.Prior(cm), cheap.Prior(cm))
		}
	}

	// A kept tree reaches the next root by replaying moves from the old
	// one: that position is the new root, though searched from another.
	prepare, err := SearchWith(mcts.Budget{Simulations: 1000}, map[string]float64{"root": 1})
	if err != nil {
		t.Fatal(err)
	}
	old, err := prepare(&st.State)
	if err != nil {
		t.Fatal(err)
	}
	replayed := old.Clone()
	next := st.State.Clone()
	for _, cm := range []game.Move{bluelagoon.ContractMove(g.Board(), m), game.Legal(below)[0]} {
		if err := replayed.Play(cm); err != nil {
			t.Fatal(err)
		}
		if err := next.Play(cm); err != nil {
			t.Fatal(err)
		}
	}
	newRoot, err := prepare(next)
	if err != nil {
		t.Fatal(err)
	}
	if !newRoot.(*Position).Equal(replayed) {
		t.Error("the new root is not Equal to the same position replayed in the kept tree: the tree would not be kept")
	}
}

// TestEvaluateByStanding: the evaluation follows the standing (what the
// phases scored and the board would score now): the player ahead is rated
// above one half, by as much as the other is below it.
func TestEvaluateByStanding(t *testing.T) {
	s := newPosition(t, 2, 6)
	r := rand.New(rand.NewPCG(6, 6))
	ahead := 0
	for !s.Over() {
		s.playoutStep(r, nil)
		var e [2]float64
		s.Evaluate(e[:])
		m := margin(standing(&s.Game), 2, 0)
		if math.Abs(e[0]+e[1]-1) > 1e-9 || (m > 0) != (e[0] > 0.5) || (m == 0) != (e[0] == 0.5) {
			t.Fatalf("ply %d: evaluation %v with player 0's standing margin %d", s.ply, e, m)
		}
		if m != 0 {
			ahead++
		}
	}
	if ahead == 0 {
		t.Fatal("no position of the game had a player ahead")
	}
}

// settlementPosition returns the search's position with the settings of a
// spec at the settlement phase's start of a game of the playout policy, and
// the random stream that played it.
func settlementPosition(t *testing.T, seed uint64, settings map[string]float64) (*Position, *rand.Rand) {
	t.Helper()
	s := newPosition(t, 2, seed)
	r := rand.New(rand.NewPCG(seed, seed))
	for s.Phase() == bluelagoon.Exploration {
		s.playoutStep(r, nil)
	}
	return positionWith(t, &s.State, settings), r
}

// step plays one step of the playout policy and returns where it placed
// pieces.
func step(s *Position, r *rand.Rand) bluelagoon.Spaces {
	before := s.PieceSpaces(0).Or(s.PieceSpaces(1))
	s.playoutStep(r, nil)
	return s.PieceSpaces(0).Or(s.PieceSpaces(1)).AndNot(before)
}

// TestSettleLandPlaysLand: with settleland 1 and no token rule, every
// playout step of the settlement phase places its settler on land while
// there is land within reach, and the playout still ends the game.
func TestSettleLandPlaysLand(t *testing.T) {
	s, r := settlementPosition(t, 7, map[string]float64{"settleland": 1, "token": 0})
	landSteps := 0
	for !s.Over() {
		settlers, _ := s.LegalSpaces()
		land := settlers.And(s.nbr.land)
		placed := step(s, r)
		if placed.Len() != 1 {
			t.Fatalf("a playout step placed %d pieces", placed.Len())
		}
		if !land.Empty() {
			landSteps++
			if placed.And(s.nbr.land).Empty() {
				t.Fatalf("a step placed a settler at sea with %d land spaces in reach", land.Len())
			}
		}
	}
	if landSteps == 0 {
		t.Fatal("no step of the settlement phase had land in reach")
	}
}

// TestTieCountsTheTieBreak: a finished game tied on points is won by the
// player holding more tokens, and with tie the rewards say so: that
// player's margin counts tie points more, the other's as many less;
// without it the tie is a tie.
func TestTieCountsTheTieBreak(t *testing.T) {
	for seed := uint64(1); ; seed++ {
		s := newPosition(t, 2, seed)
		r := rand.New(rand.NewPCG(seed, 8))
		for !s.Over() {
			s.playoutStep(r, nil)
		}
		more := 0
		switch h0, h1 := s.TokensHeld(0), s.TokensHeld(1); {
		case h0 == h1:
			continue
		case h1 > h0:
			more = 1
		}
		tied, err := bluelagoon.ParseState(regexp.MustCompile(`p ([01]) [0-9]+ `).ReplaceAllString(s.Game.String(), "p $1 200 "))
		if err != nil {
			t.Fatal(err)
		}
		if !tied.Over() || !tied.Wins(more) || tied.Wins(1-more) {
			t.Fatalf("seed %d: the game tied on points is over %v, won by %v; want won by %d, who holds more tokens", seed, tied.Over(), tied.Winners(), more)
		}
		for _, tie := range []float64{0, 0.5} {
			var got [2]float64
			positionWith(t, bluelagoon.StateOf(tied), map[string]float64{"tie": tie}).Rewards(got[:])
			want := 0.5 + 0.5*math.Tanh(tie/40)
			if math.Abs(got[more]-want) > 1e-9 || math.Abs(got[1-more]-(1-want)) > 1e-9 {
				t.Errorf("tie %v: rewards %v, want %v for seat %d, who holds more tokens, and %v for the other", tie, got, want, more, 1-want)
			}
		}
		return
	}
}

// circlesNear counts, the slow way, the stone circles within two steps of
// player p's pieces.
func circlesNear(s *Position, p int) int {
	b := s.Board()
	n := 0
	pieces := s.PieceSpaces(p)
	for _, c := range b.StoneCircles() {
		near := pieces.Has(c)
		for _, m := range b.Neighbours(c) {
			near = near || pieces.Has(m)
			for _, k := range b.Neighbours(m) {
				near = near || pieces.Has(k)
			}
		}
		if near {
			n++
		}
	}
	return n
}

// TestCutEstimateCountsCirclesNearVillages: with circle, the cut's
// estimate adds circle points for each stone circle within two steps of a
// player's villages kept, besides village points a village.
func TestCutEstimateCountsCirclesNearVillages(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		start := newPosition(t, 2, seed)
		s := positionWith(t, &start.State, map[string]float64{"cut": 1, "margin": 1, "village": 1.5, "circle": 3, "scale": 40})
		s.Playout(rand.New(rand.NewPCG(seed, 9)))
		if s.Phase() != bluelagoon.Settlement || s.Over() {
			t.Fatalf("seed %d: the cut playout ended in phase %v, over %v", seed, s.Phase(), s.Over())
		}
		totals := s.Totals()
		var est [2]float64
		for p := range 2 {
			est[p] = float64(totals[p]) + math.Round(1.5*float64(s.PieceSpaces(p).Len())+3*float64(circlesNear(s, p)))
			if got, want := s.nearCircles(p), circlesNear(s, p); got != want {
				t.Fatalf("seed %d, seat %d: %d circles near, want %d", seed, p, got, want)
			}
		}
		var got [2]float64
		s.Rewards(got[:])
		for p := range 2 {
			if want := 0.5 + 0.5*math.Tanh((est[p]-est[1-p])/40); math.Abs(got[p]-want) > 1e-9 {
				t.Errorf("seed %d, seat %d: reward %v, want %v from the estimate %v", seed, p, got[p], want, est)
			}
		}
	}
}

// TestSettleCutStopsInWholeRounds: with settlecut, a playout from the
// settlement phase stops after at least that many plies, a whole number of
// rounds, and is rewarded by the standing.
func TestSettleCutStopsInWholeRounds(t *testing.T) {
	p, r := settlementPosition(t, 3, map[string]float64{"settlecut": 5, "margin": 1})
	from := p.ply
	p.Playout(r)
	if p.Over() || p.ply-from != 6 {
		t.Fatalf("the playout went %d plies (over %v), want 6", p.ply-from, p.Over())
	}
	st := standing(&p.Game)
	var got [2]float64
	p.Rewards(got[:])
	if want := 0.5 + 0.5*math.Tanh(float64(st[0]-st[1])/40); math.Abs(got[0]-want) > 1e-9 {
		t.Errorf("reward %v, want %v from the standing %v", got[0], want, st)
	}
}

// TestSettleMajorityTakesAMajority: with settlemaj 1 and no token rule, a
// settlement phase's playout step places its settler on an island where
// that gains in majorities, whenever one is in reach.
func TestSettleMajorityTakesAMajority(t *testing.T) {
	if got := shares([]int{2, 2}, 9); got[0] != 4 || got[1] != 4 {
		t.Errorf("9 shared by two: %v", got)
	}
	if got := shares([]int{3, 1, 0}, 8); got[0] != 8 || got[1] != 0 {
		t.Errorf("3 to 1 for 8: %v", got)
	}
	s, r := settlementPosition(t, 8, map[string]float64{"settlemaj": 1, "token": 0})
	gains := 0
	for !s.Over() {
		settlers, _ := s.LegalSpaces()
		i := s.majorityIsland(s.Current(), settlers.And(s.nbr.land))
		placed := step(s, r)
		if i >= 0 {
			gains++
			if placed.And(s.nbr.island[i]).Empty() {
				t.Fatalf("a step placed its settler off island %d, where it gains a majority", i)
			}
		}
	}
	if gains == 0 {
		t.Fatal("no step of the settlement phase could gain a majority")
	}
}

// TestPolicyByBudget: a search of at most SmallBudget simulations a move
// plays by SmallPolicy, a larger one by LargePolicy, a time budget counted
// at simulationsPerSecond; and the position SearchFor makes, and a spec's
// settings, start from the budget's policy.
func TestPolicyByBudget(t *testing.T) {
	perMilli := time.Duration(float64(time.Second) / simulationsPerSecond * 1000)
	for _, c := range []struct {
		b    mcts.Budget
		want *Policy
	}{
		{mcts.Budget{Simulations: 1}, &SmallPolicy},
		{mcts.Budget{Simulations: 1000}, &SmallPolicy},
		{mcts.Budget{Simulations: SmallBudget}, &SmallPolicy},
		{mcts.Budget{Simulations: SmallBudget + 1}, &LargePolicy},
		{mcts.Budget{Simulations: 20000}, &LargePolicy},
		{mcts.Budget{Time: SmallBudget / 1000 * perMilli}, &SmallPolicy},
		{mcts.Budget{Time: (SmallBudget/1000 + 1) * perMilli}, &LargePolicy},
		{mcts.Budget{Time: time.Second}, &LargePolicy},
		{mcts.Budget{Time: time.Second, Simulations: 1000}, &SmallPolicy},
		{mcts.Budget{Time: 10 * time.Millisecond, Simulations: 20000}, &SmallPolicy},
		{mcts.Budget{}, &LargePolicy},
	} {
		if got := PolicyFor(c.b); got != c.want {
			t.Errorf("PolicyFor(%+v) = %+v, want %+v", c.b, *got, *c.want)
		}
	}
	if SmallPolicy.Cut == 0 || LargePolicy.Cut != 0 || SmallPolicy.Margin == LargePolicy.Margin {
		t.Fatalf("the policies no longer differ as measured: small %+v, large %+v", SmallPolicy, LargePolicy)
	}

	st := newPosition(t, 2, 1)
	for _, b := range []mcts.Budget{{Simulations: 1000}, {Time: time.Second}} {
		pos, err := SearchFor(b)(&st.State)
		if err != nil {
			t.Fatal(err)
		}
		if p := pos.(*Position); p.pol != PolicyFor(b) || p.cut != (p.pol.Cut != 0) {
			t.Errorf("%+v: the position plays by %+v, cut %v; want %+v", b, *p.pol, p.cut, *PolicyFor(b))
		}
		prepare, err := SearchWith(b, map[string]float64{"token": 0.5})
		if err != nil {
			t.Fatal(err)
		}
		pos, err = prepare(&st.State)
		if err != nil {
			t.Fatal(err)
		}
		want := *PolicyFor(b)
		want.Token = 0.5
		if got := *pos.(*Position).pol; got != want {
			t.Errorf("%+v with token=0.5: %+v, want %+v", b, got, want)
		}
	}
}

// TestTracedPlayout: the traced playout plays the game Playout plays from
// the same draws, and tells the moves of the phase it began in, each with
// its mover, and none of the next phase's.
func TestTracedPlayout(t *testing.T) {
	for _, pol := range []*Policy{&LargePolicy, &SmallPolicy} {
		start := newPosition(t, 3, 4)
		start.use(pol)
		plain, traced := start.Clone().(*Position), start.Clone().(*Position)
		plain.Playout(rand.New(rand.NewPCG(4, 4)))
		replay := start.Clone().(*Position)
		told := 0
		traced.TracedPlayout(rand.New(rand.NewPCG(4, 4)), func(seat int, m game.Move) {
			told++
			if replay.Phase() != bluelagoon.Exploration || replay.Current() != seat {
				t.Fatalf("move %d told for seat %d in phase %v, seat %d to move", told, seat, replay.Phase(), replay.Current())
			}
			if err := replay.Play(m); err != nil {
				t.Fatalf("move %d told: %v", told, err)
			}
		})
		if *plain != *traced {
			t.Error("the traced playout played another game than Playout")
		}
		if replay.Phase() != bluelagoon.Settlement {
			t.Errorf("the told moves do not reach the settlement phase: %d told", told)
		}
		if pol.Cut == 0 && !traced.Over() {
			t.Error("the traced playout with whole playouts did not end the game")
		}
	}
}
