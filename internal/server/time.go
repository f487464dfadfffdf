package server

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/corr"
	"github.com/lagoon-games/lagoon/internal/store"
)

// This file keeps a game's time rule (docs/api.md, Time). Both rules keep
// one number a seat, in milliseconds, as of the moment the seat to move
// began to decide (turnStart): with a bank (a chess clock) each seat's
// bank; with a turn timer what is left of the turn, in the entry of the seat
// to move (the turn's time runs whoever decides within it), the others 0.
// The time runs only for a person: bots have no time, and nobody's time
// runs before every person has joined. A move leaves the numbers of its
// rule (clocksAfter) and they are stored with it, so that a replay shows
// them and a restart goes on from them.
//
// A correspondence rule (game.Correspondence) keeps the seat to move's
// time of its turn as a turn timer does, but its time is the calendar's:
// every write of the game stores its clocks as of the moment it stores
// (the game's updated time), so the deadline, turnStart plus the time
// left, comes from stored data alone and a restart, the expiry sweep and
// another node of a cluster all read the same one. Only a person's time
// runs, as with a bank.

// timeStarted reports whether the time runs: the game keeps time and every
// human seat has been joined.
func (g *match) timeStarted() bool {
	if g.time == nil {
		return false
	}
	for _, st := range g.seats {
		if st.Kind == kindOpen || (st.Kind == kindHuman && !st.Joined) {
			return false
		}
	}
	return true
}

// timed reports whether seat p's time runs when p is to move: a person's
// (or an open seat's, before which the time has not started); under a
// turn timer, which is the table's sand glass, a bot's too, its turn's
// end reaching it as its context's deadline. A bank is a person's clock:
// bots have none.
func (g *match) timed(p int) bool {
	if !g.timeStarted() {
		return false
	}
	if g.time.Kind == string(game.TurnTimer) && game.IsUntimed(g.cur) {
		return false
	}
	switch g.seats[p].Kind {
	case kindHouse:
		return false
	case kindBot:
		return g.time.Kind == string(game.TurnTimer)
	}
	return true
}

// byPost reports whether the game is played by correspondence.
func (g *match) byPost() bool {
	return g.time != nil && g.time.Kind == string(game.Correspondence)
}

// warnShare is the share of a correspondence turn's time left at which
// the seat is warned that its time runs out: when 80% of it is gone.
const warnShare = 5

// warned reports whether seat p, to move, has less than a fifth of its
// correspondence turn left at now (and so has been warned).
func (g *match) warned(p int, now time.Time) bool {
	return g.byPost() && g.timed(p) && g.remaining(p, now)*warnShare <= g.time.TurnMS
}

// deadline returns when the time of seat p, to move and timed, runs out.
func (g *match) deadline(p int) time.Time {
	return corr.Deadline(g.away[p], g.turnStart, time.Duration(g.clocks[p])*time.Millisecond)
}

// timeUp reports whether the time of seat p, to move, has run out at now
// under a turn timer: the seat may no longer decide for itself, and the
// rules' move (or the stand-in) decides until its turn ends.
func (g *match) timeUp(p int, now time.Time) bool {
	return g.time != nil && g.time.Kind == string(game.TurnTimer) && g.timed(p) && g.remaining(p, now) <= 0
}

// remaining returns seat p's time at now.
func (g *match) remaining(p int, now time.Time) int64 {
	r := g.clocks[p]
	switch {
	case p != g.cur.ToMove() || !g.timed(p):
	case g.byPost():
		r -= corr.Running(g.away[p], g.turnStart, now).Milliseconds()
	default:
		r -= now.Sub(g.turnStart).Milliseconds()
	}
	return max(0, r)
}

// clockViews describes the time at now, nil for a game without time.
func (g *match) clockViews(now time.Time) []clockView {
	if g.time == nil {
		return nil
	}
	out := make([]clockView, len(g.clocks))
	p := g.cur.ToMove()
	for q := range out {
		out[q] = clockView{RemainingMS: g.remaining(q, now), Running: q == p && g.timed(q)}
		if out[q].Running && g.byPost() {
			d := g.deadline(q).UTC()
			out[q].Deadline, out[q].Warned = &d, g.warned(q, now)
		}
	}
	return out
}

// historicClocks describes the time as a move left it, toMove being the
// seat to move after it (known without replaying the game to it).
func (g *match) historicClocks(clocks []int64, toMove int) []clockView {
	if g.time == nil || clocks == nil {
		return nil
	}
	out := make([]clockView, len(clocks))
	for q, r := range clocks {
		out[q] = clockView{RemainingMS: r, Running: q == toMove && g.timed(q)}
	}
	return out
}

