package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lagoon-games/lagoon/internal/corr"
)

// This file keeps players' vacations (corr.Store; docs/players.md), which
// came with schema version 6.

// vacationsTable is schema version 6's table: a player's vacations, one
// row each, keyed by its start; a vacation ended early has its end moved.
// Rows carry no checksum: a damaged one is at worst a clock stopped or
// not, never a wrong move.
const vacationsTable = `
CREATE TABLE vacations (
	player TEXT NOT NULL REFERENCES players (id),
	starts INTEGER NOT NULL,
	ends   INTEGER NOT NULL,
	PRIMARY KEY (player, starts)
) WITHOUT ROWID;
`

// Vacations reads player's vacations that end after since, by start
// (corr.Store).
func (s *SQLite) Vacations(ctx context.Context, player string, since time.Time) ([]corr.Vacation, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT player, starts, ends FROM vacations WHERE player = ? AND ends > ? ORDER BY starts`, player, millis(since))
	if err != nil {
		return nil, fmt.Errorf("read vacations of %s: %w", player, s.unreadable(err))
	}
	defer rows.Close()
	out, err := ScanVacations(rows)
	if err != nil {
		return nil, fmt.Errorf("read vacations of %s: %w", player, err)
	}
	return out, nil
}

// SeatVacations reads the vacations that end after since of the holders
// of game id's seats, by seat (corr.Store).
func (s *SQLite) SeatVacations(ctx context.Context, id string, since time.Time) (map[int][]corr.Vacation, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT o.seat, v.player, v.starts, v.ends FROM seat_owners o JOIN vacations v ON v.player = o.player
		WHERE o.game = ? AND v.ends > ? ORDER BY o.seat, v.starts`, id, millis(since))
	if err != nil {
		return nil, fmt.Errorf("read vacations of game %s: %w", id, s.unreadable(err))
	}
	defer rows.Close()
	out, err := ScanSeatVacations(rows)
	if err != nil {
		return nil, fmt.Errorf("read vacations of game %s: %w", id, err)
	}
	return out, nil
}

// SetVacation stores a vacation, or the new end of the one of its player
// that starts at its start (corr.Store).
func (s *SQLite) SetVacation(ctx context.Context, v corr.Vacation) error {
	if !v.Start.Before(v.End) {
		return fmt.Errorf("set vacation of %s: it ends at %v, not after its start %v", v.Player, v.End, v.Start)
	}
	err := s.exec(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO vacations (player, starts, ends) VALUES (?, ?, ?) ON CONFLICT (player, starts) DO UPDATE SET ends = excluded.ends`,
			v.Player, millis(v.Start), millis(v.End))
		return err
	})
	if err != nil {
		return fmt.Errorf("set vacation of %s: %w", v.Player, err)
	}
	return nil
}

// ScanVacations reads rows of (player, start, end).
func ScanVacations(rows Rows) ([]corr.Vacation, error) {
	var out []corr.Vacation
	for rows.Next() {
		var v corr.Vacation
		var start, end int64
		if err := rows.Scan(&v.Player, &start, &end); err != nil {
			return nil, err
		}
		v.Start, v.End = fromMillis(start), fromMillis(end)
		out = append(out, v)
	}
	return out, rows.Err()
}

// ScanSeatVacations reads rows of (seat, player, start, end).
func ScanSeatVacations(rows Rows) (map[int][]corr.Vacation, error) {
	out := map[int][]corr.Vacation{}
	for rows.Next() {
		var v corr.Vacation
		var seat, start, end int64
		if err := rows.Scan(&seat, &v.Player, &start, &end); err != nil {
			return nil, err
		}
		v.Start, v.End = fromMillis(start), fromMillis(end)
		out[int(seat)] = append(out[int(seat)], v)
	}
	return out, rows.Err()
}
