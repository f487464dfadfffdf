package players

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// This file holds the Service: a request's cookie resolved to its session
// and player, the cache of sessions read, and the guest made when a
// request first needs a player (docs/players.md).

// CookieName is the session cookie's name.
const CookieName = "lagoon_session"

const (
	// cookieMaxAge is the most a browser keeps a cookie (400 days); the
	// cookie is set again whenever its session's last seen is written.
	cookieMaxAge = 400 * 24 * time.Hour
	// TouchEvery is how old a session's last seen time gets before a
	// request writes it again, so that requests cost no write.
	TouchEvery = 5 * time.Minute
	// CacheTTL is how long a node trusts a session it read for a request
	// that reads: a session ended on another node of a cluster lets no
	// read in after it, and no write at all (Resolve).
	CacheTTL = 30 * time.Second
	// defaultCacheMax bounds the sessions a node keeps in its cache.
	defaultCacheMax = 100_000
	// maxUserAgent bounds the user agent a session keeps, in bytes.
	maxUserAgent = 256
	// guestTries bounds the names tried for a new guest; every fourth try
	// draws from ten times more numbers, so that a server with many
	// guests still finds a free name.
	guestTries = 16
)

// Config configures a Service. Store is required.
type Config struct {
	Store Store
	// Now is the clock; default time.Now. Tests give a fake one.
	Now func() time.Time
	// Secure reports whether a request came over TLS, which the cookie is
	// then marked for (Secure); default r.TLS != nil. A server behind a
	// proxy that ends TLS says so here.
	Secure func(r *http.Request) bool
	// Log receives what goes wrong; default slog.Default().
	Log *slog.Logger
	// CacheMax bounds the sessions kept in the cache; default 100,000.
	CacheMax int
}

// Service resolves requests' sessions and makes guest players. Its methods
// are safe for concurrent use. Its cache holds only sessions the store
// returned, each for at most CacheTTL since it was read.
type Service struct {
	cfg Config

	mu    sync.Mutex
	cache map[[32]byte]cached
}

// cached is a session as the store returned it at read.
type cached struct {
	session Session
	player  Player
	read    time.Time
}

// New returns a Service on cfg.Store.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Secure == nil {
		cfg.Secure = func(r *http.Request) bool { return r.TLS != nil }
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.CacheMax <= 0 {
		cfg.CacheMax = defaultCacheMax
	}
	return &Service{cfg: cfg, cache: make(map[[32]byte]cached)}
}

// Visit is what a request knows of its player. At most one of player and
// err is set: a player whose session the cookie named (or Ensure made), or
// the store's failure to say whether the cookie names one.
type Visit struct {
	svc *Service // nil for a visit resolved on another node (WithPlayer)

	mu     sync.Mutex
	player *Player
	hash   []byte // the player's session's, when the Service resolved it
	err    error
}

type visitKey struct{}

// FromContext returns the request's visit, nil if no Service resolved it.
func FromContext(ctx context.Context) *Visit {
	v, _ := ctx.Value(visitKey{}).(*Visit)
	return v
}

// WithPlayer returns ctx with a visit of p, resolved elsewhere: a request
// forwarded from the node of the cluster that took it, which resolved its
// cookie and made its guest, if any (p nil: none). Such a visit makes no
// player: the answer that would carry its cookie is the other node's.
func WithPlayer(ctx context.Context, p *Player) context.Context {
	v := &Visit{}
	if p != nil {
		v.player = new(*p)
	}
	return context.WithValue(ctx, visitKey{}, v)
}

// Player returns the visit's player, if it has one.
func (v *Visit) Player() (Player, bool) {
	if v == nil {
		return Player{}, false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.player == nil {
		return Player{}, false
	}
	return *v.player, true
}

// Middleware resolves each request's cookie (Resolve) before next.
func (s *Service) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, s.Resolve(w, r))
	})
}

// Resolve returns r with its visit in its context: the player of the
// session its cookie names, if any. It writes the session's last seen
// time, and sets the cookie again, once that is TouchEvery old. A request
// with a visit already (WithPlayer: forwarded from another node) keeps it.
func (s *Service) Resolve(w http.ResponseWriter, r *http.Request) *http.Request {
	if FromContext(r.Context()) != nil {
		return r
	}
	v := &Visit{svc: s}
	r = r.WithContext(context.WithValue(r.Context(), visitKey{}, v))
	c, err := r.Cookie(CookieName)
	if err != nil {
		return r
	}
	token, ok := ParseToken(c.Value)
	if !ok {
		return r
	}
	p, touched, err := s.session(r, HashToken(token))
	switch {
	case errors.Is(err, ErrNotFound):
	case err != nil:
		s.cfg.Log.Error("reading a session", "err", err)
		v.err = err
	default:
		if touched {
			s.setCookie(w, r, c.Value)
		}
		v.player, v.hash = &p, HashToken(token)
	}
	return r
}

// session returns the player of the session of hash, from the cache or
// the store, after touching it if its last seen is TouchEvery old (and
// then says so, for the cookie to be set again). ErrNotFound if there is
// no such session.
func (s *Service) session(r *http.Request, hash []byte) (_ Player, touched bool, _ error) {
	now := s.cfg.Now()
	key := [32]byte(hash)
	s.mu.Lock()
	c, ok := s.cache[key]
	s.mu.Unlock()
	// A request that may change something reads its session from the
	// store, so that a session ended on another node of a cluster lets
	// no such request in; a read trusts the cache for CacheTTL.
	if !ok || now.Sub(c.read) >= CacheTTL || changes(r) {
		sess, p, err := s.cfg.Store.Session(r.Context(), hash)
		if err != nil {
			s.forget(hash)
			return Player{}, false, err
		}
		c = cached{session: sess, player: p, read: now}
	}
	if now.Sub(c.session.LastSeen) >= TouchEvery {
		if err := s.cfg.Store.TouchSession(r.Context(), hash, now); err != nil {
			s.forget(hash)
			return Player{}, false, fmt.Errorf("touch session: %w", err)
		}
		c.session.LastSeen, touched = now, true
	}
	s.remember(key, c, now)
	return c.player, touched, nil
}

