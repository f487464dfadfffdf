// Package passkeystest is a software authenticator for tests: it answers
// a relying party's WebAuthn options as a browser's passkey would (an
// ECDSA P-256 key, "none" attestation, discoverable), in the JSON of the
// browser's PublicKeyCredential.toJSON(), so that tests of the server
// run the ceremonies whole, and can alter the answers to forge them.
package passkeystest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
)

// Authenticator flags (WebAuthn's authenticator data).
const (
	flagUP = 0x01
	flagUV = 0x04
	flagAT = 0x40
)

var b64 = base64.RawURLEncoding

// Key is a credential the authenticator made. Count is its signature
// counter, which each assertion raises by one; a test may set it back.
type Key struct {
	ID    []byte
	RPID  string
	User  []byte
	Count uint32
	priv  *ecdsa.PrivateKey
}

// Authenticator holds keys, the last made last. It is not safe for
// concurrent use.
type Authenticator struct {
	Keys []*Key
}

// Create answers the options of navigator.credentials.create (the JSON a
// relying party sends) for a page of origin: a new key, as the JSON of
// the credential's toJSON().
func (a *Authenticator) Create(options []byte, origin string) ([]byte, error) {
	var o struct {
		Challenge string `json:"challenge"`
		RP        struct {
			ID string `json:"id"`
		} `json:"rp"`
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	if err := json.Unmarshal(options, &o); err != nil {
		return nil, fmt.Errorf("creation options: %w", err)
	}
	user, err := b64.DecodeString(o.User.ID)
	if err != nil {
		return nil, fmt.Errorf("user id: %w", err)
	}
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	k := &Key{ID: make([]byte, 16), RPID: o.RP.ID, User: user, priv: priv}
	rand.Read(k.ID)
	var x, y [32]byte
	priv.PublicKey.X.FillBytes(x[:])
	priv.PublicKey.Y.FillBytes(y[:])
	cose, err := webauthncbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: x[:], -3: y[:]})
	if err != nil {
		return nil, err
	}
	auth := authData(o.RP.ID, flagUP|flagUV|flagAT, 0)
	auth = append(auth, make([]byte, 16)...) // AAGUID: none
	auth = binary.BigEndian.AppendUint16(auth, uint16(len(k.ID)))
	auth = append(append(auth, k.ID...), cose...)
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": auth})
	if err != nil {
		return nil, err
	}
	a.Keys = append(a.Keys, k)
	return json.Marshal(map[string]any{
		"id": b64.EncodeToString(k.ID), "rawId": b64.EncodeToString(k.ID), "type": "public-key",
		"authenticatorAttachment": "platform", "clientExtensionResults": map[string]any{},
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(clientData("webauthn.create", o.Challenge, origin)),
			"attestationObject": b64.EncodeToString(att),
			"transports":        []string{"internal"},
		},
	})
}

// Get answers the options of navigator.credentials.get for a page of
// origin with key k (a discoverable sign-in: any key of the relying
// party), as the JSON of the assertion's toJSON().
func (a *Authenticator) Get(options []byte, origin string, k *Key) ([]byte, error) {
	var o struct {
		Challenge string `json:"challenge"`
		RPID      string `json:"rpId"`
	}
	if err := json.Unmarshal(options, &o); err != nil {
		return nil, fmt.Errorf("request options: %w", err)
	}
	k.Count++
	auth := authData(o.RPID, flagUP|flagUV, k.Count)
	cd := clientData("webauthn.get", o.Challenge, origin)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte(nil), auth...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.priv, digest[:])
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{
		"id": b64.EncodeToString(k.ID), "rawId": b64.EncodeToString(k.ID), "type": "public-key",
		"authenticatorAttachment": "platform", "clientExtensionResults": map[string]any{},
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(cd),
			"authenticatorData": b64.EncodeToString(auth),
			"signature":         b64.EncodeToString(sig),
			"userHandle":        b64.EncodeToString(k.User),
		},
	})
}

// authData returns the authenticator data's head: the RP ID's hash, the
// flags and the counter.
func authData(rpID string, flags byte, count uint32) []byte {
	h := sha256.Sum256([]byte(rpID))
	return binary.BigEndian.AppendUint32(append(h[:], flags), count)
}

// clientData returns the client data a browser signs for a ceremony.
func clientData(typ, challenge, origin string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": origin, "crossOrigin": false})
	return b
}
