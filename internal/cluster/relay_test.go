package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestRelayStreams sends events as owners would, some lost, repeated,
// late or from an owner that lost its game, and checks what a watcher is
// given and when it is told to resync.
func TestRelayStreams(t *testing.T) {
	url := natsURL(t)
	prefix := testPrefix()
	owner := join(t, url, "a", Options{Prefix: prefix})
	watcher := join(t, url, "b", Options{Prefix: prefix})

	// The game is the subject's, filled in as each is sent.
	ev := func(stream string, epoch int64, seq uint64, version int64) string {
		return string(mustJSON(t, eventMsg{V: wireVersion, Game: "GAME", Node: "a", Stream: stream, Epoch: epoch, Seq: seq, Version: version, Body: []byte(`{}`)}))
	}
	tests := []struct {
		name     string
		sent     []string // the last is always delivered
		versions []int64
		resyncs  []Reason
	}{
		{name: "in order", sent: []string{ev("s", 1, 1, 1), ev("s", 1, 2, 2), ev("s", 1, 3, 2)}, versions: []int64{1, 2, 2}},
		{name: "first seen mid-stream", sent: []string{ev("s", 1, 7, 5), ev("s", 1, 8, 6)}, versions: []int64{5, 6}},
		{name: "an event lost", sent: []string{ev("s", 1, 1, 1), ev("s", 1, 2, 2), ev("s", 1, 4, 4)}, versions: []int64{1, 2, 4}, resyncs: []Reason{ReasonGap}},
		{name: "an event twice", sent: []string{ev("s", 1, 1, 1), ev("s", 1, 2, 2), ev("s", 1, 2, 2), ev("s", 1, 3, 3)}, versions: []int64{1, 2, 3}},
		{name: "a new owner", sent: []string{ev("s", 1, 1, 1), ev("t", 2, 1, 1)}, versions: []int64{1, 1}, resyncs: []Reason{ReasonNewStream}},
		{name: "the owner again under its epoch, restarted", sent: []string{ev("s", 1, 5, 5), ev("t", 1, 1, 6)}, versions: []int64{5, 6}, resyncs: []Reason{ReasonNewStream}},
		{name: "the old owner after the new", sent: []string{ev("t", 2, 1, 3), ev("s", 1, 9, 9), ev("t", 2, 2, 4)}, versions: []int64{3, 4}},
		{name: "an event that cannot be read", sent: []string{ev("s", 1, 1, 1), `{"v":`, ev("s", 1, 2, 2)}, versions: []int64{1, 2}, resyncs: []Reason{ReasonBadMessage}},
		{name: "an event of a newer message version", sent: []string{`{"v":99,"seq":1}`, ev("s", 1, 1, 1)}, versions: []int64{1}, resyncs: []Reason{ReasonBadMessage}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			game := fmt.Sprintf("g%d", i)
			rec := &recorder{}
			stop, err := watcher.Watch(game, rec)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			for _, m := range tt.sent {
				if err := owner.nc.Publish(owner.subject("game", game, "ev"), []byte(strings.ReplaceAll(m, "GAME", game))); err != nil {
					t.Fatal(err)
				}
			}
			waitFor(t, "the last event", func() bool {
				v, _ := rec.seen()
				return len(v) == len(tt.versions)
			})
			versions, resyncs := rec.seen()
			if !slices.Equal(versions, tt.versions) || !slices.Equal(resyncs, tt.resyncs) {
				t.Errorf("versions %v and resyncs %v, want %v and %v", versions, resyncs, tt.versions, tt.resyncs)
			}
		})
	}
}

