// Package server is Lagoon's game server: the lobby, live play over
// WebSocket, bots in seats, time rules, and games that survive restarts.
//
// The server hosts every game of a registry (package game) and names none:
// it sets games up through their Rules, reads and writes moves in their
// notation, shows each viewer the game's View for it (once for everyone
// when the game has no private views), and keeps the time rule the table
// chose. Each game has one owner in the process (type match), a
// mutex-guarded value through which every change to the game goes: a move
// is checked by the game, written to the store, and only then applied in
// memory, answered and broadcast. The store keeps each game as its record
// (game, options, seed and moves) plus metadata, so a starting server
// resumes every game by replaying its moves.
//
// The HTTP JSON API is described in docs/api.md and the WebSocket protocol in
// docs/protocol.md. Bots are reached through a small interface (Bot, made by
// a BotFactory for a game and a level) so that the server does not depend on
// how they think, and run in a bounded pool of workers so that many bot
// games cannot starve the people playing.
package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/corr"
	"github.com/lagoon-games/lagoon/internal/passkeys"
	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// Bot chooses a move for the seat to move in st. It must not change st.
// A bot that keeps a person's pace (Laguna's planner at a table with
// people) says so with a method Paced() bool, and how long each of its
// decisions takes at that pace with a method Pace() time.Duration (none
// without it); its Move answers at once: the server waits out the pace on
// a timer before the move is queued, so that no worker sleeps through it,
// and not past paceMargin before the turn's end. Config.BotDelay does not
// apply to it.
type Bot interface {
	Move(ctx context.Context, st game.State) (game.Move, error)
}

// BotFactory makes a bot of a level for a game, by the game's id.
// withPeople says the bot plays at a table with a person's seat: a game
// whose bots act at a person's pace (Laguna's, which a sand timer must bind
// as it binds people) wants its paced bots there, and in games of bots
// alone, which Config.BotDelay paces for those watching, its quick ones.
type BotFactory func(gameID, level string, withPeople bool) (Bot, error)

// Config configures a Server. Games, Store, Bots and Levels are required.
type Config struct {
	// Games are the games the server hosts; the first is the default.
	Games *game.Registry
	Store store.Store
	// Static holds the web page's files, served for any path outside /api/;
	// a path that is not a file gets index.html. Nil serves the API only.
	Static fs.FS
	Bots   BotFactory
	// Levels returns the bot levels people may choose in a game, easiest
	// first.
	Levels func(gameID string) []string
	// StandInLevel is the level of the bot that plays for a person whose
	// time has run out, and of a bot that takes a seat that is left. It
	// must be one of every game's Levels. Default "medium".
	StandInLevel string
	// StandInGrace is the least time a person whose time has run out has at
	// each turn to move before the stand-in does. Default 5 s.
	StandInGrace time.Duration
	// BotWorkers bounds the bots thinking at once. Default: half the CPUs,
	// at least one.
	BotWorkers int
	// BotDelay is how long a bot's move waits, on a timer, before it is
	// queued, so that people can follow a game; a bot that keeps a pace of
	// its own waits its pace instead. Default 0.
	BotDelay time.Duration
	// BotTimeout bounds a bot's thinking on one move. Default 1 minute.
	BotTimeout time.Duration
	// BotSlice is the thinking a bot's move is sure of when a move of
	// another address with fewer moves in the pool waits for a worker:
	// past it the move is hurried (docs/architecture.md, Bots). Default
	// 250 ms, a hard bot's thinking, so that another person's easy bot
	// answers within a second however many games one address plays
	// against max bots.
	BotSlice time.Duration
	// CheapLevels are the levels whose bots think briefly, no longer than
	// about BotSlice a move: their moves go before the others' of the same
	// kind of game and hurry an expensive move that has thought its slice,
	// whoever's it is, so that a cheap bot's answer never waits behind
	// expensive thinking. Default "easy" and "medium".
	CheapLevels []string
	// Rate and Burst limit the API requests of each client address: Rate a
	// second, in bursts of Burst. Defaults 20 and 40; a negative Rate turns
	// the limit off.
	Rate  float64
	Burst int
	// MessageRate and MessageBurst limit the messages of each WebSocket
	// connection likewise. Defaults 10 and 20; a negative MessageRate turns
	// the limit off.
	MessageRate  float64
	MessageBurst int
	// Log receives the server's log. Default slog.Default().
	Log *slog.Logger

	// The limits of docs/api.md (Limits); lagoon serve sets them by flags.
	// A negative number turns a limit off.

	// Hosts are the host names, besides loopback ones (localhost,
	// 127.0.0.0/8, ::1), that requests may name in their Host header: a
	// page of another site that points its own name at this server (DNS
	// rebinding) is refused.
	Hosts []string
	// TrustedProxies are the load balancers in front of the server: a
	// request whose TCP peer is in one of them has the client's address
	// read from X-Forwarded-For (clientIP), for the limits per address and
	// the log. A request from any other peer is the peer's, whatever its
	// header says. None by default.
	TrustedProxies []netip.Prefix
	// HelloTimeout is how long a WebSocket has to say hello. Default 10 s.
	HelloTimeout time.Duration
	// BodyTimeout bounds the reading of a request's body, HeaderTimeout
	// its headers; IdleTimeout closes a kept-alive connection with no
	// request. Defaults 10 s, 10 s and 1 minute (HTTPServer).
	BodyTimeout, HeaderTimeout, IdleTimeout time.Duration
	// MaxGames bounds the games in progress; MaxGamesPerAddr those created
	// from one client address group (addrGroup), MaxBotGamesPerAddr those
	// among bots alone; MaxGamesShare, in percent of MaxGames, bounds a
	// group's games too, so that a few groups cannot fill a smaller cap.
	// Defaults 5000, 50, 4 and 1 (%).
	MaxGames, MaxGamesPerAddr, MaxBotGamesPerAddr, MaxGamesShare int
	// OpenExpiry is how long a game with a seat nobody has taken (open, or
	// a person's seat never joined) may go without a change before it is
	// given up; IdleExpiry how long any game in progress may. Defaults 1 h
	// and 7 days.
	OpenExpiry, IdleExpiry time.Duration
	// MaxMoves bounds every game's length: a game its rules have not
	// ended by that many moves ends there, nobody winning (bound.go).
	// Default 10,000; negative for no bound.
	MaxMoves int
	// Conns, if set, counts the open connections for /api/health: the
	// Listener the server is served on.
	Conns interface{ Open() int }
	// Cluster, if set, makes the server one node of a cluster
	// (docs/cluster.md); the store must then be the one the nodes share.
	Cluster *Cluster
}

