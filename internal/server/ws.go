package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/lagoon-games/lagoon/internal/cluster"
)

// WebSocket settings; see docs/protocol.md.
const (
	heartbeatEvery  = 15 * time.Second
	pongTimeout     = 15 * time.Second
	writeTimeout    = 10 * time.Second
	queueLength     = 256 // messages waiting for a slow client
	resumeLimit     = 50  // more missed moves than this: a snapshot
	refusalsToClose = 50  // rate-limited messages before the connection is closed
	statusGoingAway = websocket.StatusGoingAway
	statusTooSlow   = websocket.StatusCode(4001)
	statusViolation = websocket.StatusPolicyViolation
	statusNormal    = websocket.StatusNormalClosure
	// statusMoved closes the connections of a game whose owner changed, or
	// whose events a node may have missed: the client reconnects with its
	// last version, as after any close, and catches up (docs/cluster.md).
	statusMoved = websocket.StatusCode(4002)
)

// wsConn is one WebSocket client of a game: a seat's or a spectator's.
type wsConn struct {
	s    *Server
	g    *match
	c    *websocket.Conn
	seat int // -1 for a spectator

	out    chan outgoing
	ctx    context.Context
	cancel context.CancelFunc
	once   sync.Once

	limit    bucket
	refusals int

	// rg is the game's stand-in on this node when another node owns it
	// (remote.go), with g nil; the fields below are its, under rg.mu.
	rg *remoteGame
	// welcomed says the owner's welcome has been sent; until then the
	// relayed events wait in early. after is the version the welcome
	// brought the client to, and last the last version relayed to it.
	welcomed bool
	early    []cluster.Event
	after    int64
	last     atomic.Int64
}

// version is the game's version as the client knows it, for heartbeats.
func (c *wsConn) version() int64 {
	if c.g != nil {
		return c.g.version.Load()
	}
	return c.last.Load()
}

// outgoing is a message queued for the writer. A nonzero closeCode closes
// the connection once the message is written, so that the client reads the
// message before the close frame.
type outgoing struct {
	msg       []byte
	closeCode websocket.StatusCode
	reason    string
}

// send queues a message without blocking. A client whose queue is full is
// too slow: it is closed, and send reports false.
func (c *wsConn) send(msg []byte) bool {
	return c.queue(outgoing{msg: msg})
}

func (c *wsConn) queue(o outgoing) bool {
	select {
	case c.out <- o:
		return true
	default:
		c.kill(statusTooSlow, "too slow; reconnect with your last version")
		return false
	}
}

// kill closes the connection with a status, once; it never blocks. The
// close handshake goes first: cancelling the connection's context would drop
// it without telling the client why.
func (c *wsConn) kill(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		go func() {
			c.c.Close(code, reason)
			c.cancel()
		}()
	})
}

// handleWebSocket serves a game's WebSocket (docs/protocol.md): of a game
// this node has, or, in a cluster, of one another node owns (remote.go). It
// refuses only before the upgrade; after it, the connection's messages say
// what is wrong.
func (s *Server) handleWebSocket(w http.ResponseWriter, r *http.Request) error {
	g, err := s.requestedGame(r)
	here := (*errNotHere)(nil)
	if err != nil && !errors.As(err, &here) {
		return err
	}
	id := r.PathValue("id")
	if !sameOrigin(r) {
		return errorf(http.StatusForbidden, "cross_origin", "WebSocket connections from other sites are not accepted")
	}
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.log.Debug("websocket upgrade refused", "game", id, "err", err)
		return nil
	}
	ws.SetReadLimit(maxMessageBytes)
	c := &wsConn{s: s, g: g, c: ws, seat: -1, out: make(chan outgoing, queueLength)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	if !s.track(c) {
		ws.Close(statusGoingAway, "the server is shutting down")
		return nil
	}
	defer s.untrack(c)
	defer c.kill(statusNormal, "")
	go c.writeLoop()
	go c.pingLoop()

	hello, ok := c.readHello()
	if !ok {
		return nil
	}
	if here != nil {
		s.node.serveRemote(c, id, here.owner, hello)
		return nil
	}
	if hello.Token != "" {
		if c.seat = g.seatOf(hello.Token); c.seat < 0 {
			c.refuse(errorf(http.StatusForbidden, "bad_token", "the token is not a seat of game %s", g.id))
			return nil
		}
	}
	if !g.subscribe(c, hello.Version, hello.TakeBacks) {
		c.kill(statusGoingAway, "the server is shutting down")
		return nil
	}
	defer g.unsubscribe(c)
	c.readLoop()
	return nil
}

