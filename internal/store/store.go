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
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the pure Go SQLite driver, registered as "sqlite"
)

// ErrNotFound is returned for a game that is not in the database.
var ErrNotFound = errors.New("no such game")

// ErrConflict is returned when a write does not follow the stored game: a
// move whose version is not the next one, or a game id that exists already.
var ErrConflict = errors.New("write conflicts with the stored game")

// ErrClosed is returned by writes after Close.
var ErrClosed = errors.New("store is closed")

// Seat is a seat of a stored game.
type Seat struct {
	Kind      string `json:"kind"` // "human", "open", "bot" or "house" (the rules play it)
	Name      string `json:"name"`
	Level     string `json:"level,omitempty"`
	TokenHash string `json:"token_hash,omitempty"`
	Joined    bool   `json:"joined,omitempty"`
	StandIn   bool   `json:"stand_in,omitempty"`
}

// Time is a game's time rule: a chess clock ("bank": a bank of InitialMS a
// seat, IncrementMS more when its turn ends) or a turn timer ("turn":
// TurnMS a turn, plus what the last turn left with Carry).
type Time struct {
	Kind        string `json:"kind"`
	InitialMS   int64  `json:"initial_ms,omitempty"`
	IncrementMS int64  `json:"increment_ms,omitempty"`
	TurnMS      int64  `json:"turn_ms,omitempty"`
	Carry       bool   `json:"carry,omitempty"`
}

// Summary is what the lobby shows of a finished game without replaying it;
// it is written when the game ends. Its JSON keys are those of the first
// schema, which stored Blue Lagoon's current player and totals.
type Summary struct {
	Phase   string `json:"phase"`
	ToMove  int    `json:"current"`
	Scores  []int  `json:"totals"`
	Winners []int  `json:"winners"`
}

// Move is one stored move.
type Move struct {
	Seat int
	Move string    // in the game's notation, "S 9,3"
	At   time.Time // when it was made
	// Clocks is each seat's time in milliseconds after the move (see
	// Game.Clocks), nil for a game without time.
	Clocks []int64
}

// Game is a stored game.
type Game struct {
	ID      string
	Created time.Time
	Updated time.Time
	// Game is the game's id in the registry, "bluelagoon".
	Game string
	// Options are the game's options, every one of them set.
	Options    map[string]string
	Players    int
	Seed       uint64
	SeedChosen bool
	// Time is the game's time rule, nil for none.
	Time  *Time
	Seats []Seat
	// Clocks is each seat's time in milliseconds as last written, nil for
	// a game without time: the seats' banks, or with a turn timer what is
	// left of the turn in the entry of the seat to move.
	Clocks []int64
	// Version is the number of moves stored.
	Version int
	Over    bool
	Summary Summary
	// Moves is the game's moves, for Game and InProgress; Finished leaves
	// it nil.
	Moves []Move
	// TakeBacksOff says the table chose to allow no take-backs; TakeBacks
	// counts the take-backs made, each of which removed moves.
	TakeBacksOff bool
	TakeBacks    int
	// Expired says nobody joined or moved in the game for so long that it
	// was given up (Expire): it is no longer resumed.
	Expired bool
}

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

// op is one write: fn runs inside the batch's transaction and the result is
// sent on done once the transaction is committed (or not).
type op struct {
	fn   func(tx *sql.Tx) error
	done chan error
}

// schemaVersion is the version of the schema below, kept in the
// database's user_version.
const schemaVersion = 2

// gamesTable is the games table of the current schema, under a name.
func gamesTable(name string) string {
	return `CREATE TABLE ` + name + ` (
	id          TEXT PRIMARY KEY,
	created     INTEGER NOT NULL,
	updated     INTEGER NOT NULL,
	game        TEXT NOT NULL,
	options     TEXT NOT NULL,
	players     INTEGER NOT NULL,
	seed        INTEGER NOT NULL,
	seed_chosen INTEGER NOT NULL,
	time_rule   TEXT,
	seats       TEXT NOT NULL,
	clocks      TEXT,
	version     INTEGER NOT NULL,
	over        INTEGER NOT NULL,
	summary     TEXT NOT NULL,
	take_backs_off INTEGER NOT NULL DEFAULT 0,
	take_backs     INTEGER NOT NULL DEFAULT 0,
	expired        INTEGER NOT NULL DEFAULT 0
);
`
}

