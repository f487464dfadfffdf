package server

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// A botJob asks for a bot's move in game g at version, for seat.
type botJob struct {
	g       *match
	version int
	seat    int
	level   string
	// takeBacks is the game's generation (match.takeBacks) when the job
	// was queued: after a take-back the same version is another position.
	takeBacks int
	person    bool   // the game has a person's seat
	cheap     bool   // the bot's level is cheap (Config.CheapLevels)
	addr      string // whose move it is, for the fair queue (match.botAddr)
	queued    time.Time
	// afterTime says the seat's turn timer had run out when the job was
	// queued: the bot decides for the time rule (match.timeUp).
	afterTime bool
	// turnEnd is when the seat's turn timer runs out, zero without one:
	// the bot's deadline.
	turnEnd time.Time
	// pause is how long the move waits before it is queued (botPause),
	// unless the bot keeps a pace of its own.
	pause time.Duration
}

// botPool runs bots' moves in a fixed number of workers, so that bots
// thinking in many games at once cannot take more of the machine than that:
// people's moves, the API and the WebSockets keep the rest.
//
// Thinking is shared fairly. A game where a person waits for a bot goes
// before games of bots alone, and a cheap bot's move (Config.CheapLevels)
// before an expensive one's; each game has at most one move thinking or
// waiting at a time; and the moves waiting are served round robin by
// address (botQueue), so that one address with many games waits behind
// its own moves, not others in front of them. A worker is only ever
// thinking: a bot that keeps a person's pace, and the delay that lets
// people follow (Config.BotDelay), wait on a timer before their move is
// queued. When every worker is busy, a move that should go before one
// thinking hurries it (its context ended: a search answers with the best
// move it has found): a person's move hurries a move of bots alone at
// once; a cheap move hurries an expensive one, whoever's, once that has
// thought Config.BotSlice; and a move of an address with fewer moves in
// the pool hurries a move of one with more once that has thought its
// slice. So a cheap bot's answer waits behind expensive thinking for a
// slice at most, however many addresses keep the workers busy.
type botPool struct {
	s       *Server
	ctx     context.Context
	cancel  context.CancelFunc
	workers int

	mu      sync.Mutex
	waiting *botQueue
	running map[*running]struct{}
	// recheck looks again for a move to hurry once one has thought its
	// slice; nil when none is due.
	recheck *time.Timer
	wake    chan struct{}
	bots    map[botKey]Bot
	wg      sync.WaitGroup
	closed  bool
}

// running is a bot move being thought.
type running struct {
	person  bool
	cheap   bool
	addr    string
	started time.Time
	ctx     context.Context
	hurry   context.CancelFunc
	hurried bool
}

func newBotPool(s *Server, workers int) *botPool {
	p := &botPool{s: s, workers: workers, waiting: newBotQueue(), wake: make(chan struct{}, 1), bots: make(map[botKey]Bot), running: make(map[*running]struct{})}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	for range workers {
		p.wg.Go(p.work)
	}
	return p
}

// paceMargin is how long before its turn's end a paced bot's move is
// queued at the latest, so that it reaches the table before the time runs
// out.
const paceMargin = 150 * time.Millisecond

// queue adds a job after its wait, on a timer so that no worker waits:
// the bot's own pace if it keeps one (Bot), else the job's pause
// (botPause), and no later than paceMargin before its turn's end.
func (p *botPool) queue(j botJob) {
	d := j.pause
	if pace, ok := p.pace(j); ok {
		d = pace
	}
	if !j.turnEnd.IsZero() {
		d = min(d, time.Until(j.turnEnd)-paceMargin)
	}
	if d > 0 {
		time.AfterFunc(d, func() { p.push(j) })
		return
	}
	p.push(j)
}

// stepPauses is how many of a bot's later decisions in a turn pause,
// each a stepPauses-th of Config.BotDelay (botPause).
const stepPauses = 4

