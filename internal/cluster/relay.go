package cluster

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// A game's owner publishes its events on <prefix>.game.<id>.ev; the nodes
// whose clients watch the game subscribe there while they do. The game's
// versions cannot show a lost message by themselves (a move, its game_over
// and a change of seats share a version, and a take-back lowers it), so the
// relay numbers the messages of each stream: one stream per owner and
// epoch, Seq 1, 2, 3... A watcher that sees a number skipped, a new stream,
// a reconnection or NATS dropping messages for it is told to resync, as a
// client is after a reconnect; the event that showed the gap is delivered
// after that, and the game's versions let the server drop what the resync
// already gave it.

// Reason says why watchers must resync a game.
type Reason string

const (
	// ReasonGap: an event of the game was lost on the way.
	ReasonGap Reason = "gap"
	// ReasonNewStream: the events now come from another owner, or from
	// the same one under a new lease; what the old one sent last may be
	// lost.
	ReasonNewStream Reason = "new_stream"
	// ReasonReconnect: this node was away from NATS and missed whatever
	// was published meanwhile.
	ReasonReconnect Reason = "reconnect"
	// ReasonSlow: NATS dropped events this node did not take in time.
	ReasonSlow Reason = "slow"
	// ReasonBadMessage: an event could not be read (it came from a node
	// of another message version).
	ReasonBadMessage Reason = "bad_message"
	// ReasonUnchecked: who sent an event could not be checked against
	// the store (Options.Owner failed), so it was not given.
	ReasonUnchecked Reason = "unchecked"
)

// ownerTimeout bounds a read of a game's owner for an event to be checked
// by: the game's events wait meanwhile.
const ownerTimeout = 2 * time.Second

// Event is one of a game's events as its owner published it.
type Event struct {
	Game    string
	Node    string // the owner that published it
	Epoch   int64  // the owner's lease epoch
	Seq     uint64 // the relay's number, 1 for a stream's first
	Version int64  // the game's version the event carries
	Body    json.RawMessage
}

// Watcher takes a game's events on a node that does not own it. Its
// methods are called one at a time for a game, in order, and must not
// block (hand the event to the clients' queues, drop a client too slow);
// they may stop their own watch.
type Watcher interface {
	Event(Event)
	// Resync says events may have been lost: the watcher's clients must
	// catch up from the owner (or the store) as after a reconnection.
	Resync(game string, reason Reason)
}

// eventMsg is an event on the wire.
type eventMsg struct {
	V       int             `json:"v"`
	Game    string          `json:"game"`
	Node    string          `json:"node"`
	Stream  string          `json:"stream"`
	Epoch   int64           `json:"epoch"`
	Seq     uint64          `json:"seq"`
	Version int64           `json:"version"`
	Body    json.RawMessage `json:"body"`
}

type relay struct {
	c *Conn

	pubMu sync.Mutex // held from numbering an event to handing it to NATS, so that numbers go out in order
	pubs  map[string]*stream

	mu      sync.Mutex
	watches map[string]*watch
	bySub   map[*nats.Subscription]*watch

	refused atomic.Uint64 // events refused: not from their game's owner under its epoch
}

// stream is what the owner numbers a game's events by.
type stream struct {
	id    string
	epoch int64
	seq   uint64
}

func newRelay(c *Conn) *relay {
	return &relay{c: c, pubs: make(map[string]*stream), watches: make(map[string]*watch), bySub: make(map[*nats.Subscription]*watch)}
}

// Publish sends one of game's events, which made or carries the game's
// version, to the nodes watching it. epoch is the lease's epoch under
// which this node owns the game: a new epoch starts a new stream, and an
// older one than the node published under is refused (the lease has moved
// on). Publish does not wait for the event to reach anyone; an event that
// could not go out shows as a gap to the watchers, who resync.
func (c *Conn) Publish(game string, epoch, version int64, body []byte) error {
	if err := checkToken("game id", game); err != nil {
		return err
	}
	if !json.Valid(body) {
		return fmt.Errorf("cluster: an event of game %s is not JSON", game)
	}
	r := c.rel
	r.pubMu.Lock()
	defer r.pubMu.Unlock()
	s := r.pubs[game]
	switch {
	case s != nil && epoch < s.epoch:
		return fmt.Errorf("cluster: event of game %s under epoch %d, after epoch %d", game, epoch, s.epoch)
	case s == nil || epoch > s.epoch:
		s = &stream{id: rand.Text()[:16], epoch: epoch}
		r.pubs[game] = s
	}
	s.seq++
	data, err := json.Marshal(eventMsg{V: wireVersion, Game: game, Node: c.node, Stream: s.id, Epoch: epoch, Seq: s.seq, Version: version, Body: body})
	if err != nil {
		return fmt.Errorf("cluster: encoding an event of game %s: %w", game, err)
	}
	if err := c.nc.Publish(c.subject("game", game, "ev"), data); err != nil {
		return fmt.Errorf("cluster: publishing event %d of game %s: %w", s.seq, game, err)
	}
	return nil
}

