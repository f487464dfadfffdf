package postgres

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// TestRenewAll: a node renews its leases in one statement, and learns
// which it lost: one that expired and was taken by another node, and one
// it names at an epoch it no longer holds.
func TestRenewAll(t *testing.T) {
	ctx := context.Background()
	address := pgtest.URL(t)
	a, b := node(t, address), node(t, address)
	epochs := map[string]int64{}
	for _, g := range []string{"kept", "taken", "old"} {
		if err := a.Create(ctx, storetest.NewGame(g)); err != nil {
			t.Fatal(err)
		}
		epoch, err := a.Acquire(ctx, g, "a", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		epochs[g] = epoch
	}
	// "taken" expires and b takes it; "old" is released and taken back,
	// at a new epoch.
	pgtest.Exec(t, address, `UPDATE leases SET expires = clock_timestamp() WHERE game = 'taken'`)
	if _, err := b.Acquire(ctx, "taken", "b", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(ctx, "old", "a", epochs["old"]); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Acquire(ctx, "old", "a", time.Minute); err != nil {
		t.Fatal(err)
	}
	games := []string{"kept", "taken", "old"}
	lost, err := a.RenewAll(ctx, "a", games, []int64{epochs["kept"], epochs["taken"], epochs["old"]}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lost, []string{"taken", "old"}) {
		t.Errorf("lost %q, want taken and old", lost)
	}
	if node, _, live, err := a.Holder(ctx, "taken"); err != nil || node != "b" || !live {
		t.Errorf("the holder of the game b took: %q %v %v", node, live, err)
	}
	if _, err := a.RenewAll(ctx, "a", games, []int64{1}, time.Minute); err == nil {
		t.Error("renewed with fewer epochs than games")
	}
}
