package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lagoon-games/lagoon/internal/cluster/natstest"
	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
)

// freezeFor is how long TestClusterFreeze keeps its node frozen: 20 s, or
// LAGOON_FREEZE_SECONDS (the probe froze a node for 53 and 60 s).
// Either is longer than the lease (6 s) with a sweep (2 s) and the
// database's end of an idle transaction (2 s), which is what the test
// needs to prove the frozen node's games move and the others hold.
func freezeFor(t *testing.T) time.Duration {
	s := os.Getenv("LAGOON_FREEZE_SECONDS")
	if s == "" {
		return 20 * time.Second
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 12 {
		t.Fatalf("LAGOON_FREEZE_SECONDS=%q: want a whole number of seconds, at least 12", s)
	}
	return time.Duration(n) * time.Second
}

// TestClusterFreeze freezes (SIGSTOP) the node that owns the most games,
// at a moment when one of its database sessions is inside a transaction
// that wrote (as the worst probe did), while people play on every
// node and bots on the frozen one, and wakes it (SIGCONT) after
// freezeFor: no other node gives up a game (their renewals never wait on
// the frozen node's rows); the frozen node's games are owned elsewhere
// while it is frozen, and go on; a request through another node for one of
// them, sent just after the freeze, is answered by the new owner rather
// than waiting on the frozen one; the woken node serves none of them at
// the version it had, only the new owner's; and every acknowledged move is
// in its game.
func TestClusterFreeze(t *testing.T) {
	freeze := freezeFor(t)
	tc := &testCluster{t: t, db: pgtest.URL(t), nats: natstest.URL(t), prefix: "lagoontest_" + rand.Text()[:10], nodes: map[string]*clusterNode{}}
	tc.bin = buildLagoon(t)
	a, b, c := tc.start("n1"), tc.start("n2"), tc.start("n3")
	ctx := context.Background()
	db, err := pgx.Connect(ctx, tc.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)

	// n1 owns the most: a people's game and bots' games of every game;
	// n2 and n3 a people's game each.
	people, tokens := tc.create(a, `{"game":"bluelagoon","seats":[{"kind":"human","name":"Ann"},{"kind":"human","name":"Bob"}],"seed":31}`)
	var frozenGames []string
	for i, id := range []string{"druids", "druids", "laguna", "bluelagoon"} {
		g, _ := tc.create(a, fmt.Sprintf(`{"game":%q,"seats":[{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}],"seed":%d}`, id, 40+i))
		frozenGames = append(frozenGames, g.ID)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	stopPlay := sync.OnceFunc(func() { close(stop) })
	defer wg.Wait()
	defer stopPlay()
	var players []*player
	for i, n := range []*clusterNode{b, c} {
		g, tokens := tc.create(n, fmt.Sprintf(`{"game":"bluelagoon","seats":[{"kind":"human","name":"Ann"},{"kind":"human","name":"Bob"}],"seed":%d}`, 50+i))
		p := &player{t: t, id: g.ID, tokens: tokens, acked: map[int]string{}, stop: stop, pace: 150 * time.Millisecond}
		players = append(players, p)
		// Played through the two nodes that stay up, on and on.
		wg.Go(func() { p.play([]*clusterNode{b, c}, math.MaxInt) })
	}
	p := &player{t: t, id: people.ID, tokens: tokens, acked: map[int]string{}}
	p.play([]*clusterNode{a, b, c}, 4)
	players = append(players, p)

	// Freeze n1 inside a transaction that wrote: stop it, look, and wake
	// it to try again a moment later if it was not in one.
	inWrite := false
	for try := 0; try < 400 && !inWrite; try++ {
		a.cmd.Process.Signal(syscall.SIGSTOP)
		time.Sleep(20 * time.Millisecond)
		err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = 'lagoon-n1'
			AND state = 'idle in transaction' AND backend_xid IS NOT NULL)`).Scan(&inWrite)
		if err != nil {
			t.Fatal(err)
		}
		if !inWrite {
			a.cmd.Process.Signal(syscall.SIGCONT)
			time.Sleep(time.Duration(mrand.N(40)) * time.Millisecond)
		}
	}
	frozen := time.Now()
	t.Logf("n1 frozen inside a write transaction: %v", inWrite)
	var held []string
	for _, id := range append([]string{people.ID}, frozenGames...) {
		if tc.holder(id) == "n1" {
			held = append(held, id)
		}
	}
	if len(held) == 0 {
		t.Fatal("n1 holds none of its games when frozen")
	}

	// Through n2, just after the freeze: the game is read and a move made,
	// by whoever holds it once n1's lease is gone.
	g, code := readGame(t, b, people.ID)
	if code != http.StatusOK {
		t.Errorf("reading n1's game through n2 while n1 is frozen: %d", code)
	} else {
		var ans struct {
			Version int `json:"version"`
		}
		move := g.State.View.Legal[0]
		code = apiCall(t, "POST", b.url+"/api/games/"+people.ID+"/moves", tokens[g.State.ToMove], fmt.Sprintf(`{"version":%d,"move":%q}`, g.State.Version, move), &ans)
		if code != http.StatusOK {
			t.Errorf("a move of n1's game through n2 while n1 is frozen: %d", code)
		} else {
			p.mu.Lock()
			p.acked[ans.Version] = move
			p.mu.Unlock()
		}
	}

	// While n1 is frozen, another node holds each of its games.
	for {
		moved := 0
		for _, id := range held {
			if h := tc.holder(id); h != "" && h != "n1" {
				moved++
			} else if g, _ := readGame(t, b, id); g.State.Over {
				moved++
			}
		}
		if moved == len(held) {
			break
		}
		if time.Since(frozen) > freeze {
			t.Errorf("%d of n1's %d games were owned elsewhere after %v frozen", moved, len(held), freeze)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("n1's %d games were owned elsewhere %v after it froze (lease 6 s)", len(held), time.Since(frozen).Round(100*time.Millisecond))
	p.play([]*clusterNode{b, c}, 10)
	time.Sleep(time.Until(frozen.Add(freeze)))

	// Woken, n1 serves each game at the new owner's version or later.
	versions := map[string]int{}
	for _, id := range held {
		g, _ := readGame(t, c, id)
		versions[id] = g.State.Version
	}
	a.cmd.Process.Signal(syscall.SIGCONT)
	for _, id := range held {
		g, code := readGame(t, a, id)
		if code != http.StatusOK || g.State.Version < versions[id] {
			t.Errorf("game %s through n1 just woken: %d at version %d; the new owner had %d", id, code, g.State.Version, versions[id])
		}
	}

	// The bots' games go on; nothing the healthy nodes owned was given up.
	for _, id := range frozenGames {
		waitUntil(t, "the bots of "+id+" go on after the freeze", func() bool {
			now, _ := readGame(t, c, id)
			return now.State.Over || now.State.Version > versions[id]
		})
	}
	stopPlay()
	wg.Wait()
	for _, n := range []*clusterNode{b, c} {
		if k := strings.Count(n.log.String(), "game given up"); k > 0 {
			t.Errorf("node %s, healthy, gave up %d games while n1 was frozen", n.name, k)
		}
	}
	for _, p := range players {
		g, _ := readGame(t, b, p.id)
		p.checkAcked(g)
	}
}
