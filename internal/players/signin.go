package players

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// This file holds what a device does with its session beyond the first
// visit: signing in to a kept player (after package passkeys checked the
// passkey), signing out, and ending another of the player's sessions.

// SignIn makes the request's device a session of player into, with a new
// token whose cookie it sets on w: the device's former session ends, and
// if its player was a guest (no passkey, so no other way back to them),
// every seat the guest held moves to into, in the same write, so that
// the guest's games come along. st is the store of passkeys, which keeps
// the sign-in's writes together. It must be called before w's header is
// written.
func (s *Service) SignIn(w http.ResponseWriter, r *http.Request, st PasskeyStore, into Player) error {
	v := FromContext(r.Context())
	if v == nil || v.svc == nil {
		return ErrNoVisit
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	var from string
	if v.player != nil && v.player.Guest && v.player.ID != into.ID {
		from = v.player.ID
	}
	now := s.cfg.Now()
	token := NewToken()
	raw, _ := ParseToken(token)
	sess := Session{Hash: HashToken(raw), Player: into.ID, Created: now, LastSeen: now, UserAgent: userAgent(r)}
	if err := st.SignIn(r.Context(), sess, from, v.hash); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	if v.hash != nil {
		s.forget(v.hash)
	}
	s.remember([32]byte(sess.Hash), cached{session: sess, player: into, read: now}, now)
	s.setCookie(w, r, token)
	v.player, v.hash, v.err = &into, sess.Hash, nil
	return nil
}

// SignOut ends the request's session and drops its cookie: the device is
// a new visitor after it. A request without a session signs nothing out.
func (s *Service) SignOut(w http.ResponseWriter, r *http.Request) error {
	v := FromContext(r.Context())
	if v == nil {
		return ErrNoVisit
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.hash != nil {
		if err := s.EndSession(r.Context(), v.hash); err != nil {
			return err
		}
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.cfg.Secure(r)})
	v.player, v.hash = nil, nil
	return nil
}

// Current reports whether hash is the request's own session.
func (v *Visit) Current(hash []byte) bool {
	if v == nil {
		return false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.hash != nil && string(v.hash) == string(hash)
}

// ErrNotYours is EndSessionOf's error for a session that is not the
// player's (or not at all): nothing ended.
var ErrNotYours = errors.New("the player has no such session")

// EndSessionOf ends player's session of hash, here at once and on every
// node at its next request that changes anything (Resolve reads the
// store then), or within CacheTTL for reads: ErrNotYours if the player
// has no session of hash.
func (s *Service) EndSessionOf(ctx context.Context, player string, hash []byte) error {
	all, err := s.cfg.Store.Sessions(ctx, player)
	if err != nil {
		return fmt.Errorf("end a session of %s: %w", player, err)
	}
	for _, sess := range all {
		if string(sess.Hash) == string(hash) {
			return s.EndSession(ctx, hash)
		}
	}
	return ErrNotYours
}
