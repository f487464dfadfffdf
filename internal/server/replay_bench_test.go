package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/laguna"
)

// longMoves is the length of the long game of the replay benchmarks: the
// game of issue 28 that took 285 ms a replay.
const longMoves = 30000

// longGame starts a server hosting a game of Laguna without the sand timer,
// two people, that random play has taken to n moves (random rafts drift
// without ever delivering). The store lives in /dev/shm where there is one:
// building the game is 30,000 commits, and what the benchmarks measure is
// the game's lock, not the disk.
func longGame(b *testing.B, n int, configure func(*Config)) (*Server, *match) {
	b.Helper()
	dir, err := os.MkdirTemp("/dev/shm", "lagoon-bench")
	if err != nil {
		dir = b.TempDir()
	} else {
		b.Cleanup(func() { os.RemoveAll(dir) })
	}
	st, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	cfg := testConfig(b, st)
	hosting(laguna.Rules)(&cfg)
	// Past the bound of a game's length, as a game could grow before it.
	cfg.MaxMoves = -1
	if configure != nil {
		configure(&cfg)
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	opts, err := laguna.Rules.CheckOptions(map[string]string{"timer": "off"})
	if err != nil {
		b.Fatal(err)
	}
	sg := &store.Game{ID: newGameID(), Game: laguna.Rules.ID, Options: opts, Players: 2, Seed: 1,
		Seats: []store.Seat{{Kind: kindHuman, Name: "Ann", Joined: true}, {Kind: kindHuman, Name: "Bob", Joined: true}}}
	if err := st.Create(context.Background(), sg); err != nil {
		b.Fatal(err)
	}
	g, err := s.loadGame(sg)
	if err != nil {
		b.Fatal(err)
	}
	s.mu.Lock()
	s.games[g.id] = g
	s.mu.Unlock()
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		playRandom(b, g, rng)
	}
	return s, g
}

// playRandom plays a random legal move in g.
func playRandom(b *testing.B, g *match, rng *rand.Rand) {
	g.mu.Lock()
	v, seat := len(g.moves), g.cur.ToMove()
	legal := g.cur.AppendLegal(nil)
	g.mu.Unlock()
	if len(legal) == 0 {
		b.Fatalf("the long game ended at move %d", v)
	}
	if _, _, e := g.play(context.Background(), moveRequest{seat: seat, version: v, move: legal[rng.IntN(len(legal))]}); e != nil {
		b.Fatalf("move %d: %v", v+1, e)
	}
}

// getAt asks s for game id as it was at version at, as a replay does.
func getAt(s *Server, id string, at int) int {
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", fmt.Sprintf("/api/games/%s?at=%d", id, at), nil))
	return w.Code
}

// BenchmarkReplay measures a spectator's step through a long game's past:
// GET /api/games/{id}?at=N, N among the last hundred of a game of 30,000
// moves.
func BenchmarkReplay(b *testing.B) {
	s, g := longGame(b, longMoves, nil)
	i := 0
	for b.Loop() {
		if code := getAt(s, g.id, longMoves-1-i%100); code != http.StatusOK {
			b.Fatalf("replay: %d", code)
		}
		i++
	}
}

// BenchmarkMoveWhileReplaying measures the players' moves of a game of
// 30,000 moves while two spectators step through its past as fast as the
// server answers them: p50 and p95 are a move's latency, from its request
// to its broadcast, the moves 0 to 10 ms apart.
func BenchmarkMoveWhileReplaying(b *testing.B) {
	s, g := longGame(b, longMoves, nil)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var replays atomic.Int64
	for k := range 2 {
		wg.Go(func() {
			for at := longMoves/2 + k*1000; !stop.Load(); at++ {
				if code := getAt(s, g.id, at); code != http.StatusOK {
					b.Errorf("replay: %d", code)
					return
				}
				replays.Add(1)
			}
		})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var took []time.Duration
	for b.Loop() {
		// A person's pace, not a loop's: a move arriving at any moment
		// of the spectators' stepping, not only in the gaps between.
		b.StopTimer()
		time.Sleep(time.Duration(rng.IntN(10)) * time.Millisecond)
		b.StartTimer()
		start := time.Now()
		playRandom(b, g, rng)
		took = append(took, time.Since(start))
	}
	stop.Store(true)
	wg.Wait()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/1e6, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100])/1e6, "p95-ms")
	b.ReportMetric(float64(replays.Load())/float64(len(took)), "replays/move")
}
