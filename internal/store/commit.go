package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// This file holds the writer: group commit, and the checkpoints that keep
// the log short (see the package comment).

// op is one write: fn runs inside the batch's transaction and the result is
// sent on done once the transaction is committed (or not).
type op struct {
	fn   func(tx *sql.Tx) error
	done chan error
}

// batchLimit bounds the writes committed in one transaction.
const batchLimit = 512

// Checkpoints: the log is copied into the database every checkpointEvery,
// and started afresh once it holds restartFrames pages (4 MiB).
const (
	checkpointEvery = 250 * time.Millisecond
	restartFrames   = 1024
)

// checkpointer copies the log into the database checkpointEvery after a
// commit, and again every checkpointEvery while a pass leaves frames
// uncopied, so that the log holds at most that much acknowledged work
// SQLite has not copied. It waits for a commit rather than ticking: an
// idle store wakes nobody (a server's games over days mostly idle, and
// the tests' fake clock would otherwise run the checkpointer four times
// a simulated second). A passive checkpoint never waits for the writer
// nor makes it wait, but while moves keep coming it never quite catches
// up, and the log only starts afresh after a checkpoint that did: once
// the log is long, the checkpointer asks the writer to copy the rest
// itself.
func (s *SQLite) checkpointer() {
	t := time.NewTimer(checkpointEvery)
	t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-s.dirty:
		}
		t.Reset(checkpointEvery)
		select {
		case <-s.stop:
			t.Stop()
			return
		case <-t.C:
		}
		var busy, frames, copied int
		if err := s.checkpoint.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil || copied < frames {
			s.grew()
		}
		if frames >= restartFrames {
			select {
			case s.restart <- struct{}{}:
			default:
			}
		}
	}
}

// grew tells the checkpointer the log holds frames not yet copied; a
// signal already waiting stands for this one.
func (s *SQLite) grew() {
	select {
	case s.dirty <- struct{}{}:
	default:
	}
}

// exec runs fn in a transaction, together with other writes, and returns once
// it is durable or has failed. It refuses a fenced write (WithEpoch).
func (s *SQLite) exec(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if f, ok := FenceOf(ctx); ok {
		return fmt.Errorf("the SQLite store keeps no leases, so cannot check that %s holds game %s at epoch %d: %w", f.Node, f.Game, f.Epoch, ErrFenced)
	}
	o := op{fn: fn, done: make(chan error, 1)}
	select {
	case s.ops <- o:
	case <-s.stop:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once handed over, the write goes ahead whatever the caller's context
	// says: waiting for it is what tells the caller the truth.
	return <-o.done
}

// writer commits the writes in batches until Close.
func (s *SQLite) writer() {
	for {
		var batch []op
		select {
		case o := <-s.ops:
			batch = append(batch, o)
		case <-s.restart:
			// What is left to copy is what came since the checkpointer's
			// last pass; the next transaction then restarts the log.
			s.write.Exec("PRAGMA wal_checkpoint(PASSIVE)")
			continue
		case <-s.stop:
			return
		}
	gather:
		for len(batch) < batchLimit {
			select {
			case o := <-s.ops:
				batch = append(batch, o)
			default:
				break gather
			}
		}
		s.commit(batch)
		s.grew()
	}
}

// commit runs a batch of writes in one transaction, each in a savepoint.
func (s *SQLite) commit(batch []op) {
	errs := make([]error, len(batch))
	err := func() error {
		tx, err := s.write.Begin()
		if err != nil {
			return err
		}
		for i, o := range batch {
			if _, err := tx.Exec("SAVEPOINT op"); err != nil {
				tx.Rollback()
				return err
			}
			errs[i] = o.fn(tx)
			undo := "RELEASE op"
			if errs[i] != nil {
				undo = "ROLLBACK TO op; RELEASE op"
			}
			if _, err := tx.Exec(undo); err != nil {
				tx.Rollback()
				return err
			}
		}
		return tx.Commit()
	}()
	for i, o := range batch {
		if err != nil {
			o.done <- fmt.Errorf("commit: %w", err)
			continue
		}
		o.done <- errs[i]
	}
}
