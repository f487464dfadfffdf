package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/internal/passkeys/passkeystest"
)

// keyHost returns the host and origin a test's browser loads the page
// from: localhost, since a passkey serves no IP address.
func keyHost(ts *testServer) (host, origin string) {
	u, _ := url.Parse(ts.http.URL)
	host = "localhost:" + u.Port()
	return host, "http://" + host
}

// keyBrowser returns a browser of a page loaded from keyHost: every
// request it makes names that host.
func (ts *testServer) keyBrowser() *browser {
	b := ts.browser()
	host, _ := keyHost(ts)
	next := b.client.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	b.client.Transport = hostTransport{host, next}
	return b
}

// hostTransport sends each request for host, as a browser that loaded
// the page from it does.
type hostTransport struct {
	host string
	next http.RoundTripper
}

func (h hostTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Host = h.host
	return h.next.RoundTrip(r)
}

// keyRequest is a request of b with no seat's token.
func (b *browser) keyRequest(method, path string, body any, header ...string) (int, []byte) {
	b.ts.t.Helper()
	return b.request(method, path, "", body, header...)
}

// addPasskey names b's player and adds a passkey of auth to them.
func (b *browser) addPasskey(auth *passkeystest.Authenticator, name string) {
	t := b.ts.t
	t.Helper()
	if status, body := b.keyRequest("PUT", "/api/me/name", map[string]string{"name": name}); status != http.StatusOK {
		t.Fatalf("naming: %d %s", status, body)
	}
	status, options := b.keyRequest("POST", "/api/me/passkeys/begin", nil)
	if status != http.StatusOK {
		t.Fatalf("begin adding a passkey: %d %s", status, options)
	}
	_, origin := keyHost(b.ts)
	answer, err := auth.Create(options, origin)
	if err != nil {
		t.Fatal(err)
	}
	if status, body := b.keyRequest("POST", "/api/me/passkeys", map[string]any{"name": "laptop", "credential": json.RawMessage(answer)}); status != http.StatusOK {
		t.Fatalf("adding a passkey: %d %s", status, body)
	}
}

// signIn signs b in with auth's first key: the status and body.
func (b *browser) signIn(auth *passkeystest.Authenticator, origin string) (int, []byte) {
	t := b.ts.t
	t.Helper()
	status, options := b.keyRequest("POST", "/api/signin/begin", nil)
	if status != http.StatusOK {
		t.Fatalf("begin a sign-in: %d %s", status, options)
	}
	answer, err := auth.Get(options, origin, auth.Keys[0])
	if err != nil {
		t.Fatal(err)
	}
	return b.keyRequest("POST", "/api/signin", map[string]any{"credential": json.RawMessage(answer)})
}

type sessionLine struct {
	ID        string `json:"id"`
	UserAgent string `json:"user_agent"`
	Current   bool   `json:"current"`
}

// TestSignInBringsGames: a player adds a passkey on one device and signs
// in with it on another, where a guest had a game: the device is the
// kept player's, with the guest's game and their own, and both devices
// are listed, the current one marked.
func TestSignInBringsGames(t *testing.T) {
	ts := newTestServer(t, nil)
	laptop, phone := ts.keyBrowser(), ts.keyBrowser()
	auth := &passkeystest.Authenticator{}
	human := map[string]any{"kind": "human"}
	newGame := func(b *browser) string {
		status, body := b.request("POST", "/api/games", "", map[string]any{"game": "tiny", "seats": []any{human, human}})
		if status != http.StatusCreated {
			t.Fatalf("create: %d %s", status, body)
		}
		return decode[createResponse](t, body).ID
	}
	ann := laptop.me()
	mine := newGame(laptop)
	laptop.addPasskey(auth, "Ann")
	if got := getAs[[]passkeyView](laptop, "/api/me/passkeys"); len(got) != 1 || got[0].Name != "laptop" {
		t.Errorf("passkeys: %+v, want the laptop's", got)
	}
	guest := phone.me()
	theirs := newGame(phone)
	_, origin := keyHost(ts)
	status, body := phone.signIn(auth, origin)
	if status != http.StatusOK {
		t.Fatalf("sign in: %d %s", status, body)
	}
	if me := phone.me(); me.ID != ann.ID || me.Name != "Ann" || me.Guest {
		t.Errorf("the phone after signing in: %+v, want Ann (%s), kept", me, ann.ID)
	}
	var games []string
	for _, g := range phone.games().Games {
		games = append(games, g.ID)
	}
	slices.Sort(games)
	want := []string{mine, theirs}
	slices.Sort(want)
	if !slices.Equal(games, want) {
		t.Errorf("the phone's games: %v, want the laptop's and the guest's %v", games, want)
	}
	if left, err := ts.store.OwnedSeats(t.Context(), guest.ID); err != nil || len(left) != 0 {
		t.Errorf("the guest keeps seats: %+v, %v", left, err)
	}
	sessions := getAs[[]sessionLine](phone, "/api/me/sessions")
	if len(sessions) != 2 || sessions[0].Current || !sessions[1].Current {
		t.Errorf("sessions from the phone: %+v, want the laptop's then the phone's, current", sessions)
	}
}

