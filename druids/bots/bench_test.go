package bots

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
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
