// Package extern seats a program as a bot: it runs the program and speaks
// the line protocol of docs/bot-protocol.md with it. The program is told
// which game it plays in its environment (LAGOON_GAME); each time it must
// move it is sent the game state in the game's text notation on one line
// and answers with one move in the game's notation on one line. Blue
// Lagoon's programs written before there were other games play on as they
// did: what they are sent and answer has not changed.
//
// A program is untrusted: every way it can fail (a malformed or overlong
// answer, an exit, silence past the time limit) is an error from Move that
// says what happened, and the program and everything it started are killed,
// so that whoever runs it never hangs or crashes because of it.
package extern

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// maxLine bounds the length of an answer.
const maxLine = 256

// stderrKept is how much of the end of the program's standard error an
// error message quotes.
const stderrKept = 512

// GameEnv is the environment variable that tells the program which game it
// plays: the game's id, "bluelagoon" for Blue Lagoon.
const GameEnv = "LAGOON_GAME"

// A Bot is a running program that plays one game. It must be closed.
type Bot struct {
	command string
	timeout time.Duration
	rules   *game.Rules

	cmd    *exec.Cmd // nil once reaped
	pid    int       // of the program, and of its process group
	stdin  io.WriteCloser
	lines  chan lineOrErr
	quit   chan struct{} // closed when the program is killed or closed
	stderr *tailBuffer

	mu     sync.Mutex
	failed error      // once set, every Move returns it
	rng    *rand.Rand // draws the worlds a program is shown, under mu
}

type lineOrErr struct {
	line string
	err  error
}

// Start starts command with the shell (sh -c) in its own process group, to
// play a game of rules: its environment has GameEnv set to the game's id.
// timeout bounds the time the program may take for each answer.
func Start(rules *game.Rules, command string, timeout time.Duration) (*Bot, error) {
	if rules == nil {
		return nil, errors.New("extern: no game")
	}
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("extern: empty command")
	}
	cmd := exec.Command("sh", "-c", command)
	cmd.Env = append(os.Environ(), GameEnv+"="+rules.ID)
	setProcessGroup(cmd)
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("extern %q: %w", command, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("extern %q: %w", command, err)
	}
	b := &Bot{command: command, timeout: timeout, rules: rules, rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), cmd: cmd, stdin: stdin,
		lines: make(chan lineOrErr), quit: make(chan struct{}), stderr: &tailBuffer{max: stderrKept}}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("extern %q: %w", command, err)
	}
	b.pid = cmd.Process.Pid
	go b.read(stdout)
	return b, nil
}

// read passes the program's answers, line by line, to Move, until the
// output ends or the program is killed.
func (b *Bot) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, maxLine+2)
	send := func(a lineOrErr) bool {
		select {
		case b.lines <- a:
			return true
		case <-b.quit:
			return false
		}
	}
	for {
		line, err := r.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			send(lineOrErr{err: fmt.Errorf("answer longer than %d bytes", maxLine)})
			return
		case err != nil && len(line) > 0:
			send(lineOrErr{err: fmt.Errorf("answer %q does not end with a newline", line)})
			return
		case err != nil:
			send(lineOrErr{err: io.EOF})
			return
		}
		if !send(lineOrErr{line: string(bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")))}) {
			return
		}
	}
}

// Name returns "extern:" and the command.
func (b *Bot) Name() string { return "extern:" + b.command }

// Move sends the state to the program and reads its answer, in the
// notation of the state's game. The answer is read by the state
// (ParseMove), not judged: the caller checks that the move is legal. After
// a failure the program is killed and every later Move fails the same way.
func (b *Bot) Move(ctx context.Context, st game.State) (game.Move, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failed != nil {
		return 0, b.failed
	}
	if st.Over() {
		return 0, errors.New("extern: the game is over")
	}
	m, err := b.exchange(ctx, st)
	if err != nil {
		return 0, b.fail(err)
	}
	return m, nil
}

