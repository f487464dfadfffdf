package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// These tests hold Laguna's moves to a hand's pace under its sand glass
// (issue 30, item 11): a step sent sooner than a hand could make it waits,
// and one glass buys at most the steps a hand makes in it, however fast
// they are sent, a bot's as a person's. They run on synctest's fake clock.

// openSea is the easy board's frame with no reef and no current: a raft
// on it may step back and forth for ever, so nothing but the glass ends a
// turn of steps.
func openSea() string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("#^>v<", r) {
			return '.'
		}
		return r
	}, laguna.BoardByName("easy").Line())
}

// stepper is a bot as fast as a program: it steps whenever it may (the
// first way open), else loads, else ends its turn, and answers at once.
// It ends a turn of more steps than any glass buys: nothing would end it
// on a clock that stands still while it plays.
type stepper struct{}

func (stepper) Move(_ context.Context, st game.State) (game.Move, error) {
	legal := game.Legal(st)
	if len(legal) == 0 {
		return 0, errors.New("no move")
	}
	if st.View(game.Viewer{Seat: st.ToMove()}).(laguna.StateView).Steps > 10*glassSteps {
		return laguna.End, nil
	}
	for _, prefix := range []string{"", "load ", "place "} {
		for _, m := range legal {
			if t := st.MoveText(m); prefix == "" && isStep(t) || prefix != "" && strings.HasPrefix(t, prefix) {
				return m, nil
			}
		}
	}
	return legal[0], nil
}

// withStepper hosts Laguna with the stepper in every bot's seat.
func withStepper(c *Config) {
	withLaguna(c)
	c.Bots = func(string, string, bool) (Bot, error) { return stepper{}, nil }
}

// sendAtOnce plays seat's moves as fast as the server answers them: the
// first legal step each time, until a step is refused; it returns how
// many were made and the refusal. Each step sent is either made or
// refused: none is lost.
func (b bubbleServer) sendAtOnce(id, token string, seat int) (made int, refusal string) {
	b.t.Helper()
	g := b.s.games[id]
	for range 1000 {
		g.mu.Lock()
		cur, v := g.cur.Clone(), len(g.moves)
		g.mu.Unlock()
		var step string
		for _, m := range game.Legal(cur) {
			if t := cur.MoveText(m); isStep(t) {
				step = t
				break
			}
		}
		if cur.ToMove() != seat || step == "" {
			b.t.Fatalf("after %d steps, seat %d has no step to make (seat %d to move)", made, seat, cur.ToMove())
		}
		status, body := b.do("POST", "/api/games/"+id+"/moves", token, map[string]any{"version": v, "move": step})
		if status != http.StatusOK {
			if int(g.version.Load()) != v {
				b.t.Fatalf("step %s at %d was refused (%d %s), but the game moved on", step, v, status, body)
			}
			return made, string(body)
		}
		if got := decode[struct{ Version int }](b.t, body).Version; got != v+1 {
			b.t.Fatalf("step %s at %d made version %d", step, v, got)
		}
		made++
	}
	b.t.Fatal("a glass took 1000 steps")
	return made, ""
}

// glassSteps is the most steps a glass of 30 s buys: the hand's steps in
// it.
const glassSteps = int(30 * time.Second / laguna.StepTime)

