package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lagoon-games/lagoon/internal/store"
)

// This file holds the writes and reads of games, as the SQLite store
// writes and reads them (see its comments for why each is as it is).

// placeholders returns "$from, ..., $(from+n-1)".
func placeholders(from, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", from+i)
	}
	return b.String()
}

var (
	gameColumnCount = strings.Count(store.GameColumns, ",") + 1
	insertGame      = `INSERT INTO games (` + store.GameColumns + `) VALUES (` + placeholders(1, gameColumnCount) + `) ON CONFLICT (id) DO NOTHING`
	updateGame      = `UPDATE games SET (` + store.GameColumns + `) = (` + placeholders(1, gameColumnCount) + fmt.Sprintf(`) WHERE id = $%d`, gameColumnCount+1)
	insertMove      = `INSERT INTO moves (game, version, seat, move, at, clocks, by_time, hash, followed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`
	follow          = `UPDATE moves SET followed = $1 WHERE game = $2 AND version = $3`
	// byID orders ids as SQLite does, byte by byte, whatever the
	// database's collation.
	byID = `id COLLATE "C"`
)

// Create stores a new game with no moves (store.Store).
func (s *Store) Create(ctx context.Context, g *store.Game) error {
	row := *g
	row.Updated, row.Version, row.Over, row.TakeBacks, row.Expired, row.Moves = g.Created, 0, false, 0, false, nil
	values, err := store.GameRow(&row)
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	err = s.exec(ctx, g.ID, func(ctx context.Context, tx pgx.Tx) error {
		return insertNew(ctx, tx, values)
	})
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	return nil
}

// insertNew inserts a game's row, failing with ErrConflict if its id is
// taken.
func insertNew(ctx context.Context, tx pgx.Tx, values []any) error {
	tag, err := tx.Exec(ctx, insertGame, values...)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return store.ErrConflict
	}
	return nil
}

// Import stores a whole game with its moves (store.Store).
func (s *Store) Import(ctx context.Context, g *store.Game) error {
	row, moves, err := store.ImportRows(g)
	if err != nil {
		return fmt.Errorf("import game %s: %w", g.ID, err)
	}
	err = s.exec(ctx, g.ID, func(ctx context.Context, tx pgx.Tx) error {
		if err := insertNew(ctx, tx, row); err != nil {
			return err
		}
		var batch pgx.Batch
		for i, m := range moves {
			batch.Queue(insertMove, append(m, boolInt(i < len(moves)-1))...)
		}
		return tx.SendBatch(ctx, &batch).Close()
	})
	if err != nil {
		return fmt.Errorf("import game %s: %w", g.ID, err)
	}
	return nil
}

// UpdateSeats stores a game's seats and clocks (store.Store).
func (s *Store) UpdateSeats(ctx context.Context, id string, version int, seats []store.Seat, clocks []int64, at time.Time) error {
	seats, clocks = slices.Clone(seats), slices.Clone(clocks)
	err := s.exec(ctx, id, func(ctx context.Context, tx pgx.Tx) error {
		return rewrite(ctx, tx, id, func(g *store.Game) bool {
			g.Seats, g.Clocks, g.Updated, g.Version = seats, clocks, at, version
			return true
		})
	})
	if err != nil {
		return fmt.Errorf("store seats of %s: %w", id, err)
	}
	return nil
}

// Expire marks game id, not over, as given up (store.Store).
func (s *Store) Expire(ctx context.Context, id string, at time.Time) error {
	err := s.exec(ctx, id, func(ctx context.Context, tx pgx.Tx) error {
		err := rewrite(ctx, tx, id, func(g *store.Game) bool {
			g.Expired, g.Updated = true, at
			return !g.Over
		})
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("expire game %s: %w", id, err)
	}
	return nil
}

// rewrite reads game id's row, checking its checksum, lets change change
// it and, if change says so, writes it whole with its new checksum.
func rewrite(ctx context.Context, tx pgx.Tx, id string, change func(g *store.Game) bool) error {
	g, err := store.ScanGame(tx.QueryRow(ctx, `SELECT `+store.GameColumns+` FROM games WHERE id = $1 FOR UPDATE`, id))
	if noRows(err) {
		return store.ErrNotFound
	}
	if err != nil {
		return err
	}
	if !change(g) {
		return nil
	}
	values, err := store.GameRow(g)
	if err != nil {
		return err
	}
	if _, err = tx.Exec(ctx, updateGame, append(values, g.ID)...); err != nil {
		return err
	}
	follow, err := store.SeatsFollowArgs(g)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, store.SeatsFollow, follow...)
	return err
}

// checkAt fails with ErrConflict unless game id is stored, not over, and
// at version, and locks its row. It returns the hash of the game's last
// move, nil for none.
func checkAt(ctx context.Context, tx pgx.Tx, id string, version int) ([]byte, error) {
	var over bool
	var last int64
	var hash []byte
	err := tx.QueryRow(ctx, `SELECT g.over <> 0, coalesce(m.version, 0), m.hash FROM games g LEFT JOIN moves m ON m.game = g.id
		WHERE g.id = $1 ORDER BY m.version DESC LIMIT 1 FOR UPDATE OF g`, id).Scan(&over, &last, &hash)
	if noRows(err) || (err == nil && (over || last != int64(version))) {
		return nil, store.ErrConflict
	}
	return hash, err
}

