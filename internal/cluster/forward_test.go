package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// leases stands for the store's leases: who owns which game.
type leases struct {
	mu    sync.Mutex
	owner map[string]string
}

func (l *leases) of(game string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.owner[game]
}

// handlerFor is a node's handler as the server's will be: a game it does
// not own is KindNotOwner; a few games misbehave on purpose.
func handlerFor(node string, l *leases) Handler {
	return func(ctx context.Context, game string, body []byte) ([]byte, error) {
		if l.of(game) != node {
			return nil, Errorf(KindNotOwner, "node %s does not own game %s", node, game)
		}
		switch game {
		case "broken":
			return nil, errors.New("the store is down")
		case "stuck":
			<-ctx.Done()
			return nil, ctx.Err()
		case "panics":
			panic("a bug in the rules")
		case "garbled":
			return []byte("{"), nil
		}
		return json.Marshal(map[string]any{"node": node, "game": game, "body": json.RawMessage(body)})
	}
}

func TestForward(t *testing.T) {
	url := natsURL(t)
	prefix := testPrefix()
	l := &leases{owner: map[string]string{"g1": "b", "g2": "c", "broken": "b", "stuck": "b", "garbled": "c", "panics": "c"}}
	a := join(t, url, "a", Options{Prefix: prefix, Handler: handlerFor("a", l)})
	join(t, url, "b", Options{Prefix: prefix, Handler: handlerFor("b", l)})
	join(t, url, "c", Options{Prefix: prefix, Handler: handlerFor("c", l)})

	tests := []struct {
		name     string
		to, game string
		body     string
		timeout  time.Duration
		want     string // the answer, when the owner's handler gives one
		kind     Kind
		message  string // part of the error's message
	}{
		{name: "to the owner", to: "b", game: "g1", body: `{"move":"S 9,3"}`, want: `{"body":{"move":"S 9,3"},"game":"g1","node":"b"}`},
		{name: "to another owner", to: "c", game: "g2", body: `[1,2]`, want: `{"body":[1,2],"game":"g2","node":"c"}`},
		{name: "to itself", to: "a", game: "g1", body: `{}`, kind: KindNotOwner, message: "node a does not own game g1"},
		{name: "to a node that lost the game", to: "c", game: "g1", body: `{}`, kind: KindNotOwner},
		{name: "to a node not in the cluster", to: "d", game: "g1", body: `{}`, kind: KindOwnerGone, message: "node d is not in the cluster"},
		{name: "a body that is not JSON", to: "b", game: "g1", body: `move S 9,3`, kind: KindBadRequest},
		{name: "a game id that is no subject token", to: "b", game: "g1.>", body: `{}`, kind: KindBadRequest},
		{name: "a node name that is no subject token", to: "*", game: "g1", body: `{}`, kind: KindBadRequest},
		{name: "the handler fails", to: "b", game: "broken", body: `{}`, kind: KindFailed, message: "the store is down"},
		{name: "the handler panics", to: "c", game: "panics", body: `{}`, kind: KindFailed, message: "a bug in the rules"},
		{name: "the handler answers no JSON", to: "c", game: "garbled", body: `{}`, kind: KindFailed, message: "not JSON"},
		{name: "the owner does not answer in time", to: "b", game: "stuck", body: `{}`, timeout: 300 * time.Millisecond, kind: KindTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := a.Forward(context.Background(), tt.to, tt.game, []byte(tt.body), tt.timeout)
			if k := KindOf(err); k != tt.kind {
				t.Fatalf("kind %q (%v), want %q", k, err, tt.kind)
			}
			if err != nil && !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %q does not say %q", err, tt.message)
			}
			if string(got) != tt.want {
				t.Errorf("answer %s, want %s", got, tt.want)
			}
		})
	}
}

