package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/internal/players"
)

// browser is a client that keeps cookies, as a browser does.
type browser struct {
	ts     *testServer
	client *http.Client
}

func (ts *testServer) browser() *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	c := *ts.http.Client()
	c.Jar = jar
	return &browser{ts: ts, client: &c}
}

func (b *browser) request(method, path, token string, body any, header ...string) (int, []byte) {
	b.ts.t.Helper()
	return b.ts.requestVia(b.client, method, path, token, body, header...)
}

// cookie returns the browser's session cookie, nil if it has none.
func (b *browser) cookie() *http.Cookie {
	u, _ := url.Parse(b.ts.http.URL)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == players.CookieName {
			return c
		}
	}
	return nil
}

// getAs reads path as b, as a T.
func getAs[T any](b *browser, path string) T {
	b.ts.t.Helper()
	status, body := b.request("GET", path, "", nil)
	if status != http.StatusOK {
		b.ts.t.Fatalf("GET %s: %d %s", path, status, body)
	}
	return decode[T](b.ts.t, body)
}

func (b *browser) me() meView { return getAs[meView](b, "/api/me") }

type myGames struct {
	Player *meView `json:"player"`
	Games  []struct {
		ID        string `json:"id"`
		Game      string `json:"game"`
		GameName  string `json:"game_name"`
		ToMove    int    `json:"to_move"`
		YourSeats []int  `json:"your_seats"`
		YourTurn  bool   `json:"your_turn"`
		Ended     bool   `json:"ended"`
		Seats     []struct {
			Name string `json:"name"`
		} `json:"seats"`
	} `json:"games"`
}

func (b *browser) games() myGames { return getAs[myGames](b, "/api/me/games") }

// TestMe: the first visit's GET /api/me makes a guest, "Guest N", kept
// by its cookie; another browser is another guest; a cookie that names no
// session (forged, or of an ended session) makes a new guest, not an
// error.
func TestMe(t *testing.T) {
	ts := newTestServer(t, nil)
	a := ts.browser()
	me := a.me()
	if !me.Guest || me.ID == "" || !regexp.MustCompile(`^Guest [0-9]{4}$`).MatchString(me.Name) {
		t.Fatalf("the first visit: %+v", me)
	}
	if again := a.me(); again != me {
		t.Errorf("the second visit: %+v, want %+v", again, me)
	}
	if other := ts.browser().me(); other.ID == me.ID || other.Name == me.Name {
		t.Errorf("another browser: %+v, the same as %+v", other, me)
	}
	u, _ := url.Parse(ts.http.URL)
	for _, tc := range []struct {
		name  string
		value func(real string) string
	}{
		{"forged", func(string) string { return players.NewToken() }},
		{"garbage", func(string) string { return "%%%" }},
		{"ended", func(real string) string {
			raw, _ := players.ParseToken(real)
			if err := ts.s.players.EndSession(t.Context(), players.HashToken(raw)); err != nil {
				t.Fatal(err)
			}
			return real
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := ts.browser()
			was := b.me()
			b.client.Jar.SetCookies(u, []*http.Cookie{{Name: players.CookieName, Value: tc.value(b.cookie().Value)}})
			if now := b.me(); now.ID == was.ID || now.ID == me.ID || !now.Guest {
				t.Errorf("after a %s cookie: %+v (was %+v); want a new guest", tc.name, now, was)
			}
			if g := b.games(); len(g.Games) != 0 {
				t.Errorf("the new guest has games: %+v", g)
			}
		})
	}
}

// TestMeNoCookieNoPlayer: a client that keeps no cookie has no games and
// makes no player by asking for them.
func TestMeNoCookieNoPlayer(t *testing.T) {
	ts := newTestServer(t, nil)
	status, body := ts.request("GET", "/api/me/games", "", nil)
	got := decode[myGames](t, body)
	if status != http.StatusOK || got.Player != nil || len(got.Games) != 0 {
		t.Errorf("GET /api/me/games without a cookie: %d %s", status, body)
	}
	b := ts.browser()
	b.games()
	if b.cookie() != nil {
		t.Error("asking for one's games made a player")
	}
}

