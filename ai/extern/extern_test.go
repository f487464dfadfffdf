package extern

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
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

// testGames are the games the example bot knows, by id.
var testGames = map[string]*game.Rules{bluelagoon.Rules.ID: bluelagoon.Rules, gametest.Tiny.ID: gametest.Tiny}

// exampleBot is a complete external bot for any game it knows: it learns
// the game from its environment, reads a state per line and answers the
// first legal move. The mode "old" is a Blue Lagoon bot written before
// there were other games, which knows nothing of the environment; the
// other modes misbehave on purpose.
func exampleBot(mode string) int {
	if mode == "old" {
		in := bufio.NewScanner(os.Stdin)
		in.Buffer(nil, 1<<20)
		for in.Scan() {
			g, err := bluelagoon.ParseState(in.Text())
			if err != nil {
				fmt.Fprintln(os.Stderr, "bad state:", err)
				return 1
			}
			fmt.Println(g.LegalMoves()[0])
		}
		return 0
	}
	rules := testGames[os.Getenv(GameEnv)]
	if rules == nil {
		fmt.Fprintf(os.Stderr, "unknown game %q\n", os.Getenv(GameEnv))
		return 1
	}
	if mode == "hang" {
		// Said at once, before the state is even read: the test's
		// timeout need not cover reading it.
		fmt.Fprintln(os.Stderr, "thinking")
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	spawned := false
	for in.Scan() {
		st, err := rules.ParseState(in.Text())
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad state:", err)
			return 1
		}
		first := st.MoveText(game.Legal(st)[0])
		switch mode {
		case "good":
			fmt.Println(first)
		case "record":
			// Keeps every state it is shown, for the test to read.
			f, err := os.OpenFile(os.Getenv("STATES_FILE"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				return 1
			}
			fmt.Fprintln(f, in.Text())
			f.Close()
			fmt.Println(first)
		case "garbage":
			fmt.Fprintln(os.Stderr, "thinking")
			fmt.Println("hello")
		case "offboard":
			fmt.Println("T 99,99")
		case "illegal":
			fmt.Println(illegalAnswer)
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
			fmt.Println(first)
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

// illegalAnswer is a move of Blue Lagoon in the notation, on the board,
// that is not legal at the start of a game: a village at sea.
const illegalAnswer = "T 0,0"

func newGame(t *testing.T) game.State {
	t.Helper()
	st, err := bluelagoon.Rules.NewGame(game.Setup{Players: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// playWhole plays a whole game of rules with the program in every seat.
func playWhole(t *testing.T, rules *game.Rules, mode string, players int) {
	t.Helper()
	b, err := Start(rules, botCommand(t, mode), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	st, err := rules.NewGame(game.Setup{Players: players, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for !st.Over() {
		m, err := b.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Move(context.Background(), st); err == nil {
		t.Error("a program was asked to move in a finished game")
	}
}

func TestWellBehavedBotPlaysAWholeGame(t *testing.T) {
	playWhole(t, bluelagoon.Rules, "good", 2)
}

// TestOldBlueLagoonBotsStillPlay: a bot written before there were other
// games, which reads Blue Lagoon's notation and knows nothing of the
// environment, plays as it did.
func TestOldBlueLagoonBotsStillPlay(t *testing.T) {
	playWhole(t, bluelagoon.Rules, "old", 3)
}

// TestAnyGame: a program plays Tiny, which package extern knows nothing
// of, told the game by its environment.
func TestAnyGame(t *testing.T) {
	playWhole(t, gametest.Tiny, "good", 3)
}

func TestBadBotsFailWithTheReason(t *testing.T) {
	tests := []struct {
		mode    string
		timeout time.Duration
		want    string
	}{
		{"garbage", 10 * time.Second, `malformed answer "hello": at offset 0: a move starts with S (settler) or T (village) and a space; stderr: "thinking"`},
		{"offboard", 10 * time.Second, `malformed answer "T 99,99": move "T 99,99": space 99,99 is not on the board`},
		{"crash", 10 * time.Second, "boom"},
		{"long", 10 * time.Second, "longer than"},
		{"hang", 2 * time.Second, `timeout: no answer within 2s; stderr: "thinking"`},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			b, err := Start(bluelagoon.Rules, botCommand(t, tt.mode), tt.timeout)
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
	b, err := Start(bluelagoon.Rules, botCommand(t, "illegal"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	st := newGame(t)
	m, err := b.Move(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if st.MoveText(m) != illegalAnswer {
		t.Errorf("read %q, want %q", st.MoveText(m), illegalAnswer)
	}
	if st.Play(m) == nil {
		t.Errorf("%v is legal; the test bot should have answered an illegal move", st.MoveText(m))
	}
}

func TestMissingProgram(t *testing.T) {
	b, err := Start(bluelagoon.Rules, "/nonexistent/lagoon-bot", 10*time.Second)
	if err != nil {
		t.Fatal(err) // the shell starts; the program does not
	}
	defer b.Close()
	_, err = b.Move(context.Background(), newGame(t))
	if err == nil || !strings.Contains(err.Error(), "closed its output") {
		t.Fatalf("got %v, want a failure saying the program went away", err)
	}
	if _, err := Start(bluelagoon.Rules, "  ", time.Second); err == nil {
		t.Error("Start with an empty command succeeded")
	}
	if _, err := Start(nil, "true", time.Second); err == nil {
		t.Error("Start for no game succeeded")
	}
}

// A program that closes its input and exits a moment later fails the
// next write before its output ends: the reason is the same as when the
// output ends first, with the write's error added.
func TestProgramThatClosesItsInputFirst(t *testing.T) {
	b, err := Start(bluelagoon.Rules, `read state; exec 0<&-; echo "S 0,0"; sleep 0.3`, 10*time.Second)
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
	b, err := Start(bluelagoon.Rules, botCommand(t, "hang"), time.Hour)
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

// TestProgramsSeeOnlyTheirSeat: a program playing a game whose notation
// holds what its seat may not see (Tiny's other hands) is shown a world
// drawn anew for its seat, which its seat sees as it is; a game whose
// notation is public (Blue Lagoon) is shown as it is, to the letter.
func TestProgramsSeeOnlyTheirSeat(t *testing.T) {
	states := filepath.Join(t.TempDir(), "states")
	t.Setenv("STATES_FILE", states)
	tiny, err := gametest.Tiny.NewGame(game.Setup{Players: 2, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	blue := newGame(t)
	for _, st := range []game.State{tiny, blue} {
		rules := gametest.Tiny
		if st == blue {
			rules = bluelagoon.Rules
		}
		b, err := Start(rules, botCommand(t, "record"), 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Move(context.Background(), st); err != nil {
			t.Fatal(err)
		}
		b.Close()
	}
	data, err := os.ReadFile(states)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("the program was shown %d states, want 2", len(lines))
	}
	if lines[0] == tiny.String() {
		t.Fatal("the program was shown Tiny's true state, every hand in it")
	}
	shown, err := gametest.Tiny.ParseState(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	seat := tiny.ToMove()
	view := func(st game.State) string {
		b, _ := json.Marshal(st.View(game.Viewer{Seat: seat}))
		return string(b)
	}
	if view(shown) != view(tiny) {
		t.Fatalf("the program's seat sees %s in the world it was shown, but %s in the game", view(shown), view(tiny))
	}
	if lines[1] != blue.String() {
		t.Fatalf("a Blue Lagoon program was shown %q, not the state %q", lines[1], blue.String())
	}
}
