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

// This file keeps players' passkeys and the WebAuthn ceremonies in
// progress (players.PasskeyStore; docs/players.md), the tables of schema
// version 6. The queries and the steps of each write are shared with the
// PostgreSQL store, which runs them in its own transactions (Tx).

// passkeyTables are the tables schema version 6 added: a passkey's row
// is its credential as the player's authenticator made it (transports
// comma-separated); a ceremony's row is the state a ceremony's second
// step needs, under its challenge, until it expires.
const passkeyTables = `
CREATE TABLE passkeys (
	id          BLOB PRIMARY KEY,
	player      TEXT NOT NULL REFERENCES players (id),
	name        TEXT NOT NULL,
	public_key  BLOB NOT NULL,
	sign_count  INTEGER NOT NULL,
	transports  TEXT NOT NULL,
	aaguid      BLOB NOT NULL,
	flags       INTEGER NOT NULL,
	attestation TEXT NOT NULL,
	created     INTEGER NOT NULL,
	last_used   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX passkeys_player ON passkeys (player, created);
CREATE TABLE ceremonies (
	key     TEXT PRIMARY KEY,
	state   BLOB NOT NULL,
	expires INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX ceremonies_expires ON ceremonies (expires);
`

// Tx is what the shared steps of a write need of a store's transaction:
// Exec runs a statement and says how many rows it changed, Row runs a
// query of one row.
type Tx struct {
	Exec func(query string, args ...any) (int64, error)
	Row  func(query string, args ...any) Scanner
}

// sqliteTx adapts a database/sql transaction.
func sqliteTx(tx *sql.Tx) Tx {
	return Tx{
		Exec: func(q string, args ...any) (int64, error) {
			res, err := tx.Exec(q, args...)
			if err != nil {
				return 0, err
			}
			return res.RowsAffected()
		},
		Row: func(q string, args ...any) Scanner { return tx.QueryRow(q, args...) },
	}
}

// PasskeyColumns are the columns of a passkey's row, for ScanPasskey.
const PasskeyColumns = `id, player, name, public_key, sign_count, transports, aaguid, flags, attestation, created, last_used`

// PasskeyQuery reads a passkey's row and its player's, to which a store
// adds its condition.
var PasskeyQuery = `SELECT ` + strings.ReplaceAll("k."+PasskeyColumns, ", ", ", k.") + `, ` +
	strings.ReplaceAll("p."+PlayerColumns, ", ", ", p.") + ` FROM passkeys k JOIN players p ON p.id = k.player`

// PasskeysOfQuery reads a player's passkeys (placeholder 1), oldest first.
var PasskeysOfQuery = PasskeyQuery + ` WHERE k.player = $1 ORDER BY k.created, k.id`

// AddPasskeyTx stores a new passkey in tx, its player kept from then on
// (players.PasskeyStore).
func AddPasskeyTx(tx Tx, k players.Passkey) error {
	var ids, owners int64
	if err := tx.Row(`SELECT (SELECT count(*) FROM passkeys WHERE id = $1), (SELECT count(*) FROM players WHERE id = $2)`, k.ID, k.Player).Scan(&ids, &owners); err != nil {
		return err
	}
	switch {
	case ids > 0:
		return players.ErrExists
	case owners == 0:
		return players.ErrNotFound
	}
	if _, err := tx.Exec(`INSERT INTO passkeys (`+PasskeyColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		k.ID, k.Player, k.Name, k.PublicKey, int64(k.SignCount), strings.Join(k.Transports, ","), nonNil(k.AAGUID),
		int64(k.Flags), k.Attestation, millis(k.Created), millis(k.LastUsed)); err != nil {
		return err
	}
	// A player with a passkey is kept: a guest no more.
	_, err := tx.Exec(`UPDATE players SET guest = 0 WHERE id = $1`, k.Player)
	return err
}

// nonNil returns b, or an empty slice for nil, as a NOT NULL column
// takes it.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// UsePasskeyTx records a sign-in with a passkey in tx.
func UsePasskeyTx(tx Tx, id []byte, signCount uint32, flags byte, at time.Time) error {
	n, err := tx.Exec(`UPDATE passkeys SET sign_count = $1, flags = $2, last_used = $3 WHERE id = $4`, int64(signCount), int64(flags), millis(at), id)
	return affected(n, err)
}

