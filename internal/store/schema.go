package store

import (
	"encoding/json"
	"time"
)

// This file holds the schema of the current version, and how values are
// kept in its columns.

// SchemaVersion is the version of the schema below, kept in the
// database's user_version.
const SchemaVersion = 6

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
	expired        INTEGER NOT NULL DEFAULT 0,
	reseeds        TEXT,
	checksum       BLOB
);
`
}

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
	by_time INTEGER NOT NULL DEFAULT 0,
	hash    BLOB,
	followed INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (game, version)
) WITHOUT ROWID;
` + playersTables + passkeyTables + vacationsTable + seatLines

// playersTables are the tables of players, their sessions and the seats
// they hold (docs/players.md), which came with schema version 5. A
// session is kept by its token's hash alone; name_key is the name's
// players.NameKey, which makes names unique ignoring case. A seat's row
// carries whether its game ended (over or expired) and when its game's row
// was last written, kept so by every write of that row (SeatsFollow), so
// that a player's games in progress and last ended are read by the index
// on (player, ended, updated) without visiting their other games.
const playersTables = `
CREATE TABLE players (
	id       TEXT PRIMARY KEY,
	name     TEXT NOT NULL,
	name_key TEXT NOT NULL UNIQUE,
	guest    INTEGER NOT NULL,
	created  INTEGER NOT NULL
);
CREATE TABLE sessions (
	hash       BLOB PRIMARY KEY,
	player     TEXT NOT NULL REFERENCES players (id),
	created    INTEGER NOT NULL,
	last_seen  INTEGER NOT NULL,
	user_agent TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_player ON sessions (player, created);
CREATE TABLE seat_owners (
	game    TEXT NOT NULL REFERENCES games (id),
	seat    INTEGER NOT NULL,
	player  TEXT NOT NULL REFERENCES players (id),
	at      INTEGER NOT NULL,
	ended   INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	PRIMARY KEY (game, seat)
) WITHOUT ROWID;
CREATE INDEX seat_owners_player ON seat_owners (player, ended, updated);
`

// seatLines gives the rows of seats held their game's line (lines.go),
// which came with schema version 6, and indexes them by game too, so that
// a page of a player's ended games is read from the index in its order.
// The columns are the last of the table, where a migration adds them.
const seatLines = `
ALTER TABLE seat_owners ADD COLUMN line TEXT NOT NULL DEFAULT '';
ALTER TABLE seat_owners ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seat_owners ADD COLUMN summary TEXT NOT NULL DEFAULT '';
DROP INDEX seat_owners_player;
CREATE INDEX seat_owners_player ON seat_owners (player, ended, updated, game);
`

// GameColumns are the columns of a game's row, its checksum last (see
// checksum.go); MoveColumns those of a move's row read with the game.
const (
	GameColumns = `id, created, updated, game, options, players, seed, seed_chosen, time_rule, seats, clocks, version, over, summary, take_backs_off, take_backs, expired, reseeds, checksum`
	MoveColumns = `version, seat, move, at, clocks, by_time, hash, followed`
)

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
