package players

import "sync"

// Changes tells whoever watches a key that something under it changed:
// the server marks a game's key at each change of the game and a
// player's key when a seat becomes theirs, and a player's list of games
// on each device (GET /api/me/ws) waits on the keys of its games and
// player, to be read again only then. A mark reaches every watch of the
// key made before it, at most one pending mark a watch (marks
// coalesce), and never blocks the one who marks.
//
// Its invariant: watches[k] holds exactly the live watches of key k, and
// no key maps to an empty set.
type Changes struct {
	mu      sync.Mutex
	watches map[string]map[*watch]struct{}
}

// watch is one Watch's channel, of capacity one: full, a mark is pending.
type watch struct{ c chan struct{} }

// NewChanges returns a Changes no one watches.
func NewChanges() *Changes {
	return &Changes{watches: map[string]map[*watch]struct{}{}}
}

// Watch returns a channel that receives once a mark of any of keys comes
// after the call (several marks before it is read are one), and stop,
// which ends the watch and must be called once it is no longer read.
func (c *Changes) Watch(keys ...string) (<-chan struct{}, func()) {
	w := &watch{c: make(chan struct{}, 1)}
	c.mu.Lock()
	for _, k := range keys {
		set := c.watches[k]
		if set == nil {
			set = map[*watch]struct{}{}
			c.watches[k] = set
		}
		set[w] = struct{}{}
	}
	c.mu.Unlock()
	var once sync.Once
	return w.c, func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			for _, k := range keys {
				delete(c.watches[k], w)
				if len(c.watches[k]) == 0 {
					delete(c.watches, k)
				}
			}
		})
	}
}

// Mark tells the watches of key that it changed.
func (c *Changes) Mark(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for w := range c.watches[key] {
		select {
		case w.c <- struct{}{}:
		default: // a mark is pending already
		}
	}
}

// Watched returns how many keys are watched, for the tests and metrics.
func (c *Changes) Watched() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.watches)
}

// GameKey and PlayerKey are the keys of a game's changes and of a
// player's new seats.
func GameKey(id string) string   { return "game " + id }
func PlayerKey(id string) string { return "player " + id }
