package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// node opens a store on address, as a node of a cluster does.
func node(t *testing.T, address string) *Store {
	t.Helper()
	s, err := Open(context.Background(), address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// move is the move at version v of the tests' games.
func move(v int) store.Move {
	return store.Move{Seat: v % 2, Move: fmt.Sprintf("S %d,0", v), At: time.UnixMilli(1_800_000_000_000 + int64(v))}
}

// TestLeaseRace: two nodes race for a game's lease; one wins, the other is
// told the game is leased, and only the winner's fenced writes land.
func TestLeaseRace(t *testing.T) {
	ctx := context.Background()
	address := pgtest.URL(t)
	nodes := map[string]*Store{"a": node(t, address), "b": node(t, address)}
	if err := nodes["a"].Create(ctx, storetest.NewGame("g")); err != nil {
		t.Fatal(err)
	}
	epochs, errs := map[string]int64{}, map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, s := range nodes {
		wg.Go(func() {
			epoch, err := s.Acquire(ctx, "g", name, time.Minute)
			mu.Lock()
			defer mu.Unlock()
			epochs[name], errs[name] = epoch, err
		})
	}
	wg.Wait()
	winner, loser := "a", "b"
	if errs["a"] != nil {
		winner, loser = "b", "a"
	}
	if errs[winner] != nil || epochs[winner] != 1 || !errors.Is(errs[loser], ErrLeased) {
		t.Fatalf("the race: %v (epoch %d) and %v (epoch %d); want one lease at epoch 1 and ErrLeased", errs["a"], epochs["a"], errs["b"], epochs["b"])
	}
	// The loser writes as if it held the lease, at the winner's epoch or
	// at its own guess: every write is refused, and nothing lands.
	for _, epoch := range []int64{1, 2, 0} {
		fenced := store.WithEpoch(ctx, "g", loser, epoch)
		writes := map[string]error{
			"AppendMove":  nodes[loser].AppendMove(fenced, "g", 1, move(1), store.After{}),
			"UpdateSeats": nodes[loser].UpdateSeats(fenced, "g", 0, nil, nil, time.Now()),
			"Expire":      nodes[loser].Expire(fenced, "g", time.Now()),
			"TakeBack":    nodes[loser].TakeBack(fenced, "g", 0, 0, nil, nil, time.Now()),
		}
		for name, err := range writes {
			if !errors.Is(err, store.ErrFenced) {
				t.Errorf("the loser's %s at epoch %d: %v, want ErrFenced", name, epoch, err)
			}
		}
	}
	if err := nodes[loser].Renew(ctx, "g", loser, 1, time.Minute); !errors.Is(err, store.ErrFenced) {
		t.Errorf("the loser renews: %v, want ErrFenced", err)
	}
	fenced := store.WithEpoch(ctx, "g", winner, epochs[winner])
	for v := 1; v <= 3; v++ {
		if err := nodes[winner].AppendMove(fenced, "g", v, move(v), store.After{}); err != nil {
			t.Fatal(err)
		}
	}
	// A fence is for its game alone.
	if err := nodes[winner].Create(fenced, storetest.NewGame("h")); !errors.Is(err, store.ErrFenced) {
		t.Errorf("a write of another game under g's fence: %v, want ErrFenced", err)
	}
	g, err := nodes[loser].Game(ctx, "g")
	if err != nil || g.Version != 3 || g.Expired {
		t.Errorf("the game after the race: %+v, %v; want the winner's 3 moves", g, err)
	}
	// Renewing keeps the epoch; a lease released and taken again, even by
	// the same node, is a new one.
	if epoch, err := nodes[winner].Acquire(ctx, "g", winner, time.Minute); err != nil || epoch != 1 {
		t.Errorf("the winner acquires its own lease again: epoch %d, %v; want 1", epoch, err)
	}
	if err := nodes[winner].Release(ctx, "g", winner, 1); err != nil {
		t.Fatal(err)
	}
	if epoch, err := nodes[winner].Acquire(ctx, "g", winner, time.Minute); err != nil || epoch != 2 {
		t.Errorf("the winner acquires the lease it released: epoch %d, %v; want 2", epoch, err)
	}
	if err := nodes[winner].AppendMove(fenced, "g", 4, move(4), store.After{}); !errors.Is(err, store.ErrFenced) {
		t.Errorf("a write at the epoch released: %v, want ErrFenced", err)
	}
}

// TestLeaseTakeover: a lease that expires is taken over by another node at
// the next epoch; the old owner's write, even one queued before the
// takeover, is refused, as is its renewal, and the new owner writes on.
func TestLeaseTakeover(t *testing.T) {
	ctx := context.Background()
	address := pgtest.URL(t)
	a, b := node(t, address), node(t, address)
	// blocker is a game whose writes go through g's writer: a write of
	// blocker held up holds up g's writes behind it.
	blocker := ""
	for i := 0; blocker == ""; i++ {
		if id := fmt.Sprint("blocker", i); writerOf(id) == writerOf("g") {
			blocker = id
		}
	}
	for _, id := range []string{"g", blocker} {
		if err := a.Create(ctx, storetest.NewGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	const ttl = 200 * time.Millisecond
	epoch, err := a.Acquire(ctx, "g", "a", ttl)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.AppendMove(store.WithEpoch(ctx, "g", "a", epoch), "g", 1, move(1), store.After{}); err != nil {
		t.Fatal(err)
	}

	// A hand holds blocker's row, so that a's next write of blocker waits
	// in g's writer, and a's write of g waits behind it.
	hand, err := pgx.Connect(ctx, address)
	if err != nil {
		t.Fatal(err)
	}
	defer hand.Close(ctx)
	held, err := hand.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := held.Exec(ctx, `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, blocker); err != nil {
		t.Fatal(err)
	}
	blocked := make(chan error, 1)
	go func() { blocked <- a.AppendMove(ctx, blocker, 1, move(1), store.After{}) }()
	// g's write goes to the writer only once blocker's waits on the hand's
	// lock in a transaction of its own. Were both gathered into one batch
	// with g's write first, that transaction would hold g's lease row (the
	// fence's FOR KEY SHARE), b's takeover below would be told to try
	// again until that transaction ended, and the hand ends it only after
	// the takeover: a deadlock through this test that the database cannot
	// see.
	waitBlockedBy(t, b, hand.PgConn().PID())
	queued := make(chan error, 1)
	go func() { queued <- a.AppendMove(store.WithEpoch(ctx, "g", "a", epoch), "g", 2, move(2), store.After{}) }()

	// b takes the lease once it expires, by the database's clock.
	var taken int64
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(ttl / 4) {
		taken, err = b.Acquire(ctx, "g", "b", time.Minute)
		if !errors.Is(err, ErrLeased) || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || taken != epoch+1 {
		t.Fatalf("b takes the expired lease: epoch %d, %v; want %d", taken, err, epoch+1)
	}
	if err := held.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-blocked; err != nil {
		t.Errorf("the unfenced write of %s: %v", blocker, err)
	}
	if err := <-queued; !errors.Is(err, store.ErrFenced) {
		t.Errorf("a's write queued before the takeover: %v, want ErrFenced", err)
	}
	if err := a.Renew(ctx, "g", "a", epoch, ttl); !errors.Is(err, store.ErrFenced) {
		t.Errorf("a renews the lease b took: %v, want ErrFenced", err)
	}
	// a's release of what it no longer holds leaves b's lease be.
	if err := a.Release(ctx, "g", "a", epoch); err != nil {
		t.Fatal(err)
	}
	if err := b.AppendMove(store.WithEpoch(ctx, "g", "b", taken), "g", 2, move(2), store.After{}); err != nil {
		t.Fatalf("b writes on: %v", err)
	}
	g, err := a.Game(ctx, "g")
	if err != nil || g.Version != 2 || g.Moves[1].Move != move(2).Move {
		t.Errorf("the game: %+v, %v; want a's first move and b's second", g, err)
	}
	if err := b.Renew(ctx, "g", "b", taken, time.Minute); err != nil {
		t.Errorf("b renews its lease: %v", err)
	}
	if _, err := a.Acquire(ctx, "g", "a", ttl); !errors.Is(err, ErrLeased) {
		t.Errorf("a acquires b's live lease: %v, want ErrLeased", err)
	}
}

// waitBlockedBy waits until some connection waits on a lock that the
// connection of backend pid holds. It asks through s's own connections, as
// a transaction sees pg_stat_activity as of its first look.
func waitBlockedBy(t *testing.T, s *Store, pid uint32) {
	t.Helper()
	ctx := context.Background()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		var waiting bool
		err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)))`,
			int64(pid)).Scan(&waiting)
		if err != nil {
			t.Fatalf("who waits on the hand's lock: %v", err)
		}
		if waiting {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no write waits on the hand's lock after a minute")
		}
	}
}
