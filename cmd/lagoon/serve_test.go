package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startServe runs lagoon serve on a free loopback port and returns its URL
// and a channel with its exit status.
func startServe(t *testing.T, dir string, flags ...string) (string, <-chan int) {
	url, _, code := startServeLines(t, dir, 1, flags...)
	return url, code
}

// startServeLines is startServe (dir a data directory or a postgres:// URL),
// returning the lines after the first of
// the n that lagoon serve prints as it starts.
func startServeLines(t *testing.T, dir string, n int, flags ...string) (string, []string, <-chan int) {
	t.Helper()
	r, w := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		where := "-data"
		if isPostgres(dir) {
			where = "-store"
		}
		code <- run(append([]string{"serve", "-addr", "127.0.0.1:0", where, dir, "-bot-delay", "0"}, flags...), nil, w, &stderr)
		w.Close()
	}()
	br := bufio.NewReader(r)
	line, err := br.ReadString('\n')
	var more []string
	for range n - 1 {
		l, _ := br.ReadString('\n')
		more = append(more, strings.TrimSpace(l))
	}
	go io.Copy(io.Discard, br)
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "Lagoon is at ")
	if err != nil || !ok {
		t.Fatalf("lagoon serve printed %q (%v); stderr:\n%s", line, err, stderr.String())
	}
	return url, more, code
}

// TestServeMetrics: with -metrics, the figures are served in the
// Prometheus text format on their own address, and not on the public one.
func TestServeMetrics(t *testing.T) {
	url, more, code := startServeLines(t, t.TempDir(), 2, "-metrics", "127.0.0.1:0")
	metrics, ok := strings.CutPrefix(more[0], "Metrics are at ")
	if !ok {
		t.Fatalf("lagoon serve printed %q", more)
	}
	resp, err := http.Get(metrics)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"lagoon_games_in_progress 0", "lagoon_bot_queue 0", "lagoon_take_backs_total 0", "go_goroutines"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics has no %q:\n%.2000s", want, body)
		}
	}
	if resp, err := http.Get(url + "/metrics"); err != nil || resp.StatusCode == 200 && strings.Contains(resp.Header.Get("Content-Type"), "text/plain; version") {
		t.Errorf("/metrics on the public address: %v %v", resp.Status, err)
	}
	// The operator's address answers only for the server's own hosts, as
	// the public one does: not for a page of another site whose name
	// points at it.
	for _, path := range []string{"/metrics", "/debug/pprof/"} {
		req, _ := http.NewRequest("GET", strings.TrimSuffix(metrics, "/metrics")+path, nil)
		req.Host = "attacker.example"
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("%s for another host: %v %v", path, resp, err)
		} else {
			resp.Body.Close()
		}
	}
	stopServe(t, syscall.SIGTERM, code)
}

// stopServe sends the process a signal, as a person pressing ^C or a
// service manager would, and checks that serve shuts down cleanly.
func stopServe(t *testing.T, sig syscall.Signal, code <-chan int) {
	t.Helper()
	if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("lagoon serve exited with %d after %v", c, sig)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("lagoon serve did not stop after %v", sig)
	}
}

