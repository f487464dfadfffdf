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
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/store"
)

// Bot chooses a move for the seat to move in st. It must not change st.
type Bot interface {
	Move(ctx context.Context, st game.State) (game.Move, error)
}

// BotFactory makes a bot of a level for a game, by the game's id.
type BotFactory func(gameID, level string) (Bot, error)

// Config configures a Server. Games, Store, Bots and Levels are required.
type Config struct {
	// Games are the games the server hosts; the first is the default.
	Games *game.Registry
	Store *store.Store
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
	// BotDelay is how long a bot waits before moving, so that people can
	// follow a game. Default 0.
	BotDelay time.Duration
	// BotTimeout bounds a bot's thinking on one move. Default 1 minute.
	BotTimeout time.Duration
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
}

const (
	kindHuman = "human"
	kindOpen  = "open"
	kindBot   = "bot"
)

// Server serves games over HTTP and WebSocket. It is an http.Handler.
type Server struct {
	cfg     Config
	log     *slog.Logger
	store   *store.Store
	handler http.Handler
	limiter *limiter
	bots    *botPool

	mu      sync.Mutex
	games   map[string]*match
	broken  map[string]error // games that do not load, not read again
	closing bool

	conns   map[*wsConn]struct{} // WebSocket connections being served, under mu
	connsWG sync.WaitGroup
	stop    chan struct{} // closed by Close
	swept   sync.WaitGroup
}

// New makes a server and resumes every game in progress in the store: their
// bots carry on and their clocks run again.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Games == nil || cfg.Store == nil || cfg.Bots == nil || cfg.Levels == nil {
		return nil, errors.New("server: the games, a store, a bot factory and the levels are required")
	}
	if cfg.StandInLevel == "" {
		cfg.StandInLevel = "medium"
	}
	for _, r := range cfg.Games.All() {
		if levels := cfg.Levels(r.ID); !slices.Contains(levels, cfg.StandInLevel) {
			return nil, fmt.Errorf("server: stand-in level %q is not one of the levels %q of %s", cfg.StandInLevel, levels, r.Name)
		}
	}
	if cfg.StandInGrace <= 0 {
		cfg.StandInGrace = 5 * time.Second
	}
	if cfg.BotWorkers <= 0 {
		cfg.BotWorkers = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if cfg.BotTimeout <= 0 {
		cfg.BotTimeout = time.Minute
	}
	if cfg.Rate == 0 {
		cfg.Rate = 20
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 40
	}
	if cfg.MessageRate == 0 {
		cfg.MessageRate = 10
	}
	if cfg.MessageBurst <= 0 {
		cfg.MessageBurst = 20
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	s := &Server{
		cfg: cfg, log: cfg.Log, store: cfg.Store,
		games:  make(map[string]*match),
		broken: make(map[string]error),
		conns:  make(map[*wsConn]struct{}),
		stop:   make(chan struct{}),
	}
	if cfg.Rate > 0 {
		s.limiter = newLimiter(cfg.Rate, cfg.Burst)
	}
	s.handler = s.routes()
	s.bots = newBotPool(s, cfg.BotWorkers)

	stored, err := s.store.InProgress(ctx)
	if err != nil {
		s.bots.close()
		return nil, fmt.Errorf("server: resuming games: %w", err)
	}
	failed := 0
	for _, sg := range stored {
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
	s.log.Info("games resumed", "games", len(stored)-failed, "failed", failed)
	s.swept.Go(s.sweep)
	return s, nil
}

// levels returns the bot levels of a game.
func (s *Server) levels(r *game.Rules) []string { return s.cfg.Levels(r.ID) }

// match returns the owner of game id, reading a finished game from the
// store if needed, or nil if there is no such game.
func (s *Server) match(ctx context.Context, id string) (*match, error) {
	s.mu.Lock()
	g, broken := s.games[id], s.broken[id]
	if g != nil {
		// Under the lock, so that the sweep sees the game used.
		g.lastAccess.Store(time.Now().UnixNano())
	}
	s.mu.Unlock()
	if g != nil {
		return g, nil
	}
	if broken != nil {
		return nil, broken
	}
	sg, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	loaded, err := s.loadGame(sg)
	if err != nil {
		// It will not load the next time either: a request does not pay
		// for replaying it again.
		s.mu.Lock()
		s.broken[id] = err
		s.mu.Unlock()
		return nil, err
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

// sweep forgets, every minute, the finished games nobody has looked at for
// ten minutes; they are read from the store again when asked for.
func (s *Server) sweep() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case now := <-t.C:
			s.forgetIdle(now, 10*time.Minute)
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
	cancel()
	s.mu.Lock()
	for c := range s.conns {
		c.kill(statusGoingAway, "the server is shutting down")
	}
	s.mu.Unlock()
	s.bots.close()
	s.connsWG.Wait()
	s.log.Info("server closed")
	return nil
}

// ServeHTTP serves the API, the WebSockets and the web page.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }
