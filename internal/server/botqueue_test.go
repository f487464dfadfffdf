package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// gateBots are bots, one a level, that think until the test lets them go
// (or they are hurried), noting the order in which they got a worker. A
// test names each game's bot by a level of its own, so the order of the
// levels is the order of the games; a bot let go answers at once from then
// on.
type gateBots struct {
	mu      sync.Mutex
	started []string // each level once, when it first got a worker
	hurried []string
	gates   map[string]chan struct{}
}

func newGateBots() *gateBots { return &gateBots{gates: make(map[string]chan struct{})} }

func (g *gateBots) gate(level string) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := g.gates[level]
	if !ok {
		c = make(chan struct{})
		g.gates[level] = c
	}
	return c
}

// releaseNext lets go the first bot that got a worker and is not let go
// yet, and reports whether there was one.
func (g *gateBots) releaseNext() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, l := range g.started {
		select {
		case <-g.gates[l]:
		default:
			close(g.gates[l])
			return true
		}
	}
	return false
}

func (g *gateBots) order() (started, hurried []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.started), slices.Clone(g.hurried)
}

type gateBot struct {
	g     *gateBots
	level string
}

func (b gateBot) Move(ctx context.Context, st game.State) (game.Move, error) {
	gate := b.g.gate(b.level)
	b.g.mu.Lock()
	if !slices.Contains(b.g.started, b.level) {
		b.g.started = append(b.g.started, b.level)
	}
	b.g.mu.Unlock()
	select {
	case <-gate:
	case <-ctx.Done():
		b.g.mu.Lock()
		b.g.hurried = append(b.g.hurried, b.level)
		b.g.mu.Unlock()
	}
	return game.Legal(st)[0], nil
}

// fairServer starts a server in the bubble with one bot worker and the
// gate bots, whose levels are given.
func fairServer(t *testing.T, gates *gateBots, levels []string, configure func(*Config)) bubbleServer {
	b, _ := openBubble(t, func(c *Config) {
		c.BotWorkers = 1
		c.Levels = func(string) []string { return append([]string{"medium"}, levels...) }
		c.Bots = func(_, level string, _ bool) (Bot, error) {
			if level == "medium" {
				return firstBot{}, nil
			}
			return gateBot{gates, level}, nil
		}
		if configure != nil {
			configure(c)
		}
	})
	return b
}

// createFrom makes a game of Tiny from a client address, its first seat a
// bot of level that moves at once, its second a person's, or when
// botsAlone a medium bot, which answers at once.
func (b bubbleServer) createFrom(addr, level string, botsAlone bool) {
	b.t.Helper()
	second := map[string]any{"kind": "human"}
	if botsAlone {
		second = map[string]any{"kind": "bot", "level": "medium"}
	}
	spec := map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "bot", "level": level}, second}}
	req := httptest.NewRequest("POST", "/api/games", bytes.NewReader(mustJSON(spec)))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = addr + ":1234"
	w := httptest.NewRecorder()
	b.s.ServeHTTP(w, req)
	if w.Code != http.StatusCreated {
		b.t.Fatalf("creating a game from %s: %d %s", addr, w.Code, w.Body)
	}
}

