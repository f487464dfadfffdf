package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/store"
)

// Limits on requests.
const (
	maxBodyBytes  = 64 << 10
	maxNameRunes  = 32
	lobbyListSize = 50
)

// apiError is a refusal, with the status and code of docs/api.md.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func errorf(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

var errShuttingDown = errorf(503, "shutting_down", "the server is shutting down; try again when it is back")

type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	State json.RawMessage `json:"state,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(mustJSON(v))
}

// writeError answers with e and, if not nil, the game's current state.
func writeError(w http.ResponseWriter, e *apiError, state json.RawMessage) {
	var b errorBody
	b.Error.Code, b.Error.Message, b.State = e.code, e.message, state
	writeJSON(w, e.status, b)
}

// staticPattern routes the web page's files; it never takes an API path.
const staticPattern = "GET /"

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", s.handleHealth)
	mux.HandleFunc("GET /api/rules", s.handleRules)
	mux.HandleFunc("POST /api/rules/{game}/preview", s.handlePreview)
	mux.HandleFunc("POST /api/games", s.handleCreate)
	mux.HandleFunc("GET /api/lobby", s.handleLobby)
	mux.HandleFunc("GET /api/games/{id}", s.withGame(s.handleGame))
	mux.HandleFunc("GET /api/games/{id}/state", s.withGame(s.handleState))
	mux.HandleFunc("GET /api/games/{id}/record", s.withGame(s.handleRecord))
	mux.HandleFunc("POST /api/games/{id}/moves", s.withGame(s.handleMove))
	mux.HandleFunc("POST /api/games/{id}/join", s.withGame(s.handleJoin))
	mux.HandleFunc("POST /api/games/{id}/leave", s.withGame(s.handleLeave))
	mux.HandleFunc("POST /api/games/{id}/takeback", s.withGame(s.handleTakeBack))
	mux.HandleFunc("GET /api/games/{id}/ws", s.withGame(s.handleWebSocket))
	if s.cfg.Static != nil {
		mux.Handle(staticPattern, s.staticHandler())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		securityHeaders(w.Header())
		if !s.ownHost(r.Host) {
			s.log.Warn("a request for another host is refused", "host", r.Host, "client", clientAddr(r), "path", r.URL.Path)
			s.metrics.refused.WithLabelValues("bad_host").Inc()
			writeError(w, errorf(http.StatusMisdirectedRequest, "bad_host", "this server does not answer for the host %q", r.Host), nil)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			if e := s.admit(w, r); e != nil {
				writeError(w, e, nil)
				return
			}
			w.Header().Set("Cache-Control", "no-store")
			if _, pattern := mux.Handler(r); pattern == "" || pattern == staticPattern {
				s.notRouted(mux, w, r)
				return
			}
		}
		mux.ServeHTTP(w, r)
		s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "client", clientAddr(r), "took", time.Since(start))
	})
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
	if s.limiter != nil {
		if ok, wait := s.limiter.allow(clientAddr(r), time.Now()); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			s.log.Debug("rate limited", "client", clientAddr(r), "path", r.URL.Path)
			s.metrics.refused.WithLabelValues("rate_limited").Inc()
			return errorf(http.StatusTooManyRequests, "rate_limited", "too many requests; retry in %v", wait.Round(time.Millisecond))
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && !sameOrigin(r) {
		return errorf(http.StatusForbidden, "cross_origin", "requests from other sites are not accepted")
	}
	return nil
}

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

// notRouted answers an API path that no route takes: 405 if another method
// would have been taken, 404 otherwise.
func (s *Server) notRouted(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		r2 := r.Clone(r.Context())
		r2.Method = m
		if _, p := mux.Handler(r2); p != "" && p != staticPattern {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, errorf(http.StatusMethodNotAllowed, "method_not_allowed", "%s is not allowed here; use %s", r.Method, strings.Join(allow, " or ")), nil)
		return
	}
	writeError(w, errorf(http.StatusNotFound, "not_found", "no such path %s", r.URL.Path), nil)
}

// clientAddr is the client's address without the port: rate limits are per
// address.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
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

// staticHandler serves the web page's files, and index.html for any path
// that is not a file, so that the page can route on its path.
func (s *Server) staticHandler() http.Handler {
	files := http.FileServerFS(s.cfg.Static)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name != "" {
			if st, err := fs.Stat(s.cfg.Static, name); err == nil && !st.IsDir() {
				files.ServeHTTP(w, r)
				return
			}
		}
		index, err := fs.ReadFile(s.cfg.Static, "index.html")
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
	})
}

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
		s.log.Warn("a request body too slow to arrive", "client", clientAddr(r), "path", r.URL.Path)
		s.metrics.refused.WithLabelValues("timeout").Inc()
		return errorf(http.StatusRequestTimeout, "timeout", "the request body did not arrive within %v", s.cfg.BodyTimeout)
	}
	if err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "reading the request: %v", err)
	}
	if len(bytes.TrimSpace(body)) == 0 && emptyOK {
		return nil
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return errorf(http.StatusBadRequest, "bad_request", "the request body must be application/json, not %s", ct)
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

// gameHandler handles a request about an existing game.
type gameHandler func(w http.ResponseWriter, r *http.Request, g *match)

func (s *Server) withGame(h gameHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		g, err := s.match(r.Context(), id)
		if e := (*apiError)(nil); errors.As(err, &e) {
			writeError(w, e, nil)
			return
		}
		if err != nil {
			s.log.Error("reading a game", "game", id, "err", err)
			writeError(w, errorf(500, "internal_error", "the game could not be read"), nil)
			return
		}
		if g == nil {
			writeError(w, errorf(http.StatusNotFound, "not_found", "no game %q", id), nil)
			return
		}
		h(w, r, g)
	}
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

// handleHealth says what an operator needs to see at a glance; it takes
// no game's lock, so it answers whatever the games are doing.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, s.health(time.Now()))
}

func (s *Server) handleRules(w http.ResponseWriter, r *http.Request) {
	games := []rulesView{}
	for _, rules := range s.cfg.Games.All() {
		defaults, _ := rules.CheckOptions(nil)
		tr, _ := rules.TimeFor(usualTable(rules), defaults) // checked by the registry
		v := rulesView{ID: rules.ID, Name: rules.Name, MinPlayers: rules.MinPlayers, MaxPlayers: rules.MaxPlayers,
			Options: rules.Options, Times: rules.Times, DefaultTime: timeRequestOf(tr), Levels: s.levels(rules)}
		if v.Options == nil {
			v.Options = []game.Option{}
		}
		if v.Times == nil {
			v.Times = []game.TimeKind{}
		}
		games = append(games, v)
	}
	writeJSON(w, 200, map[string]any{"games": games})
}

// usualTable is the player count the rules' summary speaks of: two, or
// the fewest the game seats if that is more.
func usualTable(r *game.Rules) int { return min(max(2, r.MinPlayers), r.MaxPlayers) }

// timeRequestOf writes a time rule as a request gives it, nil for none.
func timeRequestOf(t game.TimeRule) *timeRequest {
	if t.Kind == game.NoTime || t.Kind == "" {
		return nil
	}
	return &timeRequest{Kind: string(t.Kind), InitialMS: t.Initial.Milliseconds(), IncrementMS: t.Increment.Milliseconds(),
		TurnMS: t.Turn.Milliseconds(), Carry: t.Carry}
}

// handlePreview sets a game up from a table's choices and shows what they
// give, or says what is wrong with them.
func (s *Server) handlePreview(w http.ResponseWriter, r *http.Request) {
	rules := s.cfg.Games.Lookup(r.PathValue("game"))
	if rules == nil {
		writeError(w, errorf(http.StatusNotFound, "not_found", "no game %q; the games are %s", r.PathValue("game"), strings.Join(s.cfg.Games.IDs(), ", ")), nil)
		return
	}
	var req struct {
		Players int               `json:"players"`
		Options map[string]string `json:"options"`
	}
	if e := s.decodeBody(w, r, &req, true); e != nil {
		writeError(w, e, nil)
		return
	}
	if req.Players == 0 {
		req.Players = rules.MinPlayers
	}
	opts, err := rules.CheckOptions(req.Options)
	if err != nil {
		writeError(w, errorf(400, "bad_request", "%s: %v", rules.Name, err), nil)
		return
	}
	st, err := rules.NewGame(game.Setup{Players: req.Players, Options: opts})
	if err != nil {
		writeError(w, errorf(400, "bad_request", "%v", err), nil)
		return
	}
	head := stateHead{ToMove: st.ToMove(), Over: st.Over(), Standing: makeStanding(st.Standing())}
	state := withField(mustJSON(head), "view", mustJSON(st.View(game.Viewer{Seat: game.NoSeat})))
	house := rules.HouseSeats(game.Setup{Players: req.Players, Options: opts})
	if house == nil {
		house = []game.HouseSeat{}
	}
	tr, err := rules.TimeFor(req.Players, opts)
	if err != nil {
		s.log.Error("a game's default time is refused by its own rules", "game", rules.ID, "err", err)
	}
	writeJSON(w, 200, map[string]any{"options": opts, "house": house, "time": timeRequestOf(tr), "table": st.Table(), "state": json.RawMessage(state)})
}

type seatRequest struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Level string `json:"level"`
}

type createRequest struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Seats   []seatRequest     `json:"seats"`
	Seed    *uint64           `json:"seed"`
	Time    *timeRequest      `json:"time"`
	// TakeBacks allows take-backs; default true.
	TakeBacks *bool `json:"take_backs"`
}

// timeRequest is a time rule as a new game asks for it.
type timeRequest struct {
	Kind        string `json:"kind"`
	InitialMS   int64  `json:"initial_ms"`
	IncrementMS int64  `json:"increment_ms"`
	TurnMS      int64  `json:"turn_ms"`
	Carry       bool   `json:"carry"`
}

func (t *timeRequest) rule() game.TimeRule {
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	return game.TimeRule{Kind: game.TimeKind(t.Kind), Initial: ms(t.InitialMS), Increment: ms(t.IncrementMS), Turn: ms(t.TurnMS), Carry: t.Carry}
}

type seatLink struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
	Link  string `json:"link"`
}

func spectateLink(id string) string { return "/game/" + id }

func seatLinkOf(id string, seat int, token string) seatLink {
	return seatLink{Seat: seat, Token: token, Link: spectateLink(id) + "#seat=" + token}
}

// checkName returns a seat's name cleaned of control characters and of
// the invisible characters that change the direction or shape of the text
// around them (a right-to-left override would turn the names after it
// round on every page that shows them), and trimmed; or an error.
func checkName(name string) (string, *apiError) {
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError || (unicode.Is(unicode.Cf, r) && r != zeroWidthJoiner) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > maxNameRunes {
		return "", errorf(400, "bad_request", "the name %q is longer than %d characters", name, maxNameRunes)
	}
	return name, nil
}

// zeroWidthJoiner is the one format character a name keeps: emoji
// sequences (a family, a flag of a profession) are made with it.
const zeroWidthJoiner = '\u200d'

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if e := s.decodeBody(w, r, &req, false); e != nil {
		writeError(w, e, nil)
		return
	}
	rules := s.cfg.Games.Default()
	if req.Game != "" {
		var err error
		if rules, err = s.cfg.Games.Get(req.Game); err != nil {
			writeError(w, errorf(400, "bad_request", "%v", err), nil)
			return
		}
	}
	n := len(req.Seats)
	if n < rules.MinPlayers || n > rules.MaxPlayers {
		writeError(w, errorf(400, "bad_request", "%d seats; a game of %s has %d to %d", n, rules.Name, rules.MinPlayers, rules.MaxPlayers), nil)
		return
	}
	opts, err := rules.CheckOptions(req.Options)
	if err != nil {
		writeError(w, errorf(400, "bad_request", "%s: %v", rules.Name, err), nil)
		return
	}
	// No time asked for is the game's default for the table (Laguna's
	// sand timer); {"kind": "none"} is none.
	var tr game.TimeRule
	if req.Time == nil {
		tr, err = rules.TimeFor(n, opts)
	} else {
		tr, err = rules.CheckTime(req.Time.rule())
	}
	if err != nil {
		writeError(w, errorf(400, "bad_request", "%v", err), nil)
		return
	}
	botsOnly := !slices.ContainsFunc(req.Seats, func(sr seatRequest) bool { return sr.Kind == kindHuman || sr.Kind == kindOpen })
	if e := s.admitGame(clientAddr(r), botsOnly); e != nil {
		s.metrics.refused.WithLabelValues(e.code).Inc()
		writeError(w, e, nil)
		return
	}
	now := time.Now().UTC()
	sg := &store.Game{
		ID: newGameID(), Created: now, Updated: now, Game: rules.ID, Options: opts, Players: n, Seed: rand.Uint64(),
		Time: storeTime(tr), TakeBacksOff: req.TakeBacks != nil && !*req.TakeBacks,
	}
	if req.Seed != nil {
		sg.Seed, sg.SeedChosen = *req.Seed, true
	}
	first, err := rules.NewGame(game.Setup{Players: n, Options: opts, Seed: sg.Seed})
	if err != nil {
		writeError(w, errorf(400, "bad_request", "%v", err), nil)
		return
	}
	levels := s.levels(rules)
	house := rules.HouseSeats(game.Setup{Players: n, Options: opts, Seed: sg.Seed})
	var links []seatLink
	for i, sr := range req.Seats {
		name, e := checkName(sr.Name)
		if e != nil {
			writeError(w, e, nil)
			return
		}
		seat := store.Seat{Kind: sr.Kind, Name: name}
		if k := slices.IndexFunc(house, func(h game.HouseSeat) bool { return h.Seat == i }); k >= 0 {
			// The rules play it, whatever the request says of it (a form
			// that offers a seat a bot or a person gets the rules' player):
			// named by them and never offered.
			sg.Seats = append(sg.Seats, store.Seat{Kind: kindHouse, Name: house[k].Name, Joined: true})
			continue
		}
		switch sr.Kind {
		case kindHuman, kindOpen:
			if sr.Level != "" {
				writeError(w, errorf(400, "bad_request", "seat %d: only bots have a level", i), nil)
				return
			}
			if seat.Name == "" {
				seat.Name = fmt.Sprintf("Player %d", i+1)
			}
			// An open seat is taken through join, which makes its token;
			// a token made now could never act for it.
			if sr.Kind == kindHuman {
				token := newToken()
				seat.TokenHash = hashToken(token)
				links = append(links, seatLinkOf(sg.ID, i, token))
			}
		case kindBot:
			if !slices.Contains(levels, sr.Level) {
				writeError(w, errorf(400, "bad_request", "seat %d: bot level %q is not one of %s", i, sr.Level, strings.Join(levels, ", ")), nil)
				return
			}
			seat.Level, seat.Joined = sr.Level, true
			if seat.Name == "" {
				seat.Name = "Bot (" + sr.Level + ")"
			}
		case kindHouse:
			writeError(w, errorf(400, "bad_request", "seat %d: the rules play no seat there in this game; a seat is human, open or bot", i), nil)
			return
		default:
			writeError(w, errorf(400, "bad_request", "seat %d: kind %q is not human, open or bot", i, sr.Kind), nil)
			return
		}
		sg.Seats = append(sg.Seats, seat)
	}
	sg.Clocks = initialClocks(sg.Time, first)
	standing := first.Standing()
	sg.Summary = store.Summary{Phase: standing.Phase, ToMove: first.ToMove(), Scores: standing.Scores, Winners: standing.Winners}
	if err := s.store.Create(r.Context(), sg); err != nil {
		s.log.Error("storing a new game", "err", err)
		writeError(w, errorf(500, "internal_error", "the game could not be stored"), nil)
		return
	}
	g, err := s.loadGame(sg)
	if err != nil {
		s.log.Error("a new game", "game", sg.ID, "err", err)
		writeError(w, errorf(500, "internal_error", "the game could not be set up"), nil)
		return
	}
	g.creator, g.botsOnly = clientAddr(r), botsOnly
	s.mu.Lock()
	if s.closing {
		g.closed = true
	}
	s.games[g.id] = g
	s.mu.Unlock()
	g.mu.Lock()
	g.schedule()
	view := g.fullView(-1, -1)
	g.mu.Unlock()
	s.log.Info("game created", "game", g.id, "rules", rules.ID, "players", n, "client", clientAddr(r))
	if links == nil {
		links = []seatLink{}
	}
	writeJSON(w, http.StatusCreated, map[string]any{"id": g.id, "spectate": spectateLink(g.id), "seats": links, "game": view})
}

func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	open, playing := []summaryView{}, []summaryView{}
	for _, g := range s.active() {
		v := *g.summary.Load()
		switch {
		case v.Over:
		case len(v.OpenSeats) > 0:
			open = append(open, v)
		default:
			playing = append(playing, v)
		}
	}
	newest := func(a, b summaryView) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	}
	slices.SortFunc(open, newest)
	slices.SortFunc(playing, newest)
	open, playing = open[:min(len(open), lobbyListSize)], playing[:min(len(playing), lobbyListSize)]
	stored, err := s.store.Finished(r.Context(), lobbyListSize)
	if err != nil {
		s.log.Error("reading finished games", "err", err)
		writeError(w, errorf(500, "internal_error", "the finished games could not be read"), nil)
		return
	}
	finished := []summaryView{}
	for _, sg := range stored {
		v := summaryView{
			ID: sg.ID, Game: sg.Game, GameName: sg.Game, Options: sg.Options, Players: sg.Players, OpenSeats: []int{},
			Version: sg.Version, Phase: sg.Summary.Phase, ToMove: game.NoSeat, Over: true, Scores: sg.Summary.Scores,
			Winners: sg.Summary.Winners, Created: sg.Created, Updated: sg.Updated,
		}
		if rules := s.cfg.Games.Lookup(sg.Game); rules != nil {
			v.GameName = rules.Name
		}
		for i, st := range sg.Seats {
			v.Seats = append(v.Seats, summarySeatView{Seat: i, Name: st.Name, Kind: st.Kind, Level: st.Level, Joined: st.Joined || st.Kind == kindBot})
		}
		finished = append(finished, v)
	}
	writeJSON(w, 200, map[string]any{"open": open, "playing": playing, "finished": finished})
}

// versionParam reads the optional ?at=N; -1 when absent.
func versionParam(r *http.Request, g *match) (int, *apiError) {
	q := r.URL.Query().Get("at")
	if q == "" {
		return -1, nil
	}
	n, err := strconv.Atoi(q)
	if v := int(g.version.Load()); err != nil || n < 0 || n > v {
		return 0, errorf(400, "bad_request", "at=%q is not a version of the game, 0 to %d", q, v)
	}
	return n, nil
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request, g *match) {
	you, e := viewer(r, g)
	if e != nil {
		writeError(w, e, nil)
		return
	}
	at, e := versionParam(r, g)
	if e != nil {
		writeError(w, e, nil)
		return
	}
	g.mu.Lock()
	v := g.fullView(at, you)
	g.mu.Unlock()
	writeJSON(w, 200, v)
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request, g *match) {
	at, e := versionParam(r, g)
	if e != nil {
		writeError(w, e, nil)
		return
	}
	g.mu.Lock()
	if at < 0 {
		at = len(g.moves)
	}
	// A notation that is not public holds what seats may not see (hands,
	// a bag's order, the generator): it is shown once nothing is secret.
	secret := !g.rules.PublicNotation && g.cur.Secret()
	var text string
	if !secret {
		text = g.positionAt(at).String()
	}
	g.mu.Unlock()
	if secret {
		writeError(w, errSeedSecret, nil)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, text+"\n")
}

func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request, g *match) {
	g.mu.Lock()
	secret := g.cur.Secret()
	rec := game.Record{Game: g.rules.ID, Players: g.setup.Players, Options: g.setup.Options, Seed: g.setup.Seed, Moves: make([]string, len(g.moves))}
	for i, mi := range g.moves {
		rec.Moves[i] = mi.text
	}
	g.mu.Unlock()
	if secret {
		writeError(w, errSeedSecret, nil)
		return
	}
	b, err := json.Marshal(rec)
	if err != nil {
		s.log.Error("encoding a record", "game", g.id, "err", err)
		writeError(w, errorf(500, "internal_error", "the record could not be written"), nil)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="lagoon-%s.json"`, g.id))
	w.Write(b)
}

