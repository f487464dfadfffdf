package server

import (
	"context"
	"log/slog"
	"net/http"
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
	person    bool      // the game has a person's seat
	queued    time.Time // when it was queued
	// afterTime says the seat's turn timer had run out when the job was
	// queued: the bot decides for the time rule (match.timeUp).
	afterTime bool
}

// botPool runs bots' moves in a fixed number of workers, so that bots
// thinking in many games at once cannot take more of the machine than that:
// people's moves, the API and the WebSockets keep the rest.
//
// Thinking is shared fairly. A game where a person waits for a bot goes
// before games of bots alone (two queues, people's first); each game has
// at most one move thinking or waiting at a time and goes to the back of
// its queue after each, so every game has its turn; and when a person's
// bot move finds every worker busy with games of bots alone, the one that
// has thought longest is hurried (its context ended: a search answers with
// the best move it has found), so a cheap bot is never queued behind an
// expensive one for more than a moment. Games of bots alone are also
// capped per address (Config.MaxBotGamesPerAddr).
type botPool struct {
	s       *Server
	ctx     context.Context
	cancel  context.CancelFunc
	workers int

	mu      sync.Mutex
	people  []botJob // moves of games with a person's seat, first come first served
	others  []botJob // moves of games of bots alone
	running map[*running]struct{}
	wake    chan struct{}
	bots    map[botKey]Bot
	wg      sync.WaitGroup
	closed  bool
}

// running is a bot move being thought.
type running struct {
	person  bool
	started time.Time
	ctx     context.Context
	hurry   context.CancelFunc
	hurried bool
}

func newBotPool(s *Server, workers int) *botPool {
	p := &botPool{s: s, workers: workers, wake: make(chan struct{}, 1), bots: make(map[botKey]Bot), running: make(map[*running]struct{})}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	for range workers {
		p.wg.Go(p.work)
	}
	return p
}

// queue adds a job, after the configured delay unless the bot keeps a
// pace of its own.
func (p *botPool) queue(j botJob) {
	if d := p.s.cfg.BotDelay; d > 0 && !p.pacesItself(j) {
		time.AfterFunc(d, func() { p.push(j) })
		return
	}
	p.push(j)
}

// pacesItself reports whether the job's bot keeps a person's pace itself
// (Bot).
func (p *botPool) pacesItself(j botJob) bool {
	b, err := p.bot(j.g.rules.ID, j.level, j.person)
	if err != nil {
		return false
	}
	paced, ok := b.(interface{ Paced() bool })
	return ok && paced.Paced()
}

func (p *botPool) push(j botJob) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	j.queued = time.Now()
	if j.person {
		p.people = append(p.people, j)
		p.hurryOne()
	} else {
		p.others = append(p.others, j)
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// hurryOne hurries, when every worker is busy and none with a person's
// move, the move of bots alone that has thought longest. p.mu is held.
func (p *botPool) hurryOne() {
	if len(p.running) < p.workers {
		return
	}
	var oldest *running
	for r := range p.running {
		if r.person || r.hurried {
			continue
		}
		if oldest == nil || r.started.Before(oldest.started) {
			oldest = r
		}
	}
	if oldest != nil && p.hurriedFor() < len(p.people) {
		oldest.hurried = true
		oldest.hurry()
		p.s.metrics.botsHurried.Inc()
	}
}

// hurriedFor counts the running moves hurried and not yet done.
func (p *botPool) hurriedFor() int {
	n := 0
	for r := range p.running {
		if r.hurried {
			n++
		}
	}
	return n
}

// next waits for a job, people's first, and counts it running (from
// here on it may be hurried); ok is false once the pool is closed.
func (p *botPool) next() (_ botJob, _ *running, ok bool) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return botJob{}, nil, false
		}
		q := &p.people
		if len(*q) == 0 {
			q = &p.others
		}
		if len(*q) > 0 {
			j := (*q)[0]
			(*q)[0] = botJob{}
			*q = (*q)[1:]
			more := len(p.people)+len(p.others) > 0
			r := &running{person: j.person, started: time.Now()}
			r.ctx, r.hurry = context.WithTimeout(p.ctx, p.s.cfg.BotTimeout)
			p.running[r] = struct{}{}
			p.mu.Unlock()
			p.s.metrics.botWait.WithLabelValues(personLabel(j.person)).Observe(time.Since(j.queued).Seconds())
			if more {
				select {
				case p.wake <- struct{}{}:
				default:
				}
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

func personLabel(person bool) string {
	if person {
		return "person"
	}
	return "bots"
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
	q := queueStats{waiting: len(p.people) + len(p.others), people: len(p.people), thinking: len(p.running)}
	for _, jobs := range [][]botJob{p.people, p.others} {
		if len(jobs) > 0 {
			q.oldest = max(q.oldest, now.Sub(jobs[0].queued))
		}
	}
	return q
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
		r.hurry()
		p.mu.Lock()
		delete(p.running, r)
		p.mu.Unlock()
		p.s.metrics.botThink.WithLabelValues(personLabel(j.person)).Observe(time.Since(r.started).Seconds())
	}()
	g := j.g
	g.mu.Lock()
	if g.closed || len(g.moves) != j.version || g.takeBacks != j.takeBacks || g.cur.ToMove() != j.seat {
		g.mu.Unlock()
		return
	}
	pos := unbounded(g.cur).Clone()
	// Under a turn timer the turn's end is the bot's deadline, as the
	// glass is a person's: a paced bot gives way when its sand runs out.
	var turnEnd time.Time
	if now := time.Now(); !j.afterTime && g.time != nil && g.time.Kind == string(game.TurnTimer) && g.timed(j.seat) {
		turnEnd = now.Add(time.Duration(g.remaining(j.seat, now)) * time.Millisecond)
	}
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
	p.people, p.others = nil, nil
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
}
