package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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

// Apply changes g, whose row is written with move version, m, to what it
// is after the move.
func (after After) Apply(g *Game, version int, m Move) {
	g.Version, g.Updated, g.Over, g.Summary, g.Clocks = version, m.At, after.Over, after.Summary, m.Clocks
	if after.Seats != nil {
		g.Seats = after.Seats
	}
}

// checkAt fails with ErrConflict unless game id is stored, not over, and
// at version. It returns the hash of the game's last move, nil for none.
func (s *SQLite) checkAt(tx *sql.Tx, id string, version int) ([]byte, error) {
	var over bool
	var last int
	var hash []byte
	err := tx.Stmt(s.head).QueryRow(id).Scan(&over, &last, &hash)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (over || last != version)) {
		return nil, ErrConflict
	}
	return hash, err
}

// AppendMove stores the move that takes game id from version-1 to version,
// with the metadata after it. It fails with ErrConflict unless the game is
// at version-1 and not over, so a move is never stored twice or out of order.
// It writes the move's row, with its hash, and marks the move before it as
// followed; the game's row only for the game's first move, whose row then
// counts a move, or when the move ends the game or changes its seats.
func (s *SQLite) AppendMove(ctx context.Context, id string, version int, m Move, after After) error {
	// The writer writes copies (see UpdateSeats).
	m.Clocks, after.Seats = slices.Clone(m.Clocks), slices.Clone(after.Seats)
	after.Summary.Scores, after.Summary.Winners = slices.Clone(after.Summary.Scores), slices.Clone(after.Summary.Winners)
	err := s.exec(ctx, func(tx *sql.Tx) error {
		prev, err := s.checkAt(tx, id, version-1)
		if err != nil {
			return err
		}
		row, err := MoveRow(prev, id, version, m)
		if err != nil {
			return err
		}
		if _, err := tx.Stmt(s.insertMove).Exec(row...); err != nil {
			return err
		}
		if version > 1 {
			if _, err := tx.Stmt(s.follow).Exec(true, id, version-1); err != nil {
				return err
			}
			if !after.Over && after.Seats == nil {
				args, err := MoveFollowArgs(id, version, m.At, after)
				if err != nil {
					return err
				}
				_, err = tx.Stmt(s.moveFollow).Exec(args...)
				return err
			}
		}
		return rewrite(tx, id, func(g *Game) bool {
			after.Apply(g, version, m)
			return true
		})
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
func (s *SQLite) TakeBack(ctx context.Context, id string, from, to int, clocks []int64, reseeds []Reseed, at time.Time) error {
	if to < 0 || to > from {
		return fmt.Errorf("take back moves %d to %d of %s: %w", to+1, from, id, ErrConflict)
	}
	clocks, reseeds = slices.Clone(clocks), slices.Clone(reseeds)
	err := s.exec(ctx, func(tx *sql.Tx) error {
		if _, err := s.checkAt(tx, id, from); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM moves WHERE game = ? AND version > ?`, id, to); err != nil {
			return err
		}
		if _, err := tx.Stmt(s.follow).Exec(false, id, to); err != nil {
			return err
		}
		return rewrite(tx, id, func(g *Game) bool {
			g.Version, g.Clocks, g.Reseeds, g.Updated, g.TakeBacks = to, clocks, reseeds, at, g.TakeBacks+1
			return true
		})
	})
	if err != nil {
		return fmt.Errorf("take back moves %d to %d of %s: %w", to+1, from, id, err)
	}
	return nil
}
