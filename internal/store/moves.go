package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// This file holds the writes and reads of moves.

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
		if _, err := tx.Stmt(s.insertMove).Exec(id, version, m.Seat, m.Move, millis(m.At), clocks, m.ByTime); err != nil {
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
// game as it was then. reseeds replace the game's reseeds: those made up to
// version to and the take-back's own. It counts the take-back in the
// game's row. It fails with ErrConflict unless the game is at version from
// and not over.
func (s *Store) TakeBack(ctx context.Context, id string, from, to int, clocks []int64, reseeds []Reseed, at time.Time) error {
	c, err := jsonText(clocks)
	if err != nil {
		return fmt.Errorf("take back moves of %s: %w", id, err)
	}
	r, err := jsonText(reseeds)
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
		_, err = tx.Exec(`UPDATE games SET version = ?, clocks = ?, reseeds = ?, updated = ?, take_backs = take_backs + 1 WHERE id = ?`, to, c, r, millis(at), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("take back moves %d to %d of %s: %w", to+1, from, id, err)
	}
	return nil
}

// moves reads the moves of game id in order.
func (s *Store) moves(ctx context.Context, id string) ([]Move, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT version, seat, move, at, clocks, by_time FROM moves WHERE game = ? ORDER BY version`, id)
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
		if err := rows.Scan(&v, &m.Seat, &m.Move, &at, &clocks, &m.ByTime); err != nil {
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
