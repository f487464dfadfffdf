package server

import (
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// This file holds the limits that keep one client, or many, from taking
// the server for themselves (docs/api.md, Limits): games in progress in
// all and per address, and what /api/health reports.

// addrGroup is the group of client addresses that the limits per address
// count as one (docs/api.md, Limits): an IPv6 address's /64, the network
// one subscriber is given and may draw any number of addresses from, and an
// IPv4 address itself. What does not parse as an address is its own group.
func addrGroup(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil || !a.Is6() || a.Is4In6() {
		return addr
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}

// clientGroup is the address group of the request's client (clientAddr).
func (s *Server) clientGroup(r *http.Request) string { return addrGroup(s.clientAddr(r)) }

// pendingGames are the games admitted and still being created, not yet
// among the server's games: they count against the limits as games in
// progress do, so that creations at once cannot pass a limit together,
// each seeing room for one more.
type pendingGames struct {
	mu    sync.Mutex // held while a creation is counted and admitted
	total int
	// byAddr and botsByAddr count by address group (addrGroup).
	byAddr     map[string]int
	botsByAddr map[string]int
}

// add counts a creation from group in (n 1) or out (n -1).
func (p *pendingGames) add(group string, botsOnly bool, n int) {
	if p.byAddr == nil {
		p.byAddr, p.botsByAddr = map[string]int{}, map[string]int{}
	}
	p.total += n
	p.byAddr[group] += n
	if botsOnly {
		p.botsByAddr[group] += n
	}
}

// admitGame refuses a new game over the limits on games in progress: from
// one address group, among bots alone from one group (a game nobody plays
// but bots costs thinking and nobody is waiting for it), and in all, where
// a table nobody joined gives way if there is one (giveWay). An admitted
// game counts as in progress until done is called, once: with the
// registration that makes it one of the server's games (done runs it in the
// same step, so that the game is never counted twice), or with nil when its
// creation failed.
func (s *Server) admitGame(group string, botsOnly bool) (done func(register func()), e *apiError) {
	p := &s.pending
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := s.checkGameLimits(group, botsOnly); e != nil {
		return nil, e
	}
	p.add(group, botsOnly, 1)
	return func(register func()) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if register != nil {
			register()
		}
		p.add(group, botsOnly, -1)
	}, nil
}

// groupCap is the most games in progress one address group may have: the
// cap per group, and its share of the cap in all; 0 for no cap.
func (s *Server) groupCap() int {
	c := s.cfg
	limit := c.MaxGamesPerAddr
	if c.MaxGames > 0 && c.MaxGamesShare > 0 {
		share := max(1, (c.MaxGames*c.MaxGamesShare+99)/100)
		if limit <= 0 || share < limit {
			limit = share
		}
	}
	return limit
}

// checkGameLimits is admitGame's check, over the games in progress and
// those being created; s.pending.mu is held.
func (s *Server) checkGameLimits(group string, botsOnly bool) *apiError {
	p := &s.pending
	total, mine, mineBots := p.total, p.byAddr[group], p.botsByAddr[group]
	// In a cluster, the other nodes' games too, as their last heartbeats
	// counted them (docs/cluster.md).
	total += s.others(countGames)
	mine += s.others(countAddr + group)
	mineBots += s.others(countBots + group)
	for _, g := range s.active() {
		if g.summary.Load().Over {
			continue
		}
		total++
		if g.creator == group {
			mine++
			if g.botsOnly {
				mineBots++
			}
		}
	}
	c := s.cfg
	// A group's own caps first: a group at its cap makes no other's table
	// give way.
	if limit := s.groupCap(); limit > 0 && mine >= limit {
		s.repeats.Warn("a new game is refused: too many from one address", "client", group, "games", mine)
		return errorf(http.StatusTooManyRequests, "too_many_games", "%d games in progress were created from your address, the most it may have", mine)
	}
	if botsOnly && c.MaxBotGamesPerAddr > 0 && mineBots >= c.MaxBotGamesPerAddr {
		s.repeats.Warn("a new game of bots alone is refused: too many from one address", "client", group, "games", mineBots)
		return errorf(http.StatusTooManyRequests, "too_many_games", "%d games of bots alone in progress were created from your address, the most it may have", mineBots)
	}
	if c.MaxGames > 0 && total >= c.MaxGames && !s.giveWay(time.Now()) {
		s.repeats.Warn("a new game is refused: the server has all the games it takes", "client", group, "games", total)
		return errorf(http.StatusServiceUnavailable, "too_many_games", "the server has %d games in progress, all it takes; try again later", total)
	}
	return nil
}

// giveWay makes room for a new game on a server at its cap: of the tables
// nobody has joined (unjoined), the oldest of the address group with the
// most games in progress is given up, as if it had expired, so that tables
// made by the thousand to fill the cap go first and a person's lone table
// last. It reports whether one gave way. Only this node's games can: in a
// cluster, a cap the other nodes' games fill is refused as before.
// s.pending.mu is held.
func (s *Server) giveWay(now time.Time) bool {
	games := map[string]int{}
	for _, g := range s.active() {
		if !g.summary.Load().Over {
			games[g.creator]++
		}
	}
	var victim *match
	var victimUpdated time.Time
	for _, g := range s.active() {
		updated, ok := g.unjoined()
		if !ok {
			continue
		}
		if victim == nil || games[g.creator] > games[victim.creator] ||
			games[g.creator] == games[victim.creator] && updated.Before(victimUpdated) {
			victim, victimUpdated = g, updated
		}
	}
	return victim != nil && s.giveUp(victim, now, func() bool {
		_, ok := victim.unjoinedLocked()
		return ok
	}, "game given way to a new one: the server was at its cap and nobody had joined it")
}

// unjoined is unjoinedLocked for a game whose lock is not held. A game
// whose lock is held is busy, so not a table nobody uses: it is passed over
// rather than waited for.
func (g *match) unjoined() (updated time.Time, ok bool) {
	if !g.mu.TryLock() {
		return time.Time{}, false
	}
	defer g.mu.Unlock()
	return g.unjoinedLocked()
}

// unjoinedLocked reports whether g is a table nobody has joined, and when
// it last changed: in progress, every seat of a person not yet taken (open,
// or a person's never joined), at least one such seat, and no client of a
// seat connected. g.mu is held.
func (g *match) unjoinedLocked() (updated time.Time, ok bool) {
	if g.closed || g.cur.Over() || len(g.connectedAt) > 0 {
		return time.Time{}, false
	}
	waiting := false
	for i, st := range g.seats {
		switch {
		case st.Kind == kindHuman && st.Joined, g.connected[i] > 0:
			return time.Time{}, false
		case st.Kind == kindOpen || st.Kind == kindHuman:
			waiting = true
		}
	}
	return g.updated, waiting
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
