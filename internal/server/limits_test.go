package server

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// TestAddrGroup: an IPv6 address counts by its /64, an IPv4 address as
// itself, and what is not an address as itself.
func TestAddrGroup(t *testing.T) {
	for _, tc := range []struct{ addr, group string }{
		{"192.0.2.1", "192.0.2.1"},
		{"192.0.2.2", "192.0.2.2"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"::1", "::/64"},
		{"pipe", "pipe"},
		{"", ""},
	} {
		if got := addrGroup(tc.addr); got != tc.group {
			t.Errorf("addrGroup(%q) = %q, want %q", tc.addr, got, tc.group)
		}
	}
}

// openTable is a table of Tiny with a person's seat and an open one.
var openTable = map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human"}, {"kind": "open"}}}

// createAt asks for a game from the TCP peer remote ("192.0.2.1:1234",
// "[2001:db8::1]:1234").
func (b bubbleServer) createAt(remote string, spec map[string]any) (int, createResponse) {
	b.t.Helper()
	req := httptest.NewRequest("POST", "/api/games", bytes.NewReader(mustJSON(spec)))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = remote
	w := httptest.NewRecorder()
	b.s.ServeHTTP(w, req)
	if w.Code != http.StatusCreated {
		return w.Code, createResponse{}
	}
	return w.Code, decode[createResponse](b.t, w.Body.Bytes())
}

// TestGameCapsByAddrGroup: the cap per address counts an IPv6 address's
// /64 as one, an IPv4 address as itself; and a group's share of the cap in
// all binds below the cap per address.
func TestGameCapsByAddrGroup(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxGames int
		share    int
		remotes  []string
		want     []int
	}{
		{"one /64, many addresses", 100, -1,
			[]string{"[2001:db8:1:2::1]:1", "[2001:db8:1:2::2]:1", "[2001:db8:1:2:aaaa::3]:1", "[2001:db8:1:2:ffff:ffff:ffff:ffff]:1"},
			[]int{201, 201, 201, 429}},
		{"four /64s", 100, -1,
			[]string{"[2001:db8:1:2::1]:1", "[2001:db8:1:3::1]:1", "[2001:db8:1:4::1]:1", "[2001:db8:1:5::1]:1"},
			[]int{201, 201, 201, 201}},
		{"IPv4 addresses of one /24", 100, -1,
			[]string{"192.0.2.1:1", "192.0.2.2:1", "192.0.2.3:1", "192.0.2.4:1"},
			[]int{201, 201, 201, 201}},
		{"one IPv4 address", 100, -1,
			[]string{"192.0.2.1:1", "192.0.2.1:2", "192.0.2.1:3", "192.0.2.1:4"},
			[]int{201, 201, 201, 429}},
		{"a share of 1% of 200", 200, 1,
			[]string{"192.0.2.1:1", "192.0.2.1:2", "192.0.2.1:3", "192.0.2.2:1"},
			[]int{201, 201, 429, 201}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b, _ := openBubble(t, func(c *Config) { c.MaxGames, c.MaxGamesPerAddr, c.MaxGamesShare = tc.maxGames, 3, tc.share })
				defer b.s.Close()
				for i, remote := range tc.remotes {
					if status, _ := b.createAt(remote, openTable); status != tc.want[i] {
						t.Errorf("game %d, from %s: %d, want %d", i+1, remote, status, tc.want[i])
					}
				}
			})
		})
	}
}

