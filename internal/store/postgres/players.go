package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// This file keeps players, their sessions and the seats they hold, as the
// SQLite store keeps them (players.Store, store.Store's OwnSeat and
// PlayerGames).

// playersTables are the tables of schema version 5 that version 4 did not
// have (see the SQLite store's).
const playersTables = `
CREATE TABLE players (
	id       text PRIMARY KEY,
	name     text NOT NULL,
	name_key text NOT NULL UNIQUE,
	guest    bigint NOT NULL,
	created  bigint NOT NULL
);
CREATE TABLE sessions (
	hash       bytea PRIMARY KEY,
	player     text NOT NULL REFERENCES players (id),
	created    bigint NOT NULL,
	last_seen  bigint NOT NULL,
	user_agent text NOT NULL
);
CREATE INDEX sessions_player ON sessions (player, created);
CREATE TABLE seat_owners (
	game    text NOT NULL REFERENCES games (id),
	seat    bigint NOT NULL,
	player  text NOT NULL REFERENCES players (id),
	at      bigint NOT NULL,
	ended   bigint NOT NULL,
	updated bigint NOT NULL,
	PRIMARY KEY (game, seat)
);
CREATE INDEX seat_owners_player ON seat_owners (player, ended, updated);
`

// CreatePlayer stores a new player with its first session (players.Store).
func (s *Store) CreatePlayer(ctx context.Context, p players.Player, first players.Session) error {
	if err := s.insertPlayer(ctx, p, []players.Session{first}); err != nil {
		return fmt.Errorf("create player %s: %w", p.ID, err)
	}
	return nil
}

// ImportPlayer stores a player with its sessions (players.Store).
func (s *Store) ImportPlayer(ctx context.Context, p players.Player, sessions []players.Session) error {
	if err := s.insertPlayer(ctx, p, sessions); err != nil {
		return fmt.Errorf("import player %s: %w", p.ID, err)
	}
	return nil
}

// insertPlayer stores a new player and its sessions in one write, refused
// as store.RefuseImport refuses them. It goes through the writer of the
// name's key: two writers inserting the same key would wait on each
// other's uncommitted rows, and with a second name each, the other way
// too (a deadlock).
func (s *Store) insertPlayer(ctx context.Context, p players.Player, sessions []players.Session) error {
	return s.exec(ctx, players.NameKey(p.Name), func(ctx context.Context, tx pgx.Tx) error {
		query := func(args ...any) store.Scanner { return tx.QueryRow(ctx, store.RefuseStoredPlayerQuery, args...) }
		if err := store.RefuseImport(query, p, sessions); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO players (id, name, name_key, guest, created) VALUES ($1, $2, $3, $4, $5)`,
			p.ID, p.Name, players.NameKey(p.Name), boolInt(p.Guest), p.Created.UnixMilli())
		for i := 0; err == nil && i < len(sessions); i++ {
			_, err = tx.Exec(ctx, `INSERT INTO sessions (hash, player, created, last_seen, user_agent) VALUES ($1, $2, $3, $4, $5)`,
				sessions[i].Hash, p.ID, sessions[i].Created.UnixMilli(), sessions[i].LastSeen.UnixMilli(), sessions[i].UserAgent)
		}
		// Another writer may have stored the same hash meanwhile (a
		// name goes through this writer alone).
		var pe *pgconn.PgError
		if uniqueViolation(err) && errors.As(err, &pe) {
			if strings.Contains(pe.ConstraintName, "name_key") {
				return players.ErrNameTaken
			}
			return players.ErrExists
		}
		return err
	})
}

// PlayerIDs returns every player's id, in order (players.Store), byte by
// byte as SQLite orders them.
func (s *Store) PlayerIDs(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM players ORDER BY `+byID)
	if err != nil {
		return nil, fmt.Errorf("list players: %w", err)
	}
	defer rows.Close()
	ids, err := store.ScanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("list players: %w", err)
	}
	return ids, nil
}

// OwnedSeats reads the seats a player holds (store.Store).
func (s *Store) OwnedSeats(ctx context.Context, player string) ([]store.OwnedSeat, error) {
	rows, err := s.pool.Query(ctx, store.OwnedSeatsQuery, player)
	if err != nil {
		return nil, fmt.Errorf("read the seats of %s: %w", player, err)
	}
	defer rows.Close()
	out, err := store.ScanOwned(rows)
	if err != nil {
		return nil, fmt.Errorf("read the seats of %s: %w", player, err)
	}
	return out, nil
}

// Player reads player id (players.Store).
func (s *Store) Player(ctx context.Context, id string) (players.Player, error) {
	p, err := store.ScanPlayer(s.pool.QueryRow(ctx, `SELECT `+store.PlayerColumns+` FROM players WHERE id = $1`, id))
	if err != nil {
		return players.Player{}, fmt.Errorf("read player %s: %w", id, err)
	}
	return p, nil
}

