package server

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// repeatWindow is how long the repeats of a log line are held back and
// counted after it is logged (repeats).
const repeatWindow = 10 * time.Second

// repeats summarises the lines of a log that repeat: a line of a kind (its
// level and message) is logged at once, and the lines of that kind within
// the window after it are held back and counted, then logged as one line
// when the window ends: the last one held, with "repeated" (how many) and
// "over" (the window). A window that held some opens another, so a fault
// repeated for minutes (NATS down, a disk full, requests for another host,
// slow bodies) writes a line a window, and a line of a kind not seen for a
// window is never delayed. Lines a caller logs once per game (a damaged
// game) do not go through it, since each names its game.
//
// Invariant: a kind is in kinds exactly while its window is open, and then
// its timer runs; once closed, lines are logged as they come, with nothing
// held.
type repeats struct {
	log    *slog.Logger
	window time.Duration

	mu     sync.Mutex
	kinds  map[repeatKind]*heldLines
	closed bool
}

type repeatKind struct {
	level slog.Level
	msg   string
}

// heldLines are the lines of a kind held back in its open window.
type heldLines struct {
	n     int   // lines held
	last  []any // the last one's attributes
	timer *time.Timer
}

func newRepeats(log *slog.Logger, window time.Duration) *repeats {
	return &repeats{log: log, window: window, kinds: map[repeatKind]*heldLines{}}
}

func (r *repeats) Warn(msg string, args ...any)  { r.add(slog.LevelWarn, msg, args) }
func (r *repeats) Error(msg string, args ...any) { r.add(slog.LevelError, msg, args) }

func (r *repeats) add(level slog.Level, msg string, args []any) {
	k := repeatKind{level, msg}
	r.mu.Lock()
	defer r.mu.Unlock()
	if h := r.kinds[k]; h != nil {
		h.n, h.last = h.n+1, args
		return
	}
	r.log.Log(context.Background(), level, msg, args...)
	if !r.closed {
		r.kinds[k] = &heldLines{timer: time.AfterFunc(r.window, func() { r.end(k) })}
	}
}

// end ends kind k's window: the lines it held are logged as one, and a new
// window opens after them; a window that held none closes.
func (r *repeats) end(k repeatKind) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := r.kinds[k]
	if h == nil {
		return // closed meanwhile, its lines logged
	}
	if h.n == 0 || r.closed {
		delete(r.kinds, k)
		return
	}
	r.summary(k, h)
	h.n, h.last = 0, nil
	h.timer.Reset(r.window)
}

func (r *repeats) summary(k repeatKind, h *heldLines) {
	r.log.Log(context.Background(), k.level, k.msg, append(h.last[:len(h.last):len(h.last)], "repeated", h.n, "over", r.window)...)
}

// close logs the lines held, at once, and every line from now on as it
// comes: nothing is lost at shutdown, and no timer writes to a log after
// its owner closed.
func (r *repeats) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for k, h := range r.kinds {
		h.timer.Stop()
		if h.n > 0 {
			r.summary(k, h)
		}
		delete(r.kinds, k)
	}
}
