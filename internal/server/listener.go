package server

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// A Listener caps the connections a server holds open, in all and from
// each client address group (addrGroup: an IPv6 address's /64), so that idle sockets (a thousand spectators, a
// body sent a byte at a time) cannot take every file descriptor of the
// process and stop the server from answering anyone: a connection over a
// cap is answered 503 at once and closed, and the refusal logged (its
// repeats summarised, with how many were refused meanwhile). A trusted proxy's
// connections carry many clients, so only the cap in all binds them: the
// proxy caps its clients' connections itself (docs/operations.md).
type Listener struct {
	net.Listener
	total, perAddr int
	trusted        []netip.Prefix

	mu      sync.Mutex
	open    int
	byAddr  map[string]int
	refused atomic.Int64
	logs    *repeats // the refusals' log lines
}

// NewListener caps ln's connections at total in all and perAddr from each
// client address group (0: no cap) but the trusted proxies'.
func NewListener(ln net.Listener, total, perAddr int, trusted []netip.Prefix, log *slog.Logger) *Listener {
	if log == nil {
		log = slog.Default()
	}
	return &Listener{Listener: ln, total: total, perAddr: perAddr, trusted: trusted, byAddr: make(map[string]int), logs: newRepeats(log, repeatWindow)}
}

// Close stops listening, and logs the refusals it held back.
func (l *Listener) Close() error {
	l.logs.close()
	return l.Listener.Close()
}

// DefaultConnLimits returns caps sized from the process's limit on open
// files: three quarters of it for connections in all (the rest is for the
// database, the page's files and the bots), and an address at most 128 or
// an eighth of that, whichever is less.
func DefaultConnLimits() (total, perAddr int) {
	files := fileLimit()
	total = max(16, files*3/4)
	return total, max(4, min(128, total/8))
}

// Open returns the connections open now.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// Refused returns the connections refused so far.
func (l *Listener) Refused() int64 { return l.refused.Load() }

// Accept returns the next connection within the caps.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := c.RemoteAddr().String()
		proxy := false
		if a, ok := parseHostAddr(addr); ok {
			addr, proxy = addrGroup(a.String()), isTrusted(a, l.trusted)
		}
		l.mu.Lock()
		over := ""
		switch {
		case l.total > 0 && l.open >= l.total:
			over = fmt.Sprintf("the server has %d connections open, all it takes", l.open)
		case l.perAddr > 0 && !proxy && l.byAddr[addr] >= l.perAddr:
			over = fmt.Sprintf("your address has %d connections open, the most it may", l.byAddr[addr])
		}
		if over == "" {
			l.open++
			l.byAddr[addr]++
			l.mu.Unlock()
			return &limitedConn{Conn: c, l: l, addr: addr}, nil
		}
		l.refused.Add(1)
		l.logs.Warn("connections refused over the caps", "client", addr, "why", over, "open", l.open)
		l.mu.Unlock()
		go refuseConn(c, over)
	}
}

// refuseConn answers a connection over a cap with a 503 and closes it.
func refuseConn(c net.Conn, why string) {
	body := mustJSON(errorBody{Error: errorDetail{Code: "too_many_connections", Message: why + "; try again later"}})
	c.SetWriteDeadline(time.Now().Add(time.Second))
	status := http.StatusServiceUnavailable
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
	c.Close()
}

type limitedConn struct {
	net.Conn
	l    *Listener
	addr string
	once sync.Once
}

// Write writes p, but for net/http's plain-text answer to a request it
// could not read, which it writes in one piece and which becomes the API's
// JSON error (badhttp.go).
func (c *limitedConn) Write(p []byte) (int, error) {
	if answer, ok := jsonFromNetHTTP(p); ok {
		if _, err := c.Conn.Write(answer); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *limitedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		if c.l.byAddr[c.addr]--; c.l.byAddr[c.addr] <= 0 {
			delete(c.l.byAddr, c.addr)
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
