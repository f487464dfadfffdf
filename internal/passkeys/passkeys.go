// Package passkeys keeps players' identities with passkeys (WebAuthn,
// docs/players.md): the ceremonies that add a passkey to a player and
// sign a device in with one, on go-webauthn, their state kept in the
// store (players.PasskeyStore) so that any node of a cluster finishes a
// ceremony another began. The server wires it (internal/server's
// passkeys.go); sessions and cookies are package players'.
package passkeys

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/lagoon-games/lagoon/internal/players"
)

// CeremonyTTL is how long a ceremony begun waits for its second step:
// time to answer the browser's prompt, and not much more, so that a
// challenge lives briefly.
const CeremonyTTL = 5 * time.Minute

// displayName is the relying party's name the browser shows.
const displayName = "Lagoon"

// Service runs the ceremonies. Its methods are safe for concurrent use.
// It keeps nothing of its own: every ceremony's state is in the store,
// taken (and so removed) by the step that finishes it.
type Service struct {
	store players.PasskeyStore
	now   func() time.Time
}

// New returns a Service on st, with the clock now (time.Now if nil).
func New(st players.PasskeyStore, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: st, now: now}
}

// RP is the relying party a request speaks to: ID the host the page was
// loaded from, without its port, and Origin the page's origin
// (scheme://host[:port]). Passkeys made for one ID serve that ID alone.
type RP struct{ ID, Origin string }

// RPOf returns the relying party of a request for host (as the server
// accepted it) over TLS or not.
func RPOf(host string, tls bool) RP {
	scheme := "http"
	if tls {
		scheme = "https"
	}
	id := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		id = h
	}
	return RP{ID: strings.Trim(id, "[]"), Origin: scheme + "://" + host}
}

// Refused is the error for a ceremony's step refused: a bad, forged,
// replayed or foreign answer, or one whose ceremony expired. Reason says
// why, for the player; nothing was written.
type Refused struct{ Reason string }

func (e *Refused) Error() string { return "passkey refused: " + e.Reason }

func refused(format string, args ...any) error { return &Refused{fmt.Sprintf(format, args...)} }

// refusal returns a library's error as a Refused, with its details.
func refusal(what string, err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		reason := pe.Details
		if pe.DevInfo != "" {
			reason += ": " + pe.DevInfo
		}
		return refused("%s: %s", what, reason)
	}
	return refused("%s: %v", what, err)
}

// party returns the library's relying party for rp.
func party(rp RP) (*webauthn.WebAuthn, error) {
	w, err := webauthn.New(&webauthn.Config{
		RPID: rp.ID, RPDisplayName: displayName, RPOrigins: []string{rp.Origin},
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification: protocol.VerificationPreferred,
		},
	})
	if err != nil {
		return nil, refused("passkeys cannot serve the host %q: %v", rp.ID, err)
	}
	return w, nil
}

// user is a player as the library sees them, with their passkeys. Its
// WebAuthn id (the user handle an authenticator keeps) is the player's id.
type user struct {
	p    players.Player
	keys []players.Passkey
}

func (u user) WebAuthnID() []byte          { return []byte(u.p.ID) }
func (u user) WebAuthnName() string        { return u.p.Name }
func (u user) WebAuthnDisplayName() string { return u.p.Name }
func (u user) WebAuthnCredentials() []webauthn.Credential {
	out := make([]webauthn.Credential, len(u.keys))
	for i, k := range u.keys {
		out[i] = credential(k)
	}
	return out
}

// credential returns a stored passkey as the library's credential.
func credential(k players.Passkey) webauthn.Credential {
	c := webauthn.Credential{
		ID: k.ID, PublicKey: k.PublicKey, AttestationType: k.Attestation,
		Flags:         webauthn.CredentialFlagsFromMsgpByte(k.Flags),
		Authenticator: webauthn.Authenticator{AAGUID: k.AAGUID, SignCount: k.SignCount},
	}
	for _, t := range k.Transports {
		c.Transport = append(c.Transport, protocol.AuthenticatorTransport(t))
	}
	return c
}

// Ceremonies' keys in the store: the kind and the challenge, so that a
// challenge of one kind finishes no ceremony of the other.
const (
	addKind    = "passkey add "
	signInKind = "passkey sign-in "
)

// keep stores a ceremony's state under its kind and challenge.
func (s *Service) keep(ctx context.Context, kind string, data *webauthn.SessionData) error {
	state, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode a ceremony: %w", err)
	}
	return s.store.PutCeremony(ctx, kind+data.Challenge, state, s.now().Add(CeremonyTTL))
}

// take takes the ceremony of kind whose challenge the answer's client
// data names: a Refused if there is none (never begun, finished already,
// or expired), or if it was begun for another relying party than rp's
// (the library would check the answer against the ceremony's).
func (s *Service) take(ctx context.Context, rp RP, kind, challenge string) (webauthn.SessionData, error) {
	var data webauthn.SessionData
	state, err := s.store.TakeCeremony(ctx, kind+challenge, s.now())
	if errors.Is(err, players.ErrNotFound) {
		return data, refused("no ceremony waits for this answer: it was finished already, expired (after %v), or never begun", CeremonyTTL)
	}
	if err != nil {
		return data, err
	}
	if err := json.Unmarshal(state, &data); err != nil {
		return data, fmt.Errorf("decode a ceremony: %w", err)
	}
	if data.RelyingPartyID != rp.ID {
		return data, refused("the ceremony was begun for %q, not %q", data.RelyingPartyID, rp.ID)
	}
	return data, nil
}

