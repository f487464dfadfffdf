package extern

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// botEnv selects, in a re-executed test binary, the behaviour of the tiny
// example bot that the tests play against.
const botEnv = "LAGOON_EXTERN_TEST_BOT"

func TestMain(m *testing.M) {
	if mode := os.Getenv(botEnv); mode != "" {
		os.Exit(exampleBot(mode))
	}
	os.Exit(m.Run())
}

// exampleBot is a complete external bot: it reads a state per line and
// answers the first legal move. The other modes misbehave on purpose.
func exampleBot(mode string) int {
	if mode == "hang" {
		// Said at once, before the state is even read: the test's
		// timeout need not cover reading it.
		fmt.Fprintln(os.Stderr, "thinking")
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	spawned := false
	for in.Scan() {
		g, err := bluelagoon.ParseState(in.Text())
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad state:", err)
			return 1
		}
		switch mode {
		case "good":
			fmt.Println(g.LegalMoves()[0])
		case "garbage":
			fmt.Fprintln(os.Stderr, "thinking")
			fmt.Println("hello")
		case "illegal":
			fmt.Println("T 99,99")
		case "crash":
			fmt.Fprintln(os.Stderr, "boom")
			return 3
		case "long":
			fmt.Print(strings.Repeat("S", 10000))
		case "hang":
			time.Sleep(time.Hour)
		case "spawn":
			// Starts a grandchild, says where, and answers; then hangs
			// at the next state: killing the process group must take
			// both.
			if spawned {
				time.Sleep(time.Hour)
			}
			child := exec.Command("sleep", "3600")
			if err := child.Start(); err != nil {
				return 1
			}
			os.WriteFile(os.Getenv("CHILD_PID_FILE"), []byte(strconv.Itoa(child.Process.Pid)), 0o600)
			spawned = true
			fmt.Println(g.LegalMoves()[0])
		}
	}
	return 0
}

func botCommand(t *testing.T, mode string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s=%s exec %q -test.run=^$", botEnv, mode, exe)
}

func newGame(t *testing.T) *bluelagoon.Game {
	t.Helper()
	g, err := bluelagoon.NewGame(bluelagoon.Setup{Board: bluelagoon.StandardBoard(), Players: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestWellBehavedBotPlaysAWholeGame(t *testing.T) {
	b, err := Start(botCommand(t, "good"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	g := newGame(t)
	for !g.Over() {
		m, err := b.Move(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBadBotsFailWithTheReason(t *testing.T) {
	tests := []struct {
		mode    string
		timeout time.Duration
		want    string
	}{
		{"garbage", 10 * time.Second, `malformed answer "hello": at offset 0: a move starts with S (settler) or T (village) and a space; stderr: "thinking"`},
		{"crash", 10 * time.Second, "boom"},
		{"long", 10 * time.Second, "longer than"},
		{"hang", 2 * time.Second, `timeout: no answer within 2s; stderr: "thinking"`},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			b, err := Start(botCommand(t, tt.mode), tt.timeout)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			_, err = b.Move(context.Background(), newGame(t))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want one that says %q", err, tt.want)
			}
			if _, again := b.Move(context.Background(), newGame(t)); again == nil || again.Error() != err.Error() {
				t.Errorf("second move: got %v, want the same failure", again)
			}
		})
	}
}

func TestIllegalAnswerIsParsedNotJudged(t *testing.T) {
	b, err := Start(botCommand(t, "illegal"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	g := newGame(t)
	m, err := b.Move(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if g.Check(m) == nil {
		t.Errorf("%v is legal; the test bot should have answered an illegal move", m)
	}
}

func TestMissingProgram(t *testing.T) {
	b, err := Start("/nonexistent/lagoon-bot", 10*time.Second)
	if err != nil {
		t.Fatal(err) // the shell starts; the program does not
	}
	defer b.Close()
	_, err = b.Move(context.Background(), newGame(t))
	if err == nil || !strings.Contains(err.Error(), "closed its output") {
		t.Fatalf("got %v, want a failure saying the program went away", err)
	}
	if _, err := Start("  ", time.Second); err == nil {
		t.Error("Start with an empty command succeeded")
	}
}

// A program that closes its input and exits a moment later fails the
// next write before its output ends: the reason is the same as when the
// output ends first, with the write's error added.
func TestProgramThatClosesItsInputFirst(t *testing.T) {
	b, err := Start(`read state; exec 0<&-; echo "S 0,0"; sleep 0.3`, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Move(context.Background(), newGame(t)); err != nil {
		t.Fatalf("first move: %v", err)
	}
	_, err = b.Move(context.Background(), newGame(t))
	if err == nil || !strings.Contains(err.Error(), "closed its output") || !strings.Contains(err.Error(), "writing the state") {
		t.Fatalf("got %v, want a failure saying the program went away and the write failed", err)
	}
}

func TestCancelledMove(t *testing.T) {
	b, err := Start(botCommand(t, "hang"), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Move(ctx, newGame(t)); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("got %v, want a cancellation", err)
	}
}