// TestSeatsOwned: the seats a player creates are theirs, and a seat
// joined by its link or taken open becomes the joiner's; a person who
// keeps no cookie joins by the link as before.
func TestSeatsOwned(t *testing.T) {
	ts := newTestServer(t, nil)
	ann, bea := ts.browser(), ts.browser()
	human := map[string]any{"kind": "human"}
	status, body := ann.request("POST", "/api/games", "", map[string]any{"game": "tiny", "seats": []any{human, human, human, map[string]any{"kind": "open"}}})
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, body)
	}
	c := decode[createResponse](t, body)
	seatsOf := func(b *browser) []int {
		for _, g := range b.games().Games {
			if g.ID == c.ID {
				return g.YourSeats
			}
		}
		return nil
	}
	if got := seatsOf(ann); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("the creator's seats %v, want 0, 1 and 2", got)
	}
	for _, step := range []struct {
		name     string
		join     func() (int, []byte)
		ann, bea []int
	}{
		{"a seat's link joined in another browser", func() (int, []byte) {
			return bea.request("POST", "/api/games/"+c.ID+"/join", c.Seats[1].Token, map[string]any{"name": "Bea"})
		}, []int{0, 2}, []int{1}},
		{"an open seat taken", func() (int, []byte) {
			return bea.request("POST", "/api/games/"+c.ID+"/join", "", map[string]any{"seat": 3})
		}, []int{0, 2}, []int{1, 3}},
		{"a seat's link joined without cookies", func() (int, []byte) {
			return ts.request("POST", "/api/games/"+c.ID+"/join", c.Seats[2].Token, map[string]any{"name": "Cy"})
		}, []int{0}, []int{1, 3}},
	} {
		if status, body := step.join(); status != http.StatusOK {
			t.Fatalf("%s: %d %s", step.name, status, body)
		}
		if got := seatsOf(ann); !slices.Equal(got, step.ann) {
			t.Errorf("%s: the creator holds %v, want %v", step.name, got, step.ann)
		}
		if got := seatsOf(bea); !slices.Equal(got, step.bea) {
			t.Errorf("%s: the joiner holds %v, want %v", step.name, got, step.bea)
		}
	}
	if g := ts.getTiny(c.ID, c.Seats[2].Token, -1); g.You == nil || *g.You != 2 || !g.Seats[2].Joined {
		t.Errorf("the seat joined without cookies: %+v", g.Seats)
	}
}

// TestMyGamesOrder: a player's games are listed with those where it is
// their turn first, then the others in progress, then the ended ones.
func TestMyGamesOrder(t *testing.T) {
	ts := newTestServer(t, nil)
	ann, bea := ts.browser(), ts.browser()
	human := map[string]any{"kind": "human"}
	create := func(seats ...any) createResponse {
		status, body := ann.request("POST", "/api/games", "", map[string]any{"game": "tiny", "seed": 5, "seats": seats})
		if status != http.StatusCreated {
			t.Fatalf("create: %d %s", status, body)
		}
		return decode[createResponse](t, body)
	}
	// Ended: played against a bot to its end.
	done := create(human, map[string]any{"kind": "bot", "level": "easy"})
	for {
		st := ts.waitState(done.ID, func(st aState[json.RawMessage]) bool { return st.Over || st.ToMove == 0 })
		if st.Over {
			break
		}
		ts.move(done.ID, done.Seats[0].Token, st.Version, ts.getTiny(done.ID, done.Seats[0].Token, -1).State.View.Legal[0])
	}
	// Waiting on Bea: Ann plays seat 0 until seat 1 is to move.
	theirs := create(human, human)
	if status, body := bea.request("POST", "/api/games/"+theirs.ID+"/join", theirs.Seats[1].Token, nil); status != http.StatusOK {
		t.Fatalf("join: %d %s", status, body)
	}
	for {
		st := ts.waitState(theirs.ID, func(aState[json.RawMessage]) bool { return true })
		if st.ToMove != 0 {
			break
		}
		ts.move(theirs.ID, theirs.Seats[0].Token, st.Version, ts.getTiny(theirs.ID, theirs.Seats[0].Token, -1).State.View.Legal[0])
	}
	// Ann's turn: both seats hers, made last.
	mine := create(human, human)

	got := ann.games()
	var order []string
	for _, g := range got.Games {
		order = append(order, g.ID)
	}
	if want := []string{mine.ID, theirs.ID, done.ID}; !slices.Equal(order, want) {
		t.Fatalf("Ann's games %v, want %v (her turn, then Bea's, then ended): %+v", order, want, got)
	}
	if g := got.Games; !g[0].YourTurn || g[1].YourTurn || g[2].YourTurn || g[0].Ended || g[1].Ended || !g[2].Ended || g[0].GameName == "" || len(g[1].Seats) != 2 {
		t.Errorf("Ann's games: %+v", got)
	}
	if got.Player == nil || *got.Player != ann.me() {
		t.Errorf("the games' player %+v, want Ann %+v", got.Player, ann.me())
	}
	if g := bea.games().Games; len(g) != 1 || g[0].ID != theirs.ID || !g[0].YourTurn || !slices.Equal(g[0].YourSeats, []int{1}) {
		t.Errorf("Bea's games: %+v", g)
	}
}