// errSeedSecret withholds what holds the seed while it still decides what
// some seat cannot see.
var errSeedSecret = errorf(http.StatusForbidden, "seed_secret", "the record is withheld while its seed still decides something a seat cannot see, such as a layout or a deck still to come")

type moveBody struct {
	Version *int    `json:"version"`
	Move    *string `json:"move"`
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request, g *match) {
	seat, e := seatFor(r, g)
	if e != nil {
		writeError(w, e, g.currentState(-1))
		return
	}
	var req moveBody
	if e := s.decodeBody(w, r, &req, false); e != nil {
		writeError(w, e, g.currentState(seat))
		return
	}
	if req.Version == nil || req.Move == nil {
		writeError(w, errorf(400, "bad_request", `a move needs "version" and "move"`), g.currentState(seat))
		return
	}
	start := time.Now()
	v, dup, e := g.play(r.Context(), moveRequest{seat: seat, version: *req.Version, text: *req.Move, person: true})
	s.metrics.moves.WithLabelValues("person").Observe(time.Since(start).Seconds())
	if e != nil {
		writeError(w, e, g.currentState(seat))
		return
	}
	writeJSON(w, 200, map[string]any{"version": v, "duplicate": dup, "state": g.currentState(seat)})
}

// currentState encodes the game's current state as seat sees it.
func (g *match) currentState(seat int) json.RawMessage {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stateJSON(seat, time.Now())
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request, g *match) {
	var req struct {
		Seat *int   `json:"seat"`
		Name string `json:"name"`
	}
	if e := s.decodeBody(w, r, &req, true); e != nil {
		writeError(w, e, nil)
		return
	}
	name, e := checkName(req.Name)
	if e != nil {
		writeError(w, e, nil)
		return
	}
	seat, e := viewer(r, g)
	if e != nil {
		writeError(w, e, nil)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		writeError(w, errShuttingDown, nil)
		return
	}
	if seat >= 0 {
		if req.Seat != nil && *req.Seat != seat {
			writeError(w, errorf(403, "bad_token", "the token is seat %d's, not seat %d's", seat, *req.Seat), nil)
			return
		}
		if e := g.join(r.Context(), seat, name); e != nil {
			writeError(w, e, nil)
			return
		}
		writeJSON(w, 200, map[string]any{"seat": seat, "game": g.fullView(-1, seat)})
		return
	}
	if req.Seat == nil || *req.Seat < 0 || *req.Seat >= len(g.seats) {
		writeError(w, errorf(400, "bad_request", "join needs the \"seat\" to take, 0 to %d, or a seat token", len(g.seats)-1), nil)
		return
	}
	seat = *req.Seat
	if g.seats[seat].Kind != kindOpen || g.cur.Over() {
		writeError(w, errorf(409, "seat_taken", "seat %d is not open", seat), nil)
		return
	}
	token := newToken()
	seats := slices.Clone(g.seats)
	seats[seat] = store.Seat{Kind: kindHuman, Name: seats[seat].Name, TokenHash: hashToken(token), Joined: true}
	if name != "" {
		seats[seat].Name = name
	}
	if e := g.setSeats(r.Context(), seats); e != nil {
		writeError(w, e, nil)
		return
	}
	link := seatLinkOf(g.id, seat, token)
	writeJSON(w, 200, map[string]any{"seat": seat, "token": link.Token, "link": link.Link, "game": g.fullView(-1, seat)})
}

