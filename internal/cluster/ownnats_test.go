package cluster

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/cluster/natstest"
)

// TestNATSRestart: NATS is killed and started again under two nodes. The
// nodes reconnect by themselves, the watcher is told to resync, commands
// sent while NATS was away fail at once rather than wait, every command
// acknowledged before, during and after is in the owner's log, and a node
// closes while NATS is away.
func TestNATSRestart(t *testing.T) {
	srv := natstest.Own(t)
	var mu sync.Mutex
	var log []int
	var owner *Conn
	handler := func(_ context.Context, game string, body []byte) ([]byte, error) {
		var cmd struct {
			Append int `json:"append"`
		}
		if err := json.Unmarshal(body, &cmd); err != nil {
			return nil, Errorf(KindBadRequest, "%v", err)
		}
		mu.Lock()
		defer mu.Unlock()
		if cmd.Append > 0 {
			log = append(log, cmd.Append)
			// Like the server: stored, then broadcast. An event that
			// cannot go out is for the watchers to resync over.
			_ = owner.Publish(game, 1, int64(len(log)), body)
		}
		return json.Marshal(log)
	}
	var reconnects atomic.Int32
	opts := Options{Prefix: testPrefix(), ReconnectWait: 20 * time.Millisecond, OnReconnect: func() { reconnects.Add(1) }}
	ownerOpts := opts
	ownerOpts.Handler = handler
	owner = join(t, srv.URL(), "a", ownerOpts)
	b := join(t, srv.URL(), "b", opts)
	rec := &recorder{}
	stop, err := b.Watch("g", rec)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	var acked []int
	forward := func(n int) error {
		body, err := b.Forward(context.Background(), "a", "g", mustJSON(t, map[string]int{"append": n}), 5*time.Second)
		if err == nil {
			acked = append(acked, n)
			var got []int
			if err := json.Unmarshal(body, &got); err != nil || got[len(got)-1] != n {
				t.Errorf("the answer to %d is %s (%v)", n, body, err)
			}
		}
		return err
	}
	for n := 1; n <= 5; n++ {
		if err := forward(n); err != nil {
			t.Fatalf("command %d: %v", n, err)
		}
	}
	waitFor(t, "five events", func() bool { v, _ := rec.seen(); return len(v) == 5 })

	srv.Stop(t)
	waitFor(t, "the nodes to see NATS gone", func() bool { return !owner.Connected() && !b.Connected() })
	if err := forward(6); KindOf(err) != KindUnavailable {
		t.Errorf("a command while NATS is away: %v, want %s", err, KindUnavailable)
	}
	if err := owner.Publish("g", 1, 99, []byte(`{}`)); err == nil {
		t.Error("an event published while NATS was away was taken, to go out stale later")
	}

	srv.Start(t)
	// Told of the reconnection, a node has its subscriptions back.
	waitFor(t, "the nodes to reconnect", func() bool { return reconnects.Load() == 2 })
	if _, resyncs := rec.seen(); !slices.Contains(resyncs, ReasonReconnect) {
		t.Errorf("the watcher was told %v, no resync for the reconnection", resyncs)
	}
	for n := 7; n <= 10; n++ {
		if err := forward(n); err != nil {
			t.Fatalf("command %d after the restart: %v", n, err)
		}
	}
	waitFor(t, "the last event", func() bool { v, _ := rec.seen(); return len(v) > 0 && v[len(v)-1] == 9 })

	mu.Lock()
	if !slices.Equal(log, acked) {
		t.Errorf("the owner's log is %v; acknowledged were %v", log, acked)
	}
	mu.Unlock()

	// A node closes while NATS is away, without waiting for it.
	srv.Stop(t)
	waitFor(t, "the nodes to see NATS gone again", func() bool { return !owner.Connected() && !b.Connected() })
	for _, c := range []*Conn{b, owner} {
		if err := c.Close(); err != nil {
			t.Errorf("closing %s while NATS is away: %v", c.Node(), err)
		}
	}
}
