package bots

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// The planner's plans are the seat's own legal decisions, and they unravel
// where an unravel is there to take: Kindred Stone (21B, Elemeen) is a leaf
// the seat's Eldrid stands on and three Deonin seeds pay for it; with it
// gone the three energies tie and the seat's five Vowelon seeds make
// Vowelon dominate, which leaves the other seat's Elemeen seeds and its
// unravelled 2A (Vowelon) worth nothing, with one tile left in the bag. At
// the Action step the plan unravels at once; at the Refresh step, the
// Eldrid exhausted, it refreshes it first.
func TestPlannerUnravels(t *testing.T) {
	const world = "set 1-2,14-15,19,21; bag 19; world 1A@11,16 14A@12,16 15A@13,16 21B@10,16; hand -; score1 -; score2 2A; seeds1 0 5 3; seeds2 4 0 0; markers + +"
	for _, c := range []struct {
		name, state string
		want        []string
	}{
		{"action", "druids 2; first 0; active 0; step action; turns 0; ply 0; " + world + "; druids1 E@21B; druids2 E@1A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a00000000000000070000000000000007",
			[]string{"unravel", "1E@21B"}},
		{"refresh", "druids 2; first 0; active 0; step refresh; turns 2; ply 9; " + world + "; druids1 e@21B; druids2 E@1A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a00000000000000070000000000000007",
			[]string{"1e@21B", "unravel", "1E@21B"}},
	} {
		s, err := druids.ParseState(c.state)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(3) {
			plan := NewPlanner(seed, 16, 32).planTurn(s, closing{}, 0)
			got := legalPlan(t, s, plan)
			if !slices.Contains(got, "unravel") || !isSubsequence(c.want, got) {
				t.Errorf("%s, seed %d: the plan %v does not unravel as %v", c.name, seed, got, c.want)
			}
		}
	}
}

// legalPlan plays plan on a copy of s, each decision checked and its view
// the one the plan expects, and returns the plan's decisions as text.
func legalPlan(t *testing.T, s *druids.State, plan []step) []string {
	t.Helper()
	c := *s
	var text []string
	for i, st := range plan {
		if st.key != "" && st.key != viewKey(&c) {
			t.Fatalf("decision %d of the plan expects another view", i)
		}
		text = append(text, c.MoveText(st.move))
		if err := c.Play(st.move); err != nil {
			t.Fatalf("decision %d of the plan %v: %v", i, text, err)
		}
	}
	return text
}

// isSubsequence reports whether want appears in got in order.
func isSubsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