// TestRelay follows a game's events from its owner to the nodes watching
// it, through a lost event, the watchers leaving and a new lease.
func TestRelay(t *testing.T) {
	url := natsURL(t)
	prefix := testPrefix()
	a := join(t, url, "a", Options{Prefix: prefix})
	b := join(t, url, "b", Options{Prefix: prefix})
	c := join(t, url, "c", Options{Prefix: prefix})

	b1, b2, c1 := &recorder{}, &recorder{}, &recorder{}
	stopB1, err := b.Watch("g", b1)
	if err != nil {
		t.Fatal(err)
	}
	stopB2, err := b.Watch("g", b2)
	if err != nil {
		t.Fatal(err)
	}
	stopC1, err := c.Watch("g", c1)
	if err != nil {
		t.Fatal(err)
	}
	defer stopC1()
	publish := func(epoch, version int64) {
		t.Helper()
		if err := a.Publish("g", epoch, version, mustJSON(t, map[string]int64{"version": version})); err != nil {
			t.Fatal(err)
		}
	}
	until := func(r *recorder, n int) {
		t.Helper()
		waitFor(t, fmt.Sprintf("%d events", n), func() bool { v, _ := r.seen(); return len(v) >= n })
	}
	for v := int64(1); v <= 3; v++ {
		publish(7, v)
	}
	// An event lost on the way: the owner numbered it, NATS never had it.
	a.rel.pubMu.Lock()
	a.rel.pubs["g"].seq++
	a.rel.pubMu.Unlock()
	publish(7, 5)
	for _, r := range []*recorder{b1, b2, c1} {
		until(r, 4)
		versions, resyncs := r.seen()
		if !slices.Equal(versions, []int64{1, 2, 3, 5}) || !slices.Equal(resyncs, []Reason{ReasonGap}) {
			t.Errorf("versions %v and resyncs %v, want [1 2 3 5] and [gap]", versions, resyncs)
		}
	}
	c1.mu.Lock()
	first := c1.events[0]
	c1.mu.Unlock()
	if e := first; e.Node != "a" || e.Epoch != 7 || e.Seq != 1 || string(e.Body) != `{"version":1}` {
		t.Errorf("the first event is %+v", e)
	}

	// The node keeps its subscription while one of its watchers is left.
	stopB1()
	stopB1()
	publish(7, 6)
	until(b2, 5)
	stopB2()
	b.rel.mu.Lock()
	left := len(b.rel.watches)
	b.rel.mu.Unlock()
	if left != 0 {
		t.Errorf("b still watches %d games after its last watcher left", left)
	}

	// A new lease starts a new stream; the old epoch is refused.
	publish(8, 6)
	until(c1, 6)
	if _, resyncs := c1.seen(); !slices.Equal(resyncs, []Reason{ReasonGap, ReasonNewStream}) {
		t.Errorf("resyncs %v after a new lease", resyncs)
	}
	if err := a.Publish("g", 7, 7, []byte(`{}`)); err == nil {
		t.Error("an event under an older epoch was published")
	}
	if v, _ := b1.seen(); len(v) != 4 {
		t.Errorf("a stopped watcher was given %d events, want 4", len(v))
	}
}

// owners is an Options.Owner over a map, counting its reads.
type owners struct {
	mu    sync.Mutex
	by    map[string]ownedBy
	reads int
	err   error
}

type ownedBy struct {
	node  string
	epoch int64
}

func (o *owners) set(game, node string, epoch int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.by[game] = ownedBy{node, epoch}
}

func (o *owners) owner(_ context.Context, game string) (string, int64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.reads++
	b := o.by[game]
	return b.node, b.epoch, o.err
}

func (o *owners) count() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.reads
}

