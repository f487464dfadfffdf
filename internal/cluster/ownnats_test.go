package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// natsServer is a NATS server of the test's own, which it can stop and
// start again on the same port.
type natsServer struct {
	bin  string
	port int
	args []string // more of the server's flags
	cmd  *exec.Cmd
}

// ownNATS starts a NATS server for one test, from LAGOON_NATS_SERVER, the
// PATH or /usr/sbin (where Debian's package puts it).
func ownNATS(t *testing.T, args ...string) *natsServer {
	t.Helper()
	bin := os.Getenv("LAGOON_NATS_SERVER")
	if bin == "" {
		if p, err := exec.LookPath("nats-server"); err == nil {
			bin = p
		} else if _, err := os.Stat("/usr/sbin/nats-server"); err == nil {
			bin = "/usr/sbin/nats-server"
		}
	}
	if bin == "" {
		if os.Getenv("LAGOON_REQUIRE_NATS") == "1" {
			t.Fatal("no nats-server to restart (LAGOON_NATS_SERVER, PATH, /usr/sbin), and LAGOON_REQUIRE_NATS=1")
		}
		t.Skip("no nats-server binary (set LAGOON_NATS_SERVER, or apt-get install nats-server) for the test that restarts NATS")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &natsServer{bin: bin, port: l.Addr().(*net.TCPAddr).Port, args: args}
	l.Close()
	s.start(t)
	t.Cleanup(func() { s.stop(t) })
	return s
}

func (s *natsServer) url() string { return "nats://127.0.0.1:" + strconv.Itoa(s.port) }

// TestConnectCredentials: a NATS server that wants credentials refuses
// wrong ones, and the node says so at once rather than retry.
func TestConnectCredentials(t *testing.T) {
	srv := ownNATS(t, "--user", "lagoon", "--pass", "right")
	tests := []struct {
		name, user, message string
	}{
		{name: "none", message: "refused the node's credentials"},
		{name: "wrong", user: "lagoon:wrong@", message: "refused the node's credentials"},
		{name: "right", user: "lagoon:right@"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Connect("nats://"+tt.user+strings.TrimPrefix(srv.url(), "nats://"), "a", Options{Prefix: testPrefix(), Log: quiet})
			if tt.message == "" {
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Close(); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				c.Close()
				t.Fatal("connected")
			}
			if !strings.Contains(err.Error(), tt.message) || strings.Contains(err.Error(), "wrong") {
				t.Errorf("%q does not say %q, or shows the password", err, tt.message)
			}
		})
	}
}

func (s *natsServer) start(t *testing.T) {
	t.Helper()
	s.cmd = exec.Command(s.bin, append([]string{"-a", "127.0.0.1", "-p", strconv.Itoa(s.port)}, s.args...)...)
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", s.bin, err)
	}
	waitFor(t, "NATS to answer", func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", s.port))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
}

// stop kills the server, as a crash or a restart would.
func (s *natsServer) stop(t *testing.T) {
	t.Helper()
	if s.cmd == nil {
		return
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Errorf("killing NATS: %v", err)
	}
	_ = s.cmd.Wait() // killed: its exit status says so
	s.cmd = nil
}

// TestNATSRestart: NATS is killed and started again under two nodes. The
// nodes reconnect by themselves, the watcher is told to resync, commands
// sent while NATS was away fail at once rather than wait, every command
// acknowledged before, during and after is in the owner's log, and a node
// closes while NATS is away.
func TestNATSRestart(t *testing.T) {
	srv := ownNATS(t)
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
	owner = join(t, srv.url(), "a", ownerOpts)
	b := join(t, srv.url(), "b", opts)
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

	srv.stop(t)
	waitFor(t, "the nodes to see NATS gone", func() bool { return !owner.Connected() && !b.Connected() })
	if err := forward(6); KindOf(err) != KindUnavailable {
		t.Errorf("a command while NATS is away: %v, want %s", err, KindUnavailable)
	}
	if err := owner.Publish("g", 1, 99, []byte(`{}`)); err == nil {
		t.Error("an event published while NATS was away was taken, to go out stale later")
	}

	srv.start(t)
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
	srv.stop(t)
	waitFor(t, "the nodes to see NATS gone again", func() bool { return !owner.Connected() && !b.Connected() })
	for _, c := range []*Conn{b, owner} {
		if err := c.Close(); err != nil {
			t.Errorf("closing %s while NATS is away: %v", c.Node(), err)
		}
	}
}
