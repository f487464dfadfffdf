package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/cluster"
)

// This file holds the two ends of a game's events between nodes
// (docs/cluster.md): the owner publishes every message it broadcasts, with
// each viewer's version of a move's events, and a node whose WebSocket
// clients watch a game owned elsewhere relays them, through a stand-in
// (remoteGame) that forwards the clients' commands to the owner.

// relayed is the body of a game's event on the relay.
type relayed struct {
	// All are messages for every client of the game.
	All []json.RawMessage `json:"all,omitempty"`
	// By are a move's messages for each viewer ("-1" the spectators'),
	// in a game of private views.
	By map[string][]json.RawMessage `json:"by,omitempty"`
	// Move says the messages are a move's: a client whose welcome
	// brought it to the event's version has them already.
	Move bool `json:"move,omitempty"`
	// Tick is the owner's sign of life, every lease renewal, which shows
	// a watcher a new owner or a lost last event.
	Tick bool `json:"tick,omitempty"`
	// Reconnect asks the clients to reconnect and catch up: what changed
	// (a take-back, an expiry) is not relayed as events.
	Reconnect string `json:"reconnect,omitempty"`
}

var tickBody = mustJSON(relayed{Tick: true})

// publish relays one of the game's events to the nodes watching it; g.mu
// is held, so that events go out in the order the game made them.
func (g *match) publish(version int64, body []byte) {
	n := g.s.node
	if n == nil || g.epoch <= 0 {
		return
	}
	if err := n.conn.Publish(g.id, g.epoch, version, body); err != nil {
		// A watcher sees the gap and catches up.
		g.s.log.Debug("relaying an event", "game", g.id, "err", err)
	}
}

// publishAll relays messages for every client.
func (g *match) publishAll(msgs [][]byte) {
	if g.s.node == nil || g.epoch <= 0 {
		return
	}
	g.publish(int64(len(g.moves)), mustJSON(relayed{All: raw(msgs)}))
}

// publishMove relays the events of the move that made version v, for each
// viewer; byViewer holds those the game's own clients were sent.
func (g *match) publishMove(v int, now time.Time, byViewer map[int][][]byte) {
	if g.s.node == nil || g.epoch <= 0 {
		return
	}
	msgs := func(key int) [][]byte {
		m, ok := byViewer[key]
		if !ok {
			m = g.events(v, g.stateJSON(key, now), g.cur.Over())
		}
		return m
	}
	if !g.rules.PrivateViews {
		g.publish(int64(v), mustJSON(relayed{All: raw(msgs(game.NoSeat)), Move: true}))
		return
	}
	by := make(map[string][]json.RawMessage, g.setup.Players+1)
	for key := game.NoSeat; key < g.setup.Players; key++ {
		by[strconv.Itoa(key)] = raw(msgs(key))
	}
	g.publish(int64(v), mustJSON(relayed{By: by, Move: true}))
}

func raw(msgs [][]byte) []json.RawMessage {
	out := make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		out[i] = m
	}
	return out
}

// forwardedHello greets a client of another node as subscribe greets the
// game's own, without registering it: its node relays the events.
func (g *match) forwardedHello(ctx context.Context, from string, msg json.RawMessage) reply {
	m, err := decodeClientMessage(msg)
	if err != nil || m.Type != "hello" {
		return reply{Refused: &errorMessage{Type: "error", Status: http.StatusBadRequest, Code: "bad_request", Message: "a forwarded hello that is not one"}}
	}
	seat := -1
	if m.Token != "" {
		if seat = g.seatOf(m.Token); seat < 0 {
			return reply{Refused: &errorMessage{Type: "error", Status: http.StatusForbidden, Code: "bad_token", Message: "the token is not a seat of game " + g.id}}
		}
	}
	rp := reply{Seat: seat}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return reply{Refused: &errorMessage{Type: "error", Status: errMoved.status, Code: errMoved.code, Message: errMoved.message}}
	}
	rp.Version = len(g.moves)
	if seat >= 0 {
		if g.connectedAt == nil {
			g.connectedAt = make(map[string][]int)
		}
		if g.connectedAt[from] == nil {
			g.connectedAt[from] = make([]int, len(g.seats))
		}
		g.connectedAt[from][seat]++
	}
	g.greetLocked(ctx, seat, m.Version, m.TakeBacks, func(b []byte) { rp.Msgs = append(rp.Msgs, b) }, nil)
	return rp
}

