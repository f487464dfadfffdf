package cluster

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"
)

// record stands for the store of record: the game's moves and its lease,
// a move written only under the lease's current epoch.
type record struct {
	mu    sync.Mutex
	owner string
	epoch int64
	moves []int
}

func (r *record) lease() (string, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.owner, r.epoch
}

func (r *record) acquire(node string) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.owner, r.epoch = node, r.epoch+1
	return r.epoch
}

// TestFailover plays the layer's part in a failover: a watcher follows a
// game through its owner's death and a new owner under a new epoch, and
// the commands go to whoever holds the lease.
func TestFailover(t *testing.T) {
	url := natsURL(t)
	prefix := testPrefix()
	rec := &record{}
	nodes := map[string]*Conn{}
	handler := func(node string) Handler {
		return func(_ context.Context, game string, body []byte) ([]byte, error) {
			owner, epoch := rec.lease()
			if owner != node {
				return nil, Errorf(KindNotOwner, "node %s does not hold the lease on %s", node, game)
			}
			var move int
			if err := json.Unmarshal(body, &move); err != nil {
				return nil, Errorf(KindBadRequest, "%v", err)
			}
			rec.mu.Lock()
			rec.moves = append(rec.moves, move)
			version := int64(len(rec.moves))
			rec.mu.Unlock()
			if err := nodes[node].Publish(game, epoch, version, body); err != nil {
				t.Errorf("node %s publishing: %v", node, err)
			}
			return json.Marshal(version)
		}
	}
	for _, name := range []string{"a", "b", "c"} {
		nodes[name] = join(t, url, name, Options{Prefix: prefix, Handler: handler(name)})
	}
	a, c := nodes["a"], nodes["c"]
	rec.acquire("a")

	watcher := &recorder{}
	stop, err := c.Watch("g", watcher)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// send forwards a move from c to the lease's holder, as a node with
	// the client does, and takes the game over when the holder is gone.
	// Just after a node dies, a command may still reach its subscription
	// before NATS has noticed, and time out: it is sent again.
	var acked []int
	send := func(move int) {
		t.Helper()
		for range 10 {
			owner, _ := rec.lease()
			_, err := c.Forward(context.Background(), owner, "g", mustJSON(t, move), 500*time.Millisecond)
			switch KindOf(err) {
			case "":
				acked = append(acked, move)
				return
			case KindTimeout:
			case KindOwnerGone:
				// Here the lease has expired; the server waits until it has.
				rec.acquire("b")
			default:
				t.Fatalf("move %d: %v", move, err)
			}
		}
		t.Fatalf("move %d found no owner", move)
	}
	for move := 1; move <= 3; move++ {
		send(move)
	}
	a.nc.Close() // a dies: no goodbye, its subscriptions go with its connection
	for move := 4; move <= 5; move++ {
		send(move)
	}

	waitFor(t, "five events", func() bool { v, _ := watcher.seen(); return len(v) == 5 })
	versions, resyncs := watcher.seen()
	if !slices.Equal(versions, []int64{1, 2, 3, 4, 5}) || !slices.Equal(resyncs, []Reason{ReasonNewStream}) {
		t.Errorf("the watcher saw versions %v and resyncs %v, want 1 to 5 and one new stream", versions, resyncs)
	}
	if owner, epoch := rec.lease(); owner != "b" || epoch != 2 {
		t.Errorf("the lease is %s's at epoch %d, want b's at 2", owner, epoch)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if !slices.Equal(rec.moves, acked) {
		t.Errorf("the record holds %v; acknowledged were %v", rec.moves, acked)
	}
}
