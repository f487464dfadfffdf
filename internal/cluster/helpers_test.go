package cluster

import (
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/cluster/natstest"
)

// The tests run against a real NATS server: LAGOON_NATS names it (CI
// starts one; `nats-server -js` on 127.0.0.1:4222 does here). Each test
// takes a prefix of its own, so that tests run at once, or again, on one
// server never hear each other.

func natsURL(t *testing.T) string { return natstest.URL(t) }

// testPrefix returns a subject prefix no other test or run uses.
func testPrefix() string { return "lagoontest." + rand.Text()[:12] }

// quiet is a logger for nodes whose warnings a test provokes.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// join connects node to the cluster and closes it when the test ends.
func join(t *testing.T, url, node string, opts Options) *Conn {
	t.Helper()
	if opts.Log == nil {
		opts.Log = quiet
	}
	c, err := Connect(url, node, opts)
	if err != nil {
		t.Fatalf("node %s: %v", node, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("closing node %s: %v", node, err)
		}
	})
	return c
}

// waitFor waits until ok holds, failing the test if it does not within a
// bound far above what it takes.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// recorder is a Watcher that keeps what it is told.
type recorder struct {
	mu      sync.Mutex
	events  []Event
	resyncs []Reason
}

func (r *recorder) Event(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) Resync(_ string, reason Reason) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resyncs = append(r.resyncs, reason)
}

// seen returns the versions of the events and the resyncs so far.
func (r *recorder) seen() (versions []int64, resyncs []Reason) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.events {
		versions = append(versions, e.Version)
	}
	return versions, append([]Reason(nil), r.resyncs...)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