// track adds a connection to those that Close closes; it reports false when
// the server is closing.
func (s *Server) track(c *wsConn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.conns[c] = struct{}{}
	s.connsWG.Add(1)
	return true
}

func (s *Server) untrack(c *wsConn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	s.connsWG.Done()
}

// refuse sends an error and then closes the connection: the writer closes
// it once the error is written.
func (c *wsConn) refuse(e *apiError) {
	c.queue(outgoing{msg: mustJSON(errorMessage{Type: "error", Status: e.status, Code: e.code, Message: e.message}),
		closeCode: statusViolation, reason: e.code})
	<-c.ctx.Done()
}

// readHello reads the first message, which must be a hello. A client
// that sends none in time is told so and closed with 1008: the read is not
// given a deadline of its own, since a read whose context ends drops the
// connection without a word.
func (c *wsConn) readHello() (clientMessage, bool) {
	d := c.s.cfg.HelloTimeout
	late := time.AfterFunc(d, func() {
		c.queue(outgoing{msg: mustJSON(errorMessage{Type: "error", Status: http.StatusBadRequest, Code: "bad_request", Message: fmt.Sprintf("no hello within %v", d)}),
			closeCode: statusViolation, reason: "no hello"})
	})
	typ, data, err := c.c.Read(c.ctx)
	if !late.Stop() {
		<-c.ctx.Done()
		return clientMessage{}, false
	}
	if err != nil {
		return clientMessage{}, false
	}
	m, err := decodeClientMessage(data)
	switch {
	case typ != websocket.MessageText:
		c.refuse(errorf(http.StatusBadRequest, "bad_request", "messages are JSON in text frames"))
		return m, false
	case err != nil:
		c.refuse(errorf(http.StatusBadRequest, "bad_request", "%v", err))
		return m, false
	case m.Type != "hello":
		c.refuse(errorf(http.StatusBadRequest, "bad_request", "the first message must be a hello, not a %s", m.Type))
		return m, false
	}
	return m, true
}

// allow takes a token from the connection's message bucket.
func (c *wsConn) allow() bool {
	if c.s.cfg.MessageRate < 0 {
		return true
	}
	ok, _ := c.limit.take(time.Now(), c.s.cfg.MessageRate, float64(c.s.cfg.MessageBurst))
	return ok
}

// readLoop reads the client's messages until it goes. A message is decoded
// before the rate limit is checked so that a refusal carries its id: the
// client can tell which of its messages to send again.
func (c *wsConn) readLoop() {
	for {
		typ, data, err := c.c.Read(c.ctx)
		if err != nil {
			return
		}
		m, err := decodeClientMessage(data)
		if !c.allow() {
			c.refusals++
			if c.refusals >= refusalsToClose {
				c.kill(statusViolation, "too many messages")
				return
			}
			c.send(mustJSON(errorMessage{Type: "error", ID: m.ID, Status: http.StatusTooManyRequests, Code: "rate_limited",
				Message: fmt.Sprintf("too many messages; at most %v a second", c.s.cfg.MessageRate)}))
			continue
		}
		if err == nil && typ != websocket.MessageText {
			err = errors.New("messages are JSON in text frames")
		}
		if err != nil {
			c.send(mustJSON(errorMessage{Type: "error", Status: http.StatusBadRequest, Code: "bad_request", Message: err.Error()}))
			continue
		}
		switch m.Type {
		case "ping":
			c.send(mustJSON(pongMessage{Type: "pong", ID: m.ID}))
		case "hello":
			c.send(mustJSON(errorMessage{Type: "error", ID: m.ID, Status: http.StatusBadRequest, Code: "bad_request", Message: "hello is only the first message"}))
		case "move", "take_back", "take_back_answer":
			if c.rg != nil {
				c.rg.command(c, m, data)
			} else {
				c.g.command(c.ctx, c.seat, m, func(msg []byte) { c.send(msg) })
			}
		}
	}
}

// command runs a seat's move or take-back message and answers it with
// send, once: at once, or when a move held for its hand is made. It runs
// for the game's own clients and for those of other nodes (forward.go).
func (g *match) command(ctx context.Context, seat int, m clientMessage, send func([]byte)) {
	refuse := func(e *apiError) {
		send(mustJSON(errorMessage{Type: "error", ID: m.ID, Status: e.status, Code: e.code, Message: e.message, Refusal: e.refusal,
			State: g.currentState(seat)}))
	}
	if m.Type != "move" {
		var e *apiError
		switch {
		case seat < 0:
			e = errorf(http.StatusUnauthorized, "no_token", "spectators cannot take moves back")
		case m.Type == "take_back":
			_, e = g.askTakeBack(ctx, seat, m.Version)
		default:
			_, e = g.answerTakeBack(ctx, seat, m.Version, m.Accept)
		}
		if e != nil {
			refuse(e)
			return
		}
		send(mustJSON(ackMessage{Type: "ack", ID: m.ID, Version: int(g.version.Load())}))
		return
	}
	if seat < 0 {
		refuse(errorf(http.StatusUnauthorized, "no_token", "spectators cannot move"))
		return
	}
	start := time.Now()
	g.submit(ctx, moveRequest{seat: seat, version: m.Version, text: m.Move, person: true}, func(o moveOutcome) {
		g.s.metrics.moves.WithLabelValues("person").Observe(time.Since(start).Seconds())
		if o.err != nil {
			refuse(o.err)
			return
		}
		send(mustJSON(ackMessage{Type: "ack", ID: m.ID, Version: o.version, Duplicate: o.duplicate}))
	})
}

