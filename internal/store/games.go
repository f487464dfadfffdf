package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// This file holds the writes and reads of games' rows.

// Create stores a new game with no moves.
func (s *SQLite) Create(ctx context.Context, g *Game) error {
	row := *g
	row.Updated, row.Version, row.Over, row.TakeBacks, row.Expired, row.Moves = g.Created, 0, false, 0, false, nil
	values, err := GameRow(&row)
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	err = s.exec(ctx, func(tx *sql.Tx) error {
		if err := refuseStored(tx, g.ID); err != nil {
			return err
		}
		_, err := tx.Exec(insertGame, values...)
		return err
	})
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	return nil
}

// refuseStored fails with ErrConflict if a game of id is stored: Create
// and Import store only new games.
func refuseStored(tx *sql.Tx, id string) error {
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM games WHERE id = ?`, id).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return ErrConflict
	}
	return nil
}

// Import stores g, a whole game with its moves (see Store): its row, which
// counts every move, and its moves' rows, chained as AppendMove chains them.
func (s *SQLite) Import(ctx context.Context, g *Game) error {
	row, moves, err := ImportRows(g)
	if err != nil {
		return fmt.Errorf("import game %s: %w", g.ID, err)
	}
	err = s.exec(ctx, func(tx *sql.Tx) error {
		if err := refuseStored(tx, g.ID); err != nil {
			return err
		}
		if _, err := tx.Exec(insertGame, row...); err != nil {
			return err
		}
		for i, m := range moves {
			if _, err := tx.Stmt(s.insertMove).Exec(m...); err != nil {
				return err
			}
			if _, err := tx.Stmt(s.follow).Exec(i < len(moves)-1, g.ID, i+1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("import game %s: %w", g.ID, err)
	}
	return nil
}

// IDs returns the id of every stored game, in order (see Store).
func (s *SQLite) IDs(ctx context.Context) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id FROM games ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list games: %w", s.unreadable(err))
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("list games: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list games: %w", s.unreadable(err))
	}
	return ids, nil
}

// UpdateSeats stores a game's seats and clocks, which change without a move
// (a seat joins or is left to a bot, a clock runs out); version is the number
// of moves the game has.
func (s *SQLite) UpdateSeats(ctx context.Context, id string, version int, seats []Seat, clocks []int64, at time.Time) error {
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
func (s *SQLite) Expire(ctx context.Context, id string, at time.Time) error {
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
	insertGame = `INSERT INTO games (` + GameColumns + `) VALUES (?` + strings.Repeat(", ?", strings.Count(GameColumns, ",")) + `)`
	updateGame = `UPDATE games SET (` + GameColumns + `) = (?` + strings.Repeat(", ?", strings.Count(GameColumns, ",")) + `) WHERE id = ?`
)

// rewrite reads game id's row, checking its checksum, lets change change
// it and, if change says so, writes it with its new checksum: a row is
// written whole, so that its checksum never vouches for a damaged value.
func rewrite(tx *sql.Tx, id string, change func(g *Game) bool) error {
	g, err := ScanGame(tx.QueryRow(`SELECT `+GameColumns+` FROM games WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	if !change(g) {
		return nil
	}
	values, err := GameRow(g)
	if err != nil {
		return err
	}
	if _, err = tx.Exec(updateGame, append(values, g.ID)...); err != nil {
		return err
	}
	follow, err := SeatsFollowArgs(g)
	if err != nil {
		return err
	}
	_, err = tx.Exec(SeatsFollow, follow...)
	return err
}

// SeatsFollow brings the rows of a game's seats held (placeholder 6) to
// whether it ended (1), when its row was written (2) and its line (3 to 5,
// LineColumns), after a write of its row; a game without seats held costs
// a look into the key. A write of the row at the version the seats' rows
// have (seats changed, no move) keeps their summary, which the moves since
// the row's last write brought (MoveFollow) and the row does not have.
const SeatsFollow = `UPDATE seat_owners SET ended = $1, updated = $2, line = $3,
	summary = CASE WHEN version = $4 THEN summary ELSE $5 END, version = $4 WHERE game = $6`

// SeatsFollowArgs are SeatsFollow's values for g.
func SeatsFollowArgs(g *Game) ([]any, error) {
	cols, err := LineColumns(g)
	if err != nil {
		return nil, err
	}
	return append(append([]any{GameEnded(g), millis(g.Updated)}, cols...), g.ID), nil
}

// GameEnded is a seat row's ended: the game is over or was given up.
func GameEnded(g *Game) int64 { return boolInt(g.Over || g.Expired) }

// Game reads game id with its moves.
func (s *SQLite) Game(ctx context.Context, id string) (*Game, error) {
	g, err := ScanGame(s.read.QueryRowContext(ctx, `SELECT `+GameColumns+` FROM games WHERE id = ?`, id))
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
func (s *SQLite) rowMissing(ctx context.Context, id string) error {
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
func (s *SQLite) InProgress(ctx context.Context) (games []*Game, damaged []Damaged, _ error) {
	all, bad, err := s.listAll(ctx, `SELECT `+GameColumns+` FROM games WHERE over IS NOT 1 AND expired IS NOT 1 ORDER BY created, id`)
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
func (s *SQLite) Finished(ctx context.Context, limit int) (games []*Game, damaged []Damaged, _ error) {
	games, damaged, err := s.listAll(ctx, `SELECT `+GameColumns+` FROM games WHERE over = 1 ORDER BY updated DESC, id LIMIT ?`, limit)
	if err != nil {
		return nil, nil, fmt.Errorf("read finished games: %w", s.unreadable(err))
	}
	return games, damaged, nil
}

// listAll reads the games of a query, and apart the games whose rows do
// not decode or do not match their checksums.
func (s *SQLite) listAll(ctx context.Context, query string, args ...any) (games []*Game, damaged []Damaged, _ error) {
	rows, err := s.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	return ScanGames(rows)
}

// readMoves reads g's moves (ReadMoves).
func (s *SQLite) readMoves(ctx context.Context, g *Game) error {
	rows, err := s.read.QueryContext(ctx, `SELECT `+MoveColumns+` FROM moves WHERE game = ? ORDER BY version`, g.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	return ReadMoves(g, rows)
}