// gamesTableV1 is the games table of the current version, made under
// another name by the migration from version 0.
var gamesTableV1 = gamesTable("games_v1")

// schema makes the tables of a new database.
var schema = gamesTable("games") + `
CREATE INDEX games_over_updated ON games (over, updated);
CREATE TABLE moves (
	game    TEXT NOT NULL REFERENCES games (id),
	version INTEGER NOT NULL,
	seat    INTEGER NOT NULL,
	move    TEXT NOT NULL,
	at      INTEGER NOT NULL,
	clocks  TEXT,
	PRIMARY KEY (game, version)
) WITHOUT ROWID;
`

// migrateV0 brings a database of schema version 0 up to version 1: the
// games of version 0 are all Blue Lagoon's, with the board (a name or the
// notation), the first seat and the clock in columns of their own; they
// become options and a time rule. SQLite changes a table's columns by
// making the new table, copying and renaming it, with the foreign keys off
// (they are checked afterwards).
var migrateV0 = gamesTableV1 + `
INSERT INTO games_v1 (id, created, updated, game, options, players, seed, seed_chosen, time_rule, seats, clocks, version, over, summary)
SELECT id, created, updated, 'bluelagoon', json_object('board', board, 'first', CAST(first AS TEXT)), players, seed, seed_chosen,
	CASE WHEN clock IS NULL THEN NULL
	ELSE json_object('kind', 'bank', 'initial_ms', json_extract(clock, '$.initial_ms'), 'increment_ms', json_extract(clock, '$.increment_ms')) END,
	seats, clocks, version, over, summary
FROM games;
DROP TABLE games;
ALTER TABLE games_v1 RENAME TO games;
CREATE INDEX games_over_updated ON games (over, updated);
`

// migrateV1 brings a database of schema version 1 up to version 2: games
// may allow take-backs or not (they did, as they all do by default), count
// the take-backs made, and may have expired (none had).
var migrateV1 = `
ALTER TABLE games ADD COLUMN take_backs_off INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN take_backs INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN expired INTEGER NOT NULL DEFAULT 0;
`

// batchLimit bounds the writes committed in one transaction.
const batchLimit = 512

// Checkpoints: the log is copied into the database every checkpointEvery,
// and started afresh once it holds restartFrames pages (4 MiB).
const (
	checkpointEvery = 250 * time.Millisecond
	restartFrames   = 1024
)

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
	insertMove, err := w.Prepare(`INSERT INTO moves (game, version, seat, move, at, clocks) VALUES (?, ?, ?, ?, ?, ?)`)
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