// writeLoop writes the queued messages and the heartbeats.
func (c *wsConn) writeLoop() {
	heartbeat := time.NewTicker(heartbeatEvery)
	defer heartbeat.Stop()
	for {
		var o outgoing
		select {
		case o = <-c.out:
		case <-heartbeat.C:
			o.msg = mustJSON(heartbeatMessage{Type: "heartbeat", Version: c.version()})
		case <-c.ctx.Done():
			return
		}
		ctx, cancel := context.WithTimeout(c.ctx, writeTimeout)
		err := c.c.Write(ctx, websocket.MessageText, o.msg)
		cancel()
		if err != nil {
			c.kill(statusGoingAway, "write failed")
			return
		}
		if o.closeCode != 0 {
			c.kill(o.closeCode, o.reason)
			return
		}
	}
}

// pingLoop pings the client and closes the connection when it stops
// answering.
func (c *wsConn) pingLoop() {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-c.ctx.Done():
			return
		}
		ctx, cancel := context.WithTimeout(c.ctx, pongTimeout)
		err := c.c.Ping(ctx)
		cancel()
		if err != nil {
			c.kill(statusGoingAway, "no answer to ping")
			return
		}
	}
}

// subscribe adds c to the game's subscribers and brings it up to date from
// version last: the events it missed, or a snapshot. It reports false when
// the game is closed.
func (g *match) subscribe(c *wsConn, last, takeBacks int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	return g.greetLocked(c.ctx, c.seat, last, takeBacks, func(msg []byte) { c.send(msg) }, func() {
		g.subs[c] = struct{}{}
		if c.seat >= 0 {
			g.connected[c.seat]++
		}
	})
}

// greetLocked brings a client of seat up to date from version last, through
// send: the welcome, then the events it missed or a snapshot. register, if
// not nil, makes it one of the game's subscribers, in the step that sends
// its welcome, so that it misses nothing between; a client of another node
// is not registered, its node relaying the game's events. g.mu is held.
func (g *match) greetLocked(ctx context.Context, seat, last, takeBacks int, send func([]byte), register func()) bool {
	now := time.Now()
	if seat >= 0 && !g.cur.Over() {
		if e := g.join(ctx, seat, ""); e != nil {
			return false
		}
	}
	v := len(g.moves)
	w := welcomeMessage{Type: "welcome", Version: v, TakeBacks: g.takeBacks, Resume: "snapshot"}
	if seat >= 0 {
		w.You = &seat
	}
	// A client that has not seen every take-back may have seen moves
	// that are no longer the game's, even at a version it still has.
	resume := last >= 0 && last <= v && v-last <= resumeLimit && takeBacks == g.takeBacks
	if resume {
		w.Resume = "events"
	}
	if register != nil {
		register()
	}
	w.Seats = g.seatViews()
	send(mustJSON(w))
	if resume {
		for _, e := range g.eventsSince(last, seat, now) {
			send(e)
		}
	} else {
		send(mustJSON(snapshotMessage{Type: "snapshot", Game: g.fullView(seat)}))
	}
	if g.pending != nil {
		send(mustJSON(takeBackRequestEvent{Type: "take_back_request", takeBackRequest: g.takeBacksView().Request}))
	}
	// The clocks as they are now: a client that missed no move would
	// otherwise keep counting from what it last heard, across the time the
	// connection or the server was down. A seat's arrival tells everyone.
	if seat >= 0 {
		if register == nil {
			send(g.seatsMessage(now))
		}
		g.broadcastSeats(now)
	} else if g.time != nil {
		send(g.seatsMessage(now))
	}
	return true
}

// unsubscribe removes c from the subscribers.
func (g *match) unsubscribe(c *wsConn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, was := g.subs[c]
	g.drop(c)
	if was && c.seat >= 0 && !g.closed {
		g.broadcastSeats(time.Now())
	}
}
