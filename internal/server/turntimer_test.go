package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
	"github.com/lagoon-games/lagoon/internal/store"
)

// These tests keep time in games of Tiny, whose turns have several
// decisions and a choice by another seat in the middle: a turn timer with
// carry-over, the rules' move when a turn's time is up, the stand-in when
// the rules have none, and a bank whose increment comes when a turn ends.
// They run on synctest's fake clock.

// tinySeed returns a seed whose first state, seen by seat 0 of a game of
// players seats, satisfies cond.
func tinySeed(t testing.TB, players int, cond func(gametest.TinyView) bool) uint64 {
	t.Helper()
	for seed := uint64(1); seed < 1000; seed++ {
		st, err := gametest.Tiny.NewGame(game.Setup{Players: players, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if cond(st.View(game.Viewer{Seat: 0}).(gametest.TinyView)) {
			return seed
		}
	}
	t.Fatal("no seed")
	return 0
}

func hasEven(v gametest.TinyView) bool {
	return slices.ContainsFunc(v.Hand, func(c int) bool { return c%2 == 0 })
}

// timedTiny makes a game of Tiny keeping time by timeRule between Ann and
// a second seat, with a seed that deals Ann an even card, and returns it.
func (b bubbleServer) timedTiny(second map[string]any, timeRule map[string]any) createResponse {
	b.t.Helper()
	return b.create(map[string]any{
		"game":  "tiny",
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, second},
		"seed":  tinySeed(b.t, 2, hasEven),
		"time":  timeRule,
	})
}

// tiny reads a game of Tiny as token's seat sees it.
func (b bubbleServer) tiny(id, token string) tinyGame {
	b.t.Helper()
	status, body := b.do("GET", "/api/games/"+id, token, nil)
	if status != 200 {
		b.t.Fatalf("get: %d %s", status, body)
	}
	return decode[tinyGame](b.t, body)
}

// play makes a move for token's seat, which must be to move.
func (b bubbleServer) play(id, token, move string) {
	b.t.Helper()
	v := b.tiny(id, token).State.Version
	if status, body := b.do("POST", "/api/games/"+id+"/moves", token, map[string]any{"version": v, "move": move}); status != 200 {
		b.t.Fatalf("%s at %d: %d %s", move, v, status, body)
	}
}

// join joins the seats of the tokens.
func (b bubbleServer) join(id string, tokens ...string) {
	b.t.Helper()
	for _, token := range tokens {
		if status, body := b.do("POST", "/api/games/"+id+"/join", token, nil); status != 200 {
			b.t.Fatalf("join: %d %s", status, body)
		}
	}
}

// clocks returns the clocks of game id now, as "ms" or "ms running" a seat.
func (b bubbleServer) clocks(id string) []string {
	b.t.Helper()
	synctest.Wait()
	var out []string
	for _, c := range b.tiny(id, "").State.Clocks {
		s := fmt.Sprint(c.RemainingMS)
		if c.Running {
			s += " running"
		}
		out = append(out, s)
	}
	return out
}

func (b bubbleServer) checkClocks(when, id string, want ...string) {
	b.t.Helper()
	if got := b.clocks(id); !slices.Equal(got, want) {
		b.t.Fatalf("%s: clocks %q, want %q", when, got, want)
	}
}

// even returns an even card of the hand, odd an odd one.
func even(hand []int) string {
	for _, c := range hand {
		if c%2 == 0 {
			return fmt.Sprint("play ", c)
		}
	}
	return ""
}

// TestTurnTimer: each turn has its time and, with carry, what the last
// turn left, as a sand glass passes it on; a choice asked of another seat mid-turn uses the turn's time;
// when a turn's time runs out the rules end it (Tiny's "stop" or "leave"),
// and where they cannot (a card must be played) the stand-in plays; the
// time left survives a restart.
func TestTurnTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, st := openBubble(t, nil)
		c := b.timedTiny(map[string]any{"kind": "human", "name": "Bea"}, map[string]any{"kind": "turn", "turn_ms": 10000, "carry": true})
		id, ann, bea := c.ID, c.Seats[0].Token, c.Seats[1].Token
		if tv := c.Game.Time; tv == nil || tv.Kind != "turn" || tv.TurnMS != 10000 || !tv.Carry || tv.Started {
			t.Fatalf("time %+v", tv)
		}
		time.Sleep(time.Minute)
		b.checkClocks("before anyone joins", id, "10000", "0")
		b.join(id, ann, bea)
		b.checkClocks("as both join", id, "10000 running", "0")
		watch := spectate(t, b.s, id)

		// Ann plays an even card after 3 s: her turn goes on, with its time.
		time.Sleep(3 * time.Second)
		b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
		b.checkClocks("after an even card", id, "7000 running", "0")
		if cl := watch.clocksAt(t, 1); cl[0].RemainingMS != 7000 || !cl[0].Running {
			t.Errorf("the move event says %+v", cl)
		}
		// She stops 2 s later: Bea's turn has its 10 s and the 5 s Ann left.
		time.Sleep(2 * time.Second)
		b.play(id, ann, "stop")
		b.checkClocks("Bea's turn", id, "0", "15000 running")

		// Bea lets her time run out: she must play a card, which the
		// rules cannot choose, so the stand-in plays one; the rest of her
		// turn, if any, the rules end at once ("stop", or Ann's "leave"
		// after an odd card). Ann's turn then has 10 s: a turn whose time
		// ran out leaves nothing.
		time.Sleep(15 * time.Second)
		b.checkClocks("after Bea's time ran out", id, "10000 running", "0")
		g := b.tiny(id, "")
		if g.State.Version != 4 || g.State.ToMove != 0 || g.State.View.Decision != "play" {
			t.Fatalf("after Bea's time: version %d, %d to move, %s", g.State.Version, g.State.ToMove, g.State.View.Decision)
		}
		if m3, m4 := g.Moves[2], g.Moves[3]; m3.Seat != 1 || m4.Move != "stop" && m4.Move != "leave" || m4.Move == "leave" && m4.Seat != 0 {
			t.Errorf("moves 3 and 4: %+v %+v; want the stand-in's card, then the rules' stop or Ann's leave", m3, m4)
		}
		for _, seat := range g.Seats {
			if seat.StandIn {
				t.Errorf("seat %+v is left to the stand-in after its turn", seat)
			}
		}

		// Ann plays a card after 4 s. After an even one her turn goes on;
		// after an odd one Bea chooses, on the turn's time. Either way
		// Ann's turn ends a second later with 5 s left, for Bea's turn.
		time.Sleep(4 * time.Second)
		hand := b.tiny(id, ann).State.View.Hand
		b.play(id, ann, fmt.Sprint("play ", hand[0]))
		time.Sleep(time.Second)
		if hand[0]%2 == 0 {
			b.checkClocks("Ann again", id, "5000 running", "0")
			b.play(id, ann, "stop")
		} else {
			b.checkClocks("Bea's choice", id, "0", "5000 running")
			b.play(id, bea, "take")
		}
		b.checkClocks("Bea's second turn", id, "0", "15000 running")

		// A restart keeps what is left of the turn.
		time.Sleep(4 * time.Second)
		b.s.Close()
		time.Sleep(time.Hour)
		b = startBubble(t, st, nil)
		defer b.s.Close()
		b.checkClocks("after a restart", id, "0", "11000 running")

		// Bea ends her turn half a second later, before her own glass was
		// turned: what passes on is what is left of the 5 s Ann left her,
		// not the glass she never started.
		time.Sleep(500 * time.Millisecond)
		for g := b.tiny(id, ""); g.State.View.Owner == 1 && !g.State.Over; g = b.tiny(id, "") {
			switch v := b.tiny(id, bea).State.View; {
			case g.State.ToMove == 0:
				b.play(id, ann, "leave")
			case v.Decision == "again":
				b.play(id, bea, "stop")
			default:
				b.play(id, bea, fmt.Sprint("play ", v.Hand[0]))
			}
		}
		b.checkClocks("Ann's third turn", id, "10500 running", "0")

		// The stored moves carry the time they left.
		sg, err := st.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if m := sg.Moves[1]; m.Clocks[1] != 15000 || m.Seat != 0 || m.Move != "stop" {
			t.Errorf("move 2 stored as %+v", m)
		}
	})
}

