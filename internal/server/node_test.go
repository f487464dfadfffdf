package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"

	"github.com/lagoon-games/lagoon/internal/cluster"
	"github.com/lagoon-games/lagoon/internal/cluster/natstest"
	"github.com/lagoon-games/lagoon/internal/store/postgres"
	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
)

// These tests run two servers in the process as nodes of one cluster, on
// real PostgreSQL and NATS (LAGOON_POSTGRES, LAGOON_NATS); the three-node
// test of killed and frozen processes is lagoon serve's (cmd/lagoon).

// newTestNodes starts nodes of one cluster on a schema and a subject
// prefix of their own, and returns them with the schema's address. Their
// leases last a minute: a test takes a lease away itself.
func newTestNodes(t *testing.T, configure func(*Config), names ...string) ([]*testServer, string) {
	t.Helper()
	return newTestNodesOn(t, natstest.URL(t), configure, names...)
}

// newTestNodesOn is newTestNodes on the NATS server at nats.
func newTestNodesOn(t *testing.T, nats string, configure func(*Config), names ...string) ([]*testServer, string) {
	t.Helper()
	return newTestNodesVia(t, nats, func(_, db string) string { return db }, configure, names...)
}

// newTestNodesVia is newTestNodesOn with each node reaching the database
// at the address via returns for its name and the schema's address.
func newTestNodesVia(t *testing.T, nats string, via func(name, db string) string, configure func(*Config), names ...string) ([]*testServer, string) {
	t.Helper()
	db := pgtest.URL(t)
	prefix := "lagoontest_" + newGameID()
	var out []*testServer
	for _, name := range names {
		st, err := postgres.Open(context.Background(), via(name, db))
		if err != nil {
			t.Fatal(err)
		}
		gate := &Gate{}
		conn, err := cluster.Connect(nats, name, cluster.Options{Prefix: prefix, Handler: gate.Handler, Counts: gate.Counts, Owner: gate.Owner})
		if err != nil {
			t.Fatal(err)
		}
		cfg := testConfig(t, st)
		cfg.Cluster = &Cluster{Conn: conn, Gate: gate, Leases: st, LeaseTTL: time.Minute}
		if configure != nil {
			configure(&cfg)
		}
		s, err := New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		ts := &testServer{t: t, store: st, s: s, http: httptest.NewServer(s), prefix: prefix}
		t.Cleanup(func() {
			ts.stop()
			conn.Close()
		})
		out = append(out, ts)
	}
	return out, db
}

// TestNodesRelayEachSeatItsView plays a game of hidden hands (Tiny) made
// on one node, whose seats and spectator follow it over WebSocket on
// another: their moves are forwarded to the owner and acknowledged, and
// each relayed event shows each client the state as its own seat sees it
// on the owner, never another seat's hand.
func TestNodesRelayEachSeatItsView(t *testing.T) {
	nodes, _ := newTestNodes(t, nil, "a", "b")
	owner, other := nodes[0], nodes[1]
	id, tokens := owner.humansOf("tiny", 2, 7)
	var clients [2]*wsClient
	for p := range clients {
		c, w := other.connect(id, tokens[p], -1)
		if w.You == nil || *w.You != p {
			t.Fatalf("seat %d's welcome through the other node: %s", p, w.raw)
		}
		c.read() // the snapshot
		clients[p] = c
	}
	spectator, _ := other.connect(id, "", -1)
	spectator.read()
	for v := 0; v < 8; v++ {
		g := owner.getTiny(id, "", -1)
		if g.State.Over {
			break
		}
		p := g.State.ToMove
		legal := owner.getTiny(id, tokens[p], -1).State.View.Legal
		clients[p].send(map[string]any{"type": "move", "id": "m", "version": v, "move": legal[0]})
		for seat, c := range clients {
			// The ack and the event come by different ways, in either
			// order, as they may to the owner's own clients.
			var acked, moved bool
			for !moved || seat == p && !acked {
				switch m := c.read(); m.Type {
				case "ack":
					if m.Version != v+1 {
						t.Fatalf("seat %d's move %d through the other node: %s", p, v+1, m.raw)
					}
					acked = true
				case "move":
					checkRelayedView(t, owner, id, tokens[seat], m)
					moved = true
				default:
					t.Fatalf("seat %d got %s", seat, m.raw)
				}
			}
		}
		checkRelayedView(t, owner, id, "", spectator.readUntil("move")[0])
	}
	if got := len(owner.storedMoves(id)); got < 8 {
		t.Errorf("%d moves stored, 8 acknowledged", got)
	}
	// The seats' clients on the other node count as connected on the
	// owner, until they leave.
	if seats := owner.getTiny(id, "", -1).Seats; seats[0].Connected != 1 || seats[1].Connected != 1 {
		t.Errorf("the owner's seats with their clients on the other node: %+v", seats)
	}
	clients[1].c.Close(websocket.StatusNormalClosure, "")
	eventually(t, "the owner counts seat 1's client gone from the other node", func() bool {
		return owner.getTiny(id, "", -1).Seats[1].Connected == 0
	})
}

