package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/store"
)

// TestUnreadableRequestsGetJSON: a request net/http cannot read (a NUL
// byte in a header, a header name with a space, a line without a colon,
// no Host, headers over the limit) is answered by net/http itself before
// any handler; through the Listener the answer is the API's JSON error with
// net/http's status, and a request that reads is answered as ever.
func TestUnreadableRequestsGetJSON(t *testing.T) {
	_, addr := serveOnListener(t, 16, 16, nil, func(hs *http.Server) { hs.MaxHeaderBytes = 1 << 10 })
	host := "Host: " + addr + "\r\n"

	for _, tc := range []struct {
		name, request string
		status        int
		code          string
	}{
		{"a NUL in a header's value", "GET /api/health HTTP/1.1\r\n" + host + "X-Name: a\x00b\r\n\r\n", 400, "bad_request"},
		{"a NUL in a header's name", "GET /api/health HTTP/1.1\r\n" + host + "X-\x00: b\r\n\r\n", 400, "bad_request"},
		{"a header name with a space", "GET /api/health HTTP/1.1\r\n" + host + "X Name: b\r\n\r\n", 400, "bad_request"},
		{"a line without a colon", "GET /api/health HTTP/1.1\r\n" + host + "nothing\r\n\r\n", 400, "bad_request"},
		{"no Host", "GET /api/health HTTP/1.1\r\n\r\n", 400, "bad_request"},
		{"a malformed Host", "GET /api/health HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "bad_request"},
		{"a transfer coding nobody knows", "POST /api/games HTTP/1.1\r\n" + host + "Transfer-Encoding: zip\r\n\r\n", 501, "bad_request"},
		{"headers over the limit", "GET /api/health HTTP/1.1\r\n" + host + "X-Big: " + strings.Repeat("a", 8<<10) + "\r\n\r\n", 431, "too_large"},
		{"a request that reads", "GET /api/health HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n", 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(5 * time.Second))
			io.WriteString(c, tc.request)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %s %q, want %d and JSON", resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.status)
			}
			if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("no security headers: %v", resp.Header)
			}
			if tc.code == "" {
				return
			}
			var e errorBody
			if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != tc.code || !strings.HasPrefix(e.Error.Message, "the request could not be read: ") {
				t.Errorf("body %q (%v), want code %s", body, err, tc.code)
			}
		})
	}
}

// FuzzJSONFromNetHTTP: whatever a write holds, the rewrite never panics,
// and what it makes is an HTTP answer of the status it found, with the
// API's JSON error as its whole body.
func FuzzJSONFromNetHTTP(f *testing.F) {
	for _, seed := range []string{
		"HTTP/1.1 400 Bad Request" + netHTTPErrorHeaders + "400 Bad Request",
		"HTTP/1.1 400 Bad Request: invalid header value" + netHTTPErrorHeaders + "400 Bad Request: invalid header value",
		"HTTP/1.1 431 Request Header Fields Too Large" + netHTTPErrorHeaders + "431 Request Header Fields Too Large",
		"HTTP/1.1 501 Not Implemented" + netHTTPErrorHeaders + "Unsupported transfer encoding",
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
		"HTTP/1.1 4",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		answer, ok := jsonFromNetHTTP(p)
		if !ok {
			return
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(answer)), nil)
		if err != nil {
			t.Fatalf("%q became %q, which does not read: %v", p, answer, err)
		}
		body, err := io.ReadAll(resp.Body)
		var e errorBody
		if err != nil || json.Unmarshal(body, &e) != nil || e.Error.Code == "" || !bytes.HasPrefix(p[len("HTTP/1.1 "):], []byte(resp.Status[:3])) {
			t.Fatalf("%q became %q: %v", p, answer, err)
		}
	})
}

// serveOnListener serves a test server on a loopback port behind a
// Listener of total and perAddr connections, its configuration changed by
// configure and its http.Server by serve (either may be nil), until the test
// ends; it returns the Listener and the server's address.
func serveOnListener(t *testing.T, total, perAddr int, configure func(*Config), serve func(*http.Server)) (*Listener, string) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	ln := NewListener(inner, total, perAddr, nil, nil)
	cfg := testConfig(t, st)
	cfg.Conns = ln
	if configure != nil {
		configure(&cfg)
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		st.Close()
		ln.Close()
		t.Fatal(err)
	}
	hs := s.HTTPServer()
	if serve != nil {
		serve(hs)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { s.Close(); hs.Close(); st.Close() })
	return ln, inner.Addr().String()
}
