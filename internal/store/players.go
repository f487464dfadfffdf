package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lagoon-games/lagoon/internal/players"
)

// This file keeps players, their sessions and the seats they hold
// (players.Store, OwnSeat, PlayerGames; docs/players.md); lines.go keeps
// the lines of their games.

// CreatePlayer stores a new player with its first session (players.Store).
func (s *SQLite) CreatePlayer(ctx context.Context, p players.Player, first players.Session) error {
	if err := s.insertPlayer(ctx, p, []players.Session{first}); err != nil {
		return fmt.Errorf("create player %s: %w", p.ID, err)
	}
	return nil
}

// ImportPlayer stores a player with its sessions (players.Store).
func (s *SQLite) ImportPlayer(ctx context.Context, p players.Player, sessions []players.Session) error {
	if err := s.insertPlayer(ctx, p, sessions); err != nil {
		return fmt.Errorf("import player %s: %w", p.ID, err)
	}
	return nil
}

// insertPlayer stores a new player and its sessions in one write, refused
// as RefuseImport refuses them.
func (s *SQLite) insertPlayer(ctx context.Context, p players.Player, sessions []players.Session) error {
	return s.exec(ctx, func(tx *sql.Tx) error {
		query := func(args ...any) Scanner { return tx.QueryRow(RefuseStoredPlayerQuery, args...) }
		if err := RefuseImport(query, p, sessions); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO players (id, name, name_key, guest, created) VALUES (?, ?, ?, ?, ?)`,
			p.ID, p.Name, players.NameKey(p.Name), boolInt(p.Guest), millis(p.Created)); err != nil {
			return err
		}
		for _, sess := range sessions {
			if _, err := tx.Exec(`INSERT INTO sessions (hash, player, created, last_seen, user_agent) VALUES (?, ?, ?, ?, ?)`,
				sess.Hash, p.ID, millis(sess.Created), millis(sess.LastSeen), sess.UserAgent); err != nil {
				return err
			}
		}
		return nil
	})
}

// PlayerIDs returns every player's id, in order (players.Store).
func (s *SQLite) PlayerIDs(ctx context.Context) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id FROM players ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list players: %w", s.unreadable(err))
	}
	defer rows.Close()
	ids, err := ScanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("list players: %w", err)
	}
	return ids, nil
}

// OwnedSeats reads the seats a player holds (Store).
func (s *SQLite) OwnedSeats(ctx context.Context, player string) ([]OwnedSeat, error) {
	rows, err := s.read.QueryContext(ctx, OwnedSeatsQuery, player)
	if err != nil {
		return nil, fmt.Errorf("read the seats of %s: %w", player, s.unreadable(err))
	}
	defer rows.Close()
	out, err := ScanOwned(rows)
	if err != nil {
		return nil, fmt.Errorf("read the seats of %s: %w", player, err)
	}
	return out, nil
}

// Player reads player id (players.Store).
func (s *SQLite) Player(ctx context.Context, id string) (players.Player, error) {
	p, err := ScanPlayer(s.read.QueryRowContext(ctx, `SELECT `+PlayerColumns+` FROM players WHERE id = ?`, id))
	if err != nil {
		return players.Player{}, fmt.Errorf("read player %s: %w", id, s.unreadable(err))
	}
	return p, nil
}

// Session reads a session and its player (players.Store).
func (s *SQLite) Session(ctx context.Context, hash []byte) (players.Session, players.Player, error) {
	sess, p, err := ScanSession(s.read.QueryRowContext(ctx, SessionQuery+` WHERE s.hash = ?`, hash))
	if err != nil {
		return sess, p, fmt.Errorf("read session: %w", s.unreadable(err))
	}
	return sess, p, nil
}

// TouchSession sets a session's last seen time (players.Store).
func (s *SQLite) TouchSession(ctx context.Context, hash []byte, at time.Time) error {
	err := s.exec(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE sessions SET last_seen = ? WHERE hash = ?`, millis(at), hash)
		return oneRow(res, err, players.ErrNotFound)
	})
	if err != nil {
		return fmt.Errorf("touch session: %w", err)
	}
	return nil
}

