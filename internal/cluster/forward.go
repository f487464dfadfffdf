package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Commands go to a node, not to a game: each node answers on one subject,
// <prefix>.node.<name>.cmd, and the sender names the owner it read from the
// lease. A subject per game would have the owner subscribe and unsubscribe
// as leases come and go, and during a handover both nodes could be
// subscribed and answer; a node's subject has one subscriber, and when it
// has none NATS says so at once (no responders), which is how a sender
// learns that the owner is gone. The owner still checks that it owns the
// game (KindNotOwner when not), since the lease may have moved since the
// sender read it.

// Handler answers a command forwarded to this node for a game: body in,
// body out. It returns an *Error (see Errorf) to give the sender a kind,
// KindNotOwner above all when the node does not own the game (any other
// error is KindFailed). A game's commands reach the handler one at a time,
// in the order they arrived; different games' run at once. ctx ends when
// the sender stops waiting.
type Handler func(ctx context.Context, game string, body []byte) ([]byte, error)

// Kind says why a forwarded command got no answer from the owner's handler.
type Kind string

const (
	// KindNotOwner: the node asked does not own the game (any more).
	// Re-read the lease and forward again, or take the game over.
	KindNotOwner Kind = "not_owner"
	// KindOwnerGone: no node of that name is connected to the cluster.
	// The command was not run; re-read the lease, and take the game over
	// once the lease has expired.
	KindOwnerGone Kind = "owner_gone"
	// KindTimeout: no answer in time. The owner may or may not have run
	// the command (it may be frozen, or slow): send it again with the same
	// version, which the game's versions make harmless, or resync.
	KindTimeout Kind = "timeout"
	// KindBusy: the owner has too many commands waiting; it ran nothing.
	KindBusy Kind = "busy"
	// KindUnavailable: this node is not connected to NATS now; nothing
	// was sent.
	KindUnavailable Kind = "unavailable"
	// KindBadRequest: the command or its answer could not be read (not
	// JSON, or a version of the messages this node does not speak).
	KindBadRequest Kind = "bad_request"
	// KindFailed: the handler failed; the message says why.
	KindFailed Kind = "failed"
)

// Error is a forwarded command's failure, with its kind.
type Error struct {
	Kind    Kind
	Message string
}

func (e *Error) Error() string { return "cluster: " + string(e.Kind) + ": " + e.Message }

// Errorf makes an *Error of kind k.
func Errorf(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Message: fmt.Sprintf(format, args...)}
}

// KindOf returns the kind of a forwarded command's error: "" for nil,
// KindFailed for an error that is no *Error.
func KindOf(err error) Kind {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindFailed
}

// wireVersion is the version of every message body this package sends. It
// grows only when a change is one an older node cannot read; such a node
// answers a newer command with KindBadRequest, which names both versions.
const wireVersion = 1

// command is a forwarded command on the wire.
type command struct {
	V         int             `json:"v"`
	Game      string          `json:"game"`
	From      string          `json:"from"`
	TimeoutMS int64           `json:"timeout_ms"`
	Body      json.RawMessage `json:"body,omitempty"`
	Ping      bool            `json:"ping,omitempty"` // is a node of this name here?
}

// answer is a command's answer on the wire.
type answer struct {
	V       int             `json:"v"`
	Kind    Kind            `json:"kind,omitempty"`
	Message string          `json:"message,omitempty"`
	Body    json.RawMessage `json:"body,omitempty"`
}