// TestForwardOwnerGone: an owner that leaves is gone at once for the
// others, who can then take its games over.
func TestForwardOwnerGone(t *testing.T) {
	url := natsURL(t)
	prefix := testPrefix()
	l := &leases{owner: map[string]string{"g1": "b"}}
	a := join(t, url, "a", Options{Prefix: prefix, Handler: handlerFor("a", l)})
	b, err := Connect(url, "b", Options{Prefix: prefix, Handler: handlerFor("b", l), Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Forward(context.Background(), "b", "g1", []byte(`{}`), 0); err != nil {
		t.Fatalf("before b left: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = a.Forward(context.Background(), "b", "g1", []byte(`{}`), 0)
	if KindOf(err) != KindOwnerGone {
		t.Fatalf("after b left: %v, want %s", err, KindOwnerGone)
	}
	// a takes the game over, as the server will once the lease expired.
	l.mu.Lock()
	l.owner["g1"] = "a"
	l.mu.Unlock()
	if _, err := a.Forward(context.Background(), "a", "g1", []byte(`{}`), 0); err != nil {
		t.Fatalf("after a took g1 over: %v", err)
	}
}

// TestForwardQueues: a game's commands run one at a time, in order, while
// other games' go on; over MaxPending a command is refused, not run.
func TestForwardQueues(t *testing.T) {
	url := natsURL(t)
	prefix := testPrefix()
	release := make(chan struct{})
	entered := make(chan string, 4)
	var mu sync.Mutex
	var ran []string
	handler := func(ctx context.Context, game string, body []byte) ([]byte, error) {
		mu.Lock()
		ran = append(ran, game+string(body))
		mu.Unlock()
		if game == "held" {
			entered <- string(body)
			<-release
		}
		return body, nil
	}
	a := join(t, url, "a", Options{Prefix: prefix})
	b := join(t, url, "b", Options{Prefix: prefix, Handler: handler, MaxPending: 2})

	var wg sync.WaitGroup
	forwardHeld := func(body string) {
		wg.Go(func() {
			if got, err := a.Forward(context.Background(), "b", "held", []byte(body), time.Minute); err != nil || string(got) != body {
				t.Errorf("held %s: %s, %v", body, got, err)
			}
		})
	}
	forwardHeld("1")
	if got := <-entered; got != "1" {
		t.Fatalf("the handler began with %s", got)
	}
	if _, err := a.Forward(context.Background(), "b", "free", []byte(`"x"`), 0); err != nil {
		t.Fatalf("a game waited for another's command: %v", err)
	}
	// The answer may reach a before b counts the command done: held 2
	// would find b with two commands waiting, and be refused.
	waitFor(t, "the free command to be counted done", func() bool {
		b.cmds.mu.Lock()
		defer b.cmds.mu.Unlock()
		return b.cmds.pending == 1
	})
	forwardHeld("2")
	waitFor(t, "the second held command to wait behind the first", func() bool {
		b.cmds.mu.Lock()
		defer b.cmds.mu.Unlock()
		return b.cmds.pending == 2
	})
	if _, err := a.Forward(context.Background(), "b", "free", []byte(`"y"`), 0); KindOf(err) != KindBusy {
		t.Fatalf("over MaxPending: %v, want %s", err, KindBusy)
	}
	close(release)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"held1", `free"x"`, "held2"}; strings.Join(ran, " ") != strings.Join(want, " ") {
		t.Errorf("the handler ran %q, want %q", ran, want)
	}
}

func TestConnectRefuses(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	silent := "nats://" + l.Addr().String()
	l.Close()
	tests := []struct {
		name, addr, node, prefix, message string
	}{
		{name: "an address that does not answer", addr: silent, node: "a", message: "does not answer"},
		{name: "a password kept out of the message", addr: "nats://user:secret@" + l.Addr().String(), node: "a", message: "user:xxxxx@"},
		{name: "a token kept out of the message", addr: "nats://secret@" + l.Addr().String(), node: "a", message: "xxxxx@"},
		{name: "a node name with a dot", addr: silent, node: "a.b", message: `node name "a.b"`},
		{name: "an empty node name", addr: silent, node: "", message: `node name ""`},
		{name: "a prefix with a wildcard", addr: silent, node: "a", prefix: "lagoon.>", message: `subject prefix part ">"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Connect(tt.addr, tt.node, Options{Prefix: tt.prefix, Log: quiet})
			if err == nil {
				c.Close()
				t.Fatal("connected")
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("%q does not say %q", err, tt.message)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("%q shows the secret", err)
			}
		})
	}
}

func TestConnectTakenName(t *testing.T) {
	url := natsURL(t)
	prefix := testPrefix()
	join(t, url, "a", Options{Prefix: prefix})
	c, err := Connect(url, "a", Options{Prefix: prefix, Log: quiet})
	if err == nil {
		c.Close()
		t.Fatal("a second node a joined")
	}
	if !strings.Contains(err.Error(), "already in the cluster") {
		t.Errorf("%q does not say the name is taken", err)
	}
	// Under another prefix, another cluster, the name is free.
	join(t, url, "a", Options{Prefix: testPrefix()})
}