// on is a browser of ts that shares b's cookies: one browser
// reaching another node of the cluster, as a balancer sends it.
func (b *browser) on(ts *testServer) *browser {
	return &browser{ts: ts, client: b.client}
}

// TestNodesPlayers: a session made on one node lets its player in on
// another, through the shared store; a seat joined through a node that
// does not own the game (forwarded) is the joiner's; and a guest made
// for a join on such a node gets its cookie there.
func TestNodesPlayers(t *testing.T) {
	nodes, _ := newTestNodes(t, nil, "a", "b")
	owner, other := nodes[0], nodes[1]
	ann := owner.browser()
	human := map[string]any{"kind": "human"}
	status, body := ann.request("POST", "/api/games", "", map[string]any{"game": "tiny", "seats": []any{human, human, map[string]any{"kind": "open"}}})
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, body)
	}
	c := decode[createResponse](t, body)
	if me := ann.on(other).me(); me != ann.me() {
		t.Errorf("Ann on the other node: %+v, want %+v", me, ann.me())
	}
	bea := other.browser()
	if status, body := bea.request("POST", "/api/games/"+c.ID+"/join", c.Seats[1].Token, map[string]any{"name": "Bea"}); status != http.StatusOK || bea.cookie() == nil {
		t.Fatalf("a join forwarded to the owner: %d %s, cookie %v", status, body, bea.cookie())
	}
	if status, body := bea.request("POST", "/api/games/"+c.ID+"/join", "", map[string]any{"seat": 2}); status != http.StatusOK {
		t.Fatalf("an open seat taken through the other node: %d %s", status, body)
	}
	for _, b := range []*browser{bea, bea.on(owner)} {
		g := b.games().Games
		if len(g) != 1 || g[0].ID != c.ID || !slices.Equal(g[0].YourSeats, []int{1, 2}) {
			t.Errorf("Bea's games: %+v, want seats 1 and 2 of %s", g, c.ID)
		}
	}
	if g := ann.on(other).games().Games; len(g) != 1 || !slices.Equal(g[0].YourSeats, []int{0}) {
		t.Errorf("Ann's games through the other node: %+v", g)
	}
}

