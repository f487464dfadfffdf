package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"

	"github.com/lagoon-games/lagoon/internal/cluster/natstest"
	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
)

// The cluster's tests run three real nodes (lagoon serve processes) on
// loopback ports against real PostgreSQL and NATS (LAGOON_POSTGRES,
// LAGOON_NATS), and kill and freeze them (docs/cluster.md).

// buildLagoon builds this command once for the test, to run as nodes,
// with the race detector when the test has it.
func buildLagoon(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lagoon")
	args := []string{"build", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	out, err := exec.Command("go", append(args, ".")...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// clusterNode is a lagoon serve process of the test's cluster.
type clusterNode struct {
	name, url string
	cmd       *exec.Cmd
	log       *syncBuffer
}

// syncBuffer is a node's log, read while the node writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// testCluster is three nodes on one database schema and NATS prefix of the
// test's own.
type testCluster struct {
	t             *testing.T
	bin, db, nats string
	prefix        string
	args          []string // more flags for every node
	nodes         map[string]*clusterNode
	mu            sync.Mutex
}

// start starts node name on a port of its own and waits until it serves.
func (tc *testCluster) start(name string) *clusterNode {
	tc.t.Helper()
	return tc.startAt(name, "127.0.0.1:0")
}

// startAt starts node name listening on addr and waits until it serves.
func (tc *testCluster) startAt(name, addr string) *clusterNode {
	t := tc.t
	t.Helper()
	// The node's sessions are named after it, for a test to find them
	// in pg_stat_activity.
	args := []string{"serve", "-addr", addr, "-store", tc.db + "&application_name=lagoon-" + name, "-nats", tc.nats, "-node", name,
		"-nats-prefix", tc.prefix, "-bot-delay", "50ms", "-rate", "0"}
	cmd := exec.Command(tc.bin, append(args, tc.args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	n := &clusterNode{name: name, cmd: cmd, log: &syncBuffer{}}
	cmd.Stderr = n.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Kill()
		cmd.Wait()
		if strings.Contains(n.log.String(), "DATA RACE") {
			t.Errorf("node %s ran into a data race", name)
		}
		if t.Failed() {
			t.Logf("node %s's log:\n%s", name, n.log.String())
		}
	})
	br := bufio.NewReader(stdout)
	line, err := br.ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "Lagoon is at ")
	if err != nil || !ok {
		t.Fatalf("node %s printed %q (%v); log:\n%s", name, line, err, n.log.String())
	}
	go io.Copy(io.Discard, br)
	n.url = url
	tc.mu.Lock()
	tc.nodes[name] = n
	tc.mu.Unlock()
	return n
}

// holder returns the node holding game id's lease live, "" if none.
func (tc *testCluster) holder(id string) string {
	// A minute: on a machine loaded far past its cores (load average 50)
	// a connection took more than 10 s.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, tc.db)
	if err != nil {
		tc.t.Fatal(err)
	}
	defer conn.Close(ctx)
	var node string
	err = conn.QueryRow(ctx, `SELECT node FROM leases WHERE game = $1 AND expires > clock_timestamp()`, id).Scan(&node)
	if err == pgx.ErrNoRows {
		return ""
	}
	if err != nil {
		tc.t.Fatal(err)
	}
	return node
}

// waitUntil waits until ok holds, failing the test past a bound far above
// what it takes (the lease time is 6 s).
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// apiCall calls the API and decodes the answer into out, returning the
// status.
func apiCall(t *testing.T, method, url, token, body string, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0 // a node killed under the request
	}
	defer resp.Body.Close()
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// gameState is what the test reads of a game: its version, the legal
// moves of the seat to move, its moves and whether it is over.
type gameState struct {
	ID    string `json:"id"`
	Moves []struct {
		Move string `json:"move"`
	} `json:"moves"`
	State loadState `json:"state"`
	Seats []struct {
		Token string `json:"token"`
	} `json:"seats"`
}

// create makes a game on node n.
func (tc *testCluster) create(n *clusterNode, body string) (gameState, []string) {
	var created struct {
		ID    string `json:"id"`
		Seats []struct {
			Token string `json:"token"`
		} `json:"seats"`
		Game gameState `json:"game"`
	}
	if code := apiCall(tc.t, "POST", n.url+"/api/games", "", body, &created); code != http.StatusCreated {
		tc.t.Fatalf("creating %s on %s: %d", body, n.name, code)
	}
	var tokens []string
	for _, s := range created.Seats {
		tokens = append(tokens, s.Token)
	}
	return created.Game, tokens
}

// game reads game id through node n.
func readGame(t *testing.T, n *clusterNode, id string) (gameState, int) {
	var g gameState
	code := apiCall(t, "GET", n.url+"/api/games/"+id, "", "", &g)
	return g, code
}

// watcher is a WebSocket spectator of a game on one node, reconnecting as
// the web page does and remembering the last version it heard.
type watcher struct {
	mu         sync.Mutex
	version    int
	reconnects int
}

func (w *watcher) last() (int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.version, w.reconnects
}

// watch follows game id on node n until ctx ends.
func watch(ctx context.Context, n *clusterNode, id string) *watcher {
	w := &watcher{version: -1}
	go func() {
		for ctx.Err() == nil {
			w.session(ctx, n, id)
			w.mu.Lock()
			w.reconnects++
			w.mu.Unlock()
			select {
			case <-ctx.Done():
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()
	return w
}

func (w *watcher) session(ctx context.Context, n *clusterNode, id string) {
	c, _, err := websocket.Dial(ctx, strings.Replace(n.url, "http:", "ws:", 1)+"/api/games/"+id+"/ws", nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 22)
	w.mu.Lock()
	hello := fmt.Sprintf(`{"type":"hello","version":%d}`, w.version)
	if w.version < 0 {
		hello = `{"type":"hello"}`
	}
	w.mu.Unlock()
	if c.Write(ctx, websocket.MessageText, []byte(hello)) != nil {
		return
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var m struct {
			Type    string `json:"type"`
			Version int    `json:"version"`
			Game    struct {
				State struct {
					Version int `json:"version"`
				} `json:"state"`
			} `json:"game"`
		}
		json.Unmarshal(data, &m)
		w.mu.Lock()
		switch m.Type {
		case "move":
			w.version = max(w.version, m.Version)
		case "snapshot":
			w.version = m.Game.State.Version
		}
		w.mu.Unlock()
	}
}

// player plays a game's seats by the API through the nodes given, in
// turn, each move sent again (with its version) until a node acknowledges
// it; acked are the acknowledged moves by version.
type player struct {
	t      *testing.T
	id     string
	tokens []string
	mu     sync.Mutex // guards acked, read by the test while the player plays
	acked  map[int]string
	// stop, once closed, ends play: a test that ends early (a Fatal) stops
	// its players before returning, as a goroutine may not fail a test
	// that has ended.
	stop chan struct{}
	// pace is the pause after each acknowledged move.
	pace time.Duration
}

// play makes moves until the game has n, or is over, through the nodes in
// turn. It fails the test with Errorf, so that it may play in a goroutine
// of its own.
func (p *player) play(nodes []*clusterNode, n int) {
	t := p.t
	t.Helper()
	for i := 0; ; i++ {
		if p.stopped() {
			return
		}
		node := nodes[i%len(nodes)]
		var g gameState
		deadline := time.Now().Add(60 * time.Second)
		for {
			var code int
			g, code = readGame(t, node, p.id)
			if code == http.StatusOK {
				break
			}
			if p.stopped() {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("game %s through %s: %d for a minute", p.id, node.name, code)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		if g.State.Over || g.State.Version >= n {
			return
		}
		move := g.State.View.Legal[0]
		var ans struct {
			Version   int  `json:"version"`
			Duplicate bool `json:"duplicate"`
		}
		code := apiCall(t, "POST", node.url+"/api/games/"+p.id+"/moves", p.tokens[g.State.ToMove],
			fmt.Sprintf(`{"version":%d,"move":%q}`, g.State.Version, move), &ans)
		switch code {
		case http.StatusOK:
			p.mu.Lock()
			p.acked[ans.Version] = move
			p.mu.Unlock()
			time.Sleep(p.pace)
		case 0, http.StatusServiceUnavailable, http.StatusConflict:
			// A node killed, the owner moving, or a move made meanwhile:
			// read the game again and go on.
			time.Sleep(100 * time.Millisecond)
		default:
			t.Errorf("move %q at %d through %s: %d", move, g.State.Version, node.name, code)
			return
		}
	}
}

// stopped reports whether the player's test has told it to stop.
func (p *player) stopped() bool {
	select {
	case <-p.stop:
		return true
	default:
		return false
	}
}

// checkAcked checks that every acknowledged move is in game g.
func (p *player) checkAcked(g gameState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for v, move := range p.acked {
		if v > len(g.Moves) || g.Moves[v-1].Move != move {
			p.t.Errorf("game %s: move %d %q was acknowledged, but the game has %d moves", p.id, v, move, len(g.Moves))
		}
	}
}

// TestCluster runs three nodes, plays a game of people through all three
// and games of bots alone of every game, kills the owner (kill -9): the games are owned
// by another node within the lease, the people's game goes on through the
// survivors, no acknowledged move is lost, the bots keep playing, and a
// spectator on a surviving node follows without a reload. Then it freezes
// an owner (SIGSTOP) past its lease and wakes it: its lease is gone, it
// gives the game up, and the game goes on elsewhere. Last, the owner is
// stopped as for an upgrade (SIGTERM): its lease is released at once.
func TestCluster(t *testing.T) {
	tc := &testCluster{t: t, db: pgtest.URL(t), nats: natstest.URL(t), prefix: "lagoontest_" + rand.Text()[:10], nodes: map[string]*clusterNode{}}
	tc.bin = buildLagoon(t)
	a, b, c := tc.start("n1"), tc.start("n2"), tc.start("n3")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// lagoon loadtest drives the cluster: each game made through one node,
	// its two clients on two others, every move checked against the
	// record.
	var out strings.Builder
	addrs := strings.Join([]string{strings.TrimPrefix(a.url, "http://"), strings.TrimPrefix(b.url, "http://"), strings.TrimPrefix(c.url, "http://")}, ",")
	if code := run([]string{"loadtest", "-addr", addrs, "-games", "3", "-moves", "30", "-think", "150ms", "-sources", "0"}, nil, &out, &out); code != 0 ||
		!strings.Contains(out.String(), "0 errors, 0 moves lost, 0 moves doubled") {
		t.Fatalf("lagoon loadtest through three nodes: exit %d\n%s", code, out.String())
	}

	people, tokens := tc.create(a, `{"game":"bluelagoon","seats":[{"kind":"human","name":"Ann"},{"kind":"human","name":"Bob"}],"seed":3}`)
	bots, _ := tc.create(a, `{"game":"bluelagoon","seats":[{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}],"seed":4,"time":{"kind":"none"}}`)
	// Bots play the other games, Laguna (with its glass) and the Druids,
	// on the node that will be killed.
	var botGames []gameState
	for _, id := range []string{"laguna", "druids"} {
		g, _ := tc.create(a, `{"game":"`+id+`","seats":[{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}],"seed":5}`)
		botGames = append(botGames, g)
	}
	if h := tc.holder(people.ID); h != "n1" {
		t.Fatalf("the game made on n1 is held by %q", h)
	}
	spectator := watch(ctx, c, people.ID)
	botWatcher := watch(ctx, b, bots.ID)
	p := &player{t: t, id: people.ID, tokens: tokens, acked: map[int]string{}}
	p.play([]*clusterNode{a, b, c}, 6)
	waitUntil(t, "the spectator on n3 sees the moves made through n1, n2 and n3", func() bool {
		v, _ := spectator.last()
		return v >= 6
	})
	waitUntil(t, "the bots play, watched from n2", func() bool {
		v, _ := botWatcher.last()
		return v >= 2
	})

	// kill -9 the owner of both games.
	killed := time.Now()
	a.cmd.Process.Signal(syscall.SIGKILL)
	a.cmd.Wait()
	waitUntil(t, "another node takes the games of the killed node", func() bool {
		for _, g := range append([]gameState{people, bots}, botGames...) {
			if h := tc.holder(g.ID); h == "" || h == "n1" {
				if g, _ := readGame(t, b, g.ID); !g.State.Over {
					return false
				}
			}
		}
		return true
	})
	t.Logf("the games were taken over %v after the kill (lease 6 s)", time.Since(killed).Round(100*time.Millisecond))
	_, reconnectsBefore := spectator.last()
	p.play([]*clusterNode{b, c}, 12)
	waitUntil(t, "the spectator on n3 sees the moves after the failover", func() bool {
		v, _ := spectator.last()
		return v >= 12
	})
	if _, r := spectator.last(); r-reconnectsBefore > 3 {
		t.Errorf("the spectator reconnected %d times over the failover", r-reconnectsBefore)
	}
	for _, g := range append([]gameState{bots}, botGames...) {
		at, _ := readGame(t, b, g.ID)
		waitUntil(t, "the bots of "+g.ID+" go on, on the new owner", func() bool {
			now, _ := readGame(t, c, g.ID)
			return now.State.Over || now.State.Version > at.State.Version
		})
	}
	g, _ := readGame(t, c, people.ID)
	p.checkAcked(g)

	// SIGSTOP the people's game's owner past its lease, then wake it.
	owner := tc.nodes[tc.holder(people.ID)]
	others := slices.DeleteFunc([]*clusterNode{b, c}, func(n *clusterNode) bool { return n == owner })
	owner.cmd.Process.Signal(syscall.SIGSTOP)
	waitUntil(t, "another node takes the frozen owner's game", func() bool {
		h := tc.holder(people.ID)
		return h != "" && h != owner.name
	})
	p.play(others, 16)
	owner.cmd.Process.Signal(syscall.SIGCONT)
	waitUntil(t, "the woken owner gives the game up", func() bool {
		return strings.Contains(owner.log.String(), "game given up")
	})
	// Through the woken node, the game is the new owner's.
	p.play([]*clusterNode{owner}, 18)

	// A node stopped as for an upgrade (SIGTERM) stores its clocks and
	// releases its leases: the game is taken by the next request for it,
	// without waiting out the lease, and nothing is lost.
	last := tc.nodes[tc.holder(people.ID)]
	last.cmd.Process.Signal(syscall.SIGTERM)
	if err := last.cmd.Wait(); err != nil {
		t.Fatalf("node %s stopped with %v", last.name, err)
	}
	if h := tc.holder(people.ID); h == last.name {
		t.Errorf("node %s stopped, and still holds its game", last.name)
	}
	rest := slices.DeleteFunc([]*clusterNode{b, c}, func(n *clusterNode) bool { return n == last })
	p.play(rest, 20)
	g, _ = readGame(t, rest[0], people.ID)
	p.checkAcked(g)
	if len(g.Moves) < 20 {
		t.Errorf("the game has %d moves, 20 were played", len(g.Moves))
	}
}

// TestClusterRollingRestart stops each of three nodes in turn as for an
// upgrade (SIGTERM) and starts it again on its address, while people play
// games through every node in turn and bots play games of their own: every
// acknowledged move is in the final records, and every game is played to
// its end. It logs how long each stopped node's games waited for an owner.
func TestClusterRollingRestart(t *testing.T) {
	tc := &testCluster{t: t, db: pgtest.URL(t), nats: natstest.URL(t), prefix: "lagoontest_" + rand.Text()[:10], nodes: map[string]*clusterNode{}}
	tc.bin = buildLagoon(t)
	nodes := []*clusterNode{tc.start("n1"), tc.start("n2"), tc.start("n3")}
	var players []*player
	var games []string
	var wg sync.WaitGroup
	stop := make(chan struct{})
	defer wg.Wait()
	defer close(stop)
	for i, n := range nodes {
		people, tokens := tc.create(n, fmt.Sprintf(`{"game":"bluelagoon","seats":[{"kind":"human","name":"Ann"},{"kind":"human","name":"Bob"}],"seed":%d}`, 10+i))
		bots, _ := tc.create(n, fmt.Sprintf(`{"game":"bluelagoon","seats":[{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}],"seed":%d,"time":{"kind":"none"}}`, 20+i))
		players = append(players, &player{t: t, id: people.ID, tokens: tokens, acked: map[int]string{}, stop: stop})
		games = append(games, people.ID, bots.ID)
	}
	for _, p := range players {
		// Played to its end, through n1, n2 and n3 in turn, whichever is
		// down meanwhile.
		wg.Go(func() { p.play(nodes, math.MaxInt) })
	}
	versions := func(through *clusterNode) []int {
		var out []int
		for _, id := range games {
			g, _ := readGame(t, through, id)
			out = append(out, g.State.Version)
		}
		return out
	}
	for i, n := range nodes {
		up := nodes[(i+1)%len(nodes)]
		// The games move on before each stop: the one before is over.
		before := versions(up)
		waitUntil(t, "every game moves on before "+n.name+" stops", func() bool {
			for j, v := range versions(up) {
				if g, _ := readGame(t, up, games[j]); v == before[j] && !g.State.Over {
					return false
				}
			}
			return true
		})
		var held []string
		for _, id := range games {
			if tc.holder(id) == n.name {
				held = append(held, id)
			}
		}
		stopped := time.Now()
		n.cmd.Process.Signal(syscall.SIGTERM)
		if err := n.cmd.Wait(); err != nil {
			t.Errorf("node %s stopped with %v", n.name, err)
		}
		waitUntil(t, "the games of "+n.name+" are owned again", func() bool {
			for _, id := range held {
				if h := tc.holder(id); h == "" || h == n.name {
					if g, _ := readGame(t, up, id); !g.State.Over {
						return false
					}
				}
			}
			return true
		})
		t.Logf("node %s stopped: its %d games in progress were owned again after %v", n.name, len(held), time.Since(stopped).Round(10*time.Millisecond))
		tc.startAt(n.name, strings.TrimPrefix(n.url, "http://"))
	}
	wg.Wait()
	for _, p := range players {
		g, _ := readGame(t, nodes[0], p.id)
		p.checkAcked(g)
		if !g.State.Over {
			t.Errorf("the people's game %s ended at version %d, not over", p.id, g.State.Version)
		}
	}
	for _, id := range games {
		waitUntil(t, "game "+id+" is played to its end", func() bool {
			g, _ := readGame(t, nodes[0], id)
			return g.State.Over
		})
	}
}

// TestServeClusterBadInput: the cluster's flags wrong, or its servers not
// answering, stop lagoon serve at start with a clear error, and nothing is
// written to the database.
// TestClusterSecureNATS runs two nodes on a NATS server of the test's own
// that speaks TLS with a certificate of the test's CA and lets in only its
// users, the nodes' with the permissions docs/operations.md gives them. A
// client without a user is refused; the nodes play a game of people
// through both, with a spectator on the node that does not own it; a
// forged move and game over that another user of that NATS publishes on
// the game's subject never reach the spectator, which is not made to
// reconnect, and the next real move does.
func TestClusterSecureNATS(t *testing.T) {
	dir := t.TempDir()
	ca := natstest.NewCA(t, filepath.Join(dir, "ca"))
	cert, key := ca.Issue(t, "server", true)
	prefix := "lagoontest_" + rand.Text()[:10]
	conf := filepath.Join(dir, "nats.conf")
	allowed := fmt.Sprintf(`["%s.>", "_INBOX.>"]`, prefix)
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(`tls { cert_file: %q, key_file: %q }
authorization { users = [
  { user: lagoon, password: right, permissions: { publish: %s, subscribe: %s } }
  { user: intruder, password: other }
] }
`, cert, key, allowed, allowed)), 0o600); err != nil {
		t.Fatal(err)
	}
	password := filepath.Join(dir, "password")
	if err := os.WriteFile(password, []byte("right\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := natstest.Own(t, "-c", conf)
	if nc, err := nats.Connect(srv.URL(), nats.RootCAs(ca.File)); err == nil {
		nc.Close()
		t.Fatal("a client without a user was let in")
	}
	tc := &testCluster{t: t, db: pgtest.URL(t), nats: srv.URL(), prefix: prefix, nodes: map[string]*clusterNode{},
		args: []string{"-nats-user", "lagoon", "-nats-password-file", password, "-nats-ca", ca.File}}
	tc.bin = buildLagoon(t)
	a, b := tc.start("n1"), tc.start("n2")
	g, tokens := tc.create(a, `{"game":"bluelagoon","seats":[{"kind":"human","name":"Ann"},{"kind":"human","name":"Bob"}],"seed":3}`)
	p := &player{t: t, id: g.ID, tokens: tokens, acked: map[int]string{}, stop: make(chan struct{})}
	defer close(p.stop)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := watch(ctx, b, g.ID)
	p.play([]*clusterNode{b}, 1)
	waitUntil(t, "the spectator on n2 sees the first move", func() bool { v, _ := w.last(); return v == 1 })

	intruder, err := nats.Connect(srv.URL(), nats.RootCAs(ca.File), nats.UserInfo("intruder", "other"))
	if err != nil {
		t.Fatal(err)
	}
	defer intruder.Close()
	for i, f := range []struct {
		node  string
		epoch int
		msg   string
	}{
		{"n1", 1000, `{"type":"move","version":7,"move":"forged"}`},
		{"n1", 1000, `{"type":"game_over","version":7}`},
		{"mallory", 1, `{"type":"move","version":8,"move":"forged"}`},
	} {
		ev := fmt.Sprintf(`{"v":1,"game":%q,"node":%q,"stream":"forged","epoch":%d,"seq":%d,"version":7,"body":{"all":[%s],"move":true}}`, g.ID, f.node, f.epoch, i+1, f.msg)
		if err := intruder.Publish(prefix+".game."+g.ID+".ev", []byte(ev)); err != nil {
			t.Fatal(err)
		}
	}
	if err := intruder.Flush(); err != nil {
		t.Fatal(err)
	}
	p.play([]*clusterNode{b}, 2)
	waitUntil(t, "the spectator on n2 sees the second move", func() bool { v, _ := w.last(); return v >= 2 })
	if v, reconnects := w.last(); v != 2 || reconnects != 0 {
		t.Errorf("the spectator is at version %d after %d reconnections, want 2 and none", v, reconnects)
	}
	final, _ := readGame(t, a, g.ID)
	p.checkAcked(final)
	if log := b.log.String(); !strings.Contains(log, "refused events not sent by their game's owner") {
		t.Errorf("n2 did not log the forged events; its log:\n%s", log)
	}
}

func TestServeClusterBadInput(t *testing.T) {
	nats := natstest.URL(t)
	db := pgtest.URL(t)
	u, err := url.Parse(db)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("nosuchrole", "wrong")
	badUser := u.String()
	// NATS servers that want credentials and TLS: a node they take gets
	// as far as the database, which refuses badUser.
	dir := t.TempDir()
	file := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
	right, wrong, empty := file("right", "right\n"), file("wrong", "wrong\n"), file("empty", "\n")
	withUser := natstest.Own(t, "--user", "lagoon", "--pass", "right").URL()
	withToken := natstest.Own(t, "--auth", "right").URL()
	ca := natstest.NewCA(t, filepath.Join(dir, "ca"))
	cert, key := ca.Issue(t, "server", true)
	withTLS := natstest.Own(t, "--tls", "--tlscert", cert, "--tlskey", key).URL()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"nats without postgres", []string{"-data", t.TempDir(), "-nats", nats}, 2, "it needs -store postgres://"},
		{"node without nats", []string{"-store", db, "-node", "n1"}, 2, "-node names a node of a cluster: it needs -nats"},
		{"nats that does not answer", []string{"-store", db, "-nats", "nats://127.0.0.1:1", "-node", "n1"}, 1, "127.0.0.1:1"},
		{"database credentials refused", []string{"-store", badUser, "-nats", nats, "-node", "n1", "-nats-prefix", "lagoontest_" + rand.Text()[:10]}, 1, "nosuchrole"},
		{"nats credentials without nats", []string{"-data", t.TempDir(), "-nats-user", "lagoon"}, 2, "they need -nats"},
		{"a nats password file missing", []string{"-store", db, "-nats", withUser, "-nats-user", "lagoon", "-nats-password-file", filepath.Join(dir, "nosuchfile")}, 2, "nosuchfile"},
		{"a nats password file empty", []string{"-store", db, "-nats", withUser, "-nats-user", "lagoon", "-nats-password-file", empty}, 2, "is empty"},
		{"nats user without a password", []string{"-store", db, "-nats", withUser, "-nats-user", "lagoon"}, 1, "without a password"},
		{"nats password refused", []string{"-store", db, "-nats", withUser, "-nats-user", "lagoon", "-nats-password-file", wrong}, 1, "refused the node's credentials"},
		{"nats password taken", []string{"-store", badUser, "-nats", withUser, "-nats-user", "lagoon", "-nats-password-file", right}, 1, "nosuchrole"},
		{"nats token refused", []string{"-store", db, "-nats", withToken, "-nats-token-file", wrong}, 1, "refused the node's credentials"},
		{"nats token taken", []string{"-store", badUser, "-nats", withToken, "-nats-token-file", right}, 1, "nosuchrole"},
		{"nats TLS without its CA", []string{"-store", db, "-nats", withTLS}, 1, "does not sign"},
		{"nats TLS with its CA", []string{"-store", badUser, "-nats", withTLS, "-nats-ca", ca.File}, 1, "nosuchrole"},
		{"nats client certificate without its key", []string{"-store", db, "-nats", withTLS, "-nats-ca", ca.File, "-nats-cert", cert}, 1, "both its certificate and its key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := run(append([]string{"serve", "-addr", "127.0.0.1:0"}, tc.args...), nil, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, want %d, with %q in:\n%s", code, tc.code, tc.want, stderr.String())
			}
			if strings.Contains(stderr.String(), "wrong") {
				t.Errorf("the password is in the error:\n%s", stderr.String())
			}
			if n := pgtest.QueryInt(t, db, `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()`); n != 0 {
				t.Errorf("%d tables were made", n)
			}
		})
	}
}
