// Package bots holds what Laguna brings to the platform's bots beyond the
// contract (package game): its planner bot, at four levels, and the
// search's knowledge of the game (Position: the playout policy, the move
// prior and the rewards for ai/mcts). The bots' table in package ai seats
// them; the layers above name no game. docs/laguna.md ("Bots") says how
// they play.
package bots

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// Level is how well a planner plays: how far it plans, how well it
// remembers what lies under the pearls, and how fast it acts.
type Level struct {
	Name string
	// Horizon is the stops a plan looks ahead: 1 heads for the nearest
	// pearl of its colour, then the volcano; 2 and 3 weigh every
	// sequence of one or two islands (or a raft to trade with) before
	// the volcano by the pearls it delivers for the steps it costs.
	Horizon int
	// Memory is the share of the squares under the pearls it remembers
	// having seen (1: the whole board). A square it forgets, it believes
	// open water. The share is drawn per square from the bot's seed.
	Memory float64
	// Peeks: before its first step of a turn, it looks under its own
	// pearls when it has forgotten what lies there.
	Peeks bool
	// Trades: it exchanges pearls with the rafts it touches and plans
	// to sail to a raft that carries pearls of its colour. A level
	// without it does so only when it must (see trades).
	Trades bool
	// Pace is the decisions it makes a second (a step, a pearl moved, a
	// pearl loaded...), as a player's hand moves; Move waits for it.
	// Pace * 30 is also the steps it takes in a turn at most, the sand
	// timer's 30 seconds, so that a game without a clock plays as one
	// with it would.
	Pace float64
}

// StepsPerTurn is the most steps the level takes in a turn: what its pace
// allows in the sand timer's 30 seconds.
func (l Level) StepsPerTurn() int { return int(l.Pace * 30) }

// Levels are the planner's levels, easiest first.
var Levels = []Level{
	{Name: "easy", Horizon: 1, Memory: 0, Pace: 1},
	{Name: "medium", Horizon: 2, Memory: 0.5, Peeks: true, Trades: true, Pace: 1.5},
	{Name: "hard", Horizon: 3, Memory: 0.8, Peeks: true, Trades: true, Pace: 2},
	{Name: "max", Horizon: 3, Memory: 1, Trades: true, Pace: 3},
}

// LevelNames returns the levels' names, easiest first.
func LevelNames() []string {
	out := make([]string, len(Levels))
	for i, l := range Levels {
		out[i] = l.Name
	}
	return out
}

// Planner is Laguna's planning bot. At each decision it reads what its seat
// sees (the view: the rafts, the pearls, what shows through the open
// holes) and what it remembers of the board, searches the routes of its raft
// (positions and pearl arrangements) to every island, the volcano and the
// other rafts, and plays the first move of the plan that delivers the most
// pearls of its colour for the steps it costs. It keeps nothing from one
// decision to the next, so it is safe to use in many games at once, and
// the same position seen the same way gives the same move.
type Planner struct {
	level Level
	seed  uint64
	paced bool
	// turns is what it remembers of its turns in progress, game by game.
	turns *turnMemory
	// solo holds the solo game's plans.
	solo *soloPlans
}

// New returns a planner of the named level ("easy", "medium", "hard",
// "max") that keeps its level's pace: Pace says how long each decision
// takes at it, 1/Level.Pace seconds, for its host to wait out. seed draws
// which squares it forgets.
func New(level string, seed uint64) (*Planner, error) {
	for _, l := range Levels {
		if l.Name == level {
			return NewLevel(l, seed, true), nil
		}
	}
	return nil, fmt.Errorf("unknown level %q of Laguna's planner; the levels are %s", level, strings.Join(LevelNames(), ", "))
}

// NewLevel returns a planner of level l, paced or not.
func NewLevel(l Level, seed uint64, paced bool) *Planner {
	return &Planner{level: l, seed: seed, paced: paced, turns: newTurnMemory(), solo: &soloPlans{}}
}

