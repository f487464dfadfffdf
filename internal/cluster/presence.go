package cluster

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Every node says it is alive on <prefix>.presence.<name> each heartbeat,
// with its counts, and keeps the last word of every other node. That is
// what the cluster's health and limits read. It decides no ownership: a
// node taken for gone here may still hold leases, and only the store's
// lease says who owns a game.
//
// Counts are added up from the heartbeats rather than kept in one shared
// counter (a JetStream key-value bucket): a counter would cost a round trip
// to the stream's leader for every game made and ended, and a node that
// dies would leave its share in it for somebody to take out; a heartbeat's
// counts vanish with the node, and the games' new owners count them. The
// price is staleness, bounded: another node's counts are at most one of
// its heartbeats old (plus the trip), a dead node's linger for three, and
// a node may Beat at once after a change that matters to the others (a game
// made). So a limit may be passed by what the other nodes admitted within
// one heartbeat, never more.

// heartbeatMsg is a heartbeat on the wire.
type heartbeatMsg struct {
	V          int            `json:"v"`
	Node       string         `json:"node"`
	IntervalMS int64          `json:"interval_ms"`
	Counts     map[string]int `json:"counts,omitempty"`
	Bye        bool           `json:"bye,omitempty"` // the node is leaving
}

// missedBeats is how many heartbeats a node may miss before it is taken
// for gone.
const missedBeats = 3

// Node is another node as its last heartbeat described it.
type Node struct {
	Name   string
	Age    time.Duration // since its last heartbeat came
	Counts map[string]int
}

type presence struct {
	c    *Conn
	sub  *nats.Subscription
	quit chan struct{}
	done chan struct{}

	mu    sync.Mutex
	peers map[string]*peer
}

type peer struct {
	seen     time.Time
	interval time.Duration
	counts   map[string]int
}

func newPresence(c *Conn) (*presence, error) {
	p := &presence{c: c, quit: make(chan struct{}), done: make(chan struct{}), peers: make(map[string]*peer)}
	sub, err := c.nc.Subscribe(c.subject("presence", "*"), p.receive)
	if err != nil {
		return nil, fmt.Errorf("cluster: subscribing to heartbeats: %w", err)
	}
	p.sub = sub
	return p, nil
}

// run beats now and then every heartbeat until stop.
func (p *presence) run() {
	p.beat()
	go func() {
		defer close(p.done)
		t := time.NewTicker(p.c.opts.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-p.quit:
				return
			case <-t.C:
				p.beat()
				p.expire()
			}
		}
	}()
}

// beat sends a heartbeat with the node's counts now. One that cannot go
// out (NATS is away) is skipped: the next will say the same, newer.
func (p *presence) beat() {
	p.send(false)
}

func (p *presence) send(bye bool) {
	hb := heartbeatMsg{V: wireVersion, Node: p.c.node, IntervalMS: p.c.opts.Heartbeat.Milliseconds(), Bye: bye}
	if p.c.opts.Counts != nil && !bye {
		hb.Counts = p.c.opts.Counts()
	}
	data, err := json.Marshal(hb)
	if err == nil {
		err = p.c.nc.Publish(p.c.subject("presence", p.c.node), data)
	}
	if err != nil {
		p.c.log.Debug("cluster: a heartbeat did not go out", "err", err)
	}
}

func (p *presence) receive(m *nats.Msg) {
	var hb heartbeatMsg
	if err := json.Unmarshal(m.Data, &hb); err != nil || hb.V != wireVersion || checkToken("node name", hb.Node) != nil || hb.IntervalMS <= 0 {
		p.c.log.Warn("cluster: a heartbeat that cannot be read", "subject", m.Subject, "err", err)
		return
	}
	if hb.Node == p.c.node {
		return
	}
	p.mu.Lock()
	_, known := p.peers[hb.Node]
	if hb.Bye {
		delete(p.peers, hb.Node)
	} else {
		p.peers[hb.Node] = &peer{seen: time.Now(), interval: time.Duration(hb.IntervalMS) * time.Millisecond, counts: hb.Counts}
	}
	p.mu.Unlock()
	switch {
	case hb.Bye && known:
		p.c.log.Info("cluster: a node left", "peer", hb.Node)
	case !hb.Bye && !known:
		p.c.log.Info("cluster: a node is here", "peer", hb.Node)
		// A node that just came knows nobody yet: tell it at once
		// rather than at the next heartbeat.
		p.beat()
	}
}

// expire forgets the nodes not heard for missedBeats of their heartbeats.
func (p *presence) expire() {
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	for name, pe := range p.peers {
		if !pe.alive(now) {
			delete(p.peers, name)
			p.c.log.Warn("cluster: a node is not heard any more", "peer", name, "since", pe.seen)
		}
	}
}

func (pe *peer) alive(now time.Time) bool {
	return now.Sub(pe.seen) <= missedBeats*pe.interval
}

// halt stops the heartbeats.
func (p *presence) halt() {
	close(p.quit)
	<-p.done
}

// stop stops the heartbeats and says goodbye.
func (p *presence) stop() {
	p.halt()
	p.send(true)
	if err := p.sub.Unsubscribe(); err != nil {
		p.c.log.Debug("cluster: unsubscribing from heartbeats", "err", err)
	}
}

// Nodes returns the other nodes alive now, by name.
func (c *Conn) Nodes() []Node {
	p := c.pres
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []Node
	for _, name := range slices.Sorted(maps.Keys(p.peers)) {
		if pe := p.peers[name]; pe.alive(now) {
			out = append(out, Node{Name: name, Age: now.Sub(pe.seen), Counts: maps.Clone(pe.counts)})
		}
	}
	return out
}

// Others returns the sum of key's counts over the other nodes alive, as of
// their last heartbeats; add the node's own count, which it knows exactly.
func (c *Conn) Others(key string) int {
	p := c.pres
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, pe := range p.peers {
		if pe.alive(now) {
			n += pe.counts[key]
		}
	}
	return n
}

// Beat sends the node's heartbeat and counts now, as after a change the
// other nodes' limits should see before the next heartbeat.
func (c *Conn) Beat() { c.pres.beat() }
