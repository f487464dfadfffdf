package server

import (
	"context"
	"net/http"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// This file keeps moves to a hand's pace under a turn timer (docs/api.md,
// A hand's time). A game may say what a move takes a hand at the table
// (game.HandTimer: Laguna's step, pearl and peek); a move sent sooner than
// that after its decision began is held by a timer until its time and
// made then, so that the glass is charged the longer of the time taken
// and the hand's, people's moves and bots' alike. Nothing waits for a
// held move but whoever asked for it: no worker sleeps and the game's lock
// is free meanwhile.

// A moveOutcome is what became of a move: the version it made and whether
// it was sent again after it was made, or why it was refused.
type moveOutcome struct {
	version   int
	duplicate bool
	err       *apiError
}

// A heldMove is a move sent sooner than a hand could make it, waiting for
// its time. Its first answer is its sender's; the others are the same
// move sent again while it waited, answered as duplicates.
type heldMove struct {
	req     moveRequest
	answers []func(moveOutcome)
}

// errMoveWaiting refuses a move of a seat whose last move waits for its
// hand: the page sends one move at a time, and the next one is thought
// against the position the held move makes.
var errMoveWaiting = errorf(http.StatusConflict, "move_waiting", "your last move waits for your hand to make it; send the next once it is made")

// play makes a move and returns its outcome: at once, or, for a move held
// for its hand, when it is made. A bot's held move returns at once the
// version it will make, so that its worker goes on to the next game; what
// becomes of it is the hold's (heldBotMoveDone).
func (g *match) play(ctx context.Context, req moveRequest) (version int, duplicate bool, _ *apiError) {
	out := make(chan moveOutcome, 1)
	if v := g.submit(ctx, req, func(o moveOutcome) { out <- o }); v > 0 && !req.person {
		return v, false, nil
	}
	o := <-out
	return o.version, o.duplicate, o.err
}

// submit makes a move now and answers it before returning, or holds it for
// its hand and returns the version it will make, answering it when it is
// made. answer is called without the game's lock.
func (g *match) submit(ctx context.Context, req moveRequest, answer func(moveOutcome)) (heldFor int) {
	g.mu.Lock()
	if h := g.held; h != nil && req.seat == h.req.seat && req.version == len(g.moves) {
		same := g.sameMove(&moveInfo{move: h.req.move, text: g.cur.MoveText(h.req.move)}, req)
		if same {
			h.answers = append(h.answers, answer)
		}
		g.mu.Unlock()
		if !same {
			answer(moveOutcome{err: errMoveWaiting})
			return 0
		}
		return req.version + 1
	}
	m, wait, e := g.handWait(req, time.Now())
	if e == nil && wait > 0 {
		g.hold(req, m, answer, wait)
		g.mu.Unlock()
		return req.version + 1
	}
	var o moveOutcome
	if e != nil {
		o.err = e
	} else {
		o.version, o.duplicate, o.err = g.playLocked(ctx, req)
	}
	g.mu.Unlock()
	answer(o)
	return 0
}

// handWait returns how much longer the hand needs to make the move req
// asks for, at now: 0 where no hand's time binds it (no turn timer, a
// seat the time does not run for, a move the time rule makes, one that
// is refused anyway, which playLocked says why). A move whose hand would
// outlast the turn's sand is refused: the glass runs through first.
func (g *match) handWait(req moveRequest, now time.Time) (game.Move, time.Duration, *apiError) {
	if req.afterTime || g.closed || g.time == nil || g.time.Kind != string(game.TurnTimer) || !g.timed(req.seat) {
		return 0, 0, nil
	}
	m, e := g.checkMove(req, now)
	if e != nil {
		return 0, 0, nil
	}
	g.spare.CopyFrom(g.cur)
	if g.spare.Play(m) != nil {
		return 0, 0, nil
	}
	hand := game.HandTime(g.cur, m)
	wait := hand - now.Sub(g.turnStart)
	if wait <= 0 {
		return m, 0, nil
	}
	if left := time.Duration(g.remaining(req.seat, now)) * time.Millisecond; wait >= left {
		return m, 0, errorf(http.StatusConflict, "time_up", "the sand left (%v) runs out before a hand could make the move (%v)", left, hand)
	}
	return m, wait, nil
}

// hold keeps the move req, m, until the hand has had the time to make it,
// wait from now, and then makes it. g.mu is held. A take-back meanwhile
// makes it stale, as it makes a bot's move stale.
func (g *match) hold(req moveRequest, m game.Move, answer func(moveOutcome), wait time.Duration) {
	req.move, req.takeBacks, req.held = m, g.takeBacks, true
	h := &heldMove{req: req, answers: []func(moveOutcome){answer}}
	if !req.person {
		// Nobody waits for a bot's move: what becomes of it is the hold's.
		h.answers[0] = g.heldBotMoveDone
	}
	g.held = h
	time.AfterFunc(wait, func() { g.makeHeld(h) })
}

// makeHeld makes a held move, its hand's time past, and answers whoever
// sent it.
func (g *match) makeHeld(h *heldMove) {
	g.mu.Lock()
	if g.held == h {
		g.held = nil
	}
	g.mu.Unlock()
	first := true
	// The store's write is the game's, not the sender's: a sender gone
	// meanwhile does not undo a move it was told would be made.
	g.submit(context.Background(), h.req, func(o moveOutcome) {
		for _, answer := range h.answers {
			answer(o)
			if first && o.err == nil {
				o.duplicate, first = true, false
			}
		}
	})
}

// heldBotMoveDone takes what became of a bot's held move: a refusal the
// bot pool would log is logged, and a store that failed is tried again in
// a while rather than stall the game.
func (g *match) heldBotMoveDone(o moveOutcome) {
	e := o.err
	if e == nil || e.code == "stale_version" || e.code == "time_up" || e == errShuttingDown {
		return
	}
	g.s.log.Error("the bot's held move was refused", "game", g.id, "err", e)
	if e.status < http.StatusInternalServerError {
		return
	}
	g.mu.Lock()
	g.botVersion = -1
	g.mu.Unlock()
	time.AfterFunc(time.Second, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.schedule()
	})
}
