package server

import (
	"bytes"
	"io/fs"
	"net/http"
	"strings"
	"time"
)

// staticPattern routes the web page's files; it never takes an API path.
const staticPattern = "GET /"

// routes is the server's handler: the API's routes (docs/api.md), the
// WebSockets and the web page, behind the checks every request passes
// (guard.go).
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", s.handleHealth)
	mux.HandleFunc("GET /api/rules", s.handleRules)
	mux.HandleFunc("POST /api/rules/{game}/preview", s.handle(s.handlePreview))
	mux.HandleFunc("POST /api/games", s.handle(s.handleCreate))
	mux.HandleFunc("GET /api/me", s.withPlayer(s.handle(s.handleMe)))
	mux.HandleFunc("GET /api/me/games", s.handle(s.handleMyGames))
	mux.HandleFunc("GET /api/me/ws", s.handle(s.handleMyGamesSocket))
	mux.HandleFunc("PUT /api/me/name", s.handle(s.handleName))
	s.passkeyRoutes(mux)
	mux.HandleFunc("POST /api/me/vacation", s.handle(s.handleVacation))
	mux.HandleFunc("DELETE /api/me/vacation", s.handle(s.handleVacation))
	mux.HandleFunc("GET /api/lobby", s.handle(s.handleLobby))
	mux.HandleFunc("GET /api/games/{id}", s.withGame(s.handleGame))
	mux.HandleFunc("GET /api/games/{id}/state", s.withGame(s.handleState))
	mux.HandleFunc("GET /api/games/{id}/record", s.withGame(s.handleRecord))
	mux.HandleFunc("POST /api/games/{id}/moves", s.withGame(s.handleMove))
	mux.HandleFunc("POST /api/games/{id}/join", s.withPlayer(s.withGame(s.handleJoin)))
	mux.HandleFunc("POST /api/games/{id}/leave", s.withGame(s.handleLeave))
	mux.HandleFunc("POST /api/games/{id}/takeback", s.withGame(s.handleTakeBack))
	mux.HandleFunc("POST /api/games/{id}/bots", s.withGame(s.handleBotPace))
	mux.HandleFunc("GET /api/games/{id}/ws", s.handle(s.handleWebSocket))
	if s.cfg.Static != nil {
		mux.Handle(staticPattern, s.staticHandler())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		securityHeaders(w.Header())
		if e := s.checkHost(r); e != nil {
			writeError(w, e)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			if e := s.admit(w, r); e != nil {
				writeError(w, e)
				return
			}
			w.Header().Set("Cache-Control", "no-store")
			r = s.players.Resolve(w, r)
			if _, pattern := mux.Handler(r); pattern == "" || pattern == staticPattern {
				writeError(w, notRouted(mux, w, r))
				return
			}
		}
		mux.ServeHTTP(w, r)
		s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "client", s.clientAddr(r), "took", time.Since(start))
	})
}

// notRouted is the refusal of an API path that no route takes: 405, with
// the methods allowed, if another method would have been taken; 404
// otherwise.
func notRouted(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) *apiError {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut} {
		r2 := r.Clone(r.Context())
		r2.Method = m
		if _, p := mux.Handler(r2); p != "" && p != staticPattern {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		return errorf(http.StatusMethodNotAllowed, "method_not_allowed", "%s is not allowed here; use %s", r.Method, strings.Join(allow, " or "))
	}
	return errorf(http.StatusNotFound, "not_found", "no such path %s", r.URL.Path)
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