// TestBotOrder: bot moves get the one worker round robin by address, not
// first come first served: an address with many games waits behind its
// own moves; a game with a person goes before games of bots alone. The
// games are created in the order given (address/level), each game's bot
// moving first; then the bots are let go one at a time, in the order they
// got the worker. A move of bots alone is hurried for a person's at once;
// no other is (the slice is longer than the test).
func TestBotOrder(t *testing.T) {
	cases := []struct {
		name  string
		games []string // address/level; a level "bots..." is a game of bots alone
		want  []string
		// hurried are the bots hurried.
		hurried []string
	}{
		{"one address's backlog and another's game",
			[]string{"a/a1", "a/a2", "a/a3", "b/b1"},
			[]string{"a1", "b1", "a2", "a3"}, nil},
		{"three addresses",
			[]string{"a/a1", "a/a2", "a/a3", "b/b1", "b/b2", "c/c1"},
			[]string{"a1", "b1", "c1", "a2", "b2", "a3"}, nil},
		{"an address that comes later goes before those served",
			[]string{"a/a1", "b/b1", "a/a2", "b/b2", "c/c1"},
			[]string{"a1", "b1", "c1", "a2", "b2"}, nil},
		{"people before bots alone",
			[]string{"b/botsb1", "a/botsa1", "a/a1", "c/c1"},
			[]string{"botsb1", "a1", "c1", "botsa1"}, []string{"botsb1"}},
	}
	for _, c := range cases {
		synctest.Test(t, func(t *testing.T) {
			gates := newGateBots()
			b := fairServer(t, gates, levelsOf(c.games), func(c *Config) { c.BotSlice = time.Hour; c.MaxBotGamesPerAddr = -1 })
			defer b.s.Close()
			for _, g := range c.games {
				addr, level, _ := strings.Cut(g, "/")
				b.createFrom(testAddrs[addr], level, strings.HasPrefix(level, "bots"))
			}
			for synctest.Wait(); gates.releaseNext(); synctest.Wait() {
			}
			started, hurried := gates.order()
			if !slices.Equal(started, c.want) || !slices.Equal(hurried, c.hurried) {
				t.Errorf("%s: the bots got the worker in the order %v (hurried %v), want %v (hurried %v)", c.name, started, hurried, c.want, c.hurried)
			}
		})
	}
}

// testAddrs are the client addresses of the fairness tests.
var testAddrs = map[string]string{"a": "192.0.2.1", "b": "192.0.2.2", "c": "192.0.2.3"}

// levelsOf returns the levels of games given as address/level.
func levelsOf(games []string) []string {
	var levels []string
	for _, g := range games {
		_, level, _ := strings.Cut(g, "/")
		levels = append(levels, level)
	}
	return levels
}

// TestBotSlice: a move of an address with more moves in the pool is
// hurried, once it has thought its slice, for a move of an address with
// fewer; between addresses with as many, nobody is hurried and the move
// waits its turn.
func TestBotSlice(t *testing.T) {
	cases := []struct {
		name        string
		games       []string // address/level, in the order created
		wantHurried []string
		// wantNext is the bot that gets the worker after the one
		// thinking first answers (hurried or let go).
		wantNext string
	}{
		{"three games of one address, one of another", []string{"a/a1", "a/a2", "a/a3", "b/b1"}, []string{"a1"}, "b1"},
		{"one game each", []string{"a/a1", "b/b1"}, nil, "b1"},
		{"one address's games alone", []string{"a/a1", "a/a2"}, nil, "a2"},
	}
	const slice = 250 * time.Millisecond
	for _, c := range cases {
		synctest.Test(t, func(t *testing.T) {
			gates := newGateBots()
			b := fairServer(t, gates, levelsOf(c.games), func(c *Config) { c.BotSlice = slice })
			defer b.s.Close()
			for _, g := range c.games {
				addr, level, _ := strings.Cut(g, "/")
				b.createFrom(testAddrs[addr], level, false)
			}
			synctest.Wait()
			if _, hurried := gates.order(); len(hurried) > 0 {
				t.Errorf("%s: %v hurried before its slice", c.name, hurried)
			}
			time.Sleep(slice)
			synctest.Wait()
			if _, hurried := gates.order(); !slices.Equal(hurried, c.wantHurried) {
				t.Errorf("%s: hurried after the slice %v, want %v", c.name, hurried, c.wantHurried)
			}
			gates.releaseNext()
			synctest.Wait()
			if started, _ := gates.order(); len(started) < 2 || started[1] != c.wantNext {
				t.Errorf("%s: the bots got the worker in the order %v, want %s second", c.name, started, c.wantNext)
			}
		})
	}
}

// slowPace is a bot that keeps a person's pace of 10 s a decision.
type slowPace struct{ firstBot }

func (slowPace) Paced() bool { return true }