const (
	kindHuman = "human"
	kindOpen  = "open"
	kindBot   = "bot"
	// kindHouse is a seat the rules play themselves (game.Rules.House):
	// filled by the server, never open, never timed, never to move.
	kindHouse = "house"
)

// Server serves games over HTTP and WebSocket. It is an http.Handler.
type Server struct {
	cfg     Config
	log     *slog.Logger
	store   store.Store
	handler http.Handler
	limiter *limiter
	bots    *botPool
	metrics *metrics
	// repeats summarises the log lines a client, the network or a full
	// disk can make by the thousand.
	repeats *repeats
	// pending are the games admitted and being created (admitGame).
	pending pendingGames
	// node is the server's part of a cluster, nil for a server alone.
	node *node
	// players resolves each API request's session (docs/players.md), and
	// playerGuard guards its endpoints that change state.
	players     *players.Service
	playerGuard *playerGuard
	// passkeys runs the WebAuthn ceremonies, keyGuard limits them.
	passkeys *passkeys.Service
	keyGuard *keyGuard
	// changes tells the players' lists of games what changed (mygames.go).
	changes *players.Changes

	mu      sync.Mutex
	games   map[string]*match
	broken  map[string]error // games that do not load, not read again
	gone    map[string]bool  // games expired since the start
	closing bool

	conns   map[*wsConn]struct{} // WebSocket connections being served, under mu
	connsWG sync.WaitGroup
	stop    chan struct{} // closed by Close
	swept   sync.WaitGroup
}

