package players_test

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// clock is a fake clock that tests move by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// testNow is when the tests' fake clocks start.
var testNow = time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)

// setup returns a Service on a SQLite store of its own, and its clock.
func setup(t testing.TB) (*players.Service, *store.SQLite, *clock) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{now: testNow}
	return players.New(players.Config{Store: st, Now: c.Now, Log: slog.New(slog.DiscardHandler)}), st, c
}

// visit runs a request through the service with the cookie value given
// ("" for none), ensuring a player if ensure, and returns the answer's
// recorder and the request's player.
func visit(t *testing.T, svc *players.Service, cookie string, ensure bool, mod func(r *http.Request)) (*httptest.ResponseRecorder, players.Player, bool) {
	t.Helper()
	r := httptest.NewRequest("GET", "/api/me", nil)
	r.Header.Set("User-Agent", "TestBrowser/1.0")
	if cookie != "" {
		r.AddCookie(&http.Cookie{Name: players.CookieName, Value: cookie})
	}
	if mod != nil {
		mod(r)
	}
	w := httptest.NewRecorder()
	var p players.Player
	var ok bool
	svc.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ensure {
			var err error
			p, err = players.Ensure(w, r)
			ok = err == nil
			return
		}
		p, ok = players.FromContext(r.Context()).Player()
	})).ServeHTTP(w, r)
	return w, p, ok
}

// sessionCookie returns the session cookie the answer sets, if any.
func sessionCookie(w *httptest.ResponseRecorder) *http.Cookie {
	for _, c := range w.Result().Cookies() {
		if c.Name == players.CookieName {
			return c
		}
	}
	return nil
}

// newGuest makes a guest through the service and returns it with its
// cookie's value.
func newGuest(t *testing.T, svc *players.Service) (players.Player, string) {
	t.Helper()
	w, p, ok := visit(t, svc, "", true, nil)
	c := sessionCookie(w)
	if !ok || c == nil {
		t.Fatalf("no guest made: %+v, cookie %v", p, c)
	}
	return p, c.Value
}

// TestGuestCookie: the first act that needs a player makes a guest named
// "Guest N", whose cookie is a 32-byte token, HttpOnly, SameSite=Lax, for
// the whole site, kept 400 days, and Secure over TLS alone; only the
// token's hash is stored, with the user agent.
func TestGuestCookie(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tls    bool
		secure bool
	}{
		{"http", false, false},
		{"https", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, st, _ := setup(t)
			w, p, ok := visit(t, svc, "", true, func(r *http.Request) {
				if tc.tls {
					r.TLS = &tls.ConnectionState{}
				}
			})
			if !ok || !p.Guest || !regexp.MustCompile(`^Guest [1-9][0-9]{3}$`).MatchString(p.Name) {
				t.Fatalf("the guest made: %+v, %v", p, ok)
			}
			c := sessionCookie(w)
			if c == nil {
				t.Fatal("no session cookie set")
			}
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.MaxAge != 400*24*3600 || c.Secure != tc.secure {
				t.Errorf("cookie %+v: want HttpOnly, SameSite=Lax, Path=/, 400 days, Secure %v", c, tc.secure)
			}
			raw, err := base64.RawURLEncoding.DecodeString(c.Value)
			if err != nil || len(raw) != 32 {
				t.Errorf("the token %q is not 32 bytes of base64url: %v", c.Value, err)
			}
			if _, _, err := st.Session(context.Background(), raw); err == nil {
				t.Error("a session is stored under the token itself")
			}
			sess, sp, err := st.Session(context.Background(), players.HashToken(raw))
			if err != nil || sp != p || sess.UserAgent != "TestBrowser/1.0" {
				t.Errorf("the stored session: %+v of %+v, %v", sess, sp, err)
			}
			// The cookie brings the same player back, and asks for none.
			if _, again, ok := visit(t, svc, c.Value, false, nil); !ok || again != p {
				t.Errorf("with the cookie: %+v, %v; want %+v", again, ok, p)
			}
		})
	}
}

// TestNoPlayerUnasked: a request without a cookie has no player, and
// makes none unless something needs one.
func TestNoPlayerUnasked(t *testing.T) {
	svc, st, _ := setup(t)
	w, _, ok := visit(t, svc, "", false, nil)
	if ok || sessionCookie(w) != nil {
		t.Errorf("a request without a cookie: player %v, cookie %v", ok, sessionCookie(w))
	}
	if all, err := st.IDs(context.Background()); err != nil || len(all) != 0 {
		t.Fatal(all, err)
	}
}

