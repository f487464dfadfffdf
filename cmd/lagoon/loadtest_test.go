package main

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/internal/server"
	"github.com/lagoon-games/lagoon/internal/store"
)

// loadServer serves the games on a loopback port until the test ends,
// with the per-connection message limit off so that the clients need not
// think for long, and returns its address.
func loadServer(t *testing.T) string {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	games, err := registry()
	if err != nil {
		t.Fatal(err)
	}
	s, err := server.New(context.Background(), server.Config{Games: games, Store: st, Levels: levels, MessageRate: -1,
		Log: slog.New(slog.DiscardHandler), Bots: newBots()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: s}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// TestLoadtest runs a small, fast load test against a server whose
// per-connection message limit is off, so that the clients need not think
// for long.
func TestLoadtest(t *testing.T) {
	addr := loadServer(t)

	for _, tc := range []struct {
		game  string
		games string
		done  string // how the report says the games ended
		of    string // the moves whose latency it gives
	}{
		{"", "4", "finished", "move"},
		// A game whose hands are hidden: each client reads its own view.
		{"tiny", "2", "finished", "move"},
		// A game random play does not finish: played to 200 moves, the
		// latency of the raft's steps.
		{"laguna", "2", "played to their end or to 200 moves", "N E S W"},
	} {
		var out, stderr bytes.Buffer
		args := []string{"loadtest", "-addr", addr, "-games", tc.games, "-think", "1ms", "-sources", "3", "-poll", "5ms"}
		if tc.game != "" {
			args = append(args, "-game", tc.game)
		}
		if c := run(args, nil, &out, &stderr); c != 0 {
			t.Errorf("loadtest %s exited with %d:\n%s\n%s", tc.game, c, out.String(), stderr.String())
		}
		clients := map[string]string{"4": "8", "2": "4"}[tc.games]
		for _, want := range []string{"games:    " + tc.games + " " + tc.done + " of " + tc.games + ", all " + tc.games + " in progress at once with " + clients + " clients connected",
			"latency:  " + tc.of + " to broadcast p50", "GET /api/lobby p50", "GET /api/health p50", "0 errors, 0 moves lost, 0 moves doubled"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("the report of loadtest %s does not say %q:\n%s", tc.game, want, out.String())
			}
		}
	}
}

// TestLoadtestPersonBotGames: with -person-bot-games one address, or
// with -person-bot-addrs several, play games against bots while the
// others play, and the run stays clean; more addresses than the sources
// leave them is a bad argument.
func TestLoadtestPersonBotGames(t *testing.T) {
	addr := loadServer(t)
	for _, tc := range []struct {
		addrs, sources string
		code           int
	}{
		{"1", "3", 0},
		{"3", "5", 0},
		{"4", "5", 2},
		{"0", "5", 2},
	} {
		var out, stderr bytes.Buffer
		args := []string{"loadtest", "-addr", addr, "-games", "2", "-think", "1ms", "-sources", tc.sources, "-poll", "5ms",
			"-person-bot-games", "3", "-person-bot-addrs", tc.addrs, "-bot-level", "easy"}
		c := run(args, nil, &out, &stderr)
		if c != tc.code || (c == 0 && !strings.Contains(out.String(), "0 errors, 0 moves lost, 0 moves doubled")) {
			t.Errorf("loadtest -person-bot-addrs %s -sources %s exited with %d, want %d:\n%s\n%s", tc.addrs, tc.sources, c, tc.code, out.String(), stderr.String())
		}
	}
}

func TestLoadtestOnlyOnLoopback(t *testing.T) {
	var out, stderr bytes.Buffer
	if c := run([]string{"loadtest", "-addr", "192.0.2.1:8080", "-games", "1"}, nil, &out, &stderr); c != 1 || !strings.Contains(stderr.String(), "loopback") {
		t.Errorf("a remote address: exit %d, %s", c, stderr.String())
	}
}
