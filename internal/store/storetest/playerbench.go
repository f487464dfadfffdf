package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// BenchPlayerGames measures a player's games read (PlayerGames, the 50
// that ended last) from a store that open opens, holding ended games and
// inProgress games of the player (issue 43 asks 10,000 and 200), each of
// 30 moves, and reports the 99th percentile of the reads besides their
// mean (p99-ms).
func BenchPlayerGames(b *testing.B, open func(b *testing.B) store.Store, ended, inProgress int) {
	ctx := context.Background()
	s := open(b)
	defer s.Close()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	p := players.Player{ID: "bench", Name: "Ann", Created: at}
	if err := s.CreatePlayer(ctx, p, players.Session{Hash: make([]byte, 32), Player: p.ID, Created: at, LastSeen: at}); err != nil {
		b.Fatal(err)
	}
	// Written by many at once, so that the writes share their commits.
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	work := make(chan int)
	for range 32 {
		wg.Go(func() {
			for i := range work {
				if err := benchGame(ctx, s, i, i < ended, at); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		})
	}
	for i := range ended + inProgress {
		work <- i
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		playing, done, bad, err := s.PlayerGames(ctx, p.ID, 50, nil)
		took = append(took, time.Since(start))
		if err != nil || len(bad) > 0 || len(playing) != inProgress || len(done) != min(ended, 50) {
			b.Fatalf("PlayerGames: %d playing, %d ended, %v, %v", len(playing), len(done), bad, err)
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100])/1e6, "p99-ms")
}

// benchGame imports game i of 30 moves, ended or not, with seat 0 the
// bench player's.
func benchGame(ctx context.Context, s store.Store, i int, ended bool, at time.Time) error {
	g := NewGame(fmt.Sprintf("b%06d", i))
	g.Created = at.Add(time.Duration(i) * time.Second)
	for v := range 30 {
		g.Moves = append(g.Moves, store.Move{Seat: v % 2, Move: fmt.Sprintf("S %d,3", v), At: g.Created.Add(time.Duration(v) * time.Second)})
	}
	g.Version, g.Updated, g.Over = 30, g.Moves[29].At, ended
	if err := s.Import(ctx, g); err != nil {
		return err
	}
	return s.OwnSeat(ctx, g.ID, 0, "bench", at)
}