// botPause is how long a bot's decision for seat waits before it is
// queued, so that people can follow the game. A bot's turn is paced as a
// whole (issue 47): its first decision waits Config.BotDelay, so that
// people see whose turn begins, and its later ones a quarter of it each,
// the first four of them only; so a turn of many decisions (some thirteen
// in Land of Druids) pauses twice BotDelay at most, where a pause for each
// decision kept a person waiting many seconds for three bots. A decision
// after another seat's (a choice asked of it mid-turn) begins again. A
// table where a person asked for bots without pauses (fastBots) has none.
// Called with g locked.
func (g *match) botPause(seat int) time.Duration {
	d := g.s.cfg.BotDelay
	if g.fastBots || d <= 0 {
		return 0
	}
	// The seat's decisions of this turn so far, counted back from the
	// last move as far as matters.
	steps := 0
	for i := len(g.moves) - 1; i >= 0 && steps <= stepPauses; i-- {
		if mi := g.moves[i]; mi.seat != seat || mi.turnEnded {
			break
		}
		steps++
	}
	switch {
	case steps == 0:
		return d
	case steps <= stepPauses:
		return d / stepPauses
	}
	return 0
}

// botPaceBody is the body of POST /api/games/{id}/bots.
type botPaceBody struct {
	Fast *bool `json:"fast"`
}

// handleBotPace lets a person at the table have the bots play without the
// pauses that let people follow them (botPause), or with them again; the
// last to ask decides for the table.
func (s *Server) handleBotPace(w http.ResponseWriter, r *http.Request, g *match) error {
	// Only a person's seat has a token: a seat handed to a bot loses its.
	if _, e := seatFor(r, g); e != nil {
		return e
	}
	var req botPaceBody
	if e := s.decodeBody(w, r, &req, false); e != nil {
		return e
	}
	if req.Fast == nil {
		return errorf(http.StatusBadRequest, "bad_request", `the bots' pace needs "fast": true for no pauses, false for pauses`)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.fastBots = *req.Fast
	writeJSON(w, http.StatusOK, map[string]any{"fast": g.fastBots})
	return nil
}

// pace returns the time a decision of the job's bot takes at a person's
// pace, and whether the bot keeps one (Bot).
func (p *botPool) pace(j botJob) (time.Duration, bool) {
	b, err := p.bot(j.g.rules.ID, j.level, j.person)
	if err != nil {
		return 0, false
	}
	if paced, ok := b.(interface{ Paced() bool }); !ok || !paced.Paced() {
		return 0, false
	}
	if pace, ok := b.(interface{ Pace() time.Duration }); ok {
		return pace.Pace(), true
	}
	return 0, true
}

func (p *botPool) push(j botJob) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	j.queued = time.Now()
	j.cheap = slices.Contains(p.s.cfg.CheapLevels, j.level)
	p.waiting.push(j)
	p.rebalance()
	p.signal()
}

// signal wakes a worker waiting for a job.
func (p *botPool) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// rebalance hurries, when every worker is busy, a move thinking that the
// move going next should go before (outranks), the one that has thought
// longest; or, if some will outrank it once they have thought their
// slice, looks again then. One move is hurried at a time: it answers at
// once, and its worker takes the move that goes next. p.mu is held.
func (p *botPool) rebalance() {
	if len(p.running) < p.workers || p.hurrying() {
		return
	}
	next, ok := p.waiting.peek()
	if !ok {
		return
	}
	now := time.Now()
	var oldest *running
	var due time.Time
	for r := range p.running {
		at, ok := p.outranks(next, r)
		switch {
		case !ok:
		case at.After(now):
			if due.IsZero() || at.Before(due) {
				due = at
			}
		case oldest == nil || r.started.Before(oldest.started):
			oldest = r
		}
	}
	if oldest != nil {
		oldest.hurried = true
		oldest.hurry()
		p.s.metrics.botsHurried.Inc()
		return
	}
	if !due.IsZero() {
		p.recheckAt(due.Sub(now))
	}
}