// TestName: a player takes a name by PUT /api/me/name; a name refused by
// the rules or taken by another, ignoring case, is refused with its reason
// and changes nothing; a page of another site may not name anyone, nor
// make a guest by trying.
func TestName(t *testing.T) {
	ts := newTestServer(t, nil)
	ann, bea := ts.browser(), ts.browser()
	bea.me()
	for _, tc := range []struct {
		who    *browser
		name   string
		header []string
		status int
		code   string
		now    string
	}{
		{ann, "  Ann ", nil, http.StatusOK, "", "Ann"},
		{ann, "Ann\u202e", nil, http.StatusBadRequest, "bad_name", "Ann"},
		{bea, "ANN", nil, http.StatusConflict, "name_taken", ""},
		{ann, "Anna", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden, "cross_origin", "Ann"},
		{ann, "Anna", []string{"Origin", "https://elsewhere.example"}, http.StatusForbidden, "cross_origin", "Ann"},
	} {
		status, body := tc.who.request("PUT", "/api/me/name", "", map[string]any{"name": tc.name}, tc.header...)
		if status != tc.status || (tc.code != "" && !strings.Contains(string(body), `"`+tc.code+`"`)) {
			t.Errorf("naming %q %v: %d %s; want %d %s", tc.name, tc.header, status, body, tc.status, tc.code)
		}
		if tc.now != "" {
			if me := tc.who.me(); me.Name != tc.now {
				t.Errorf("after naming %q: %+v, want %q", tc.name, me, tc.now)
			}
		}
	}
	if strings.HasPrefix(bea.me().Name, "ANN") {
		t.Errorf("the name taken was given: %+v", bea.me())
	}
	stranger := ts.browser()
	if status, _ := stranger.request("PUT", "/api/me/name", "", map[string]any{"name": "Cy"}, "Sec-Fetch-Site", "cross-site"); status != http.StatusForbidden || stranger.cookie() != nil {
		t.Errorf("a cross-site naming: %d, cookie %v; want 403 and no guest", status, stranger.cookie())
	}
}

// TestNameFlood: names are tried at most 5 times in a row from one
// address, and by one player from any number of addresses; then 429 with
// the time to wait, and nothing changes.
func TestNameFlood(t *testing.T) {
	for _, tc := range []struct {
		name string
		addr func(i int) string
	}{
		{"one address", func(int) string { return "203.0.113.7" }},
		{"one player", func(i int) string { return fmt.Sprintf("203.0.113.%d", 10+i) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServer(t, func(c *Config) {
				c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
			})
			b := ts.browser()
			for i := range 6 {
				status, body := b.request("PUT", "/api/me/name", "", map[string]any{"name": fmt.Sprintf("Ann %d", i)}, "X-Forwarded-For", tc.addr(i))
				want := http.StatusOK
				if i == 5 {
					want = http.StatusTooManyRequests
				}
				if status != want {
					t.Fatalf("try %d: %d %s; want %d", i+1, status, body, want)
				}
			}
			if me := b.me(); me.Name != "Ann 4" {
				t.Errorf("after the flood: %+v, want Ann 4", me)
			}
		})
	}
}

// TestCookieSecure: the session cookie is Secure when the request came
// over TLS, which behind a trusted proxy its X-Forwarded-Proto says, and
// only then.
func TestCookieSecure(t *testing.T) {
	ts := newTestServer(t, func(c *Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	plain := newTestServer(t, nil)
	for _, tc := range []struct {
		name   string
		ts     *testServer
		proto  []string
		secure bool
	}{
		{"plain HTTP", ts, nil, false},
		{"a trusted proxy's HTTPS", ts, []string{"https"}, true},
		{"a trusted proxy's HTTP", ts, []string{"http"}, false},
		{"the nearest proxy's word", ts, []string{"https, http"}, false},
		{"an untrusted peer's claim", plain, []string{"https"}, false},
	} {
		req, err := http.NewRequest("GET", tc.ts.http.URL+"/api/me", nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tc.proto {
			req.Header.Add("X-Forwarded-Proto", p)
		}
		resp, err := tc.ts.http.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var c *http.Cookie
		for _, rc := range resp.Cookies() {
			if rc.Name == players.CookieName {
				c = rc
			}
		}
		if c == nil || c.Secure != tc.secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
			t.Errorf("%s: cookie %v; want Secure %v, HttpOnly, SameSite=Lax", tc.name, c, tc.secure)
		}
	}
}