// changes reports whether r's method is one that may change state.
func changes(r *http.Request) bool {
	return r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions
}

// remember caches c, making room if the cache is full: by the entries
// past CacheTTL, or if none is, by all of them (each session then costs
// one read of the store again), so that a full cache costs one sweep, not
// one at every request.
func (s *Service) remember(key [32]byte, c cached, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.cache[key]; !ok && len(s.cache) >= s.cfg.CacheMax {
		for k, e := range s.cache {
			if now.Sub(e.read) >= CacheTTL {
				delete(s.cache, k)
			}
		}
		if len(s.cache) >= s.cfg.CacheMax*9/10 {
			clear(s.cache)
		}
	}
	s.cache[key] = c
}

func (s *Service) forget(hash []byte) {
	s.mu.Lock()
	delete(s.cache, [32]byte(hash))
	s.mu.Unlock()
}

// setCookie sets the session cookie of token on the answer.
func (s *Service) setCookie(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: token, Path: "/", MaxAge: int(cookieMaxAge / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.cfg.Secure(r),
	})
}

// ErrNoVisit is Ensure's error for a request no Service resolved, or one
// resolved on another node without a player: no guest can be made there,
// since the answer cannot carry its cookie.
var ErrNoVisit = errors.New("the request has no visit to make a player for")

// Ensure returns the request's player, making a guest player with a new
// session, whose cookie it sets on w, if the request has none: the first
// act that needs a player makes one. It must be called before w's header
// is written. If the store could not say whether the request's cookie
// names a session, Ensure fails rather than replace a cookie that may be
// good.
func Ensure(w http.ResponseWriter, r *http.Request) (Player, error) {
	v := FromContext(r.Context())
	if v == nil {
		return Player{}, ErrNoVisit
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	switch {
	case v.player != nil:
		return *v.player, nil
	case v.err != nil:
		return Player{}, fmt.Errorf("the session could not be read: %w", v.err)
	case v.svc == nil:
		return Player{}, ErrNoVisit
	}
	p, token, err := v.svc.newGuest(r)
	if err != nil {
		return Player{}, err
	}
	v.svc.setCookie(w, r, token)
	raw, _ := ParseToken(token)
	v.player, v.hash = &p, HashToken(raw)
	return p, nil
}

// newGuest stores a new guest player, named "Guest N" for a number N no
// player's name has, with its first session, and returns it with the
// session's token.
func (s *Service) newGuest(r *http.Request) (Player, string, error) {
	now := s.cfg.Now()
	token := NewToken()
	raw, _ := ParseToken(token)
	sess := Session{Hash: HashToken(raw), Created: now, LastSeen: now, UserAgent: userAgent(r)}
	low := 1000
	for try := range guestTries {
		if try > 0 && try%4 == 0 {
			low *= 10
		}
		p := Player{ID: newID(), Name: fmt.Sprintf("Guest %d", low+rand.IntN(9*low)), Guest: true, Created: now}
		sess.Player = p.ID
		err := s.cfg.Store.CreatePlayer(r.Context(), p, sess)
		if errors.Is(err, ErrNameTaken) {
			continue
		}
		if err != nil {
			return Player{}, "", fmt.Errorf("make a guest player: %w", err)
		}
		s.remember([32]byte(sess.Hash), cached{session: sess, player: p, read: now}, now)
		return p, token, nil
	}
	return Player{}, "", fmt.Errorf("make a guest player: no free guest name in %d tries: %w", guestTries, ErrNameTaken)
}

// userAgent returns the request's user agent, cut to maxUserAgent bytes
// of valid UTF-8.
func userAgent(r *http.Request) string {
	ua := r.UserAgent()
	if len(ua) > maxUserAgent {
		ua = ua[:maxUserAgent]
	}
	return strings.ToValidUTF8(ua, "")
}

// EndSession ends the session of hash, here at once (the cache) and, by
// the store, on every node within CacheTTL.
func (s *Service) EndSession(ctx context.Context, hash []byte) error {
	s.forget(hash)
	if err := s.cfg.Store.EndSession(ctx, hash); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	s.forget(hash)
	return nil
}

// Rename gives the request's player the name, once CheckName allows it:
// a *NameError for a name refused, ErrNameTaken for one another player
// has, ErrNoVisit for a request without a player. The request's own
// session sees the new name at once; the player's other sessions on a
// node that cached them, within CacheTTL.
func (s *Service) Rename(r *http.Request, name string) (Player, error) {
	v := FromContext(r.Context())
	p, ok := v.Player()
	if !ok {
		return Player{}, ErrNoVisit
	}
	name, err := CheckName(name)
	if err != nil {
		return Player{}, err
	}
	if err := s.cfg.Store.Rename(r.Context(), p.ID, name); err != nil {
		return Player{}, err
	}
	p.Name = name
	v.mu.Lock()
	v.player = &p
	hash := v.hash
	v.mu.Unlock()
	if hash != nil {
		s.forget(hash)
	}
	return p, nil
}
