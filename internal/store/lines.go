package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// This file keeps what a list of a player's games shows of each game (a
// line) on the rows of the seats they hold (schema version 6), so that the
// list reads those rows alone and never a game's whole row (docs/players.md).

// GameLine is what a list of games shows of one game. It is a copy of the
// game's row as last written (Line) and of its last move's version,
// summary and time, kept on the rows of its seats held: it carries no
// token and no checksum, and is never the authority for a game, only the
// list's.
type GameLine struct {
	ID         string
	Created    time.Time
	Updated    time.Time
	Game       string
	Options    map[string]string
	Players    int
	SeedChosen bool
	// Seats are the game's seats, each without its token's hash.
	Seats   []Seat
	Version int
	Over    bool
	Expired bool
	Summary Summary
}

// Line returns g's line.
func Line(g *Game) GameLine {
	seats := make([]Seat, len(g.Seats))
	for i, st := range g.Seats {
		st.TokenHash = ""
		seats[i] = st
	}
	return GameLine{ID: g.ID, Created: g.Created, Updated: g.Updated, Game: g.Game, Options: g.Options, Players: g.Players,
		SeedChosen: g.SeedChosen, Seats: seats, Version: g.Version, Over: g.Over, Expired: g.Expired, Summary: g.Summary}
}

// lineJSON is the column line of a seat's row: what of a game's line
// changes only when the game's row is written.
type lineJSON struct {
	Game       string            `json:"game"`
	Options    map[string]string `json:"options"`
	Players    int               `json:"players"`
	SeedChosen bool              `json:"seed_chosen,omitempty"`
	Seats      []Seat            `json:"seats"`
	Over       bool              `json:"over,omitempty"`
	Expired    bool              `json:"expired,omitempty"`
	Created    int64             `json:"created"`
}

// LineColumns are the values of a seat row's columns line, version and
// summary for g (SeatsFollow's placeholders 3 to 5).
func LineColumns(g *Game) ([]any, error) {
	l := Line(g)
	line, err := json.Marshal(lineJSON{Game: l.Game, Options: l.Options, Players: l.Players, SeedChosen: l.SeedChosen,
		Seats: l.Seats, Over: l.Over, Expired: l.Expired, Created: millis(l.Created)})
	if err != nil {
		return nil, err
	}
	summary, err := json.Marshal(l.Summary)
	if err != nil {
		return nil, err
	}
	return []any{string(line), int64(l.Version), string(summary)}, nil
}

// MoveFollow brings the rows of a game's seats held (placeholder 4) to
// its version (1), summary (2) and time (3) after a move that does not
// write the game's row, so that a list read on any node says whose turn
// it is. A game without seats held costs a look into the key.
const MoveFollow = `UPDATE seat_owners SET version = $1, summary = $2, updated = $3 WHERE game = $4`

// MoveFollowArgs are MoveFollow's values for move version of game id,
// made at, with after.
func MoveFollowArgs(id string, version int, at time.Time, after After) ([]any, error) {
	summary, err := json.Marshal(after.Summary)
	if err != nil {
		return nil, fmt.Errorf("summary: %w", err)
	}
	return []any{int64(version), string(summary), millis(at), id}, nil
}

// Cursor is where a page of a player's ended games starts: after the game
// Game, which ended at Updated, in their order (newest first, then by id
// from the last).
type Cursor struct {
	Updated time.Time
	Game    string
}

// cursorArgs are the placeholders of EndedLinesQuery that a cursor
// fills, from the newest game for none.
func cursorArgs(c *Cursor) (int64, string) {
	if c == nil {
		return math.MaxInt64, ""
	}
	return millis(c.Updated), c.Game
}

// The lines of a player's games, read by the index on seat_owners
// (player, ended, updated, game): PlayingLinesQuery those in progress
// (placeholder 1 the player), newest first; EndedLinesQuery the limit (4)
// that ended last before a cursor (2, 3), each page's game then found by
// its key (CROSS JOIN keeps SQLite from reading every row of the player
// to find them). A game's seat rows all share
// its updated (SeatsFollow, MoveFollow), so that (updated, game) is one
// game, and its rows come together, by seat.
const (
	lineColumns       = `game, seat, line, version, summary, updated`
	PlayingLinesQuery = `SELECT ` + lineColumns + ` FROM seat_owners WHERE player = $1 AND ended = 0 ORDER BY updated DESC, game DESC, seat`
	EndedLinesQuery   = `SELECT s.game, s.seat, s.line, s.version, s.summary, s.updated FROM (
	SELECT DISTINCT updated, game FROM seat_owners WHERE player = $1 AND ended = 1
		AND (updated < $2 OR (updated = $2 AND game < $3)) ORDER BY updated DESC, game DESC LIMIT $4) AS page
	CROSS JOIN seat_owners s WHERE s.game = page.game AND s.player = $1
	ORDER BY s.updated DESC, s.game DESC, s.seat`
)

