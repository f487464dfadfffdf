package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lagoon-games/lagoon/internal/cluster"
	"github.com/lagoon-games/lagoon/internal/store"
)

// This file makes the server one node of a cluster (docs/cluster.md): it
// owns the games whose lease it holds, writes their moves fenced by the
// lease's epoch, gives a game up when the lease is lost, and takes over the
// games in progress whose owner is gone.

// Leases are the leases that say which node owns each game, kept by the
// store all the nodes share (store/postgres), with what a node reads of the
// games the others own.
type Leases interface {
	// Acquire takes the lease on game for node, or renews node's own,
	// and returns its epoch; an error if another node holds it live.
	Acquire(ctx context.Context, game, node string, ttl time.Duration) (int64, error)
	// RenewAll extends node's leases on games at their epochs, and
	// returns the games whose lease is lost.
	RenewAll(ctx context.Context, node string, games []string, epochs []int64, ttl time.Duration) (lost []string, err error)
	// Release ends node's lease at epoch at once.
	Release(ctx context.Context, game, node string, epoch int64) error
	// Holder returns who holds the lease on game, and whether it is live.
	Holder(ctx context.Context, game string) (node string, epoch int64, live bool, err error)
	// Orphans returns the games in progress nobody holds live.
	Orphans(ctx context.Context) ([]string, error)
	// Playing returns the games in progress created last, for the lobby.
	Playing(ctx context.Context, limit int) ([]*store.Game, []store.Damaged, error)
}

// Cluster makes a server one node of a cluster. Conn is the node's
// connection to the others, made with Gate's Handler and Counts (the
// server is not made yet when NATS is connected, so that a NATS that does
// not answer stops a node before it touches the store).
type Cluster struct {
	Conn   *cluster.Conn
	Gate   *Gate
	Leases Leases
	// LeaseTTL is how long a lease lasts unrenewed: the longest a game
	// waits for a new owner when its owner dies. Default 6 s; it is
	// renewed every third of it.
	LeaseTTL time.Duration
}

// Gate passes the commands forwarded to this node and the counts its
// heartbeats carry to the server once it is made; until then it owns
// nothing and counts nothing.
type Gate struct{ s atomic.Pointer[Server] }

// Handler is the node's cluster.Handler.
func (gt *Gate) Handler(ctx context.Context, game string, body []byte) ([]byte, error) {
	s := gt.s.Load()
	if s == nil {
		return nil, cluster.Errorf(cluster.KindNotOwner, "the node is starting")
	}
	return s.forwarded(ctx, game, body)
}

// Owner is who owns a game and under which epoch, as the leases say: a
// node takes a relayed event only from them (cluster.Options.Owner).
func (gt *Gate) Owner(ctx context.Context, game string) (string, int64, error) {
	s := gt.s.Load()
	if s == nil {
		return "", 0, errors.New("server: the node is starting")
	}
	node, epoch, _, err := s.node.leases.Holder(ctx, game)
	return node, epoch, err
}

// Counts are the node's counts for the cluster's limits.
func (gt *Gate) Counts() map[string]int {
	s := gt.s.Load()
	if s == nil {
		return nil
	}
	return s.clusterCounts()
}

// node is the server's part of a cluster.
type node struct {
	name   string
	conn   *cluster.Conn
	leases Leases
	ttl    time.Duration

	mu      sync.Mutex
	remotes map[string]*remoteGame // games owned elsewhere that this node's clients watch
}

func newNode(c *Cluster) (*node, error) {
	if c.Conn == nil || c.Gate == nil || c.Leases == nil {
		return nil, errors.New("server: a cluster needs its connection, its gate and the leases")
	}
	ttl := c.LeaseTTL
	if ttl <= 0 {
		ttl = 6 * time.Second
	}
	return &node{name: c.Conn.Node(), conn: c.Conn, leases: c.Leases, ttl: ttl, remotes: make(map[string]*remoteGame)}, nil
}

// errUnloadable says a game taken over does not read or replay: damaged.
type errUnloadable struct{ err error }

func (e *errUnloadable) Error() string { return e.err.Error() }
func (e *errUnloadable) Unwrap() error { return e.err }

// errNotHere answers a request for a game another node owns: the caller
// forwards it there.
type errNotHere struct{ owner string }

