package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

func runLoadtest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: lagoon loadtest [flags]

Plays many games at once against a running server (lagoon serve), each
between two simulated people over real HTTP and WebSocket connections, and
reports the games finished, the moves a second, and the latency from sending
a move to receiving its broadcast. Every game is then checked against the
server's record: no move lost, none doubled. The people play at random
among the legal moves their view lists ("legal"), in any game whose view
does (Blue Lagoon's, the server's default, does). The games keep no time.

A game random play does not finish, Laguna's, is played to -moves moves
and left in progress, and its latency is measured for -measure's moves
alone; with -game laguna they default to 200 moves and the raft's steps
(N E S W), the issue's figure:

  lagoon loadtest -game laguna -games 500

While they play, a client polls /api/lobby and /api/health and reports
their latencies and the server's bot queue. With -bot-games, that many
games of -bot-level bots alone think meanwhile, and every 2 seconds a
person starts a game against an easy bot that moves first: the report
gives the time from creating it to the bot's first move (run the server
with -bot-delay 0 to measure the thinking and the queue alone). With
-person-bot-games, that many games of a person against a -bot-level bot
are played from one address, the person moving 150 ms after it is their
turn, and the person's easy bot is probed the same way: one address
keeping the bots busy, as in issue 28:

  lagoon loadtest -games 20 -person-bot-games 20 -bot-level max

With -person-bot-addrs those games are spread over as many source
addresses, round robin: many people each keeping the bots busy, as in
issue 47, where twenty addresses of one game against max kept the probe
waiting a minute:

  lagoon loadtest -games 20 -person-bot-games 20 -person-bot-addrs 20 -bot-level max