// migrate makes the schema of a new database, or brings an older one up to
// date, in one transaction: a migration that fails leaves the database as
// it was.
func migrate(db *sql.DB) error {
	ctx := context.Background()
	// One connection throughout: the foreign keys are turned off for it,
	// outside the transaction, as SQLite asks.
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var version, tables int
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'games'").Scan(&tables); err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	var steps string
	switch {
	case version == schemaVersion:
		return nil
	case version > schemaVersion:
		return fmt.Errorf("the database has schema version %d, newer than this lagoon's %d", version, schemaVersion)
	case tables == 0:
		steps = schema
	case version == 0:
		steps = migrateV0
	case version == 1:
		steps = migrateV1
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "PRAGMA foreign_keys = ON")
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(steps); err != nil {
		return fmt.Errorf("schema version %d to %d: %w", version, schemaVersion, err)
	}
	rows, err := tx.Query("PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	bad := rows.Next()
	rows.Close()
	if bad {
		return fmt.Errorf("schema version %d to %d: a move of no game", version, schemaVersion)
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
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

// checkpointer copies the log into the database every checkpointEvery. A
// passive checkpoint never waits for the writer nor makes it wait, but while
// moves keep coming it never quite catches up, and the log only starts afresh
// after a checkpoint that did: once the log is long, the checkpointer asks
// the writer to copy the rest itself.
func (s *Store) checkpointer() {
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		var busy, frames, copied int
		if err := s.checkpoint.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
			continue
		}
		if frames >= restartFrames {
			select {
			case s.restart <- struct{}{}:
			default:
			}
		}
	}
}

// exec runs fn in a transaction, together with other writes, and returns once
// it is durable or has failed.
func (s *Store) exec(ctx context.Context, fn func(tx *sql.Tx) error) error {
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
func (s *Store) writer() {
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
	}
}

// commit runs a batch of writes in one transaction, each in a savepoint.
func (s *Store) commit(batch []op) {
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

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// jsonText encodes v for a TEXT column; a nil slice or pointer is NULL.
func jsonText(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if string(b) == "null" {
		return nil, nil
	}
	return string(b), nil
}

// Create stores a new game with no moves.
func (s *Store) Create(ctx context.Context, g *Game) error {
	seats, err := json.Marshal(g.Seats)
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	options, err := json.Marshal(g.Options)
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	if g.Options == nil {
		options = []byte("{}")
	}
	timeRule, err := jsonText(g.Time)
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	clocks, err := jsonText(g.Clocks)
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	summary, err := json.Marshal(g.Summary)
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	err = s.exec(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM games WHERE id = ?`, g.ID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrConflict
		}
		_, err := tx.Exec(`INSERT INTO games (id, created, updated, game, options, players, seed, seed_chosen, time_rule, seats, clocks, version, over, summary, take_backs_off)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?)`,
			g.ID, millis(g.Created), millis(g.Created), g.Game, string(options), g.Players, int64(g.Seed), g.SeedChosen,
			timeRule, string(seats), clocks, string(summary), g.TakeBacksOff)
		return err
	})
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	return nil
}

// After is the state of a game's metadata after a move.
type After struct {
	Over    bool
	Summary Summary
	// Seats, if not nil, replaces the stored seats (a move can end a
	// seat's stand-in).
	Seats []Seat
}

// checkAt fails with ErrConflict unless game id is stored, not over, and
// at version.
func (s *Store) checkAt(tx *sql.Tx, id string, version int) error {
	var over bool
	var last int
	err := tx.Stmt(s.head).QueryRow(id).Scan(&over, &last)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (over || last != version)) {
		return ErrConflict
	}
	return err
}

// AppendMove stores the move that takes game id from version-1 to version,
// with the metadata after it. It fails with ErrConflict unless the game is
// at version-1 and not over, so a move is never stored twice or out of order.
func (s *Store) AppendMove(ctx context.Context, id string, version int, m Move, after After) error {
	clocks, err := jsonText(m.Clocks)
	if err != nil {
		return fmt.Errorf("store move %d of %s: %w", version, id, err)
	}
	summary, err := json.Marshal(after.Summary)
	if err != nil {
		return fmt.Errorf("store move %d of %s: %w", version, id, err)
	}
	seats, err := jsonText(after.Seats)
	if err != nil {
		return fmt.Errorf("store move %d of %s: %w", version, id, err)
	}
	err = s.exec(ctx, func(tx *sql.Tx) error {
		if err := s.checkAt(tx, id, version-1); err != nil {
			return err
		}
		if _, err := tx.Stmt(s.insertMove).Exec(id, version, m.Seat, m.Move, millis(m.At), clocks); err != nil {
			return err
		}
		if !after.Over && after.Seats == nil {
			return nil
		}
		_, err = tx.Exec(`UPDATE games SET version = ?, updated = ?, over = ?, summary = ?, clocks = ?, seats = coalesce(?, seats) WHERE id = ?`,
			version, millis(m.At), after.Over, string(summary), clocks, seats, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("store move %d of %s: %w", version, id, err)
	}
	return nil
}

// TakeBack removes the moves of game id after version to, the game being
// at version from and not over, and stores the clocks as they were at
// version to: a game is its setup plus its moves, so what is left is the
// game as it was then. It counts the take-back in the game's row. It fails
// with ErrConflict unless the game is at version from and not over.
func (s *Store) TakeBack(ctx context.Context, id string, from, to int, clocks []int64, at time.Time) error {
	c, err := jsonText(clocks)
	if err != nil {
		return fmt.Errorf("take back moves of %s: %w", id, err)
	}
	if to < 0 || to > from {
		return fmt.Errorf("take back moves %d to %d of %s: %w", to+1, from, id, ErrConflict)
	}
	err = s.exec(ctx, func(tx *sql.Tx) error {
		if err := s.checkAt(tx, id, from); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM moves WHERE game = ? AND version > ?`, id, to); err != nil {
			return err
		}
		_, err = tx.Exec(`UPDATE games SET version = ?, clocks = ?, updated = ?, take_backs = take_backs + 1 WHERE id = ?`, to, c, millis(at), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("take back moves %d to %d of %s: %w", to+1, from, id, err)
	}
	return nil
}

// UpdateSeats stores a game's seats and clocks, which change without a move
// (a seat joins or is left to a bot, a clock runs out); version is the number
// of moves the game has.
func (s *Store) UpdateSeats(ctx context.Context, id string, version int, seats []Seat, clocks []int64, at time.Time) error {
	b, err := json.Marshal(seats)
	if err != nil {
		return fmt.Errorf("store seats of %s: %w", id, err)
	}
	c, err := jsonText(clocks)
	if err != nil {
		return fmt.Errorf("store seats of %s: %w", id, err)
	}
	err = s.exec(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE games SET seats = ?, clocks = ?, updated = ?, version = ? WHERE id = ?`, string(b), c, millis(at), version, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store seats of %s: %w", id, err)
	}
	return nil
}

const gameColumns = `id, created, updated, game, options, players, seed, seed_chosen, time_rule, seats, clocks, version, over, summary, take_backs_off, take_backs, expired`

type scanner interface{ Scan(dest ...any) error }

// scanGame reads a game's row; a row that is read but does not decode
// returns the game, with its id, and the error.
func scanGame(row scanner) (*Game, error) {
	var g Game
	var created, updated, seed int64
	var timeRule, clocks sql.NullString
	var options, seats, summary string
	if err := row.Scan(&g.ID, &created, &updated, &g.Game, &options, &g.Players, &seed, &g.SeedChosen,
		&timeRule, &seats, &clocks, &g.Version, &g.Over, &summary, &g.TakeBacksOff, &g.TakeBacks, &g.Expired); err != nil {
		return nil, err
	}
	// From here on the row is read and g has its id: what is wrong is
	// wrong with this game only.
	g.Created, g.Updated, g.Seed = fromMillis(created), fromMillis(updated), uint64(seed)
	if err := json.Unmarshal([]byte(options), &g.Options); err != nil {
		return &g, fmt.Errorf("game %s: options: %w", g.ID, err)
	}
	if timeRule.Valid {
		g.Time = new(Time)
		if err := json.Unmarshal([]byte(timeRule.String), g.Time); err != nil {
			return &g, fmt.Errorf("game %s: time rule: %w", g.ID, err)
		}
	}
	if clocks.Valid {
		if err := json.Unmarshal([]byte(clocks.String), &g.Clocks); err != nil {
			return &g, fmt.Errorf("game %s: clocks: %w", g.ID, err)
		}
	}
	if err := json.Unmarshal([]byte(seats), &g.Seats); err != nil {
		return &g, fmt.Errorf("game %s: seats: %w", g.ID, err)
	}
	if err := json.Unmarshal([]byte(summary), &g.Summary); err != nil {
		return &g, fmt.Errorf("game %s: summary: %w", g.ID, err)
	}
	return &g, nil
}

// moves reads the moves of game id in order.
func (s *Store) moves(ctx context.Context, id string) ([]Move, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT version, seat, move, at, clocks FROM moves WHERE game = ? ORDER BY version`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Move
	for rows.Next() {
		var v int
		var at int64
		var clocks sql.NullString
		var m Move
		if err := rows.Scan(&v, &m.Seat, &m.Move, &at, &clocks); err != nil {
			return nil, err
		}
		if v != len(out)+1 {
			return nil, fmt.Errorf("game %s: move %d follows move %d", id, v, len(out))
		}
		m.At = fromMillis(at)
		if clocks.Valid {
			if err := json.Unmarshal([]byte(clocks.String), &m.Clocks); err != nil {
				return nil, fmt.Errorf("game %s: move %d: clocks: %w", id, v, err)
			}
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// readMoves reads g's moves, and with them what a move changes without
// writing the game's row: the version, and the clocks and the time of the
// last change if a move came after the row was written (the row's version
// says how many moves there were then).
func (s *Store) readMoves(ctx context.Context, g *Game) error {
	moves, err := s.moves(ctx, g.ID)
	if err != nil {
		return err
	}
	if n := len(moves); n > g.Version {
		g.Updated, g.Clocks = moves[n-1].At, moves[n-1].Clocks
	}
	g.Moves, g.Version = moves, len(moves)
	return nil
}

// Game reads game id with its moves.
func (s *Store) Game(ctx context.Context, id string) (*Game, error) {
	g, err := scanGame(s.read.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("read game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read game %s: %w", id, err)
	}
	if err := s.readMoves(ctx, g); err != nil {
		return nil, fmt.Errorf("read game %s: %w", id, err)
	}
	return g, nil
}

// Damaged is a stored game that cannot be read: a column that does not
// decode, a gap in its moves.
type Damaged struct {
	ID  string
	Err error
}

// InProgress reads every game that is neither over nor expired, with its
// moves: what a starting server resumes. A game whose row or moves do not
// read is returned in damaged rather than keeping the others from being
// read.
func (s *Store) InProgress(ctx context.Context) (games []*Game, damaged []Damaged, _ error) {
	all, bad, err := s.listAll(ctx, `SELECT `+gameColumns+` FROM games WHERE over = 0 AND expired = 0 ORDER BY created`)
	if err != nil {
		return nil, nil, fmt.Errorf("read games in progress: %w", err)
	}
	for _, g := range all {
		if err := s.readMoves(ctx, g); err != nil {
			if ctx.Err() != nil {
				return nil, nil, fmt.Errorf("read games in progress: %w", err)
			}
			bad = append(bad, Damaged{g.ID, err})
			continue
		}
		games = append(games, g)
	}
	return games, bad, nil
}

// Expire marks game id, not over, as given up: it is no longer resumed.
func (s *Store) Expire(ctx context.Context, id string, at time.Time) error {
	err := s.exec(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`UPDATE games SET expired = 1, updated = ? WHERE id = ? AND over = 0`, millis(at), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("expire game %s: %w", id, err)
	}
	return nil
}

// Finished reads the limit games that ended last, newest first, without
// their moves.
func (s *Store) Finished(ctx context.Context, limit int) ([]*Game, error) {
	games, err := s.list(ctx, `SELECT `+gameColumns+` FROM games WHERE over = 1 ORDER BY updated DESC, id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("read finished games: %w", err)
	}
	return games, nil
}

func (s *Store) list(ctx context.Context, query string, args ...any) ([]*Game, error) {
	games, damaged, err := s.listAll(ctx, query, args...)
	if err == nil && len(damaged) > 0 {
		err = damaged[0].Err
	}
	return games, err
}

// listAll reads the games of a query, and apart the games whose rows do
// not decode.
func (s *Store) listAll(ctx context.Context, query string, args ...any) (games []*Game, damaged []Damaged, _ error) {
	rows, err := s.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		g, err := scanGame(rows)
		switch {
		case err != nil && g != nil:
			damaged = append(damaged, Damaged{g.ID, err})
		case err != nil:
			return nil, nil, err
		default:
			games = append(games, g)
		}
	}
	return games, damaged, rows.Err()
}
