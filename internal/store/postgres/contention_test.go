package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// These tests are of what several nodes' sessions do to each other's
// locks (issue 47): a node's renewals beside its own moves, a node frozen
// inside a transaction, and a write the database picks as a deadlock's
// victim.

// leased makes games on s, each leased to node for a minute, and returns
// their epochs.
func leased(t *testing.T, s *Store, node string, games []string) []int64 {
	t.Helper()
	ctx := context.Background()
	var epochs []int64
	for _, g := range games {
		if err := s.Create(ctx, storetest.NewGame(g)); err != nil {
			t.Fatal(err)
		}
		epoch, err := s.Acquire(ctx, g, node, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		epochs = append(epochs, epoch)
	}
	return epochs
}

// TestRenewalsBesideMovesNeverFail: a node renews all its leases in a loop
// while its games' fenced moves are written in batches of many games: no
// move and no renewal fails. (The fence's lock on a lease row and the
// renewal's once met in opposite orders: PostgreSQL broke the deadlock by
// failing one side, 40P01, a move answered 500 or a renewal missed.)
func TestRenewalsBesideMovesNeverFail(t *testing.T) {
	ctx := context.Background()
	s := node(t, pgtest.URL(t))
	var games []string
	for i := range 48 {
		games = append(games, fmt.Sprint("g", i))
	}
	epochs := leased(t, s, "a", games)
	const moves = 12
	done := make(chan struct{})
	renewErrs := make(chan error, 1)
	go func() {
		defer close(renewErrs)
		for {
			select {
			case <-done:
				return
			default:
			}
			order := rand.Perm(len(games))
			ids, eps := make([]string, len(games)), make([]int64, len(games))
			for i, j := range order {
				ids[i], eps[i] = games[j], epochs[j]
			}
			lost, err := s.RenewAll(ctx, "a", ids, eps, time.Minute)
			if err == nil && len(lost) > 0 {
				err = fmt.Errorf("renewing lost %v", lost)
			}
			if err != nil {
				renewErrs <- err
				return
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, len(games)*moves)
	for i, g := range games {
		wg.Go(func() {
			fenced := store.WithEpoch(ctx, g, "a", epochs[i])
			for v := 1; v <= moves; v++ {
				if err := s.AppendMove(fenced, g, v, move(v), store.After{Seats: []store.Seat{{Name: "x"}}}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(done)
	close(errs)
	for err := range errs {
		t.Errorf("a move: %v", err)
	}
	for err := range renewErrs {
		t.Errorf("a renewal: %v", err)
	}
}

// TestFrozenTransactionEnded: a node frozen inside one of the store's
// transactions, just past the fence's check (as kill -STOP left one "idle
// in transaction", holding its games' lease rows), neither holds another
// node's takeover for long nor writes when it wakes: the database ends
// the frozen session, another node's Acquire is answered at once
// meanwhile (busy, never a wait for the caller's whole context) and takes
// the lease once it expires, and the frozen write is not in the game.
func TestFrozenTransactionEnded(t *testing.T) {
	ctx := context.Background()
	address := pgtest.URL(t)
	a, b := node(t, address), node(t, address)
	if err := a.Create(ctx, storetest.NewGame("g")); err != nil {
		t.Fatal(err)
	}
	epoch, err := a.Acquire(ctx, "g", "a", 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	// The frozen node: one of a's own sessions, stopped inside its
	// transaction after the fence's check.
	conn, err := a.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	frozen, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkFence(ctx, frozen, store.Fence{Game: "g", Node: "a", Epoch: epoch}); err != nil {
		t.Fatal(err)
	}
	// b tries as a node's sweep does, each try bounded far above what an
	// answer takes: a try that waits it out is a takeover stuck behind the
	// frozen node.
	var taken int64
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		try, cancel := context.WithTimeout(ctx, 20*time.Second)
		taken, err = b.Acquire(try, "g", "b", time.Minute)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("b's takeover waited on the frozen node's transaction for its whole context: %v", err)
		}
		if !errors.Is(err, ErrLeased) || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || taken != epoch+1 {
		t.Fatalf("b takes the lease: epoch %d, %v; want %d", taken, err, epoch+1)
	}
	// The frozen node wakes and writes on: its session is gone.
	row, err := store.MoveRow(nil, "g", 1, move(1))
	if err == nil {
		_, err = frozen.Exec(ctx, insertMove, append(row, int64(0))...)
	}
	if err == nil {
		err = frozen.Commit(ctx)
	}
	if err == nil {
		t.Error("the frozen transaction committed after another node took the lease")
	}
	g, err := b.Game(ctx, "g")
	if err != nil || g.Version != 0 {
		t.Errorf("the game: %+v, %v; want it without the frozen node's move", g, err)
	}
}

// TestDeadlockVictimRetried: a write that PostgreSQL fails to break a
// deadlock (40P01) is tried again inside the store, not refused: a hand
// locks a game's row, the store's fenced move waits on it holding the
// game's lease row, and the hand then asks for that lease row; the store's
// transaction, waiting longest, is the victim, and the move is stored
// once the hand has committed.
func TestDeadlockVictimRetried(t *testing.T) {
	ctx := context.Background()
	address := pgtest.URL(t)
	s := node(t, address)
	epochs := leased(t, s, "a", []string{"g"})
	hand, err := pgx.Connect(ctx, address)
	if err != nil {
		t.Fatal(err)
	}
	defer hand.Close(ctx)
	held, err := hand.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The hand never gives way: the store's session detects the cycle.
	if _, err := held.Exec(ctx, `SET LOCAL deadlock_timeout = '1min'`); err != nil {
		t.Fatal(err)
	}
	if _, err := held.Exec(ctx, `SELECT 1 FROM games WHERE id = 'g' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	wrote := make(chan error, 1)
	go func() {
		wrote <- s.AppendMove(store.WithEpoch(ctx, "g", "a", epochs[0]), "g", 1, move(1), store.After{})
	}()
	waitBlockedBy(t, s, hand.PgConn().PID())
	if _, err := held.Exec(ctx, `SELECT 1 FROM leases WHERE game = 'g' FOR UPDATE`); err != nil {
		t.Fatalf("the hand's lock on the lease: %v", err)
	}
	if err := held.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-wrote; err != nil {
		t.Fatalf("the move the database picked as a deadlock's victim: %v", err)
	}
	if g, err := s.Game(ctx, "g"); err != nil || g.Version != 1 {
		t.Errorf("the game: %+v, %v; want its move", g, err)
	}
}

// TestSessionLimits: every session of the store has the limits that end a
// frozen node's transactions, unless its address sets them otherwise.
func TestSessionLimits(t *testing.T) {
	address := pgtest.URL(t)
	for _, tc := range []struct {
		name, query                    string
		wantStatement, wantIdleInTrans string
	}{
		{"default", "", "10s", "2s"},
		{"set by the address", "statement_timeout=0&idle_in_transaction_session_timeout=5000", "0", "5s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := address
			if tc.query != "" {
				addr += "&" + tc.query
			}
			s := node(t, addr)
			var statement, idle string
			err := s.pool.QueryRow(context.Background(), `SELECT current_setting('statement_timeout'), current_setting('idle_in_transaction_session_timeout')`).Scan(&statement, &idle)
			if err != nil {
				t.Fatal(err)
			}
			if statement != tc.wantStatement || idle != tc.wantIdleInTrans {
				t.Errorf("statement_timeout %s, idle_in_transaction_session_timeout %s; want %s and %s", statement, idle, tc.wantStatement, tc.wantIdleInTrans)
			}
		})
	}
}
