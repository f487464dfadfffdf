package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// maxBodyBytes bounds a request's body.
const maxBodyBytes = 64 << 10

// decodeBody reads a JSON request body into v, strictly. An empty body is
// allowed when emptyOK.
func (s *Server) decodeBody(w http.ResponseWriter, r *http.Request, v any, emptyOK bool) *apiError {
	// A body sent a byte at a time must not hold a connection for long.
	if d := s.cfg.BodyTimeout; d > 0 {
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errorf(http.StatusRequestEntityTooLarge, "too_large", "the request body is over %d bytes", maxBodyBytes)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		s.repeats.Warn("a request body too slow to arrive", "client", s.clientAddr(r), "path", r.URL.Path)
		s.metrics.refused.WithLabelValues("timeout").Inc()
		return errorf(http.StatusRequestTimeout, "timeout", "the request body did not arrive within %v", s.cfg.BodyTimeout)
	}
	if err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "reading the request: %v", err)
	}
	if len(bytes.TrimSpace(body)) == 0 && emptyOK {
		return nil
	}
	if e := checkJSONType(r.Header.Get("Content-Type")); e != nil {
		return e
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "the request body is not the expected JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errorf(http.StatusBadRequest, "bad_request", "the request body has data after its JSON object")
	}
	return nil
}

// checkJSONType refuses a body whose Content-Type, if it has one, is not
// JSON: it is read as a media type (RFC 9110), so that its case does not
// matter and application/jsonx is not taken for application/json. A
// charset, if named, must be UTF-8, the only one JSON is written in.
func checkJSONType(ct string) *apiError {
	if ct == "" {
		return nil
	}
	media, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "the request's Content-Type %q is not a media type: %v", ct, err)
	}
	if media != "application/json" {
		return errorf(http.StatusBadRequest, "bad_request", "the request body must be application/json, not %s", media)
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return errorf(http.StatusBadRequest, "bad_request", "the request body must be UTF-8, not %s", cs)
	}
	return nil
}

// A gameHandler answers a request about an existing game, or returns its
// refusal.
type gameHandler func(w http.ResponseWriter, r *http.Request, g *match) error

// withGame makes h a handler of the path's game: a game that is not there
// is refused before h, and one another node of the cluster owns is
// forwarded there (forward.go).
func (s *Server) withGame(h gameHandler) http.HandlerFunc {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error {
		g, err := s.requestedGame(r)
		if here := (*errNotHere)(nil); errors.As(err, &here) {
			return s.forwardHTTP(w, r, r.PathValue("id"), here.owner, h)
		}
		if err != nil {
			return err
		}
		return h(w, r, g)
	})
}

// requestedGame returns the game the request's path names: the error is an
// *apiError, or an *errNotHere for a game another node of the cluster owns.
func (s *Server) requestedGame(r *http.Request) (*match, error) {
	id := r.PathValue("id")
	g, err := s.match(r.Context(), id)
	if e := (*apiError)(nil); errors.As(err, &e) {
		return nil, e
	}
	if here := (*errNotHere)(nil); errors.As(err, &here) {
		return nil, here
	}
	if err != nil {
		s.repeats.Error("reading a game", "game", id, "err", err)
		return nil, errorf(http.StatusInternalServerError, "internal_error", "the game could not be read")
	}
	if g == nil {
		return nil, errorf(http.StatusNotFound, "not_found", "no game %q", id)
	}
	return g, nil
}

// bearer returns the request's seat token, "" if it has none.
func bearer(r *http.Request) string {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	return strings.TrimSpace(token)
}

// viewer returns the seat of the request's token: -1 without a token, an
// error for a token that is not a seat of g.
func viewer(r *http.Request, g *match) (int, *apiError) {
	token := bearer(r)
	if token == "" {
		if r.Header.Get("Authorization") != "" {
			return -1, errorf(http.StatusUnauthorized, "no_token", "the Authorization header must be \"Bearer <seat token>\"")
		}
		return -1, nil
	}
	if seat := g.seatOf(token); seat >= 0 {
		return seat, nil
	}
	return -1, errorf(http.StatusForbidden, "bad_token", "the token is not a seat of game %s", g.id)
}

// seatFor is viewer for a request that must act for a seat.
func seatFor(r *http.Request, g *match) (int, *apiError) {
	seat, e := viewer(r, g)
	if e == nil && seat < 0 {
		e = errorf(http.StatusUnauthorized, "no_token", "this needs a seat token in \"Authorization: Bearer <token>\"; spectators cannot act")
	}
	return seat, e
}

// versionParam reads the optional ?at=N; -1 when absent.
func versionParam(r *http.Request, g *match) (int, *apiError) {
	q := r.URL.Query().Get("at")
	if q == "" {
		return -1, nil
	}
	n, err := strconv.Atoi(q)
	if v := int(g.version.Load()); err != nil || n < 0 || n > v {
		return 0, errorf(http.StatusBadRequest, "bad_request", "at=%q is not a version of the game, 0 to %d", q, v)
	}
	return n, nil
}
