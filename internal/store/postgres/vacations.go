package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lagoon-games/lagoon/internal/corr"
	"github.com/lagoon-games/lagoon/internal/store"
)

// This file keeps players' vacations as the SQLite store keeps them
// (corr.Store).

// vacationsTable is schema version 6's table (see the SQLite store's).
const vacationsTable = `
CREATE TABLE vacations (
	player text NOT NULL REFERENCES players (id),
	starts bigint NOT NULL,
	ends  bigint NOT NULL,
	PRIMARY KEY (player, starts)
);
`

// Vacations reads player's vacations that end after since, by start
// (corr.Store).
func (s *Store) Vacations(ctx context.Context, player string, since time.Time) ([]corr.Vacation, error) {
	rows, err := s.pool.Query(ctx, `SELECT player, starts, ends FROM vacations WHERE player = $1 AND ends > $2 ORDER BY starts`, player, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("read vacations of %s: %w", player, err)
	}
	defer rows.Close()
	out, err := store.ScanVacations(rows)
	if err != nil {
		return nil, fmt.Errorf("read vacations of %s: %w", player, err)
	}
	return out, nil
}

// SeatVacations reads the vacations that end after since of the holders
// of game id's seats, by seat (corr.Store).
func (s *Store) SeatVacations(ctx context.Context, id string, since time.Time) (map[int][]corr.Vacation, error) {
	rows, err := s.pool.Query(ctx, `SELECT o.seat, v.player, v.starts, v.ends FROM seat_owners o JOIN vacations v ON v.player = o.player
		WHERE o.game = $1 AND v.ends > $2 ORDER BY o.seat, v.starts`, id, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("read vacations of game %s: %w", id, err)
	}
	defer rows.Close()
	out, err := store.ScanSeatVacations(rows)
	if err != nil {
		return nil, fmt.Errorf("read vacations of game %s: %w", id, err)
	}
	return out, nil
}

// SetVacation stores a vacation, or the new end of the one of its player
// that starts at its start (corr.Store), through the player's writer.
func (s *Store) SetVacation(ctx context.Context, v corr.Vacation) error {
	if !v.Start.Before(v.End) {
		return fmt.Errorf("set vacation of %s: it ends at %v, not after its start %v", v.Player, v.End, v.Start)
	}
	err := s.exec(ctx, v.Player, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO vacations (player, starts, ends) VALUES ($1, $2, $3) ON CONFLICT (player, starts) DO UPDATE SET ends = excluded.ends`,
			v.Player, v.Start.UnixMilli(), v.End.UnixMilli())
		return err
	})
	if err != nil {
		return fmt.Errorf("set vacation of %s: %w", v.Player, err)
	}
	return nil
}
