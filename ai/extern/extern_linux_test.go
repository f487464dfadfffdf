package extern

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

func TestCloseKillsTheProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child")
	t.Setenv("CHILD_PID_FILE", pidFile)
	b, err := Start(bluelagoon.Rules, botCommand(t, "spawn"), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// The first answer comes after the child is started and its pid
	// written; the second never comes.
	if _, err := b.Move(context.Background(), newGame(t)); err != nil {
		t.Fatalf("first move: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := b.Move(ctx, newGame(t)); err == nil {
		t.Fatal("a bot that never answers moved")
	}
	b.Close()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the bot did not start its child: %v", err)
	}
	pid, err := strconv.Atoi(string(data))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the bot's child %d outlived it", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether process pid runs (a zombie does not).
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, after, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(after, "Z")
}