// Forward sends a command for game to node, its owner, and returns the
// owner's answer. The body must be JSON. The command is given until ctx's
// deadline, or timeout when ctx has none (5 s when timeout is zero too).
// Its error is an *Error; KindOf says what to do next.
func (c *Conn) Forward(ctx context.Context, node, game string, body []byte, timeout time.Duration) ([]byte, error) {
	if err := checkToken("node name", node); err != nil {
		return nil, Errorf(KindBadRequest, "%v", err)
	}
	if err := checkToken("game id", game); err != nil {
		return nil, Errorf(KindBadRequest, "%v", err)
	}
	if !json.Valid(body) {
		return nil, Errorf(KindBadRequest, "the body of a command for game %s is not JSON", game)
	}
	if _, ok := ctx.Deadline(); !ok {
		if timeout <= 0 {
			timeout = 5 * time.Second
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()
	cmd := command{V: wireVersion, Game: game, From: c.node, TimeoutMS: time.Until(deadline).Milliseconds(), Body: body}
	return c.request(ctx, node, cmd)
}

// request sends cmd to node and reads its answer.
func (c *Conn) request(ctx context.Context, node string, cmd command) ([]byte, error) {
	if !c.nc.IsConnected() {
		return nil, Errorf(KindUnavailable, "node %s is not connected to NATS; command for game %s not sent", c.node, cmd.Game)
	}
	data, err := json.Marshal(cmd)
	if err != nil {
		return nil, Errorf(KindBadRequest, "encoding a command for game %s: %v", cmd.Game, err)
	}
	msg, err := c.nc.RequestWithContext(ctx, c.subject("node", node, "cmd"), data)
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return nil, Errorf(KindOwnerGone, "node %s is not in the cluster (game %s)", node, cmd.Game)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout):
		return nil, Errorf(KindTimeout, "node %s did not answer a command for game %s in time", node, cmd.Game)
	case errors.Is(err, nats.ErrConnectionClosed), errors.Is(err, nats.ErrConnectionDraining), errors.Is(err, nats.ErrConnectionReconnecting):
		return nil, Errorf(KindUnavailable, "command for game %s to node %s: %v", cmd.Game, node, err)
	case err != nil:
		return nil, Errorf(KindFailed, "command for game %s to node %s: %v", cmd.Game, node, err)
	}
	var a answer
	if err := json.Unmarshal(msg.Data, &a); err != nil {
		return nil, Errorf(KindBadRequest, "node %s answered a command for game %s with something unreadable: %v", node, cmd.Game, err)
	}
	if a.V != wireVersion {
		return nil, Errorf(KindBadRequest, "node %s answered in message version %d; this node speaks %d", node, a.V, wireVersion)
	}
	if a.Kind != "" {
		return nil, &Error{Kind: a.Kind, Message: a.Message}
	}
	return a.Body, nil
}

// checkNameFree asks whether a node of this name already answers.
func (c *Conn) checkNameFree() error {
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.ConnectTimeout)
	defer cancel()
	_, err := c.request(ctx, c.node, command{V: wireVersion, Game: "-", From: c.node, Ping: true})
	switch KindOf(err) {
	case KindOwnerGone:
		return nil
	case "":
		return fmt.Errorf("cluster: a node named %s is already in the cluster (prefix %s)", c.node, c.prefix)
	default:
		return fmt.Errorf("cluster: checking that the node name %s is free: %w", c.node, err)
	}
}

// commands runs the commands forwarded to this node: a game's in the order
// they came, one at a time (the game's lock would order them anyway, and
// the order a client sent them in is kept), different games' at once.
type commands struct {
	c   *Conn
	sub *nats.Subscription

	mu      sync.Mutex
	queues  map[string][]func() // a game's commands waiting; present while one runs
	pending int
	wg      sync.WaitGroup
}

func newCommands(c *Conn) (*commands, error) {
	cs := &commands{c: c, queues: make(map[string][]func())}
	sub, err := c.nc.Subscribe(c.subject("node", c.node, "cmd"), cs.receive)
	if err != nil {
		return nil, fmt.Errorf("cluster: subscribing to commands: %w", err)
	}
	cs.sub = sub
	return cs, nil
}

// receive reads a command and queues it behind its game's.
func (cs *commands) receive(msg *nats.Msg) {
	arrived := time.Now()
	var cmd command
	if err := json.Unmarshal(msg.Data, &cmd); err != nil {
		cs.reply(msg, answer{Kind: KindBadRequest, Message: fmt.Sprintf("node %s cannot read the command: %v", cs.c.node, err)})
		return
	}
	if cmd.V != wireVersion {
		cs.reply(msg, answer{Kind: KindBadRequest, Message: fmt.Sprintf("node %s speaks message version %d, not %d", cs.c.node, wireVersion, cmd.V)})
		return
	}
	if cmd.Ping {
		cs.reply(msg, answer{})
		return
	}
	if err := checkToken("game id", cmd.Game); err != nil {
		cs.reply(msg, answer{Kind: KindBadRequest, Message: err.Error()})
		return
	}
	run := func() { cs.run(msg, cmd, arrived) }
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.pending >= cs.c.opts.MaxPending {
		cs.reply(msg, answer{Kind: KindBusy, Message: fmt.Sprintf("node %s has %d commands waiting", cs.c.node, cs.pending)})
		return
	}
	cs.pending++
	q, running := cs.queues[cmd.Game]
	cs.queues[cmd.Game] = append(q, run)
	if !running {
		cs.wg.Add(1)
		go cs.drain(cmd.Game)
	}
}