// eventually waits until ok holds, failing the test past a bound far
// above what a heartbeat or a forwarded command takes.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkRelayedView checks that a relayed move event shows the state its
// seat (token) sees on the owner at that version.
func checkRelayedView(t *testing.T, owner *testServer, id, token string, m message) {
	t.Helper()
	var got tinyState
	if err := json.Unmarshal(m.State, &got); err != nil {
		t.Fatal(err)
	}
	want := owner.getTiny(id, token, m.Version).State
	if string(mustJSON(got.View)) != string(mustJSON(want.View)) {
		t.Fatalf("relayed view at %d: %s, the owner shows %s", m.Version, mustJSON(got.View), mustJSON(want.View))
	}
}

// TestNodesForwardTheAPI: a game's API on a node that does not own it is
// the owner's, and the lobby of either node lists every node's games.
func TestNodesForwardTheAPI(t *testing.T) {
	nodes, _ := newTestNodes(t, nil, "a", "b")
	owner, other := nodes[0], nodes[1]
	id, tokens := owner.humans(2, 1)
	legal := other.get(id, tokens[0]).State.View.Legal
	if r := other.move(id, tokens[0], 0, legal[0]); r.Version != 1 {
		t.Fatalf("a move through the other node: %+v", r)
	}
	if got := owner.storedMoves(id); len(got) != 1 {
		t.Fatalf("stored %q", got)
	}
	status, body := other.request("GET", "/api/lobby", "", nil)
	lobby := decode[struct {
		Playing []summaryView `json:"playing"`
	}](t, body)
	if status != 200 || len(lobby.Playing) != 1 || lobby.Playing[0].ID != id || lobby.Playing[0].Version != 1 {
		t.Fatalf("the other node's lobby: %d %s", status, body)
	}
	eventually(t, "the other node's health counts the owner's game", func() bool {
		return other.s.health(time.Now()).Cluster.Games == 1
	})
}

