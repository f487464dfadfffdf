// Package store keeps Lagoon's games: the contract between the server and
// a store of games (Store, contract.go), the values they exchange, the
// checksums every store writes the same way (checksum.go, rows.go), and the
// default store, in an embedded SQLite database (SQLite), which the rest of
// this comment describes. The PostgreSQL store is in package
// store/postgres, and package store/storetest checks a store against the
// contract.
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
// those in its options and time rule; one written before checksums (up to
// version 3) gets them.
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
// at the same version, and a flag in the row of the move before it, most
// often on the same page; the game's own row changes only with its first
// move, when the game ends or when its seats change.
//
// Every game carries checksums, which a read checks, so that a game read is
// the game written or is reported damaged (checksum.go); a database that
// SQLite cannot read, or one that was emptied, is refused with the way to
// restore it (unreadable.go), and so is one whose write-ahead log is
// damaged where SQLite would silently drop the commits after the damage
// (wal.go).
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

// SQLite is the store in an embedded SQLite database, the default: an open
// database of a data directory. Its methods are safe for concurrent use.
type SQLite struct {
	write      *sql.DB   // one connection, used only by the writer goroutine
	path       string    // the database's file
	head       *sql.Stmt // a game's state for AppendMove, prepared on write
	insertMove *sql.Stmt
	follow     *sql.Stmt // marks a move as followed, or not
	moveFollow *sql.Stmt // brings the seats' lines to a move (MoveFollow)
	read       *sql.DB
	checkpoint *sql.DB // one connection, used only by the checkpointer
	ops        chan op
	restart    chan struct{} // the checkpointer asks the writer to finish a checkpoint
	dirty      chan struct{} // the writer tells the checkpointer the log grew
	stop       chan struct{}
	done       sync.WaitGroup
	lock       *os.File // the data directory's lock, held while open
}

// errInUse is the error of a data directory another lagoon holds (lockDir).
var errInUse = errors.New("in use by another lagoon")

// Open opens (creating it if needed) the database lagoon.db in dir. It
// refuses a database that was emptied (see checkEmptied) and one whose log
// SQLite would read only in part (ErrLogDamaged, see checkLog), and names
// one that SQLite cannot read with the way to restore it (ErrUnreadable).
func Open(dir string) (*SQLite, error) {
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
func openDB(dir string) (*SQLite, error) {
	path := filepath.Join(dir, "lagoon.db")
	if err := checkEmptied(path); err != nil {
		return nil, err
	}
	// Before SQLite reads the log, which, once read, it would copy into
	// the database and start afresh, dropping for good what it could not
	// read.
	if err := checkLog(path); err != nil {
		return nil, err
	}
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
	s := &SQLite{path: path, ops: make(chan op), restart: make(chan struct{}, 1), dirty: make(chan struct{}, 1), stop: make(chan struct{})}
	fail := func(err error) (*SQLite, error) {
		for _, db := range []*sql.DB{s.write, s.read, s.checkpoint} {
			if db != nil {
				db.Close()
			}
		}
		if err := s.unreadable(err); errors.Is(err, ErrUnreadable) {
			return nil, err
		}
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	var err error
	if s.write, err = open("&_txlock=immediate", 1); err != nil {
		return fail(err)
	}
	if err := migrate(s.write); err != nil {
		return fail(err)
	}
	for stmt, query := range map[**sql.Stmt]string{
		// The last move, by the key read backwards: no sort, no table made.
		&s.head:       `SELECT g.over, coalesce(m.version, 0), m.hash FROM games g LEFT JOIN moves m ON m.game = g.id WHERE g.id = ?1 ORDER BY m.version DESC LIMIT 1`,
		&s.insertMove: `INSERT INTO moves (game, version, seat, move, at, clocks, by_time, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		&s.follow:     `UPDATE moves SET followed = ? WHERE game = ? AND version = ?`,
		&s.moveFollow: MoveFollow,
	} {
		if *stmt, err = s.write.Prepare(query); err != nil {
			return fail(err)
		}
	}
	if s.read, err = open("&_pragma=query_only(1)", 4); err != nil {
		return fail(err)
	}
	if s.checkpoint, err = open("", 1); err != nil {
		return fail(err)
	}
	s.done.Go(s.writer)
	s.done.Go(s.checkpointer)
	return s, nil
}

// Close finishes the writes under way, copies the log into the database and
// closes it.
func (s *SQLite) Close() error {
	close(s.stop)
	s.done.Wait()
	_, err := s.write.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	err = errors.Join(err, s.head.Close(), s.insertMove.Close(), s.follow.Close(), s.moveFollow.Close(), s.checkpoint.Close(), s.read.Close(), s.write.Close())
	if s.lock != nil {
		err = errors.Join(err, s.lock.Close())
	}
	return err
}