// drain runs a game's commands until none waits.
func (cs *commands) drain(game string) {
	defer cs.wg.Done()
	for {
		cs.mu.Lock()
		q := cs.queues[game]
		if len(q) == 0 {
			delete(cs.queues, game)
			cs.mu.Unlock()
			return
		}
		run := q[0]
		cs.queues[game] = q[1:]
		cs.mu.Unlock()
		run()
		cs.mu.Lock()
		cs.pending--
		cs.mu.Unlock()
	}
}

// run hands a command to the handler and answers with what it says. A
// command whose sender stopped waiting before its turn came is not run.
func (cs *commands) run(msg *nats.Msg, cmd command, arrived time.Time) {
	ctx, cancel := context.WithDeadline(context.Background(), arrived.Add(time.Duration(cmd.TimeoutMS)*time.Millisecond))
	defer cancel()
	if ctx.Err() != nil {
		return
	}
	h := cs.c.opts.Handler
	if h == nil {
		cs.reply(msg, answer{Kind: KindNotOwner, Message: fmt.Sprintf("node %s owns no games", cs.c.node)})
		return
	}
	body, err := cs.call(ctx, h, cmd.Game, cmd.Body)
	switch {
	case err != nil && KindOf(err) == KindFailed && ctx.Err() != nil:
		// The handler gave up because the sender's time ran out: to the
		// sender, that is no answer in time, whoever noticed first.
		cs.reply(msg, answer{Kind: KindTimeout, Message: fmt.Sprintf("node %s ran out of time for a command for game %s: %v", cs.c.node, cmd.Game, err)})
	case err != nil:
		cs.reply(msg, answer{Kind: KindOf(err), Message: errMessage(err)})
	case !json.Valid(body):
		cs.reply(msg, answer{Kind: KindFailed, Message: fmt.Sprintf("node %s's answer for game %s is not JSON", cs.c.node, cmd.Game)})
	default:
		cs.reply(msg, answer{Body: body})
	}
}

// call runs the handler, turning a panic into a failure: a command from
// another node must not bring this one down, with every game it owns.
func (cs *commands) call(ctx context.Context, h Handler, game string, body []byte) (_ []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			cs.c.log.Error("cluster: the handler panicked", "game", game, "panic", p, "stack", string(debug.Stack()))
			err = Errorf(KindFailed, "node %s failed on a command for game %s: %v", cs.c.node, game, p)
		}
	}()
	return h(ctx, game, body)
}

func errMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

func (cs *commands) reply(msg *nats.Msg, a answer) {
	a.V = wireVersion
	data, err := json.Marshal(a)
	if err == nil {
		err = msg.Respond(data)
	}
	if err != nil {
		cs.c.log.Warn("cluster: answering a command", "err", err)
	}
}

// stop takes no more commands and waits until those that came are
// answered: a drain hands the ones NATS delivered to receive first.
func (cs *commands) stop() {
	closed := cs.sub.StatusChanged(nats.SubscriptionClosed)
	if err := cs.sub.Drain(); err != nil {
		cs.c.log.Warn("cluster: draining the commands' subscription", "err", err)
	} else {
		select {
		case <-closed:
		case <-time.After(drainWait):
			cs.c.log.Warn("cluster: the commands' subscription did not drain", "after", drainWait)
		}
	}
	cs.wg.Wait()
}

// drainWait bounds the wait for a subscription to drain when the node
// closes, as nats.go bounds a connection's (its DrainTimeout).
const drainWait = 30 * time.Second