func (e *errNotHere) Error() string { return "game owned by node " + e.owner }

// fence returns ctx fencing g's writes by its lease's epoch: a write after
// the lease is lost is refused by the store (store.ErrFenced).
func (g *match) fence(ctx context.Context) context.Context {
	if g.epoch == 0 {
		return ctx
	}
	return store.WithEpoch(ctx, g.id, g.s.node.name, g.epoch)
}

// fenced reports whether err is the store's refusal of a write of a node
// that lost the game's lease, and then gives the game up; g.mu is held.
func (g *match) fenced(err error) bool {
	if !errors.Is(err, store.ErrFenced) {
		return false
	}
	g.s.giveUpLocked(g, "the store refused a write: the lease is lost")
	return true
}

// errMoved refuses a command of a game this node just lost: sent again, it
// reaches the new owner.
var errMoved = errorf(http.StatusServiceUnavailable, "moved", "the game moved to another node; send it again")

// acquire takes the lease on game id for this node.
func (n *node) acquire(ctx context.Context, id string) (int64, error) {
	return n.leases.Acquire(ctx, id, n.name, n.ttl)
}

// takeOver makes this node the owner of sg, a game in progress that is not
// in memory, by taking its lease (as a restart resumes a game: its clocks
// and glass go on, its bots play), unless another node holds it live
// (errNotHere, for the caller to forward to it).
func (s *Server) takeOver(ctx context.Context, sg *store.Game) (*match, error) {
	n := s.node
	holder, _, live, err := n.leases.Holder(ctx, sg.ID)
	if err != nil {
		return nil, err
	}
	if live && holder != n.name {
		return nil, &errNotHere{owner: holder}
	}
	asked := time.Now()
	epoch, err := n.acquire(ctx, sg.ID)
	if err != nil {
		holder, _, live, herr := n.leases.Holder(ctx, sg.ID)
		switch {
		case herr == nil && live && holder != n.name:
			return nil, &errNotHere{owner: holder}
		case herr == nil && !live && ctx.Err() == nil:
			// Refused though nobody holds it: a write under the last
			// lease is still in flight (the store waits for it a moment
			// only), or its node froze inside it until the database ends
			// its transaction. Soon to be taken; nothing to log.
			return nil, errorf(http.StatusServiceUnavailable, "unavailable", "game %s is still being written by its last node; try again", sg.ID)
		}
		return nil, err
	}
	// Read again under the lease: the last owner's last write is in.
	id := sg.ID
	sg, err = s.store.Game(ctx, id)
	var g *match
	if err == nil {
		g, err = s.loadGame(sg)
	}
	if err != nil {
		n.leases.Release(context.WithoutCancel(ctx), id, n.name, epoch)
		if ctx.Err() == nil && (g == nil && sg != nil || errors.Is(err, store.ErrDamaged)) {
			// It will not load the next time either.
			return nil, &errUnloadable{err}
		}
		return nil, err
	}
	g.epoch, g.renewed = epoch, asked
	s.mu.Lock()
	if other := s.games[g.id]; other != nil {
		s.mu.Unlock()
		return other, nil
	}
	if s.closing {
		g.closed = true
	}
	s.games[g.id] = g
	s.mu.Unlock()
	g.mu.Lock()
	if !g.cur.Over() && s.expires(g.seats, g.time, g.updated, time.Now()) {
		g.mu.Unlock()
		s.expire(time.Now())
		return g, nil
	}
	g.schedule()
	// Read under g.mu: the game is in s.games, and a move may come now.
	version := len(g.moves)
	g.mu.Unlock()
	s.log.Info("game taken over", "game", g.id, "epoch", epoch, "version", version)
	// Its watchers on this node hear it from here now: they reconnect.
	n.resyncRemote(g.id, "the game is owned here now")
	return g, nil
}

// leaseHeldLocked reports whether this node surely still holds g's lease
// at now: within the lease time of the last renewal sent that succeeded,
// less a sixth of it for the rates of the node's and the database's
// clocks. A node that froze past its lease finds it false on waking,
// before its renewal has told it the lease is lost. g.mu is held.
func (g *match) leaseHeldLocked(now time.Time) bool {
	ttl := g.s.node.ttl
	return now.Sub(g.renewed) < ttl-ttl/6
}

