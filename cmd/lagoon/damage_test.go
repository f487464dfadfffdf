package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/store/wal"
)

// TestServeRefusesDamagedLog replays the probe of issue 47 with a real
// process: bots play while lagoon serve is killed with SIGKILL, a bit of
// a frame of its log that commits follow is flipped, and lagoon serve,
// started again, does not start: it exits 1 with the message as text,
// which names the copy of the log it kept and the cut; cut so, it starts.
func TestServeRefusesDamagedLog(t *testing.T) {
	bin := buildLagoon(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "lagoon.db-wal")
	cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-data", dir, "-bot-delay", "0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "Lagoon is at ")
	if err != nil || !ok {
		t.Fatalf("lagoon serve printed %q (%v); log:\n%s", line, err, stderr.String())
	}
	for seed := range 4 {
		resp, err := http.Post(url+"/api/games", "application/json", strings.NewReader(
			`{"game":"bluelagoon","seats":[{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}],"seed":`+strconv.Itoa(seed+1)+`,"time":{"kind":"none"}}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create: %s", resp.Status)
		}
	}
	// The kill comes once the log holds some commits since it was last
	// started afresh, and the damage goes in the middle one.
	waitUntil(t, "commits in the log", func() bool {
		b, _ := os.ReadFile(log)
		return len(logCommits(b)) >= 20
	})
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	commits := logCommits(b)
	if len(commits) < 2 {
		t.Fatalf("%d commits in the log after the kill", len(commits))
	}
	b[commits[len(commits)/2]+100] ^= 0x10
	if err := os.WriteFile(log, b, 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "serve", "-addr", "127.0.0.1:0", "-data", dir).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.HasPrefix(string(out), "lagoon serve: "+log+", the log of") ||
		!strings.Contains(string(out), log+".damaged") {
		t.Fatalf("lagoon serve on the damaged log: %v\n%s", err, out)
	}
	if copied, err := os.ReadFile(log + ".damaged"); err != nil || !bytes.Equal(copied, b) {
		t.Errorf("the copy of the log: %d bytes (%v); want the log's %d", len(copied), err, len(b))
	}
	cut := regexp.MustCompile(`truncate -s (\d+) `).FindStringSubmatch(string(out))
	if cut == nil {
		t.Fatalf("no cut in %s", out)
	}
	size, _ := strconv.ParseInt(cut[1], 10, 64)
	if err := os.Truncate(log, size); err != nil {
		t.Fatal(err)
	}
	_, code := startServe(t, dir)
	stopServe(t, syscall.SIGTERM, code)
}

// logCommits returns where the pages of a log's commit frames begin, of
// the frames since the log was last started afresh (those of its salts).
func logCommits(b []byte) []int {
	if len(b) < wal.HeaderSize {
		return nil
	}
	frame := wal.FrameHeaderSize + int(binary.BigEndian.Uint32(b[8:]))
	var commits []int
	for at := wal.HeaderSize; at+frame <= len(b) && bytes.Equal(b[at+8:at+16], b[16:24]); at += frame {
		if binary.BigEndian.Uint32(b[at+4:]) != 0 {
			commits = append(commits, at+wal.FrameHeaderSize)
		}
	}
	return commits
}
