package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// This file brings a database of an older schema up to date.

// gamesTableV1 is the games table of the current version, made under
// another name by the migration from version 0.
var gamesTableV1 = gamesTable("games_v1")

// migrateV0 brings a database of schema version 0 up to date: the
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

// migrateV1 brings a database of schema version 1 up to date: games may
// allow take-backs or not (they did, as they all do by default), count the
// take-backs made, and may have expired (none had).
var migrateV1 = `
ALTER TABLE games ADD COLUMN take_backs_off INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN take_backs INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN expired INTEGER NOT NULL DEFAULT 0;
` + migrateV2

// migrateV2 brings a database of schema version 2 up to date: a take-back
// may reseed its game's chance (none had), and a move may have been made
// by the time rule (which was not told).
var migrateV2 = `
ALTER TABLE games ADD COLUMN reseeds TEXT;
` + movesByTime + migrateV3

// movesByTime adds the moves' by_time column, to a moves table of any
// version before 3 (the migration from version 0 makes the games table of
// the current version, and keeps the moves table).
const movesByTime = `
ALTER TABLE moves ADD COLUMN by_time INTEGER NOT NULL DEFAULT 0;
`

// migrateV3 brings a database of schema version 3 up to date: games
// carry checksums (checksum.go), which checksumAll then computes, and
// there are players (version 5). Every migration ends with the players'
// tables; a database of schema version 4 gets them alone, its games
// staying as they are, checksums and all.
var migrateV3 = `
ALTER TABLE games ADD COLUMN checksum BLOB;
` + addMoveHashes + playersTables + passkeyTables

// migrateV5 brings a database of schema version 5 up to date: there are
// passkeys and the ceremonies that make and use them (passkeys.go), and
// the vacations' table that every migration from before version 6 gets
// (migrate adds it), and no row of another table changes.
const migrateV5 = passkeyTables

// addMoveHashes adds the columns of the moves' chain of hashes.
const addMoveHashes = `
ALTER TABLE moves ADD COLUMN hash BLOB;
ALTER TABLE moves ADD COLUMN followed INTEGER NOT NULL DEFAULT 0;
`

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
	case version == SchemaVersion:
		return nil
	case version > SchemaVersion:
		return fmt.Errorf("the database has schema version %d, newer than this lagoon's %d", version, SchemaVersion)
	case tables == 0:
		steps = schema
	case version == 0:
		steps = migrateV0 + movesByTime + addMoveHashes + playersTables + passkeyTables
	case version == 1:
		steps = migrateV1
	case version == 2:
		steps = migrateV2
	case version == 3:
		steps = migrateV3
	case version == 4:
		steps = playersTables + passkeyTables
	case version == 5:
		steps = migrateV5
	}
	if tables > 0 && version < 6 {
		// Version 6 added the vacations' table too.
		steps += vacationsTable
	}
	if tables > 0 {
		// Every migration from before version 6 ends with its seats'
		// lines (fillSeatLines).
		steps += seatLines
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
		return fmt.Errorf("schema version %d to %d: %w", version, SchemaVersion, err)
	}
	if tables > 0 {
		if err := fillSeatLines(tx); err != nil {
			return fmt.Errorf("schema version %d to %d: seats' lines: %w", version, SchemaVersion, err)
		}
	}
	// Games of schema version 4 have their checksums already.
	if tables > 0 && version < 4 {
		if err := checksumAll(tx); err != nil {
			return fmt.Errorf("schema version %d to %d: checksums: %w", version, SchemaVersion, err)
		}
	}
	rows, err := tx.Query("PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	bad := rows.Next()
	rows.Close()
	if bad {
		return fmt.Errorf("schema version %d to %d: a move of no game", version, SchemaVersion)
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// checksumAll computes the checksums of the games stored before games had
// them (checksum.go), as they are: a game damaged before stays damaged to
// the checks that see it (a column that does not decode, a gap in its
// moves), and damage nothing could see before is now what its checksum
// vouches for. A game row that counts fewer moves than are stored is
// brought up to its last move, as a read would see it, so that its row
// counts at least one move once it has one.
func checksumAll(tx *sql.Tx) error {
	var ids []any
	rows, err := tx.Query(`SELECT id FROM games`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id any
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		last, n, err := chainMoves(tx, id)
		if err != nil {
			return fmt.Errorf("game %v: %w", id, err)
		}
		if err := checksumRow(tx, id, last, n); err != nil {
			return fmt.Errorf("game %v: %w", id, err)
		}
	}
	return nil
}

// chainMoves writes the hashes of game id's moves, and which are followed.
// It returns the at and clocks of the last move, and how many there are.
func chainMoves(tx *sql.Tx, id any) (last [2]any, n int, _ error) {
	rows, err := tx.Query(`SELECT version, seat, move, at, clocks, by_time FROM moves WHERE game = ? ORDER BY version`, id)
	if err != nil {
		return last, 0, err
	}
	var moves [][6]any
	for rows.Next() {
		var m [6]any
		if err := rows.Scan(&m[0], &m[1], &m[2], &m[3], &m[4], &m[5]); err != nil {
			rows.Close()
			return last, 0, err
		}
		moves = append(moves, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(moves) == 0 {
		return last, 0, err
	}
	var prev []byte
	for i, m := range moves {
		prev = sum(prev, id, m[0], m[1], m[2], m[3], m[4], m[5])
		if _, err := tx.Exec(`UPDATE moves SET hash = ?, followed = ? WHERE game = ? AND version = ?`, prev, i < len(moves)-1, id, m[0]); err != nil {
			return last, 0, err
		}
	}
	m := moves[len(moves)-1]
	return [2]any{m[3], m[4]}, len(moves), nil
}

// checksumRow writes the checksum of game id's row, after bringing it up
// to its last move (at and clocks) if it counts fewer than the n stored.
func checksumRow(tx *sql.Tx, id any, last [2]any, n int) error {
	var cols [18]any
	dest := make([]any, len(cols))
	for i := range cols {
		dest[i] = &cols[i]
	}
	if err := tx.QueryRow(`SELECT `+strings.TrimSuffix(GameColumns, ", checksum")+` FROM games WHERE id = ?`, id).Scan(dest...); err != nil {
		return err
	}
	if version, ok := cols[11].(int64); ok && version < int64(n) {
		cols[2], cols[10], cols[11] = last[0], last[1], int64(n)
	}
	_, err := tx.Exec(`UPDATE games SET updated = ?, clocks = ?, version = ?, checksum = ? WHERE id = ?`, cols[2], cols[10], cols[11], sum(cols[:]...), id)
	return err
}

// fillSeatLines writes the line of every game whose seats are held on its
// seats' rows (schema version 6), from the game's row: the moves since it
// was written follow with the game's next move. A game whose row does not
// read keeps rows without a line, which a player's list shows as damaged,
// as it would the game.
func fillSeatLines(tx *sql.Tx) error {
	rows, err := tx.Query(`SELECT ` + GameColumns + ` FROM games WHERE id IN (SELECT game FROM seat_owners)`)
	if err != nil {
		return err
	}
	games, _, err := ScanGames(rows)
	rows.Close()
	if err != nil {
		return err
	}
	for _, g := range games {
		args, err := SeatsFollowArgs(g)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(SeatsFollow, args...); err != nil {
			return err
		}
	}
	return nil
}
