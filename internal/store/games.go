package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// This file holds the writes and reads of games' rows.

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
// read; so is one whose over or expired column holds neither 0 nor 1,
// which would otherwise be neither in progress nor finished.
func (s *Store) InProgress(ctx context.Context) (games []*Game, damaged []Damaged, _ error) {
	all, bad, err := s.listAll(ctx, `SELECT `+gameColumns+` FROM games WHERE over IS NOT 1 AND expired IS NOT 1 ORDER BY created, id`)
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

// Finished reads the limit games that ended last, newest first, without
// their moves, and apart those among them whose rows do not decode.
func (s *Store) Finished(ctx context.Context, limit int) (games []*Game, damaged []Damaged, _ error) {
	games, damaged, err := s.listAll(ctx, `SELECT `+gameColumns+` FROM games WHERE over = 1 ORDER BY updated DESC, id LIMIT ?`, limit)
	if err != nil {
		return nil, nil, fmt.Errorf("read finished games: %w", err)
	}
	return games, damaged, nil
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

type scanner interface{ Scan(dest ...any) error }

// scanGame reads a game's row. Each column is read as the value SQLite
// holds and decoded here, so that a damaged column (a value of the wrong
// type, JSON that does not decode) is an error of this game only: it
// returns the game, with its id, and the error.
func scanGame(row scanner) (*Game, error) {
	var cols [18]any
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