// EndedLinesArgs are EndedLinesQuery's values.
func EndedLinesArgs(player string, limit int, before *Cursor) []any {
	at, game := cursorArgs(before)
	return []any{player, at, game, int64(limit)}
}

// ScanLines reads the rows of PlayingLinesQuery or EndedLinesQuery, a
// game's rows together, into a line a game with the seats the player
// holds; a game whose line does not decode is apart, damaged.
func ScanLines(rows Rows) (out []PlayerGame, damaged []Damaged, _ error) {
	var bad string
	for rows.Next() {
		var game, line, summary string
		var seat, version, updated int64
		if err := rows.Scan(&game, &seat, &line, &version, &summary, &updated); err != nil {
			return nil, nil, err
		}
		if game == bad {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Line.ID == game {
			out[n-1].Seats = append(out[n-1].Seats, int(seat))
			continue
		}
		l, err := decodeLine(game, line, version, summary, updated)
		if err != nil {
			bad, damaged = game, append(damaged, Damaged{game, err})
			continue
		}
		out = append(out, PlayerGame{Line: l, Seats: []int{int(seat)}})
	}
	return out, damaged, rows.Err()
}

// errNoLine is a seat row's line never written (a row of a database
// whose migration could not read its game).
var errNoLine = errors.New("the seat's row has no line of its game")

// decodeLine reads a seat row's line of game.
func decodeLine(game, line string, version int64, summary string, updated int64) (GameLine, error) {
	if line == "" {
		return GameLine{}, fmt.Errorf("game %s: %w: %w", game, errNoLine, ErrDamaged)
	}
	var j lineJSON
	l := GameLine{ID: game, Version: int(version), Updated: fromMillis(updated)}
	if err := json.Unmarshal([]byte(line), &j); err != nil {
		return l, fmt.Errorf("game %s: the line of its seats: %w: %w", game, err, ErrDamaged)
	}
	if err := json.Unmarshal([]byte(summary), &l.Summary); err != nil {
		return l, fmt.Errorf("game %s: the summary of its seats: %w: %w", game, err, ErrDamaged)
	}
	l.Game, l.Options, l.Players, l.SeedChosen, l.Seats = j.Game, j.Options, j.Players, j.SeedChosen, j.Seats
	l.Over, l.Expired, l.Created = j.Over, j.Expired, fromMillis(j.Created)
	return l, nil
}

// OwnSeatQueries are what OwnSeat reads before it writes a seat's row:
// the players of id placeholder 1 (PlayerCountQuery), the game's row
// (OwnedGameQuery, placeholder 1 the game) and the line of another of its
// seats held (FollowedQuery), which moves keep up to date where the
// game's row is not.
const (
	PlayerCountQuery = `SELECT count(*) FROM players WHERE id = $1`
	OwnedGameQuery   = `SELECT ` + GameColumns + ` FROM games WHERE id = $1`
	FollowedQuery    = `SELECT version, summary, updated FROM seat_owners WHERE game = $1 LIMIT 1`
)

// OwnSeatUpsert writes a seat's row: game, seat, player, at, ended,
// updated, line, version, summary.
const OwnSeatUpsert = `INSERT INTO seat_owners (game, seat, player, at, ended, updated, line, version, summary) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
	ON CONFLICT (game, seat) DO UPDATE SET player = excluded.player, at = excluded.at, ended = excluded.ended, updated = excluded.updated,
	line = excluded.line, version = excluded.version, summary = excluded.summary`

// OwnSeatRow is OwnSeatUpsert's values for seat of game id held by
// player since at, query running OwnSeatQueries: ErrNotFound for a game
// or a player not stored, the game's own error for a damaged one.
func OwnSeatRow(query func(sql string, args ...any) Scanner, id string, seat int, player string, at time.Time) ([]any, error) {
	var n int64
	if err := query(PlayerCountQuery, player).Scan(&n); err != nil {
		return nil, err
	}
	g, err := ScanGame(query(OwnedGameQuery, id))
	if errors.Is(err, sql.ErrNoRows) || n == 0 {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	cols, err := LineColumns(g)
	if err != nil {
		return nil, err
	}
	updated := millis(g.Updated)
	var version int64
	var summary string
	switch err := query(FollowedQuery, id).Scan(&version, &summary, &updated); {
	case err == nil:
		cols[1], cols[2] = version, summary
	case !errors.Is(err, sql.ErrNoRows):
		return nil, err
	}
	return append([]any{id, int64(seat), player, millis(at), GameEnded(g), updated}, cols...), nil
}
