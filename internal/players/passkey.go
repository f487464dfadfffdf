package players

import (
	"context"
	"time"
)

// This file holds the values and the store contract of passkeys, the
// WebAuthn credentials by which a player keeps their identity, and of the
// ceremonies that make and use them (docs/players.md). The WebAuthn
// protocol itself is package passkeys'; this package keeps what a store
// keeps.

// Passkey is one WebAuthn credential of a player. ID is the credential's
// id as the authenticator made it, unique among all players' passkeys;
// PublicKey is its COSE key; SignCount the authenticator's counter as it
// was last seen, which never goes back; Flags the authenticator's flags
// (user present, verified, backup eligible, backed up) as WebAuthn
// encodes them in a byte. Name is the player's name for it, at most
// MaxPasskeyName bytes.
type Passkey struct {
	ID          []byte
	Player      string
	Name        string
	PublicKey   []byte
	SignCount   uint32
	Transports  []string
	AAGUID      []byte
	Flags       byte
	Attestation string
	Created     time.Time
	LastUsed    time.Time
}

// MaxPasskeyName bounds a passkey's name, in bytes.
const MaxPasskeyName = 64

// PasskeyStore keeps passkeys and the state of the ceremonies in progress.
// Its methods are safe for concurrent use, and each write is whole or not
// at all.
type PasskeyStore interface {
	// AddPasskey stores a new passkey, and its player is a guest no more:
	// ErrExists if a passkey of its id is stored (the player's or
	// another's), ErrNotFound if its player is not.
	AddPasskey(ctx context.Context, k Passkey) error
	// Passkey reads the passkey of id and its player: ErrNotFound if none.
	Passkey(ctx context.Context, id []byte) (Passkey, Player, error)
	// Passkeys reads player's passkeys, oldest first.
	Passkeys(ctx context.Context, player string) ([]Passkey, error)
	// UsePasskey records a sign-in with passkey id: its counter and flags
	// as the authenticator gave them, and when. ErrNotFound if none.
	UsePasskey(ctx context.Context, id []byte, signCount uint32, flags byte, at time.Time) error
	// RemovePasskey removes player's passkey id: ErrNotFound if player has
	// no such passkey (another's is not theirs to remove).
	RemovePasskey(ctx context.Context, player string, id []byte) error
	// PutCeremony keeps a ceremony's state under key until expires:
	// ErrExists if the key is taken.
	PutCeremony(ctx context.Context, key string, state []byte, expires time.Time) error
	// TakeCeremony returns the state under key and removes it, so that a
	// ceremony is finished at most once: ErrNotFound if there is none or
	// it expired by now. It also removes the ceremonies expired by now.
	TakeCeremony(ctx context.Context, key string, now time.Time) ([]byte, error)
	// SignIn stores the new session s of its player and, in the same
	// write, moves every seat that player from holds to s's player and
	// ends the session ended (from "" moves none, ended nil ends none):
	// a guest signing in to a kept player on their device brings their
	// games along. ErrNotFound if s's player is not stored, ErrExists if a
	// session of s's hash is.
	SignIn(ctx context.Context, s Session, from string, ended []byte) error
}

// Named reports whether p chose their name: a guest's name is of the
// guests' form, which CheckName lets nobody choose.
func Named(p Player) bool { return !guestName.MatchString(p.Name) }
