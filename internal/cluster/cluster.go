// Package cluster is the layer between the nodes of a Lagoon cluster, over
// NATS: commands forwarded to a game's owner by request/reply, a game's
// events relayed from its owner to the nodes whose clients watch it (with
// gaps and reconnections reported so that those clients resync), and the
// nodes' presence and counts, which the limits of the whole cluster add up.
//
// It names no game and decides no ownership: who owns a game is the lease
// in the store of record (PostgreSQL), and this package only carries what
// the owner and the other nodes say to each other. docs/cluster.md has the
// design and the reasons behind it.
package cluster

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Options are a node's settings; the zero value of each field but Handler
// is a working default.
type Options struct {
	// Prefix begins every subject the node uses ("lagoon" when empty), so
	// that several clusters, or tests run at once, share one NATS server
	// without hearing each other.
	Prefix string
	// Handler answers the commands other nodes forward to this one. Nil
	// answers every command with KindNotOwner.
	Handler Handler
	// Counts returns the node's own counts (games in progress, games per
	// address...) under keys the caller chooses; they go out with every
	// heartbeat and the other nodes add them up (Others). Nil sends none.
	// It is called from several goroutines, one at a time or not.
	Counts func() map[string]int
	// Heartbeat is how often the node says it is alive and sends its
	// counts (1 s when zero). A node not heard for three heartbeats is
	// taken for gone.
	Heartbeat time.Duration
	// MaxPending bounds the forwarded commands waiting or running on this
	// node (1024 when zero); over it a command is answered KindBusy.
	MaxPending int
	// ConnectTimeout bounds the first connection (2 s when zero): an
	// address that does not answer is an error at once, not a retry.
	ConnectTimeout time.Duration
	// ReconnectWait is the pause between attempts to reconnect after the
	// connection is lost (250 ms when zero, with jitter); the node tries
	// for as long as it is open.
	ReconnectWait time.Duration
	// OnDisconnect and OnReconnect are told when the connection to NATS is
	// lost and when it is back: the node's subscriptions are in place again
	// and every watcher was told to resync.
	OnDisconnect func(error)
	OnReconnect  func()
	// Log receives what the node has to say (slog.Default() when nil).
	Log *slog.Logger
	// Owner reads from the store of record which node owns a game and
	// under which lease epoch. A watching node hands its watchers a
	// game's event only from that node under that epoch, since anyone
	// who can publish on NATS could send one in the owner's name; what
	// it says is kept for each game watched, and read again only for an
	// event claiming a newer epoch (a new owner). Nil accepts every
	// event of the game: for those, like this package's tests, who play
	// the owners themselves. It is called from several goroutines.
	Owner func(ctx context.Context, game string) (node string, epoch int64, err error)
	// Credentials prove the node to NATS and check NATS's certificate
	// (none when zero).
	Credentials Credentials
}

// Conn is a node's connection to the cluster. Its methods are safe for
// concurrent use.
type Conn struct {
	node   string
	prefix string
	opts   Options
	nc     *nats.Conn
	log    *slog.Logger
	closed chan struct{} // closed when the NATS connection is closed

	cmds *commands
	rel  *relay
	pres *presence

	closeOnce sync.Once
	closeErr  error
}

// tokenRE is what a node's name, a game's id or a part of the prefix may
// be: one token of a NATS subject, without the characters that mean
// something in a subject ('.', '*', '>') or in a log.
var tokenRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func checkToken(what, s string) error {
	if !tokenRE.MatchString(s) {
		return fmt.Errorf("cluster: %s %q is not 1 to 64 letters, digits, '-' or '_'", what, s)
	}
	return nil
}

