package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
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

// TestInProgressIndex: the games in progress are indexed for the sweep for
// games nobody holds, in a new database and in one made before the index,
// which gets it when opened; the sweep uses it once finished games are
// many.
func TestInProgressIndex(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		before func(t *testing.T, address string)
	}{
		{"a new database", func(*testing.T, string) {}},
		{"a database made before the index", func(t *testing.T, address string) {
			s, err := Open(ctx, address)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			pgtest.Exec(t, address, `DROP INDEX games_in_progress`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			address := pgtest.URL(t)
			tc.before(t, address)
			s, err := Open(ctx, address)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if n := pgtest.QueryInt(t, address, `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'games_in_progress'`); n != 1 {
				t.Fatalf("%d indexes games_in_progress, want 1", n)
			}
			// Many games over and a few in progress: the sweep's plan
			// reads the index, not the whole table.
			pgtest.Exec(t, address, `INSERT INTO games (id, created, updated, game, options, players, seed, seed_chosen, seats, version, over, summary)
				SELECT 'over' || i, i, i, 'bluelagoon', '', 2, 1, 0, '[]', 0, CASE WHEN i % 100 = 0 THEN 0 ELSE 1 END, '' FROM generate_series(1, 20000) i`)
			pgtest.Exec(t, address, `ANALYZE games`)
			orphans, err := s.Orphans(ctx)
			if err != nil || len(orphans) != 200 {
				t.Fatalf("%d games nobody holds, %v; want 200", len(orphans), err)
			}
			_, rows := pgtest.Conn(t, address).Query(t, `EXPLAIN `+orphansQuery)
			if plan := fmt.Sprint(rows); !strings.Contains(plan, "games_in_progress") {
				t.Errorf("the sweep's plan does not read the index: %s", plan)
			}
		})
	}
}
