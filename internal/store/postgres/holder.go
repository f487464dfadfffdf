package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lagoon-games/lagoon/internal/store"
)

// This file holds what a node of a cluster reads of the others' games:
// who holds a game's lease, the games in progress nobody holds, and the
// games in progress for the lobby (docs/cluster.md).

// Holder returns the node holding the lease on game and its epoch, and
// whether the lease is live by the database's clock. A game never leased
// has no holder: "" and not live.
func (s *Store) Holder(ctx context.Context, game string) (node string, epoch int64, live bool, err error) {
	err = s.pool.QueryRow(ctx, `SELECT node, epoch, expires > clock_timestamp() FROM leases WHERE game = $1`, game).Scan(&node, &epoch, &live)
	if noRows(err) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, fmt.Errorf("read the lease on %s: %w", game, err)
	}
	return node, epoch, live, nil
}

// RenewAll extends node's leases on games, each at its epoch (epochs[i]
// is games[i]'s), to ttl from now, in one statement, and returns the games
// whose lease node no longer holds at that epoch (expired, or taken by
// another node): node must give them up, as Renew's store.ErrFenced says of
// one. A node renewing thousands of leases every few seconds makes one
// round trip, not thousands.
func (s *Store) RenewAll(ctx context.Context, node string, games []string, epochs []int64, ttl time.Duration) (lost []string, err error) {
	if len(games) != len(epochs) {
		return nil, fmt.Errorf("renew %d leases with %d epochs", len(games), len(epochs))
	}
	if err := checkTTL(ttl); err != nil {
		return nil, fmt.Errorf("renew the leases of %s: %w", node, err)
	}
	rows, err := s.pool.Query(ctx, `UPDATE leases l SET expires = clock_timestamp() + $4 * interval '1 microsecond'
		FROM unnest($2::text[], $3::bigint[]) AS r(game, epoch)
		WHERE l.game = r.game AND l.epoch = r.epoch AND l.node = $1 AND l.expires > clock_timestamp()
		RETURNING l.game`, node, games, epochs, ttl.Microseconds())
	if err != nil {
		return nil, fmt.Errorf("renew the leases of %s: %w", node, err)
	}
	renewed, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("renew the leases of %s: %w", node, err)
	}
	held := make(map[string]bool, len(renewed))
	for _, g := range renewed {
		held[g] = true
	}
	for _, g := range games {
		if !held[g] {
			lost = append(lost, g)
		}
	}
	return lost, nil
}

// orphansQuery reads the games in progress that nobody holds. Its
// conditions on games are those of the index games_in_progress (schema.go),
// which it reads.
const orphansQuery = `SELECT g.id FROM games g LEFT JOIN leases l ON l.game = g.id
	WHERE g.over <> 1 AND g.expired <> 1 AND (l.game IS NULL OR l.expires <= clock_timestamp()) ORDER BY g.id`

// Orphans returns the ids of the games in progress (neither over nor
// expired) whose lease has expired or that were never leased: those whose
// owner is gone, for another node to take over.
func (s *Store) Orphans(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, orphansQuery)
	if err != nil {
		return nil, fmt.Errorf("read the games nobody holds: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("read the games nobody holds: %w", err)
	}
	return ids, nil
}

// Playing reads the limit games in progress created last, newest first,
// without their moves, and apart those among them that are damaged: the
// lobby of a cluster, whose games are on every node.
func (s *Store) Playing(ctx context.Context, limit int) (games []*store.Game, damaged []store.Damaged, _ error) {
	err := s.read(ctx, func(tx pgx.Tx) error {
		var err error
		games, damaged, err = list(ctx, tx, `SELECT `+store.GameColumns+` FROM games WHERE over <> 1 AND expired <> 1 ORDER BY created DESC, `+byID+` LIMIT $1`, limit)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read games in progress: %w", err)
	}
	return games, damaged, nil
}