// remoteLeft counts out a client of seat on node from, which left.
func (g *match) remoteLeft(from string, seat int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if counts := g.connectedAt[from]; seat >= 0 && seat < len(counts) && counts[seat] > 0 {
		counts[seat]--
		if !g.closed {
			g.broadcastSeats(time.Now())
		}
	}
}

// forgetGoneNodes drops the counts of the seats' clients on nodes no longer
// alive, which could not say they left; g.mu is held.
func (g *match) forgetGoneNodes(alive map[string]bool) {
	changed := false
	for node := range g.connectedAt {
		if !alive[node] {
			delete(g.connectedAt, node)
			changed = true
		}
	}
	if changed && !g.closed {
		g.broadcastSeats(time.Now())
	}
}

// remoteGame is a game another node owns, as this node's WebSocket clients
// of it see it: the relay's watcher for them.
type remoteGame struct {
	n     *node
	s     *Server
	id    string
	owner string

	mu   sync.Mutex
	subs map[*wsConn]struct{}
	stop func() // ends the relay's watch
}

// serveRemote serves client c of game id, which node owner holds: the
// game's events are relayed from the owner, its hello and commands
// forwarded there.
func (n *node) serveRemote(c *wsConn, id, owner string, hello clientMessage) {
	rg, err := n.watch(c, id, owner)
	if err != nil {
		c.s.repeats.Warn("watching a game of another node", "game", id, "owner", owner, "err", err)
		c.kill(statusMoved, "the game's node cannot be reached; reconnect")
		return
	}
	c.rg = rg
	defer rg.leave(c)
	rp, err := c.s.forward(c.ctx, id, owner, &command{Op: "hello", Node: n.name, Msg: helloJSON(hello)})
	if err != nil {
		// Gone, moved, or not answering: a reconnection finds the owner
		// the lease names then.
		c.kill(statusMoved, "the game's node does not answer; reconnect")
		return
	}
	if rp.Refused != nil {
		c.queue(outgoing{msg: mustJSON(rp.Refused), closeCode: statusViolation, reason: rp.Refused.Code})
		<-c.ctx.Done()
		return
	}
	// The welcome and the events held for it in one step: an event
	// relayed meanwhile waits, so that the client has them in order.
	rg.mu.Lock()
	c.seat = rp.Seat
	for _, m := range rp.Msgs {
		c.send(m)
	}
	c.welcomed, c.after = true, int64(rp.Version)
	c.last.Store(int64(rp.Version))
	for _, ev := range c.early {
		if body, ok := readRelayed(c, ev); ok {
			rg.deliverLocked(c, ev, body)
		}
	}
	c.early = nil
	rg.mu.Unlock()
	if c.seat >= 0 {
		defer rg.bye(c.seat)
	}
	c.readLoop()
}

// bye tells the owner that a client of seat on this node left, so that
// the seat's count of connections drops; a lost bye is made good when this
// node leaves the cluster (forgetGoneNodes).
func (rg *remoteGame) bye(seat int) {
	rg.mu.Lock()
	owner := rg.owner
	rg.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rg.s.forward(ctx, rg.id, owner, &command{Op: "bye", Node: rg.n.name, Seat: seat})
}

// helloJSON encodes a hello again, to forward it.
func helloJSON(m clientMessage) json.RawMessage {
	h := map[string]any{"type": "hello"}
	if m.Token != "" {
		h["token"] = m.Token
	}
	if m.Version >= 0 {
		h["version"] = m.Version
	}
	if m.TakeBacks > 0 {
		h["take_backs"] = m.TakeBacks
	}
	return mustJSON(h)
}

// watch adds c to the clients of game id that this node relays, watching
// the game's events first if it is the first: the watch is in place
// before the hello is forwarded, so that nothing made after the welcome
// is missed.
func (n *node) watch(c *wsConn, id, owner string) (*remoteGame, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	rg := n.remotes[id]
	if rg == nil {
		rg = &remoteGame{n: n, s: c.s, id: id, owner: owner, subs: make(map[*wsConn]struct{})}
		stop, err := n.conn.Watch(id, rg)
		if err != nil {
			return nil, err
		}
		rg.stop = stop
		n.remotes[id] = rg
	}
	rg.mu.Lock()
	rg.subs[c] = struct{}{}
	rg.mu.Unlock()
	return rg, nil
}