// TestNodesFencedWriteGivesTheGameUp: a node whose lease was taken over
// finds its next write refused by the store, answers it 503 moved, writes
// nothing and gives the game up; the same move sent again through it
// reaches the new owner.
func TestNodesFencedWriteGivesTheGameUp(t *testing.T) {
	nodes, db := newTestNodes(t, nil, "a", "b")
	old, taker := nodes[0], nodes[1]
	id, tokens := old.humans(2, 1)
	legal := old.get(id, tokens[0]).State.View.Legal
	if r := old.move(id, tokens[0], 0, legal[0]); r.Version != 1 {
		t.Fatalf("the first move: %+v", r)
	}
	// The lease runs out (as for a node frozen past it), and the other
	// node takes the game when asked for it.
	pgtest.Exec(t, db, `UPDATE leases SET expires = clock_timestamp() WHERE game = ?`, id)
	legal = taker.get(id, tokens[1]).State.View.Legal
	if got := pgtest.QueryInt(t, db, `SELECT count(*) FROM leases WHERE node = 'b' AND epoch = 2 AND expires > clock_timestamp()`); got != 1 {
		t.Fatalf("%d leases of node b at epoch 2", got)
	}
	move := map[string]any{"version": 1, "move": legal[0]}
	status, body := old.request("POST", "/api/games/"+id+"/moves", tokens[1], move)
	if status != 503 || decode[errorBody](t, body).Error.Code != "moved" {
		t.Fatalf("a move through the node that lost the lease: %d %s", status, body)
	}
	if got := old.storedMoves(id); len(got) != 1 {
		t.Fatalf("stored %q after the fenced write", got)
	}
	if r := old.move(id, tokens[1], 1, legal[0]); r.Version != 2 {
		t.Fatalf("the move sent again: %+v", r)
	}
	if got := taker.storedMoves(id); len(got) != 2 {
		t.Fatalf("stored %q", got)
	}
}

// TestNodesLimitsCountEveryNode: the games an address has in progress on
// one node count against its limit on another.
func TestNodesLimitsCountEveryNode(t *testing.T) {
	nodes, _ := newTestNodes(t, func(c *Config) { c.MaxGamesPerAddr = 1 }, "a", "b")
	nodes[0].humans(2, 1)
	eventually(t, "node b hears of node a's game", func() bool {
		return nodes[1].s.others(countAddr+"127.0.0.1") == 1
	})
	status, body := nodes[1].request("POST", "/api/games", "", createRequest{Seats: []seatRequest{{Kind: "human"}, {Kind: "human"}}})
	if status != 429 || decode[errorBody](t, body).Error.Code != "too_many_games" {
		t.Fatalf("a second game from the address on the other node: %d %s", status, body)
	}
}

// TestNodesRefuseForgedEvents: a stranger on the cluster's NATS publishes
// a move and a game over on a game's subject, in the owner's name under an
// epoch the store never gave, and in another name under the owner's epoch.
// The spectator relayed by the other node sees neither: its next move is
// the real one, it is not made to reconnect, and the node counts the
// forged events in its metrics.
func TestNodesRefuseForgedEvents(t *testing.T) {
	url := natstest.URL(t)
	nodes, db := newTestNodes(t, nil, "a", "b")
	owner, other := nodes[0], nodes[1]
	id, tokens := owner.humans(2, 1)
	spectator, _ := other.connect(id, "", -1)
	spectator.read()
	epoch := int64(pgtest.QueryInt(t, db, fmt.Sprintf(`SELECT epoch FROM leases WHERE game = '%s' AND node = 'a'`, id)))

	stranger, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	forged := []struct {
		node  string
		epoch int64
		msg   map[string]any
	}{
		{"a", epoch + 1000, map[string]any{"type": "move", "version": 1, "move": "forged"}},
		{"a", epoch + 1000, map[string]any{"type": "game_over", "version": 1}},
		{"mallory", epoch, map[string]any{"type": "move", "version": 1, "move": "forged"}},
		{"mallory", epoch + 1, map[string]any{"type": "game_over", "version": 1}},
	}
	for i, f := range forged {
		body := mustJSON(relayed{All: []json.RawMessage{mustJSON(f.msg)}, Move: true})
		ev := mustJSON(map[string]any{"v": 1, "game": id, "node": f.node, "stream": "forged", "epoch": f.epoch, "seq": i + 1, "version": 1, "body": json.RawMessage(body)})
		if err := stranger.Publish(owner.prefix+".game."+id+".ev", ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := stranger.Flush(); err != nil {
		t.Fatal(err)
	}
	// Flushed, they are on their way to the other node before the move.
	legal := owner.get(id, tokens[0]).State.View.Legal
	owner.move(id, tokens[0], 0, legal[0])
	for _, m := range spectator.readUntil("move") {
		if m.Type != "move" || m.Move != legal[0] || m.Version != 1 {
			t.Fatalf("the spectator was shown %s, the move was %s", m.raw, legal[0])
		}
	}
	if got := other.metric("lagoon_events_refused_total"); got != len(forged) {
		t.Errorf("%d forged events counted, %d sent", got, len(forged))
	}
	if got := other.metric(`lagoon_resyncs_total{reason="new_stream"}`); got != 0 {
		t.Errorf("%d resyncs for new streams: the forged events moved the spectator", got)
	}
}

// metric returns the value of one of the node's series, 0 when it has
// none yet.
func (ts *testServer) metric(series string) int {
	ts.t.Helper()
	rec := httptest.NewRecorder()
	ts.s.Metrics().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for line := range strings.Lines(rec.Body.String()) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), series+" "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				ts.t.Fatalf("%s: %v", line, err)
			}
			return int(n)
		}
	}
	return 0
}

