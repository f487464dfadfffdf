package server

import (
	"time"
)

// botQueue holds the bot moves waiting for a worker, shared fairly between
// the addresses that wait for them (docs/architecture.md, Bots), not first
// come first served: one address with many games against slow bots queues
// its moves behind each other, not in front of everyone else's.
//
// The moves wait in lanes, served in order: a game with a person's seat
// before a game of bots alone, and within each a cheap bot's move (its
// level is one of Config.CheapLevels) before an expensive one's, so that
// a cheap answer never waits behind expensive thinking however many
// addresses ask for it. Within a lane, the next move is that of the
// address with the fewest moves thinking, and among those the one served
// least recently (an address that had nothing in the pool counts as never
// served): round robin, one move an address a round. An address's own
// moves of a lane go first come first served. Its invariant: lanes[l]
// counts the moves of lane l of every address, size their sum, and an
// address has an entry exactly while it has a move waiting or thinking.
// The queue is not safe for concurrent use: the pool's mutex guards it.
type botQueue struct {
	addrs map[string]*botAddr
	// turns counts the moves handed out, and arrivals the addresses that
	// came into the pool: the clocks of the round robin.
	turns, arrivals uint64
	// size counts the moves waiting, lanes those of each lane.
	size  int
	lanes [botLanes]int
}

// botLanes counts the queue's lanes: with a person or of bots alone, each
// cheap or expensive.
const botLanes = 4

// lane returns the lane of a move, the lower served first.
func (j botJob) lane() int {
	l := 0
	if !j.person {
		l += 2
	}
	if !j.cheap {
		l++
	}
	return l
}

// botAddr is what the queue knows of one address while it has moves in the
// pool.
type botAddr struct {
	waiting  [botLanes][]botJob // by lane, oldest first
	thinking int
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
	l := j.lane()
	a.waiting[l] = append(a.waiting[l], j)
	q.lanes[l]++
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

// people counts the moves waiting of games with a person's seat.
func (q *botQueue) people() int { return q.lanes[0] + q.lanes[1] }

// peek returns the move that goes next, without taking it.
func (q *botQueue) peek() (botJob, bool) {
	a, l := q.next()
	if a == nil {
		return botJob{}, false
	}
	return a.waiting[l][0], true
}

// pop takes the move that goes next and counts it thinking.
func (q *botQueue) pop() (botJob, bool) {
	a, l := q.next()
	if a == nil {
		return botJob{}, false
	}
	jobs := &a.waiting[l]
	j := (*jobs)[0]
	(*jobs)[0] = botJob{}
	*jobs = (*jobs)[1:]
	q.lanes[l]--
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
	if a.thinking <= 0 && a.inQueue() == 0 {
		delete(q.addrs, addr)
	}
}

// inQueue counts the address's moves waiting.
func (a *botAddr) inQueue() int {
	n := 0
	for _, jobs := range a.waiting {
		n += len(jobs)
	}
	return n
}

// inPool counts an address's moves waiting and thinking.
func (q *botQueue) inPool(addr string) int {
	a, ok := q.addrs[addr]
	if !ok {
		return 0
	}
	return a.inQueue() + a.thinking
}

// next returns the address whose move goes next and the move's lane, nil
// if none waits: the first lane with a move, and in it the address the
// round robin serves.
func (q *botQueue) next() (*botAddr, int) {
	for l, n := range q.lanes {
		if n == 0 {
			continue
		}
		var best *botAddr
		for _, a := range q.addrs {
			if len(a.waiting[l]) > 0 && (best == nil || a.before(best)) {
				best = a
			}
		}
		return best, l
	}
	return nil, 0
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

// oldest returns how long the move waiting longest has waited.
func (q *botQueue) oldest(now time.Time) time.Duration {
	var d time.Duration
	for _, a := range q.addrs {
		for _, jobs := range a.waiting {
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