// TestSessionEnded: a session ended from another device lets nothing in
// at once, a write nor a read: the device is a new visitor; signing out
// is the same for one's own.
func TestSessionEnded(t *testing.T) {
	ts := newTestServer(t, nil)
	laptop, phone := ts.keyBrowser(), ts.keyBrowser()
	auth := &passkeystest.Authenticator{}
	laptop.addPasskey(auth, "Ann")
	ann := laptop.me()
	_, origin := keyHost(ts)
	if status, body := phone.signIn(auth, origin); status != http.StatusOK {
		t.Fatalf("sign in: %d %s", status, body)
	}
	var phoneID string
	for _, s := range getAs[[]sessionLine](laptop, "/api/me/sessions") {
		if !s.Current {
			phoneID = s.ID
		}
	}
	for _, tc := range []struct {
		name string
		id   string
		want int
	}{{"not base64url", "a*b", http.StatusBadRequest}, {"no such session", "AAAA", http.StatusNotFound}, {"the phone's", phoneID, http.StatusNoContent}} {
		if status, body := laptop.keyRequest("DELETE", "/api/me/sessions/"+tc.id, nil); status != tc.want {
			t.Errorf("ending %s: %d %s, want %d", tc.name, status, body, tc.want)
		}
	}
	if status, body := phone.keyRequest("POST", "/api/me/passkeys/begin", nil); status != http.StatusUnauthorized {
		t.Errorf("a write of the ended session: %d %s, want 401", status, body)
	}
	if me := phone.me(); me.ID == ann.ID {
		t.Errorf("the ended session still reads as Ann")
	}
	if status, body := laptop.keyRequest("POST", "/api/signout", nil); status != http.StatusNoContent {
		t.Fatalf("sign out: %d %s", status, body)
	}
	if laptop.cookie() != nil {
		t.Errorf("the cookie is kept after signing out")
	}
	if me := laptop.me(); me.ID == ann.ID {
		t.Errorf("signed out, the laptop still reads as Ann")
	}
	if status, body := laptop.signIn(auth, origin); status != http.StatusOK {
		t.Errorf("signing in again: %d %s", status, body)
	}
}

// TestPasskeyEndpointsGuarded: a page of another site is refused every
// endpoint that changes state, a sign-in of a foreign origin is refused,
// a flood from an address is slowed, and a passkey is removed by its
// player alone.
func TestPasskeyEndpointsGuarded(t *testing.T) {
	ts := newTestServer(t, nil)
	ann := ts.keyBrowser()
	auth := &passkeystest.Authenticator{}
	ann.addPasskey(auth, "Ann")
	for _, path := range []string{"/api/me/passkeys/begin", "/api/me/passkeys", "/api/signin/begin", "/api/signin", "/api/signout"} {
		if status, body := ann.keyRequest("POST", path, map[string]any{}, "Sec-Fetch-Site", "cross-site"); status != http.StatusForbidden {
			t.Errorf("POST %s from another site: %d %s, want 403", path, status, body)
		}
	}
	keys := getAs[[]passkeyView](ann, "/api/me/passkeys")
	bea := ts.keyBrowser()
	bea.addPasskey(&passkeystest.Authenticator{}, "Bea")
	if status, body := bea.keyRequest("DELETE", "/api/me/passkeys/"+keys[0].ID, nil); status != http.StatusNotFound {
		t.Errorf("Bea removing Ann's passkey: %d %s, want 404", status, body)
	}
	if status, body := ts.keyBrowser().signIn(auth, "http://evil.example"); status != http.StatusBadRequest {
		t.Errorf("a sign-in of another origin: %d %s, want 400", status, body)
	}
	if status, body := ann.keyRequest("DELETE", "/api/me/passkeys/"+keys[0].ID, nil); status != http.StatusNoContent {
		t.Errorf("Ann removing her passkey: %d %s", status, body)
	}
	flood := ts.keyBrowser()
	refused := 0
	for range keyBurst + 2 {
		if status, _ := flood.keyRequest("POST", "/api/signin/begin", nil); status == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused == 0 {
		t.Errorf("%d sign-ins begun from one address in a row, none refused", keyBurst+2)
	}
}