// annThenBot makes a game of Tiny between Ann and a bot with a turn timer
// of 10 s that carries, in which Ann plays her first turn in 1 s.
func (b bubbleServer) annThenBot() (id, ann string) {
	c := b.timedTiny(map[string]any{"kind": "bot", "level": "easy"}, map[string]any{"kind": "turn", "turn_ms": 10000, "carry": true})
	id, ann = c.ID, c.Seats[0].Token
	b.join(id, ann)
	time.Sleep(time.Second)
	b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
	b.play(id, ann, "stop")
	return id, ann
}

// botsTurn waits, a step of the fake clock at a time, for the bot's turn
// to end; if it plays an odd card, Ann chooses at once.
func (b bubbleServer) botsTurn(id, ann string, step time.Duration) {
	for {
		synctest.Wait()
		g := b.tiny(id, ann)
		if g.State.ToMove == 0 && g.State.View.Decision == "trigger" {
			b.play(id, ann, "leave")
			continue
		}
		if g.State.ToMove == 0 || g.State.Over {
			return
		}
		time.Sleep(step)
	}
}

// TestTurnTimerBots: a turn timer is the table's glass: a bot's turn is
// timed too, and what the bot leaves passes on (here the bot answers at
// once, leaving Ann's 9 s on top of its own glass, and Ann's next turn
// gets 10 s and 9 s).
func TestTurnTimerBots(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, nil)
		defer b.s.Close()
		id, ann := b.annThenBot()
		b.botsTurn(id, ann, 0)
		b.checkClocks("Ann's turn after the bot's", id, "19000 running", "0")
	})
}

