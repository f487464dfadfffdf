package server

import (
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file holds the checks every request passes before its route: the
// security headers, the host it names, and for the API the client's rate,
// the origin of a write and the server's shutting down.

// contentSecurityPolicy lets the page load only its own scripts, styles,
// images and connections (the API and the WebSocket), inline style
// attributes aside, and be framed by no one.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"media-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// securityHeaders sets the headers every answer carries: the page's
// content policy, no framing (clickjacking), no type sniffing, no referrer
// sent to other sites.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
}

// checkHost refuses a request for a host that is not this server's. Its
// log lines are summarised (repeats), since a client may send such
// requests by the thousand; the metric counts every one.
func (s *Server) checkHost(r *http.Request) *apiError {
	if s.ownHost(r.Host) {
		return nil
	}
	s.metrics.refused.WithLabelValues("bad_host").Inc()
	s.repeats.Warn("a request for another host is refused", "host", r.Host, "client", s.clientAddr(r), "path", r.URL.Path)
	return errorf(http.StatusMisdirectedRequest, "bad_host", "this server does not answer for the host %q", r.Host)
}

// OwnHostOnly returns h answering only requests for this server's hosts, as
// the API and the page do: for the operator's address of the metrics and
// the profiles, which a page of another site pointed at it (DNS
// rebinding) must not read either.
func (s *Server) OwnHostOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e := s.checkHost(r); e != nil {
			writeError(w, e)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// ownHost reports whether a request's Host names this server: a loopback
// name or address, or one of Config.Hosts. A page of another site whose
// name was pointed at this server (DNS rebinding) sends its own name.
func (s *Server) ownHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	return slices.ContainsFunc(s.cfg.Hosts, func(h string) bool { return strings.EqualFold(h, host) })
}

// admit refuses API requests over the client's rate (saying in Retry-After
// when to come back), cross-origin writes and anything while the server
// shuts down.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) *apiError {
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		return errShuttingDown
	}
	// A request forwarded by another node was counted there.
	if s.limiter != nil && !isForwarded(r) {
		if ok, wait := s.limiter.allow(s.clientGroup(r), time.Now()); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			s.log.Debug("rate limited", "client", s.clientAddr(r), "path", r.URL.Path)
			s.metrics.refused.WithLabelValues("rate_limited").Inc()
			return errorf(http.StatusTooManyRequests, "rate_limited", "too many requests; retry in %v", wait.Round(time.Millisecond))
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && !sameOrigin(r) {
		return errorf(http.StatusForbidden, "cross_origin", "requests from other sites are not accepted")
	}
	return nil
}

// clientAddr is the client's address without the port, the one every
// limit and log line per address uses: the TCP peer's, or behind a trusted
// proxy the one the proxy says (clientIP). A request forwarded by another
// node carries the address that node chose, and no header.
func (s *Server) clientAddr(r *http.Request) string {
	return clientIP(r.RemoteAddr, r.Header.Values("X-Forwarded-For"), s.cfg.TrustedProxies)
}

// clientIP is the client's address of a request from the TCP peer remote
// with the X-Forwarded-For header lines xff. A peer that is not one of the
// trusted proxies is the client, whatever its header says. Otherwise the
// header is read from its right end, which the nearest proxy wrote, past
// every address that is itself a trusted proxy: the first one that is not
// is the client. The left end is whatever the client sent, so it is never
// believed. A header absent, or unparsable where the client should be,
// leaves the peer's address.
func clientIP(remote string, xff []string, trusted []netip.Prefix) string {
	peer, ok := parseHostAddr(remote)
	if !ok {
		host, _, err := net.SplitHostPort(remote)
		if err != nil {
			return remote
		}
		return host
	}
	if !isTrusted(peer, trusted) {
		return peer.String()
	}
	var hops []string
	for _, line := range xff {
		hops = append(hops, strings.Split(line, ",")...)
	}
	client := peer
	for _, hop := range slices.Backward(hops) {
		a, ok := parseHostAddr(strings.TrimSpace(hop))
		if !ok {
			// Past a hop no proxy of ours wrote well, nothing is known.
			return peer.String()
		}
		client = a
		if !isTrusted(a, trusted) {
			break
		}
	}
	return client.String()
}

// parseHostAddr parses an address with or without a port ("192.0.2.1",
// "192.0.2.1:443", "2001:db8::1", "[2001:db8::1]:443"): some proxies add
// the client's port to X-Forwarded-For. An IPv4 address written as IPv6
// (::ffff:192.0.2.1) is the IPv4 one, so that both count as one client.
func parseHostAddr(s string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if inner, ok := strings.CutPrefix(s, "["); ok {
		s, ok = strings.CutSuffix(inner, "]")
		if !ok {
			return netip.Addr{}, false
		}
	}
	a, err := netip.ParseAddr(s)
	return a.Unmap(), err == nil
}

// isTrusted reports whether a is in one of the trusted prefixes.
func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	a = a.WithZone("")
	return slices.ContainsFunc(trusted, func(p netip.Prefix) bool { return p.Contains(a) })
}

// sameOrigin reports whether the request's Origin, if it has one, is the
// server itself. Browsers send Origin with cross-site requests; other
// clients may leave it out.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}