func (slowPace) Pace() time.Duration { return 10 * time.Second }

// TestPacedBotHoldsNoWorker: a bot that keeps a person's pace waits it out
// on a timer, holding no worker: with one worker, another game's bot
// answers meanwhile, nothing is thinking, and the paced bot moves when its
// pace has passed.
func TestPacedBotHoldsNoWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, func(c *Config) {
			c.BotWorkers = 1
			c.Bots = func(_, level string, _ bool) (Bot, error) {
				if level == "medium" {
					return slowPace{}, nil
				}
				return firstBot{}, nil
			}
		})
		defer b.s.Close()
		paced := b.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "bot", "level": "medium"}, {"kind": "human"}}})
		other := b.create(map[string]any{"game": "tiny", "seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "human"}}})
		synctest.Wait()
		if v := b.tiny(other.ID, "").State.Version; v == 0 {
			t.Error("another game's bot did not move while a paced bot waited for its pace")
		}
		if v := b.tiny(paced.ID, "").State.Version; v != 0 {
			t.Error("the paced bot moved before its pace")
		}
		if h := b.s.health(time.Now()); h.BotThinking != 0 || h.BotQueue != 0 {
			t.Errorf("while a paced bot waits for its pace: %d bot moves thinking, %d waiting, want none", h.BotThinking, h.BotQueue)
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if v := b.tiny(paced.ID, "").State.Version; v == 0 {
			t.Error("the paced bot did not move after its pace")
		}
	})
}

// TestPaceGivesWayToTheTurnsEnd: under a turn timer, a paced bot whose
// pace is longer than its turn's time left moves paceMargin before the
// turn's end, as a player hurries when the sand runs out, and not before.
func TestPaceGivesWayToTheTurnsEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := openBubble(t, func(c *Config) {
			c.Bots = func(string, string, bool) (Bot, error) { return slowPace{}, nil }
		})
		defer b.s.Close()
		const turn = 5 * time.Second // shorter than the bot's pace
		c := b.timedTiny(map[string]any{"kind": "bot", "level": "easy"}, map[string]any{"kind": "turn", "turn_ms": turn.Milliseconds()})
		id, ann := c.ID, c.Seats[0].Token
		b.join(id, ann)
		b.play(id, ann, even(b.tiny(id, ann).State.View.Hand))
		b.play(id, ann, "stop")
		v := b.tiny(id, ann).State.Version
		time.Sleep(turn - paceMargin - time.Millisecond)
		synctest.Wait()
		if b.tiny(id, ann).State.Version != v {
			t.Error("the paced bot moved before its pace or its turn's end")
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if b.tiny(id, ann).State.Version == v {
			t.Error("the paced bot did not move paceMargin before its turn's end")
		}
	})
}

// spread returns n games of level prefix+i, one from each of addresses
// 198.51.100.1 on, each address's games numbered in turn (address/level,
// as TestBotOrder gives them); perAddr games an address.
func spread(n, perAddr int, prefix string) []string {
	var games []string
	for i := range n {
		games = append(games, fmt.Sprintf("198.51.100.%d/%s%d", i/perAddr+1, prefix, i+1))
	}
	return games
}