// Unpaced returns a copy of b that keeps no pace, for the arena and
// tests; its turns are still as long as its pace allows (StepsPerTurn).
func (b *Planner) Unpaced() *Planner {
	c := *b
	c.paced = false
	return &c
}

// Name returns the level's name.
func (b *Planner) Name() string { return b.level.Name }

// Level returns the bot's level.
func (b *Planner) Level() Level { return b.level }

// Delay is the time a decision takes at the level's pace.
func (b *Planner) Delay() time.Duration {
	if b.level.Pace <= 0 {
		return 0
	}
	return time.Duration(float64(time.Second) / b.level.Pace)
}

// Pace returns how long each decision takes at the planner's pace, which
// its host waits out before playing the move (ai.Options.Paced): Delay
// when paced, 0 when not. The planner never waits itself, so that no
// thread of the host sleeps through the pace (the server waits on a
// timer, and gives way when a turn's sand runs out).
func (b *Planner) Pace() time.Duration {
	if !b.paced {
		return 0
	}
	return b.Delay()
}

// Move returns the planner's move for the seat to move in st, which is not
// changed, at once, paced or not (Pace): the decision takes a few
// milliseconds of computing. An error is returned only when st is not a
// game of Laguna in play.
func (b *Planner) Move(_ context.Context, st game.State) (game.Move, error) {
	return b.decide(st)
}

// remembers reports whether the bot remembers what lies on square sq.
func (b *Planner) remembers(sq laguna.Square) bool {
	if b.level.Memory >= 1 {
		return true
	}
	x := b.seed ^ uint64(sq)*0x9e3779b97f4a7c15
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11)/(1<<53) < b.level.Memory
}

// decide chooses the move.
func (b *Planner) decide(st game.State) (game.Move, error) {
	ls, err := stateOf(st)
	if err != nil {
		return 0, err
	}
	if ls.Over() {
		return 0, ai.ErrGameOver
	}
	p := ls.ToMove()
	legal := ls.AppendLegal(nil)
	if len(legal) == 0 {
		return 0, ai.ErrGameOver
	}
	if len(legal) == 1 {
		return legal[0], nil
	}
	if ls.Solo() {
		if m, ok := b.solo.move(ls); ok && slices.Contains(legal, m) {
			return m, nil
		}
	}
	w, v, hidden, err := viewWorld(ls, p)
	if err != nil {
		return 0, err
	}
	tb := tablesOf(ls.Board())
	switch {
	case legal[0] >= mPlace:
		return b.place(&w, tb, p, legal), nil
	case legal[0] >= mPut:
		return b.deal(&w, p, legal), nil
	}
	pl := planning{w: &w, tb: tb, p: p, legal: legal, need: laguna.Target(w.players) - ls.Delivered(p), steps: v.Steps}
	turn, forgotOwn := b.believe(&pl, ls.Turn(), &hidden)
	pl.readShifts()
	if forgotOwn && b.level.Peeks && slices.Contains(legal, laguna.Peek) {
		return laguna.Peek, nil
	}
	pl.trades = b.trades(&w, p, ls.Delivered(p))
	if m, ok := b.gain(&w, &pl.kinds, p, pl.unstranded(ls.Delivered(p)), pl.trades); ok {
		return m, nil
	}
	if (v.Steps >= b.level.StepsPerTurn() || turn.decisions > 4*b.level.StepsPerTurn()) && slices.Contains(legal, laguna.End) {
		return laguna.End, nil
	}
	if m, ok := pl.free(); ok {
		return m, nil
	}
	if m, ok := pl.plan(b.level.Horizon); ok {
		return m, nil
	}
	return laguna.End, nil
}

// stateOf returns the game of Laguna st holds.
func stateOf(st game.State) (*laguna.State, error) {
	switch s := st.(type) {
	case *laguna.State:
		return s, nil
	case *Position:
		return &s.State, nil
	}
	return nil, fmt.Errorf("not a state of Laguna but %T", st)
}