// outranks reports whether the waiting move j should go before the move r
// thinking, and from when: a person's move outranks a move of bots alone
// at once; a cheap move outranks an expensive one of the same kind of
// game, whoever's, once that has thought its slice; a move of an address
// with fewer moves in the pool outranks one of an address with more of
// the same kind and cost once that has thought its slice. p.mu is held.
func (p *botPool) outranks(j botJob, r *running) (time.Time, bool) {
	switch {
	case j.person && !r.person:
		return r.started, true
	case j.person != r.person:
		return time.Time{}, false
	case j.cheap && !r.cheap:
		return r.started.Add(p.s.cfg.BotSlice), true
	case j.cheap != r.cheap || j.addr == r.addr:
		return time.Time{}, false
	case p.waiting.inPool(r.addr) > p.waiting.inPool(j.addr):
		return r.started.Add(p.s.cfg.BotSlice), true
	}
	return time.Time{}, false
}

// recheckAt arranges for rebalance to run after d. p.mu is held.
func (p *botPool) recheckAt(d time.Duration) {
	if p.recheck != nil {
		p.recheck.Stop()
	}
	p.recheck = time.AfterFunc(d, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.recheck = nil
		if !p.closed {
			p.rebalance()
		}
	})
}

// hurrying reports whether a move hurried has not yet answered.
func (p *botPool) hurrying() bool {
	for r := range p.running {
		if r.hurried {
			return true
		}
	}
	return false
}

// next waits for a job, the one the queue serves next, and counts it
// running (from here on it may be hurried); ok is false once the pool is
// closed.
func (p *botPool) next() (_ botJob, _ *running, ok bool) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return botJob{}, nil, false
		}
		if j, ok := p.waiting.pop(); ok {
			r := &running{person: j.person, cheap: j.cheap, addr: j.addr, started: time.Now()}
			r.ctx, r.hurry = context.WithTimeout(p.ctx, p.s.cfg.BotTimeout)
			p.running[r] = struct{}{}
			more := p.waiting.size > 0
			p.rebalance()
			p.mu.Unlock()
			p.s.metrics.botWait.WithLabelValues(personLabel(j.person), costLabel(j.cheap)).Observe(time.Since(j.queued).Seconds())
			if more {
				p.signal()
			}
			return j, r, true
		}
		p.mu.Unlock()
		select {
		case <-p.wake:
		case <-p.ctx.Done():
		}
	}
}

// finish counts a move no longer thinking.
func (p *botPool) finish(r *running) {
	r.hurry()
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, r)
	p.waiting.done(r.addr)
	if !p.closed {
		p.rebalance()
	}
}

func personLabel(person bool) string {
	if person {
		return "person"
	}
	return "bots"
}

// costLabel names a move's lane by cost in the metrics, so that a cheap
// move's wait, which the slice bounds, is not lost among expensive ones'.
func costLabel(cheap bool) string {
	if cheap {
		return "cheap"
	}
	return "expensive"
}

func (p *botPool) work() {
	for {
		j, r, ok := p.next()
		if !ok {
			return
		}
		p.run(j, r)
	}
}

// queueStats is what the pool reports to /api/health.
type queueStats struct {
	waiting, people, thinking int
	oldest                    time.Duration
}

func (p *botPool) stats(now time.Time) queueStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return queueStats{waiting: p.waiting.size, people: p.waiting.people(), thinking: len(p.running), oldest: p.waiting.oldest(now)}
}

// botKey names the bot of a level of a game, at a table with people or
// among bots alone.
type botKey struct {
	game, level string
	withPeople  bool
}

// bot returns the bot of a level of a game, making it the first time.
func (p *botPool) bot(gameID, level string, withPeople bool) (Bot, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := botKey{gameID, level, withPeople}
	if b, ok := p.bots[k]; ok {
		return b, nil
	}
	b, err := p.s.cfg.Bots(gameID, level, withPeople)
	if err != nil {
		return nil, err
	}
	p.bots[k] = b
	return b, nil
}

