package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// This file holds the writes and reads of games' rows.

// Create stores a new game with no moves.
func (s *Store) Create(ctx context.Context, g *Game) error {
	row := *g
	row.Updated, row.Version, row.Over, row.TakeBacks, row.Expired, row.Moves = g.Created, 0, false, 0, false, nil
	values, err := gameRow(&row)
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
		_, err := tx.Exec(insertGame, values...)
		return err
	})
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	return nil
}

// UpdateSeats stores a game's seats and clocks, which change without a move
// (a seat joins or is left to a bot, a clock runs out); version is the number
// of moves the game has.
func (s *Store) UpdateSeats(ctx context.Context, id string, version int, seats []Seat, clocks []int64, at time.Time) error {
	// The writer writes copies: the caller's slices may change once it
	// has the answer, or, shared, before.
	seats, clocks = slices.Clone(seats), slices.Clone(clocks)
	err := s.exec(ctx, func(tx *sql.Tx) error {
		return rewrite(tx, id, func(g *Game) bool {
			g.Seats, g.Clocks, g.Updated, g.Version = seats, clocks, at, version
			return true
		})
	})
	if err != nil {
		return fmt.Errorf("store seats of %s: %w", id, err)
	}
	return nil
}

// Expire marks game id, not over, as given up: it is no longer resumed.
func (s *Store) Expire(ctx context.Context, id string, at time.Time) error {
	err := s.exec(ctx, func(tx *sql.Tx) error {
		err := rewrite(tx, id, func(g *Game) bool {
			g.Expired, g.Updated = true, at
			return !g.Over
		})
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("expire game %s: %w", id, err)
	}
	return nil
}

// insertGame and updateGame write a game's row, its checksum last; the
// update takes the game's id once more at the end.
var (
	insertGame = `INSERT INTO games (` + gameColumns + `) VALUES (?` + strings.Repeat(", ?", strings.Count(gameColumns, ",")) + `)`
	updateGame = `UPDATE games SET (` + gameColumns + `) = (?` + strings.Repeat(", ?", strings.Count(gameColumns, ",")) + `) WHERE id = ?`
)

// rewrite reads game id's row, checking its checksum, lets change change
// it and, if change says so, writes it with its new checksum: a row is
// written whole, so that its checksum never vouches for a damaged value.
func rewrite(tx *sql.Tx, id string, change func(g *Game) bool) error {
	g, err := scanGame(tx.QueryRow(`SELECT `+gameColumns+` FROM games WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	if !change(g) {
		return nil
	}
	values, err := gameRow(g)
	if err != nil {
		return err
	}
	_, err = tx.Exec(updateGame, append(values, g.ID)...)
	return err
}

// gameRow returns the values of g's row, as SQLite will return them, its
// checksum last.
func gameRow(g *Game) ([]any, error) {
	options := []byte("{}")
	if g.Options != nil {
		var err error
		if options, err = json.Marshal(g.Options); err != nil {
			return nil, err
		}
	}
	seats, err := json.Marshal(g.Seats)
	if err != nil {
		return nil, err
	}
	summary, err := json.Marshal(g.Summary)
	if err != nil {
		return nil, err
	}
	timeRule, err := jsonText(g.Time)
	if err != nil {
		return nil, err
	}
	clocks, err := jsonText(g.Clocks)
	if err != nil {
		return nil, err
	}
	reseeds, err := jsonText(g.Reseeds)
	if err != nil {
		return nil, err
	}
	values := []any{g.ID, millis(g.Created), millis(g.Updated), g.Game, string(options), int64(g.Players), int64(g.Seed),
		boolInt(g.SeedChosen), timeRule, string(seats), clocks, int64(g.Version), boolInt(g.Over), string(summary),
		boolInt(g.TakeBacksOff), int64(g.TakeBacks), boolInt(g.Expired), reseeds}
	return append(values, sum(values...)), nil
}

// Game reads game id with its moves.
func (s *Store) Game(ctx context.Context, id string) (*Game, error) {
	g, err := scanGame(s.read.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		err = s.rowMissing(ctx, id)
	}
	if err == nil {
		err = s.readMoves(ctx, g)
	}
	if err != nil {
		return nil, fmt.Errorf("read game %s: %w", id, s.unreadable(err))
	}
	return g, nil
}

// rowMissing returns ErrNotFound for a game that has no row, unless it has
// moves: then its row went missing (its id changed), and it is damaged.
func (s *Store) rowMissing(ctx context.Context, id string) error {
	var moves int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM moves WHERE game = ? LIMIT 1)`, id).Scan(&moves); err != nil {
		return err
	}
	if moves > 0 {
		return fmt.Errorf("game %s: its moves are stored and its row is not: %w", id, ErrDamaged)
	}
	return ErrNotFound
}

// Damaged is a stored game that cannot be read: a column that does not
// decode, a gap in its moves, a row that does not match its checksum.
type Damaged struct {
	ID  string
	Err error
}

// InProgress reads every game that is neither over nor expired, with its
// moves: what a starting server resumes. A game whose row or moves do not
// read is returned in damaged rather than keeping the others from being
// read; so is one whose over or expired column holds neither 0 nor 1,
// which would otherwise be neither in progress nor finished.
func (s *Store) InProgress(ctx context.Context) (games []*Game, damaged []Damaged, _ error) {
	all, bad, err := s.listAll(ctx, `SELECT `+gameColumns+` FROM games WHERE over IS NOT 1 AND expired IS NOT 1 ORDER BY created, id`)
	if err != nil {
		return nil, nil, fmt.Errorf("read games in progress: %w", s.unreadable(err))
	}
	for _, g := range all {
		if err := s.readMoves(ctx, g); err != nil {
			if ctx.Err() != nil {
				return nil, nil, fmt.Errorf("read games in progress: %w", err)
			}
			bad = append(bad, Damaged{g.ID, s.unreadable(err)})
			continue
		}
		games = append(games, g)
	}
	return games, bad, nil
}

// Finished reads the limit games that ended last, newest first, without
// their moves, and apart those among them whose rows do not decode or do
// not match their checksums.
func (s *Store) Finished(ctx context.Context, limit int) (games []*Game, damaged []Damaged, _ error) {
	games, damaged, err := s.listAll(ctx, `SELECT `+gameColumns+` FROM games WHERE over = 1 ORDER BY updated DESC, id LIMIT ?`, limit)
	if err != nil {
		return nil, nil, fmt.Errorf("read finished games: %w", s.unreadable(err))
	}
	return games, damaged, nil
}

// listAll reads the games of a query, and apart the games whose rows do
// not decode or do not match their checksums.
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

type scanner interface{ Scan(dest ...any) error }

// scanGame reads a game's row and checks it against its checksum. Each
// column is read as the value SQLite holds and decoded here, so that a
// damaged column (a value of the wrong type, JSON that does not decode, a
// flipped bit) is an error of this game only: it returns the game, with
// its id, and the error.
func scanGame(row scanner) (*Game, error) {
	var cols [19]any
	dest := make([]any, len(cols))
	for i := range cols {
		dest[i] = &cols[i]
	}
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	var g Game
	d := columns{values: cols[:]}
	g.ID = d.text(0, "id")
	if d.err != nil {
		g.ID = fmt.Sprint(cols[0])
		return &g, fmt.Errorf("game %s: %w", g.ID, d.err)
	}
	g.Created, g.Updated = fromMillis(d.integer(1, "created")), fromMillis(d.integer(2, "updated"))
	g.Game = d.text(3, "game")
	d.json(4, "options", &g.Options)
	g.Players = int(d.integer(5, "players"))
	g.Seed = uint64(d.integer(6, "seed"))
	g.SeedChosen = d.flag(7, "seed_chosen")
	if cols[8] != nil {
		g.Time = new(Time)
		d.json(8, "time rule", g.Time)
	}
	d.json(9, "seats", &g.Seats)
	if cols[10] != nil {
		d.json(10, "clocks", &g.Clocks)
	}
	g.Version = int(d.integer(11, "version"))
	g.Over = d.flag(12, "over")
	d.json(13, "summary", &g.Summary)
	g.TakeBacksOff = d.flag(14, "take_backs_off")
	g.TakeBacks = int(d.integer(15, "take_backs"))
	g.Expired = d.flag(16, "expired")
	if cols[17] != nil {
		d.json(17, "reseeds", &g.Reseeds)
	}
	if d.err == nil {
		d.err = checkSum(cols[18], sum(cols[:18]...), "its row")
	}
	if d.err != nil {
		return &g, fmt.Errorf("game %s: %w", g.ID, d.err)
	}
	return &g, nil
}

// columns decodes the values of a row, keeping the first error.
type columns struct {
	values []any
	err    error
}

func (c *columns) fail(name string, v any, want string) {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %v (%T) is not %s", name, v, v, want)
	}
}

func (c *columns) text(i int, name string) string {
	switch v := c.values[i].(type) {
	case string:
		return v
	case []byte:
		return string(v)
	default:
		c.fail(name, v, "text")
		return ""
	}
}

func (c *columns) integer(i int, name string) int64 {
	v, ok := c.values[i].(int64)
	if !ok {
		c.fail(name, c.values[i], "an integer")
	}
	return v
}

func (c *columns) flag(i int, name string) bool {
	v, ok := c.values[i].(int64)
	if !ok || v != 0 && v != 1 {
		c.fail(name, c.values[i], "0 or 1")
	}
	return v == 1
}

func (c *columns) json(i int, name string, into any) {
	text := c.text(i, name)
	if c.err != nil {
		return
	}
	if err := json.Unmarshal([]byte(text), into); err != nil {
		c.err = fmt.Errorf("%s: %w", name, err)
	}
}