// deadlineBot waits for its context's end when it has a deadline sooner
// than the server's bound on a bot's thinking (an hour in the test),
// recording the deadline, and plays the first legal move otherwise.
type deadlineBot struct {
	mu        sync.Mutex
	deadlines []time.Time
}

func (b *deadlineBot) Move(ctx context.Context, st game.State) (game.Move, error) {
	if d, ok := ctx.Deadline(); ok && time.Until(d) < 10*time.Minute {
		b.mu.Lock()
		b.deadlines = append(b.deadlines, d)
		b.mu.Unlock()
		<-ctx.Done()
		return 0, ctx.Err()
	}
	return game.Legal(st)[0], nil
}

// TestTurnTimerBotDeadline: a bot in a turn-timed game is given its
// turn's end as its context's deadline; a bot that lets it pass has its
// turn ended by the time rule (Tiny has no move for a turn whose time is
// up while a card must be played, so its own bot decides without a
// deadline, decision by decision, until the turn ends), and leaves nothing
// to the next turn.
func TestTurnTimerBotDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bot := &deadlineBot{}
		b, _ := openBubble(t, func(c *Config) {
			c.Bots = func(string, string, bool) (Bot, error) { return bot, nil }
			c.BotTimeout = time.Hour
		})
		defer b.s.Close()
		id, ann := b.annThenBot()
		botTurn := time.Now()
		b.botsTurn(id, ann, time.Second)
		bot.mu.Lock()
		deadlines := slices.Clone(bot.deadlines)
		bot.mu.Unlock()
		if len(deadlines) != 1 || !deadlines[0].Equal(botTurn.Add(19*time.Second)) {
			t.Errorf("the bot's deadlines %v, want one, its turn's end %v", deadlines, botTurn.Add(19*time.Second))
		}
		b.checkClocks("Ann's turn after the bot's", id, "10000 running", "0")
	})
}