// believe sets pl.kinds to what the planner believes lies on the board:
// what it sees, and under the pearls what it remembers (open water where it
// forgot), and pl.forgot to whether it forgot a square under any raft's
// pearls (hidden: by seat, the holes whose pearls hide what lies under
// them). It returns the record of the turn, this decision counted, and
// whether it forgot a square under its own pearls.
//
// What it saw under its own raft this turn it remembers until the turn
// ends, at every level. What it saw under the holes its raft lies on now in
// its previous turn it remembers too, as a player remembers the reef they
// just uncovered: without it a forgetful bot on two reefs moves the pearl
// from one to the other, ending its turn on the reef it uncovers, turn
// after turn for ever.
func (b *Planner) believe(pl *planning, turnNumber int, hidden *[4]uint8) (turn *turnRecord, forgotOwn bool) {
	w, tb, p := pl.w, pl.tb, pl.p
	turn, prev := b.turns.recall(turnKey{tb.b, p, turnNumber, w.home})
	r := &w.rafts[p]
	for h := range laguna.Holes {
		sq := laguna.HoleSquare(r.o, r.at, h)
		if hidden[p]>>h&1 == 0 {
			turn.seen[sq] = int8(tb.kind[sq]) + 1
		} else if prev != nil && turn.seen[sq] == 0 {
			turn.seen[sq] = prev.seen[sq]
		}
	}
	turn.decisions++
	pl.kinds = tb.kind
	var covered [laguna.NumSquares]bool
	for q := range w.players {
		r := &w.rafts[q]
		for h := range laguna.Holes {
			if hidden[q]>>h&1 != 0 {
				covered[laguna.HoleSquare(r.o, r.at, h)] = true
			}
		}
	}
	seeAround(turn, tb, r, &covered)
	for q := range w.players {
		r := &w.rafts[q]
		for h := range laguna.Holes {
			sq := laguna.HoleSquare(r.o, r.at, h)
			if hidden[q]>>h&1 == 0 || b.remembers(sq) {
				continue
			}
			if k := turn.seen[sq]; q == p && k > 0 {
				pl.kinds[sq] = laguna.Kind(k - 1)
				continue
			}
			pl.kinds[sq] = laguna.Water
			pl.unsure[sq] = q == p
			forgotOwn = forgotOwn || q == p
			pl.forgot = true
		}
	}
	b.turns.keep(turn)
	return turn, forgotOwn
}

