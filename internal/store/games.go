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