// TestTinyBank: with a bank, the increment comes when a turn ends, to the
// seat whose turn it was, not after each of its decisions; the time of a
// choice asked mid-turn is the chooser's.
func TestTinyBank(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, nil)
		defer b.s.Close()
		c := b.timedTiny(map[string]any{"kind": "human", "name": "Bea"}, map[string]any{"kind": "bank", "initial_ms": 10000, "increment_ms": 1000})
		id, ann, bea := c.ID, c.Seats[0].Token, c.Seats[1].Token
		b.join(id, ann, bea)
		time.Sleep(2 * time.Second)
		b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
		b.checkClocks("after an even card", id, "8000 running", "10000")
		time.Sleep(time.Second)
		b.play(id, ann, "stop")
		b.checkClocks("after Ann's turn", id, "8000", "10000 running")
		// Bea plays cards until one is odd (or her turn ends otherwise),
		// each after a second; Ann's choice takes her 2 s.
		moves := 0
		for {
			g := b.tiny(id, bea)
			if g.State.ToMove != 1 {
				break
			}
			time.Sleep(time.Second)
			moves++
			if g.State.View.Decision == "again" && len(g.State.View.Hand) == 0 {
				b.play(id, bea, "stop")
				continue
			}
			b.play(id, bea, fmt.Sprint("play ", g.State.View.Hand[0]))
		}
		g := b.tiny(id, "")
		if g.State.ToMove == 0 && g.State.View.Decision == "trigger" {
			b.checkClocks("Ann's choice", id, "8000 running", fmt.Sprint(10000-1000*moves))
			time.Sleep(2 * time.Second)
			b.play(id, ann, "take")
			// Bea's turn ended: she gains the increment, once.
			b.checkClocks("after Ann's choice", id, "6000 running", fmt.Sprint(10000-1000*moves+1000))
		} else {
			b.checkClocks("after Bea's turn", id, "8000 running", fmt.Sprint(10000-1000*moves+1000))
		}
		if status, _ := b.do("GET", "/api/games/"+id+"/record", "", nil); status != http.StatusForbidden {
			t.Errorf("the record of a game of Tiny in progress: %d", status)
		}
	})
}

// pacedBot plays the first legal move and says it keeps a pace of its own.
type pacedBot struct{ firstBot }

func (pacedBot) Paced() bool { return true }

// TestBotDelayAndPacedBots: the server delays a bot's move so that people
// can follow, but not a bot that keeps a person's pace itself (Laguna's
// planner), which would otherwise be slower than its level.
func TestBotDelayAndPacedBots(t *testing.T) {
	for _, paced := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			b, _ := openBubble(t, func(c *Config) {
				c.BotDelay = 10 * time.Second
				c.Bots = func(string, string, bool) (Bot, error) {
					if paced {
						return pacedBot{}, nil
					}
					return firstBot{}, nil
				}
			})
			defer b.s.Close()
			c := b.timedTiny(map[string]any{"kind": "bot", "level": "easy"}, nil)
			id, ann := c.ID, c.Seats[0].Token
			b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
			v := b.tiny(id, ann).State.Version + 1 // after Ann's stop
			b.play(id, ann, "stop")
			synctest.Wait()
			if moved := b.tiny(id, ann).State.Version > v; moved != paced {
				t.Errorf("paced %v: the bot moved at once: %v", paced, moved)
			}
			time.Sleep(10 * time.Second)
			synctest.Wait()
			if b.tiny(id, ann).State.Version == v {
				t.Errorf("paced %v: the bot did not move after the delay", paced)
			}
		})
	}
}

// takeBackNow takes back token's seat's last move at once (against a bot).
func (b bubbleServer) takeBackNow(id, token string) {
	b.t.Helper()
	v := b.tiny(id, "").State.Version
	status, body := b.do("POST", "/api/games/"+id+"/takeback", token, map[string]any{"version": v})
	if status != 200 || !decode[takeBackResponse](b.t, body).Done {
		b.t.Fatalf("take-back at %d: %d %s", v, status, body)
	}
}

