package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/lagoon-games/lagoon/game"
)

// apiError is a refusal, with the status and code of docs/api.md. A
// refused move or take-back also carries the game's state as the seat sees
// it, so that a client out of step can catch up.
type apiError struct {
	status  int
	code    string
	message string
	// refusal is the rules' refusal of an illegal move: its code and its
	// words for the player, which a page shows without reading message.
	refusal *game.Refusal
	state   json.RawMessage
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func errorf(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

// withState returns e with the game's state. It makes a copy: e may be one
// of the refusals every game shares, such as errShuttingDown.
func (e *apiError) withState(state json.RawMessage) *apiError {
	c := *e
	c.state = state
	return &c
}

// refused is the refusal of an illegal move, with the rules' reason.
func refused(err error) *apiError {
	e := errorf(http.StatusUnprocessableEntity, "illegal_move", "%v", err)
	if r := game.RefusalOf(err); r != nil {
		e.refusal = r
	} else {
		e.refusal = &game.Refusal{Code: game.RefusedNotNow, Reason: err.Error()}
	}
	return e
}

var errShuttingDown = errorf(http.StatusServiceUnavailable, "shutting_down", "the server is shutting down; try again when it is back")

// errorBody is a refusal as the API writes it.
type errorBody struct {
	Error errorDetail     `json:"error"`
	State json.RawMessage `json:"state,omitempty"`
}

type errorDetail struct {
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Refusal *game.Refusal `json:"refusal,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(mustJSON(v))
}

// writeError answers with e and, if it has one, the game's state.
func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.status, errorBody{Error: errorDetail{Code: e.code, Message: e.message, Refusal: e.refusal}, State: e.state})
}

// An apiHandler answers an API request, or returns the refusal that handle
// writes for it.
type apiHandler func(w http.ResponseWriter, r *http.Request) error

// handle makes h an http.HandlerFunc that answers h's refusals. Every
// refusal is an *apiError; any other error is answered as the server's
// failure, and logged.
func (s *Server) handle(h apiHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		err := h(w, r)
		if err == nil {
			return
		}
		var e *apiError
		if !errors.As(err, &e) {
			s.repeats.Error("a request failed", "method", r.Method, "path", r.URL.Path, "err", err)
			e = errorf(http.StatusInternalServerError, "internal_error", "the request failed")
		}
		writeError(w, e)
	}
}
