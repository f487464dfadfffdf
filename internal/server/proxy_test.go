package server

import (
	"bufio"
	"bytes"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

// testProxies are the load balancers the tests trust: one IPv4 network and
// one IPv6 one.
var testProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/24"), netip.MustParsePrefix("2001:db8:f::/48")}

// TestClientIP: the client's address is the peer's unless the peer is a
// trusted proxy; then it is the rightmost address of X-Forwarded-For that
// is not a trusted proxy, or the peer's when the header is absent or
// unparsable there.
func TestClientIP(t *testing.T) {
	for _, c := range []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"no proxy", "203.0.113.5:5000", nil, "203.0.113.5"},
		{"an untrusted peer's header is ignored", "203.0.113.5:5000", []string{"198.51.100.1"}, "203.0.113.5"},
		{"an untrusted IPv6 peer's header is ignored", "[2001:db8:1::5]:5000", []string{"198.51.100.1"}, "2001:db8:1::5"},
		{"a trusted peer without a header", "10.0.0.2:5000", nil, "10.0.0.2"},
		{"a trusted peer", "10.0.0.2:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"a trusted IPv6 peer", "[2001:db8:f::2]:5000", []string{"2001:db8:1::7"}, "2001:db8:1::7"},
		{"IPv6 written otherwise is one address", "10.0.0.2:5000", []string{"2001:DB8:1:0::7"}, "2001:db8:1::7"},
		{"IPv4 in IPv6 is IPv4", "[::ffff:10.0.0.2]:5000", []string{"::ffff:198.51.100.1"}, "198.51.100.1"},
		{"a port in the header", "10.0.0.2:5000", []string{"198.51.100.1:4711"}, "198.51.100.1"},
		{"an IPv6 port in the header", "10.0.0.2:5000", []string{"[2001:db8:1::7]:4711"}, "2001:db8:1::7"},
		{"IPv6 in brackets", "10.0.0.2:5000", []string{"[2001:db8:1::7]"}, "2001:db8:1::7"},
		{"what the client prepended is not believed", "10.0.0.2:5000", []string{"192.0.2.66, 198.51.100.1"}, "198.51.100.1"},
		{"a trusted hop is passed", "10.0.0.2:5000", []string{"192.0.2.66, 198.51.100.1, 10.0.0.9"}, "198.51.100.1"},
		{"hops on several lines", "10.0.0.2:5000", []string{"192.0.2.66, 198.51.100.1", "10.0.0.9"}, "198.51.100.1"},
		{"spaces", "10.0.0.2:5000", []string{"  198.51.100.1 ,10.0.0.9  "}, "198.51.100.1"},
		{"every hop trusted: the farthest", "10.0.0.2:5000", []string{"10.0.0.7, 10.0.0.9"}, "10.0.0.7"},
		{"garbage", "10.0.0.2:5000", []string{"not an address"}, "10.0.0.2"},
		{"an empty header", "10.0.0.2:5000", []string{""}, "10.0.0.2"},
		{"garbage where the client should be", "10.0.0.2:5000", []string{"198.51.100.1, 999.1.1.1"}, "10.0.0.2"},
		{"garbage past a trusted hop", "10.0.0.2:5000", []string{"198.51.100.1, junk, 10.0.0.9"}, "10.0.0.2"},
		{"garbage the client prepended", "10.0.0.2:5000", []string{"junk, 198.51.100.1"}, "198.51.100.1"},
		{"a half bracket", "10.0.0.2:5000", []string{"[2001:db8:1::7"}, "10.0.0.2"},
		{"a forwarded request's bare address", "198.51.100.1", nil, "198.51.100.1"},
		{"a peer that is no address", "pipe", []string{"198.51.100.1"}, "pipe"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := clientIP(c.remote, c.xff, testProxies); got != c.want {
				t.Errorf("clientIP(%q, %q) = %q, want %q", c.remote, c.xff, got, c.want)
			}
		})
	}
}

