package cluster

import (
	"maps"
	"slices"
	"sync"
	"testing"
	"time"
)

// counter is a node's own counts, as the server keeps them.
type counter struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *counter) get() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.m)
}

func (c *counter) set(key string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = n
}

func names(c *Conn) []string {
	var out []string
	for _, n := range c.Nodes() {
		out = append(out, n.Name)
	}
	return out
}

// TestPresence: the nodes find each other at once, add up each other's
// counts, and stop counting a node that leaves or dies.
func TestPresence(t *testing.T) {
	url := natsURL(t)
	prefix := testPrefix()
	counts := map[string]*counter{
		"a": {m: map[string]int{"games": 2, "games/10.0.0.1": 1}},
		"b": {m: map[string]int{"games": 3, "games/10.0.0.1": 2}},
		"c": {m: map[string]int{"games": 1}},
	}
	nodes := map[string]*Conn{}
	for _, name := range []string{"a", "b", "c"} {
		// A heartbeat an hour long: the nodes learn of each other
		// when they join and when they Beat, which is what is tested.
		beat := time.Hour
		if name == "c" {
			beat = 100 * time.Millisecond // c is killed below, and must be missed
		}
		nodes[name] = join(t, url, name, Options{Prefix: prefix, Counts: counts[name].get, Heartbeat: beat})
	}
	a, b, c := nodes["a"], nodes["b"], nodes["c"]
	for name, want := range map[string][]string{"a": {"b", "c"}, "b": {"a", "c"}, "c": {"a", "b"}} {
		waitFor(t, name+" to see the others", func() bool { return slices.Equal(names(nodes[name]), want) })
	}

	tests := []struct {
		node *Conn
		key  string
		want int
	}{
		{a, "games", 4},
		{b, "games", 3},
		{c, "games", 5},
		{a, "games/10.0.0.1", 2},
		{c, "games/10.0.0.1", 3},
		{b, "games/10.0.0.2", 0},
	}
	for _, tt := range tests {
		if got := tt.node.Others(tt.key); got != tt.want {
			t.Errorf("%s: others' %s %d, want %d", tt.node.Node(), tt.key, got, tt.want)
		}
	}

	counts["b"].set("games", 10)
	b.Beat()
	waitFor(t, "a to see b's new count", func() bool { return a.Others("games") == 11 })

	// c dies without a word: the others stop counting it once it misses
	// its heartbeats.
	c.nc.Close()
	waitFor(t, "a to miss c", func() bool { return slices.Equal(names(a), []string{"b"}) })
	if got := a.Others("games"); got != 10 {
		t.Errorf("a counts %d games on the others after c died, want 10", got)
	}

	// b leaves: it says so, and a stops counting it at once, though b's
	// heartbeat would keep it alive for hours.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a to see b leave", func() bool { return len(a.Nodes()) == 0 })
}
