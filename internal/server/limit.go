package server

import (
	"sync"
	"time"
)

// bucket is a token bucket: it holds up to burst tokens and gains rate tokens
// a second; each request takes one.
type bucket struct {
	tokens float64
	last   time.Time
}

// take takes a token if there is one. If not, it returns how long until
// there will be.
func (b *bucket) take(now time.Time, rate, burst float64) (bool, time.Duration) {
	if b.last.IsZero() {
		b.tokens = burst
	} else {
		b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / rate * float64(time.Second))
}

// limiter keeps one bucket per client address.
type limiter struct {
	rate, burst float64

	mu        sync.Mutex
	clients   map[string]*bucket
	lastSweep time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), clients: make(map[string]*bucket)}
}

// allow takes a token from client's bucket.
func (l *limiter) allow(client string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b := l.clients[client]
	if b == nil {
		b = new(bucket)
		l.clients[client] = b
	}
	return b.take(now, l.rate, l.burst)
}

// sweep forgets, once a minute, the clients whose buckets are full again:
// forgetting them changes nothing.
func (l *limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < time.Minute {
		return
	}
	l.lastSweep = now
	full := time.Duration(l.burst / l.rate * float64(time.Second))
	for c, b := range l.clients {
		if now.Sub(b.last) >= full {
			delete(l.clients, c)
		}
	}
}