// TestTakeBackGivesNoTime: a take-back never gives time back (issue 28,
// item 3); the clocks run on as if the moves taken back had been played.
// Under a 10 s glass, Ann takes back a card played with 8.8 s left when
// 1.2 s are left, and keeps 1.2 s; taking back the rules' stop of a turn
// whose sand ran out leaves the turn no time, and the rules end it again.
// With a bank, taking back the end of a turn keeps the time the turn took
// and takes its increment away.
func TestTakeBackGivesNoTime(t *testing.T) {
	glass := map[string]any{"kind": "turn", "turn_ms": 10000, "carry": true}
	bot := map[string]any{"kind": "bot", "level": "easy"}
	t.Run("a step of the turn", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			b, _ := openBubble(t, nil)
			defer b.s.Close()
			c := b.timedTiny(bot, glass)
			id, ann := c.ID, c.Seats[0].Token
			b.join(id, ann)
			time.Sleep(1200 * time.Millisecond)
			b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
			time.Sleep(7600 * time.Millisecond)
			b.takeBackNow(id, ann)
			b.checkClocks("the card taken back", id, "1200 running", "0")
		})
	})
	t.Run("the rules' end of a turn", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			b, _ := openBubble(t, nil)
			defer b.s.Close()
			c := b.timedTiny(map[string]any{"kind": "human", "name": "Bea"}, glass)
			id, ann, bea := c.ID, c.Seats[0].Token, c.Seats[1].Token
			b.join(id, ann, bea)
			time.Sleep(time.Second)
			b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
			time.Sleep(9 * time.Second)
			synctest.Wait()
			if g := b.tiny(id, ""); len(g.Moves) != 2 || g.Moves[1].Move != "stop" || g.Moves[1].Seat != 0 {
				t.Fatalf("the sand ran out, but the moves are %+v", g.Moves)
			}
			if status, body := b.do("POST", "/api/games/"+id+"/takeback", ann, map[string]any{"version": 2}); status != 200 {
				t.Fatalf("asking: %d %s", status, body)
			}
			if status, body := b.do("POST", "/api/games/"+id+"/takeback", bea, map[string]any{"version": 2, "accept": true}); status != 200 || !decode[takeBackResponse](t, body).Done {
				t.Fatalf("accepting: %d %s", status, body)
			}
			synctest.Wait()
			g := b.tiny(id, "")
			if len(g.Moves) < 2 || g.Moves[1].Move != "stop" {
				t.Errorf("the rules' stop taken back gave the turn time: %d moves, %+v", len(g.Moves), g.State.Clocks)
			}
		})
	})
	t.Run("a bank's turn end", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			b, _ := openBubble(t, nil)
			defer b.s.Close()
			c := b.timedTiny(bot, map[string]any{"kind": "bank", "initial_ms": 60000, "increment_ms": 5000})
			id, ann := c.ID, c.Seats[0].Token
			b.join(id, ann)
			time.Sleep(10 * time.Second)
			b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
			time.Sleep(20 * time.Second)
			b.play(id, ann, "stop")
			b.botsTurn(id, ann, 0)
			// Back to before her stop (and her answer to the bot's card,
			// if it asked her one).
			for b.tiny(id, "").State.Version > 1 {
				b.takeBackNow(id, ann)
			}
			b.checkClocks("the turn's end taken back", id, "30000 running", "60000")
		})
	})
}

// slowStore is a store whose write of the move that makes version takes
// delay, as a loaded disk's may: time passes between the move's check and
// what the server does after writing it. Its other writes take no time:
// in a bubble, whatever waits for the game's lock meanwhile would stop
// the fake clock (a goroutine waiting for a mutex is not durably blocked).
type slowStore struct {
	store.Store
	version int
	delay   time.Duration
}

func (s slowStore) AppendMove(ctx context.Context, id string, version int, m store.Move, after store.After) error {
	if version == s.version {
		time.Sleep(s.delay)
	}
	return s.Store.AppendMove(ctx, id, version, m, after)
}

// lateBot answers its first decision with a deadline margin before that
// deadline, playing an even card (so that its turn goes on), and every
// other decision at once with the first legal move, which in Tiny is a
// card while the bot holds one: a bot that would play on if let. landing,
// if set, is called as the late move is answered.
type lateBot struct {
	margin  time.Duration
	mu      sync.Mutex
	late    bool
	landing func()
}

