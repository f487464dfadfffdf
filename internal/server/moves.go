package server

import (
	"encoding/json"
	"net/http"
	"time"
)

type moveBody struct {
	Version *int    `json:"version"`
	Move    *string `json:"move"`
}

// handleMove plays the request's seat's move. A refusal carries the game's
// state, so that a client out of step can catch up.
func (s *Server) handleMove(w http.ResponseWriter, r *http.Request, g *match) error {
	seat, e := seatFor(r, g)
	if e != nil {
		return e.withState(g.currentState(-1))
	}
	var req moveBody
	if e := s.decodeBody(w, r, &req, false); e != nil {
		return e.withState(g.currentState(seat))
	}
	if req.Version == nil || req.Move == nil {
		return errorf(http.StatusBadRequest, "bad_request", `a move needs "version" and "move"`).withState(g.currentState(seat))
	}
	start := time.Now()
	v, dup, e := g.play(r.Context(), moveRequest{seat: seat, version: *req.Version, text: *req.Move, person: true})
	s.metrics.moves.WithLabelValues("person").Observe(time.Since(start).Seconds())
	if e != nil {
		return e.withState(g.currentState(seat))
	}
	writeJSON(w, http.StatusOK, map[string]any{"version": v, "duplicate": dup, "state": g.currentState(seat)})
	return nil
}

// currentState encodes the game's current state as seat sees it.
func (g *match) currentState(seat int) json.RawMessage {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stateJSON(seat, time.Now())
}