// EndSession ends a session (players.Store).
func (s *SQLite) EndSession(ctx context.Context, hash []byte) error {
	err := s.exec(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`DELETE FROM sessions WHERE hash = ?`, hash)
		return err
	})
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// Sessions reads a player's sessions, oldest first (players.Store).
func (s *SQLite) Sessions(ctx context.Context, player string) ([]players.Session, error) {
	rows, err := s.read.QueryContext(ctx, SessionQuery+` WHERE s.player = ? ORDER BY s.created, s.hash`, player)
	if err != nil {
		return nil, fmt.Errorf("read sessions of %s: %w", player, s.unreadable(err))
	}
	defer rows.Close()
	out, err := ScanSessions(rows)
	if err != nil {
		return nil, fmt.Errorf("read sessions of %s: %w", player, err)
	}
	return out, nil
}

// Rename gives a player a name (players.Store).
func (s *SQLite) Rename(ctx context.Context, id, name string) error {
	err := s.exec(ctx, func(tx *sql.Tx) error {
		if err := RefuseTakenName(tx.QueryRow(TakenNameQuery, players.NameKey(name), id)); err != nil {
			return err
		}
		res, err := tx.Exec(`UPDATE players SET name = ?, name_key = ? WHERE id = ?`, name, players.NameKey(name), id)
		return oneRow(res, err, players.ErrNotFound)
	})
	if err != nil {
		return fmt.Errorf("rename player %s: %w", id, err)
	}
	return nil
}

// OwnSeat records a seat's holder (Store), with its game's line.
func (s *SQLite) OwnSeat(ctx context.Context, id string, seat int, player string, at time.Time) error {
	err := s.exec(ctx, func(tx *sql.Tx) error {
		row, err := OwnSeatRow(func(query string, args ...any) Scanner { return tx.QueryRow(query, args...) }, id, seat, player, at)
		if err != nil {
			return err
		}
		_, err = tx.Exec(OwnSeatUpsert, row...)
		return err
	})
	if err != nil {
		return fmt.Errorf("own seat %d of %s: %w", seat, id, err)
	}
	return nil
}

// PlayerGames reads the lines of the games in which a player holds seats
// (Store), as of one moment: in one read transaction.
func (s *SQLite) PlayerGames(ctx context.Context, player string, limit int, before *Cursor) (playing, ended []PlayerGame, damaged []Damaged, _ error) {
	err := func() error {
		tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		list := func(query string, args ...any) ([]PlayerGame, error) {
			rows, err := tx.QueryContext(ctx, query, args...)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			out, bad, err := ScanLines(rows)
			damaged = append(damaged, bad...)
			return out, err
		}
		if before == nil {
			if playing, err = list(PlayingLinesQuery, player); err != nil {
				return err
			}
		}
		ended, err = list(EndedLinesQuery, EndedLinesArgs(player, limit, before)...)
		return err
	}()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read the games of player %s: %w", player, s.unreadable(err))
	}
	return playing, ended, damaged, nil
}

// RefuseImport fails as RefuseStoredPlayer for an imported player or any
// of its sessions found stored, query running RefuseStoredPlayerQuery. A
// session alone is looked up with an empty id and name key, which no
// player has.
func RefuseImport(query func(args ...any) Scanner, p players.Player, sessions []players.Session) error {
	if err := RefuseStoredPlayer(query(p.ID, players.NameKey(p.Name), nil)); err != nil {
		return err
	}
	for _, sess := range sessions {
		if err := RefuseStoredPlayer(query("", "", sess.Hash)); err != nil {
			return err
		}
	}
	return nil
}

// oneRow returns err, or none if res changed no row.
func oneRow(res sql.Result, err error, none error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return none
	}
	return nil
}