// run plays a bot's move. The bot thinks on a copy of the game without the
// game's lock; its move is then played like anyone's, against the version it
// was thought for, so a move that the game has moved past is refused.
func (p *botPool) run(j botJob, r *running) {
	ctx := r.ctx
	defer func() {
		p.finish(r)
		p.s.metrics.botThink.WithLabelValues(personLabel(j.person), costLabel(j.cheap)).Observe(time.Since(r.started).Seconds())
	}()
	g := j.g
	g.mu.Lock()
	if g.closed || len(g.moves) != j.version || g.takeBacks != j.takeBacks || g.cur.ToMove() != j.seat {
		g.mu.Unlock()
		return
	}
	pos := unbounded(g.cur).Clone()
	turnEnd := g.botDeadline(j.seat, j.afterTime, time.Now())
	g.mu.Unlock()
	if !turnEnd.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, turnEnd)
		defer cancel()
	}

	log := p.s.log.With("game", g.id, "version", j.version, "seat", j.seat, "level", j.level)
	b, err := p.bot(g.rules.ID, j.level, j.person)
	if err != nil {
		log.Error("no bot for the level; playing the first legal move", "err", err)
		p.play(j, game.Legal(pos)[0], log)
		return
	}
	m, err := b.Move(ctx, pos)
	if p.ctx.Err() != nil {
		return
	}
	if err != nil && !turnEnd.IsZero() && !time.Now().Before(turnEnd) {
		// Its turn's time ran out: the time rule decides (match.timeout).
		log.Debug("the bot's turn ran out of time", "err", err)
		return
	}
	if err != nil {
		if ctx.Err() != nil && p.ctx.Err() == nil {
			// Hurried (or out of time) before it began: a move it is.
			log.Info("the bot was stopped before it began; playing the first legal move", "err", err)
		} else {
			log.Error("the bot failed; playing the first legal move", "err", err)
		}
		m = game.Legal(pos)[0]
	}
	p.play(j, m, log)
}

// botDeadline returns when the turn of seat, a bot's, runs out under a
// turn timer, zero without one or when it has run out already (afterTime:
// the bot decides for the time rule). The turn's end is the bot's
// deadline, as the glass is a person's: a paced bot gives way when its
// sand runs out. g.mu is held.
func (g *match) botDeadline(seat int, afterTime bool, now time.Time) time.Time {
	if afterTime || g.time == nil || g.time.Kind != string(game.TurnTimer) || !g.timed(seat) {
		return time.Time{}
	}
	return now.Add(time.Duration(g.remaining(seat, now)) * time.Millisecond)
}

// botAddr is whose bot moves the game's are in the fair queue: the address
// that created it, or for a game resumed from the store (whose creator is
// not kept) the game itself.
func (g *match) botAddr() string {
	if g.creator != "" {
		return g.creator
	}
	return "game " + g.id
}

func (p *botPool) play(j botJob, m game.Move, log *slog.Logger) {
	_, _, apiErr := j.g.play(p.ctx, moveRequest{seat: j.seat, version: j.version, move: m, takeBacks: j.takeBacks, afterTime: j.afterTime})
	if apiErr == nil || apiErr.code == "stale_version" || apiErr.code == "time_up" || apiErr == errShuttingDown {
		return
	}
	log.Error("the bot's move was refused", "move", m, "err", apiErr)
	if apiErr.status >= http.StatusInternalServerError {
		// The store failed: try again in a while rather than stall the game.
		j.g.mu.Lock()
		j.g.botVersion = -1
		j.g.mu.Unlock()
		time.AfterFunc(time.Second, func() {
			j.g.mu.Lock()
			defer j.g.mu.Unlock()
			j.g.schedule()
		})
	}
}

// close stops the workers and waits for them; moves being thought about are
// abandoned.
func (p *botPool) close() {
	p.mu.Lock()
	p.closed = true
	p.waiting.clear()
	if p.recheck != nil {
		p.recheck.Stop()
	}
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
}
