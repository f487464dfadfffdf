package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lagoon-games/lagoon/internal/store"
)

// This file holds the leases on games: which node owns a game, until
// when, and the fencing epoch that makes a write of an owner that lost its
// lease fail (docs/architecture.md, Fencing).
//
// A lease is a row of leases: game, node, epoch, expires. Whether it has
// expired is judged by the database's clock alone (clock_timestamp(), at
// the moment of each statement), never by a node's, so that a node whose
// clock drifts or whose process stalls cannot think it still holds a lease
// the database gave away. The epoch grows by one whenever a lease is taken
// other than by renewing it: a change of owner always, and also a node
// taking back a lease it let expire or released, since writes it queued
// under the old epoch must not land. A released lease keeps its row, so
// that the epoch never goes back.

// ErrLeased is returned by Acquire when another node holds a live lease on
// the game.
var ErrLeased = errors.New("another node holds the game's lease")

// Acquire takes the lease on game for node for ttl: a lease nobody holds,
// or that expired, or node's own, which it renews. It returns the lease's
// epoch, the one to write with (store.WithEpoch), or ErrLeased if another
// node holds a live lease.
func (s *Store) Acquire(ctx context.Context, game, node string, ttl time.Duration) (epoch int64, err error) {
	if err := checkTTL(ttl); err != nil {
		return 0, fmt.Errorf("acquire the lease on %s: %w", game, err)
	}
	err = s.pool.QueryRow(ctx, `
		INSERT INTO leases AS l (game, node, epoch, expires) VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 microsecond')
		ON CONFLICT (game) DO UPDATE SET
			epoch = CASE WHEN l.node = excluded.node AND l.expires > clock_timestamp() THEN l.epoch ELSE l.epoch + 1 END,
			node = excluded.node,
			expires = excluded.expires
		WHERE l.node = excluded.node OR l.expires <= clock_timestamp()
		RETURNING epoch`, game, node, ttl.Microseconds()).Scan(&epoch)
	if noRows(err) {
		return 0, fmt.Errorf("acquire the lease on %s for %s: %w", game, node, ErrLeased)
	}
	if err != nil {
		return 0, fmt.Errorf("acquire the lease on %s for %s: %w", game, node, err)
	}
	return epoch, nil
}

// Renew extends node's lease on game at epoch to ttl from now, if it still
// holds it: otherwise (it expired, or another node took it) it fails with
// store.ErrFenced and node must give the game up.
func (s *Store) Renew(ctx context.Context, game, node string, epoch int64, ttl time.Duration) error {
	if err := checkTTL(ttl); err != nil {
		return fmt.Errorf("renew the lease on %s: %w", game, err)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE leases SET expires = clock_timestamp() + $4 * interval '1 microsecond'
		WHERE game = $1 AND node = $2 AND epoch = $3 AND expires > clock_timestamp()`, game, node, epoch, ttl.Microseconds())
	if err != nil {
		return fmt.Errorf("renew the lease on %s for %s: %w", game, node, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("renew the lease on %s for %s at epoch %d: %w", game, node, epoch, store.ErrFenced)
	}
	return nil
}

// Release gives up node's lease on game at epoch, so that another node may
// take it at once. A lease node no longer holds is left as it is.
func (s *Store) Release(ctx context.Context, game, node string, epoch int64) error {
	_, err := s.pool.Exec(ctx, `UPDATE leases SET expires = clock_timestamp()
		WHERE game = $1 AND node = $2 AND epoch = $3 AND expires > clock_timestamp()`, game, node, epoch)
	if err != nil {
		return fmt.Errorf("release the lease on %s for %s: %w", game, node, err)
	}
	return nil
}

// checkFence fails with store.ErrFenced unless f's node holds the lease
// on f's game at f's epoch, unexpired. It runs in the transaction that
// writes, and holds the lease's row (FOR SHARE) until that transaction
// ends: a node taking the lease over waits for the write to commit, so the
// write is in the game before the new owner reads it.
func checkFence(ctx context.Context, tx pgx.Tx, f store.Fence) error {
	var held bool
	err := tx.QueryRow(ctx, `SELECT true FROM leases WHERE game = $1 AND node = $2 AND epoch = $3 AND expires > clock_timestamp() FOR SHARE`,
		f.Game, f.Node, f.Epoch).Scan(&held)
	if noRows(err) {
		return fmt.Errorf("%s's lease on %s at epoch %d: %w", f.Node, f.Game, f.Epoch, store.ErrFenced)
	}
	return err
}

// checkTTL refuses a lease time that could not be one.
func checkTTL(ttl time.Duration) error {
	if ttl < time.Millisecond {
		return fmt.Errorf("lease time %v: less than a millisecond", ttl)
	}
	return nil
}