// RemovePasskeyTx removes a player's passkey in tx.
func RemovePasskeyTx(tx Tx, player string, id []byte) error {
	n, err := tx.Exec(`DELETE FROM passkeys WHERE id = $1 AND player = $2`, id, player)
	return affected(n, err)
}

// affected returns err, or players.ErrNotFound if n rows, none, changed.
func affected(n int64, err error) error {
	if err == nil && n == 0 {
		return players.ErrNotFound
	}
	return err
}

// PutCeremonyTx keeps a ceremony's state in tx.
func PutCeremonyTx(tx Tx, key string, state []byte, expires time.Time) error {
	var n int64
	if err := tx.Row(`SELECT count(*) FROM ceremonies WHERE key = $1`, key).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return players.ErrExists
	}
	_, err := tx.Exec(`INSERT INTO ceremonies (key, state, expires) VALUES ($1, $2, $3)`, key, state, millis(expires))
	return err
}

// TakeCeremonyTx takes a ceremony's state in tx, after sweeping the
// ceremonies expired by now: ok false if there is none, which tx still
// commits, so that the sweep is kept.
func TakeCeremonyTx(tx Tx, key string, now time.Time) (state []byte, ok bool, _ error) {
	if _, err := tx.Exec(`DELETE FROM ceremonies WHERE expires <= $1`, millis(now)); err != nil {
		return nil, false, err
	}
	err := tx.Row(`SELECT state FROM ceremonies WHERE key = $1`, key).Scan(&state)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err == nil {
		_, err = tx.Exec(`DELETE FROM ceremonies WHERE key = $1`, key)
	}
	return state, err == nil, err
}

// TakenCeremony returns what a store's TakeCeremony returns for
// TakeCeremonyTx's answer, once its transaction ended with err.
func TakenCeremony(state []byte, ok bool, err error) ([]byte, error) {
	switch {
	case err != nil:
		return nil, fmt.Errorf("take a ceremony: %w", err)
	case !ok:
		return nil, fmt.Errorf("take a ceremony: %w", players.ErrNotFound)
	}
	return state, nil
}

// SignInTx stores a signed-in session, moves the seats of a guest and
// ends the device's former session, in tx (players.PasskeyStore).
func SignInTx(tx Tx, s players.Session, from string, ended []byte) error {
	var owners, hashes int64
	if err := tx.Row(`SELECT (SELECT count(*) FROM players WHERE id = $1), (SELECT count(*) FROM sessions WHERE hash = $2)`, s.Player, s.Hash).Scan(&owners, &hashes); err != nil {
		return err
	}
	switch {
	case owners == 0:
		return players.ErrNotFound
	case hashes > 0:
		return players.ErrExists
	}
	if _, err := tx.Exec(`INSERT INTO sessions (hash, player, created, last_seen, user_agent) VALUES ($1, $2, $3, $4, $5)`,
		s.Hash, s.Player, millis(s.Created), millis(s.LastSeen), s.UserAgent); err != nil {
		return err
	}
	if from != "" && from != s.Player {
		if _, err := tx.Exec(`UPDATE seat_owners SET player = $1 WHERE player = $2`, s.Player, from); err != nil {
			return err
		}
	}
	if ended != nil {
		if _, err := tx.Exec(`DELETE FROM sessions WHERE hash = $1`, ended); err != nil {
			return err
		}
	}
	return nil
}

// ScanPasskey reads a passkey's row and its player's, as PasskeyQuery
// reads them: players.ErrNotFound if there is none.
func ScanPasskey(row Scanner) (players.Passkey, players.Player, error) {
	var k players.Passkey
	var p players.Player
	var count, flags, created, used, guest, pcreated int64
	var transports string
	err := row.Scan(&k.ID, &k.Player, &k.Name, &k.PublicKey, &count, &transports, &k.AAGUID, &flags, &k.Attestation, &created, &used,
		&p.ID, &p.Name, &guest, &pcreated)
	if errors.Is(err, sql.ErrNoRows) {
		return k, p, players.ErrNotFound
	}
	k.SignCount, k.Flags = uint32(count), byte(flags)
	if transports != "" {
		k.Transports = strings.Split(transports, ",")
	}
	k.Created, k.LastUsed = fromMillis(created), fromMillis(used)
	p.Guest, p.Created = guest != 0, fromMillis(pcreated)
	return k, p, err
}