// playOneMove creates a game of two people on the server at url and plays
// its first legal move, returning the game's id and the move.
func playOneMove(t *testing.T, url string) (id, move string) {
	t.Helper()
	resp, err := http.Post(url+"/api/games", "application/json",
		strings.NewReader(`{"seats":[{"kind":"human","name":"Ann"},{"kind":"human","name":"Bob"}],"seed":1}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ID    string `json:"id"`
		Seats []struct {
			Token string `json:"token"`
		} `json:"seats"`
		Game struct {
			Game  string `json:"game"`
			State struct {
				View struct {
					Legal []string `json:"legal"`
				} `json:"view"`
			} `json:"state"`
		} `json:"game"`
	}
	json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || len(created.Game.State.View.Legal) == 0 || created.Game.Game != "bluelagoon" {
		t.Fatalf("create: %d %+v", resp.StatusCode, created)
	}
	move = created.Game.State.View.Legal[0]
	req, _ := http.NewRequest("POST", url+"/api/games/"+created.ID+"/moves", strings.NewReader(`{"version":0,"move":"`+move+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+created.Seats[0].Token)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("move: %d", resp.StatusCode)
	}
	return created.ID, move
}

// gameMoves returns the moves of game id on the server at url.
func gameMoves(t *testing.T, url, id string) []string {
	t.Helper()
	resp, err := http.Get(url + "/api/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Moves []struct {
			Move string `json:"move"`
		} `json:"moves"`
	}
	json.NewDecoder(resp.Body).Decode(&g)
	resp.Body.Close()
	var moves []string
	for _, m := range g.Moves {
		moves = append(moves, m.Move)
	}
	return moves
}

func TestServeKeepsGamesAcrossShutdown(t *testing.T) {
	dir := t.TempDir()
	url, code := startServe(t, dir)
	id, move := playOneMove(t, url)
	stopServe(t, syscall.SIGINT, code)

	url, code = startServe(t, dir)
	if got := gameMoves(t, url, id); !slices.Equal(got, []string{move}) {
		t.Errorf("after a restart the game has moves %v, want [%s]", got, move)
	}
	resp, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("the web page: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// A second server on the same data, at another address, is refused:
	// both would own the same games.
	var stderr bytes.Buffer
	if c := run([]string{"serve", "-addr", "127.0.0.1:0", "-data", dir}, nil, io.Discard, &stderr); c != 1 || !strings.Contains(stderr.String(), "in use by another lagoon") {
		t.Errorf("a second server on the same data: exit %d, %s", c, stderr.String())
	}
	stopServe(t, syscall.SIGTERM, code)
}

// TestServeRefusesLostStore: lagoon serve does not start on a database
// that was emptied, nor on one SQLite cannot read; it says so, with the
// way to restore it, and leaves the file as it was.
func TestServeRefusesLostStore(t *testing.T) {
	for name, text := range map[string]string{"emptied": "", "not a database": strings.Repeat("no pages here\n", 400)} {
		dir := t.TempDir()
		path := filepath.Join(dir, "lagoon.db")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errOut, status := runCmd(t, "serve", "-addr", "127.0.0.1:0", "-data", dir)
		if status != 1 || !strings.HasPrefix(errOut, "lagoon serve: "+path) || !strings.Contains(errOut, "lagoon backup") {
			t.Errorf("%s: exit %d, %q; want 1 and a message naming %s and lagoon backup", name, status, errOut, path)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != text {
			t.Errorf("%s: the file holds %d bytes after (%v), %d before", name, len(b), err, len(text))
		}
	}
}

func TestServeBadFlags(t *testing.T) {
	var stderr bytes.Buffer
	if c := run([]string{"serve", "-nope"}, nil, io.Discard, &stderr); c != 2 {
		t.Errorf("an unknown flag: exit %d, want 2", c)
	}
	if c := run([]string{"serve", "extra"}, nil, io.Discard, &stderr); c != 2 {
		t.Errorf("an argument: exit %d, want 2", c)
	}
	stderr.Reset()
	if c := run([]string{"serve", "-addr", "256.0.0.1:1", "-data", t.TempDir()}, nil, io.Discard, &stderr); c != 1 || !strings.Contains(stderr.String(), "256.0.0.1") {
		t.Errorf("a bad address: exit %d, %s", c, stderr.String())
	}
}

// TestServeRulesAndBots: lagoon serve hosts the tools' games, Blue Lagoon
// first, with the bots' levels of each, and its bots (package ai, over the
// game contract) play a game to its end.
func TestServeRulesAndBots(t *testing.T) {
	// No rate limit: the test polls each game until it ends.
	url, code := startServe(t, t.TempDir(), "-rate", "0")
	defer stopServe(t, syscall.SIGTERM, code)
	resp, err := http.Get(url + "/api/rules")
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Games []struct {
			ID     string   `json:"id"`
			Levels []string `json:"levels"`
		} `json:"games"`
	}
	json.NewDecoder(resp.Body).Decode(&rules)
	resp.Body.Close()
	if len(rules.Games) == 0 || rules.Games[0].ID != "bluelagoon" || !slices.Equal(rules.Games[0].Levels, levels("bluelagoon")) {
		t.Fatalf("rules: %+v", rules)
	}
	var ids []string
	for _, g := range rules.Games {
		ids = append(ids, g.ID)
	}
	if want := []string{"bluelagoon", "druids", "laguna", "tiny"}; !slices.Equal(ids, want) {
		t.Errorf("lagoon serve hosts %v, want %v", ids, want)
	}
	for _, g := range rules.Games {
		resp, err := http.Post(url+"/api/games", "application/json",
			// No clock: under Laguna's sand timer a bot's step takes a
			// hand's time, and the game would last minutes.
			strings.NewReader(`{"game":"`+g.ID+`","seats":[{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}],"seed":3,"time":{"kind":"none"}}`))
		if err != nil {
			t.Fatal(err)
		}
		var created struct {
			ID string `json:"id"`
		}
		json.NewDecoder(resp.Body).Decode(&created)
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create a game of %s: %d", g.ID, resp.StatusCode)
		}
		for i := 0; ; i++ {
			resp, err := http.Get(url + "/api/games/" + created.ID + "/record")
			if err != nil {
				t.Fatal(err)
			}
			var rec struct {
				Moves []string `json:"moves"`
			}
			json.NewDecoder(resp.Body).Decode(&rec)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				// The record is out once the seed tells nothing more;
				// the game may still go on.
				var st struct {
					State struct {
						Over bool `json:"over"`
					} `json:"state"`
				}
				resp, err := http.Get(url + "/api/games/" + created.ID)
				if err != nil {
					t.Fatal(err)
				}
				json.NewDecoder(resp.Body).Decode(&st)
				resp.Body.Close()
				if st.State.Over {
					break
				}
			}
			if i > 3000 {
				t.Fatalf("the bots' game of %s did not end", g.ID)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func TestCollectorPercent(t *testing.T) {
	for _, c := range []struct {
		name          string
		flag          int
		given, envSet bool
		want          int
		apply         bool
	}{
		{"neither: the server's default", defaultGCPercent, false, false, defaultGCPercent, true},
		{"GOGC set: the runtime's reading stands", defaultGCPercent, false, true, 0, false},
		{"the flag given: it wins over GOGC", 150, true, true, 150, true},
		{"the flag given alone", -1, true, false, -1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, apply := collectorPercent(c.flag, c.given, c.envSet)
			if got != c.want || apply != c.apply {
				t.Errorf("collectorPercent(%d, %v, %v) = %d, %v, want %d, %v", c.flag, c.given, c.envSet, got, apply, c.want, c.apply)
			}
		})
	}
}

// TestServeTrustedProxyFlag: -trusted-proxy takes CIDR prefixes and
// addresses, repeated or separated by commas; anything else stops the
// server at its start, saying which.
func TestServeTrustedProxyFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string // the prefixes; nil for a refusal
	}{
		{nil, []string{}},
		{[]string{"-trusted-proxy", "10.0.0.0/24"}, []string{"10.0.0.0/24"}},
		{[]string{"-trusted-proxy", "10.0.0.7/24"}, []string{"10.0.0.0/24"}},
		{[]string{"-trusted-proxy", "10.0.0.0/24, 2001:db8::/32,,", "-trusted-proxy", "192.0.2.1"}, []string{"10.0.0.0/24", "2001:db8::/32", "192.0.2.1/32"}},
		{[]string{"-trusted-proxy", "::1"}, []string{"::1/128"}},
		{[]string{"-trusted-proxy", "10.0.0.0/33"}, nil},
		{[]string{"-trusted-proxy", "10.0.0.0/24,nginx"}, nil},
		{[]string{"-trusted-proxy", "fe80::1%eth0"}, nil},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var o serveOptions
			fs, _, _ := serveFlags(&o)
			fs.SetOutput(io.Discard)
			err := fs.Parse(c.args)
			if c.want == nil {
				if err == nil {
					t.Errorf("taken: %v", o.cfg.TrustedProxies)
				}
				return
			}
			got := []string{}
			for _, p := range o.cfg.TrustedProxies {
				got = append(got, p.String())
			}
			if err != nil || !slices.Equal(got, c.want) {
				t.Errorf("got %v (%v), want %v", got, err, c.want)
			}
		})
	}
	var stderr bytes.Buffer
	if c := run([]string{"serve", "-data", t.TempDir(), "-trusted-proxy", "10.0.0.0/33"}, nil, io.Discard, &stderr); c != 2 || !strings.Contains(stderr.String(), `"10.0.0.0/33" is neither a CIDR prefix`) {
		t.Errorf("a bad -trusted-proxy: exit %d, %s", c, stderr.String())
	}
}
