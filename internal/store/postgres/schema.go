package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lagoon-games/lagoon/internal/store"
)

// This file holds the schema and its version.
//
// The tables are those of the SQLite store's current schema
// (store.SchemaVersion), with every integer a bigint, every text a text and
// every blob a bytea, so that each value reads back as the SQLite store
// reads it (an int64, a string, a []byte or nil) and sums to the same
// checksum. No lagoon wrote PostgreSQL before schema version 4; a database
// of version 4 gets the players' tables of version 5 (players.go), and one
// of version 4 or 5 the seats' lines of version 6 (fillSeatLines). Its version is kept in the table
// lagoon_schema; the leases on games are in leases (lease.go).

// schema makes the tables of a new database.
var schema = fmt.Sprintf(`
CREATE TABLE lagoon_schema (version bigint NOT NULL);
INSERT INTO lagoon_schema (version) VALUES (%d);
CREATE TABLE games (
	id             text PRIMARY KEY,
	created        bigint NOT NULL,
	updated        bigint NOT NULL,
	game           text NOT NULL,
	options        text NOT NULL,
	players        bigint NOT NULL,
	seed           bigint NOT NULL,
	seed_chosen    bigint NOT NULL,
	time_rule      text,
	seats          text NOT NULL,
	clocks         text,
	version        bigint NOT NULL,
	over           bigint NOT NULL,
	summary        text NOT NULL,
	take_backs_off bigint NOT NULL DEFAULT 0,
	take_backs     bigint NOT NULL DEFAULT 0,
	expired        bigint NOT NULL DEFAULT 0,
	reseeds        text,
	checksum       bytea
);
CREATE INDEX games_over_updated ON games (over, updated);
%s;
CREATE TABLE moves (
	game     text NOT NULL REFERENCES games (id),
	version  bigint NOT NULL,
	seat     bigint NOT NULL,
	move     text NOT NULL,
	at       bigint NOT NULL,
	clocks   text,
	by_time  bigint NOT NULL DEFAULT 0,
	hash     bytea,
	followed bigint NOT NULL DEFAULT 0,
	PRIMARY KEY (game, version)
);
CREATE TABLE leases (
	game    text PRIMARY KEY,
	node    text NOT NULL,
	epoch   bigint NOT NULL,
	expires timestamptz NOT NULL
);
%s%s%s%s`, store.SchemaVersion, inProgressIndex, playersTables, passkeyTables, vacationsTable, seatLines)

// inProgressIndex indexes the games in progress, and them alone, for each
// node's sweep for games nobody holds (Orphans), every 2 s: without it the
// sweep reads every game ever played, finished ones too. It costs an index
// entry for each write of a game's row in progress, and nothing once the
// game is over. It came after the tables of schema version 4, and changes
// nothing a lagoon reads, so it does not change the version: a database
// made without it gets it when a node opens it (migrate).
const inProgressIndex = `CREATE INDEX IF NOT EXISTS games_in_progress ON games (id) WHERE over <> 1 AND expired <> 1`

// migrate makes the tables of a database that has none, or checks that
// those it has are of the current schema; it writes nothing to a database
// of another schema. Nodes starting at once take turns, by a lock of the
// schema's.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		// Building the index on a large table takes longer than a
		// statement may (sessionLimits).
		if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
			return fmt.Errorf("schema: %w", err)
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('lagoon schema ' || coalesce(current_schema(), '')))`); err != nil {
			return fmt.Errorf("schema: %w", err)
		}
		var versioned, games bool
		if err := tx.QueryRow(ctx, `SELECT to_regclass('lagoon_schema') IS NOT NULL, to_regclass('games') IS NOT NULL`).Scan(&versioned, &games); err != nil {
			return fmt.Errorf("schema: %w", err)
		}
		switch {
		case !versioned && games:
			return fmt.Errorf("the database has a games table that is not lagoon's (no lagoon_schema table beside it); give lagoon a database or schema of its own")
		case !versioned:
			if _, err := tx.Exec(ctx, schema); err != nil {
				return fmt.Errorf("making the tables: %w", err)
			}
			return nil
		}
		var version int64
		if err := tx.QueryRow(ctx, `SELECT version FROM lagoon_schema`).Scan(&version); err != nil {
			return fmt.Errorf("schema version: %w", err)
		}
		switch {
		case version > store.SchemaVersion:
			return fmt.Errorf("the database has schema version %d, newer than this lagoon's %d: run a lagoon as new as the one that wrote it", version, store.SchemaVersion)
		case version == 4 || version == 5:
			// Schema version 5 added the players' tables alone
			// (players.go), 6 the passkeys' (passkeys.go), the vacations'
			// (vacations.go) and the seats' lines (fillSeatLines).
			steps := passkeyTables + vacationsTable
			if version == 4 {
				steps = playersTables + steps
			}
			if _, err := tx.Exec(ctx, steps); err != nil {
				return fmt.Errorf("schema version %d to %d: %w", version, store.SchemaVersion, err)
			}
			if err := fillSeatLines(ctx, tx); err != nil {
				return fmt.Errorf("schema version %d to %d: seats' lines: %w", version, store.SchemaVersion, err)
			}
			if _, err := tx.Exec(ctx, fmt.Sprintf(`UPDATE lagoon_schema SET version = %d`, store.SchemaVersion)); err != nil {
				return fmt.Errorf("schema version %d to %d: %w", version, store.SchemaVersion, err)
			}
		case version < store.SchemaVersion:
			return fmt.Errorf("the database has schema version %d, and no lagoon wrote PostgreSQL before version 4", version)
		}
		// Looked up first, so that the nodes opening a database that has
		// the index do not lock the games table to find it there.
		var indexed bool
		if err := tx.QueryRow(ctx, `SELECT to_regclass('games_in_progress') IS NOT NULL`).Scan(&indexed); err != nil {
			return fmt.Errorf("schema: %w", err)
		}
		if !indexed {
			if _, err := tx.Exec(ctx, inProgressIndex); err != nil {
				return fmt.Errorf("indexing the games in progress: %w", err)
			}
		}
		return nil
	})
}

// seatLines gives the rows of seats held their game's line, as schema
// version 6 of the SQLite store does.
const seatLines = `
ALTER TABLE seat_owners ADD COLUMN line text NOT NULL DEFAULT '';
ALTER TABLE seat_owners ADD COLUMN version bigint NOT NULL DEFAULT 0;
ALTER TABLE seat_owners ADD COLUMN summary text NOT NULL DEFAULT '';
DROP INDEX seat_owners_player;
CREATE INDEX seat_owners_player ON seat_owners (player, ended, updated, game);
`

// fillSeatLines gives the rows of seats held their lines (seatLines), each
// written from its game's row as the SQLite store's migration does.
func fillSeatLines(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, seatLines); err != nil {
		return err
	}
	rows, err := tx.Query(ctx, `SELECT `+store.GameColumns+` FROM games WHERE id IN (SELECT game FROM seat_owners)`)
	if err != nil {
		return err
	}
	games, _, err := store.ScanGames(rows)
	rows.Close()
	if err != nil {
		return err
	}
	for _, g := range games {
		args, err := store.SeatsFollowArgs(g)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, store.SeatsFollow, args...); err != nil {
			return err
		}
	}
	return nil
}