// Every plan the planner makes in whole games, two players against random
// play and solo against AJ, is legal, its views the ones it meets, and it
// ends at the seat's next chance event: a tile drawn or the turn's end.
func TestPlannerPlansAreLegal(t *testing.T) {
	for _, setup := range []game.Setup{
		{Players: 2, Seed: 3},
		{Players: 2, Seed: 4, Options: map[string]string{"aj": "legend"}},
	} {
		st, err := druids.Rules.NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*druids.State)
		b := NewPlanner(7, 16, 1)
		other := ai.NewRandom(8)
		plans := 0
		for n := 0; !s.Over(); n++ {
			if n > 5000 {
				t.Fatalf("%v: the game does not end", setup)
			}
			var m game.Move
			if s.ToMove() == 0 {
				plan := b.planTurn(s, closingOf(s, s.AppendLegal(nil)), 0)
				legalPlan(t, s, plan)
				if k := untilChance(s, movesOf(plan)); k != len(plan) {
					t.Fatalf("%v: the plan goes on past a chance event after %d of its %d decisions", setup, k, len(plan))
				}
				plans++
				m = plan[0].move
			} else {
				if m, err = other.Move(context.Background(), s); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if plans < 10 {
			t.Errorf("%v: %d plans", setup, plans)
		}
	}
}

func movesOf(plan []step) []game.Move {
	var m []game.Move
	for _, s := range plan {
		m = append(m, s.move)
	}
	return m
}

// fixedBot answers every position with one move, so that a test can tell
// whose move a level played.
type fixedBot struct{ m game.Move }

func (fixedBot) Name() string { return "fixed" }
func (b fixedBot) Move(context.Context, game.State) (game.Move, error) {
	return b.m, nil
}

// The levels that plan play the solo game against AJ by the planner and
// other games by their search.
func TestSoloLevelPlansAgainstAJ(t *testing.T) {
	const searched = game.Move(1 << 20) // no move of the game: only the search answers it
	for _, c := range []struct {
		name    string
		options map[string]string
		planned bool
	}{
		{"two players", nil, false},
		{"solo against AJ", map[string]string{"aj": "acolyte"}, true},
	} {
		st := newGame(t, 2, 6, c.options)
		level := &soloLevel{planner: NewPlanner(2, 16, 1), search: fixedBot{searched}}
		m, err := level.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		want, err := NewPlanner(2, 16, 1).Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if !c.planned {
			want = searched
		}
		if m != want {
			t.Errorf("%s: the level played %d, want %d", c.name, m, want)
		}
	}
	for _, level := range []string{"hard", "max"} {
		bot, err := ai.NewWith(kitGame, level, ai.Options{Seed: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		st := newGame(t, 2, 6, map[string]string{"aj": "legend"})
		m, err := bot.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Play(m); err != nil {
			t.Errorf("%s in the solo game: %v", level, err)
		}
	}
}

// TestStrengthPlannerAJ plays the planner, or a level, against AJ in the
// solo game (vsAJ) at each of DRUIDS_AJ's levels (comma-separated; all by
// default): the planner with DRUIDS_ROLLOUTS playouts each in the first
// round (8 by default), DRUIDS_SAMPLES sampled turns (DefaultSamples by
// default), no time bound unless DRUIDS_TURN gives a turn's (as
// "2500ms", with the defaults hard as it plays the solo game, so that a
// run can vary one of hard's settings), and playouts towards unravels as
// hard and max play them (DRUIDS_PLAYOUT=prior: the prior's, as
// medium's), or, if DRUIDS_LEVEL names one, that level of the kit at its
// own per-turn budget.
func TestStrengthPlannerAJ(t *testing.T) {
	games := strengthGames(t)
	levels := druids.AJLevels[1:]
	if l := os.Getenv("DRUIDS_AJ"); l != "" {
		levels = strings.Split(l, ",")
	}
	rollouts, _ := strconv.Atoi(os.Getenv("DRUIDS_ROLLOUTS"))
	if rollouts <= 0 {
		rollouts = 8
	}
	samples, _ := strconv.Atoi(os.Getenv("DRUIDS_SAMPLES"))
	var turn time.Duration
	if d := os.Getenv("DRUIDS_TURN"); d != "" {
		var err error
		if turn, err = time.ParseDuration(d); err != nil {
			t.Fatalf("DRUIDS_TURN: %v", err)
		}
	}
	unravels := os.Getenv("DRUIDS_PLAYOUT") != "prior"
	a := func(seed uint64) bot {
		p := NewPlanner(seed, samples, rollouts)
		p.playout.unravels, p.turnTime = unravels, turn
		return p
	}
	if name := os.Getenv("DRUIDS_LEVEL"); name != "" {
		a = func(seed uint64) bot {
			b, err := ai.NewWith(kitGame, name, ai.Options{Seed: seed, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	for _, level := range levels {
		vsAJ(t, games, level, a)
	}
}

// Lines of one key are one candidate: played on the same draws they come
// to the same position, so merging them loses no plan; and the key merges
// some lines whose decisions differ, which a key of the decisions did not.
func TestLineKeyMergesOnlyLinesThatMeet(t *testing.T) {
	merged := 0
	for _, c := range []struct {
		players int
		seed    uint64
		options map[string]string
	}{
		{2, 3, nil},
		{2, 4, map[string]string{"aj": "legend"}},
		{2, 5, map[string]string{"aj": "acolyte"}},
	} {
		st := newGame(t, c.players, c.seed, c.options)
		s := st.(*druids.State)
		r := rand.New(rand.NewPCG(c.seed, 1))
		other := ai.NewRandom(c.seed)
		for n := 0; !s.Over() && n < 400; n++ {
			if s.ToMove() == 0 {
				cl := closingOf(s, s.AppendLegal(nil))
				outcome := map[string]string{} // a key's position after its line, on draws of one seed
				lines := map[string]string{}   // a key's first line's decisions
				var tmp druids.State
				for i := range 60 {
					moves, key := lineOf(s, sampleTurn(s, &tmp, cl, i == 0, [2]uint64{r.Uint64(), r.Uint64()}, nil))
					u := *s
					u.Resample(0, rand.New(rand.NewPCG(9, 9)))
					for _, m := range moves {
						u.PlayLegal(m)
					}
					if o, ok := outcome[key]; ok && o != u.String() {
						t.Fatalf("%v, decision %d: lines %s and %v of one key end apart:\n%s\n%s", c, n, lines[key], moves, o, u.String())
					} else if ok && lines[key] != fmt.Sprint(moves) {
						merged++
					}
					outcome[key], lines[key] = u.String(), fmt.Sprint(moves)
				}
			}
			m, err := other.Move(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if merged == 0 {
		t.Error("no two lines of different decisions were merged")
	}
}

// A plan's later rounds get what fits in its time, never fewer than twice
// the last round's playouts.
func TestRoundPlayouts(t *testing.T) {
	for _, c := range []struct {
		name              string
		per               int
		planTime, elapsed time.Duration
		playouts, live    int
		want              int
	}{
		{"no time bound", 8, 0, time.Second, 1000, 10, 16},
		{"time left for more", 8, 2 * time.Second, time.Second, 1000, 10, 25}, // 1 s left, 4 rounds, 1000 a second, 10 candidates
		{"time left for fewer", 8, 2 * time.Second, time.Second, 100, 10, 16},
		{"time spent", 8, time.Second, 2 * time.Second, 1000, 10, 16},
		{"one candidate left", 8, 2 * time.Second, time.Second, 1000, 1, 16},
		{"two left: one round", 8, 2 * time.Second, time.Second, 1000, 2, 500},
	} {
		if got := roundPlayouts(c.per, c.planTime, c.elapsed, c.playouts, c.live); got != c.want {
			t.Errorf("%s: %d playouts a candidate, want %d", c.name, got, c.want)
		}
	}
}

// A plan's first round is topped up to its share of the plan's time: the
// rounds share it equally, as the later rounds' playouts do.
func TestFirstRoundTopUp(t *testing.T) {
	for _, c := range []struct {
		name              string
		planTime, elapsed time.Duration
		playouts, live    int
		want              int
	}{
		{"no time bound", 0, 10 * time.Millisecond, 320, 40, 0},
		{"a pilot of 1%", 1200 * time.Millisecond, 12 * time.Millisecond, 320, 40, 125}, // 6 rounds: 200 ms each, 188 ms left at 26,667 a second
		{"the share spent", 1200 * time.Millisecond, 200 * time.Millisecond, 320, 40, 0},
		{"one candidate", time.Second, time.Millisecond, 10, 1, 0},
		{"two candidates: one round", time.Second, 10 * time.Millisecond, 20, 2, 990},
	} {
		if got := firstRoundTopUp(c.planTime, c.elapsed, c.playouts, c.live); got != c.want {
			t.Errorf("%s: %d more playouts a candidate, want %d", c.name, got, c.want)
		}
	}
}

// A playout allocates nothing, towards unravels or by the prior, in the
// solo game and between two seats: the engine's choice buffers stay on
// the stack (docs/druids.md, "The planner's speed", "Buffers on the
// stack"), where garbage at each decision cost a plan a tenth of its
// playouts.
func TestPlayoutsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	for _, c := range []struct {
		name     string
		options  map[string]string
		unravels bool
	}{
		{"solo against the Legend, towards unravels", map[string]string{"aj": "legend"}, true},
		{"solo against the Acolyte, by the prior", map[string]string{"aj": "acolyte"}, false},
		{"two seats, towards unravels", nil, true},
	} {
		for seed := range uint64(4) {
			start, err := NewPosition(newGame(t, 2, seed, c.options))
			if err != nil {
				t.Fatal(err)
			}
			start.unravels = c.unravels
			var p Position
			r := rand.New(rand.NewPCG(seed, 1))
			if allocs := testing.AllocsPerRun(20, func() {
				p = *start
				p.Resample(0, r)
				p.Playout(r)
			}); allocs != 0 {
				t.Errorf("%s, setup seed %d: a copy, a resample and a playout allocate %v times, want 0", c.name, seed, allocs)
			}
		}
	}
}

// A turn's plans share its time: each gets half of what the turn has left,
// a new turn starts afresh, and a turn spent still bounds its next plan.
func TestPlanTime(t *testing.T) {
	b := NewPlanner(1, 16, 2)
	if got := b.planTime(4); got != 0 {
		t.Errorf("no turn time: a plan of %v, want 0 (no bound)", got)
	}
	b.turnTime = time.Second
	for _, c := range []struct {
		turn  int
		spent time.Duration // added before the plan
		want  time.Duration
	}{
		{4, 0, 500 * time.Millisecond},
		{4, 500 * time.Millisecond, 250 * time.Millisecond},
		{4, 300 * time.Millisecond, 100 * time.Millisecond},
		{6, 0, 500 * time.Millisecond},
		{6, 1200 * time.Millisecond, time.Nanosecond},
	} {
		b.spent += c.spent
		if got := b.planTime(c.turn); got != c.want {
			t.Errorf("turn %d, %v spent: a plan of %v, want %v", c.turn, b.spent, got, c.want)
		}
	}
}

// Playouts towards unravels (unravelPlan) unravel for the seat more often
// than the prior's (some 1.7 times as often): what lets them reward a turn that gets a
// druid onto a target with the energy to unravel it.
func TestUnravelPlayoutsUnravel(t *testing.T) {
	const games = 60
	count := func(unravels bool) int {
		n := 0
		for g := range uint64(games) {
			playout(t, "legend", g, unravels, rand.New(rand.NewPCG(g, 2)), func(p *Position, _ []game.Move, m game.Move) {
				if p.PriorRank(m) == unravelRank {
					n++
				}
			})
		}
		return n
	}
	prior, unravels := count(false), count(true)
	t.Logf("unravels in %d solo games against the Legend: %d by the prior's playouts, %d towards unravels", games, prior, unravels)
	if 2*unravels < 3*prior {
		t.Errorf("playouts towards unravels unravelled %d times, the prior's %d: want half again as many at least", unravels, prior)
	}
}

// unravelsNow decides as offeredAfter, which plays the choice out, where
// the unravel comes in this turn, and is false where it could come only
// after AJ's turn: at every choice of a Refresh step in playouts towards
// unravels of solo games against each level of AJ.
func TestUnravelsNowIsOfferedAfter(t *testing.T) {
	asked, later := 0, 0
	for g := range uint64(400) {
		level := druids.AJLevels[1+int(g)%(len(druids.AJLevels)-1)]
		playout(t, level, g, true, rand.New(rand.NewPCG(g, 3)), func(p *Position, legal []game.Move, _ game.Move) {
			if !p.AtRefresh() {
				return
			}
			for _, m := range legal {
				asked++
				got, want := unravelsNow(&p.State, m), offeredAfter(&p.State, m, unravelRank)
				if _, ok := p.RefreshUnravels(m); !ok {
					later++
					if got || !endsTurnAfter(&p.State, m) {
						t.Fatalf("game %d against %s, %s: unravelsNow %v where the engine leaves the answer to AJ's turn, which m does not reach\n%s", g, level, p.MoveText(m), got, &p.State)
					}
					continue
				}
				if got != want {
					t.Fatalf("game %d against %s, %s: unravelsNow %v, offeredAfter %v\n%s", g, level, p.MoveText(m), got, want, &p.State)
				}
			}
		})
	}
	t.Logf("%d choices of a Refresh step compared, %d of them answered only past AJ's turn", asked, later)
	if asked == 0 || later == 0 {
		t.Fatal("the playouts asked no choice of a Refresh step, or none whose answer lies past AJ's turn")
	}
}

// endsTurnAfter reports whether m at the Refresh step, and the pass after
// it while the seat decides, end the seat's turn.
func endsTurnAfter(s *druids.State, m game.Move) bool {
	var buf [256]game.Move
	c := *s
	for c.PlayLegal(m); !c.Over() && c.Turn() == s.Turn(); c.PlayLegal(m) {
		legal := c.AppendLegal(buf[:0])
		if offers(&c, legal, unravelRank) {
			return false
		}
		pass, ok := druids.Stop(legal)
		if !ok {
			return false
		}
		m = pass
	}
	return true
}

// playout plays a playout of the solo game against AJ at level from setup
// seed g, towards unravels if unravels, drawing from r, and calls visit
// with the position, its legal moves and the choice before each choice is
// played.
func playout(t *testing.T, level string, g uint64, unravels bool, r *rand.Rand, visit func(p *Position, legal []game.Move, m game.Move)) {
	t.Helper()
	setup, err := AJSetup(level, g, nil)
	if err != nil {
		t.Fatalf("setup %d against %s: %v", g, level, err)
	}
	st, err := druids.Rules.NewGame(setup)
	if err != nil {
		t.Fatalf("setup %d against %s: %v", g, level, err)
	}
	p := Position{State: *st.(*druids.State), policy: defaultPolicy}
	p.unravels = unravels
	var buf [256]game.Move
	for turn, k := -1, 0; !p.Over(); k++ {
		if p.Turn() != turn {
			turn, k = p.Turn(), 0
		}
		legal := p.AppendLegal(buf[:0])
		m := druids.CapTurn(k+1, legal, p.choose(legal, r, nil))
		visit(&p, legal, m)
		p.PlayLegal(m)
	}
}
