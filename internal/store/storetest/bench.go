//go:build unix

package storetest

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/store"
)

// BenchAppendMove measures a move's write into a fresh store that open
// opens, a game ending after 60 moves (its row written then) and the next
// one starting. A game alone gives every move a commit of its own; 64
// games played at once share them (group commit), which shows the store's
// own work per move (docs/performance.md). Besides the time a move takes,
// it reports the CPU this process spent a move (cpu-ns/op), which other
// work on a busy machine disturbs less; a database server's own CPU is not
// in it.
func BenchAppendMove(b *testing.B, open func(b *testing.B) store.Store) {
	for _, games := range []int{1, 64} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			s := open(b)
			defer s.Close()
			var next atomic.Int64
			b.ReportAllocs()
			defer reportCPU(b)()
			if games == 1 {
				p := player{s: s, next: &next}
				for b.Loop() {
					if err := p.move(); err != nil {
						b.Fatal(err)
					}
				}
				return
			}
			b.SetParallelism(games / runtime.GOMAXPROCS(0))
			b.RunParallel(func(pb *testing.PB) {
				p := player{s: s, next: &next}
				for pb.Next() {
					if err := p.move(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// player plays one game after another into a store.
type player struct {
	s    store.Store
	next *atomic.Int64
	id   string
	v    int
}

func (p *player) move() error {
	const length = 60
	ctx := context.Background()
	if p.id == "" {
		p.id, p.v = fmt.Sprint("g", p.next.Add(1)), 0
		if err := p.s.Create(ctx, NewGame(p.id)); err != nil {
			return err
		}
	}
	p.v++
	m := store.Move{Seat: p.v % 2, Move: "S 10,12", At: time.UnixMilli(int64(p.v)), Clocks: []int64{59000, 60000}}
	if err := p.s.AppendMove(ctx, p.id, p.v, m, store.After{Over: p.v == length}); err != nil {
		return err
	}
	if p.v == length {
		p.id = ""
	}
	return nil
}

// reportCPU returns a function that reports the CPU time the process spent
// since, a loop of b's iteration.
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() { b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op") }
}