// TestNodesNATSRestart: NATS killed and started again under two nodes:
// meanwhile a move through the node that does not own the game is refused
// (503, nothing made); once NATS is back the relayed clients are told to
// reconnect, they resume where they were, and the game goes on through
// either node, nothing lost.
func TestNodesNATSRestart(t *testing.T) {
	nats := natstest.Own(t)
	nodes, _ := newTestNodesOn(t, nats.URL(), nil, "a", "b")
	owner, other := nodes[0], nodes[1]
	id, tokens := owner.humans(2, 1)
	spectator, _ := other.connect(id, "", -1)
	spectator.read()
	legal := other.get(id, tokens[0]).State.View.Legal
	if r := other.move(id, tokens[0], 0, legal[0]); r.Version != 1 {
		t.Fatalf("a move through the other node: %+v", r)
	}
	spectator.readUntil("move")

	nats.Stop(t)
	if status, body := other.request("POST", "/api/games/"+id+"/moves", tokens[1], map[string]any{"version": 1, "move": "x"}); status != 503 {
		t.Fatalf("a move through the other node while NATS is away: %d %s", status, body)
	}
	nats.Start(t)
	// Reconnected, the node cannot tell what it missed: its relayed
	// clients reconnect.
	if code := spectator.closeStatus(); code != statusMoved {
		t.Fatalf("the relayed spectator was closed with %v, want %v", code, statusMoved)
	}

	legal = owner.get(id, tokens[1]).State.View.Legal
	eventually(t, "a move through the other node once NATS is back", func() bool {
		status, _ := other.request("POST", "/api/games/"+id+"/moves", tokens[1], map[string]any{"version": 1, "move": legal[0]})
		return status == 200
	})
	back, w := other.connect(id, "", 1)
	if w.Resume != "events" {
		t.Fatalf("the spectator's welcome back: %s", w.raw)
	}
	if m := back.readUntil("move"); m[len(m)-1].Version != 2 {
		t.Fatalf("the spectator resumed with %s", m[len(m)-1].raw)
	}
	if got := owner.storedMoves(id); len(got) != 2 {
		t.Fatalf("stored %q", got)
	}
}

// dbProxy passes a node's connections to PostgreSQL through until cut:
// then it closes them, and every connection after, as a network that no
// longer reaches the database does.
type dbProxy struct {
	ln    net.Listener
	to    string
	mu    sync.Mutex
	cut   bool
	conns []net.Conn
}

// newDBProxy starts a proxy to the database at address (a postgres://
// URL) and returns it with the address that reaches the database through
// it.
func newDBProxy(t *testing.T, address string) (*dbProxy, string) {
	t.Helper()
	u, err := url.Parse(address)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &dbProxy{ln: ln, to: u.Host}
	t.Cleanup(func() {
		ln.Close()
		p.cutOff()
	})
	go p.serve()
	u.Host = ln.Addr().String()
	return p, u.String()
}

