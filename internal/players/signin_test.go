package players_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/lagoon-games/lagoon/internal/players"
)

// TestEndedSessionWrites: a session ended on one node lets no request
// that changes state in on another node at once, its cache
// notwithstanding; a read there may still see it within CacheTTL.
func TestEndedSessionWrites(t *testing.T) {
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
	for _, method := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		if _, got, ok := visit(t, other, cookie, false, func(r *http.Request) { r.Method = method }); ok {
			t.Errorf("another node let a %s of the ended session in, as %+v", method, got)
		}
	}
}

// TestSignIn: signing a device in ends its session, sets a new cookie of
// the kept player, and moves a guest's seats; signing out drops the
// cookie and the session.
func TestSignIn(t *testing.T) {
	svc, st, clk := setup(t)
	kept, keptCookie := newGuest(t, svc)
	guest, cookie := newGuest(t, svc)
	w := httptest.NewRecorder()
	svc.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := svc.SignIn(w, r, st, kept); err != nil {
			t.Fatal(err)
		}
	})).ServeHTTP(w, withCookie(cookie))
	c := sessionCookie(w)
	if c == nil || c.Value == cookie {
		t.Fatalf("the cookie after signing in: %v", c)
	}
	signedIn := c.Value
	if _, got, ok := visit(t, svc, signedIn, false, nil); !ok || got.ID != kept.ID {
		t.Errorf("the new cookie: %+v, %v; want %s", got, ok, kept.ID)
	}
	clk.add(players.CacheTTL)
	if _, got, ok := visit(t, svc, cookie, false, nil); ok {
		t.Errorf("the guest's cookie still lets %+v in", got)
	}
	if _, err := st.Player(context.Background(), guest.ID); err != nil {
		t.Errorf("the guest is gone: %v", err)
	}
	w = httptest.NewRecorder()
	svc.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := svc.SignOut(w, r); err != nil {
			t.Fatal(err)
		}
	})).ServeHTTP(w, withCookie(keptCookie))
	if c := sessionCookie(w); c == nil || c.MaxAge >= 0 {
		t.Errorf("signing out does not drop the cookie: %v", c)
	}
	if _, got, ok := visit(t, svc, keptCookie, false, nil); ok {
		t.Errorf("a signed-out cookie lets %+v in", got)
	}
	if err := svc.EndSessionOf(context.Background(), guest.ID, []byte("nope")); !errors.Is(err, players.ErrNotYours) {
		t.Errorf("ending a session not the player's: %v, want ErrNotYours", err)
	}
}

// withCookie returns a request carrying the session cookie of value.
func withCookie(value string) *http.Request {
	r := httptest.NewRequest("POST", "/api/signin", nil)
	r.AddCookie(&http.Cookie{Name: players.CookieName, Value: value})
	return r
}