// confirmLease reports whether this node may serve g, a game in its
// memory, as its owner: yes while it surely holds the lease
// (leaseHeldLocked) or g needs none (over, or closed as the server
// closes, which its callers see), no once it gave g up; otherwise it asks
// the database, renewing the lease if the node still holds it and giving
// g up if not. No means the caller reads the game as one owned elsewhere,
// so that a node that just lost a game never serves the version it had.
func (s *Server) confirmLease(ctx context.Context, g *match) (bool, error) {
	g.mu.Lock()
	epoch, givenUp := g.epoch, g.givenUp
	held := !givenUp && (g.closed || epoch <= 0 || g.leaseHeldLocked(time.Now()))
	g.mu.Unlock()
	if held {
		return true, nil
	}
	if !givenUp {
		sent := time.Now()
		lost, err := s.node.leases.RenewAll(ctx, s.node.name, []string{g.id}, []int64{epoch}, s.node.ttl)
		if err != nil {
			return false, fmt.Errorf("confirm the lease on %s: %w", g.id, err)
		}
		g.mu.Lock()
		switch {
		case g.givenUp:
		case g.epoch != epoch || g.closed:
			// Changed meanwhile: as the change left it.
			g.mu.Unlock()
			return true, nil
		case len(lost) == 0:
			if sent.After(g.renewed) {
				g.renewed = sent
			}
			g.mu.Unlock()
			return true, nil
		default:
			s.giveUpLocked(g, "the lease was lost (found by a request)")
		}
		g.mu.Unlock()
	}
	// Out of the games now, not when giveUpLocked's cleanup runs: the
	// caller reads the game again at once.
	s.mu.Lock()
	if s.games[g.id] == g {
		delete(s.games, g.id)
	}
	s.mu.Unlock()
	return false, nil
}

// giveUpLocked drops game g, whose lease this node lost: no more of its
// moves are made here, and its clients reconnect, to find the new owner.
// g.mu is held.
func (s *Server) giveUpLocked(g *match, why string) {
	if g.closed {
		return
	}
	g.closed, g.givenUp = true, true
	if g.timer != nil {
		g.timer.Stop()
	}
	for c := range g.subs {
		c.kill(statusMoved, "the game moved to another node; reconnect")
	}
	s.log.Warn("game given up", "game", g.id, "epoch", g.epoch, "why", why)
	go func() {
		s.mu.Lock()
		if s.games[g.id] == g {
			delete(s.games, g.id)
		}
		s.mu.Unlock()
		s.node.conn.Forget(g.id)
	}()
}

// renewLoop renews the leases of the games this node owns and releases
// those of finished games, every third of the lease time; adoptLoop takes
// over the games in progress nobody holds, as often. They are two loops so
// that a node's own leases never wait on another node's games: taking over
// a game waits on its lease row, which a node frozen inside a write holds
// until the database ends its transaction, and a renewal that came after
// it would come late, and lose the node's own games. Each waits a little
// jitter, so that the nodes' sweeps spread out.
func (s *Server) renewLoop() { s.every(s.renewLeases) }

// adoptLoop: see renewLoop.
func (s *Server) adoptLoop() { s.every(s.adoptOrphans) }

// every runs do at once and then every third of the lease time, with
// jitter, until the server stops.
func (s *Server) every(do func()) {
	every := s.node.ttl / 3
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		do()
		t.Reset(every - every/8 + rand.N(every/4))
	}
}

