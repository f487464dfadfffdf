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

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// ErrGameOver is returned by a bot asked to move in a game that is over.
var ErrGameOver = game.ErrOver

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
}

// New returns a planner of the named level ("easy", "medium", "hard",
// "max") that acts at its level's pace: Move waits, honouring its context,
// until 1/Pace seconds have passed since it was called. seed draws which
// squares it forgets.
func New(level string, seed uint64) (*Planner, error) {
	for _, l := range Levels {
		if l.Name == level {
			return &Planner{level: l, seed: seed, paced: true, turns: newTurnMemory()}, nil
		}
	}
	return nil, fmt.Errorf("unknown level %q of Laguna's planner; the levels are %s", level, strings.Join(LevelNames(), ", "))
}

// NewLevel returns a planner of level l, paced or not.
func NewLevel(l Level, seed uint64, paced bool) *Planner {
	return &Planner{level: l, seed: seed, paced: paced, turns: newTurnMemory()}
}

// Unpaced returns a copy of b that answers at once, for the arena and
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

// hurryMargin is how long before its context's deadline a paced planner
// answers at the latest, so that its move reaches the table before the
// sand runs out.
const hurryMargin = 150 * time.Millisecond

// Move returns the planner's move for the seat to move in st, which is not
// changed; when paced, not before Delay has passed since the call, unless
// its context's deadline comes first: then it hurries, as a player does
// when the sand runs out, answering its move hurryMargin before the
// deadline, or at once when the context is done (the decision itself takes
// a few milliseconds of computing, not of waiting). An error is returned
// only when st is not a game of Laguna in play.
func (b *Planner) Move(ctx context.Context, st game.State) (game.Move, error) {
	start := time.Now()
	m, err := b.decide(st)
	if err != nil || !b.paced {
		return m, err
	}
	wait := b.Delay() - time.Since(start)
	if dl, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl)-hurryMargin)
	}
	if wait <= 0 {
		return m, nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return m, nil
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
	var ls *laguna.State
	switch s := st.(type) {
	case *laguna.State:
		ls = s
	case *Position:
		ls = &s.State
	default:
		return 0, fmt.Errorf("not a state of Laguna but %T", st)
	}
	if ls.Over() {
		return 0, ErrGameOver
	}
	p := ls.ToMove()
	legal := ls.AppendLegal(nil)
	if len(legal) == 0 {
		return 0, ErrGameOver
	}
	if len(legal) == 1 {
		return legal[0], nil
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
	// What it believes lies on the board: what it sees, and under the
	// pearls what it remembers (open water where it forgot).
	// What it saw under its own raft this turn it remembers until the
	// turn ends, at every level.
	// What it saw under the holes its raft lies on now in its previous
	// turn it remembers too, as a player remembers the reef they just
	// uncovered: without it a forgetful bot on two reefs moves the pearl
	// from one to the other, ending its turn on the reef it uncovers,
	// turn after turn for ever.
	turn, prev := b.turns.recall(turnKey{tb.b, p, ls.Turn(), w.home})
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
	kinds := tb.kind
	forgot, forgotAny := false, false
	for q := range w.players {
		r := &w.rafts[q]
		for h := range laguna.Holes {
			sq := laguna.HoleSquare(r.o, r.at, h)
			if hidden[q]>>h&1 == 0 || b.remembers(sq) {
				continue
			}
			if k := turn.seen[sq]; q == p && k > 0 {
				kinds[sq] = laguna.Kind(k - 1)
				continue
			}
			kinds[sq] = laguna.Water
			forgot = forgot || q == p
			forgotAny = true
		}
	}
	b.turns.keep(turn)
	if forgot && b.level.Peeks && slices.Contains(legal, laguna.Peek) {
		return laguna.Peek, nil
	}
	trades := b.trades(&w, p, ls.Delivered(p))
	if m, ok := b.gain(&w, &kinds, p, legal, trades); ok {
		return m, nil
	}
	if (v.Steps >= b.level.StepsPerTurn() || turn.decisions > 4*b.level.StepsPerTurn()) && slices.Contains(legal, laguna.End) {
		return laguna.End, nil
	}
	if m, ok := b.plan(&w, tb, &kinds, forgotAny, p, legal, ls.Delivered(p), trades); ok {
		return m, nil
	}
	return laguna.End, nil
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

// plan searches the routes and returns the first move of the best plan.
func (b *Planner) plan(w *world, tb *tables, kinds *[laguna.NumSquares]laguna.Kind, forgot bool, p int, legal []game.Move, delivered int, trades bool) (game.Move, bool) {
	r := &w.rafts[p]
	n, own := r.aboard(), r.count(p)
	if n < laguna.MinAboard {
		return 0, false
	}
	need := laguna.Target(w.players) - delivered
	shift := false
	for _, m := range legal {
		shift = shift || m >= mShift && m < mLoad
	}
	want := uint32(1) << laguna.Volcano
	for i := range laguna.NumIslands {
		if w.islandCount(i) > 0 {
			want |= 1 << i
		}
	}
	if trades {
		for q := range w.players {
			if q != p && w.rafts[q].count(p) > 0 {
				want |= 1 << (goalRaft + q)
			}
		}
	}
	rs := routePool.Get().(*routeSearch)
	defer routePool.Put(rs)
	rs.search(w, tb, kinds, p, shift, want, 1600)

	k := min(max(n, laguna.MinAboard), w.maxAboard)
	// The distances between places, on the board as it believes it is.
	lg := tb.legs(r.o, k)
	if forgot {
		lg = tb.legsOn(kinds, r.o, k)
	}
	stepCost := float64(routeCosts.Step)
	const stopCost = 8
	// leg is the estimated cost from docking at place i to docking at j.
	leg := func(i, j int) float64 {
		d := lg.between[i][j]
		if d < 0 {
			return -1
		}
		return float64(d)*stepCost + stopCost
	}
	type cargo struct{ n, own int }
	visit := func(c cargo, isl *[laguna.NumColours]uint8) cargo {
		avail := int(isl[p])
		load := min(avail, w.maxAboard-c.n)
		c.n, c.own, avail = c.n+load, c.own+load, avail-load
		c.own += min(avail, c.n-c.own)
		if c.n < 3 {
			others := 0
			for col, x := range isl {
				if col != p {
					others += int(x)
				}
			}
			c.n += min(3-c.n, others)
		}
		return c
	}
	value := func(c cargo) float64 { return float64(min(c.own, c.n-laguna.MinAboard, need)) }

	bestGoal, bestScore, bestCost := -1, 0.0, 0.0
	consider := func(goal int, val, cost float64) {
		if val <= 0 || cost < 0 || rs.cost[goal] == 0 {
			// Nothing to gain, or there already (where a gain would
			// have been taken).
			return
		}
		score := val / (cost + 40)
		if score > bestScore || score == bestScore && cost < bestCost {
			bestGoal, bestScore, bestCost = goal, score, cost
		}
	}
	start := cargo{n, own}
	// nearest is the lowest level's plan, and every level's when no plan
	// it weighs delivers a pearl (its colour's last pearls lie aboard
	// another raft, and it carries too few to deliver what a trade would
	// give it): the nearest of the volcano when it can deliver, else an
	// island with a pearl of its colour, else one with any pearl while it
	// carries too few to deliver, else a raft carrying a pearl of its
	// colour when it trades. A place it is at already (cost 0) offered
	// nothing, or gain would have taken it.
	nearest := func() int {
		if value(start) > 0 && rs.cost[laguna.Volcano] > 0 {
			return laguna.Volcano
		}
		for pass := range 3 {
			best := -1
			for g := range goalRaft + w.players {
				var ok bool
				switch {
				case pass == 0:
					ok = g < laguna.NumIslands && w.islands[g][p] > 0
				case pass == 1:
					ok = g < laguna.NumIslands && n < 3 && w.islandCount(g) > 0
				default:
					ok = g >= goalRaft && trades && g-goalRaft != p && w.rafts[g-goalRaft].count(p) > 0
				}
				if c := rs.cost[g]; ok && c > 0 && (best < 0 || c < rs.cost[best]) {
					best = g
				}
			}
			if best >= 0 {
				return best
			}
		}
		return -1
	}
	if b.level.Horizon <= 1 {
		bestGoal = nearest()
	} else {
		if c := rs.cost[laguna.Volcano]; c >= 0 {
			consider(laguna.Volcano, value(start), float64(c))
		}
		for i := range laguna.NumIslands {
			c0 := rs.cost[i]
			if c0 < 0 {
				continue
			}
			isl := w.islands
			c1 := visit(start, &isl[i])
			isl[i] = [laguna.NumColours]uint8{}
			if l := leg(i, laguna.Volcano); l >= 0 && c1 != start {
				consider(i, value(c1), float64(c0)+stopCost+l)
			}
			if b.level.Horizon < 3 || c1 == start {
				continue
			}
			for j := range laguna.NumIslands {
				if j == i || w.islandCount(j) == 0 {
					continue
				}
				c2 := visit(c1, &isl[j])
				lij, ljv := leg(i, j), leg(j, laguna.Volcano)
				if lij >= 0 && ljv >= 0 && c2 != c1 {
					consider(i, value(c2), float64(c0)+stopCost+lij+ljv)
				}
			}
		}
		if trades {
			for q := range w.players {
				g := goalRaft + q
				if c := rs.cost[g]; q != p && c >= 0 {
					got := min(w.rafts[q].count(p), n-own)
					c1 := cargo{n, own + got}
					back := lg.field[laguna.Volcano][r.at]
					if back >= 0 {
						consider(g, value(c1), float64(c)+stopCost+float64(back)*stepCost)
					}
				}
			}
		}
	}
	if bestGoal < 0 {
		bestGoal = nearest()
	}
	if bestGoal < 0 {
		return 0, false
	}
	if m, ok := rs.first(bestGoal); ok && slices.Contains(legal, m) {
		return m, true
	}
	// Where the route's first move is refused (what it believed lay
	// under a pearl was wrong), the playout policy's move towards the
	// place.
	if bestGoal <= laguna.Volcano {
		if m, ok := sailTo(w, tb, kinds, lg, p, bestGoal, nil); ok && slices.Contains(legal, m) {
			return m, true
		}
	}
	return 0, false
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
