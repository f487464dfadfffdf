package store

import (
	"context"
	"database/sql"
	"fmt"
)

// This file brings a database of an older schema up to date.

// gamesTableV1 is the games table of the current version, made under
// another name by the migration from version 0.
var gamesTableV1 = gamesTable("games_v1")

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

// migrateV2 brings a database of schema version 2 up to version 3: a
// take-back may reseed its game's chance (none had), and a move may have
// been made by the time rule (which was not told).
var migrateV2 = `
ALTER TABLE games ADD COLUMN reseeds TEXT;
` + movesByTime

// movesByTime adds the moves' by_time column, to a moves table of any
// version before 3 (the migration from version 0 makes the games table of
// the current version, and keeps the moves table).
const movesByTime = `
ALTER TABLE moves ADD COLUMN by_time INTEGER NOT NULL DEFAULT 0;
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
	case version == schemaVersion:
		return nil
	case version > schemaVersion:
		return fmt.Errorf("the database has schema version %d, newer than this lagoon's %d", version, schemaVersion)
	case tables == 0:
		steps = schema
	case version == 0:
		steps = migrateV0 + movesByTime
	case version == 1:
		steps = migrateV1 + migrateV2
	case version == 2:
		steps = migrateV2
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