// free returns the move that frees a raft held where it lies by a reef
// showing through an open hole, when it may neither step nor move a pearl
// between holes (without the timer, or every pearl on a reef or an arrow
// before its first step: decision 21) but is docked at an island: a pearl
// loaded into the reef's hole covers it (its own colour first, then
// another player's, which keeps it from them), and a full raft first
// unloads a pearl of another colour from a hole it believes open water.
// Without it a raft that had unloaded off a reef (what an exchange
// uncovers has no effect until it ends) ended its turns for ever, docked
// beside the pearls that would have freed it.
func (pl *planning) free() (game.Move, bool) {
	r := &pl.w.rafts[pl.p]
	var reefs uint8
	for h, c := range r.holes {
		if c < 0 && pl.kinds[laguna.HoleSquare(r.o, r.at, h)] == laguna.Reef {
			reefs |= 1 << h
		}
	}
	if reefs == 0 {
		return 0, false
	}
	best, bestV := game.Move(-1), 0
	for _, m := range pl.legal {
		if m < laguna.End || m >= mShift && m < mLoad {
			return 0, false // it may step or move its pearls
		}
		v := 0
		switch {
		case m >= mLoad && m < mUnload:
			h, c := int(m-mLoad)/laguna.NumColours, int(m-mLoad)%laguna.NumColours
			if reefs>>h&1 != 0 {
				v = 3
				if c == pl.p {
					v = 5
				} else if c < pl.w.players {
					v = 4
				}
			}
		case m >= mUnload && m < mSwap && r.aboard() == pl.w.maxAboard:
			h := int(m - mUnload)
			if int(r.holes[h]) != pl.p && pl.kinds[laguna.HoleSquare(r.o, r.at, h)] == laguna.Water {
				v = 1
			}
		}
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best, best >= 0
}

// unstranded returns the legal moves but those that, without the timer,
// would hold the raft for good (delivered: the pearls its seat has
// delivered). Without the timer a raft's pearls stay where they are (but
// to cover the reef that ended a turn), so:
//
//   - a delivery that leaves pearls that cannot take the raft to any island
//     with pearls is left out, unless the raft can deliver all its seat
//     still needs there: beside the hard board's volcano a raft that
//     delivered down to two pearls in the wrong holes never docked again,
//     and the game ended by decision 22 (most of the arena's games that
//     did);
//   - a trade that leaves a reef showing through either raft is left out:
//     what an exchange uncovers takes effect when the exchange ends, and a
//     reef showing through a raft whose turn no reef ended cannot be
//     covered again, so that raft never steps again (two rafts held so,
//     each by a trade, ended games by decision 22).
func (pl *planning) unstranded(delivered int) []game.Move {
	if pl.w.timer {
		return pl.legal
	}
	r := &pl.w.rafts[pl.p]
	wins := delivered+1 >= laguna.Target(pl.w.players) || pl.value(cargo{r.aboard(), r.count(pl.p)}) >= float64(pl.need)
	want := pl.islandsWithPearls()
	return slices.DeleteFunc(slices.Clone(pl.legal), func(m game.Move) bool {
		switch {
		case m >= mDeliver && m < mTrade:
			return !wins && want != 0 && pl.strands(pl.w, int(m-mDeliver), want)
		case m >= mTrade && m < mPut:
			k := int(m - mTrade)
			return pl.tradeHolds(k/(laguna.Holes*laguna.Holes), k/laguna.Holes%laguna.Holes, k%laguna.Holes)
		}
		return false
	})
}

// islandsWithPearls returns the islands that hold pearls, as a bit set of
// goals.
func (pl *planning) islandsWithPearls() uint32 {
	var want uint32
	for i := range laguna.NumIslands {
		if pl.w.islandCount(i) > 0 {
			want |= 1 << i
		}
	}
	return want
}

// tradeHolds reports whether trading the pearl in hole mine of the
// planner's raft for the one in hole theirs of seat q's raft would leave a
// reef showing through either raft, as it believes the board; a square
// under its own pearls that it forgot counts as a reef (a forgetful level
// otherwise traded off a reef it did not remember, its raft held for good).
func (pl *planning) tradeHolds(q, mine, theirs int) bool {
	return pl.tradeHoldsIn(pl.w, q, mine, theirs)
}

// tradeHoldsIn is tradeHolds with the rafts where w has them.
func (pl *planning) tradeHoldsIn(w *world, q, mine, theirs int) bool {
	if mine == theirs {
		return false // each hole stays covered
	}
	r, o := &w.rafts[pl.p], &w.rafts[q]
	own := laguna.HoleSquare(r.o, r.at, mine)
	return pl.kinds[own] == laguna.Reef || pl.unsure[own] ||
		pl.kinds[laguna.HoleSquare(o.o, o.at, theirs)] == laguna.Reef
}

// strands reports whether, the pearl in hole h of the planner's raft in w
// delivered, the raft could reach none of the goals in want: its pearls not
// to be moved, unless the delivery uncovers a reef, which ends the turn,
// and the next may begin by covering it.
func (pl *planning) strands(w *world, h int, want uint32) bool {
	after := *w
	r := &after.rafts[pl.p]
	r.holes[h] = -1
	reef := pl.kinds[laguna.HoleSquare(r.o, r.at, h)] == laguna.Reef
	rs := routePool.Get().(*routeSearch)
	defer routePool.Put(rs)
	rs.anyGoal = true
	defer func() { rs.anyGoal = false }()
	rs.search(&after, pl.tb, &pl.kinds, &pl.unsure, pl.p, reef, want, 1600)
	for i := range laguna.NumIslands {
		if want>>i&1 != 0 && rs.cost[i] >= 0 {
			return false
		}
	}
	return true
}

// readShifts corrects what the planner believes lies under its own pearls
// by what the legal moves tell, as a player learns it from a refusal: before
// the raft's first step of a turn, a pearl that may not be moved between
// holes while pearls may be moved lies on a reef or an arrow (decision 21).
// It believes a reef there, the worse of the two for its plans. Without it
// a level that forgot such a square planned to move that pearl first, and
// when the move was refused ended its turn, every turn: 5 of the 13 games
// of TestGamesEnd that ended by decision 22 rather than by a winner.
func (pl *planning) readShifts() {
	if pl.steps > 0 {
		return
	}
	var movable uint8
	shifting := false
	for _, m := range pl.legal {
		if m >= mShift && m < mLoad {
			movable |= 1 << (int(m-mShift) / laguna.Holes)
			shifting = true
		}
	}
	if !shifting && !pl.w.timer {
		// Without the timer pearls may not be moved at all now, which
		// tells nothing of what lies under them.
		return
	}
	r := &pl.w.rafts[pl.p]
	for h, c := range r.holes {
		if sq := laguna.HoleSquare(r.o, r.at, h); c >= 0 && movable>>h&1 == 0 && !pl.kinds[sq].IsArrow() && pl.kinds[sq] != laguna.Reef {
			pl.kinds[sq] = laguna.Reef
			pl.unsure[sq] = false
			pl.forgot = true
		}
	}
}

// seeAround records in turn what lies on the squares a step of raft r can
// bring under its pearls, those that show now (not covered: under a raft's
// pearls), as a player sees the water the raft is about to cover. Without
// it a forgetful level forgot a square the moment its raft covered it, a
// decision after seeing it: its plan changed with the step, and a raft
// beside a reef stepped west and back east, turn after turn.
func seeAround(turn *turnRecord, tb *tables, r *raftInfo, covered *[laguna.NumSquares]bool) {
	r0, c0, r1, c1 := rect(r.o, r.at)
	for row := max(r0-1, 0); row < min(r1+1, laguna.Size); row++ {
		for col := max(c0-1, 0); col < min(c1+1, laguna.Size); col++ {
			if sq := laguna.At(row, col); !covered[sq] {
				turn.seen[sq] = int8(tb.kind[sq]) + 1
			}
		}
	}
}

// place chooses where to put the raft: against an island with a pearl of its
// colour, near the volcano, lying the way that reaches it in fewer steps.
func (b *Planner) place(w *world, tb *tables, p int, legal []game.Move) game.Move {
	best, bestV := legal[0], -1e9
	for _, m := range legal {
		k := int(m - mPlace)
		o, sq := laguna.Orient(k/laguna.NumSquares), laguna.Square(k%laguna.NumSquares)
		i := tb.b.StartIsland(o, sq)
		d := tb.field[o][3][laguna.Volcano][sq]
		if d < 0 {
			continue
		}
		v := 30*float64(w.islands[i][p]) + 3*float64(w.islandCount(i)) - float64(d)
		if b.level.Horizon > 1 {
			// The second pearl: the nearest other island with one.
			near := int16(-1)
			for j := range laguna.NumIslands {
				if e := tb.between[o][3][i][j]; j != i && w.islands[j][p] > 0 && e >= 0 && (near < 0 || e < near) {
					near = e
				}
			}
			v -= float64(max(near, 0)) / 2
		}
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best
}

// deal puts a pearl on an island (the variant where the players deal):
// another player's colour as far from that player as it can.
func (b *Planner) deal(_ *world, _ int, legal []game.Move) game.Move {
	return legal[len(legal)/2]
}

// trades reports whether seat p's planner exchanges pearls with other rafts:
// when its level does, and at every level when the pearls of its colour on
// the islands and aboard its raft are too few to win, since then only a
// trade can give it the rest (two planners that did not trade, each
// carrying the other's last pearl, would otherwise sail for ever).
func (b *Planner) trades(w *world, p, delivered int) bool {
	if b.level.Trades {
		return true
	}
	left := w.rafts[p].count(p)
	for i := range laguna.NumIslands {
		left += int(w.islands[i][p])
	}
	return left < laguna.Target(w.players)-delivered
}

// gain returns the best move that brings pearls at once: a delivery, a
// pearl of its colour loaded, swapped for or traded for, a pearl loaded
// while too few are aboard to deliver; choosing the hole so that the raft
// stays docked and free (loading over arrows and reefs first, delivering
// from a hole over open water first).
func (b *Planner) gain(w *world, kinds *[laguna.NumSquares]laguna.Kind, p int, legal []game.Move, trades bool) (game.Move, bool) {
	r := &w.rafts[p]
	best, bestV := game.Move(-1), 0.0
	for _, m := range legal {
		if m >= mTrade && m < mPut && !trades {
			continue
		}
		v := gainOf(w, p, m)
		if v <= 0 {
			continue
		}
		var h int
		switch {
		case m >= mLoad && m < mUnload:
			h = int(m-mLoad) / laguna.NumColours
		case m >= mDeliver && m < mTrade:
			h = int(m - mDeliver)
		default:
			h = -1
		}
		if h >= 0 {
			k := kinds[laguna.HoleSquare(r.o, r.at, h)]
			load := m < mUnload
			switch {
			case k == laguna.Water:
				if !load {
					v += 0.5
				}
			case k.IsArrow() && load || k == laguna.Reef && load:
				v += 0.5
			case k.IsArrow():
				v += 0.2
			}
		}
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best, best >= 0
}

// turnKey names a turn of a game: the board, the seat, the turn, and the
// rafts' home islands (which tell games on one board apart).
type turnKey struct {
	board *laguna.Board
	seat  int
	turn  int
	homes [4]int8
}

// sameGame reports whether k and o are turns of the same seat in one game.
func (k turnKey) sameGame(o turnKey) bool {
	return k.board == o.board && k.seat == o.seat && k.homes == o.homes
}

// turnRecord is what the planner remembers of a turn in progress: what it
// saw under its raft's holes (a square's kind plus one; 0: not seen) and
// how many decisions it made.
type turnRecord struct {
	key       turnKey
	seen      [laguna.NumSquares]int8
	decisions int
}

// turnMemory holds the turns in progress of the games a planner plays,
// the most recent few.
type turnMemory struct {
	mu    sync.Mutex
	turns []*turnRecord
}

const keptTurns = 64

func newTurnMemory() *turnMemory { return &turnMemory{} }

// recall returns a copy of the record of the turn, empty if none is kept,
// and when it is empty, the record of the seat's previous turn in that game
// if one is kept (nil if not).
func (m *turnMemory) recall(k turnKey) (cur, prev *turnRecord) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range m.turns {
		switch {
		case t.key == k:
			c := *t
			return &c, nil
		case t.key.sameGame(k) && t.key.turn < k.turn:
			c := *t
			prev = &c
		}
	}
	return &turnRecord{key: k}, prev
}

// keep stores the record of a turn, forgetting the oldest beyond keptTurns
// and the earlier turns of the same game and seat.
func (m *turnMemory) keep(t *turnRecord) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.turns = slices.DeleteFunc(m.turns, func(o *turnRecord) bool { return o.key.sameGame(t.key) })
	if len(m.turns) >= keptTurns {
		m.turns = m.turns[1:]
	}
	m.turns = append(m.turns, t)
}
