package postgres

import (
	"context"
	"fmt"

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

// Orphans returns the ids of the games in progress (neither over nor
// expired) whose lease has expired or that were never leased: those whose
// owner is gone, for another node to take over.
func (s *Store) Orphans(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT g.id FROM games g LEFT JOIN leases l ON l.game = g.id
		WHERE g.over <> 1 AND g.expired <> 1 AND (l.game IS NULL OR l.expires <= clock_timestamp()) ORDER BY g.id`)
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