// Refused ends the program's game after the caller refused its answer (an
// illegal move): it kills the program and returns err, with the end of the
// program's standard error, as Move returns its own failures; every later
// Move returns the same.
func (b *Bot) Refused(err error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failed != nil {
		return b.failed
	}
	return b.fail(err)
}

// fail kills the program and makes err, with the end of its standard error
// (complete once it is killed and reaped), the bot's failure.
func (b *Bot) fail(err error) error {
	b.kill()
	if tail := b.stderr.String(); tail != "" {
		err = fmt.Errorf("%w; stderr: %q", err, tail)
	}
	b.failed = fmt.Errorf("extern %q: %w", b.command, err)
	return b.failed
}

// shown returns the notation the program is shown of st: st's own when the
// game's notation is public or nothing is secret any more, and otherwise
// that of a copy in which everything the seat to move cannot see is drawn
// anew (Resample), a world the seat could believe in: a program, like any
// bot, never reads what its seat could not know.
func (b *Bot) shown(st game.State) string {
	if b.rules.PublicNotation || !st.Secret() {
		return st.String()
	}
	c := st.Clone()
	c.Resample(st.ToMove(), b.rng)
	return c.String()
}

func (b *Bot) exchange(ctx context.Context, st game.State) (game.Move, error) {
	state := b.shown(st)
	timer := time.NewTimer(b.timeout)
	defer timer.Stop()
	wrote := make(chan error, 1)
	go func() {
		_, err := io.WriteString(b.stdin, state+"\n")
		wrote <- err
	}()
	// A failed write does not end the exchange: a program that has exited
	// fails the write and closes its output in either order, so the
	// answer's end (or the timeout, for one that closed only its input)
	// decides, and the reason reads the same every time. At the output's
	// end the write's outcome is awaited too (a write to a program that is
	// gone returns at once), so that it is always part of the reason.
	var writeErr error
	withWrite := func(err error) error {
		if writeErr != nil {
			return fmt.Errorf("%w; writing the state: %v", err, writeErr)
		}
		return err
	}
	for {
		select {
		case writeErr = <-wrote:
			wrote = nil
		case a := <-b.lines:
			if a.err == io.EOF {
				if wrote != nil {
					select {
					case writeErr = <-wrote:
					case <-timer.C:
					case <-ctx.Done():
					}
				}
				return 0, b.exited(withWrite(errors.New("closed its output without answering")))
			}
			if a.err != nil {
				return 0, fmt.Errorf("malformed answer: %w", a.err)
			}
			m, err := st.ParseMove(a.line)
			if err != nil {
				return 0, fmt.Errorf("malformed answer %q: %w", a.line, err)
			}
			return m, nil
		case <-timer.C:
			return 0, withWrite(fmt.Errorf("timeout: no answer within %v", b.timeout))
		case <-ctx.Done():
			return 0, fmt.Errorf("cancelled: %w", ctx.Err())
		}
	}
}

// exited describes an error after which the program is gone or going: it
// waits a moment for the exit status and adds it.
func (b *Bot) exited(err error) error {
	done := make(chan error, 1)
	go func() { done <- b.cmd.Wait() }()
	select {
	case werr := <-done:
		b.cmd = nil
		if werr != nil {
			err = fmt.Errorf("%w (%v)", err, werr)
		} else {
			err = fmt.Errorf("%w (exited)", err)
		}
	case <-time.After(time.Second):
	}
	return err
}

// kill kills the program's process group and reaps the program.
func (b *Bot) kill() {
	select {
	case <-b.quit:
		return
	default:
	}
	close(b.quit)
	killProcessGroup(b.pid)
	if b.cmd != nil {
		_ = b.cmd.Wait()
		b.cmd = nil
	}
}

// Close ends the game for the program: it closes its input, gives it a
// moment to exit, then kills its process group.
func (b *Bot) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stdin.Close()
	if b.cmd != nil {
		done := make(chan struct{})
		go func() {
			_ = b.cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(time.Second):
			killProcessGroup(b.pid)
			<-done
		}
		b.cmd = nil
	}
	// Whatever the program left behind in its group goes too.
	b.kill()
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