// clocksAfter returns the time the move mi, made now, leaves: next is the
// state after it and seats the seats after it; nil without time.
func (g *match) clocksAfter(mi *moveInfo, next game.State, seats []store.Seat, now time.Time) []int64 {
	if g.time == nil {
		return nil
	}
	q := next.ToMove()
	switch g.time.Kind {
	case string(game.Bank):
		out := slices.Clone(g.clocks)
		if g.timed(mi.seat) {
			out[mi.seat] = g.remaining(mi.seat, now)
		}
		// The seat whose turn ends gains the increment.
		if mi.turnEnded && g.timed(g.owner) {
			out[g.owner] += g.time.IncrementMS
		}
		// A seat a stand-in plays for has, at each of its turns, at least
		// the grace to come back: part of the banks the move leaves, so
		// that it is sent with the move and stored with it (a restart does
		// not give it again).
		if mi.turnEnded && q >= 0 && g.timed(q) && seats[q].StandIn {
			out[q] = max(out[q], g.s.cfg.StandInGrace.Milliseconds())
		}
		return out
	case string(game.Correspondence):
		// A turn that ends gives the next its days; one that goes on
		// keeps what is left of it, as of the move.
		out := make([]int64, len(g.clocks))
		if q < 0 {
			return out
		}
		out[q] = g.time.TurnMS
		if !mi.turnEnded {
			out[q] = g.remaining(mi.seat, now)
		}
		return out
	case string(game.TurnTimer):
		out := make([]int64, len(g.clocks))
		if q < 0 {
			return out
		}
		left := g.remaining(mi.seat, now)
		switch {
		case game.IsUntimed(next) || game.IsUntimed(g.cur):
			// The game is set up, or its play begins: the glass is
			// turned when play begins, and nothing passes into it.
			out[q] = g.time.TurnMS
		case !mi.turnEnded:
			// The turn goes on, and its time with it.
			out[q] = left
		case g.time.Carry && g.timed(g.owner):
			// What a person's turn leaves comes on top of the next one's
			// time, as a sand glass passes it on (docs/laguna.md): a turn
			// runs first what the last one left, then a glass of its own,
			// turned once that has run through, and what is left in the
			// upper bulb passes on, never more than a glass. A bot's turn,
			// which the time does not run for, leaves nothing.
			out[q] = g.time.TurnMS + glassLeft(left, g.time.TurnMS)
		default:
			out[q] = g.time.TurnMS
		}
		return out
	}
	return slices.Clone(g.clocks)
}

// glassLeft returns what a turn with left ms still to run leaves in the
// upper bulb of a glass of turn ms: all of it once the turn's own glass has
// been turned (left <= turn), else what is left of the time the last turn
// left, the turn's own glass never started.
func glassLeft(left, turn int64) int64 {
	if left > turn {
		return left - turn
	}
	return left
}

// timeout is called when the time of the seat to move at version v may
// have run out. With a bank, the stand-in bot then plays for that seat
// until its person moves again. With a turn timer, the rules' move for a
// turn whose time is up is played, or, if the game has none, the stand-in
// bot decides.
func (g *match) timeout(v, gen int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || len(g.moves) != v || g.takeBacks != gen || g.cur.Over() {
		return
	}
	p := g.cur.ToMove()
	now := time.Now()
	if g.byPost() && g.timed(p) && g.remaining(p, now) <= 0 {
		// A vacation taken on another node of a cluster is in the store
		// alone: read before the time is taken as run out.
		g.readAway(context.Background())
	}
	if !g.timed(p) || g.remaining(p, now) > 0 {
		if g.warned(p, now) {
			// The timer woke at the warning moment (schedule), once a
			// turn: the seat's clients are told, and the log keeps it.
			// The moment itself is stored data (the deadline less a
			// fifth of the turn), which a notice sent later reads.
			g.s.log.Info("a correspondence turn's time is almost up", "game", g.id, "seat", p, "deadline", g.deadline(p))
			g.s.metrics.timeWarnings.Inc()
			g.broadcastSeats(now)
		}
		g.schedule()
		return
	}
	g.clocks[p] = 0
	g.turnStart = now
	if g.time.Kind == string(game.TurnTimer) {
		if m, ok := g.cur.TimeUp(); ok {
			g.s.log.Info("the turn's time is up; the rules play", "game", g.id, "seat", p, "move", g.cur.MoveText(m))
			if _, _, e := g.playLocked(context.Background(), moveRequest{seat: p, version: v, move: m, takeBacks: gen, afterTime: true}); e != nil {
				g.s.log.Error("the move for a turn whose time is up was refused", "game", g.id, "version", v, "err", e)
				if e.status >= http.StatusInternalServerError && e != errShuttingDown {
					// The store failed: try again in a while rather than
					// stall the game.
					time.AfterFunc(time.Second, func() { g.timeout(v, gen) })
				}
			}
			return
		}
		// A bot's seat keeps its own bot, asked again without a deadline
		// (the one thinking, cut short by its turn's end, leaves the
		// decision to the time rule); a person's gets the stand-in.
		level := g.s.cfg.StandInLevel
		if g.seats[p].Kind == kindBot {
			level = g.seats[p].Level
		}
		g.s.log.Info("the turn's time is up; a bot decides", "game", g.id, "seat", p, "level", level)
		g.botVersion = -1
		g.queueBot(v, p, level, now)
		return
	}
	if !g.seats[p].StandIn {
		seats := slices.Clone(g.seats)
		seats[p].StandIn = true
		if err := g.s.store.UpdateSeats(g.fence(context.Background()), g.id, len(g.moves), seats, g.clocks, now); err != nil {
			if g.fenced(err) {
				return
			}
			g.s.repeats.Error("storing a stand-in", "game", g.id, "seat", p, "err", err)
		} else {
			g.seats = seats
		}
		g.s.log.Info("time is up; the stand-in bot plays", "game", g.id, "seat", p)
		g.broadcastSeats(now)
	}
	g.queueBot(v, p, g.s.cfg.StandInLevel, now)
}

