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

// checkAt fails with ErrConflict unless game id is stored, not over, and
// at version. It returns the hash of the game's last move, nil for none.
func (s *Store) checkAt(tx *sql.Tx, id string, version int) ([]byte, error) {
	var over bool
	var last int
	var hash []byte
	err := tx.Stmt(s.head).QueryRow(id).Scan(&over, &last, &hash)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (over || last != version)) {
		return nil, ErrConflict
	}
	return hash, err
}

// moveSum is the hash of a move (see checksum.go): of the hash of the move
// before it, nil for the first, and of its row.
func moveSum(prev []byte, id string, version, seat int64, move string, at int64, clocks any, byTime int64) []byte {
	return sum(prev, id, version, seat, move, at, clocks, byTime)
}

// AppendMove stores the move that takes game id from version-1 to version,
// with the metadata after it. It fails with ErrConflict unless the game is
// at version-1 and not over, so a move is never stored twice or out of order.
// It writes the move's row, with its hash, and marks the move before it as
// followed; the game's row only for the game's first move, whose row then
// counts a move, or when the move ends the game or changes its seats.
func (s *Store) AppendMove(ctx context.Context, id string, version int, m Move, after After) error {
	clocks, err := jsonText(m.Clocks)
	if err != nil {
		return fmt.Errorf("store move %d of %s: %w", version, id, err)
	}
	// The writer writes copies (see UpdateSeats).
	m.Clocks, after.Seats = slices.Clone(m.Clocks), slices.Clone(after.Seats)
	after.Summary.Scores, after.Summary.Winners = slices.Clone(after.Summary.Scores), slices.Clone(after.Summary.Winners)
	err = s.exec(ctx, func(tx *sql.Tx) error {
		prev, err := s.checkAt(tx, id, version-1)
		if err != nil {
			return err
		}
		hash := moveSum(prev, id, int64(version), int64(m.Seat), m.Move, millis(m.At), clocks, boolInt(m.ByTime))
		if _, err := tx.Stmt(s.insertMove).Exec(id, version, m.Seat, m.Move, millis(m.At), clocks, m.ByTime, hash); err != nil {
			return err
		}
		if version > 1 {
			if _, err := tx.Stmt(s.follow).Exec(true, id, version-1); err != nil {
				return err
			}
			if !after.Over && after.Seats == nil {
				return nil
			}
		}
		return rewrite(tx, id, func(g *Game) bool {
			g.Version, g.Updated, g.Over, g.Summary, g.Clocks = version, m.At, after.Over, after.Summary, m.Clocks
			if after.Seats != nil {
				g.Seats = after.Seats
			}
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
func (s *Store) TakeBack(ctx context.Context, id string, from, to int, clocks []int64, reseeds []Reseed, at time.Time) error {
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

// moves reads the moves of game id in order, checking their hashes and
// that each but the last is followed.
func (s *Store) moves(ctx context.Context, id string) ([]Move, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+moveColumns+` FROM moves WHERE game = ? ORDER BY version`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Move
	var prev []byte
	followed := false
	for rows.Next() {
		v := len(out) + 1
		if v > 1 && !followed {
			return nil, fmt.Errorf("game %s: move %d says none follows it, and move %d does: %w", id, v-1, v, ErrDamaged)
		}
		m, next, hash, err := scanMove(rows, id, v, prev)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", id, err)
		}
		out, prev, followed = append(out, m), hash, next
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if followed {
		return nil, fmt.Errorf("game %s: move %d says another follows it, and none does: %w", id, len(out), ErrDamaged)
	}
	return out, nil
}

// scanMove reads the row of move version of game id, with whether another
// follows it, and checks it against its hash, which chains on prev, the
// hash of the move before; it returns the hash.
func scanMove(row scanner, id string, version int, prev []byte) (m Move, followed bool, hash []byte, _ error) {
	var cols [8]any
	if err := row.Scan(&cols[0], &cols[1], &cols[2], &cols[3], &cols[4], &cols[5], &cols[6], &cols[7]); err != nil {
		return m, false, nil, err
	}
	d := columns{values: cols[:]}
	if v := d.integer(0, "version"); d.err == nil && v != int64(version) {
		return m, false, nil, fmt.Errorf("move %d follows move %d: %w", v, version-1, ErrDamaged)
	}
	seat, move, at := d.integer(1, "seat"), d.text(2, "move"), d.integer(3, "at")
	if cols[4] != nil {
		d.json(4, "clocks", &m.Clocks)
	}
	byTime := d.flag(5, "by_time")
	followed = d.flag(7, "followed")
	if d.err != nil {
		return m, false, nil, fmt.Errorf("move %d: %w", version, d.err)
	}
	hash = moveSum(prev, id, int64(version), seat, move, at, cols[4], boolInt(byTime))
	if err := checkSum(cols[6], hash, fmt.Sprint("move ", version)); err != nil {
		return m, false, nil, err
	}
	m.Seat, m.Move, m.At, m.ByTime = int(seat), move, fromMillis(at), byTime
	return m, followed, hash, nil
}

// readMoves reads g's moves, and with them what a move changes without
// writing the game's row: the version, and the clocks and the time of the
// last change if a move came after the row was written (the row's version
// says how many moves there were then, so there are never fewer).
func (s *Store) readMoves(ctx context.Context, g *Game) error {
	moves, err := s.moves(ctx, g.ID)
	if err != nil {
		return err
	}
	n := len(moves)
	if n < g.Version {
		return fmt.Errorf("game %s: its row counts %d moves, and %d are stored: %w", g.ID, g.Version, n, ErrDamaged)
	}
	if n > g.Version {
		g.Updated, g.Clocks = moves[n-1].At, moves[n-1].Clocks
	}
	g.Moves, g.Version = moves, n
	return nil
}
