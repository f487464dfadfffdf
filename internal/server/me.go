package server

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/lagoon-games/lagoon/internal/players"
)

// This file wires the players (package players, docs/players.md) into the
// API: the player a request needs, the seats a player creates or takes,
// GET /api/me and GET /api/me/games.

// Names are chosen at most nameBurst times in a row, then one every
// nameEvery, from each address and by each player (docs/api.md): a name
// is chosen once or twice, and a flood of tries finds names taken.
const (
	nameBurst = 5
	nameEvery = time.Minute
)

// playerGuard is what guards the players' endpoints that change state:
// the check that a browser's request came from this site
// (http.CrossOriginProtection, by Sec-Fetch-Site or else Origin), and the
// limits of names chosen, per address and per player.
type playerGuard struct {
	origin *http.CrossOriginProtection
	names  *limiter
}

func newPlayerGuard() *playerGuard {
	return &playerGuard{origin: http.NewCrossOriginProtection(), names: newLimiter(1/nameEvery.Seconds(), nameBurst)}
}

// checkOrigin refuses a request of a page of another site.
func (pg *playerGuard) checkOrigin(r *http.Request) *apiError {
	if err := pg.origin.Check(r); err != nil {
		return errorf(http.StatusForbidden, "cross_origin", "requests from other sites are not accepted: %v", err)
	}
	return nil
}

// allowName takes a try at a name from key's bucket, or refuses it.
func (pg *playerGuard) allowName(w http.ResponseWriter, now time.Time, key string) *apiError {
	if ok, wait := pg.names.allow(key, now); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		return errorf(http.StatusTooManyRequests, "rate_limited", "too many names tried; retry in %v", wait.Round(time.Second))
	}
	return nil
}

// withPlayer makes sure the request has a player before h, a guest made
// for it if need be: the node that takes a request makes it, so that the
// answer carries its cookie even when the game is another node's. A
// request without one (the store failing) goes on without a player.
func (s *Server) withPlayer(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.ensurePlayer(w, r)
		h(w, r)
	}
}

// ensurePlayer returns the request's player (players.Ensure), logging why
// there is none.
func (s *Server) ensurePlayer(w http.ResponseWriter, r *http.Request) (players.Player, bool) {
	p, err := players.Ensure(w, r)
	if err != nil {
		if !errors.Is(err, players.ErrNoVisit) {
			s.log.Warn("a request goes on without a player", "path", r.URL.Path, "err", err)
		}
		return p, false
	}
	return p, true
}

// ownSeats records seats of game id as the request's player's, if it has
// one. A seat not recorded costs the player its place in their games'
// list, never the game: it is logged, not refused.
func (s *Server) ownSeats(r *http.Request, id string, seats ...int) {
	p, ok := players.FromContext(r.Context()).Player()
	if !ok {
		return
	}
	for _, seat := range seats {
		if err := s.store.OwnSeat(r.Context(), id, seat, p.ID, time.Now().UTC()); err != nil {
			s.log.Error("recording a seat's player", "game", id, "seat", seat, "player", p.ID, "err", err)
		}
	}
	s.changes.Mark(players.PlayerKey(p.ID))
}

// handleName gives the request's player the name it asks for
// (players.CheckName), a guest made first if it has none.
func (s *Server) handleName(w http.ResponseWriter, r *http.Request) error {
	if e := s.playerGuard.checkOrigin(r); e != nil {
		return e
	}
	var req struct {
		Name string `json:"name"`
	}
	if e := s.decodeBody(w, r, &req, false); e != nil {
		return e
	}
	// The address first, so that a flood makes no guests.
	if e := s.playerGuard.allowName(w, time.Now(), "addr "+s.clientGroup(r)); e != nil {
		return e
	}
	me, ok := s.ensurePlayer(w, r)
	if !ok {
		return errPlayersUnavailable
	}
	if e := s.playerGuard.allowName(w, time.Now(), "player "+me.ID); e != nil {
		return e
	}
	p, err := s.players.Rename(r, req.Name)
	var bad *players.NameError
	switch {
	case errors.As(err, &bad):
		return errorf(http.StatusBadRequest, "bad_name", "%s", bad.Reason)
	case errors.Is(err, players.ErrNameTaken):
		return errorf(http.StatusConflict, "name_taken", "another player is called %q (names are the same whatever their case)", req.Name)
	case err != nil:
		s.log.Error("naming a player", "player", me.ID, "err", err)
		return errPlayersUnavailable
	}
	writeJSON(w, http.StatusOK, meView{ID: p.ID, Name: p.Name, Guest: p.Guest})
	return nil
}

// errPlayersUnavailable answers a request whose player the store could
// not read or write.
var errPlayersUnavailable = errorf(http.StatusServiceUnavailable, "unavailable", "the players' store does not answer; try again in a few seconds")

// overTLS reports whether the request reached us over TLS: its own
// connection, or the connection of a client to the trusted proxy (Config
// TrustedProxies) in front of us that ended it, as the proxy's
// X-Forwarded-Proto says. The session cookie is then Secure.
func (s *Server) overTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	peer, ok := parseHostAddr(r.RemoteAddr)
	if !ok || !isTrusted(peer, s.cfg.TrustedProxies) {
		return false
	}
	// The nearest proxy's word is the last.
	protos := strings.Split(strings.Join(r.Header.Values("X-Forwarded-Proto"), ","), ",")
	return strings.EqualFold(strings.TrimSpace(protos[len(protos)-1]), "https")
}

// meView is a player as GET /api/me describes them.
type meView struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Guest bool   `json:"guest"`
}

// handleMe answers who the request's player is, making a guest on the
// first visit (withPlayer).
func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) error {
	p, ok := players.FromContext(r.Context()).Player()
	if !ok {
		return errPlayersUnavailable
	}
	writeJSON(w, http.StatusOK, meView{ID: p.ID, Name: p.Name, Guest: p.Guest})
	return nil
}