// leave removes c, and stops watching the game with its last client.
func (rg *remoteGame) leave(c *wsConn) {
	rg.n.mu.Lock()
	defer rg.n.mu.Unlock()
	rg.mu.Lock()
	delete(rg.subs, c)
	last := len(rg.subs) == 0
	rg.mu.Unlock()
	if last && rg.n.remotes[rg.id] == rg {
		delete(rg.n.remotes, rg.id)
		rg.stop()
	}
}

// Event hands a relayed event to the clients (cluster.Watcher).
func (rg *remoteGame) Event(ev cluster.Event) {
	var body relayed
	readErr := json.Unmarshal(ev.Body, &body)
	rg.mu.Lock()
	defer rg.mu.Unlock()
	rg.owner = ev.Node
	for c := range rg.subs {
		switch {
		case !c.welcomed:
			c.early = append(c.early, ev)
		case readErr != nil:
			c.kill(statusMoved, "an event could not be read; reconnect")
		default:
			rg.deliverLocked(c, ev, &body)
		}
	}
}

// readRelayed reads an event's body, closing c if it does not read.
func readRelayed(c *wsConn, ev cluster.Event) (*relayed, bool) {
	var body relayed
	if err := json.Unmarshal(ev.Body, &body); err != nil {
		c.kill(statusMoved, "an event could not be read; reconnect")
		return nil, false
	}
	return &body, true
}

// deliverLocked sends c its messages of ev, whose body is read; rg.mu is
// held.
func (rg *remoteGame) deliverLocked(c *wsConn, ev cluster.Event, body *relayed) {
	switch {
	case body.Tick:
		return
	case body.Reconnect != "":
		c.kill(statusMoved, body.Reconnect)
		return
	case body.Move && ev.Version <= c.after:
		return // the welcome had it
	}
	msgs := body.All
	if body.By != nil {
		msgs = body.By[strconv.Itoa(c.seat)]
		if msgs == nil {
			msgs = body.By[strconv.Itoa(game.NoSeat)]
		}
	}
	for _, m := range msgs {
		if !c.send(m) {
			return
		}
	}
	c.last.Store(ev.Version)
}

// Resync closes the clients, which reconnect with their last version and
// catch up from the owner, as after any reconnection (cluster.Watcher).
func (rg *remoteGame) Resync(game string, reason cluster.Reason) {
	rg.s.metrics.resyncs.WithLabelValues(string(reason)).Inc()
	rg.mu.Lock()
	defer rg.mu.Unlock()
	for c := range rg.subs {
		c.kill(statusMoved, "the game's events were interrupted ("+string(reason)+"); reconnect")
	}
}

// resyncRemote closes this node's relayed clients of game id: the game is
// owned here now, and they reconnect to it.
func (n *node) resyncRemote(id, why string) {
	n.mu.Lock()
	rg := n.remotes[id]
	n.mu.Unlock()
	if rg == nil {
		return
	}
	rg.mu.Lock()
	defer rg.mu.Unlock()
	for c := range rg.subs {
		c.kill(statusMoved, why+"; reconnect")
	}
}

// command forwards a client's move or take-back to the owner and sends
// the client its answer.
func (rg *remoteGame) command(c *wsConn, m clientMessage, data []byte) {
	rg.mu.Lock()
	owner := rg.owner
	rg.mu.Unlock()
	// Answered before the next message is read, as the game's own
	// clients' are: a client's commands keep their order.
	rp, err := rg.s.forward(c.ctx, rg.id, owner, &command{Op: "ws", Seat: c.seat, Msg: data})
	if err != nil {
		e := errUnavailable
		c.send(mustJSON(errorMessage{Type: "error", ID: m.ID, Status: e.status, Code: e.code, Message: e.message}))
		if k := cluster.KindOf(err); k != cluster.KindTimeout && k != cluster.KindBusy {
			// The owner moved: a reconnection finds the new one.
			c.kill(statusMoved, "the game's node changed; reconnect")
		}
		return
	}
	for _, msg := range rp.Msgs {
		c.send(msg)
	}
}