// Connect joins the cluster through the NATS server at addr as the node
// named node. An address that does not answer is an error at once; once
// connected, the node reconnects by itself for as long as it is open,
// telling its watchers to resync when it is back. A node of the same name
// already answering in the cluster is an error too: commands for its games
// would reach one of the two at random.
func Connect(addr, node string, opts Options) (*Conn, error) {
	if err := checkToken("node name", node); err != nil {
		return nil, err
	}
	if opts.Prefix == "" {
		opts.Prefix = "lagoon"
	}
	for _, part := range strings.Split(opts.Prefix, ".") {
		if err := checkToken("subject prefix part", part); err != nil {
			return nil, err
		}
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = time.Second
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = 1024
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = 2 * time.Second
	}
	if opts.ReconnectWait <= 0 {
		opts.ReconnectWait = 250 * time.Millisecond
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	secure, err := opts.Credentials.natsOptions(addr)
	if err != nil {
		return nil, err
	}
	c := &Conn{node: node, prefix: opts.Prefix, opts: opts, log: opts.Log.With("node", node), closed: make(chan struct{})}
	c.rel = newRelay(c)
	nc, err := nats.Connect(addr, append(secure,
		nats.Name("lagoon "+node),
		nats.Timeout(opts.ConnectTimeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(opts.ReconnectWait),
		nats.ReconnectJitter(opts.ReconnectWait/2, opts.ReconnectWait),
		// No buffer while disconnected: a command or an event either goes
		// out now or fails now, so that nothing stale is sent after a
		// reconnection and a caller never waits on a message that sits in
		// a buffer (the watchers resync instead).
		nats.ReconnectBufSize(-1),
		nats.DisconnectErrHandler(c.disconnected),
		nats.ReconnectHandler(c.reconnected),
		nats.ClosedHandler(func(*nats.Conn) { close(c.closed) }),
		nats.ErrorHandler(c.asyncError),
	)...)
	switch {
	case errors.Is(err, nats.ErrAuthorization), errors.Is(err, nats.ErrAuthExpired), errors.Is(err, nats.ErrAuthRevoked):
		return nil, fmt.Errorf("cluster: NATS at %s refused the node's credentials: %w", redact(addr), err)
	case errors.Is(err, nats.ErrSecureConnWanted):
		return nil, fmt.Errorf("cluster: NATS at %s does not speak TLS, which the node's CA or certificate asks for: %w", redact(addr), err)
	case errors.Is(err, nats.ErrSecureConnRequired):
		return nil, fmt.Errorf("cluster: NATS at %s asks for TLS: give the node the CA that signs its certificate: %w", redact(addr), err)
	case errors.As(err, new(*tls.CertificateVerificationError)):
		return nil, fmt.Errorf("cluster: NATS at %s shows a TLS certificate that the node's CA does not sign: %w", redact(addr), err)
	case errors.Is(err, nats.ErrTLS) || tlsRefused(err):
		// Under TLS 1.3 a server that refuses the client's certificate
		// may just close the connection after the handshake, which
		// nats.go reports as a TLS error of its own.
		return nil, fmt.Errorf("cluster: NATS at %s refused the node's TLS certificate (none, or not signed by a CA it trusts): %w", redact(addr), err)
	case errors.Is(err, nats.ErrNoServers):
		return nil, fmt.Errorf("cluster: NATS at %s does not answer: %w", redact(addr), err)
	case err != nil:
		return nil, fmt.Errorf("cluster: cannot connect to NATS at %s: %w", redact(addr), err)
	}
	c.nc = nc
	if err := c.start(); err != nil {
		nc.Close()
		return nil, err
	}
	return c, nil
}

// start checks that the name is free and subscribes to what a node hears.
func (c *Conn) start() error {
	if err := c.checkNameFree(); err != nil {
		return err
	}
	var err error
	if c.cmds, err = newCommands(c); err != nil {
		return err
	}
	if c.pres, err = newPresence(c); err != nil {
		return err
	}
	// A flush makes sure the server has the subscriptions before the
	// node says it is here.
	if err := c.nc.Flush(); err != nil {
		return fmt.Errorf("cluster: subscribing on NATS: %w", err)
	}
	c.pres.run()
	return nil
}

// Node returns the node's name.
func (c *Conn) Node() string { return c.node }

// Connected reports whether the node is connected to NATS now.
func (c *Conn) Connected() bool { return c.nc.IsConnected() }

// Close leaves the cluster: it stops taking commands, waits for those
// under way to be answered, says goodbye to the other nodes (who then stop
// counting this node at once) and drains the connection, so that every
// reply and event already handed to it is sent.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		if !c.nc.IsConnected() {
			// NATS is away: there is nobody to answer or say goodbye
			// to, and nothing sent now would arrive.
			c.pres.halt()
			c.nc.Close()
			<-c.closed
			c.cmds.wg.Wait()
			return
		}
		c.cmds.stop()
		c.pres.stop()
		if err := c.nc.Drain(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			c.closeErr = fmt.Errorf("cluster: draining the NATS connection: %w", err)
			c.nc.Close()
		}
		<-c.closed
	})
	return c.closeErr
}

func (c *Conn) disconnected(_ *nats.Conn, err error) {
	c.log.Warn("cluster: lost the connection to NATS; reconnecting", "err", err)
	if c.opts.OnDisconnect != nil {
		c.opts.OnDisconnect(err)
	}
}

func (c *Conn) reconnected(nc *nats.Conn) {
	c.log.Info("cluster: reconnected to NATS", "server", redact(nc.ConnectedUrl()))
	// nats.go sends the subscriptions again before it calls this, but
	// they may still be on their way: after a round trip the server has
	// them, so that once told, the server forwards to this node and
	// relays to its watchers without a gap.
	if err := nc.FlushTimeout(c.opts.ConnectTimeout); err != nil {
		c.log.Warn("cluster: the subscriptions after reconnecting are not confirmed", "err", err)
	}
	// Whatever was published while the node was away is lost to it: every
	// game it watches resyncs.
	c.rel.resyncAll(ReasonReconnect)
	c.pres.beat()
	if c.opts.OnReconnect != nil {
		c.opts.OnReconnect()
	}
}

func (c *Conn) asyncError(_ *nats.Conn, sub *nats.Subscription, err error) {
	if sub != nil && errors.Is(err, nats.ErrSlowConsumer) {
		// NATS dropped messages for a subscriber that did not keep up: if
		// it is a game's events, its watchers must resync now, since no
		// later event may come to show the gap.
		if c.rel.slow(sub) {
			return
		}
	}
	c.log.Warn("cluster: NATS error", "err", err)
}

// subject joins the prefix and the parts into a subject.
func (c *Conn) subject(parts ...string) string {
	return c.prefix + "." + strings.Join(parts, ".")
}

// tlsRefused reports whether err is the other side's TLS alert in the
// handshake: a NATS server that wants a client certificate it did not get
// or does not trust says so in one.
func tlsRefused(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "remote error"
}

// redact leaves passwords and tokens out of an address for messages.
func redact(addr string) string {
	var out []string
	for _, a := range strings.Split(addr, ",") {
		if u, err := url.Parse(strings.TrimSpace(a)); err == nil && u.User != nil {
			// A user without a password is a token: hide it whole.
			if _, ok := u.User.Password(); !ok {
				u.User = url.User("xxxxx")
			}
			a = u.Redacted()
		}
		out = append(out, a)
	}
	return strings.Join(out, ",")
}
