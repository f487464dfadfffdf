// Package natstest gives a test the NATS server that LAGOON_NATS names,
// or skips it with a message where there is none, or a server of its own
// to stop and start again.
package natstest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// URL returns LAGOON_NATS. Without it the test is skipped, with a
// message, unless LAGOON_REQUIRE_NATS=1 (as in CI), which fails it
// instead.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("LAGOON_NATS")
	if u == "" {
		if os.Getenv("LAGOON_REQUIRE_NATS") == "1" {
			t.Fatal("LAGOON_NATS is not set, and LAGOON_REQUIRE_NATS=1 says the NATS tests must run")
		}
		t.Skip("LAGOON_NATS is not set: start NATS (nats-server -js) and set LAGOON_NATS=nats://127.0.0.1:4222 to run the cluster tests")
	}
	return u
}

// Server is a NATS server of one test's own, which it can stop and start
// again on the same port, as a crash or a restart would.
type Server struct {
	bin  string
	port int
	args []string // more of the server's flags
	cmd  *exec.Cmd
}

// Own starts a NATS server for one test, from LAGOON_NATS_SERVER, the
// PATH or /usr/sbin (where Debian's package puts it), with more flags
// args, and stops it when the test ends. Without a binary the test is
// skipped, unless LAGOON_REQUIRE_NATS=1.
func Own(t testing.TB, args ...string) *Server {
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
	s := &Server{bin: bin, port: l.Addr().(*net.TCPAddr).Port, args: args}
	l.Close()
	s.Start(t)
	t.Cleanup(func() { s.Stop(t) })
	return s
}

// URL is the server's address.
func (s *Server) URL() string { return "nats://127.0.0.1:" + strconv.Itoa(s.port) }

// Start starts the server, and waits until it answers.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	s.cmd = exec.Command(s.bin, append([]string{"-a", "127.0.0.1", "-p", strconv.Itoa(s.port)}, s.args...)...)
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", s.bin, err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", s.port))
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("NATS does not answer on port %d", s.port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the server, as a crash or a restart would.
func (s *Server) Stop(t testing.TB) {
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
