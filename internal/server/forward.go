package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/lagoon-games/lagoon/internal/cluster"
	"github.com/lagoon-games/lagoon/internal/players"
)

// This file holds what goes between a node that got a client's request
// for a game and the game's owner (docs/cluster.md): an HTTP request
// forwarded whole and answered whole, and the WebSocket's hello and
// commands, answered with the messages the owner would have sent its own
// client.

// forwardTimeout bounds a forwarded command: long enough for a move held
// for its hand (hand.go), short enough for a client to try again.
const forwardTimeout = 20 * time.Second

// forwardTries bounds the tries of a forwarded command whose owner moved
// or went, the lease being read again before each.
const forwardTries = 3

// command is a command forwarded to a game's owner.
type command struct {
	Op string `json:"op"` // "http", "hello", "ws" or "bye"
	// Node is the sender, whose clients a seat's count of connections
	// holds (hello, bye).
	Node string `json:"node,omitempty"`
	// HTTP: the request.
	Method      string `json:"method,omitempty"`
	Path        string `json:"path,omitempty"`
	Query       string `json:"query,omitempty"`
	Auth        string `json:"auth,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	Body        []byte `json:"body,omitempty"`
	// Addr is the client's address as the node that took the request
	// read it (clientAddr), not the balancer's in front of that node.
	Addr string `json:"addr,omitempty"`
	// Player is the request's player as the node that took the request
	// resolved it from its cookie (docs/players.md), if it has one.
	Player *players.Player `json:"player,omitempty"`
	// hello and ws: the client's message, and for ws its seat, which the
	// owner's answer to its hello gave.
	Msg  json.RawMessage `json:"msg,omitempty"`
	Seat int             `json:"seat"`
}

// reply is the owner's answer to a command.
type reply struct {
	// HTTP: the answer.
	Status int               `json:"status,omitempty"`
	Header map[string]string `json:"header,omitempty"`
	Body   []byte            `json:"body,omitempty"`
	// hello: the client's seat and the version its welcome brought it
	// to; hello and ws: the messages for the client.
	Seat    int               `json:"seat"`
	Version int               `json:"version"`
	Msgs    []json.RawMessage `json:"msgs,omitempty"`
	// Refused is the refusal of a hello, which closes the connection.
	Refused *errorMessage `json:"refused,omitempty"`
}

// forwardedKey marks the context of a request forwarded from another node:
// it is answered here or refused, never forwarded again.
type forwardedKey struct{}

// forwarded answers a command forwarded by another node for a game this
// node owns (Gate.Handler).
func (s *Server) forwarded(ctx context.Context, id string, body []byte) ([]byte, error) {
	var cmd command
	if err := json.Unmarshal(body, &cmd); err != nil {
		return nil, cluster.Errorf(cluster.KindBadRequest, "a forwarded command: %v", err)
	}
	s.mu.Lock()
	g := s.games[id]
	s.mu.Unlock()
	if g == nil || !g.ownedHere() {
		return nil, cluster.Errorf(cluster.KindNotOwner, "node %s does not own game %s", s.node.name, id)
	}
	switch held, err := s.confirmLease(ctx, g); {
	case err != nil:
		return nil, cluster.Errorf(cluster.KindFailed, "node %s: %v", s.node.name, err)
	case !held:
		return nil, cluster.Errorf(cluster.KindNotOwner, "node %s no longer owns game %s", s.node.name, id)
	}
	var rp reply
	switch cmd.Op {
	case "http":
		rp = s.forwardedHTTP(ctx, &cmd)
	case "hello":
		rp = g.forwardedHello(ctx, cmd.Node, cmd.Msg)
	case "bye":
		g.remoteLeft(cmd.Node, cmd.Seat)
	case "ws":
		m, err := decodeClientMessage(cmd.Msg)
		if err != nil {
			return nil, cluster.Errorf(cluster.KindBadRequest, "a forwarded message: %v", err)
		}
		answered := make(chan []byte, 1)
		g.command(ctx, cmd.Seat, m, func(msg []byte) { answered <- msg })
		select {
		case msg := <-answered:
			rp.Msgs = []json.RawMessage{msg}
		case <-ctx.Done():
			return nil, cluster.Errorf(cluster.KindTimeout, "game %s did not answer in time", id)
		}
	default:
		return nil, cluster.Errorf(cluster.KindBadRequest, "no command %q", cmd.Op)
	}
	return mustJSON(rp), nil
}

// forwardedHTTP serves a forwarded request as this node's own, but for the
// limits on its rate, which the node that took it counted.
func (s *Server) forwardedHTTP(ctx context.Context, cmd *command) reply {
	ctx = context.WithValue(ctx, forwardedKey{}, true)
	ctx = players.WithPlayer(ctx, cmd.Player)
	r, err := http.NewRequestWithContext(ctx, cmd.Method, cmd.Path, bytes.NewReader(cmd.Body))
	if err != nil {
		return reply{Status: http.StatusBadRequest, Body: mustJSON(errorBody{Error: errorDetail{Code: "bad_request", Message: err.Error()}})}
	}
	r.URL.RawQuery = cmd.Query
	r.Host = "localhost"
	r.RemoteAddr = cmd.Addr
	if cmd.Auth != "" {
		r.Header.Set("Authorization", cmd.Auth)
	}
	if cmd.ContentType != "" {
		r.Header.Set("Content-Type", cmd.ContentType)
	}
	rec := &recorder{header: make(http.Header)}
	s.handler.ServeHTTP(rec, r)
	rp := reply{Status: rec.status, Body: rec.body.Bytes(), Header: map[string]string{}}
	for _, k := range []string{"Content-Type", "Content-Disposition", "Allow", "Retry-After"} {
		if v := rec.header.Get(k); v != "" {
			rp.Header[k] = v
		}
	}
	return rp
}

// ownedHere reports whether this node owns g under a lease.
func (g *match) ownedHere() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.closed && g.epoch != 0
}

// isForwarded reports whether r came from another node.
func isForwarded(r *http.Request) bool { return r.Context().Value(forwardedKey{}) != nil }

// recorder is the http.ResponseWriter of a forwarded request.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rc *recorder) Header() http.Header { return rc.header }

func (rc *recorder) WriteHeader(status int) {
	if rc.status == 0 {
		rc.status = status
	}
}

func (rc *recorder) Write(b []byte) (int, error) {
	rc.WriteHeader(http.StatusOK)
	return rc.body.Write(b)
}

// errUnavailable answers a request for a game whose owner does not answer:
// its lease runs out within the lease time, and another node takes it.
var errUnavailable = errorf(http.StatusServiceUnavailable, "unavailable", "the game's node does not answer; try again in a few seconds")

// forward sends cmd for game id to its owner, reading the lease again and
// trying again while the owner moves: owner is the holder first read.
func (s *Server) forward(ctx context.Context, id, owner string, cmd *command) (*reply, error) {
	body := mustJSON(cmd)
	for try := 1; ; try++ {
		ans, err := s.forwardWhileHeld(ctx, id, owner, body)
		if err == nil {
			var rp reply
			if err := json.Unmarshal(ans, &rp); err != nil {
				return nil, cluster.Errorf(cluster.KindBadRequest, "the answer of node %s: %v", owner, err)
			}
			return &rp, nil
		}
		s.metrics.forwardFailed(cluster.KindOf(err))
		switch k := cluster.KindOf(err); {
		case try >= forwardTries || (k != cluster.KindNotOwner && k != cluster.KindOwnerGone):
			return nil, err
		}
		time.Sleep(time.Duration(try) * 100 * time.Millisecond)
		g, merr := s.match(ctx, id)
		var here *errNotHere
		switch {
		case errors.As(merr, &here):
			owner = here.owner
		case merr != nil:
			return nil, merr
		case g != nil:
			// Taken over here: the caller serves it itself.
			return nil, errTakenHere
		}
	}
}

// forwardWhileHeld sends body to owner, the holder of game id's lease,
// and waits for the answer only while owner holds the lease live: once the
// lease expires or moves (the owner died or froze, and its lease ran out)
// it stops waiting and answers not_owner, for forward to send the command
// again to whoever holds the game then, rather than wait out
// forwardTimeout for an owner that will not answer. A command sent again
// may have run on the old owner; a move carries its version, so it is
// answered duplicate or stale_version there, never played twice, and a
// write of the old owner after it lost the lease is refused.
func (s *Server) forwardWhileHeld(ctx context.Context, id, owner string, body []byte) ([]byte, error) {
	fctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		t := time.NewTicker(s.node.ttl / 6)
		defer t.Stop()
		for {
			select {
			case <-fctx.Done():
				return
			case <-t.C:
			}
			holder, _, live, err := s.node.leases.Holder(fctx, id)
			if err == nil && (!live || holder != owner) {
				cancel(errOwnerLost)
				return
			}
		}
	}()
	ans, err := s.node.conn.Forward(fctx, owner, id, body, forwardTimeout)
	if err != nil && errors.Is(context.Cause(fctx), errOwnerLost) {
		return nil, cluster.Errorf(cluster.KindNotOwner, "node %s lost the lease of game %s while it was asked", owner, id)
	}
	return ans, err
}

// errOwnerLost ends the wait for a forwarded command's answer whose
// owner's lease expired or moved meanwhile.
var errOwnerLost = errors.New("the owner's lease expired or moved")

// errTakenHere says a forwarded command's game was taken over by this node
// while it was trying to forward it.
var errTakenHere = errors.New("the game is owned here now")

// forwardHTTP serves a request for a game another node owns by forwarding
// it there.
func (s *Server) forwardHTTP(w http.ResponseWriter, r *http.Request, id, owner string, local gameHandler) error {
	if isForwarded(r) {
		// The lease moved while the request came: its sender tries again.
		return errMoved
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "reading the request: %v", err)
	}
	cmd := &command{Op: "http", Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Auth: r.Header.Get("Authorization"),
		ContentType: r.Header.Get("Content-Type"), Body: body, Addr: s.clientAddr(r)}
	if p, ok := players.FromContext(r.Context()).Player(); ok {
		cmd.Player = &p
	}
	rp, err := s.forward(r.Context(), id, owner, cmd)
	if errors.Is(err, errTakenHere) {
		g, err := s.requestedGame(r)
		if err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		return local(w, r, g)
	}
	if e := (*apiError)(nil); errors.As(err, &e) {
		return e
	}
	if err != nil {
		s.repeats.Warn("forwarding a request", "game", id, "owner", owner, "err", err)
		return errUnavailable
	}
	for k, v := range rp.Header {
		w.Header().Set(k, v)
	}
	if rp.Status == 0 {
		rp.Status = http.StatusOK
	}
	w.WriteHeader(rp.Status)
	w.Write(rp.Body)
	return nil
}