// renewLeases renews the leases of the games this node owns, in one
// statement, gives up the games whose lease is lost, and releases the
// lease of a game that is over. Each owned game also gets a tick on its
// events' subject, so that a watcher sees a new owner, or a lost last
// event, within a renewal. The seats' clients counted on nodes gone are
// dropped.
func (s *Server) renewLeases() {
	n := s.node
	alive := map[string]bool{n.name: true}
	for _, o := range n.conn.Nodes() {
		alive[o.Name] = true
	}
	var owned []*match
	var ids []string
	var epochs []int64
	for _, g := range s.active() {
		g.mu.Lock()
		epoch, over, closed := g.epoch, g.cur.Over(), g.closed
		g.mu.Unlock()
		switch {
		case epoch <= 0 || closed:
		case over:
			s.release(g, epoch)
		default:
			owned, ids, epochs = append(owned, g), append(ids, g.id), append(epochs, epoch)
		}
	}
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.ttl/3)
	sent := time.Now()
	lost, err := n.leases.RenewAll(ctx, n.name, ids, epochs, n.ttl)
	cancel()
	if err != nil {
		s.repeats.Warn("renewing the leases", "games", len(ids), "err", err)
	}
	gone := make(map[string]bool, len(lost))
	for _, id := range lost {
		gone[id] = true
	}
	now := time.Now()
	for i, g := range owned {
		g.mu.Lock()
		switch {
		case g.epoch != epochs[i] || g.closed:
			// Changed meanwhile: not this renewal's to judge.
		case err == nil && !gone[g.id]:
			g.renewed = sent
			g.publish(int64(len(g.moves)), tickBody)
			g.forgetGoneNodes(alive)
		case err == nil:
			s.giveUpLocked(g, "the lease was lost")
		case now.Sub(g.renewed) > n.ttl:
			s.giveUpLocked(g, fmt.Sprintf("the lease could not be renewed for %v: %v", n.ttl, err))
		}
		g.mu.Unlock()
	}
}

// release gives up the lease of g, a game over that any node reads from
// the store.
func (s *Server) release(g *match, epoch int64) {
	n := s.node
	ctx, cancel := context.WithTimeout(context.Background(), n.ttl/3)
	defer cancel()
	if err := n.leases.Release(ctx, g.id, n.name, epoch); err != nil {
		s.log.Warn("releasing the lease of a game over", "game", g.id, "err", err)
		return
	}
	g.mu.Lock()
	g.epoch = -1
	g.mu.Unlock()
	n.conn.Forget(g.id)
}

// adoptOrphans takes over the games in progress whose owner is gone, so
// that games of bots alone, and games whose clients are gone, go on.
func (s *Server) adoptOrphans() {
	ctx, cancel := context.WithTimeout(context.Background(), s.node.ttl)
	defer cancel()
	ids, err := s.node.leases.Orphans(ctx)
	if err != nil {
		s.repeats.Warn("reading the games nobody holds", "err", err)
		return
	}
	rand.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids {
		// Another node's, or one that does not load (damaged, which
		// match logged once): nothing to say every sweep.
		_, err := s.match(ctx, id)
		var here *errNotHere
		var refused *apiError
		if err != nil && ctx.Err() == nil && !errors.As(err, &here) && !errors.As(err, &refused) {
			s.repeats.Warn("taking a game over", "game", id, "err", err)
		}
	}
}

// releaseAll gives the leases of the games this node owns back as it
// closes, so that other nodes take them at once; g.mu is not held.
func (s *Server) releaseAll(ctx context.Context) {
	for _, g := range s.active() {
		g.mu.Lock()
		epoch := g.epoch
		g.mu.Unlock()
		if epoch > 0 {
			if err := s.node.leases.Release(ctx, g.id, s.node.name, epoch); err != nil {
				s.log.Warn("releasing a lease", "game", g.id, "err", err)
			}
		}
	}
}

// clusterCounts are the node's counts for the cluster's limits: its games
// in progress, by address and of bots alone by address (limits.go).
func (s *Server) clusterCounts() map[string]int {
	p := &s.pending
	p.mu.Lock()
	out := map[string]int{countGames: p.total}
	for a, k := range p.byAddr {
		out[countAddr+a] += k
	}
	for a, k := range p.botsByAddr {
		out[countBots+a] += k
	}
	p.mu.Unlock()
	for _, g := range s.active() {
		if g.summary.Load().Over {
			continue
		}
		out[countGames]++
		if g.creator != "" {
			out[countAddr+g.creator]++
			if g.botsOnly {
				out[countBots+g.creator]++
			}
		}
	}
	return out
}

// The keys of the counts in a node's heartbeats.
const (
	countGames = "games"
	countAddr  = "games/"
	countBots  = "bots/"
)

// others returns the other nodes' count of key, 0 without a cluster.
func (s *Server) others(key string) int {
	if s.node == nil {
		return 0
	}
	return s.node.conn.Others(key)
}