// TestLagunaHandTime: a person who sends steps as fast as the server
// answers them, and a bot as fast as a program, each make no more steps in
// a glass of 30 s than a hand makes (issue 30, item 11); the step that the
// sand left cannot pay for is refused with time_up, never lost; a move
// sent again while it waits for the hand is answered as a duplicate, and
// another one refused (move_waiting). Every move of a timed turn comes at
// least its hand's time after the one before it.
func TestLagunaHandTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, withStepper)
		defer b.s.Close()
		c := b.create(map[string]any{"game": "laguna", "seed": 3, "options": map[string]string{"board": openSea()},
			"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}},
			"time":  map[string]any{"kind": "turn", "turn_ms": 30000}})
		id, token := c.ID, c.Seats[0].Token
		b.join(id, token)
		g := b.s.games[id]
		// Ann places her raft, then the bot its own.
		b.play(id, token, firstLegalText(t, g, "place "))
		synctest.Wait()

		// Ann loads two pearls and ends her turn; the bot steps through
		// its glass, which the time ends; then Ann has a fresh one to
		// step through.
		for range 2 {
			b.play(id, token, firstLegalText(t, g, "load "))
		}
		b.play(id, token, "end")
		time.Sleep(30 * time.Second)
		synctest.Wait()
		ann, refusal := b.sendAtOnce(id, token, 0)
		if ann > glassSteps || ann < glassSteps*9/10 {
			t.Errorf("Ann's steps sent at once made %d steps in a glass; a hand makes at most %d", ann, glassSteps)
		}
		if !strings.Contains(refusal, `"time_up"`) {
			t.Errorf("the step after the last Ann's glass paid for: %s; want time_up", refusal)
		}

		g.mu.Lock()
		bot := 0
		for _, mi := range g.moves {
			if mi.seat == 1 && isStep(mi.text) {
				bot++
			}
		}
		checkHandTimes(t, g)
		g.mu.Unlock()
		t.Logf("in a glass each: Ann made %d steps, the bot %d; a hand makes %d", ann, bot, glassSteps)
		if bot > glassSteps || bot < glassSteps*8/10 {
			t.Errorf("the bot made %d steps in a glass; a hand makes at most %d", bot, glassSteps)
		}
	})
}

// firstLegalText is the first legal move of game g starting with prefix.
func firstLegalText(t *testing.T, g *match, prefix string) string {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, m := range game.Legal(g.cur) {
		if text := g.cur.MoveText(m); strings.HasPrefix(text, prefix) {
			return text
		}
	}
	t.Fatalf("no legal move %q", prefix)
	return ""
}

// checkHandTimes checks that every move of a timed turn of g came at least
// its hand's time after the move before it. g.mu is held.
func checkHandTimes(t *testing.T, g *match) {
	t.Helper()
	pos := g.start.Clone()
	for i, mi := range g.moves {
		if i > 0 && !game.IsUntimed(pos) && !mi.byTime {
			if hand, took := game.HandTime(pos, mi.move), mi.at.Sub(g.moves[i-1].at); took < hand {
				t.Errorf("move %d, %s by seat %d, came %v after the one before; its hand takes %v", i+1, mi.text, mi.seat, took, hand)
			}
		}
		if err := pos.Play(mi.move); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLagunaHeldMoveSentAgain: a step sent again while it waits for the
// hand is answered, when it is made, as a duplicate; another move sent
// meanwhile is refused with move_waiting; neither is made twice or lost.
func TestLagunaHeldMoveSentAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, withLaguna)
		defer b.s.Close()
		c := b.create(map[string]any{"game": "laguna", "seed": 3, "options": map[string]string{"board": openSea()},
			"seats": []map[string]string{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}})
		id := c.ID
		tokens := []string{c.Seats[0].Token, c.Seats[1].Token}
		b.join(id, tokens...)
		g := b.s.games[id]
		seat := g.cur.ToMove()
		step := b.stepFor(id, tokens, seat)
		v := int(g.version.Load())
		var other string
		for _, d := range laguna.DirNames {
			if d != step {
				other = d
			}
		}
		var wg sync.WaitGroup
		answers := make([]string, 3)
		send := func(i int, move string) {
			wg.Go(func() {
				status, body := b.do("POST", "/api/games/"+id+"/moves", tokens[seat], map[string]any{"version": v, "move": move})
				answers[i] = http.StatusText(status) + " " + string(body)
			})
			synctest.Wait()
		}
		send(0, step)
		if int(g.version.Load()) != v {
			t.Fatal("a step sent at once after the move before was not held for its hand")
		}
		send(1, step)
		send(2, other)
		wg.Wait()
		if got := int(g.version.Load()); got != v+1 {
			t.Errorf("the game is at version %d after one step held and sent twice, want %d", got, v+1)
		}
		for i, want := range []string{`"duplicate":false`, `"duplicate":true`, `"move_waiting"`} {
			if !strings.Contains(answers[i], want) {
				t.Errorf("answer %d: %.200s; want %s", i, answers[i], want)
			}
		}
	})
}