// TestForgedCookie: a cookie that does not parse, or names no session,
// lets no one in, and the next act that needs a player makes a new guest
// whose cookie replaces it.
func TestForgedCookie(t *testing.T) {
	svc, _, _ := setup(t)
	real, realCookie := newGuest(t, svc)
	raw, _ := base64.RawURLEncoding.DecodeString(realCookie)
	raw[0] ^= 1
	for _, tc := range []struct{ name, value string }{
		{"garbage", "not a token"},
		{"too short", realCookie[:40]},
		{"too long", realCookie + "A"},
		{"padded", realCookie + "="},
		{"another token", base64.RawURLEncoding.EncodeToString(raw)},
		{"the token's hash", base64.RawURLEncoding.EncodeToString(players.HashToken(raw))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, p, ok := visit(t, svc, tc.value, false, nil); ok {
				t.Fatalf("a forged cookie let %+v in", p)
			}
			w, p, ok := visit(t, svc, tc.value, true, nil)
			c := sessionCookie(w)
			if !ok || p.ID == real.ID || c == nil || c.Value == tc.value {
				t.Errorf("a forged cookie, a player needed: %+v, %v, cookie %v; want a new guest and cookie", p, ok, c)
			}
		})
	}
}

// TestEndedSession: an ended session lets nothing in, on the node that
// ended it at once; a node that read it before lets it in no longer than
// CacheTTL. A player needed then is a new guest.
func TestEndedSession(t *testing.T) {
	svc, st, clk := setup(t)
	other := players.New(players.Config{Store: st, Now: clk.Now})
	p, cookie := newGuest(t, svc)
	if _, got, ok := visit(t, other, cookie, false, nil); !ok || got != p {
		t.Fatalf("another node: %+v, %v", got, ok)
	}
	raw, _ := players.ParseToken(cookie)
	if err := svc.EndSession(context.Background(), players.HashToken(raw)); err != nil {
		t.Fatal(err)
	}
	if _, got, ok := visit(t, svc, cookie, false, nil); ok {
		t.Errorf("the node that ended the session let %+v in", got)
	}
	clk.add(players.CacheTTL)
	if _, got, ok := visit(t, other, cookie, false, nil); ok {
		t.Errorf("another node let %+v in, CacheTTL after the session ended", got)
	}
	if _, got, ok := visit(t, svc, cookie, true, nil); !ok || got.ID == p.ID {
		t.Errorf("a player needed with an ended session: %+v, %v; want a new guest", got, ok)
	}
}

// TestTouchEvery: a session's last seen time is written once it is
// TouchEvery old, not at every request, and the cookie set again then.
func TestTouchEvery(t *testing.T) {
	svc, st, clk := setup(t)
	_, cookie := newGuest(t, svc)
	raw, _ := players.ParseToken(cookie)
	created := clk.Now()
	lastSeen := func() time.Time {
		s, _, err := st.Session(context.Background(), players.HashToken(raw))
		if err != nil {
			t.Fatal(err)
		}
		return s.LastSeen
	}
	for _, step := range []struct {
		after    time.Duration
		seen     time.Time
		reissued bool
	}{
		{time.Minute, created, false},
		{3 * time.Minute, created, false},
		{time.Minute, created.Add(5 * time.Minute), true},
		{time.Minute, created.Add(5 * time.Minute), false},
		{10 * time.Minute, created.Add(16 * time.Minute), true},
	} {
		clk.add(step.after)
		w, _, ok := visit(t, svc, cookie, false, nil)
		if !ok {
			t.Fatal("the session let nothing in")
		}
		if got := lastSeen(); !got.Equal(step.seen) {
			t.Errorf("at %v: last seen %v, want %v", clk.Now().Sub(created), got.Sub(created), step.seen.Sub(created))
		}
		if c := sessionCookie(w); (c != nil) != step.reissued || (c != nil && c.Value != cookie) {
			t.Errorf("at %v: cookie set %v, want %v", clk.Now().Sub(created), c, step.reissued)
		}
	}
}

// TestStoreDown: a store that cannot say whether the cookie names a
// session is not taken for "no session": nothing replaces the cookie.
func TestStoreDown(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{now: testNow}
	svc := players.New(players.Config{Store: st, Now: clk.Now, Log: slog.New(slog.DiscardHandler)})
	_, cookie := newGuest(t, svc)
	clk.add(players.CacheTTL)
	st.Close()
	w, _, ok := visit(t, svc, cookie, true, nil)
	if ok || sessionCookie(w) != nil {
		t.Errorf("with the store closed: a player %v, cookie %v; want neither", ok, sessionCookie(w))
	}
}

