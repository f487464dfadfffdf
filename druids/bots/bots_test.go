package bots

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// bot is what the tests seat: the contract's bot shape of package ai.
type bot interface {
	Name() string
	Move(ctx context.Context, st game.State) (game.Move, error)
}

// searchBot is ai/mcts over Position at an iteration budget, as package
// ai's "mcts:N" would seat it (one worker, so that a seed gives one game).
type searchBot struct {
	s        *mcts.Searcher
	sims     int
	settings map[string]float64
}

func newSearchBot(seed uint64, sims int) *searchBot {
	return &searchBot{s: mcts.New(mcts.Config{Workers: 1, Seed: seed}), sims: sims}
}

func (b *searchBot) Name() string {
	if len(b.settings) > 0 {
		return fmt.Sprintf("mcts:%d%v", b.sims, b.settings)
	}
	return fmt.Sprintf("mcts:%d", b.sims)
}

func (b *searchBot) Move(ctx context.Context, st game.State) (game.Move, error) {
	mk, err := SearchWith(b.settings)
	if err != nil {
		return 0, err
	}
	pos, err := mk(st)
	if err != nil {
		return 0, err
	}
	res, err := b.s.Search(ctx, pos, mcts.Budget{Simulations: b.sims})
	return res.Move, err
}

func newGame(t testing.TB, players int, seed uint64, options map[string]string) game.State {
	t.Helper()
	st, err := druids.Rules.NewGame(game.Setup{Players: players, Options: options, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// play plays a whole game, seat p by seats[p]; each move must be legal and
// no bot may change the state it is shown. It returns the final state.
func play(t testing.TB, st game.State, seats []bot) game.State {
	t.Helper()
	ctx := context.Background()
	for n := 0; !st.Over(); n++ {
		if n > 20000 {
			t.Fatal("the game does not end")
		}
		p := st.ToMove()
		before := st.String()
		m, err := seats[p].Move(ctx, st)
		if err != nil {
			t.Fatalf("%s in seat %d: %v", seats[p].Name(), p, err)
		}
		if st.String() != before {
			t.Fatalf("%s changed the state", seats[p].Name())
		}
		if err := st.Play(m); err != nil {
			t.Fatalf("%s in seat %d played %q: %v\n%s", seats[p].Name(), p, st.MoveText(m), err, before)
		}
	}
	return st
}

// Every bot plays whole games at two players and at four (two teams),
// every move legal.
func TestWholeGames(t *testing.T) {
	sims := 200
	if testing.Short() {
		sims = 30
	}
	makers := map[string]func(seed uint64) bot{
		"random":    func(seed uint64) bot { return ai.NewRandom(seed) },
		"heuristic": func(seed uint64) bot { return NewHeuristic(seed, 16) },
		"planner":   func(seed uint64) bot { return NewPlanner(seed, 16, 1) },
		"mcts":      func(seed uint64) bot { return newSearchBot(seed, sims) },
		"aj-legend": func(seed uint64) bot { return ajAt("legend")(seed) },
	}
	for name, mk := range makers {
		for _, players := range []int{2, 4} {
			t.Run(fmt.Sprintf("%s/%dp", name, players), func(t *testing.T) {
				seats := make([]bot, players)
				for p := range seats {
					if p%2 == 0 {
						seats[p] = mk(uint64(p + 1))
					} else {
						seats[p] = ai.NewRandom(uint64(p + 1))
					}
				}
				st := play(t, newGame(t, players, 3, nil), seats)
				t.Logf("%v", st.Standing())
			})
		}
	}
}

// A bot facing AJ plays whole games at every level.
func TestAgainstAJ(t *testing.T) {
	for _, level := range druids.AJLevels[1:] {
		t.Run(level, func(t *testing.T) {
			setup, err := AJSetup(level, 5, nil)
			if err != nil {
				t.Fatal(err)
			}
			st, err := druids.Rules.NewGame(setup)
			if err != nil {
				t.Fatal(err)
			}
			st = play(t, st, []bot{NewHeuristic(1, 8), nil})
			t.Logf("%v", st.Standing())
		})
	}
	if _, err := AJSetup("none", 1, nil); err == nil {
		t.Error("AJ at level none")
	}
}

// Bots never read what their seat cannot see: the bag's order. Two states
// alike but for it get the same move from bots alike.
func TestBagHidden(t *testing.T) {
	makers := map[string]func() bot{
		"heuristic": func() bot { return NewHeuristic(9, 12) },
		"planner":   func() bot { return NewPlanner(9, 12, 1) },
		"mcts":      func() bot { return newSearchBot(9, 60) },
		"aj":        func() bot { return ajAt("eldrid")(9) },
	}
	for _, players := range []int{2, 4} {
		st := newGame(t, players, 21, nil)
		rng := rand.New(rand.NewPCG(1, 2))
		driver := NewHeuristic(4, 4)
		checked := 0
		for n := 0; !st.Over() && checked < 12; n++ {
			if n%7 == 0 && len(st.AppendLegal(nil)) > 1 {
				other := st.Clone()
				other.Resample(st.ToMove(), rng)
				if other.String() == st.String() {
					t.Fatal("Resample changed nothing")
				}
				for name, mk := range makers {
					a, err := mk().Move(context.Background(), st)
					if err != nil {
						t.Fatal(err)
					}
					b, err := mk().Move(context.Background(), other)
					if err != nil {
						t.Fatal(err)
					}
					if a != b {
						t.Fatalf("%s, %d players: %q with one bag order, %q with another", name, players, st.MoveText(a), st.MoveText(b))
					}
				}
				checked++
			}
			m, err := driver.Move(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if checked == 0 {
			t.Fatal("nothing checked")
		}
	}
}

// The search's position copies as a flat value and rewards in [0, 1].
func TestPositionRewards(t *testing.T) {
	st := newGame(t, 4, 8, nil)
	pos, err := NewPosition(st)
	if err != nil {
		t.Fatal(err)
	}
	c := pos.Clone().(*Position)
	c.Playout(rand.New(rand.NewPCG(1, 1)))
	if !c.Over() || pos.Over() {
		t.Fatal("the playout did not finish the copy alone")
	}
	r := make([]float64, 4)
	c.Rewards(r)
	sum := 0.0
	for p, x := range r {
		if x < 0 || x > 1 {
			t.Fatalf("reward %v of seat %d", x, p)
		}
		sum += x
	}
	if r[0] != r[2] || r[1] != r[3] {
		t.Errorf("team mates rewarded apart: %v", r)
	}
	if _, err := NewPosition(gameStateOther{}); err == nil {
		t.Error("a foreign state accepted")
	}
	if _, err := SearchWith(map[string]float64{"margin": 2}); err == nil {
		t.Error("margin 2 accepted")
	}
}

type gameStateOther struct{ game.State }

// A playout with cut stops that many rounds after the root's turn, the
// game still on, and its rewards are the evaluation's, the two seats'
// summing to 1; the playout policies of the settings finish games.
func TestPositionSettings(t *testing.T) {
	st := newGame(t, 2, 8, nil)
	position := func(settings map[string]float64) *Position {
		t.Helper()
		mk, err := SearchWith(settings)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := mk(st)
		if err != nil {
			t.Fatal(err)
		}
		return pos.(*Position)
	}
	for _, cut := range []float64{1, 2} {
		pos := position(map[string]float64{"cut": cut, "steer": 1})
		pos.Playout(rand.New(rand.NewPCG(3, 4)))
		if pos.Over() || pos.Turn() != st.Turn()+2*int(cut) {
			t.Fatalf("cut %v: the playout stopped after turn %d, over %v", cut, pos.Turn(), pos.Over())
		}
		r := make([]float64, 2)
		pos.Rewards(r)
		want := 0.5 + 0.5*math.Tanh(pos.Evaluate(0)/cutScale)
		if math.Abs(r[0]-want) > 1e-9 || math.Abs(r[0]+r[1]-1) > 1e-9 {
			t.Errorf("cut %v: rewards %v", cut, r)
		}
	}
	// The margin's share is lifted and squashed by the settings.
	lifted := position(map[string]float64{"margin": 1, "scale": 4, "lift": 5})
	lifted.Playout(rand.New(rand.NewPCG(7, 8)))
	r := make([]float64, 2)
	lifted.Rewards(r)
	if want := 0.5 + 0.5*math.Tanh((float64(margin(&lifted.State, 0))+5)/4); math.Abs(r[0]-want) > 1e-9 {
		t.Errorf("scale 4, lift 5: reward %v, want %v", r[0], want)
	}
	for _, settings := range []map[string]float64{{"steer": 1}, {"ajplay": 0.5}, {"uniform": 1, "ajplay": 1}, {"hasty": 1}, {"gather": 1, "steer": 1}} {
		pos := position(settings)
		pos.Playout(rand.New(rand.NewPCG(5, 6)))
		if !pos.Over() {
			t.Errorf("%v: the playout did not finish the game", settings)
		}
	}
	// The search with move averages plays its guided playouts.
	s := mcts.New(mcts.Config{Workers: 1, Seed: 1, MAST: 0.5})
	res, err := s.Search(context.Background(), position(map[string]float64{"gather": 1}), mcts.Budget{Simulations: 200})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Clone().Play(res.Move); err != nil {
		t.Errorf("MAST: %v", err)
	}
	for _, bad := range []map[string]float64{{"cut": 1.5}, {"cut": -1}, {"ajplay": 2}, {"steer": 1, "depth": 3}, {"scale": 0}, {"lift": 200}} {
		if _, err := SearchWith(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// strengthGames is how many games each strength test plays: the
// environment's DRUIDS_STRENGTH, or none (the tests are skipped).
func strengthGames(t *testing.T) int {
	n, _ := strconv.Atoi(os.Getenv("DRUIDS_STRENGTH"))
	if n <= 0 {
		t.Skip("set DRUIDS_STRENGTH to a number of games to measure strength")
	}
	return n
}

// wilson returns the 95% confidence interval of a share of wins.
func wilson(wins float64, n int) (lo, hi float64) {
	const z = 1.96
	p, fn := wins/float64(n), float64(n)
	d := 1 + z*z/fn
	c := (p + z*z/(2*fn)) / d
	h := z * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn)) / d
	return c - h, c + h
}

// shareOf returns seat's share of the victory of st, a finished game
// (game.Standing.Rewards). The strength tests log it for each game beside
// the scores, which do not say who won (points tied are parted by the
// tie-break), so that two runs can be compared deal by deal from their
// lines.
func shareOf(st game.State, seat int) float64 {
	r := make([]float64, st.Players())
	st.Standing().Rewards(r)
	return r[seat]
}

// match plays games two-player games of a against b, seats rotated (a first
// in the even games), and returns a's share of the victories.
func match(t *testing.T, games int, a, b func(seed uint64) bot) float64 {
	wins := 0.0
	for g := range games {
		seats := []bot{a(uint64(g)), b(uint64(g) + 1000)}
		me := g % 2
		if me == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		st := play(t, newGame(t, 2, uint64(g/2), map[string]string{"first": "0"}), seats)
		won := shareOf(st, me)
		wins += won
		t.Logf("game %d (%s in seat %d): %v, won %.1f, %.1f of %d so far", g, a(0).Name(), me+1, st.Standing().Scores, won, wins, g+1)
	}
	lo, hi := wilson(wins, games)
	t.Logf("%s vs %s: %.1f of %d (%.0f%%, 95%% CI %.0f-%.0f%%)", a(0).Name(), b(0).Name(), wins, games, 100*wins/float64(games), 100*lo, 100*hi)
	return wins / float64(games)
}

// firstGame is the setup seed of the first game against AJ: the
// environment's DRUIDS_FIRST, or 0, so that a run can go on with fresh
// games where another stopped.
func firstGame() int {
	n, _ := strconv.Atoi(os.Getenv("DRUIDS_FIRST"))
	return max(n, 0)
}

// vsAJ plays games of a against AJ at level (AJ in seat 2, the bot first,
// as the solo rules seat them), on the setup seeds from firstGame on, and
// returns a's share of the victories.
func vsAJ(t *testing.T, games int, level string, a func(seed uint64) bot) float64 {
	wins := 0.0
	for g := firstGame(); g < firstGame()+games; g++ {
		setup, err := AJSetup(level, uint64(g), nil)
		if err != nil {
			t.Fatal(err)
		}
		st, err := druids.Rules.NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		st = play(t, st, []bot{a(uint64(g)), nil})
		won := shareOf(st, 0)
		wins += won
		t.Logf("game %d: %v, won %.1f, %.1f of %d so far", g, st.Standing().Scores, won, wins, g-firstGame()+1)
	}
	lo, hi := wilson(wins, games)
	t.Logf("%s vs AJ %s: %.1f of %d (%.0f%%, 95%% CI %.0f-%.0f%%)", a(0).Name(), level, wins, games, 100*wins/float64(games), 100*lo, 100*hi)
	return wins / float64(games)
}

func heuristic(seed uint64) bot { return NewHeuristic(seed, 0) }
func random(seed uint64) bot    { return ai.NewRandom(seed) }

// searchAt is the search at n simulations a move, with the settings of
// DRUIDS_SETTINGS in the strength tests: the position's ("margin=0.5",
// "scale=24", "uniform=1") and the search's progressive bias, MAST and exploration
// constant ("bias=1", "mast=0.5", "c=0.5").
func searchAt(n int) func(uint64) bot {
	settings := map[string]float64{}
	for kv := range strings.SplitSeq(os.Getenv("DRUIDS_SETTINGS"), ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				panic(fmt.Sprintf("DRUIDS_SETTINGS: %q: %v", kv, err))
			}
			settings[k] = x
		}
	}
	cfg := mcts.Config{Workers: 1, Bias: settings["bias"], MAST: settings["mast"], Exploration: settings["c"]}
	delete(settings, "bias")
	delete(settings, "mast")
	delete(settings, "c")
	return func(seed uint64) bot {
		b := newSearchBot(seed, n)
		cfg.Seed = seed
		b.s, b.settings = mcts.New(cfg), settings
		return b
	}
}

func TestStrengthHeuristic(t *testing.T) {
	games := strengthGames(t)
	match(t, games, heuristic, random)
	for _, level := range druids.AJLevels[1:] {
		vsAJ(t, games, level, heuristic)
	}
}

// DRUIDS_SIMS sets the search's budget in the strength tests (default
// 2000 simulations a move).
func strengthSims() int {
	if n, _ := strconv.Atoi(os.Getenv("DRUIDS_SIMS")); n > 0 {
		return n
	}
	return 2000
}

func TestStrengthSearchHeuristic(t *testing.T) {
	match(t, strengthGames(t), searchAt(strengthSims()), heuristic)
}

func TestStrengthSearchAJ(t *testing.T) {
	vsAJ(t, strengthGames(t), "legend", searchAt(strengthSims()))
}

func ajAt(level string) func(uint64) bot {
	return func(seed uint64) bot {
		b, err := NewAJ(level, seed)
		if err != nil {
			panic(err)
		}
		return b
	}
}

// AJ as a seat bot plays whole two-player games at every level, and beats
// random play: he explores and unravels every turn he can.
func TestAJSeat(t *testing.T) {
	for _, level := range druids.AJLevels[1:] {
		t.Run(level, func(t *testing.T) {
			if share := match(t, 6, ajAt(level), random); share < 0.8 {
				t.Errorf("AJ %s won %.0f%% against random", level, 100*share)
			}
		})
	}
	if _, err := NewAJ("none", 1); err == nil {
		t.Error("AJ at level none")
	}
	if a, b := AJAt(0, 1).Name(), AJAt(99, 1).Name(); a != "aj-initiate" || b != "aj-legend" {
		t.Errorf("levels out of range: %s, %s", a, b)
	}
}

func TestStrengthAJSeat(t *testing.T) {
	games := strengthGames(t)
	for _, level := range druids.AJLevels[1:] {
		match(t, games, ajAt(level), heuristic)
	}
}
