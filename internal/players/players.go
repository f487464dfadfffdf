// Package players keeps Lagoon's players and their sessions
// (docs/players.md): the values a store keeps (Player, Session), the
// contract of a store of them (Store), the session cookie, and the Service
// that resolves a request's cookie to its player and makes a guest player
// when one is first needed. It does no I/O of its own and imports no
// other package of Lagoon's (the standard library, and x/text's Unicode
// normalisation for names): the stores (package store and store/postgres)
// import it, never the other way.
package players

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"time"
)

// Player is a person who plays on this server, a guest until they keep
// their identity. Its ID never changes; its Name is unique among players
// ignoring case (NameKey).
type Player struct {
	ID      string
	Name    string
	Guest   bool
	Created time.Time
}

// Session is one device's session of a player. Hash is the SHA-256 of the
// cookie's token (HashToken), the only form in which the token is stored.
type Session struct {
	Hash      []byte
	Player    string
	Created   time.Time
	LastSeen  time.Time
	UserAgent string
}

// Store keeps players and their sessions. Its methods are safe for
// concurrent use; a write returns once it is durable, and is written whole
// or not at all.
type Store interface {
	// CreatePlayer stores a new player with its first session, in one
	// write: ErrNameTaken if another player's name has the same NameKey,
	// ErrExists if a player of its id or a session of its hash is stored.
	CreatePlayer(ctx context.Context, p Player, first Session) error
	// Player reads player id: ErrNotFound if there is none.
	Player(ctx context.Context, id string) (Player, error)
	// Session reads the session of hash and its player: ErrNotFound if
	// there is none (never made, or ended).
	Session(ctx context.Context, hash []byte) (Session, Player, error)
	// TouchSession sets the session's last seen time: ErrNotFound if
	// there is no such session.
	TouchSession(ctx context.Context, hash []byte, at time.Time) error
	// EndSession ends the session of hash: it is read no more. Ending a
	// session that is not there is not an error.
	EndSession(ctx context.Context, hash []byte) error
	// Sessions reads the sessions of player id, oldest first.
	Sessions(ctx context.Context, player string) ([]Session, error)
	// Rename gives player id the name: ErrNameTaken if another player's
	// name has the same NameKey, ErrNotFound if there is no such player.
	Rename(ctx context.Context, id, name string) error
	// PlayerIDs returns the id of every stored player, in order.
	PlayerIDs(ctx context.Context) ([]string, error)
	// ImportPlayer stores p with its sessions as another store holds
	// them, in one write: ErrExists if a player of its id or a session of
	// one of their hashes is stored, ErrNameTaken if its name is another
	// player's.
	ImportPlayer(ctx context.Context, p Player, sessions []Session) error
}

var (
	// ErrNotFound is returned for a player or a session not stored.
	ErrNotFound = errors.New("no such player or session")
	// ErrNameTaken is returned for a name another player has, ignoring
	// case.
	ErrNameTaken = errors.New("the name is taken")
	// ErrExists is returned for a new player whose id, or session whose
	// hash, is stored already.
	ErrExists = errors.New("the player or session is stored already")
)

// NameKey is the form of a name by which names are unique: two names of
// the same key are the same name. It folds case, as Unicode's simple case
// folding does for the letters that have a case; the stores keep it beside
// the name (a change of it is a schema migration).
func NameKey(name string) string {
	return strings.ToLower(strings.ToUpper(name))
}

// tokenBytes is the length of a session's token before it is encoded.
const tokenBytes = 32

// NewToken returns a new session token: tokenBytes from crypto/rand, in
// base64url without padding, as the cookie carries it.
func NewToken() string {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParseToken returns the bytes of a cookie's token, or false for a value
// that is not exactly a token's encoding.
func ParseToken(s string) ([]byte, bool) {
	if len(s) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return nil, false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil || len(b) != tokenBytes {
		return nil, false
	}
	return b, true
}

// HashToken returns the hash of a token's bytes, as a session stores it.
func HashToken(token []byte) []byte {
	h := sha256.Sum256(token)
	return h[:]
}

// newID returns a new player's id: 16 characters of base64url, 96 bits
// from crypto/rand, so that ids are not guessed nor counted.
func newID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