// timeView describes the time rule, nil without.
func (g *match) timeView() *timeView {
	if g.time == nil {
		return nil
	}
	t := g.time
	return &timeView{Kind: t.Kind, InitialMS: t.InitialMS, IncrementMS: t.IncrementMS, TurnMS: t.TurnMS, Carry: t.Carry, Started: g.timeStarted()}
}

// storeTime returns a checked time rule as the store keeps it, nil for none.
func storeTime(t game.TimeRule) *store.Time {
	switch t.Kind {
	case game.Bank:
		return &store.Time{Kind: string(t.Kind), InitialMS: t.Initial.Milliseconds(), IncrementMS: t.Increment.Milliseconds()}
	case game.TurnTimer:
		return &store.Time{Kind: string(t.Kind), TurnMS: t.Turn.Milliseconds(), Carry: t.Carry}
	case game.Correspondence:
		return &store.Time{Kind: string(t.Kind), TurnMS: t.Turn.Milliseconds()}
	}
	return nil
}

// clocksTakenBack returns the time after a take-back, at now, to version
// to, where seat p is to move: a take-back never gives time back, the
// clocks running on as if the moves taken back had been played. With a
// bank each seat keeps the time it has now, less the increments the turns
// taken back earned it. With a turn timer p's turn has what its glass had
// at version to, run on since: a turn already over, its end taken back,
// has no more time than it had left when it ended, less the time since.
func (g *match) clocksTakenBack(to, p int, now time.Time) []int64 {
	if g.time == nil {
		return nil
	}
	if !g.timeStarted() {
		return g.clocksAt(to)
	}
	out := make([]int64, len(g.clocks))
	switch g.time.Kind {
	case string(game.Bank):
		for q := range out {
			out[q] = g.remaining(q, now)
		}
		// Only a turn ended once the time ran earned its increment. Until
		// the time starts no bank changes, so the moves before then left
		// the initial banks: the time ran from the first move that left
		// others (a person's move that used exactly its increment leaves
		// them too, and keeps that increment, a millisecond's chance).
		initial := initialClocks(g.time, g.start)
		ran := slices.IndexFunc(g.moves, func(mi moveInfo) bool { return !slices.Equal(mi.clocks, initial) })
		if ran < 0 {
			ran = len(g.moves)
		}
		for _, mi := range g.moves[max(to, ran):] {
			if mi.turnEnded && g.timed(mi.owner) {
				out[mi.owner] -= g.time.IncrementMS
			}
		}
		for q := range out {
			out[q] = max(0, out[q])
		}
	case string(game.TurnTimer):
		left, at := g.glassAfter(to, p)
		out[p] = max(0, left-now.Sub(at).Milliseconds())
	case string(game.Correspondence):
		// The others agreed to it, and a turn run on from days ago
		// would leave the seat nothing: its turn begins again.
		out[p] = g.time.TurnMS
	}
	return out
}

// clocksAt returns the time as version v left it.
func (g *match) clocksAt(v int) []int64 {
	var clocks []int64
	if v > 0 {
		clocks = slices.Clone(g.moves[v-1].clocks)
	}
	if len(clocks) != g.setup.Players {
		clocks = initialClocks(g.time, g.start)
	}
	return clocks
}

// glassAfter returns what seat p's turn had left under a turn timer when
// it made move to+1, and when: stored with the move when it did not end
// the turn (in the entry of whoever decided next in it), else what version
// to left it less the time the move took. The first move of a game that
// ended its turn is counted from itself.
func (g *match) glassAfter(to, p int) (left int64, at time.Time) {
	mi := g.moves[to]
	switch {
	case !mi.turnEnded && len(mi.clocks) > 0:
		return slices.Max(mi.clocks), mi.at
	case to > 0:
		return g.clocksAt(to)[p], g.moves[to-1].at
	}
	return g.clocksAt(0)[p], mi.at
}