// TestForwardedVisit: a visit resolved on another node has its player,
// and makes none where the answer cannot carry its cookie.
func TestForwardedVisit(t *testing.T) {
	p := players.Player{ID: "abc", Name: "Guest 1000", Guest: true}
	r := httptest.NewRequest("POST", "/", nil).WithContext(players.WithPlayer(context.Background(), &p))
	if got, err := players.Ensure(httptest.NewRecorder(), r); err != nil || got != p {
		t.Errorf("a forwarded visit: %+v, %v", got, err)
	}
	// Forwarded without a player, resolved again here: none is made.
	svc, _, _ := setup(t)
	r = httptest.NewRequest("POST", "/", nil).WithContext(players.WithPlayer(context.Background(), nil))
	w := httptest.NewRecorder()
	if got, err := players.Ensure(w, svc.Resolve(w, r)); !errors.Is(err, players.ErrNoVisit) || sessionCookie(w) != nil {
		t.Errorf("a forwarded visit without a player: %+v, %v, cookie %v; want ErrNoVisit and none", got, err, sessionCookie(w))
	}
	if _, err := players.Ensure(httptest.NewRecorder(), httptest.NewRequest("POST", "/", nil)); err == nil {
		t.Error("a request no service resolved made a player")
	}
}

// TestNameKey: names are the same ignoring case, and only then.
func TestNameKey(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Ann", "ann", true},
		{"ANN", "aNn", true},
		{"Straße", "STRASSE", false},
		{"Σίσυφος", "ΣΊΣΥΦΟΣ", true},
		{"Ann", "Anna", false},
		{"Guest 1234", "guest 1234", true},
	} {
		if got := players.NameKey(tc.a) == players.NameKey(tc.b); got != tc.same {
			t.Errorf("%q and %q the same: %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

// FuzzParseToken: a value parses only as the encoding of 32 bytes, which
// encodes back to the value itself.
func FuzzParseToken(f *testing.F) {
	f.Add(players.NewToken())
	f.Add("")
	f.Add(strings.Repeat("A", 43))
	f.Add(strings.Repeat("_", 43))
	f.Add(strings.Repeat("A", 42) + "B")
	f.Fuzz(func(t *testing.T, s string) {
		b, ok := players.ParseToken(s)
		if !ok {
			return
		}
		if len(b) != 32 || base64.RawURLEncoding.EncodeToString(b) != s {
			t.Errorf("%q parsed as %x", s, b)
		}
	})
}

// counting is a store that counts the sessions read from it.
type counting struct {
	players.Store
	mu    sync.Mutex
	reads int
}

func (c *counting) Session(ctx context.Context, hash []byte) (players.Session, players.Player, error) {
	c.mu.Lock()
	c.reads++
	c.mu.Unlock()
	return c.Store.Session(ctx, hash)
}

// TestCacheFull: a session cached is not read again within CacheTTL; a
// full cache with nothing past CacheTTL is emptied, and its sessions read
// again, each once, and let in.
func TestCacheFull(t *testing.T) {
	_, st, clk := setup(t)
	cs := &counting{Store: st}
	svc := players.New(players.Config{Store: cs, Now: clk.Now, CacheMax: 4, Log: slog.New(slog.DiscardHandler)})
	var cookies []string
	for range 4 {
		_, c := newGuest(t, svc)
		cookies = append(cookies, c)
	}
	resolveAll := func() int {
		before := cs.reads
		for _, c := range cookies {
			if _, _, ok := visit(t, svc, c, false, nil); !ok {
				t.Fatal("a session let nothing in")
			}
		}
		return cs.reads - before
	}
	if n := resolveAll(); n != 0 {
		t.Errorf("the sessions made here, resolved: %d reads, want none", n)
	}
	clk.add(players.CacheTTL / 2)
	_, fifth := newGuest(t, players.New(players.Config{Store: st, Now: clk.Now}))
	if _, _, ok := visit(t, svc, fifth, false, nil); !ok {
		t.Fatal("the fifth session let nothing in")
	}
	if n := resolveAll(); n != 4 {
		t.Errorf("after the cache was full: %d reads, want 4", n)
	}
}