// TestUnjoinedTablesGiveWay: a server at its cap, filled from many
// addresses with tables nobody joined, still makes a new game: the oldest
// such table of the group with the most games gives way (410 expired, its
// store's row expired), a table a person joined or a game of bots never
// does, and with none to give way the cap refuses.
func TestUnjoinedTablesGiveWay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const capGames = 12
		b, st := openBubble(t, func(c *Config) { c.MaxGames, c.MaxGamesShare, c.MaxBotGamesPerAddr = capGames, -1, -1 })
		defer b.s.Close()
		b.s.bots.mu.Lock()
		b.s.bots.closed = true // games of bots alone stay in progress
		b.s.bots.mu.Unlock()
		made := func(remote string, spec map[string]any) createResponse {
			t.Helper()
			time.Sleep(time.Second) // each table a second older than the next
			status, c := b.createAt(remote, spec)
			if status != http.StatusCreated {
				t.Fatalf("a game from %s: %d", remote, status)
			}
			return c
		}
		// A person's table, joined, and a game of bots: neither gives way.
		person := made("198.51.100.1:1", openTable)
		if status, body := b.do("POST", "/api/games/"+person.ID+"/join", person.Seats[0].Token, nil); status != 200 {
			t.Fatalf("joining: %d %s", status, body)
		}
		bots := made("198.51.100.2:1", map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}}})
		// The cap filled from many addresses: one table each from seven,
		// then three from one address, the newest tables.
		var lone, heavy []createResponse
		for i := range 7 {
			lone = append(lone, made(fmt.Sprintf("192.0.2.%d:1", i+1), openTable))
		}
		for range 3 {
			heavy = append(heavy, made("203.0.113.9:1", openTable))
		}
		if n := len(b.s.active()); n != capGames {
			t.Fatalf("%d games, want the cap, %d", n, capGames)
		}
		gone := func(c createResponse) bool {
			status, _ := b.do("GET", "/api/games/"+c.ID, "", nil)
			return status == http.StatusGone
		}
		// Two newcomers: the heavy address's tables give way, oldest first,
		// while it holds more than the others.
		var newcomers []createResponse
		for i := range 2 {
			status, c := b.createAt(fmt.Sprintf("[2001:db8:%d::1]:1", i+1), openTable)
			if status != http.StatusCreated {
				t.Fatalf("newcomer %d at the cap: %d, want 201", i+1, status)
			}
			newcomers = append(newcomers, c)
			for j, c := range heavy {
				if gone(c) != (j <= i) {
					t.Errorf("after newcomer %d, the heavy address's table %d gone: %v", i+1, j+1, gone(c))
				}
			}
		}
		// Then every group holds one game: the oldest table nobody joined
		// gives way, the joined one and the bots' older still.
		status, last := b.createAt("[2001:db8:9::1]:1", openTable)
		if status != http.StatusCreated {
			t.Fatalf("a third newcomer: %d", status)
		}
		if !gone(lone[0]) || gone(lone[1]) || gone(heavy[2]) {
			t.Errorf("the oldest lone table gone %v, the next %v, the heavy address's last %v; want the oldest alone", gone(lone[0]), gone(lone[1]), gone(heavy[2]))
		}
		if gone(person) || gone(bots) {
			t.Errorf("the joined table gone %v, the bots' game %v", gone(person), gone(bots))
		}
		if sg, err := st.Game(t.Context(), lone[0].ID); err != nil || !sg.Expired {
			t.Errorf("the table that gave way, in the store: %v, %+v", err, sg)
		}
		// Every table left joined: the cap refuses.
		for _, c := range append(append(lone[1:], heavy[2], last), newcomers...) {
			if status, body := b.do("POST", "/api/games/"+c.ID+"/join", c.Seats[0].Token, nil); status != 200 {
				t.Fatalf("joining %s: %d %s", c.ID, status, body)
			}
		}
		if status, _ := b.createAt("192.0.2.200:1", openTable); status != http.StatusServiceUnavailable {
			t.Errorf("at the cap with every table joined: %d, want 503", status)
		}
	})
}

// TestRateByAddrGroup: the request rate is a client's address group's: the
// addresses of one IPv6 /64 share one bucket, another /64 and IPv4
// addresses have their own.
func TestRateByAddrGroup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, func(c *Config) { c.Rate, c.Burst = 1, 2 })
		defer b.s.Close()
		for i, tc := range []struct {
			remote string
			status int
		}{
			{"[2001:db8:1:2::1]:1", 200},
			{"[2001:db8:1:2::2]:1", 200},
			{"[2001:db8:1:2:ffff::3]:1", 429},
			{"[2001:db8:1:3::1]:1", 200},
			{"192.0.2.1:1", 200},
			{"192.0.2.2:1", 200},
			{"192.0.2.1:2", 200},
			{"192.0.2.1:3", 429},
		} {
			req := httptest.NewRequest("GET", "/api/lobby", nil)
			req.RemoteAddr = tc.remote
			w := httptest.NewRecorder()
			b.s.ServeHTTP(w, req)
			if w.Code != tc.status {
				t.Errorf("request %d, from %s: %d, want %d", i+1, tc.remote, w.Code, tc.status)
			}
		}
	})
}

// fakeConn is a connection from a given address, for the Listener.
type fakeConn struct {
	net.Conn
	remote net.Addr
}

func (c fakeConn) RemoteAddr() net.Addr { return c.remote }

// fakeListener hands out connections from the addresses sent on it.
type fakeListener struct {
	addrs chan string
}

func (l fakeListener) Accept() (net.Conn, error) {
	a, ok := <-l.addrs
	if !ok {
		return nil, net.ErrClosed
	}
	ours, theirs := net.Pipe()
	go io.Copy(io.Discard, theirs) // a refusal's answer, read and dropped
	return fakeConn{ours, net.TCPAddrFromAddrPort(netip.MustParseAddrPort(a))}, nil
}
func (l fakeListener) Close() error   { return nil }
func (l fakeListener) Addr() net.Addr { return &net.TCPAddr{} }

// TestConnectionCapsByAddrGroup: the cap on connections per address counts
// the addresses of one IPv6 /64 together, IPv4 addresses each alone.
func TestConnectionCapsByAddrGroup(t *testing.T) {
	cases := []struct {
		addr string
		ok   bool
	}{
		{"[2001:db8:1:2::1]:1", true},
		{"[2001:db8:1:2::2]:1", true},
		{"[2001:db8:1:2:ffff::3]:1", false},
		{"[2001:db8:1:3::1]:1", true},
		{"192.0.2.1:1", true},
		{"192.0.2.2:1", true},
		{"192.0.2.1:2", true},
		{"192.0.2.1:3", false},
	}
	addrs := make(chan string, len(cases))
	var want []string
	for _, tc := range cases {
		addrs <- tc.addr
		if tc.ok {
			want = append(want, netip.MustParseAddrPort(tc.addr).String())
		}
	}
	close(addrs)
	ln := NewListener(fakeListener{addrs}, 0, 2, nil, nil)
	defer ln.Close()
	// The connections accepted are held open, so that each counts.
	var got []string
	for {
		c, err := ln.Accept()
		if err != nil {
			break
		}
		got = append(got, c.RemoteAddr().String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("accepted %v, want %v", got, want)
	}
	if n := ln.Refused(); n != 2 {
		t.Errorf("%d connections refused, want 2", n)
	}
}