// ScanPasskeys reads the passkeys of rows, as PasskeyQuery reads them.
func ScanPasskeys(rows Rows) ([]players.Passkey, error) { return scanEach(rows, ScanPasskey) }

// AddPasskey stores a new passkey (players.PasskeyStore).
func (s *SQLite) AddPasskey(ctx context.Context, k players.Passkey) error {
	if err := s.exec(ctx, func(tx *sql.Tx) error { return AddPasskeyTx(sqliteTx(tx), k) }); err != nil {
		return fmt.Errorf("add a passkey of %s: %w", k.Player, err)
	}
	return nil
}

// Passkey reads a passkey and its player (players.PasskeyStore).
func (s *SQLite) Passkey(ctx context.Context, id []byte) (players.Passkey, players.Player, error) {
	k, p, err := ScanPasskey(s.read.QueryRowContext(ctx, PasskeyQuery+` WHERE k.id = $1`, id))
	if err != nil {
		return k, p, fmt.Errorf("read a passkey: %w", s.unreadable(err))
	}
	return k, p, nil
}

// Passkeys reads a player's passkeys (players.PasskeyStore).
func (s *SQLite) Passkeys(ctx context.Context, player string) ([]players.Passkey, error) {
	rows, err := s.read.QueryContext(ctx, PasskeysOfQuery, player)
	if err != nil {
		return nil, fmt.Errorf("read the passkeys of %s: %w", player, s.unreadable(err))
	}
	defer rows.Close()
	out, err := ScanPasskeys(rows)
	if err != nil {
		return nil, fmt.Errorf("read the passkeys of %s: %w", player, err)
	}
	return out, nil
}

// UsePasskey records a sign-in with a passkey (players.PasskeyStore).
func (s *SQLite) UsePasskey(ctx context.Context, id []byte, signCount uint32, flags byte, at time.Time) error {
	if err := s.exec(ctx, func(tx *sql.Tx) error { return UsePasskeyTx(sqliteTx(tx), id, signCount, flags, at) }); err != nil {
		return fmt.Errorf("use a passkey: %w", err)
	}
	return nil
}

// RemovePasskey removes a player's passkey (players.PasskeyStore).
func (s *SQLite) RemovePasskey(ctx context.Context, player string, id []byte) error {
	if err := s.exec(ctx, func(tx *sql.Tx) error { return RemovePasskeyTx(sqliteTx(tx), player, id) }); err != nil {
		return fmt.Errorf("remove a passkey of %s: %w", player, err)
	}
	return nil
}

// PutCeremony keeps a ceremony's state (players.PasskeyStore).
func (s *SQLite) PutCeremony(ctx context.Context, key string, state []byte, expires time.Time) error {
	if err := s.exec(ctx, func(tx *sql.Tx) error { return PutCeremonyTx(sqliteTx(tx), key, state, expires) }); err != nil {
		return fmt.Errorf("keep a ceremony: %w", err)
	}
	return nil
}

// TakeCeremony takes a ceremony's state (players.PasskeyStore).
func (s *SQLite) TakeCeremony(ctx context.Context, key string, now time.Time) ([]byte, error) {
	var state []byte
	var ok bool
	err := s.exec(ctx, func(tx *sql.Tx) (err error) {
		state, ok, err = TakeCeremonyTx(sqliteTx(tx), key, now)
		return err
	})
	return TakenCeremony(state, ok, err)
}

// SignIn stores a signed-in session (players.PasskeyStore).
func (s *SQLite) SignIn(ctx context.Context, sess players.Session, from string, ended []byte) error {
	if err := s.exec(ctx, func(tx *sql.Tx) error { return SignInTx(sqliteTx(tx), sess, from, ended) }); err != nil {
		return fmt.Errorf("sign in %s: %w", sess.Player, err)
	}
	return nil
}