// AppendMove stores the move that takes game id from version-1 to version
// (store.Store).
func (s *Store) AppendMove(ctx context.Context, id string, version int, m store.Move, after store.After) error {
	m.Clocks, after.Seats = slices.Clone(m.Clocks), slices.Clone(after.Seats)
	after.Summary.Scores, after.Summary.Winners = slices.Clone(after.Summary.Scores), slices.Clone(after.Summary.Winners)
	err := s.exec(ctx, id, func(ctx context.Context, tx pgx.Tx) error {
		prev, err := checkAt(ctx, tx, id, version-1)
		if err != nil {
			return err
		}
		row, err := store.MoveRow(prev, id, version, m)
		if err != nil {
			return err
		}
		// The move and the mark on the move before it go in one round
		// trip.
		var batch pgx.Batch
		batch.Queue(insertMove, append(row, int64(0))...)
		if version > 1 {
			batch.Queue(follow, int64(1), id, version-1)
		}
		keepsRow := version > 1 && !after.Over && after.Seats == nil
		if keepsRow {
			// The seats' lines follow the move in the same round trip.
			args, err := store.MoveFollowArgs(id, version, m.At, after)
			if err != nil {
				return err
			}
			batch.Queue(store.MoveFollow, args...)
		}
		if err := tx.SendBatch(ctx, &batch).Close(); err != nil {
			return err
		}
		if keepsRow {
			return nil
		}
		return rewrite(ctx, tx, id, func(g *store.Game) bool {
			after.Apply(g, version, m)
			return true
		})
	})
	if err != nil {
		return fmt.Errorf("store move %d of %s: %w", version, id, err)
	}
	return nil
}

// TakeBack removes the moves of game id after version to (store.Store).
func (s *Store) TakeBack(ctx context.Context, id string, from, to int, clocks []int64, reseeds []store.Reseed, at time.Time) error {
	if to < 0 || to > from {
		return fmt.Errorf("take back moves %d to %d of %s: %w", to+1, from, id, store.ErrConflict)
	}
	clocks, reseeds = slices.Clone(clocks), slices.Clone(reseeds)
	err := s.exec(ctx, id, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := checkAt(ctx, tx, id, from); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM moves WHERE game = $1 AND version > $2`, id, to); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, follow, int64(0), id, to); err != nil {
			return err
		}
		return rewrite(ctx, tx, id, func(g *store.Game) bool {
			g.Version, g.Clocks, g.Reseeds, g.Updated, g.TakeBacks = to, clocks, reseeds, at, g.TakeBacks+1
			return true
		})
	})
	if err != nil {
		return fmt.Errorf("take back moves %d to %d of %s: %w", to+1, from, id, err)
	}
	return nil
}

// Game reads game id with its moves (store.Store).
func (s *Store) Game(ctx context.Context, id string) (*store.Game, error) {
	var g *store.Game
	err := s.read(ctx, func(tx pgx.Tx) error {
		var err error
		g, err = store.ScanGame(tx.QueryRow(ctx, `SELECT `+store.GameColumns+` FROM games WHERE id = $1`, id))
		if noRows(err) {
			return rowMissing(ctx, tx, id)
		}
		if err != nil {
			return err
		}
		return readMoves(ctx, tx, g)
	})
	if err != nil {
		return nil, fmt.Errorf("read game %s: %w", id, err)
	}
	return g, nil
}

// rowMissing returns ErrNotFound for a game that has no row, unless it has
// moves: then its row went missing, and it is damaged.
func rowMissing(ctx context.Context, tx pgx.Tx, id string) error {
	var moves bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM moves WHERE game = $1)`, id).Scan(&moves); err != nil {
		return err
	}
	if moves {
		return fmt.Errorf("game %s: its moves are stored and its row is not: %w", id, store.ErrDamaged)
	}
	return store.ErrNotFound
}

// readMoves reads g's moves (store.ReadMoves).
func readMoves(ctx context.Context, tx pgx.Tx, g *store.Game) error {
	rows, err := tx.Query(ctx, `SELECT `+store.MoveColumns+` FROM moves WHERE game = $1 ORDER BY version`, g.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	return store.ReadMoves(g, rows)
}

// InProgress reads every game neither over nor expired, with its moves
// (store.Store).
func (s *Store) InProgress(ctx context.Context) (games []*store.Game, damaged []store.Damaged, _ error) {
	err := s.read(ctx, func(tx pgx.Tx) error {
		all, bad, err := list(ctx, tx, `SELECT `+store.GameColumns+` FROM games WHERE over <> 1 AND expired <> 1 ORDER BY created, `+byID)
		if err != nil {
			return err
		}
		games, damaged = nil, bad
		for _, g := range all {
			if err := readMoves(ctx, tx, g); err != nil {
				if ctx.Err() != nil || databaseFailed(tx, err) {
					return err
				}
				damaged = append(damaged, store.Damaged{ID: g.ID, Err: err})
				continue
			}
			games = append(games, g)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read games in progress: %w", err)
	}
	return games, damaged, nil
}

// Finished reads the limit games that ended last, without their moves
// (store.Store).
func (s *Store) Finished(ctx context.Context, limit int) (games []*store.Game, damaged []store.Damaged, _ error) {
	err := s.read(ctx, func(tx pgx.Tx) error {
		var err error
		games, damaged, err = list(ctx, tx, `SELECT `+store.GameColumns+` FROM games WHERE over = 1 ORDER BY updated DESC, `+byID+` LIMIT $1`, limit)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read finished games: %w", err)
	}
	return games, damaged, nil
}

// list reads the games of a query (store.ScanGames).
func list(ctx context.Context, tx pgx.Tx, query string, args ...any) ([]*store.Game, []store.Damaged, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	return store.ScanGames(rows)
}

// IDs returns the id of every stored game, in order (store.Store).
func (s *Store) IDs(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM games ORDER BY `+byID)
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	return ids, nil
}

// databaseFailed says err is the database's or the connection's, not a
// game's rows that do not read (which are the game's damage).
func databaseFailed(tx pgx.Tx, err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) || tx.Conn().IsClosed()
}

// boolInt returns a bool as the store writes it, a bigint 0 or 1.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
