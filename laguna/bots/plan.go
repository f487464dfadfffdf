package bots

import (
	"slices"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// A planning is what the planner's plan for one decision needs: what it
// believes of the game, and what it works out on the way.
type planning struct {
	w  *world
	tb *tables
	// kinds is what it believes lies on the board; forgot tells whether
	// it forgot a square under a raft's pearls, so that the legs between
	// places are worked out on kinds rather than read from the tables.
	kinds  [laguna.NumSquares]laguna.Kind
	forgot bool
	// unsure holds the squares under its own pearls it forgot.
	unsure [laguna.NumSquares]bool
	p      int
	legal  []game.Move
	// need is the pearls its seat has still to deliver.
	need int
	// steps is the steps its raft has made this turn.
	steps int
	// trades tells whether it exchanges pearls with other rafts.
	trades bool
	// delivers tells whether its raft, docked at the volcano where the
	// route search reaches it, may deliver there (deliversThere).
	delivers bool

	// rs is the route search from its raft to every goal, lg the legs
	// between places, start what its raft carries now.
	rs    *routeSearch
	lg    legs
	start cargo
	// best is the best plan weighed so far.
	best struct {
		goal        int // -1 if none
		score, cost float64
	}
}

// cargo is what a raft carries in a plan: its pearls, and of its colour.
type cargo struct{ n, own int }

// stopCost is the estimated cost of a stop at a place, besides the steps.
const stopCost = 8

// plan searches the routes and returns the first move of the best plan of
// the planner's horizon.
func (pl *planning) plan(horizon int) (game.Move, bool) {
	r := &pl.w.rafts[pl.p]
	pl.start = cargo{r.aboard(), r.count(pl.p)}
	if pl.start.n < laguna.MinAboard {
		return 0, false
	}
	pl.rs = routePool.Get().(*routeSearch)
	defer routePool.Put(pl.rs)
	pl.rs.search(pl.w, pl.tb, &pl.kinds, &pl.unsure, pl.p, pl.startFlag(), pl.goals(), 1600)
	pl.dropTradesHeld()
	pl.delivers = pl.rs.cost[laguna.Volcano] >= 0 && pl.value(pl.start) > 0 && pl.deliversThere()

	// The distances between places, on the board as it believes it is.
	k := min(max(pl.start.n, laguna.MinAboard), pl.w.maxAboard)
	pl.lg = pl.tb.legs(r.o, k)
	if pl.forgot {
		pl.lg = pl.tb.legsOn(&pl.kinds, r.o, k)
	}
	goal := pl.choose(horizon)
	if goal < 0 {
		return pl.unblock()
	}
	return pl.firstMove(goal)
}

// unblock returns, without the timer, when the plan found nowhere worth
// going, the move towards the nearest island where loading a pearl into an
// open hole, or unloading one of another colour, lets the raft reach an
// island with a pearl of its colour, or the volcano with what wins (a
// pearl loaded may be what wins: a raft keeps two pearls aboard, so one
// carrying three, two of its colour, delivers only one). Docked at that
// island, it is the load or unload. Without the timer the pearls
// aboard are moved between holes only to cover the reef that ended a turn,
// so the holes they fill (covering the reefs and arrows beneath) decide
// where the raft can go. Without it two rafts whose holes kept them from
// the last pearls they needed ended their turns until decision 22 ended
// the game (32 of 1,000 games of easy against easy on the hard board).
// Every such move leads to a pearl of its colour, whose loading or
// delivery is progress, so it does not undo itself in a loop.
func (pl *planning) unblock() (game.Move, bool) {
	w, p := pl.w, pl.p
	r := &w.rafts[p]
	if w.timer {
		return 0, false
	}
	var want uint32
	for i := range laguna.NumIslands {
		if w.islands[i][p] > 0 {
			want |= 1 << i
		}
	}
	wins := func(c cargo) uint32 {
		if pl.value(c) >= float64(pl.need) {
			return 1 << laguna.Volcano
		}
		return 0
	}
	want |= wins(pl.start)
	filled := want | wins(cargo{pl.start.n + 1, pl.start.own})
	if filled == 0 {
		return 0, false
	}
	rs := routePool.Get().(*routeSearch)
	defer routePool.Put(rs)
	best, bestIsland, bestCost := game.Move(-1), -1, int32(-1)
	for i := range laguna.NumIslands {
		c0 := pl.rs.cost[i]
		if c0 < 0 || bestCost >= 0 && c0 >= bestCost {
			continue
		}
		n := pl.rs.node[i]
		at, mask := laguna.Square(n>>7), uint8(n>>1&63)
		colour := pl.loadColour(&w.islands[i])
		for h := range laguna.Holes {
			var m game.Move
			w2, goals := *w, want
			switch {
			case mask>>h&1 == 0 && colour >= 0 && r.aboard() < w.maxAboard:
				m, goals = mLoad+game.Move(h*laguna.NumColours+colour), filled
				w2.rafts[p] = placedAs(r, at, mask|1<<h)
				w2.islands[i][colour]--
			case mask == r.mask() && r.holes[h] >= 0 && int(r.holes[h]) != p && r.aboard() > laguna.MinAboard:
				m = mUnload + game.Move(h)
				w2.rafts[p] = placedAs(r, at, mask&^(1<<h))
				w2.islands[i][r.holes[h]]++
			default:
				continue
			}
			if goals&^(1<<i) == 0 {
				continue
			}
			rs.search(&w2, pl.tb, &pl.kinds, &pl.unsure, p, false, goals&^(1<<i), 1600)
			for g := range laguna.Volcano + 1 {
				if c := rs.cost[g]; c > 0 && (bestCost < 0 || c0+c < bestCost) {
					best, bestIsland, bestCost = m, i, c0+c
				}
			}
		}
	}
	switch {
	case bestIsland < 0:
		return 0, false
	case pl.rs.cost[bestIsland] == 0:
		return best, slices.Contains(pl.legal, best)
	}
	return pl.firstMove(bestIsland)
}

// loadColour returns the colour of pearl unblock loads from an island: of
// another player first, which keeps it from them.
func (pl *planning) loadColour(isl *[laguna.NumColours]uint8) int {
	colour := -1
	for c, k := range isl {
		if k > 0 && (colour < 0 || c < pl.w.players && colour >= pl.w.players) {
			colour = c
		}
	}
	return colour
}

// placedAs returns raft r lying at at with its pearls in the holes of mask
// (one more hole than it fills taking the loaded pearl, of no colour that
// matters to a route).
func placedAs(r *raftInfo, at laguna.Square, mask uint8) raftInfo {
	moved := *r
	moved.at = at
	for h := range moved.holes {
		moved.holes[h] = -1
		if mask>>h&1 != 0 {
			moved.holes[h] = laguna.NumColours
		}
	}
	return moved
}

// dropTradesHeld forgets, without the timer, a raft to trade with whose
// route ends where every trade that would give a pearl of its colour
// leaves a reef showing through either raft (unstranded leaves those
// out), its pearls where they are now: planned regardless, a raft
// reached the other, found the trade left out, turned for an island, and
// one step on the raft was its best plan again, so it stepped east and
// west all turn, every turn.
func (pl *planning) dropTradesHeld() {
	if pl.w.timer {
		return
	}
	r := &pl.w.rafts[pl.p]
	for q := range pl.w.players {
		g := goalRaft + q
		n := pl.rs.node[g]
		if q == pl.p || pl.rs.cost[g] < 0 || uint8(n>>1&63) != r.mask() {
			continue
		}
		moved := *pl.w
		moved.rafts[pl.p].at = laguna.Square(n >> 7)
		if !pl.tradeGives(&moved, q, true) {
			pl.rs.cost[g] = -1
		}
	}
}

// tradeGives reports whether, in w, the holes of seat p's raft and seat
// q's allow a trade that gives p a pearl of its colour (each pearl lands in
// the same hole of the other raft), and with reefs, one that leaves no reef
// showing (tradeHolds).
func (pl *planning) tradeGives(w *world, q int, reefs bool) bool {
	r, o := &w.rafts[pl.p], &w.rafts[q]
	for theirs, got := range o.holes {
		if int(got) != pl.p {
			continue
		}
		for mine, gave := range r.holes {
			if gave < 0 || int(gave) == pl.p || !(mine == theirs || o.holes[mine] < 0 && r.holes[theirs] < 0) {
				continue
			}
			if !reefs || !pl.tradeHoldsIn(w, q, mine, theirs) {
				return true
			}
		}
	}
	return false
}

// startFlag returns the route search's flag for where the raft is now:
// with the sand timer, whether it has stepped this turn; without, whether
// it may move pearls between holes now.
func (pl *planning) startFlag() bool {
	if pl.w.timer {
		return pl.steps > 0
	}
	shift := false
	for _, m := range pl.legal {
		shift = shift || m >= mShift && m < mLoad
	}
	return shift
}

// goals returns the goals the route search looks for, as a bit set: the
// volcano, the islands with pearls, and when it trades, the rafts that
// carry pearls of its colour.
func (pl *planning) goals() uint32 {
	w := pl.w
	want := uint32(1) << laguna.Volcano
	for i := range laguna.NumIslands {
		if w.islandCount(i) > 0 {
			want |= 1 << i
		}
	}
	if pl.trades {
		for q := range w.players {
			if q != pl.p && w.rafts[q].count(pl.p) > 0 && pl.mayTradeWith(q) {
				want |= 1 << (goalRaft + q)
			}
		}
	}
	return want
}

// choose returns the goal of the best plan, -1 if none. Above the lowest
// horizon it weighs going to the volcano now, by way of one island or two
// (the horizon), or of a raft to trade with, by the pearls each delivers
// for what it costs; where none delivers a pearl, and at the lowest
// horizon, it heads for the nearest place worth going to.
func (pl *planning) choose(horizon int) int {
	pl.best.goal, pl.best.score, pl.best.cost = -1, 0, 0
	if horizon <= 1 {
		return pl.nearest()
	}
	if c := pl.rs.cost[laguna.Volcano]; c >= 0 && pl.delivers {
		pl.consider(laguna.Volcano, pl.value(pl.start), float64(c))
	}
	pl.weighStops(horizon)
	if pl.trades {
		pl.weighTrades()
	}
	if pl.best.goal < 0 {
		return pl.nearest()
	}
	return pl.best.goal
}

// deliversThere reports whether the raft, docked at the volcano where the
// route search reaches it, may deliver a pearl there: with the timer
// always; without, unless every delivery would strand it (unstranded
// leaves those out) while it cannot deliver all its seat needs. Planned
// as a delivery, such a voyage ended beside the volcano with nothing
// delivered, the plan from there led to an island, and one step towards it
// the volcano was the best plan again: the raft stepped east and west all
// turn, every turn. Where pearls are moved between holes on the way, the
// colours of the holes are unknown and it is believed it may.
func (pl *planning) deliversThere() bool {
	r := &pl.w.rafts[pl.p]
	want := pl.islandsWithPearls()
	n := pl.rs.node[laguna.Volcano]
	if pl.w.timer || pl.value(pl.start) >= float64(pl.need) || want == 0 || uint8(n>>1&63) != r.mask() {
		return true
	}
	w := *pl.w
	w.rafts[pl.p].at = laguna.Square(n >> 7)
	for h, c := range r.holes {
		if int(c) == pl.p && !pl.strands(&w, h, want) {
			return true
		}
	}
	return false
}

// mayTradeWith reports whether a trade with seat q's raft could give the
// planner's raft a pearl of its colour: with the timer always (its pearls
// may be moved on the way); without, when the pearls of both rafts lie in
// holes the rules let trade (each pearl lands in the same hole of the
// other raft). Planned regardless, a raft sailed to the other raft, found
// no trade it could make, turned for an island beside it, and from there
// the raft was the best plan again: north and south all turn, every turn.
func (pl *planning) mayTradeWith(q int) bool {
	return pl.w.timer || pl.tradeGives(pl.w, q, false)
}

// weighStops weighs the plans that stop at an island, and at the highest
// horizon at a second one, before the volcano.
func (pl *planning) weighStops(horizon int) {
	w := pl.w
	for i := range laguna.NumIslands {
		c0 := pl.rs.cost[i]
		if c0 < 0 {
			continue
		}
		c1 := pl.visit(pl.start, &w.islands[i])
		if l := pl.leg(i, laguna.Volcano); l >= 0 && c1 != pl.start {
			pl.consider(i, pl.value(c1), float64(c0)+stopCost+l)
		}
		if horizon < 3 || c1 == pl.start {
			continue
		}
		for j := range laguna.NumIslands {
			if j == i || w.islandCount(j) == 0 {
				continue
			}
			c2 := pl.visit(c1, &w.islands[j])
			lij, ljv := pl.leg(i, j), pl.leg(j, laguna.Volcano)
			if lij >= 0 && ljv >= 0 && c2 != c1 {
				pl.consider(i, pl.value(c2), float64(c0)+stopCost+lij+ljv)
			}
		}
	}
}

// weighTrades weighs the plans that trade with a raft carrying pearls of
// its colour, then sail to the volcano.
func (pl *planning) weighTrades() {
	w, p := pl.w, pl.p
	for q := range w.players {
		g := goalRaft + q
		if c := pl.rs.cost[g]; q != p && c >= 0 {
			got := min(w.rafts[q].count(p), pl.start.n-pl.start.own)
			c1 := cargo{pl.start.n, pl.start.own + got}
			back := pl.lg.field[laguna.Volcano][w.rafts[p].at]
			if back >= 0 {
				pl.consider(g, pl.value(c1), float64(c)+stopCost+float64(back)*float64(routeCosts.Step))
			}
		}
	}
}

// leg returns the estimated cost from docking at place i to docking at
// place j, -1 if it cannot get there.
func (pl *planning) leg(i, j int) float64 {
	d := pl.lg.between[i][j]
	if d < 0 {
		return -1
	}
	return float64(d)*float64(routeCosts.Step) + stopCost
}

// visit returns what the raft carries after a stop at an island holding
// isl: the pearls of its colour it has room for, those swapped for pearls
// of other colours aboard, and while it carries too few to deliver, other
// pearls.
func (pl *planning) visit(c cargo, isl *[laguna.NumColours]uint8) cargo {
	avail := int(isl[pl.p])
	load := min(avail, pl.w.maxAboard-c.n)
	c.n, c.own, avail = c.n+load, c.own+load, avail-load
	c.own += min(avail, c.n-c.own)
	if c.n < 3 {
		others := 0
		for col, x := range isl {
			if col != pl.p {
				others += int(x)
			}
		}
		c.n += min(3-c.n, others)
	}
	return c
}

// value returns the pearls a raft carrying c delivers at the volcano.
func (pl *planning) value(c cargo) float64 {
	return float64(min(c.own, c.n-laguna.MinAboard, pl.need))
}

// consider makes the plan to goal the best when it delivers more for what
// it costs (val pearls for cost), the cheaper of two as good.
func (pl *planning) consider(goal int, val, cost float64) {
	if val <= 0 || cost < 0 || pl.rs.cost[goal] == 0 {
		// Nothing to gain, or there already (where a gain would
		// have been taken).
		return
	}
	score := val / (cost + 40)
	if score > pl.best.score || score == pl.best.score && cost < pl.best.cost {
		pl.best.goal, pl.best.score, pl.best.cost = goal, score, cost
	}
}

// nearest is the lowest horizon's plan, and every horizon's when no plan
// it weighs delivers a pearl (its colour's last pearls lie aboard another
// raft, and it carries too few to deliver what a trade would give it): the
// nearest of the volcano when it can deliver, else an island with a pearl
// of its colour, else one with any pearl while it carries too few to
// deliver, else a raft carrying a pearl of its colour when it trades. A
// place it is at already (cost 0) offered nothing, or gain would have taken
// it.
func (pl *planning) nearest() int {
	if pl.delivers && pl.rs.cost[laguna.Volcano] > 0 {
		return laguna.Volcano
	}
	for pass := range 3 {
		best := -1
		for g := range goalRaft + pl.w.players {
			if c := pl.rs.cost[g]; pl.nearGoal(pass, g) && c > 0 && (best < 0 || c < pl.rs.cost[best]) {
				best = g
			}
		}
		if best >= 0 {
			return best
		}
	}
	return -1
}

// nearGoal reports whether goal g is one nearest heads for in its pass: an
// island with a pearl of its colour (0), an island with any pearl while it
// carries too few to deliver (1), a raft carrying a pearl of its colour
// when it trades (2).
func (pl *planning) nearGoal(pass, g int) bool {
	w, p := pl.w, pl.p
	switch pass {
	case 0:
		return g < laguna.NumIslands && w.islands[g][p] > 0
	case 1:
		return g < laguna.NumIslands && pl.start.n < 3 && w.islandCount(g) > 0
	}
	return g >= goalRaft && pl.trades && g-goalRaft != p && w.rafts[g-goalRaft].count(p) > 0
}

// firstMove returns the first move of the route to goal; where the route's
// first move is refused (what it believed lay under a pearl was wrong), the
// playout policy's move towards the place.
func (pl *planning) firstMove(goal int) (game.Move, bool) {
	if m, ok := pl.rs.first(goal); ok && slices.Contains(pl.legal, m) {
		return m, true
	}
	if goal <= laguna.Volcano {
		if m, ok := sailTo(pl.w, pl.tb, &pl.kinds, pl.lg, pl.p, goal, nil); ok && slices.Contains(pl.legal, m) {
			return m, true
		}
	}
	return 0, false
}