// New makes a server and resumes every game in progress in the store: their
// bots carry on and their clocks run again.
func New(ctx context.Context, cfg Config) (*Server, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg: cfg, log: cfg.Log, store: cfg.Store, repeats: newRepeats(cfg.Log, repeatWindow),
		games:  make(map[string]*match),
		broken: make(map[string]error),
		gone:   make(map[string]bool),
		conns:  make(map[*wsConn]struct{}),
		stop:   make(chan struct{}),
	}
	s.players, s.playerGuard = players.New(players.Config{Store: cfg.Store, Log: cfg.Log, Secure: s.overTLS}), newPlayerGuard()
	s.passkeys, s.keyGuard = passkeys.New(cfg.Store, nil), newKeyGuard()
	s.changes = players.NewChanges()
	if cfg.Rate > 0 {
		s.limiter = newLimiter(cfg.Rate, cfg.Burst)
	}
	if cfg.Cluster != nil {
		if s.node, err = newNode(cfg.Cluster); err != nil {
			return nil, err
		}
	}
	s.handler = s.routes()
	s.metrics = newMetrics(s)
	s.bots = newBotPool(s, cfg.BotWorkers)
	if s.node != nil {
		// A node resumes nothing at start: the games in progress are
		// their leases' holders', and those nobody holds are taken over
		// by the adoption loop (adoptLoop), on whichever node comes first.
		cfg.Cluster.Gate.s.Store(s)
		s.swept.Go(s.renewLoop)
		s.swept.Go(s.adoptLoop)
	} else if err := s.resume(ctx); err != nil {
		s.bots.close()
		return nil, fmt.Errorf("server: resuming games: %w", err)
	}
	s.swept.Go(s.sweep)
	return s, nil
}

