// Package postgres is the store of games in PostgreSQL, for Lagoon's
// nodes that share one database (docs/architecture.md, The store). It
// keeps the contract of package store as the SQLite store keeps it, the
// same rows with the same checksums (a game copied from one to the other
// verifies in both), and adds the leases on games that let several nodes
// share the games, one owner a game, with a fencing epoch (lease.go).
//
// Writes are committed in groups, as the SQLite store commits them: a few
// writer goroutines, each with a connection of its own, gather the writes
// that arrive while a commit is in flight into the next transaction, each
// write in a savepoint of its own, so that one failing write does not fail
// the others and each caller learns whether its own write is durable (a
// commit returns once PostgreSQL has the log on disk, with its default
// synchronous_commit). A game's writes all go through the same writer (by
// a hash of its id), so that they keep their order and no two of the
// store's transactions ever wait on each other's rows.
//
// Reads run in a read-only repeatable-read transaction, so that a game's
// row and its moves are read as of one moment.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lagoon-games/lagoon/internal/store"
)

// writers is the number of writer goroutines, and so of connections
// writing at once. Each commit waits for PostgreSQL's log to reach the
// disk; a few writers keep the next batch going meanwhile.
const writers = 4

// batchLimit bounds the writes committed in one transaction.
const batchLimit = 512

// batchTimeout bounds a batch's transaction: a database that no longer
// answers fails the writes waiting on it, rather than holding them forever.
const batchTimeout = 30 * time.Second

// connectTimeout bounds the connection to the database at Open, when the
// address does not say (connect_timeout).
const connectTimeout = 10 * time.Second

// sessionLimits are set on every session of the store, unless the address
// sets them, so that a node frozen (SIGSTOP, a stalled machine) while one
// of its sessions is inside a transaction does not hold that
// transaction's locks, its games' lease rows among them, for as long as
// it is frozen: the database ends a statement that runs past
// statement_timeout and a session left idle inside a transaction past
// idle_in_transaction_session_timeout (rolling it back). A node does
// nothing slow inside a transaction, so the idle limit is short: under
// the lease time (6 s), so that the frozen node's locks are gone before
// its leases expire and another node takes its games over. A statement
// longer than the limit is a database that cannot keep up, whose writes
// fail anyway within batchTimeout. (The values are PostgreSQL's, in
// milliseconds.)
var sessionLimits = map[string]string{
	"statement_timeout":                   "10000",
	"idle_in_transaction_session_timeout": "2000",
}

// tries bounds the tries of a batch the database aborted to break a
// deadlock or a serialisation failure (retryable): such a batch is tried
// again, whole, rather than its writes failed.
const tries = 5

// Store is the store in a PostgreSQL database. Its methods are safe for
// concurrent use.
type Store struct {
	pool *pgxpool.Pool
	ops  [writers]chan op
	stop chan struct{}
	done sync.WaitGroup
}

var _ store.Store = (*Store)(nil)

// op is one write: fn runs inside the batch's transaction, and the result
// is sent on done once the transaction is committed (or not).
type op struct {
	fn   func(ctx context.Context, tx pgx.Tx) error
	done chan error
}

// Open connects to the PostgreSQL database at address, a postgres:// URL
// (its search_path parameter, if any, names the schema of the tables), and
// makes its tables if it has none. It fails, writing nothing, for an
// address that does not answer, credentials the database refuses, or a
// database whose tables are of a newer schema than this store's.
func Open(ctx context.Context, address string) (*Store, error) {
	name := redacted(address)
	cfg, err := pgxpool.ParseConfig(address)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", name, err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	for k, v := range sessionLimits {
		if _, set := cfg.ConnConfig.RuntimeParams[k]; !set {
			cfg.ConnConfig.RuntimeParams[k] = v
		}
	}
	if cfg.MaxConns < writers+4 {
		cfg.MaxConns = writers + 4
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", name, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open store %s: %w", name, err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open store %s: %w", name, err)
	}
	s := &Store{pool: pool, stop: make(chan struct{})}
	for i := range s.ops {
		s.ops[i] = make(chan op)
		s.done.Go(func() { s.writer(s.ops[i]) })
	}
	return s, nil
}

// redacted returns address with its password, if any, left out, to name
// the database in errors and logs.
func redacted(address string) string {
	u, err := url.Parse(address)
	if err != nil {
		return "(an address that does not parse)"
	}
	return u.Redacted()
}

