package server

import (
	"time"
)

// botQueue holds the bot moves waiting for a worker, shared fairly between
// the addresses that wait for them (docs/architecture.md, Bots), not first
// come first served: one address with many games against slow bots queues
// its moves behind each other, not in front of everyone else's.
//
// Moves of games with a person's seat go before moves of games of bots
// alone. Within each, the next move is that of the address with the fewest
// moves thinking, and among those the one served least recently (an
// address that had nothing in the pool counts as never served): round
// robin, one move an address a round. An address's own moves go first come
// first served. The queue is not safe for concurrent use: the pool's mutex
// guards it.
type botQueue struct {
	addrs map[string]*botAddr
	// turns counts the moves handed out, and arrivals the addresses that
	// came into the pool: the clocks of the round robin.
	turns, arrivals uint64
	// size counts the moves waiting, people those of games with a
	// person's seat.
	size, people int
}

// botAddr is what the queue knows of one address while it has moves in the
// pool.
type botAddr struct {
	people, others []botJob // waiting, by kind of game, oldest first
	thinking       int
	// served is the queue's turns when a move of the address last got a
	// worker, 0 for never; arrived orders the addresses never served.
	served, arrived uint64
}

func newBotQueue() *botQueue {
	return &botQueue{addrs: make(map[string]*botAddr)}
}

// push adds a move to its address's queue.
func (q *botQueue) push(j botJob) {
	a := q.addr(j.addr)
	if j.person {
		a.people = append(a.people, j)
		q.people++
	} else {
		a.others = append(a.others, j)
	}
	q.size++
}

// addr returns the address's entry, making it when the address comes into
// the pool.
func (q *botQueue) addr(key string) *botAddr {
	a, ok := q.addrs[key]
	if !ok {
		q.arrivals++
		a = &botAddr{arrived: q.arrivals}
		q.addrs[key] = a
	}
	return a
}

// peek returns the move that goes next, without taking it.
func (q *botQueue) peek() (botJob, bool) {
	a := q.nextAddr()
	if a == nil {
		return botJob{}, false
	}
	return a.head(q.people > 0), true
}

// pop takes the move that goes next and counts it thinking.
func (q *botQueue) pop() (botJob, bool) {
	a := q.nextAddr()
	if a == nil {
		return botJob{}, false
	}
	jobs := &a.others
	if q.people > 0 {
		jobs = &a.people
		q.people--
	}
	j := (*jobs)[0]
	(*jobs)[0] = botJob{}
	*jobs = (*jobs)[1:]
	q.size--
	q.turns++
	a.served = q.turns
	a.thinking++
	return j, true
}

// done counts a move of addr no longer thinking; an address with nothing
// left in the pool is forgotten.
func (q *botQueue) done(addr string) {
	a, ok := q.addrs[addr]
	if !ok {
		return
	}
	a.thinking--
	if a.thinking <= 0 && len(a.people)+len(a.others) == 0 {
		delete(q.addrs, addr)
	}
}

// inPool counts an address's moves waiting and thinking.
func (q *botQueue) inPool(addr string) int {
	a, ok := q.addrs[addr]
	if !ok {
		return 0
	}
	return len(a.people) + len(a.others) + a.thinking
}

// nextAddr returns the address whose move goes next, nil if none waits.
func (q *botQueue) nextAddr() *botAddr {
	people := q.people > 0
	var best *botAddr
	for _, a := range q.addrs {
		if (people && len(a.people) == 0) || (!people && len(a.others) == 0) {
			continue
		}
		if best == nil || a.before(best) {
			best = a
		}
	}
	return best
}

// before reports whether a's move goes before b's.
func (a *botAddr) before(b *botAddr) bool {
	if a.thinking != b.thinking {
		return a.thinking < b.thinking
	}
	if a.served != b.served {
		return a.served < b.served
	}
	return a.arrived < b.arrived
}

func (a *botAddr) head(person bool) botJob {
	if person {
		return a.people[0]
	}
	return a.others[0]
}

// oldest returns how long the move waiting longest has waited.
func (q *botQueue) oldest(now time.Time) time.Duration {
	var d time.Duration
	for _, a := range q.addrs {
		for _, jobs := range [][]botJob{a.people, a.others} {
			if len(jobs) > 0 {
				d = max(d, now.Sub(jobs[0].queued))
			}
		}
	}
	return d
}

// clear drops every move waiting.
func (q *botQueue) clear() {
	*q = *newBotQueue()
}