func (p *dbProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		cut := p.cut
		if !cut {
			p.conns = append(p.conns, c)
		}
		p.mu.Unlock()
		if cut {
			c.Close()
			continue
		}
		go p.pass(c)
	}
}

// pass copies c to the database and back until either side closes.
func (p *dbProxy) pass(c net.Conn) {
	db, err := net.Dial("tcp", p.to)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, db)
	p.mu.Unlock()
	go func() {
		io.Copy(db, c)
		db.Close()
	}()
	io.Copy(c, db)
	c.Close()
}

// cutOff closes every connection through the proxy and refuses those to
// come.
func (p *dbProxy) cutOff() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestNodesCutOffFromTheDatabase: the owner of a game cut off from
// PostgreSQL acknowledges no move, whether sent to it or forwarded to it
// by another node; once its lease runs out, the other node owns the game,
// with every acknowledged move, and plays on.
func TestNodesCutOffFromTheDatabase(t *testing.T) {
	var proxy *dbProxy
	via := func(name, db string) string {
		if name != "a" {
			return db
		}
		p, address := newDBProxy(t, db)
		proxy = p
		return address
	}
	const ttl = 2 * time.Second
	nodes, db := newTestNodesVia(t, natstest.URL(t), via, func(cfg *Config) { cfg.Cluster.LeaseTTL = ttl }, "a", "b")
	cut, other := nodes[0], nodes[1]
	id, tokens := cut.humans(2, 1)
	legal := cut.get(id, tokens[0]).State.View.Legal
	if r := cut.move(id, tokens[0], 0, legal[0]); r.Version != 1 {
		t.Fatalf("the first move: %+v", r)
	}
	acked := []string{legal[0]}
	legal = cut.get(id, tokens[1]).State.View.Legal

	proxy.cutOff()
	for _, n := range []struct {
		name string
		via  *testServer
	}{{"sent to the cut-off owner", cut}, {"forwarded to it by the other node", other}} {
		status, body := n.via.request("POST", "/api/games/"+id+"/moves", tokens[1], map[string]any{"version": 1, "move": legal[0]})
		if status == 200 {
			t.Errorf("a move %s was acknowledged: %s", n.name, body)
		}
	}
	if got := other.storedMoves(id); !slices.Equal(got, acked) {
		t.Fatalf("stored %q with the owner cut off, want %q", got, acked)
	}

	// The lease runs out by the database's clock; the other node takes the
	// game when asked for it, with the moves acknowledged.
	eventually(t, "the other node owns the game", func() bool {
		other.request("GET", "/api/games/"+id, tokens[1], nil)
		return pgtest.QueryInt(t, db, fmt.Sprintf(`SELECT count(*) FROM leases WHERE game = '%s' AND node = 'b' AND expires > clock_timestamp()`, id)) == 1
	})
	g := other.get(id, tokens[1])
	if g.State.Version != 1 {
		t.Fatalf("the game on the new owner is at version %d, want 1", g.State.Version)
	}
	if r := other.move(id, tokens[1], 1, g.State.View.Legal[0]); r.Version != 2 {
		t.Fatalf("the move on the new owner: %+v", r)
	}
	acked = append(acked, g.State.View.Legal[0])
	if got := other.storedMoves(id); !slices.Equal(got, acked) {
		t.Fatalf("stored %q, want %q", got, acked)
	}
}