func (b *lateBot) Move(ctx context.Context, st game.State) (game.Move, error) {
	legal := game.Legal(st)
	b.mu.Lock()
	defer b.mu.Unlock()
	if d, ok := ctx.Deadline(); ok && !b.late && time.Until(d) < 10*time.Minute {
		b.late = true
		time.Sleep(time.Until(d) - b.margin)
		if b.landing != nil {
			b.landing()
		}
		for _, m := range legal {
			if m <= 9 && m%2 == 0 {
				return m, nil
			}
		}
	}
	return legal[0], nil
}

// TestBotMoveAtTheDeadline: a bot's move that lands just before its turn's
// end, its write taking as long as the sand it leaves or longer, must not
// let the bot play on with an empty glass (issue 47, item 12): the rules'
// move for a turn whose time is up ends the turn ("stop" by time, in Tiny
// after an even card), however late after the move the server looks
// again.
//
// The timer of the turn's end would fire during the write and wait for
// the game's lock, a wait the fake clock cannot see past (slowStore), and
// then find the game moved on and do nothing: the test stops it as the
// bot's move lands, and looks at the game only once the turn is over.
func TestBotMoveAtTheDeadline(t *testing.T) {
	ended := []string{"1 play 6 by time false", "1 stop by time true"}
	// A bot whose late card leaves it sand plays on in its time: its
	// next card, odd, asks Ann, whose answer the time makes.
	inTime := []string{"1 play 6 by time false", "1 play 1 by time false", "0 leave by time true"}
	cases := []struct {
		name          string
		margin, write time.Duration
		want          []string // the moves from the bot's late card on
	}{
		{"the write outlasts the sand left", 5 * time.Millisecond, 20 * time.Millisecond, ended},
		{"the write ends as the sand runs out", 5 * time.Millisecond, 5 * time.Millisecond, ended},
		{"a millisecond left, written in one", time.Millisecond, time.Millisecond, ended},
		{"the write ends before the sand runs out", 5 * time.Millisecond, time.Millisecond, inTime},
		{"the write takes no time", 5 * time.Millisecond, 0, inTime},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				st, err := store.Open(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				bot := &lateBot{margin: c.margin}
				// Ann's card and stop are versions 1 and 2, the bot's late
				// card 3.
				b := startBubble(t, slowStore{st, 3, c.write}, func(cfg *Config) {
					cfg.Bots = func(string, string, bool) (Bot, error) { return bot, nil }
					cfg.BotTimeout = time.Hour
				})
				defer b.s.Close()
				cr := b.create(map[string]any{
					"game":  "tiny",
					"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}},
					"seed":  bothEvenSeed(t),
					"time":  map[string]any{"kind": "turn", "turn_ms": 10000, "carry": true},
				})
				id, ann := cr.ID, cr.Seats[0].Token
				g := b.s.games[id]
				bot.landing = func() {
					g.mu.Lock()
					defer g.mu.Unlock()
					if g.timer != nil {
						g.timer.Stop()
					}
				}
				b.join(id, ann)
				b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
				b.play(id, ann, "stop")
				// The bot's glass is 20 s: its own and the 10 s Ann left.
				time.Sleep(25 * time.Second)
				synctest.Wait()
				var turn []string
				for _, m := range b.tiny(id, "").Moves[2:] {
					turn = append(turn, fmt.Sprintf("%d %s by time %v", m.Seat, m.Move, m.ByTime))
				}
				if !slices.Equal(turn, c.want) {
					t.Errorf("the bot's turn was %q, want %q", turn, c.want)
				}
			})
		})
	}
}

// bothEvenSeed returns a seed that deals both seats of a game of two an
// even card.
func bothEvenSeed(t testing.TB) uint64 {
	t.Helper()
	for seed := uint64(1); seed < 1000; seed++ {
		st, err := gametest.Tiny.NewGame(game.Setup{Players: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if hasEven(st.View(game.Viewer{Seat: 0}).(gametest.TinyView)) && hasEven(st.View(game.Viewer{Seat: 1}).(gametest.TinyView)) {
			return seed
		}
	}
	t.Fatal("no seed")
	return 0
}