Flags:`)
		fs.PrintDefaults()
	}
	cfg := loadConfig{}
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8080", "the server's address; loopback only. Several, separated by commas, are the nodes of a cluster: the games are created through each in turn, and a game's two clients on different nodes")
	fs.StringVar(&cfg.game, "game", "", "the game played, by its id (default: the server's first)")
	fs.IntVar(&cfg.games, "games", 1000, "games played at once, with two clients each")
	fs.DurationVar(&cfg.think, "think", time.Second, "a client's mean thinking time before each move")
	fs.IntVar(&cfg.sources, "sources", 250, "loopback source addresses (127.0.0.2 and up) the clients are spread over, as many people on as many machines would be")
	fs.DurationVar(&cfg.timeout, "timeout", 30*time.Minute, "give up after this long")
	fs.DurationVar(&cfg.poll, "poll", 200*time.Millisecond, "how often /api/lobby and /api/health are polled while the games are played")
	fs.IntVar(&cfg.botGames, "bot-games", 0, "games of bots alone thinking meanwhile, each created from another source address")
	fs.IntVar(&cfg.personBotGames, "person-bot-games", 0, "games of a person against a bot thinking meanwhile, all from one source address, the person moving 150 ms after it is their turn")
	fs.IntVar(&cfg.personBotAddrs, "person-bot-addrs", 1, "the source addresses the -person-bot-games are spread over, round robin (at most -sources less 2: the poller and the probes keep addresses of their own)")
	fs.StringVar(&cfg.botLevel, "bot-level", "max", "the level of the bots of -bot-games and -person-bot-games")
	fs.IntVar(&cfg.moves, "moves", 0, "stop each game after this many moves, leaving it in progress (default: play it to its end; 200 for laguna)")
	measure := fs.String("measure", "", `the moves whose latency is measured, their texts separated by spaces (default: every move; the steps "N E S W" for laguna)`)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if h, err := hostedByID(cfg.game); err == nil {
		if !set["moves"] {
			cfg.moves = h.load.moves
		}
		if !set["measure"] {
			*measure = h.load.measure
		}
	}
	cfg.measure = strings.Fields(*measure)
	if fs.NArg() > 0 || cfg.games < 1 || cfg.sources < 0 || cfg.sources > 250 || cfg.think < 0 || cfg.moves < 0 || cfg.botGames < 0 || cfg.personBotGames < 0 ||
		cfg.personBotAddrs < 1 || (cfg.personBotGames > 0 && cfg.personBotAddrs > cfg.sources-2) {
		fmt.Fprintln(stderr, "lagoon loadtest: bad arguments; see lagoon loadtest -h")
		return 2
	}
	rep, err := loadtest(cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "lagoon loadtest: %v\n", err)
		return 1
	}
	rep.write(stdout)
	if !rep.clean(cfg.games) {
		return 1
	}
	return 0
}

type loadConfig struct {
	addr    string
	game    string
	games   int
	think   time.Duration
	sources int
	timeout time.Duration
	poll    time.Duration
	// botGames games of bots of botLevel alone, personBotGames games of
	// a person against one from personBotAddrs addresses, and with either
	// a person's probe games against an easy bot.
	botGames       int
	personBotGames int
	personBotAddrs int
	botLevel       string
	// moves, if not 0, stops each game after that many moves, left in
	// progress; measure, if not empty, are the moves whose latency is
	// measured.
	moves   int
	measure []string
}

// loadReport is what a load test measured.
type loadReport struct {
	games, finished  int
	clients          int // connected at once, before the first move
	moves            int
	playing          time.Duration
	latencies        []time.Duration
	errors           int
	lost, doubled    int
	firstErrors      []string
	rateLimitedWaits int

	stopAt   int      // the moves a game was stopped at, 0 for none
	measured []string // the moves whose latency was measured, all if none

	lobby, health []time.Duration // the polls' latencies
	botQueue      int             // the most bot moves seen waiting
	botOldest     time.Duration   // the longest a bot move was seen waiting
	replies       []time.Duration // the easy bot's first replies to a person
}

func (r *loadReport) clean(games int) bool {
	return r.finished == games && r.errors == 0 && r.lost == 0 && r.doubled == 0
}

func (r *loadReport) write(w io.Writer) {
	done := "finished"
	if r.stopAt > 0 {
		done = fmt.Sprintf("played to their end or to %d moves", r.stopAt)
	}
	fmt.Fprintf(w, "games:    %d %s of %d, all %d in progress at once with %d clients connected\n", r.finished, done, r.games, r.games, r.clients)
	fmt.Fprintf(w, "moves:    %d in %.1f s, %.0f moves/s\n", r.moves, r.playing.Seconds(), float64(r.moves)/r.playing.Seconds())
	of := "move"
	if len(r.measured) > 0 {
		of = strings.Join(r.measured, " ")
	}
	fmt.Fprintf(w, "latency:  %s to broadcast %s (%d broadcasts received)\n", of, percentiles(r.latencies), len(r.latencies))
	fmt.Fprintf(w, "lobby:    GET /api/lobby %s (%d polls)\n", percentiles(r.lobby), len(r.lobby))
	fmt.Fprintf(w, "health:   GET /api/health %s (%d polls)\n", percentiles(r.health), len(r.health))
	fmt.Fprintf(w, "bots:     at most %d bot moves waiting, the oldest for %.0f ms\n", r.botQueue, float64(r.botOldest)/float64(time.Millisecond))
	if len(r.replies) > 0 {
		fmt.Fprintf(w, "fairness: an easy bot's first reply to a person %s (%d games)\n", percentiles(r.replies), len(r.replies))
	}
	fmt.Fprintf(w, "checked:  %d errors, %d moves lost, %d moves doubled (%d waits for a rate limit)\n", r.errors, r.lost, r.doubled, r.rateLimitedWaits)
	for _, e := range r.firstErrors {
		fmt.Fprintf(w, "  error: %s\n", e)
	}
}

// percentiles describes durations by their p50, p95, p99 and max.
func percentiles(ds []time.Duration) string {
	ds = slices.Sorted(slices.Values(ds))
	pct := func(p float64) string {
		if len(ds) == 0 {
			return "-"
		}
		d := ds[min(len(ds)-1, int(p*float64(len(ds))))]
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("p50 %s, p95 %s, p99 %s, max %s", pct(0.50), pct(0.95), pct(0.99), pct(1))
}

// loadtest runs a load test.
func loadtest(cfg loadConfig, log io.Writer) (*loadReport, error) {
	var bases []string
	for addr := range strings.SplitSeq(cfg.addr, ",") {
		ipv4, err := loopback(addr)
		if err != nil {
			return nil, err
		}
		if !ipv4 {
			cfg.sources = 0 // 127.0.0.x cannot reach an IPv6 loopback
		}
		bases = append(bases, "http://"+addr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	lt := &loadRun{cfg: cfg, base: bases[0], bases: bases, clients: sourceClients(cfg.sources),
		rep: &loadReport{games: cfg.games, stopAt: cfg.moves, measured: cfg.measure}, cancel: cancel}
	fmt.Fprintf(log, "creating %d games...\n", cfg.games)
	if err := lt.createGames(ctx); err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "connecting %d clients...\n", 2*cfg.games)
	start := make(chan struct{})
	finished := lt.connectAll(ctx, start)
	if cfg.botGames > 0 {
		fmt.Fprintf(log, "creating %d games of %s bots alone...\n", cfg.botGames, cfg.botLevel)
		if err := lt.createBotGames(ctx); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(log, "%d clients connected; playing...\n", lt.rep.clients)
	lt.playAll(ctx, start, finished)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		lt.fail("the games did not finish within %v", cfg.timeout)
	}
	fmt.Fprintln(log, "checking every game against the server's record...")
	cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer ccancel()
	lt.check(cctx)
	return lt.rep, nil
}

// loopback checks that addr is a loopback address (the load test only runs
// on this machine) and reports whether it is an IPv4 one.
func loopback(addr string) (ipv4 bool, err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return false, fmt.Errorf("%s does not resolve: %v", host, err)
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return false, fmt.Errorf("%s is not a loopback address; the load test only runs on this machine", addr)
		}
	}
	return ips[0].To4() != nil, nil
}

// sourceClients returns an HTTP client for each source address, 127.0.0.2
// and on, or one client from the default address if sources is 0.
func sourceClients(sources int) []*http.Client {
	clients := make([]*http.Client, max(1, sources))
	for i := range clients {
		d := &net.Dialer{Timeout: 10 * time.Second}
		if sources > 0 {
			d.LocalAddr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i))}
		}
		clients[i] = &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 8}, Timeout: time.Minute}
	}
	return clients
}

// connectAll starts both clients of every game, which play once start is
// closed, and returns when each has connected or failed to; what it
// returns is done when every client has finished.
func (lt *loadRun) connectAll(ctx context.Context, start <-chan struct{}) *sync.WaitGroup {
	var connected, finished sync.WaitGroup
	var failedToConnect atomic.Int64
	for i, g := range lt.games {
		for seat := range 2 {
			connected.Add(1)
			finished.Go(func() {
				if err := lt.play(ctx, g, 2*i+seat, seat, &connected, start); err != nil {
					// One client failing leaves its opponent waiting: stop
					// the test and report that failure, not the clients it
					// stopped.
					if ctx.Err() == nil {
						lt.fail("game %s seat %d: %v", g.id, seat, err)
						lt.cancel()
					}
					if !g.clients[seat].ready {
						failedToConnect.Add(1)
						connected.Done()
					}
				}
			})
		}
	}
	connected.Wait()
	lt.rep.clients = 2*lt.cfg.games - int(failedToConnect.Load())
	return &finished
}

// playAll starts the clients and waits for them to finish, polling the
// server (and probing the bots' fairness, with games of bots alone) the
// while.
func (lt *loadRun) playAll(ctx context.Context, start chan struct{}, finished *sync.WaitGroup) {
	began := time.Now()
	close(start)
	pctx, stopPolls := context.WithCancel(ctx)
	var polls sync.WaitGroup
	polls.Go(func() { lt.pollServer(pctx) })
	for i := range lt.cfg.personBotGames {
		polls.Go(func() { lt.playBot(pctx, i) })
	}
	if lt.cfg.botGames > 0 || lt.cfg.personBotGames > 0 {
		polls.Go(func() { lt.probeFairness(pctx) })
	}
	finished.Wait()
	lt.rep.playing = time.Since(began)
	stopPolls()
	polls.Wait()
}

// loadRun is a load test under way.
type loadRun struct {
	cfg     loadConfig
	base    string         // the first node's URL, for what is asked of the server as a whole
	bases   []string       // every node's URL
	clients []*http.Client // one per source address
	games   []*loadGame
	cancel  context.CancelFunc

	mu  sync.Mutex
	rep *loadReport
}

// loadGame is one game of the test and its two clients.
type loadGame struct {
	id      string
	tokens  [2]string
	clients [2]loadClient

	mu     sync.Mutex
	sentAt map[int]time.Time // version a move will make -> when it was sent, for a move measured
}

// loadClient is what one simulated person saw.
type loadClient struct {
	ready bool
	acked map[int]string // version -> the move this client was acknowledged
	seen  []string       // the moves broadcast, in order
	over  bool           // the game ended, or reached the moves it is stopped at
}

func (lt *loadRun) fail(format string, args ...any) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	lt.rep.errors++
	if len(lt.rep.firstErrors) < 10 {
		lt.rep.firstErrors = append(lt.rep.firstErrors, fmt.Sprintf(format, args...))
	}
}

func (lt *loadRun) client(i int) *http.Client { return lt.clients[i%len(lt.clients)] }

// node returns the URL of the node that client or game i goes through.
func (lt *loadRun) node(i int) string { return lt.bases[i%len(lt.bases)] }

// request makes an API request of the first node, waiting out rate
// limits.
func (lt *loadRun) request(ctx context.Context, hc *http.Client, method, path string, body any, out any) error {
	return lt.requestOf(ctx, lt.base, hc, method, path, body, out)
}

// requestOf is request of the node at base.
func (lt *loadRun) requestOf(ctx context.Context, base string, hc *http.Client, method, path string, body any, out any) error {
	for {
		var r io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			r = strings.NewReader(string(b))
		}
		req, err := http.NewRequestWithContext(ctx, method, base+path, r)
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			lt.mu.Lock()
			lt.rep.rateLimitedWaits++
			lt.mu.Unlock()
			select {
			case <-time.After(time.Duration(max(wait, 1)) * time.Second):
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return json.Unmarshal(b, out)
	}
}

func (lt *loadRun) createGames(ctx context.Context) error {
	lt.games = make([]*loadGame, lt.cfg.games)
	jobs := make(chan int)
	errs := make(chan error, lt.cfg.games)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for i := range jobs {
				var created struct {
					ID    string `json:"id"`
					Seats []struct {
						Seat  int    `json:"seat"`
						Token string `json:"token"`
					} `json:"seats"`
				}
				// No time: a turn timer would make moves of its own.
				req := map[string]any{"seats": []map[string]string{{"kind": "human", "name": "Load A"}, {"kind": "human", "name": "Load B"}},
					"time": map[string]string{"kind": "none"}}
				if lt.cfg.game != "" {
					req["game"] = lt.cfg.game
				}
				if err := lt.requestOf(ctx, lt.node(i), lt.client(i), "POST", "/api/games", req, &created); err != nil {
					errs <- err
					continue
				}
				g := &loadGame{id: created.ID, sentAt: make(map[int]time.Time)}
				for _, s := range created.Seats {
					g.tokens[s.Seat] = s.Token
				}
				lt.games[i] = g
			}
		})
	}
	for i := range lt.cfg.games {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return fmt.Errorf("creating the games: %w", err)
	}
	return nil
}

// loadState is the part of a state the clients read: the legal moves are
// in the game's view of the seat.
type loadState struct {
	Version int  `json:"version"`
	ToMove  int  `json:"to_move"`
	Over    bool `json:"over"`
	View    struct {
		Legal []string `json:"legal"`
	} `json:"view"`
}

// loadMessage is the part of the server's messages the clients read.
type loadMessage struct {
	Type      string     `json:"type"`
	ID        string     `json:"id"`
	Version   int        `json:"version"`
	Move      string     `json:"move"`
	Duplicate bool       `json:"duplicate"`
	Code      string     `json:"code"`
	Message   string     `json:"message"`
	State     *loadState `json:"state"`
	Game      *struct {
		State loadState `json:"state"`
	} `json:"game"`
}

// play is one simulated person: it connects, waits for the start, and plays
// its seat to the end of the game, thinking before each move.
func (lt *loadRun) play(ctx context.Context, g *loadGame, idx, seat int, connected *sync.WaitGroup, start <-chan struct{}) error {
	p := &loadSeat{lt: lt, g: g, me: &g.clients[seat], seat: seat, pending: make(map[int]string),
		rng: rand.New(rand.NewPCG(uint64(idx), 7))}
	p.me.acked = make(map[int]string)
	if err := p.connect(ctx, idx); err != nil {
		return err
	}
	defer p.c.CloseNow()
	if err := p.awaitSnapshot(); err != nil {
		return err
	}
	p.me.ready = true
	connected.Done()
	select {
	case <-start:
	case <-ctx.Done():
		return ctx.Err()
	}
	p.thinkIfMyTurn()
	for {
		select {
		case <-p.think:
			if err := p.move(ctx); err != nil {
				return err
			}
		case m := <-p.msgs:
			if done, err := p.handle(m); done || err != nil {
				return err
			}
		case err := <-p.readErr:
			return fmt.Errorf("connection lost at version %d: %w", p.version, err)
		}
	}
}

// loadSeat is one simulated person at its seat: its connection, what it
// knows of the game, and its moves sent and not yet acknowledged.
type loadSeat struct {
	lt   *loadRun
	g    *loadGame
	me   *loadClient
	seat int
	rng  *rand.Rand

	c       *websocket.Conn
	msgs    chan loadMessage
	readErr chan error

	version, current int
	over             bool
	legal            []string
	think            <-chan time.Time
	// pending are the moves sent and not yet acknowledged, by the version
	// they were made against: when a seat moves twice in a row, its next
	// move may go before the ack of the last.
	pending map[int]string
}

// connect opens the seat's connection, says hello, and starts reading.
func (p *loadSeat) connect(ctx context.Context, idx int) error {
	url := "ws" + strings.TrimPrefix(p.lt.node(idx), "http") + "/api/games/" + p.g.id + "/ws"
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: p.lt.client(idx)})
	if err != nil {
		return fmt.Errorf("connecting: %w", err)
	}
	c.SetReadLimit(1 << 20)
	p.c, p.msgs, p.readErr = c, make(chan loadMessage, 64), make(chan error, 1)
	if err := p.write(ctx, map[string]any{"type": "hello", "token": p.g.tokens[p.seat]}); err != nil {
		c.CloseNow()
		return err
	}
	go p.read(ctx)
	return nil
}

func (p *loadSeat) write(ctx context.Context, v any) error {
	b, _ := json.Marshal(v)
	return p.c.Write(ctx, websocket.MessageText, b)
}

// read passes the server's messages on to the seat, timing the moves
// measured, until the connection fails.
func (p *loadSeat) read(ctx context.Context) {
	for {
		_, data, err := p.c.Read(ctx)
		if err != nil {
			p.readErr <- err
			return
		}
		// Received when read, before this client decodes it: decoding is
		// the client's own work, not the server's latency.
		received := time.Now()
		var m loadMessage
		if err := json.Unmarshal(data, &m); err != nil {
			p.readErr <- fmt.Errorf("a message that is not JSON: %w", err)
			return
		}
		if m.Type == "move" {
			p.g.mu.Lock()
			sent, ok := p.g.sentAt[m.Version]
			p.g.mu.Unlock()
			if ok {
				p.lt.mu.Lock()
				p.lt.rep.latencies = append(p.lt.rep.latencies, received.Sub(sent))
				p.lt.mu.Unlock()
			}
		}
		p.msgs <- m
	}
}

// awaitSnapshot waits for the game the server sends after the hello.
func (p *loadSeat) awaitSnapshot() error {
	for {
		select {
		case m := <-p.msgs:
			if m.Type == "snapshot" && m.Game != nil {
				st := m.Game.State
				p.version, p.current, p.over, p.legal = st.Version, st.ToMove, st.Over, st.View.Legal
				return nil
			}
		case err := <-p.readErr:
			return fmt.Errorf("before the snapshot: %w", err)
		}
	}
}

// thinkIfMyTurn starts the seat's thinking when it is to move.
func (p *loadSeat) thinkIfMyTurn() {
	if !p.over && p.current == p.seat {
		d := time.Duration(float64(p.lt.cfg.think) * (0.5 + p.rng.Float64()))
		p.think = time.After(d)
	}
}

// move sends a random legal move, thought over.
func (p *loadSeat) move(ctx context.Context) error {
	p.think = nil
	m := p.legal[p.rng.IntN(len(p.legal))]
	p.pending[p.version] = m
	if len(p.lt.cfg.measure) == 0 || slices.Contains(p.lt.cfg.measure, m) {
		p.g.mu.Lock()
		p.g.sentAt[p.version+1] = time.Now()
		p.g.mu.Unlock()
	}
	return p.write(ctx, map[string]any{"type": "move", "id": strconv.Itoa(p.version), "version": p.version, "move": m})
}

// handle takes one message of the server and reports whether the seat is
// done: the game over (or played to the moves it is stopped at) with
// every move it sent acknowledged.
func (p *loadSeat) handle(m loadMessage) (bool, error) {
	switch m.Type {
	case "move":
		if m.Version != p.version+1 || m.State == nil {
			return false, fmt.Errorf("event for version %d after version %d", m.Version, p.version)
		}
		p.me.seen = append(p.me.seen, m.Move)
		p.version, p.current, p.over, p.legal = m.Version, m.State.ToMove, m.State.Over, m.State.View.Legal
		if stop := p.lt.cfg.moves; stop > 0 && p.version >= stop {
			// Left in progress: the game has played its part.
			p.over, p.think = true, nil
			p.me.over = true
			return len(p.pending) == 0, nil
		}
		p.thinkIfMyTurn()
	case "ack":
		sent, ok := p.pending[m.Version-1]
		if !ok || m.Duplicate || m.ID != strconv.Itoa(m.Version-1) {
			return false, fmt.Errorf("unexpected ack %+v", m)
		}
		p.me.acked[m.Version] = sent
		delete(p.pending, m.Version-1)
		return p.me.over && len(p.pending) == 0, nil
	case "game_over":
		// The mover's ack comes after the events of its move.
		p.me.over = true
		return len(p.pending) == 0, nil
	case "error":
		return false, fmt.Errorf("the server refused: %s: %s", m.Code, m.Message)
	}
	return false, nil
}

// check compares every game with the server's record: each acknowledged
// move must be there at its version, and every move there must have been
// made by a client, once.
func (lt *loadRun) check(ctx context.Context) {
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range jobs {
				lt.checkGame(ctx, i)
			}
		})
	}
	for i := range lt.games {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

func (lt *loadRun) checkGame(ctx context.Context, i int) {
	g := lt.games[i]
	if !g.clients[0].over || !g.clients[1].over {
		return // not finished: already reported
	}
	// The game's moves as the server keeps them (its record may be
	// withheld while a game stopped short of its end holds a secret).
	var game struct {
		Moves []struct {
			Move string `json:"move"`
		} `json:"moves"`
	}
	if err := lt.request(ctx, lt.client(i), "GET", "/api/games/"+g.id, nil, &game); err != nil {
		lt.fail("game %s: reading its moves: %v", g.id, err)
		return
	}
	var rec struct{ Moves []string }
	for _, m := range game.Moves {
		rec.Moves = append(rec.Moves, m.Move)
	}
	lost, doubled := 0, 0
	acked := 0
	for _, c := range g.clients {
		for v, m := range c.acked {
			if v > len(rec.Moves) || rec.Moves[v-1] != m {
				lost++
			}
		}
		acked += len(c.acked)
		if c.over && !slices.Equal(c.seen, rec.Moves) {
			lost++
		}
	}
	if len(rec.Moves) > acked {
		doubled = len(rec.Moves) - acked
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	lt.rep.lost += lost
	lt.rep.doubled += doubled
	lt.rep.finished++
	lt.rep.moves += len(rec.Moves)
}

// pollServer asks for /api/lobby and /api/health every cfg.poll until ctx
// ends, timing each, and notes the server's bot queue.
func (lt *loadRun) pollServer(ctx context.Context) {
	t := time.NewTicker(lt.cfg.poll)
	defer t.Stop()
	hc := lt.client(len(lt.clients) - 1)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var lobby struct{}
		began := time.Now()
		if err := lt.request(ctx, hc, "GET", "/api/lobby", nil, &lobby); err != nil {
			if ctx.Err() == nil {
				lt.fail("polling the lobby: %v", err)
			}
			return
		}
		tookLobby := time.Since(began)
		var health struct {
			BotQueue int   `json:"bot_queue"`
			OldestMS int64 `json:"bot_oldest_wait_ms"`
		}
		began = time.Now()
		if err := lt.request(ctx, hc, "GET", "/api/health", nil, &health); err != nil {
			if ctx.Err() == nil {
				lt.fail("polling the health: %v", err)
			}
			return
		}
		tookHealth := time.Since(began)
		lt.mu.Lock()
		lt.rep.lobby = append(lt.rep.lobby, tookLobby)
		lt.rep.health = append(lt.rep.health, tookHealth)
		lt.rep.botQueue = max(lt.rep.botQueue, health.BotQueue)
		lt.rep.botOldest = max(lt.rep.botOldest, time.Duration(health.OldestMS)*time.Millisecond)
		lt.mu.Unlock()
	}
}

// createBotGames creates cfg.botGames games of bots alone, each from
// another source address (the server caps them per address).
func (lt *loadRun) createBotGames(ctx context.Context) error {
	seats := []map[string]string{{"kind": "bot", "level": lt.cfg.botLevel}, {"kind": "bot", "level": lt.cfg.botLevel}}
	for i := range lt.cfg.botGames {
		req := map[string]any{"seats": seats}
		if lt.cfg.game != "" {
			req["game"] = lt.cfg.game
		}
		var created struct{}
		if err := lt.request(ctx, lt.client(i), "POST", "/api/games", req, &created); err != nil {
			return fmt.Errorf("creating a game of bots alone: %w", err)
		}
	}
	return nil
}

// playBot plays, until ctx ends, games of a person against a cfg.botLevel
// bot that moves first, one after another, from the source address i
// falls to among the last cfg.personBotAddrs but the poller's: the person
// moves at random as soon as it is their turn (botGameMoveGap), so that
// the address always has a bot move in the pool.
func (lt *loadRun) playBot(ctx context.Context, i int) {
	hc := lt.client(len(lt.clients) - 2 - i%lt.cfg.personBotAddrs)
	for ctx.Err() == nil {
		if err := lt.playBotGame(ctx, hc, rand.New(rand.NewPCG(uint64(i), 28))); err != nil && ctx.Err() == nil {
			lt.fail("a person against a %s bot: %v", lt.cfg.botLevel, err)
			return
		}
	}
}

// botGameMoveGap is how long playBot's person waits before each move: in
// a game of many moves a turn (Laguna's), within the server's 10 messages
// a second of a connection.
const botGameMoveGap = 150 * time.Millisecond

// playBotGame plays one game of playBot to its end.
func (lt *loadRun) playBotGame(ctx context.Context, hc *http.Client, rng *rand.Rand) error {
	c, err := lt.dialBotGame(ctx, hc, lt.cfg.botLevel)
	if err != nil {
		return err
	}
	defer c.CloseNow()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return err
		}
		var m loadMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return err
		}
		st := m.State
		if m.Type == "snapshot" && m.Game != nil {
			st = &m.Game.State
		}
		switch {
		case m.Type == "error" && m.Code != "stale_version":
			return fmt.Errorf("the server refused: %s: %s", m.Code, m.Message)
		case st == nil:
		case st.Over:
			return nil
		case st.ToMove == 1 && len(st.View.Legal) > 0:
			select {
			case <-time.After(botGameMoveGap):
			case <-ctx.Done():
				return ctx.Err()
			}
			b, _ := json.Marshal(map[string]any{"type": "move", "id": strconv.Itoa(st.Version), "version": st.Version,
				"move": st.View.Legal[rng.IntN(len(st.View.Legal))]})
			if err := c.Write(ctx, websocket.MessageText, b); err != nil {
				return err
			}
		}
	}
}

// dialBotGame creates a game where a person plays a bot of level that
// moves first, and connects to it as the person.
func (lt *loadRun) dialBotGame(ctx context.Context, hc *http.Client, level string) (*websocket.Conn, error) {
	req := map[string]any{"seats": []map[string]string{{"kind": "bot", "level": level}, {"kind": "human", "name": "Probe"}}}
	if lt.cfg.game != "" {
		req["game"] = lt.cfg.game
	}
	var created struct {
		ID    string `json:"id"`
		Seats []struct {
			Token string `json:"token"`
		} `json:"seats"`
	}
	if err := lt.request(ctx, hc, "POST", "/api/games", req, &created); err != nil {
		return nil, err
	}
	url := "ws" + strings.TrimPrefix(lt.base, "http") + "/api/games/" + created.ID + "/ws"
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(1 << 20)
	b, _ := json.Marshal(map[string]any{"type": "hello", "token": created.Seats[0].Token}) // the person's, the only one listed
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		c.CloseNow()
		return nil, err
	}
	return c, nil
}

// probeFairness starts, every 2 seconds until ctx ends, a game where a
// person plays an easy bot that moves first, and times the bot's first
// move from the game's creation. The probes come from the source
// addresses before playBot's and the poller's, so that a probe is always
// another person's.
func (lt *loadRun) probeFairness(ctx context.Context) {
	probers := max(1, len(lt.clients)-1-lt.cfg.personBotAddrs)
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Second):
		}
		took, err := lt.probe(ctx, lt.client(i%probers))
		if err != nil {
			if ctx.Err() == nil {
				lt.fail("a person against an easy bot: %v", err)
			}
			return
		}
		lt.mu.Lock()
		lt.rep.replies = append(lt.rep.replies, took)
		lt.mu.Unlock()
	}
}

func (lt *loadRun) probe(ctx context.Context, hc *http.Client) (time.Duration, error) {
	began := time.Now()
	c, err := lt.dialBotGame(ctx, hc, "easy")
	if err != nil {
		return 0, err
	}
	defer c.CloseNow()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return 0, err
		}
		var m loadMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return 0, err
		}
		if (m.Type == "move" && m.Version >= 1) || (m.Type == "snapshot" && m.Game != nil && m.Game.State.Version >= 1) {
			// The game is left as it is: nobody plays it on, and it
			// expires as a game nobody moves in does.
			return time.Since(began), nil
		}
	}
}