// TestTrustedProxyLimits: two clients behind one trusted proxy have a rate
// limit and a cap on games each, and a client that is not behind a trusted
// proxy cannot take another's address, or escape its own, by a header.
func TestTrustedProxyLimits(t *testing.T) {
	type step struct {
		peer, xff  string
		wantStatus int
	}
	for _, c := range []struct {
		name    string
		path    string
		config  func(*Config)
		steps   []step
		refusal string
	}{
		{
			name: "rate", path: "/api/health", refusal: "rate_limited",
			// No token comes back while the test runs.
			config: func(c *Config) { c.Rate, c.Burst = 0.001, 2 },
			steps: []step{
				{"10.0.0.2:1000", "198.51.100.1", 200},
				{"10.0.0.2:1001", "198.51.100.1", 200},
				{"10.0.0.2:1002", "198.51.100.1", 429},
				{"10.0.0.2:1003", "198.51.100.2", 200},
				{"10.0.0.3:1004", "192.0.2.9, 198.51.100.2", 200},
				{"10.0.0.2:1005", "198.51.100.2", 429},
				// A spoofer's header names a client with tokens left.
				{"203.0.113.7:1006", "198.51.100.3", 200},
				{"203.0.113.7:1007", "198.51.100.4", 200},
				{"203.0.113.7:1008", "198.51.100.5", 429},
				{"10.0.0.2:1009", "198.51.100.3", 200},
			},
		},
		{
			name: "games", path: "/api/games", refusal: "too_many_games",
			config: func(c *Config) { c.MaxGamesPerAddr = 1 },
			steps: []step{
				{"10.0.0.2:1000", "198.51.100.1", 201},
				{"10.0.0.2:1001", "198.51.100.1", 429},
				{"[2001:db8:f::1]:1002", "198.51.100.2", 201},
				{"10.0.0.2:1003", "198.51.100.2", 429},
				// A spoofer cannot take a client's place, nor escape its
				// own cap by naming another.
				{"203.0.113.7:1004", "198.51.100.3", 201},
				{"203.0.113.7:1005", "198.51.100.4", 429},
				{"10.0.0.2:1006", "198.51.100.3", 201},
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts := newTestServer(t, func(cfg *Config) {
				cfg.TrustedProxies = testProxies
				c.config(cfg)
			})
			for i, st := range c.steps {
				req := httptest.NewRequest("GET", c.path, nil)
				if c.path == "/api/games" {
					spec := map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}}
					req = httptest.NewRequest("POST", c.path, bytes.NewReader(mustJSON(spec)))
					req.Header.Set("Content-Type", "application/json")
				}
				req.RemoteAddr = st.peer
				req.Header.Set("X-Forwarded-For", st.xff)
				w := httptest.NewRecorder()
				ts.s.ServeHTTP(w, req)
				if w.Code != st.wantStatus {
					t.Errorf("step %d, from %s for %s: %d %s, want %d", i, st.peer, st.xff, w.Code, w.Body, st.wantStatus)
				}
				if w.Code == 429 && !strings.Contains(w.Body.String(), c.refusal) {
					t.Errorf("step %d: refused with %s, want %s", i, w.Body, c.refusal)
				}
			}
		})
	}
}

// TestConnectionCapsTrustedProxy: a trusted proxy's connections are held
// to the cap in all but not to the cap per address, which binds the
// others.
func TestConnectionCapsTrustedProxy(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := NewListener(inner, 6, 2, []netip.Prefix{netip.MustParsePrefix("127.0.0.9/32")}, nil)
	defer ln.Close()
	// The accepted connections are held open, as idle clients' are.
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
		for len(accepted) > 0 {
			(<-accepted).Close()
		}
	}()
	// dial connects from src and reports whether the connection was
	// refused: a refusal is answered 503 at once; one taken is held and
	// counted.
	dial := func(src string) bool {
		t.Helper()
		// Read before the dial: the listener may refuse it at once.
		before := ln.Refused()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
		c, err := d.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		for i := 0; ; i++ {
			switch {
			case ln.Refused() > before:
				c.SetReadDeadline(time.Now().Add(5 * time.Second))
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
					t.Fatalf("a refused connection from %s: %v %v", src, resp, err)
				}
				return true
			case len(accepted) > 0:
				held = append(held, <-accepted)
				return false
			case i > 5000:
				t.Fatalf("a connection from %s neither taken nor refused", src)
			}
			time.Sleep(time.Millisecond)
		}
	}
	for i, c := range []struct {
		src     string
		refused bool
	}{
		{"127.0.0.9", false}, {"127.0.0.9", false}, {"127.0.0.9", false}, // the proxy past the cap per address
		{"127.0.0.1", false}, {"127.0.0.1", false},
		{"127.0.0.1", true}, // another address at its cap
		{"127.0.0.9", false},
		{"127.0.0.9", true}, // the proxy at the cap in all
	} {
		if got := dial(c.src); got != c.refused {
			t.Errorf("connection %d from %s: refused %v, want %v", i, c.src, got, c.refused)
		}
	}
}

// TestNodesForwardClientAddr: a request a node takes from a trusted proxy
// and forwards to the game's owner carries the client's address, not the
// proxy's: the owner's log names the client.
func TestNodesForwardClientAddr(t *testing.T) {
	var logs lockedLog
	names := []string{"a", "b"}
	n := 0
	nodes, _ := newTestNodes(t, func(c *Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		c.Log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})).With("node", names[n])
		n++
	}, names...)
	id, tokens := nodes[0].humans(2, 1)
	status, body := nodes[1].request("GET", "/api/games/"+id, tokens[0], nil, "X-Forwarded-For", "192.0.2.66, 198.51.100.7")
	if status != 200 {
		t.Fatalf("a game through the other node: %d %s", status, body)
	}
	var served []string
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, "msg=request") && strings.Contains(line, "path=/api/games/"+id) && strings.Contains(line, "node=a") {
			served = append(served, line)
		}
	}
	if len(served) != 1 || !strings.Contains(served[0], "client=198.51.100.7 ") {
		t.Errorf("the owner's log of the forwarded request: %q", served)
	}
}

// lockedLog is a log's text that several goroutines write.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
