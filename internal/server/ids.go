package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// newGameID returns a fresh game id: 12 characters of base32, 60 random
// bits, short enough for a link and impossible to guess in practice.
func newGameID() string { return strings.ToLower(rand.Text()[:12]) }

// newToken returns a fresh secret seat token of 128 random bits.
func newToken() string { return rand.Text() }

// hashToken returns what the database keeps of a token: its SHA-256, so that
// a copy of the database does not hand out the right to move.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// tokenMatches reports whether token hashes to hash, in constant time.
func tokenMatches(token, hash string) bool {
	if token == "" || hash == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(hashToken(token)), []byte(hash)) == 1
}
