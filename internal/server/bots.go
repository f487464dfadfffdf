package server

import (
	"context"
	"log/slog"
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
}

// botPool runs bots' moves in a fixed number of workers, so that bots
// thinking in many games at once cannot take more of the machine than that:
// people's moves, the API and the WebSockets keep the rest. Jobs wait in an
// unbounded queue, first come first served.
type botPool struct {
	s      *Server
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	jobs    []botJob
	wake    chan struct{}
	bots    map[botKey]Bot
	workers sync.WaitGroup
	closed  bool
}

func newBotPool(s *Server, workers int) *botPool {
	p := &botPool{s: s, wake: make(chan struct{}, 1), bots: make(map[botKey]Bot)}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	for range workers {
		p.workers.Go(p.work)
	}
	return p
}

// queue adds a job, after the configured delay.
func (p *botPool) queue(j botJob) {
	if d := p.s.cfg.BotDelay; d > 0 {
		time.AfterFunc(d, func() { p.push(j) })
		return
	}
	p.push(j)
}

func (p *botPool) push(j botJob) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.jobs = append(p.jobs, j)
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// next waits for a job; ok is false once the pool is closed.
func (p *botPool) next() (botJob, bool) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return botJob{}, false
		}
		if len(p.jobs) > 0 {
			j := p.jobs[0]
			p.jobs[0] = botJob{}
			p.jobs = p.jobs[1:]
			more := len(p.jobs) > 0
			p.mu.Unlock()
			if more {
				select {
				case p.wake <- struct{}{}:
				default:
				}
			}
			return j, true
		}
		p.mu.Unlock()
		select {
		case <-p.wake:
		case <-p.ctx.Done():
		}
	}
}

func (p *botPool) work() {
	for {
		j, ok := p.next()
		if !ok {
			return
		}
		p.run(j)
	}
}

// botKey names the bot of a level of a game.
type botKey struct{ game, level string }

// bot returns the bot of a level of a game, making it the first time.
func (p *botPool) bot(gameID, level string) (Bot, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := botKey{gameID, level}
	if b, ok := p.bots[k]; ok {
		return b, nil
	}
	b, err := p.s.cfg.Bots(gameID, level)
	if err != nil {
		return nil, err
	}
	p.bots[k] = b
	return b, nil
}

// run plays a bot's move. The bot thinks on a copy of the game without the
// game's lock; its move is then played like anyone's, against the version it
// was thought for, so a move that the game has moved past is refused.
func (p *botPool) run(j botJob) {
	g := j.g
	g.mu.Lock()
	if g.closed || len(g.moves) != j.version || g.takeBacks != j.takeBacks || g.cur.ToMove() != j.seat {
		g.mu.Unlock()
		return
	}
	pos := g.cur.Clone()
	g.mu.Unlock()

	log := p.s.log.With("game", g.id, "version", j.version, "seat", j.seat, "level", j.level)
	ctx, cancel := context.WithTimeout(p.ctx, p.s.cfg.BotTimeout)
	defer cancel()
	b, err := p.bot(g.rules.ID, j.level)
	if err != nil {
		log.Error("no bot for the level; playing the first legal move", "err", err)
		p.play(j, game.Legal(pos)[0], log)
		return
	}
	m, err := b.Move(ctx, pos)
	if p.ctx.Err() != nil {
		return
	}
	if err != nil {
		log.Error("the bot failed; playing the first legal move", "err", err)
		m = game.Legal(pos)[0]
	}
	p.play(j, m, log)
}

func (p *botPool) play(j botJob, m game.Move, log *slog.Logger) {
	_, _, apiErr := j.g.play(p.ctx, moveRequest{seat: j.seat, version: j.version, move: m, takeBacks: j.takeBacks})
	if apiErr == nil || apiErr.code == "stale_version" || apiErr == errShuttingDown {
		return
	}
	log.Error("the bot's move was refused", "move", m, "err", apiErr)
	if apiErr.status >= 500 {
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
	p.jobs = nil
	p.mu.Unlock()
	p.cancel()
	p.workers.Wait()
}
