package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// This file keeps players' passkeys and the WebAuthn ceremonies in
// progress as the SQLite store keeps them (players.PasskeyStore), by the
// same steps (store.AddPasskeyTx and the others) in this store's
// transactions.

// passkeyTables are the tables of schema version 6 that version 5 did not
// have (see the SQLite store's).
const passkeyTables = `
CREATE TABLE passkeys (
	id          bytea PRIMARY KEY,
	player      text NOT NULL REFERENCES players (id),
	name        text NOT NULL,
	public_key  bytea NOT NULL,
	sign_count  bigint NOT NULL,
	transports  text NOT NULL,
	aaguid      bytea NOT NULL,
	flags       bigint NOT NULL,
	attestation text NOT NULL,
	created     bigint NOT NULL,
	last_used   bigint NOT NULL
);
CREATE INDEX passkeys_player ON passkeys (player, created);
CREATE TABLE ceremonies (
	key     text PRIMARY KEY,
	state   bytea NOT NULL,
	expires bigint NOT NULL
);
CREATE INDEX ceremonies_expires ON ceremonies (expires);
`

// pgTx adapts a pgx transaction to the shared steps.
func pgTx(ctx context.Context, tx pgx.Tx) store.Tx {
	return store.Tx{
		Exec: func(q string, args ...any) (int64, error) {
			tag, err := tx.Exec(ctx, q, args...)
			return tag.RowsAffected(), err
		},
		Row: func(q string, args ...any) store.Scanner { return tx.QueryRow(ctx, q, args...) },
	}
}

// AddPasskey stores a new passkey (players.PasskeyStore). It goes through
// the writer of the credential's id, so that two adds of one id take
// turns; a unique violation meanwhile is the other's.
func (s *Store) AddPasskey(ctx context.Context, k players.Passkey) error {
	err := s.exec(ctx, "passkey "+string(k.ID), func(ctx context.Context, tx pgx.Tx) error {
		if err := store.AddPasskeyTx(pgTx(ctx, tx), k); uniqueViolation(err) {
			return players.ErrExists
		} else {
			return err
		}
	})
	if err != nil {
		return fmt.Errorf("add a passkey of %s: %w", k.Player, err)
	}
	return nil
}

// Passkey reads a passkey and its player (players.PasskeyStore).
func (s *Store) Passkey(ctx context.Context, id []byte) (players.Passkey, players.Player, error) {
	k, p, err := store.ScanPasskey(s.pool.QueryRow(ctx, store.PasskeyQuery+` WHERE k.id = $1`, id))
	if err != nil {
		return k, p, fmt.Errorf("read a passkey: %w", err)
	}
	return k, p, nil
}

// Passkeys reads a player's passkeys (players.PasskeyStore).
func (s *Store) Passkeys(ctx context.Context, player string) ([]players.Passkey, error) {
	rows, err := s.pool.Query(ctx, store.PasskeysOfQuery, player)
	if err != nil {
		return nil, fmt.Errorf("read the passkeys of %s: %w", player, err)
	}
	defer rows.Close()
	out, err := store.ScanPasskeys(rows)
	if err != nil {
		return nil, fmt.Errorf("read the passkeys of %s: %w", player, err)
	}
	return out, nil
}

// UsePasskey records a sign-in with a passkey (players.PasskeyStore).
func (s *Store) UsePasskey(ctx context.Context, id []byte, signCount uint32, flags byte, at time.Time) error {
	err := s.exec(ctx, "passkey "+string(id), func(ctx context.Context, tx pgx.Tx) error {
		return store.UsePasskeyTx(pgTx(ctx, tx), id, signCount, flags, at)
	})
	if err != nil {
		return fmt.Errorf("use a passkey: %w", err)
	}
	return nil
}

// RemovePasskey removes a player's passkey (players.PasskeyStore).
func (s *Store) RemovePasskey(ctx context.Context, player string, id []byte) error {
	err := s.exec(ctx, "passkey "+string(id), func(ctx context.Context, tx pgx.Tx) error {
		return store.RemovePasskeyTx(pgTx(ctx, tx), player, id)
	})
	if err != nil {
		return fmt.Errorf("remove a passkey of %s: %w", player, err)
	}
	return nil
}

// PutCeremony keeps a ceremony's state (players.PasskeyStore).
func (s *Store) PutCeremony(ctx context.Context, key string, state []byte, expires time.Time) error {
	err := s.exec(ctx, "ceremony "+key, func(ctx context.Context, tx pgx.Tx) error {
		if err := store.PutCeremonyTx(pgTx(ctx, tx), key, state, expires); uniqueViolation(err) {
			return players.ErrExists
		} else {
			return err
		}
	})
	if err != nil {
		return fmt.Errorf("keep a ceremony: %w", err)
	}
	return nil
}

// TakeCeremony takes a ceremony's state (players.PasskeyStore): its row
// is locked as it is read, so that of two nodes taking it at once one
// finds it gone.
func (s *Store) TakeCeremony(ctx context.Context, key string, now time.Time) ([]byte, error) {
	var state []byte
	var ok bool
	err := s.exec(ctx, "ceremony "+key, func(ctx context.Context, tx pgx.Tx) (err error) {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM ceremonies WHERE key = $1 FOR UPDATE`, key); err != nil {
			return err
		}
		state, ok, err = store.TakeCeremonyTx(pgTx(ctx, tx), key, now)
		return err
	})
	return store.TakenCeremony(state, ok, err)
}

// SignIn stores a signed-in session (players.PasskeyStore), through the
// writer of the new session's hash.
func (s *Store) SignIn(ctx context.Context, sess players.Session, from string, ended []byte) error {
	err := s.exec(ctx, string(sess.Hash), func(ctx context.Context, tx pgx.Tx) error {
		return store.SignInTx(pgTx(ctx, tx), sess, from, ended)
	})
	if err != nil {
		return fmt.Errorf("sign in %s: %w", sess.Player, err)
	}
	return nil
}
