package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

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
// the game, or when a write under its last holder's lease is still in
// flight (the caller tries again later).
var ErrLeased = errors.New("another node holds the game's lease")

// acquireLockWait bounds how long Acquire waits for the writes in flight
// under the lease's last holder (the fence's lock on the lease row): long
// enough for a batch's commit, short enough that a node taking over games
// is never held by one whose process froze inside a write (whose
// transaction the database ends, sessionLimits).
const acquireLockWait = "500ms"

// Acquire takes the lease on game for node for ttl: a lease nobody holds,
// or that expired, or node's own, which it renews. It returns the lease's
// epoch, the one to write with (store.WithEpoch), or ErrLeased if another
// node holds a live lease or its last holder's write is still in flight.
//
// Taking a lease over locks its row FOR UPDATE, which waits for the
// fence's FOR KEY SHARE of every write in flight under the old lease, so
// that those writes are in the game before the new owner reads it. A
// lease held live by another node is not locked at all: an insert that
// does nothing on a conflict tells that it is there, so that the holder's
// renewals never wait on a node trying its games.
func (s *Store) Acquire(ctx context.Context, game, node string, ttl time.Duration) (epoch int64, err error) {
	if err := checkTTL(ttl); err != nil {
		return 0, fmt.Errorf("acquire the lease on %s: %w", game, err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL lock_timeout = '`+acquireLockWait+`'`); err != nil {
			return err
		}
		var renew bool
		err := tx.QueryRow(ctx, `SELECT epoch, node = $2 AND expires > clock_timestamp() FROM leases
			WHERE game = $1 AND (node = $2 OR expires <= clock_timestamp()) FOR UPDATE`, game, node).Scan(&epoch, &renew)
		if noRows(err) {
			// Never leased, or held live by another node.
			err = tx.QueryRow(ctx, `INSERT INTO leases (game, node, epoch, expires) VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 microsecond')
				ON CONFLICT (game) DO NOTHING RETURNING epoch`, game, node, ttl.Microseconds()).Scan(&epoch)
			if noRows(err) {
				return ErrLeased
			}
			return err
		}
		if err != nil {
			return err
		}
		if !renew {
			epoch++
		}
		_, err = tx.Exec(ctx, `UPDATE leases SET node = $2, epoch = $3, expires = clock_timestamp() + $4 * interval '1 microsecond' WHERE game = $1`,
			game, node, epoch, ttl.Microseconds())
		return err
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "55P03" {
		err = fmt.Errorf("a write under the last lease is in flight: %w", ErrLeased)
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
// writes, and holds the lease's row (FOR KEY SHARE) until that transaction
// ends: a node taking the lease over (Acquire, FOR UPDATE) waits for the
// write to commit, so the write is in the game before the new owner reads
// it. FOR KEY SHARE, the weakest lock, because it does not conflict with
// an UPDATE that leaves the key be: the owner's renewals (RenewAll, Renew,
// Release) never wait on its own writes, nor its writes on its renewals,
// so the two cannot deadlock whatever order they meet the rows in.
func checkFence(ctx context.Context, tx pgx.Tx, f store.Fence) error {
	var held bool
	err := tx.QueryRow(ctx, `SELECT true FROM leases WHERE game = $1 AND node = $2 AND epoch = $3 AND expires > clock_timestamp() FOR KEY SHARE`,
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