// Forget drops what the node keeps to number game's events: call it when
// the node stops owning the game. Should it publish the game's events
// again, they start a new stream, and watchers resync.
func (c *Conn) Forget(game string) {
	c.rel.pubMu.Lock()
	defer c.rel.pubMu.Unlock()
	delete(c.rel.pubs, game)
}

// watch is one game's subscription, shared by its watchers on this node.
type watch struct {
	game     string
	sub      *nats.Subscription
	watchers atomic.Pointer[[]*watcherRef] // replaced, never changed, under relay.mu

	// mu orders the calls to the watchers and guards where the stream is.
	mu     sync.Mutex
	have   bool // false until the first event, and again after a resync
	stream string
	epoch  int64
	seq    uint64

	// What Options.Owner last said of the game (known false until it
	// was asked): touched by receive alone, which NATS calls with one
	// message of a subscription at a time.
	known      bool
	owner      string
	ownerEpoch int64
}

type watcherRef struct{ w Watcher }

// Watch hands game's events to w until stop is called. The node subscribes
// to the game with its first watcher and unsubscribes after its last; Watch
// returns once NATS has the subscription, so an event published after it
// returns reaches w: subscribe first, then read the game's state, and drop
// the events whose versions that state has.
func (c *Conn) Watch(game string, w Watcher) (stop func(), err error) {
	if err := checkToken("game id", game); err != nil {
		return nil, err
	}
	r := c.rel
	r.mu.Lock()
	defer r.mu.Unlock()
	wt := r.watches[game]
	if wt == nil {
		wt = &watch{game: game}
		wt.watchers.Store(&[]*watcherRef{})
		sub, err := c.nc.Subscribe(c.subject("game", game, "ev"), func(m *nats.Msg) { r.receive(wt, m) })
		if err != nil {
			return nil, fmt.Errorf("cluster: watching game %s: %w", game, err)
		}
		// The flush is the server's word that it has the subscription.
		if err := c.nc.FlushTimeout(c.opts.ConnectTimeout); err != nil {
			_ = sub.Unsubscribe()
			return nil, fmt.Errorf("cluster: watching game %s: %w", game, err)
		}
		wt.sub = sub
		r.watches[game] = wt
		r.bySub[sub] = wt
	}
	ref := &watcherRef{w: w}
	wt.watchers.Store(new(append(slices.Clone(*wt.watchers.Load()), ref)))
	var once sync.Once
	return func() { once.Do(func() { r.unwatch(wt, ref) }) }, nil
}

// unwatch removes a watcher, and the subscription with the last.
func (r *relay) unwatch(wt *watch, ref *watcherRef) {
	r.mu.Lock()
	defer r.mu.Unlock()
	left := slices.DeleteFunc(slices.Clone(*wt.watchers.Load()), func(x *watcherRef) bool { return x == ref })
	wt.watchers.Store(&left)
	if len(left) > 0 {
		return
	}
	delete(r.watches, wt.game)
	delete(r.bySub, wt.sub)
	if err := wt.sub.Unsubscribe(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) && !errors.Is(err, nats.ErrBadSubscription) {
		r.c.log.Warn("cluster: unwatching a game", "game", wt.game, "err", err)
	}
}