// withDefaults checks c and returns it with its defaults set.
func (c Config) withDefaults() (Config, error) {
	if c.Games == nil || c.Store == nil || c.Bots == nil || c.Levels == nil {
		return c, errors.New("server: the games, a store, a bot factory and the levels are required")
	}
	if c.StandInLevel == "" {
		c.StandInLevel = "medium"
	}
	for _, r := range c.Games.All() {
		if levels := c.Levels(r.ID); !slices.Contains(levels, c.StandInLevel) {
			return c, fmt.Errorf("server: stand-in level %q is not one of the levels %q of %s", c.StandInLevel, levels, r.Name)
		}
	}
	if c.StandInGrace <= 0 {
		c.StandInGrace = 5 * time.Second
	}
	if c.BotWorkers <= 0 {
		c.BotWorkers = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if c.BotTimeout <= 0 {
		c.BotTimeout = time.Minute
	}
	orDefault(&c.BotSlice, 250*time.Millisecond)
	if c.CheapLevels == nil {
		c.CheapLevels = []string{"easy", "medium"}
	}
	if c.Rate == 0 {
		c.Rate = 20
	}
	if c.Burst <= 0 {
		c.Burst = 40
	}
	if c.MessageRate == 0 {
		c.MessageRate = 10
	}
	if c.MessageBurst <= 0 {
		c.MessageBurst = 20
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	orDefault(&c.HelloTimeout, 10*time.Second)
	orDefault(&c.BodyTimeout, 10*time.Second)
	orDefault(&c.HeaderTimeout, 10*time.Second)
	orDefault(&c.IdleTimeout, time.Minute)
	orDefault(&c.OpenExpiry, time.Hour)
	orDefault(&c.IdleExpiry, 7*24*time.Hour)
	orDefault(&c.MaxGames, 5000)
	orDefault(&c.MaxGamesPerAddr, 50)
	orDefault(&c.MaxBotGamesPerAddr, 4)
	orDefault(&c.MaxGamesShare, 1)
	orDefault(&c.MaxMoves, 10000)
	return c, nil
}

// resume loads the store's games in progress and sets them going. A game
// given up while the server was down is marked so and left; one that does
// not load is left out, remembered as broken, and does not keep the others
// from being played.
func (s *Server) resume(ctx context.Context) error {
	stored, damaged, err := s.store.InProgress(ctx)
	if err != nil {
		return err
	}
	failed := len(damaged)
	for _, d := range damaged {
		s.markDamaged(d.ID, d.Err)
	}
	expired := 0
	now := time.Now()
	for _, sg := range stored {
		if s.expires(sg.Seats, sg.Time, sg.Updated, now) {
			// Given up while the server was down: not worth replaying.
			if err := s.store.Expire(ctx, sg.ID, now); err != nil {
				s.log.Error("expiring a game", "game", sg.ID, "err", err)
			}
			expired++
			continue
		}
		g, err := s.loadGame(sg)
		if err != nil {
			// One game that no longer loads (a rules change, a damaged
			// row) must not keep every other game from being played.
			s.log.Error("a stored game does not load; it is left out", "game", sg.ID, "err", err)
			s.broken[sg.ID] = err
			failed++
			continue
		}
		s.games[g.id] = g
	}
	for _, g := range s.games {
		g.mu.Lock()
		g.schedule()
		g.mu.Unlock()
	}
	s.log.Info("games resumed", "games", len(s.games), "failed", failed, "expired", expired)
	return nil
}

// errExpired answers for a game given up (Config.OpenExpiry, IdleExpiry).
var errExpired = errorf(http.StatusGone, "expired", "the game was given up: nobody joined or moved in it for too long")

// damaged answers for a stored game that does not read or replay.
func damaged(id string, err error) *apiError {
	return errorf(http.StatusInternalServerError, "damaged", "game %s is damaged and cannot be played: %v", id, err)
}

// markDamaged remembers game id as damaged (its rows do not read, or it
// does not load) and logs it, once.
func (s *Server) markDamaged(id string, err error) {
	s.mu.Lock()
	_, known := s.broken[id]
	s.broken[id] = err
	s.mu.Unlock()
	if !known {
		s.log.Error("a stored game is damaged; it is left out", "game", id, "err", err)
	}
}

// levels returns the bot levels of a game.
func (s *Server) levels(r *game.Rules) []string { return s.cfg.Levels(r.ID) }

// match returns the owner of game id, reading a finished game from the
// store if needed, or nil if there is no such game. In a cluster, a game in
// progress not in memory is taken over if nobody holds it, and is another
// node's (errNotHere) if somebody does.
func (s *Server) match(ctx context.Context, id string) (*match, error) {
	s.mu.Lock()
	g, broken := s.games[id], s.broken[id]
	if s.gone[id] {
		broken = errExpired
	}
	if g != nil {
		// Under the lock, so that the sweep sees the game used.
		g.lastAccess.Store(time.Now().UnixNano())
	}
	s.mu.Unlock()
	if g != nil && s.node != nil {
		held, err := s.confirmLease(ctx, g)
		if err != nil {
			s.log.Warn("confirming a lease", "game", id, "err", err)
			return nil, errorf(http.StatusServiceUnavailable, "unavailable", "whether this node still owns game %s could not be read; try again", id)
		}
		if !held {
			g = nil
		}
	}
	if g != nil {
		return g, nil
	}
	if broken == errExpired {
		return nil, errExpired
	}
	if broken != nil {
		return nil, damaged(id, broken)
	}
	sg, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	if err == nil && sg.Expired {
		return nil, errExpired
	}
	if err == nil && s.node != nil && !sg.Over {
		// In a cluster a game in progress is its lease holder's.
		g, err := s.takeOver(ctx, sg)
		if here := (*errNotHere)(nil); errors.As(err, &here) || err == nil || ctx.Err() != nil {
			return g, err
		}
		if bad := (*errUnloadable)(nil); errors.As(err, &bad) {
			s.markDamaged(id, bad.err)
			return nil, damaged(id, bad.err)
		}
		s.log.Error("taking a game over", "game", id, "err", err)
		return nil, errorf(http.StatusServiceUnavailable, "unavailable", "game %s could not be taken over from its last node; try again", id)
	}
	var loaded *match
	if err == nil {
		loaded, err = s.loadGame(sg)
	}
	if err != nil {
		// It will not read or load the next time either: a request does
		// not pay for reading it again.
		s.markDamaged(id, err)
		return nil, damaged(id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.games[id]; g != nil {
		return g, nil
	}
	if s.closing {
		loaded.closed = true
	}
	s.games[id] = loaded
	return loaded, nil
}

// orDefault sets *v to def if it is zero, and to zero (no limit) if it is
// negative.
func orDefault[T int | time.Duration](v *T, def T) {
	switch {
	case *v == 0:
		*v = def
	case *v < 0:
		*v = 0
	}
}

// expires reports whether a game in progress with these seats and time
// rule, last changed at updated, is given up at now. A correspondence
// game is idle only once a turn's time and the longest vacation have gone
// by on top of IdleExpiry: until then it waits on a person whose time
// runs, and nobody has left it.
func (s *Server) expires(seats []store.Seat, t *store.Time, updated, now time.Time) bool {
	idle := now.Sub(updated)
	if t != nil && t.Kind == string(game.Correspondence) {
		idle -= time.Duration(t.TurnMS)*time.Millisecond + corr.MaxVacation
	}
	if s.cfg.IdleExpiry > 0 && idle > s.cfg.IdleExpiry {
		return true
	}
	if s.cfg.OpenExpiry > 0 && idle > s.cfg.OpenExpiry {
		for _, st := range seats {
			if st.Kind == kindOpen || (st.Kind == kindHuman && !st.Joined) {
				return true
			}
		}
	}
	return false
}

// expire gives up the games in progress that nobody has joined or moved
// in for long (Config.OpenExpiry, IdleExpiry): they are marked in the
// store, which no longer resumes them, and leave memory; their clients are
// told the game is gone.
func (s *Server) expire(now time.Time) {
	for _, g := range s.active() {
		s.giveUp(g, now, func() bool { return s.expires(g.seats, g.time, g.updated, now) }, "game expired")
	}
}

// giveUp gives up g, a game in progress, if still holds (asked under g's
// lock): it is marked expired in the store, which no longer resumes it, and
// leaves memory; its clients are told it is gone, and later requests get
// 410 expired. It reports whether g was given up; why is the log's line.
func (s *Server) giveUp(g *match, now time.Time, still func() bool, why string) bool {
	// Under the game's lock only, as a move is stored: the server's lock
	// is not held across the store's write.
	g.mu.Lock()
	gone := !g.closed && !g.cur.Over() && still()
	if gone {
		if err := s.store.Expire(g.fence(context.Background()), g.id, now); err != nil {
			if !g.fenced(err) {
				s.repeats.Error("expiring a game", "game", g.id, "err", err)
			}
			gone = false
		}
	}
	if gone {
		g.closed = true
		if g.timer != nil {
			g.timer.Stop()
		}
		for c := range g.subs {
			c.kill(statusGoingAway, "the game has expired")
		}
		g.publish(int64(len(g.moves)), mustJSON(relayed{Reconnect: "the game has expired"}))
		s.log.Info(why, "game", g.id, "updated", g.updated)
	}
	g.mu.Unlock()
	if gone {
		s.mu.Lock()
		delete(s.games, g.id)
		s.gone[g.id] = true
		s.mu.Unlock()
	}
	return gone
}

// sweep forgets, every minute, the finished games nobody has looked at for
// ten minutes (they are read from the store again when asked for), and
// gives up the games nobody plays.
func (s *Server) sweep() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case now := <-t.C:
			s.forgetIdle(now, 10*time.Minute)
			s.expire(now)
		}
	}
}

func (s *Server) forgetIdle(now time.Time, idle time.Duration) {
	s.mu.Lock()
	games := make([]*match, 0, len(s.games))
	for _, g := range s.games {
		games = append(games, g)
	}
	s.mu.Unlock()
	for _, g := range games {
		// Checked and forgotten under both locks (the server's first, as
		// everywhere): a request may take the game from the map, or a
		// client subscribe to it, between a check and the forgetting.
		s.mu.Lock()
		g.mu.Lock()
		if g.cur.Over() && len(g.subs) == 0 && now.Sub(time.Unix(0, g.lastAccess.Load())) > idle {
			delete(s.games, g.id)
		}
		g.mu.Unlock()
		s.mu.Unlock()
	}
}

// active returns the games in memory.
func (s *Server) active() []*match {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*match, 0, len(s.games))
	for _, g := range s.games {
		out = append(out, g)
	}
	return out
}