// TestCheapBotsFirst: a cheap bot's answer (easy, medium) never waits
// behind expensive thinking, whoever asks and however many addresses keep
// the workers busy (issue 47, item 11): it goes before every expensive
// move waiting, and once the expensive move thinking has thought its
// slice, that move is hurried for it. A cheap move hurries no other cheap
// one, and a cheap move of bots alone does not hurry a person's game.
// Every game's bot moves first, in the order created; the last game's is
// the move watched.
func TestCheapBotsFirst(t *testing.T) {
	const person, botsAlone = false, true
	type seated struct {
		addrLevel string
		botsAlone bool
	}
	people := func(games []string) []seated {
		var out []seated
		for _, g := range games {
			out = append(out, seated{g, person})
		}
		return out
	}
	cases := []struct {
		name  string
		games []seated
		// wantSecond is the bot that gets the worker once the first
		// answers; wantHurried the bots hurried after the first slice.
		wantSecond  string
		wantHurried []string
	}{
		{"20 addresses of a max game, then an easy one", append(people(spread(20, 1, "max")), seated{"203.0.113.1/easy", person}),
			"easy", []string{"max1"}},
		{"100 addresses of a max game, then an easy one", append(people(spread(100, 1, "max")), seated{"203.0.113.1/easy", person}),
			"easy", []string{"max1"}},
		{"10 addresses of 2 max games, then an easy one", append(people(spread(20, 2, "max")), seated{"203.0.113.1/easy", person}),
			"easy", []string{"max1"}},
		{"the address's own max games, then its easy one", people([]string{"198.51.100.1/max1", "198.51.100.1/max2", "198.51.100.1/easy"}),
			"easy", []string{"max1"}},
		{"a cheap move behind a cheap one", people([]string{"198.51.100.1/easy1", "198.51.100.2/max1", "203.0.113.1/easy"}),
			"easy", nil},
		{"a cheap move of bots alone behind a person's max", []seated{{"198.51.100.1/max1", person}, {"198.51.100.2/max2", person}, {"203.0.113.1/easy", botsAlone}},
			"max2", nil},
	}
	const slice = 250 * time.Millisecond
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var levels []string
				for _, g := range c.games {
					_, level, _ := strings.Cut(g.addrLevel, "/")
					levels = append(levels, level)
				}
				gates := newGateBots()
				b := fairServer(t, gates, levels, func(cfg *Config) {
					cfg.BotSlice = slice
					cfg.MaxBotGamesPerAddr = -1
					cfg.CheapLevels = []string{"easy", "easy1", "medium"}
				})
				defer b.s.Close()
				for _, g := range c.games {
					addr, level, _ := strings.Cut(g.addrLevel, "/")
					b.createFrom(addr, level, g.botsAlone)
				}
				synctest.Wait()
				time.Sleep(slice)
				synctest.Wait()
				if _, hurried := gates.order(); !slices.Equal(hurried, c.wantHurried) {
					t.Errorf("hurried after the slice %v, want %v", hurried, c.wantHurried)
				}
				gates.releaseNext()
				synctest.Wait()
				if started, _ := gates.order(); len(started) < 2 || started[1] != c.wantSecond {
					t.Errorf("the bots got the worker in the order %v, want %s second", started, c.wantSecond)
				}
				for gates.releaseNext() {
					synctest.Wait()
				}
			})
		})
	}
}

// TestBotWaitByCost: the metrics of a bot move's wait and thinking say
// its cost, so that a cheap move's wait, which the slice bounds, can be
// watched apart from expensive ones'.
func TestBotWaitByCost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gates := newGateBots()
		b := fairServer(t, gates, []string{"max1", "easy"}, func(cfg *Config) { cfg.BotSlice = 250 * time.Millisecond })
		defer b.s.Close()
		b.createFrom("198.51.100.1", "max1", false)
		b.createFrom("198.51.100.2", "easy", false)
		for synctest.Wait(); gates.releaseNext(); synctest.Wait() {
		}
		time.Sleep(time.Second)
		synctest.Wait()
		families, err := b.s.metrics.reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]uint64{}
		for _, f := range families {
			if name := f.GetName(); name != "lagoon_bot_wait_seconds" && name != "lagoon_bot_think_seconds" {
				continue
			}
			for _, m := range f.GetMetric() {
				key := f.GetName()
				for _, l := range m.GetLabel() {
					key += " " + l.GetName() + "=" + l.GetValue()
				}
				got[key] = m.GetHistogram().GetSampleCount()
			}
		}
		for _, name := range []string{"lagoon_bot_wait_seconds", "lagoon_bot_think_seconds"} {
			for _, cost := range []string{"cheap", "expensive"} {
				if key := name + " cost=" + cost + " game=person"; got[key] == 0 {
					t.Errorf("%s: no move counted (all: %v)", key, got)
				}
			}
		}
	})
}