// RefuseStoredPlayerQuery counts the players of a new player's id, name
// key, and the sessions of its first session's hash (placeholders 1, 2
// and 3), for RefuseStoredPlayer.
const RefuseStoredPlayerQuery = `SELECT (SELECT count(*) FROM players WHERE id = $1), (SELECT count(*) FROM players WHERE name_key = $2), (SELECT count(*) FROM sessions WHERE hash = $3)`

// RefuseStoredPlayer reads RefuseStoredPlayerQuery's row, and fails with
// players.ErrExists or players.ErrNameTaken for a new player it finds
// stored.
func RefuseStoredPlayer(row Scanner) error {
	var ids, names, hashes int64
	if err := row.Scan(&ids, &names, &hashes); err != nil {
		return err
	}
	switch {
	case ids > 0 || hashes > 0:
		return players.ErrExists
	case names > 0:
		return players.ErrNameTaken
	}
	return nil
}

// TakenNameQuery counts the players but one (placeholder 2) whose name
// has a key (placeholder 1), for RefuseTakenName.
const TakenNameQuery = `SELECT count(*) FROM players WHERE name_key = $1 AND id <> $2`

// RefuseTakenName reads TakenNameQuery's row, and fails with
// players.ErrNameTaken if it counts a player.
func RefuseTakenName(row Scanner) error {
	var n int64
	if err := row.Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return players.ErrNameTaken
	}
	return nil
}

// PlayerColumns are the columns of a player's row; SessionQuery reads a
// session's row and its player's (ScanSession), to which a store adds its
// condition.
const PlayerColumns = `id, name, guest, created`

var SessionQuery = `SELECT s.hash, s.player, s.created, s.last_seen, s.user_agent, ` +
	strings.ReplaceAll("p."+PlayerColumns, ", ", ", p.") + ` FROM sessions s JOIN players p ON p.id = s.player`

// ScanPlayer reads a player's row, its PlayerColumns (pgx's no rows is
// sql.ErrNoRows too):
// players.ErrNotFound if there is none.
func ScanPlayer(row Scanner) (players.Player, error) {
	var p players.Player
	var guest, created int64
	err := row.Scan(&p.ID, &p.Name, &guest, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return p, players.ErrNotFound
	}
	p.Guest, p.Created = guest != 0, fromMillis(created)
	return p, err
}

// ScanSession reads a session's row and its player's, as sessionQuery
// reads them: players.ErrNotFound if there is none.
func ScanSession(row Scanner) (players.Session, players.Player, error) {
	var s players.Session
	var p players.Player
	var created, seen, pcreated, guest int64
	err := row.Scan(&s.Hash, &s.Player, &created, &seen, &s.UserAgent, &p.ID, &p.Name, &guest, &pcreated)
	if errors.Is(err, sql.ErrNoRows) {
		return s, p, players.ErrNotFound
	}
	s.Created, s.LastSeen = fromMillis(created), fromMillis(seen)
	p.Guest, p.Created = guest != 0, fromMillis(pcreated)
	return s, p, err
}

// ScanSessions reads the sessions of rows, as SessionQuery reads them.
func ScanSessions(rows Rows) ([]players.Session, error) { return scanEach(rows, ScanSession) }

// scanEach reads every row with scan, which reads one row with its player
// (dropped here: a list's rows are all of one player).
func scanEach[T any](rows Rows, scan func(Scanner) (T, players.Player, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, _, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// OwnedSeatsQuery reads the seats of a player (placeholder 1), by game
// and seat, for ScanOwned.
const OwnedSeatsQuery = `SELECT game, seat, at FROM seat_owners WHERE player = $1 ORDER BY game, seat`

// ScanOwned reads the rows of OwnedSeatsQuery.
func ScanOwned(rows Rows) ([]OwnedSeat, error) {
	var out []OwnedSeat
	for rows.Next() {
		var o OwnedSeat
		var seat, at int64
		if err := rows.Scan(&o.Game, &seat, &at); err != nil {
			return nil, err
		}
		o.Seat, o.At = int(seat), fromMillis(at)
		out = append(out, o)
	}
	return out, rows.Err()
}

// ScanIDs reads rows of one id each.
func ScanIDs(rows Rows) ([]string, error) {
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