// BeginAdd begins adding a passkey to p, who must have chosen a name (the
// name the authenticator shows): the options for the browser's
// navigator.credentials.create, as JSON.
func (s *Service) BeginAdd(ctx context.Context, rp RP, p players.Player) (json.RawMessage, error) {
	if !players.Named(p) {
		return nil, refused("choose a name before adding a passkey: the passkey is shown under it")
	}
	w, err := party(rp)
	if err != nil {
		return nil, err
	}
	keys, err := s.store.Passkeys(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	u := user{p, keys}
	options, data, err := w.BeginRegistration(u, webauthn.WithExclusions(webauthn.Credentials(u.WebAuthnCredentials()).CredentialDescriptors()))
	if err != nil {
		return nil, fmt.Errorf("begin adding a passkey: %w", err)
	}
	if err := s.keep(ctx, addKind, data); err != nil {
		return nil, err
	}
	return json.Marshal(options.Response)
}

// FinishAdd checks the browser's answer to BeginAdd's options (the
// credential's toJSON()) and stores the passkey, named name, as p's.
func (s *Service) FinishAdd(ctx context.Context, rp RP, p players.Player, name string, answer []byte) (players.Passkey, error) {
	name = strings.TrimSpace(name)
	if len(name) > players.MaxPasskeyName {
		return players.Passkey{}, refused("a passkey's name has at most %d bytes", players.MaxPasskeyName)
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(answer)
	if err != nil {
		return players.Passkey{}, refusal("the new passkey does not parse", err)
	}
	data, err := s.take(ctx, rp, addKind, parsed.Response.CollectedClientData.Challenge)
	if err != nil {
		return players.Passkey{}, err
	}
	if !bytes.Equal(data.UserID, []byte(p.ID)) {
		return players.Passkey{}, refused("the ceremony was begun by another player")
	}
	w, err := party(rp)
	if err != nil {
		return players.Passkey{}, err
	}
	keys, err := s.store.Passkeys(ctx, p.ID)
	if err != nil {
		return players.Passkey{}, err
	}
	c, err := w.CreateCredential(user{p, keys}, data, parsed)
	if err != nil {
		return players.Passkey{}, refusal("the new passkey is refused", err)
	}
	now := s.now()
	if name == "" {
		name = "Passkey " + now.Format("2006-01-02")
	}
	k := players.Passkey{
		ID: c.ID, Player: p.ID, Name: name, PublicKey: c.PublicKey, SignCount: c.Authenticator.SignCount,
		AAGUID: c.Authenticator.AAGUID, Flags: c.Flags.MsgpByte(), Attestation: c.AttestationType, Created: now, LastUsed: now,
	}
	for _, t := range c.Transport {
		k.Transports = append(k.Transports, string(t))
	}
	if err := s.store.AddPasskey(ctx, k); errors.Is(err, players.ErrExists) {
		return players.Passkey{}, refused("this passkey is kept already")
	} else if err != nil {
		return players.Passkey{}, err
	}
	return k, nil
}

// BeginSignIn begins a sign-in with any passkey of this site the browser
// offers (discoverable): the options for navigator.credentials.get, as
// JSON.
func (s *Service) BeginSignIn(ctx context.Context, rp RP) (json.RawMessage, error) {
	w, err := party(rp)
	if err != nil {
		return nil, err
	}
	options, data, err := w.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		return nil, fmt.Errorf("begin a sign-in: %w", err)
	}
	if err := s.keep(ctx, signInKind, data); err != nil {
		return nil, err
	}
	return json.Marshal(options.Response)
}

// FinishSignIn checks the browser's answer to BeginSignIn's options (the
// assertion's toJSON()) and returns the player whose passkey signed it,
// its counter and flags recorded. The caller signs the device in.
func (s *Service) FinishSignIn(ctx context.Context, rp RP, answer []byte) (players.Player, error) {
	parsed, err := protocol.ParseCredentialRequestResponseBytes(answer)
	if err != nil {
		return players.Player{}, refusal("the answer does not parse", err)
	}
	data, err := s.take(ctx, rp, signInKind, parsed.Response.CollectedClientData.Challenge)
	if err != nil {
		return players.Player{}, err
	}
	w, err := party(rp)
	if err != nil {
		return players.Player{}, err
	}
	var owner players.Player
	var storeErr error
	found := func(rawID, userHandle []byte) (webauthn.User, error) {
		k, p, err := s.store.Passkey(ctx, rawID)
		if err != nil {
			if !errors.Is(err, players.ErrNotFound) {
				storeErr = err
			}
			return nil, err
		}
		if !bytes.Equal(userHandle, []byte(p.ID)) {
			return nil, errors.New("the passkey is of another player than it says")
		}
		owner = p
		return user{p, []players.Passkey{k}}, nil
	}
	_, c, err := w.ValidatePasskeyLogin(found, data, parsed)
	switch {
	case storeErr != nil:
		return players.Player{}, storeErr
	case err != nil:
		return players.Player{}, refusal("the sign-in is refused", err)
	case c.Authenticator.CloneWarning:
		return players.Player{}, refused("the passkey's counter went back: it may have been copied, so it signs in no more until it is removed and added again")
	}
	if err := s.store.UsePasskey(ctx, c.ID, c.Authenticator.SignCount, c.Flags.MsgpByte(), s.now()); err != nil {
		return players.Player{}, err
	}
	return owner, nil
}