// Close finishes the writes under way and closes the connections.
func (s *Store) Close() error {
	close(s.stop)
	s.done.Wait()
	s.pool.Close()
	return nil
}

// exec runs fn in a transaction of game id's writer, together with other
// writes, and returns once it is durable or has failed. A write fenced by
// ctx (store.WithEpoch) first checks the lease, in the same transaction.
func (s *Store) exec(ctx context.Context, id string, fn func(ctx context.Context, tx pgx.Tx) error) error {
	fence, fenced, err := store.CheckFenceGame(ctx, id)
	if err != nil {
		return err
	}
	if fenced {
		write := fn
		fn = func(ctx context.Context, tx pgx.Tx) error {
			if err := checkFence(ctx, tx, fence); err != nil {
				return err
			}
			return write(ctx, tx)
		}
	}
	o := op{fn: fn, done: make(chan error, 1)}
	select {
	case s.ops[writerOf(id)] <- o:
	case <-s.stop:
		return store.ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once handed over, the write goes ahead whatever the caller's context
	// says: waiting for it is what tells the caller the truth.
	return <-o.done
}

// writerOf returns the writer of game id's writes.
func writerOf(id string) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % writers)
}

// writer commits the writes of ops in batches until Close.
func (s *Store) writer(ops chan op) {
	for {
		var batch []op
		select {
		case o := <-ops:
			batch = append(batch, o)
		case <-s.stop:
			return
		}
	gather:
		for len(batch) < batchLimit {
			select {
			case o := <-ops:
				batch = append(batch, o)
			default:
				break gather
			}
		}
		s.commit(batch)
	}
}

// commit runs a batch of writes in one transaction, tried again whole (up
// to tries times) while the database aborts it to break a deadlock or a
// serialisation failure, and tells each write its outcome.
func (s *Store) commit(batch []op) {
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	var errs []error
	var err error
	for try := 1; ; try++ {
		errs, err = s.try(ctx, batch)
		if try == tries || ctx.Err() != nil || !retryable(err) && !slices.ContainsFunc(errs, retryable) {
			break
		}
		// Apart a little, so that the transactions that met do not meet
		// again at once.
		time.Sleep(time.Duration(try) * time.Duration(1+rand.N(10)) * time.Millisecond)
	}
	if i := slices.IndexFunc(errs, retryable); err == nil && i >= 0 {
		// Tried for the last time and rolled back: none of the batch is
		// written.
		err = errs[i]
	}
	for i, o := range batch {
		if err != nil {
			o.done <- fmt.Errorf("commit: %w", err)
			continue
		}
		o.done <- errs[i]
	}
}

// try runs a batch of writes in one transaction, each in a savepoint
// unless it is alone, and returns each write's error and the
// transaction's. The savepoint "op" is moved past each write that
// succeeds (one round trip: release it and make it anew) and left where it
// is when a write fails, rolled back to; the last write needs no release,
// as the commit ends them all. A write failed as retryable fails the
// whole transaction, rolled back so that it may be tried again.
func (s *Store) try(ctx context.Context, batch []op) ([]error, error) {
	errs := make([]error, len(batch))
	err := func() error {
		tx, err := s.pool.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		if len(batch) == 1 {
			// A write alone needs no savepoint: it fails alone.
			if errs[0] = batch[0].fn(ctx, tx); errs[0] != nil {
				return nil
			}
			return tx.Commit(ctx)
		}
		if _, err := tx.Exec(ctx, "SAVEPOINT op"); err != nil {
			return err
		}
		for i, o := range batch {
			errs[i] = o.fn(ctx, tx)
			if retryable(errs[i]) {
				return nil
			}
			next := ""
			switch {
			case errs[i] != nil:
				next = "ROLLBACK TO SAVEPOINT op"
			case i < len(batch)-1:
				next = "RELEASE SAVEPOINT op; SAVEPOINT op"
			}
			if next == "" {
				continue
			}
			if _, err := tx.Exec(ctx, next); err != nil {
				return err
			}
		}
		return tx.Commit(ctx)
	}()
	return errs, err
}

// retryable says err is the database's aborting a transaction that may
// succeed when tried again: a deadlock broken (40P01) or a serialisation
// failure (40001).
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// read runs fn in a read-only transaction that sees the database as of
// one moment.
func (s *Store) read(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// noRows says err is a query's finding no row.
func noRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }
