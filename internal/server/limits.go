package server

import (
	"net/http"
	"sync"
	"time"
)

// This file holds the limits that keep one client, or many, from taking
// the server for themselves (docs/api.md, Limits): games in progress in
// all and per address, and what /api/health reports.

// pendingGames are the games admitted and still being created, not yet
// among the server's games: they count against the limits as games in
// progress do, so that creations at once cannot pass a limit together,
// each seeing room for one more.
type pendingGames struct {
	mu         sync.Mutex // held while a creation is counted and admitted
	total      int
	byAddr     map[string]int
	botsByAddr map[string]int
}

// add counts a creation from addr in (n 1) or out (n -1).
func (p *pendingGames) add(addr string, botsOnly bool, n int) {
	if p.byAddr == nil {
		p.byAddr, p.botsByAddr = map[string]int{}, map[string]int{}
	}
	p.total += n
	p.byAddr[addr] += n
	if botsOnly {
		p.botsByAddr[addr] += n
	}
}

// admitGame refuses a new game over the limits on games in progress: in
// all, from one address, and among bots alone from one address (a game
// nobody plays but bots costs thinking and nobody is waiting for it). An
// admitted game counts as in progress until done is called, once: with the
// registration that makes it one of the server's games (done runs it in the
// same step, so that the game is never counted twice), or with nil when its
// creation failed.
func (s *Server) admitGame(addr string, botsOnly bool) (done func(register func()), e *apiError) {
	p := &s.pending
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := s.checkGameLimits(addr, botsOnly); e != nil {
		return nil, e
	}
	p.add(addr, botsOnly, 1)
	return func(register func()) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if register != nil {
			register()
		}
		p.add(addr, botsOnly, -1)
	}, nil
}

// checkGameLimits is admitGame's check, over the games in progress and
// those being created; s.pending.mu is held.
func (s *Server) checkGameLimits(addr string, botsOnly bool) *apiError {
	p := &s.pending
	total, mine, mineBots := p.total, p.byAddr[addr], p.botsByAddr[addr]
	// In a cluster, the other nodes' games too, as their last heartbeats
	// counted them (docs/cluster.md).
	total += s.others(countGames)
	mine += s.others(countAddr + addr)
	mineBots += s.others(countBots + addr)
	for _, g := range s.active() {
		if g.summary.Load().Over {
			continue
		}
		total++
		if g.creator == addr {
			mine++
			if g.botsOnly {
				mineBots++
			}
		}
	}
	switch c := s.cfg; {
	case c.MaxGames > 0 && total >= c.MaxGames:
		s.repeats.Warn("a new game is refused: the server has all the games it takes", "client", addr, "games", total)
		return errorf(http.StatusServiceUnavailable, "too_many_games", "the server has %d games in progress, all it takes; try again later", total)
	case c.MaxGamesPerAddr > 0 && mine >= c.MaxGamesPerAddr:
		s.repeats.Warn("a new game is refused: too many from one address", "client", addr, "games", mine)
		return errorf(http.StatusTooManyRequests, "too_many_games", "%d games in progress were created from your address, the most it may have", mine)
	case botsOnly && c.MaxBotGamesPerAddr > 0 && mineBots >= c.MaxBotGamesPerAddr:
		s.repeats.Warn("a new game of bots alone is refused: too many from one address", "client", addr, "games", mineBots)
		return errorf(http.StatusTooManyRequests, "too_many_games", "%d games of bots alone in progress were created from your address, the most it may have", mineBots)
	}
	return nil
}

// healthView is GET /api/health.
type healthView struct {
	OK          bool  `json:"ok"`
	Games       int   `json:"games"`           // in progress
	InMemory    int   `json:"games_in_memory"` // in progress and finished
	Connections int   `json:"connections"`     // open TCP connections, when the listener counts them
	WebSockets  int   `json:"websockets"`
	BotQueue    int   `json:"bot_queue"`          // bot moves waiting for a worker
	BotThinking int   `json:"bot_thinking"`       // bot moves being thought
	BotOldestMS int64 `json:"bot_oldest_wait_ms"` // how long the oldest waiting bot move has waited
	PersonQueue int   `json:"bot_queue_people"`   // of the waiting, those of games with a person
	// Cluster is the node's view of its cluster, when it is one's.
	Cluster *clusterHealth `json:"cluster,omitempty"`
}

// clusterHealth is a node's part of /api/health (docs/cluster.md).
type clusterHealth struct {
	Node      string   `json:"node"`
	Connected bool     `json:"connected"` // to NATS
	Nodes     []string `json:"nodes"`     // the other nodes alive
	Games     int      `json:"games"`     // in progress on every node, as their heartbeats count them
}

// handleHealth says what an operator needs to see at a glance; it takes
// no game's lock, so it answers whatever the games are doing.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.health(time.Now()))
}

func (s *Server) health(now time.Time) healthView {
	v := healthView{OK: true}
	for _, g := range s.active() {
		v.InMemory++
		if !g.summary.Load().Over {
			v.Games++
		}
	}
	s.mu.Lock()
	v.WebSockets = len(s.conns)
	s.mu.Unlock()
	if s.cfg.Conns != nil {
		v.Connections = s.cfg.Conns.Open()
	}
	q := s.bots.stats(now)
	v.BotQueue, v.PersonQueue, v.BotThinking, v.BotOldestMS = q.waiting, q.people, q.thinking, q.oldest.Milliseconds()
	if n := s.node; n != nil {
		ch := &clusterHealth{Node: n.name, Connected: n.conn.Connected(), Nodes: []string{}, Games: v.Games + n.conn.Others(countGames)}
		for _, o := range n.conn.Nodes() {
			ch.Nodes = append(ch.Nodes, o.Name)
		}
		v.Cluster = ch
	}
	return v
}
