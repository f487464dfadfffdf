package server

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/lagoon-games/lagoon/internal/passkeys"
	"github.com/lagoon-games/lagoon/internal/players"
)

// This file wires passkeys (package passkeys, docs/players.md) and a
// player's devices into the API: adding, listing and removing passkeys,
// signing in with one and out, and the sessions listed and ended.

// The passkeys' and sessions' endpoints that change state are taken at
// most keyBurst times in a row, then one every keyEvery, from each
// address and by each player (docs/api.md): a person signs in or adds a
// passkey a few times, and a flood of forged answers is slowed to a trickle.
const (
	keyBurst = 20
	keyEvery = 3 * time.Second
)

// keyGuard is the limiter of the passkeys' and sessions' endpoints,
// beside playerGuard's of names.
type keyGuard struct{ limits *limiter }

func newKeyGuard() *keyGuard { return &keyGuard{newLimiter(1/keyEvery.Seconds(), keyBurst)} }

// allow takes a try from key's bucket, or refuses it.
func (kg *keyGuard) allow(w http.ResponseWriter, key string) *apiError {
	if ok, wait := kg.limits.allow(key, time.Now()); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		return errorf(http.StatusTooManyRequests, "rate_limited", "too many sign-in or passkey requests; retry in %v", wait.Round(time.Second))
	}
	return nil
}

// guardKeys checks a request that changes a player's passkeys or sessions:
// from this site, within the address's limit, and, if it has a player,
// within theirs; it returns that player.
func (s *Server) guardKeys(w http.ResponseWriter, r *http.Request) (players.Player, bool, *apiError) {
	if e := s.playerGuard.checkOrigin(r); e != nil {
		return players.Player{}, false, e
	}
	if e := s.keyGuard.allow(w, "addr "+s.clientGroup(r)); e != nil {
		return players.Player{}, false, e
	}
	p, ok := players.FromContext(r.Context()).Player()
	if ok {
		if e := s.keyGuard.allow(w, "player "+p.ID); e != nil {
			return p, ok, e
		}
	}
	return p, ok, nil
}

// errNoPlayer answers a request that needs a player but has none.
var errNoPlayer = errorf(http.StatusUnauthorized, "no_player", "this device is signed in to no player")

// rp returns the request's relying party: the host the server accepted
// it for (checkHost), over TLS or not as overTLS says.
func (s *Server) rp(r *http.Request) passkeys.RP { return passkeys.RPOf(r.Host, s.overTLS(r)) }

// keyError answers a passkeys' error: a refusal as the player's bad
// input, anything else as the store's failure.
func (s *Server) keyError(what string, err error) error {
	var no *passkeys.Refused
	if errors.As(err, &no) {
		return errorf(http.StatusBadRequest, "passkey_refused", "%s", no.Reason)
	}
	s.log.Error(what, "err", err)
	return errPlayersUnavailable
}

// handleAddPasskeyBegin begins adding a passkey to the request's player.
func (s *Server) handleAddPasskeyBegin(w http.ResponseWriter, r *http.Request) error {
	p, ok, e := s.guardKeys(w, r)
	if e != nil {
		return e
	}
	if !ok {
		return errNoPlayer
	}
	options, err := s.passkeys.BeginAdd(r.Context(), s.rp(r), p)
	if err != nil {
		return s.keyError("beginning a passkey", err)
	}
	writeJSON(w, http.StatusOK, options)
	return nil
}

// passkeyView is a passkey as GET /api/me/passkeys lists it.
type passkeyView struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used"`
}

func viewPasskey(k players.Passkey) passkeyView {
	return passkeyView{ID: base64.RawURLEncoding.EncodeToString(k.ID), Name: k.Name, Created: k.Created, LastUsed: k.LastUsed}
}

// handleAddPasskeyFinish stores the passkey the browser made.
func (s *Server) handleAddPasskeyFinish(w http.ResponseWriter, r *http.Request) error {
	p, ok, e := s.guardKeys(w, r)
	if e != nil {
		return e
	}
	if !ok {
		return errNoPlayer
	}
	var req struct {
		Name       string          `json:"name"`
		Credential json.RawMessage `json:"credential"`
	}
	if e := s.decodeBody(w, r, &req, false); e != nil {
		return e
	}
	k, err := s.passkeys.FinishAdd(r.Context(), s.rp(r), p, req.Name, req.Credential)
	if err != nil {
		return s.keyError("adding a passkey", err)
	}
	writeJSON(w, http.StatusOK, viewPasskey(k))
	return nil
}

// handlePasskeys lists the request's player's passkeys.
func (s *Server) handlePasskeys(w http.ResponseWriter, r *http.Request) error {
	p, ok := players.FromContext(r.Context()).Player()
	if !ok {
		return errNoPlayer
	}
	keys, err := s.store.Passkeys(r.Context(), p.ID)
	if err != nil {
		return s.keyError("listing passkeys", err)
	}
	out := []passkeyView{}
	for _, k := range keys {
		out = append(out, viewPasskey(k))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// handleRemovePasskey removes one of the request's player's passkeys.
func (s *Server) handleRemovePasskey(w http.ResponseWriter, r *http.Request) error {
	p, ok, e := s.guardKeys(w, r)
	if e != nil {
		return e
	}
	if !ok {
		return errNoPlayer
	}
	id, err := base64.RawURLEncoding.DecodeString(r.PathValue("id"))
	if err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "a passkey's id is base64url: %v", err)
	}
	err = s.store.RemovePasskey(r.Context(), p.ID, id)
	if errors.Is(err, players.ErrNotFound) {
		return errorf(http.StatusNotFound, "not_found", "the player has no such passkey")
	}
	if err != nil {
		return s.keyError("removing a passkey", err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleSignInBegin begins a sign-in with a passkey.
func (s *Server) handleSignInBegin(w http.ResponseWriter, r *http.Request) error {
	if _, _, e := s.guardKeys(w, r); e != nil {
		return e
	}
	options, err := s.passkeys.BeginSignIn(r.Context(), s.rp(r))
	if err != nil {
		return s.keyError("beginning a sign-in", err)
	}
	writeJSON(w, http.StatusOK, options)
	return nil
}

// handleSignInFinish checks the browser's assertion and signs the device
// in to its passkey's player, bringing a guest's games along.
func (s *Server) handleSignInFinish(w http.ResponseWriter, r *http.Request) error {
	if _, _, e := s.guardKeys(w, r); e != nil {
		return e
	}
	var req struct {
		Credential json.RawMessage `json:"credential"`
	}
	if e := s.decodeBody(w, r, &req, false); e != nil {
		return e
	}
	p, err := s.passkeys.FinishSignIn(r.Context(), s.rp(r), req.Credential)
	if err != nil {
		return s.keyError("signing in", err)
	}
	if err := s.players.SignIn(w, r, s.store, p); err != nil {
		return s.keyError("signing in", err)
	}
	writeJSON(w, http.StatusOK, meView{ID: p.ID, Name: p.Name, Guest: p.Guest})
	return nil
}

// handleSignOut ends the request's session.
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) error {
	if _, _, e := s.guardKeys(w, r); e != nil {
		return e
	}
	if err := s.players.SignOut(w, r); err != nil {
		return s.keyError("signing out", err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// sessionView is a session as GET /api/me/sessions lists it: its id is
// the base64url of its token's hash, which lets no one in.
type sessionView struct {
	ID        string    `json:"id"`
	Created   time.Time `json:"created"`
	LastSeen  time.Time `json:"last_seen"`
	UserAgent string    `json:"user_agent"`
	Current   bool      `json:"current"`
}

// handleSessions lists the request's player's sessions, oldest first.
func (s *Server) handleSessions(w http.ResponseWriter, r *http.Request) error {
	v := players.FromContext(r.Context())
	p, ok := v.Player()
	if !ok {
		return errNoPlayer
	}
	all, err := s.store.Sessions(r.Context(), p.ID)
	if err != nil {
		return s.keyError("listing sessions", err)
	}
	out := []sessionView{}
	for _, sess := range all {
		out = append(out, sessionView{
			ID: base64.RawURLEncoding.EncodeToString(sess.Hash), Created: sess.Created, LastSeen: sess.LastSeen,
			UserAgent: sess.UserAgent, Current: v.Current(sess.Hash),
		})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// handleEndSession ends one of the request's player's sessions.
func (s *Server) handleEndSession(w http.ResponseWriter, r *http.Request) error {
	p, ok, e := s.guardKeys(w, r)
	if e != nil {
		return e
	}
	if !ok {
		return errNoPlayer
	}
	hash, err := base64.RawURLEncoding.DecodeString(r.PathValue("id"))
	if err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "a session's id is base64url: %v", err)
	}
	err = s.players.EndSessionOf(r.Context(), p.ID, hash)
	if errors.Is(err, players.ErrNotYours) {
		return errorf(http.StatusNotFound, "not_found", "the player has no such session")
	}
	if err != nil {
		return s.keyError("ending a session", err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// passkeyRoutes adds the passkeys' and sessions' endpoints (docs/api.md).
func (s *Server) passkeyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/me/passkeys", s.handle(s.handlePasskeys))
	mux.HandleFunc("POST /api/me/passkeys/begin", s.handle(s.handleAddPasskeyBegin))
	mux.HandleFunc("POST /api/me/passkeys", s.handle(s.handleAddPasskeyFinish))
	mux.HandleFunc("DELETE /api/me/passkeys/{id}", s.handle(s.handleRemovePasskey))
	mux.HandleFunc("GET /api/me/sessions", s.handle(s.handleSessions))
	mux.HandleFunc("DELETE /api/me/sessions/{id}", s.handle(s.handleEndSession))
	mux.HandleFunc("POST /api/signin/begin", s.handle(s.handleSignInBegin))
	mux.HandleFunc("POST /api/signin", s.handle(s.handleSignInFinish))
	mux.HandleFunc("POST /api/signout", s.handle(s.handleSignOut))
}