func (s *Server) handleLeave(w http.ResponseWriter, r *http.Request, g *match) {
	seat, e := seatFor(r, g)
	if e != nil {
		writeError(w, e, nil)
		return
	}
	var req struct {
		Level string `json:"level"`
	}
	if e := s.decodeBody(w, r, &req, true); e != nil {
		writeError(w, e, nil)
		return
	}
	if req.Level == "" {
		req.Level = s.cfg.StandInLevel
	}
	if levels := s.levels(g.rules); !slices.Contains(levels, req.Level) {
		writeError(w, errorf(400, "bad_request", "bot level %q is not one of %s", req.Level, strings.Join(levels, ", ")), nil)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		writeError(w, errShuttingDown, nil)
		return
	}
	if g.cur.Over() {
		writeError(w, errGameOver, nil)
		return
	}
	if g.seats[seat].Kind != kindHuman {
		writeError(w, errorf(403, "bad_token", "seat %d has been left already", seat), nil)
		return
	}
	seats := slices.Clone(g.seats)
	seats[seat] = store.Seat{Kind: kindBot, Name: seats[seat].Name + " (bot)", Level: req.Level, Joined: true}
	if e := g.setSeats(r.Context(), seats); e != nil {
		writeError(w, e, nil)
		return
	}
	if p := g.pending; p != nil && (p.Seat == seat || slices.Contains(p.Waiting, seat) || slices.Contains(p.Accepted, seat)) {
		g.endTakeBack("left", seat)
	}
	s.log.Info("seat left to a bot", "game", g.id, "seat", seat, "level", req.Level)
	writeJSON(w, 200, g.fullView(-1, -1))
}