// Session reads a session and its player (players.Store).
func (s *Store) Session(ctx context.Context, hash []byte) (players.Session, players.Player, error) {
	sess, p, err := store.ScanSession(s.pool.QueryRow(ctx, store.SessionQuery+` WHERE s.hash = $1`, hash))
	if err != nil {
		return sess, p, fmt.Errorf("read session: %w", err)
	}
	return sess, p, nil
}

// TouchSession sets a session's last seen time (players.Store).
func (s *Store) TouchSession(ctx context.Context, hash []byte, at time.Time) error {
	err := s.exec(ctx, string(hash), func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE sessions SET last_seen = $1 WHERE hash = $2`, at.UnixMilli(), hash)
		if err == nil && tag.RowsAffected() == 0 {
			return players.ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("touch session: %w", err)
	}
	return nil
}

// EndSession ends a session (players.Store).
func (s *Store) EndSession(ctx context.Context, hash []byte) error {
	err := s.exec(ctx, string(hash), func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM sessions WHERE hash = $1`, hash)
		return err
	})
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// Sessions reads a player's sessions, oldest first (players.Store).
func (s *Store) Sessions(ctx context.Context, player string) ([]players.Session, error) {
	rows, err := s.pool.Query(ctx, store.SessionQuery+` WHERE s.player = $1 ORDER BY s.created, s.hash`, player)
	if err != nil {
		return nil, fmt.Errorf("read sessions of %s: %w", player, err)
	}
	defer rows.Close()
	out, err := store.ScanSessions(rows)
	if err != nil {
		return nil, fmt.Errorf("read sessions of %s: %w", player, err)
	}
	return out, nil
}

// Rename gives a player a name (players.Store), through the writer of
// the name's key, as CreatePlayer.
func (s *Store) Rename(ctx context.Context, id, name string) error {
	err := s.exec(ctx, players.NameKey(name), func(ctx context.Context, tx pgx.Tx) error {
		if err := store.RefuseTakenName(tx.QueryRow(ctx, store.TakenNameQuery, players.NameKey(name), id)); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE players SET name = $1, name_key = $2 WHERE id = $3`, name, players.NameKey(name), id)
		if uniqueViolation(err) {
			return players.ErrNameTaken
		}
		if err == nil && tag.RowsAffected() == 0 {
			return players.ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("rename player %s: %w", id, err)
	}
	return nil
}

// uniqueViolation says err is a unique constraint's refusal.
func uniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// OwnSeat records a seat's holder (store.Store). It goes through the
// game's writer, after the game's own writes.
func (s *Store) OwnSeat(ctx context.Context, id string, seat int, player string, at time.Time) error {
	err := s.exec(ctx, id, func(ctx context.Context, tx pgx.Tx) error {
		row, err := store.OwnSeatRow(func(query string, args ...any) store.Scanner { return tx.QueryRow(ctx, query, args...) }, id, seat, player, at)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, store.OwnSeatUpsert, row...)
		return err
	})
	if err != nil {
		return fmt.Errorf("own seat %d of %s: %w", seat, id, err)
	}
	return nil
}

// PlayerGames reads the lines of the games in which a player holds seats
// (store.Store), as of one moment.
func (s *Store) PlayerGames(ctx context.Context, player string, limit int, before *store.Cursor) (playing, ended []store.PlayerGame, damaged []store.Damaged, _ error) {
	err := s.read(ctx, func(tx pgx.Tx) error {
		list := func(query string, args ...any) ([]store.PlayerGame, error) {
			rows, err := tx.Query(ctx, query, args...)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			out, bad, err := store.ScanLines(rows)
			damaged = append(damaged, bad...)
			return out, err
		}
		var err error
		if before == nil {
			if playing, err = list(store.PlayingLinesQuery, player); err != nil {
				return err
			}
		}
		ended, err = list(endedLinesQuery, store.EndedLinesArgs(player, limit, before)...)
		return err
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read the games of player %s: %w", player, err)
	}
	return playing, ended, damaged, nil
}

// endedLinesQuery is store.EndedLinesQuery as PostgreSQL runs it fast: a
// page's games found each by its key (LATERAL, kept apart by OFFSET 0 so
// that the planner does not fold it into a join, and on the game alone,
// the key's first column, so that it is not looked for among the player's
// rows by the other index), where the join that PostgreSQL would choose
// for the SQLite store's form reads every row of the player's.
const endedLinesQuery = `SELECT s.game, s.seat, s.line, s.version, s.summary, s.updated FROM (
	SELECT DISTINCT updated, game FROM seat_owners WHERE player = $1 AND ended = 1
		AND (updated < $2 OR (updated = $2 AND game < $3)) ORDER BY updated DESC, game DESC LIMIT $4) AS page
	CROSS JOIN LATERAL (SELECT * FROM seat_owners WHERE game = page.game OFFSET 0) AS s
	WHERE s.player = $1 ORDER BY s.updated DESC, s.game DESC, s.seat`