// TestNodesLapsedLeaseConfirmed: a node whose last renewal is older than
// its lease (as a node frozen past its lease wakes) serves a game from its
// memory only once the database says it still holds the lease; one that
// lost it serves the new owner's version, not its own, and gives the game
// up.
func TestNodesLapsedLeaseConfirmed(t *testing.T) {
	for _, tc := range []struct {
		name        string
		taken       bool // the lease ran out and the other node took the game and moved
		wantVersion int
		wantHolder  string
	}{
		{"lease lost", true, 2, "b"},
		{"lease still held", false, 1, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes, db := newTestNodes(t, nil, "a", "b")
			old, taker := nodes[0], nodes[1]
			id, tokens := old.humans(2, 1)
			legal := old.get(id, tokens[0]).State.View.Legal
			if r := old.move(id, tokens[0], 0, legal[0]); r.Version != 1 {
				t.Fatalf("the first move: %+v", r)
			}
			old.s.mu.Lock()
			g := old.s.games[id]
			old.s.mu.Unlock()
			g.mu.Lock()
			g.renewed = g.renewed.Add(-2 * old.s.node.ttl)
			g.mu.Unlock()
			if tc.taken {
				pgtest.Exec(t, db, `UPDATE leases SET expires = clock_timestamp() WHERE game = ?`, id)
				legal = taker.get(id, tokens[1]).State.View.Legal
				if r := taker.move(id, tokens[1], 1, legal[0]); r.Version != 2 {
					t.Fatalf("the new owner's move: %+v", r)
				}
			}
			if v := old.get(id, tokens[0]).State.Version; v != tc.wantVersion {
				t.Errorf("the game through the node whose lease lapsed: version %d, want %d", v, tc.wantVersion)
			}
			holder, _, live, err := old.s.node.leases.Holder(context.Background(), id)
			if err != nil || !live || holder != tc.wantHolder {
				t.Errorf("the lease: %q live %v (%v), want %q's", holder, live, err, tc.wantHolder)
			}
			old.s.mu.Lock()
			_, inMemory := old.s.games[id]
			old.s.mu.Unlock()
			if inMemory != !tc.taken {
				t.Errorf("the game in the old node's memory: %v, want %v", inMemory, !tc.taken)
			}
		})
	}
}

// TestNodesForwardStopsWaitingOnALostOwner: a request forwarded to an
// owner that never answers (a node frozen with the command in hand) waits
// only until that owner's lease runs out, and is then answered by the
// game's next owner, not after the forward's whole timeout.
func TestNodesForwardStopsWaitingOnALostOwner(t *testing.T) {
	nats := natstest.URL(t)
	nodes, db := newTestNodesOn(t, nats, func(cfg *Config) { cfg.Cluster.LeaseTTL = 3 * time.Second }, "a", "b")
	a, b := nodes[0], nodes[1]
	// ghost takes commands and never answers them, as a frozen node.
	done := make(chan struct{})
	ghost, err := cluster.Connect(nats, "ghost", cluster.Options{Prefix: a.prefix, Handler: func(ctx context.Context, _ string, _ []byte) ([]byte, error) {
		select {
		case <-ctx.Done():
		case <-done:
		}
		return nil, errors.New("woken too late")
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		// Its handler ends first: Close waits for it.
		close(done)
		ghost.Close()
	}()
	id, tokens := a.humans(2, 1)
	legal := a.get(id, tokens[0]).State.View.Legal
	if r := a.move(id, tokens[0], 0, legal[0]); r.Version != 1 {
		t.Fatalf("the first move: %+v", r)
	}
	// ghost holds the game for a moment; a finds its lease lost.
	pgtest.Exec(t, db, `UPDATE leases SET node = 'ghost', epoch = epoch + 1, expires = clock_timestamp() + interval '2 seconds' WHERE game = ?`, id)
	eventually(t, "a gives the game up", func() bool {
		a.s.mu.Lock()
		defer a.s.mu.Unlock()
		return a.s.games[id] == nil
	})
	status, body := b.request("GET", "/api/games/"+id, tokens[1], nil)
	if status != 200 {
		t.Fatalf("the game through b, its owner not answering: %d %s", status, body)
	}
	if holder, _, live, err := b.s.node.leases.Holder(context.Background(), id); err != nil || !live || holder == "ghost" {
		t.Errorf("the lease after the request: %q live %v (%v), want a live node's", holder, live, err)
	}
}