// Close stops the server's games: no move is accepted after it returns,
// every move acknowledged before is in the store, bots stop thinking and
// WebSocket clients are told the server is going away. Stop the HTTP server
// (http.Server.Shutdown) first and close the store after.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil
	}
	s.closing = true
	s.mu.Unlock()
	close(s.stop)
	s.swept.Wait()
	// The clocks are stored together, so that their writes share the
	// store's commits instead of waiting for one each.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	var saving sync.WaitGroup
	for _, g := range s.active() {
		g.mu.Lock()
		g.closed = true
		if g.timer != nil {
			g.timer.Stop()
		}
		if save := g.clockSaver(); save != nil {
			saving.Go(func() { save(ctx) })
		}
		g.mu.Unlock()
	}
	saving.Wait()
	if s.node != nil {
		s.releaseAll(ctx)
	}
	cancel()
	s.mu.Lock()
	for c := range s.conns {
		c.kill(statusGoingAway, "the server is shutting down")
	}
	s.mu.Unlock()
	s.bots.close()
	s.connsWG.Wait()
	s.repeats.close()
	s.log.Info("server closed")
	return nil
}

// HTTPServer returns an http.Server for s with the timeouts of its
// configuration: a client that sends its headers slowly, or keeps a
// connection open without a request, does not hold it for long.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.cfg.HeaderTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// ServeHTTP serves the API, the WebSockets and the web page.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }
