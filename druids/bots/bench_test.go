package bots

import (
	"context"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkMCTS is the search at the first move of a two-player regular
// game, one worker, 1000 simulations an op; sims/cpu-s divides by the CPU
// time the process used (a shared machine inflates the wall clock, not
// that). With -benchtime Nx and one worker the CPU time is the search's and
// the collector's. uniform is the engine's own uniform playout.
func BenchmarkMCTS(b *testing.B) {
	for _, c := range []struct {
		name     string
		settings map[string]float64
	}{{"prior", nil}, {"uniform", map[string]float64{"uniform": 1}}} {
		b.Run(c.name, func(b *testing.B) {
			mk, err := SearchWith(c.settings)
			if err != nil {
				b.Fatal(err)
			}
			st := newGame(b, 2, 1, nil)
			pos, err := mk(st)
			if err != nil {
				b.Fatal(err)
			}
			const sims = 1000
			cpu0 := cpuTime()
			for b.Loop() {
				s := mcts.New(mcts.Config{Workers: 1, Seed: 1})
				if _, err := s.Search(context.Background(), pos, mcts.Budget{Simulations: sims}); err != nil {
					b.Fatal(err)
				}
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(sims*b.N)/cpu.Seconds(), "sims/cpu-s")
		})
	}
}

// BenchmarkHeuristic is one decision of the heuristic bot at the first
// move, planning anew each time.
func BenchmarkHeuristic(b *testing.B) {
	st := newGame(b, 2, 1, nil)
	var m game.Move
	for b.Loop() {
		h := NewHeuristic(1, 0)
		m, _ = h.Move(context.Background(), st)
	}
	_ = m
}

// turnStarts returns the states at the first decision of every turn of a
// few two-player games between easy bots (with options: aj for the solo
// game, where AJ plays the other seat): the positions a level's turn
// begins in.
func turnStarts(b *testing.B, options map[string]string) []game.State {
	var starts []game.State
	for seed := range uint64(3) {
		st := newGame(b, 2, 40+seed, options)
		bots := []ai.Bot{NewHeuristic(seed, 8), NewHeuristic(seed+1, 8)}
		turn := -1
		for !st.Over() {
			if st.Turn() != turn {
				turn = st.Turn()
				starts = append(starts, st.Clone())
			}
			m, err := bots[st.ToMove()].Move(context.Background(), st)
			if err != nil {
				b.Fatal(err)
			}
			if err := st.Play(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	return starts
}

// BenchmarkTurn is a whole turn of each level, as the server seats it (one
// worker), from the start of turns of easy bots' games taken in order: an
// op is one turn. It reports the turns' 50th and 95th percentiles of the
// wall clock (turn-s, which a person waits; a search level's time budget
// bounds it whatever the machine's load) and of the process's CPU time
// (turn-cpu-s), and the decisions a turn. Each level plays the turns of
// two-player games and, under "solo", of solo games against AJ Legend,
// where hard and max plan (soloLevel).
func BenchmarkTurn(b *testing.B) {
	for _, level := range []string{"easy", "medium", "hard", "max"} {
		b.Run(level, func(b *testing.B) { benchTurns(b, level, turnStarts(b, nil)) })
	}
	for _, level := range []string{"easy", "medium", "hard", "max"} {
		b.Run("solo/"+level, func(b *testing.B) { benchTurns(b, level, turnStarts(b, map[string]string{"aj": "legend"})) })
	}
}

// benchTurns plays whole turns of level from starts, one an op.
func benchTurns(b *testing.B, level string, starts []game.State) {
	bot, err := ai.NewWith(kitGame, level, ai.Options{Seed: 1, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	var wall, cpu []time.Duration
	decisions, i := 0, 0
	for b.Loop() {
		st := starts[i%len(starts)].Clone()
		i++
		t0, c0 := time.Now(), cpuTime()
		decisions += playTurn(b, bot, st)
		wall = append(wall, time.Since(t0))
		cpu = append(cpu, cpuTime()-c0)
	}
	b.ReportMetric(percentile(wall, 50).Seconds(), "p50-turn-s")
	b.ReportMetric(percentile(wall, 95).Seconds(), "p95-turn-s")
	b.ReportMetric(percentile(cpu, 50).Seconds(), "p50-turn-cpu-s")
	b.ReportMetric(percentile(cpu, 95).Seconds(), "p95-turn-cpu-s")
	b.ReportMetric(float64(decisions)/float64(len(wall)), "decisions/turn")
}

// playTurn plays the turn of st by bot, every decision of it, and returns
// the decisions made.
func playTurn(b *testing.B, bot ai.Bot, st game.State) int {
	turn, n := st.Turn(), 0
	for !st.Over() && st.Turn() == turn {
		m, err := bot.Move(context.Background(), st)
		if err != nil {
			b.Fatal(err)
		}
		if err := st.Play(m); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return n
}

// percentile returns the p-th percentile of ds, nearest rank.
func percentile(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[max(0, (len(s)*p+99)/100-1)]
}

// BenchmarkPlan is the planner's choice of a line (planByRollouts) at a
// fixed 8 playouts each in the first round and no time bound, from the
// starts of the turns of solo games against AJ Legend: an op is one plan.
// Its playouts are the prior's ("prior") or played towards unravels
// ("unravels", unravelPlan). It reports the distinct candidates and the
// playouts a plan, and both a CPU second of the process (noisy on a loaded
// machine: compare runs made together, -count and benchstat).
func BenchmarkPlan(b *testing.B) {
	var starts []*druids.State
	for _, st := range turnStarts(b, map[string]string{"aj": "legend"}) {
		s, err := stateOf(st)
		if err != nil {
			b.Fatal(err)
		}
		if s.ToMove() == 0 && !s.Over() {
			starts = append(starts, s)
		}
	}
	for _, unravels := range []bool{false, true} {
		name := "prior"
		if unravels {
			name = "unravels"
		}
		b.Run(name, func(b *testing.B) {
			p := NewPlanner(1, 0, 8)
			p.playout.unravels = unravels
			var cost planCost
			c0, i := cpuTime(), 0
			for b.Loop() {
				s := starts[i%len(starts)]
				i++
				_, c := p.planByRollouts(s, closingOf(s, s.AppendLegal(nil)), 0)
				cost.candidates += c.candidates
				cost.playouts += c.playouts
			}
			cpu := (cpuTime() - c0).Seconds()
			b.ReportMetric(float64(cost.candidates)/float64(i), "candidates/plan")
			b.ReportMetric(float64(cost.playouts)/float64(i), "playouts/plan")
			b.ReportMetric(float64(cost.candidates)/cpu, "candidates/cpu-s")
			b.ReportMetric(float64(cost.playouts)/cpu, "playouts/cpu-s")
		})
	}
}