// receive checks who sent an event and its place in its stream, and hands
// it on.
func (r *relay) receive(wt *watch, m *nats.Msg) {
	var em eventMsg
	if err := json.Unmarshal(m.Data, &em); err != nil || em.V != wireVersion {
		r.c.log.Warn("cluster: an event that cannot be read", "game", wt.game, "version", em.V, "err", err)
		wt.resync(ReasonBadMessage)
		return
	}
	// Before the stream's checks: a forged epoch taken in would make the
	// owner's own events look older and be dropped.
	switch ok, err := r.fromOwner(wt, &em); {
	case err != nil:
		r.c.log.Warn("cluster: an event whose sender cannot be checked", "game", wt.game, "err", err)
		wt.resync(ReasonUnchecked)
		return
	case !ok:
		r.refuse(wt, &em)
		return
	}
	wt.mu.Lock()
	defer wt.mu.Unlock()
	if wt.have {
		switch {
		case em.Epoch < wt.epoch:
			// An owner that lost the lease: its word no longer counts.
			return
		case em.Epoch > wt.epoch || em.Stream != wt.stream:
			wt.resyncLocked(ReasonNewStream)
		case em.Seq <= wt.seq:
			return // seen already
		case em.Seq > wt.seq+1:
			wt.resyncLocked(ReasonGap)
		}
	}
	wt.have, wt.stream, wt.epoch, wt.seq = true, em.Stream, em.Epoch, em.Seq
	ev := Event{Game: em.Game, Node: em.Node, Epoch: em.Epoch, Seq: em.Seq, Version: em.Version, Body: em.Body}
	for _, ref := range *wt.watchers.Load() {
		ref.w.Event(ev)
	}
}

// fromOwner reports whether em is an event of its subject's game sent by
// the node that owns the game under the epoch the store says
// (Options.Owner; every event is when there is none). The store is read
// only for a claim of a newer epoch than it said last, at most once an
// event: an epoch is given to one node and never again, so a claim of the
// epoch known, or of an older one, is settled without asking, and the
// owner's own events, once known, cost nothing.
func (r *relay) fromOwner(wt *watch, em *eventMsg) (bool, error) {
	if em.Game != wt.game {
		return false, nil
	}
	owner := r.c.opts.Owner
	if owner == nil {
		return true, nil
	}
	if !wt.known || em.Epoch > wt.ownerEpoch {
		ctx, cancel := context.WithTimeout(context.Background(), ownerTimeout)
		node, epoch, err := owner(ctx, wt.game)
		cancel()
		if err != nil {
			return false, fmt.Errorf("cluster: reading the owner of game %s: %w", wt.game, err)
		}
		wt.known, wt.owner, wt.ownerEpoch = true, node, epoch
	}
	return em.Node == wt.owner && em.Epoch == wt.ownerEpoch, nil
}

// refuse counts an event not from its game's owner. It logs the 1st, 2nd,
// 4th, 8th... refusal of the node, with the count, so that a flood of
// forged events costs the log a line a doubling (Refused counts them all).
func (r *relay) refuse(wt *watch, em *eventMsg) {
	n := r.refused.Add(1)
	if n&(n-1) == 0 {
		r.c.log.Warn("cluster: refused events not sent by their game's owner under its epoch (anyone who can publish on NATS may send them)",
			"refused", n, "game", wt.game, "claimed_game", em.Game, "claimed_node", em.Node, "claimed_epoch", em.Epoch, "owner", wt.owner, "owner_epoch", wt.ownerEpoch)
	}
}

// Refused returns how many events this node refused since it connected:
// events of the games it watches not sent by the game's owner under its
// epoch as Options.Owner says.
func (c *Conn) Refused() uint64 { return c.rel.refused.Load() }

func (wt *watch) resync(reason Reason) {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	wt.resyncLocked(reason)
}

// resyncLocked tells the watchers to resync; the next event starts afresh.
func (wt *watch) resyncLocked(reason Reason) {
	wt.have = false
	for _, ref := range *wt.watchers.Load() {
		ref.w.Resync(wt.game, reason)
	}
}

// resyncAll tells every game's watchers to resync.
func (r *relay) resyncAll(reason Reason) {
	r.mu.Lock()
	all := make([]*watch, 0, len(r.watches))
	for _, wt := range r.watches {
		all = append(all, wt)
	}
	r.mu.Unlock()
	for _, wt := range all {
		wt.resync(reason)
	}
}

// slow tells the watchers of sub's game to resync, and reports whether
// sub is a game's.
func (r *relay) slow(sub *nats.Subscription) bool {
	r.mu.Lock()
	wt := r.bySub[sub]
	r.mu.Unlock()
	if wt == nil {
		return false
	}
	r.c.log.Warn("cluster: NATS dropped events of a game this node did not take in time", "game", wt.game)
	wt.resync(ReasonSlow)
	return true
}