// TestRelayAcceptsOnlyTheOwner: a watcher is given a game's events only
// from the node that owns it under the epoch the store says, whoever
// publishes on the game's subject; the store is read once for the owner's
// events and again only for a claim of a newer epoch, and a store that
// fails makes the watcher resync rather than take the event.
func TestRelayAcceptsOnlyTheOwner(t *testing.T) {
	url := natsURL(t)
	prefix := testPrefix()
	sender := join(t, url, "sender", Options{Prefix: prefix})
	type sent struct {
		game, node string
		epoch      int64
		seq        uint64
		version    int64
		owner      string // the store's owner of the game from then on ("" unchanged)
		ownerEpoch int64
	}
	tests := []struct {
		name     string
		sent     []sent // the last is always given or refused as the test says
		versions []int64
		resyncs  []Reason
		refused  uint64
		reads    int
		fail     bool // the store fails
	}{
		{name: "the owner's", sent: []sent{{node: "a", epoch: 3, seq: 1, version: 1}, {node: "a", epoch: 3, seq: 2, version: 2}, {node: "a", epoch: 3, seq: 3, version: 3}},
			versions: []int64{1, 2, 3}, reads: 1},
		{name: "a newer epoch than the store's", sent: []sent{{node: "a", epoch: 9, seq: 1, version: 1}, {node: "a", epoch: 99, seq: 1, version: 1}, {node: "a", epoch: 3, seq: 1, version: 2}},
			versions: []int64{2}, refused: 2, reads: 2},
		{name: "another node under the owner's epoch", sent: []sent{{node: "a", epoch: 3, seq: 1, version: 1}, {node: "m", epoch: 3, seq: 2, version: 2}, {node: "a", epoch: 3, seq: 2, version: 2}},
			versions: []int64{1, 2}, refused: 1, reads: 1},
		{name: "an older epoch", sent: []sent{{node: "a", epoch: 3, seq: 1, version: 1}, {node: "a", epoch: 2, seq: 2, version: 2}, {node: "old", epoch: 1, seq: 9, version: 9}, {node: "a", epoch: 3, seq: 2, version: 2}},
			versions: []int64{1, 2}, refused: 2, reads: 1},
		{name: "another game's", sent: []sent{{game: "other", node: "a", epoch: 3, seq: 1, version: 1}, {node: "a", epoch: 3, seq: 1, version: 2}},
			versions: []int64{2}, refused: 1, reads: 1},
		{name: "a new owner", sent: []sent{{node: "a", epoch: 3, seq: 1, version: 1}, {node: "b", epoch: 4, seq: 1, version: 2, owner: "b", ownerEpoch: 4}, {node: "a", epoch: 3, seq: 2, version: 3}, {node: "b", epoch: 4, seq: 2, version: 3}},
			versions: []int64{1, 2, 3}, resyncs: []Reason{ReasonNewStream}, refused: 1, reads: 2},
		{name: "the store failing", sent: []sent{{node: "a", epoch: 3, seq: 1, version: 1}}, fail: true, resyncs: []Reason{ReasonUnchecked}, reads: 1},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			game := fmt.Sprintf("g%d", i)
			store := &owners{by: map[string]ownedBy{game: {"a", 3}}}
			if tt.fail {
				store.err = errors.New("the store is away")
			}
			watcher := join(t, url, "w"+game, Options{Prefix: prefix, Owner: store.owner})
			rec := &recorder{}
			stop, err := watcher.Watch(game, rec)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			for n, s := range tt.sent {
				if s.owner != "" {
					// Those before judged by the store as it was.
					waitFor(t, "the events before the new owner", func() bool {
						v, _ := rec.seen()
						return len(v)+int(watcher.Refused()) == n
					})
					store.set(game, s.owner, s.ownerEpoch)
				}
				em := eventMsg{V: wireVersion, Game: cmp.Or(s.game, game), Node: s.node, Stream: s.node + fmt.Sprint(s.epoch), Epoch: s.epoch, Seq: s.seq, Version: s.version, Body: []byte(`{}`)}
				if err := sender.nc.Publish(sender.subject("game", game, "ev"), mustJSON(t, em)); err != nil {
					t.Fatal(err)
				}
			}
			// One more, of another game, refused without a read: once it
			// is, all before were judged.
			marker := eventMsg{V: wireVersion, Game: "marker", Node: "marker"}
			if err := sender.nc.Publish(sender.subject("game", game, "ev"), mustJSON(t, marker)); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the events judged", func() bool {
				_, resyncs := rec.seen()
				return watcher.Refused() == tt.refused+1 || len(resyncs) > len(tt.resyncs)
			})
			versions, resyncs := rec.seen()
			if !slices.Equal(versions, tt.versions) || !slices.Equal(resyncs, tt.resyncs) {
				t.Errorf("versions %v and resyncs %v, want %v and %v", versions, resyncs, tt.versions, tt.resyncs)
			}
			if got := watcher.Refused(); got != tt.refused+1 {
				t.Errorf("%d events refused, want %d and the marker", got, tt.refused)
			}
			if got := store.count(); got != tt.reads {
				t.Errorf("the store read %d times, want %d", got, tt.reads)
			}
		})
	}
}
