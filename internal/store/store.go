// Package store keeps Lagoon's games in an embedded SQLite database.
//
// A game is stored as what decides it, its setup (which game, its options,
// the number of players, the seed) and its moves in the game's notation,
// plus the metadata that the rules do not know about (seats, the time rule,
// clocks, times): replaying the moves gives every state, so nothing derived
// is stored except a small summary for the lobby. The store names no game:
// a game is an id and options, which the server reads through the game
// contract.
//
// The database carries its schema's version (PRAGMA user_version), and
// Open brings an older database up to date: a database written before
// games had ids and options (version 0, Blue Lagoon's board, first seat and
// clock in columns of their own) becomes one of Blue Lagoon's games with
// those in its options and time rule.
//
// All writes go through one goroutine and one connection, which gathers the
// writes that arrive while a commit is in flight into the next transaction
// (group commit). Each write still runs in a savepoint of its own, so one
// failing write does not fail the others, and each caller learns whether its
// own write is durable. With synchronous=FULL a commit returns only after the
// write-ahead log is on disk, so a move acknowledged after AppendMove returns
// survives a crash of the process or the machine; group commit is what makes
// that affordable, one fsync for many moves.
//
// Moves are what the store writes most, so a move writes as little as it can:
// one row in the moves table, whose key (game, version) refuses a second move
// at the same version; the game's own row changes only when the game ends or
// its seats change.
//
// SQLite would copy the log into the database (a checkpoint) inside whichever
// commit fills it, holding that commit, and every move waiting on it, for
// tens of milliseconds. The store turns that off: a connection of its own
// copies the log in the background, and once the log is long the writer,
// between two transactions, copies the little that is left, so that the next
// transaction starts the log afresh.
package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	_ "modernc.org/sqlite" // the pure Go SQLite driver, registered as "sqlite"
)

// ErrNotFound is returned for a game that is not in the database.
var ErrNotFound = errors.New("no such game")

// ErrConflict is returned when a write does not follow the stored game: a
// move whose version is not the next one, or a game id that exists already.
var ErrConflict = errors.New("write conflicts with the stored game")

// ErrClosed is returned by writes after Close.
var ErrClosed = errors.New("store is closed")

// Store is an open database. Its methods are safe for concurrent use.
type Store struct {
	write      *sql.DB   // one connection, used only by the writer goroutine
	head       *sql.Stmt // a game's state for AppendMove, prepared on write
	insertMove *sql.Stmt
	read       *sql.DB
	checkpoint *sql.DB // one connection, used only by the checkpointer
	ops        chan op
	restart    chan struct{} // the checkpointer asks the writer to finish a checkpoint
	stop       chan struct{}
	done       sync.WaitGroup
	lock       *os.File // the data directory's lock, held while open
}

// Open opens (creating it if needed) the database lagoon.db in dir.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	s, err := openDB(dir)
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		return nil, err
	}
	s.lock = lock
	return s, nil
}

// openDB opens the database in dir, which the caller has locked.
func openDB(dir string) (*Store, error) {
	path := filepath.Join(dir, "lagoon.db")
	pragmas := "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=wal_autocheckpoint(0)"
	open := func(extra string, conns int) (*sql.DB, error) {
		db, err := sql.Open("sqlite", "file:"+path+"?"+pragmas+extra)
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(conns)
		db.SetMaxIdleConns(conns)
		db.SetConnMaxLifetime(0)
		return db, nil
	}
	w, err := open("&_txlock=immediate", 1)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := migrate(w); err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	head, err := w.Prepare(`SELECT over, coalesce((SELECT max(version) FROM moves WHERE game = ?1), 0) FROM games WHERE id = ?1`)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	insertMove, err := w.Prepare(`INSERT INTO moves (game, version, seat, move, at, clocks, by_time) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	r, err := open("&_pragma=query_only(1)", 4)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	c, err := open("", 1)
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	s := &Store{write: w, head: head, insertMove: insertMove, read: r, checkpoint: c, ops: make(chan op), restart: make(chan struct{}, 1), stop: make(chan struct{})}
	s.done.Go(s.writer)
	s.done.Go(s.checkpointer)
	return s, nil
}

// Close finishes the writes under way, copies the log into the database and
// closes it.
func (s *Store) Close() error {
	close(s.stop)
	s.done.Wait()
	_, err := s.write.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	err = errors.Join(err, s.head.Close(), s.insertMove.Close(), s.checkpoint.Close(), s.read.Close(), s.write.Close())
	if s.lock != nil {
		err = errors.Join(err, s.lock.Close())
	}
	return err
}
