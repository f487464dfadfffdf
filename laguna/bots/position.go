package bots

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// The first move of each kind, from the engine's constructors: a move's
// kind and arguments are read from where its number falls.
var (
	mShift   = laguna.Shift(0, 0)
	mLoad    = laguna.Load(0, 0)
	mUnload  = laguna.Unload(0)
	mSwap    = laguna.Swap(0, 0)
	mDeliver = laguna.Deliver(0)
	mTrade   = laguna.Trade(0, 0, 0)
	mPut     = laguna.Put(0, 0)
	mPlace   = laguna.Place(0, 0)
)

// Position is a game of Laguna as the search (ai/mcts) plays it: the
// engine's state with what the search may ask of it beyond the contract (a
// move prior, the playout policy, shaped rewards) and a copy of the rafts and
// pearls the policy reads, kept up to date move by move. Like the state it
// holds it is a flat value: the search copies it once a simulation
// (CopyFrom) without allocating.
//
// The search reads the whole board: Laguna hides nothing from a player who
// remembers it (laguna.State.Resample has nothing to draw), so the search
// plays as a player with a perfect memory.
type Position struct {
	laguna.State
	w  world
	tb *tables
	// turn is the Turn at which acts began counting the mover's
	// decisions.
	turn int32
	acts int16
}

var (
	_ game.State   = (*Position)(nil)
	_ mcts.Prior   = (*Position)(nil)
	_ mcts.Playout = (*Position)(nil)
	_ mcts.Rewards = (*Position)(nil)
)

// NewPosition returns the search's position for a Laguna state, a copy: st
// is not changed. Any other game's state is an error.
func NewPosition(st game.State) (*Position, error) {
	ls, ok := st.(*laguna.State)
	if !ok {
		if p, ok := st.(*Position); ok {
			c := *p
			return &c, nil
		}
		return nil, fmt.Errorf("not a state of Laguna but %T", st)
	}
	p := &Position{State: *ls, tb: tablesOf(ls.Board()), turn: int32(ls.Turn())}
	var err error
	// The search's copy sees everything, as ToMove's seat with a perfect
	// memory: the hidden squares are read from the board.
	if p.w, _, _, err = viewWorld(ls, max(ls.ToMove(), 0)); err != nil {
		return nil, err
	}
	return p, nil
}

// Search returns st as the search should play it: NewPosition as a
// game.State, for the bots' table of the knowledge a game brings (package
// ai).
func Search(st game.State) (game.State, error) {
	p, err := NewPosition(st)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Clone returns an independent copy.
func (s *Position) Clone() game.State {
	c := *s
	return &c
}

// CopyFrom makes s a copy of src, which must be a *Position.
func (s *Position) CopyFrom(src game.State) { *s = *src.(*Position) }

// Play checks and plays m, keeping the policy's copy of the rafts and pearls
// up to date.
func (s *Position) Play(m game.Move) error {
	p := s.ToMove()
	dock := -1
	if p >= 0 && s.w.rafts[p].placed {
		dock = s.place(p)
	}
	if err := s.State.Play(m); err != nil {
		return err
	}
	s.w.played(p, m, dock)
	if m >= mPlace {
		r := &s.w.rafts[p]
		s.w.home[p] = int8(s.Board().StartIsland(r.o, r.at))
	}
	if t := int32(s.Turn()); t != s.turn {
		s.turn, s.acts = t, 0
	} else {
		s.acts++
	}
	return nil
}

// played brings w up to date after seat p played m, docked at dock before
// it (-1: not docked).
func (w *world) played(p int, m game.Move, dock int) {
	r := &w.rafts[p]
	switch {
	case m < laguna.End:
		r.at, _ = step(r.o, r.at, laguna.Dir(m))
	case m < mShift:
	case m < mLoad:
		a, b := int(m-mShift)/laguna.Holes, int(m-mShift)%laguna.Holes
		r.holes[b], r.holes[a] = r.holes[a], -1
	case m < mUnload:
		h, c := int(m-mLoad)/laguna.NumColours, int(m-mLoad)%laguna.NumColours
		i := dock
		if i < 0 || i >= laguna.NumIslands {
			i = int(w.home[p])
		}
		w.islands[i][c]--
		r.holes[h] = int8(c)
	case m < mSwap:
		h := int(m - mUnload)
		w.islands[dock][r.holes[h]]++
		r.holes[h] = -1
	case m < mDeliver:
		h, c := int(m-mSwap)/laguna.NumColours, int(m-mSwap)%laguna.NumColours
		w.islands[dock][r.holes[h]]++
		w.islands[dock][c]--
		r.holes[h] = int8(c)
	case m < mTrade:
		h := int(m - mDeliver)
		w.volcano[r.holes[h]]++
		r.holes[h] = -1
	case m < mPut:
		k := int(m - mTrade)
		o := &w.rafts[k/(laguna.Holes*laguna.Holes)]
		mine, theirs := k/laguna.Holes%laguna.Holes, k%laguna.Holes
		a, b := r.holes[mine], o.holes[theirs]
		r.holes[mine], o.holes[theirs] = -1, -1
		o.holes[mine], r.holes[theirs] = a, b
	case m < mPlace:
		i, c := int(m-mPut)/laguna.NumColours, int(m-mPut)%laguna.NumColours
		w.volcano[c]--
		w.islands[i][c]++
	default:
		k := int(m - mPlace)
		r.o, r.at, r.placed = laguna.Orient(k/laguna.NumSquares), laguna.Square(k%laguna.NumSquares), true
	}
}

// place returns the place seat p's raft touches, or -1: where a load,
// unload or swap it plays takes place (it may be docked there with an
// arrow showing, one its exchange uncovered; a raft loading at the start
// lies against its island).
func (s *Position) place(p int) int {
	r := &s.w.rafts[p]
	return int(s.tb.touch[r.o][r.at])
}

// Playout bounds: the decisions of a whole playout, and of one turn (the
// sand timer's 30 seconds at a brisk pace).
const (
	maxPlayout = 6000
	turnBudget = 45
	// explore is the share of random moves in the playouts.
	explore = 0.08
)

// Playout plays the game on with the playout policy: each raft heads for
// the volcano when it can deliver, and otherwise for the nearest island
// holding a pearl of its colour (the fewest steps its number of pearls
// allows), moving its pearls between holes when the step it wants needs
// it; it takes every pearl of its colour it can, delivers, and trades for
// its colour with a raft it touches; one move in twelve is random, and a
// turn ends after turnBudget decisions as the sand timer would end it. A
// playout stops after maxPlayout decisions, the game perhaps unfinished
// (Rewards scores it then by the pearls delivered).
func (s *Position) Playout(r *rand.Rand) {
	var buf [256]game.Move
	for n := 0; n < maxPlayout && !s.Over(); n++ {
		legal := s.AppendLegal(buf[:0])
		m := s.policy(legal, r)
		if err := s.Play(m); err != nil {
			panic(fmt.Sprintf("laguna bots: the playout policy chose %s, illegal in %v: %v", laguna.MoveText(m), s.String(), err))
		}
	}
}

// policy chooses the playout's move among the legal ones; with r nil it
// draws nothing and gives the policy's own choice (the prior's).
func (s *Position) policy(legal []game.Move, r *rand.Rand) game.Move {
	if len(legal) == 1 {
		return legal[0]
	}
	if legal[0] >= mPut || r != nil && r.Float64() < explore {
		return s.randomMove(legal, r)
	}
	p := s.ToMove()
	best, bestV := game.Move(-1), 0.0
	for _, m := range legal {
		if v := s.gain(p, m); v > bestV {
			best, bestV = m, v
		}
	}
	if best >= 0 {
		return best
	}
	if s.acts >= turnBudget && slices.Contains(legal, laguna.End) {
		return laguna.End
	}
	if m, ok := s.sail(p, r); ok && slices.Contains(legal, m) {
		return m
	}
	return s.randomMove(legal, r)
}

// randomMove returns a random legal move other than peeking and (when
// there is anything else) ending the turn early; without r, the first.
func (s *Position) randomMove(legal []game.Move, r *rand.Rand) game.Move {
	var buf [256]game.Move
	some := buf[:0]
	for _, m := range legal {
		if m != laguna.Peek && m != laguna.End {
			some = append(some, m)
		}
	}
	if len(some) == 0 {
		some = legal
	}
	if r == nil {
		return some[0]
	}
	return some[r.IntN(len(some))]
}

// gain rates what move m brings seat p at once: pearls of its colour
// delivered or taken aboard, or a pearl taken aboard while it has too few
// to deliver; 0 for moves that bring nothing by themselves, negative for
// moves that lose.
func (s *Position) gain(p int, m game.Move) float64 {
	return gainOf(&s.w, p, m)
}

func gainOf(w *world, p int, m game.Move) float64 {
	r := &w.rafts[p]
	n := r.aboard()
	switch {
	case m < mLoad:
		return 0
	case m < mUnload:
		if c := int(m-mLoad) % laguna.NumColours; c == p {
			return 50
		} else if n < 3 {
			// A pearl to carry (three aboard to deliver one): one of
			// another player's colour keeps it from them.
			if c < w.players {
				return 11
			}
			return 10
		}
		return -1
	case m < mSwap:
		return -1
	case m < mDeliver:
		h, c := int(m-mSwap)/laguna.NumColours, int(m-mSwap)%laguna.NumColours
		if c == p && int(r.holes[h]) != p {
			return 40
		}
		return -1
	case m < mTrade:
		return 100
	case m < mPut:
		k := int(m - mTrade)
		q, mine, theirs := k/(laguna.Holes*laguna.Holes), k/laguna.Holes%laguna.Holes, k%laguna.Holes
		got, gave := int(w.rafts[q].holes[theirs]), int(r.holes[mine])
		if got == p && gave != p {
			if gave == q {
				return 44
			}
			return 45
		}
		return -1
	}
	return 0
}

// destination returns where seat p's raft heads for: the volcano when it
// can deliver, else the nearest island with a pearl of its colour, else
// (too few pearls aboard to deliver) the nearest island with any pearl;
// -1 for none.
func destination(w *world, tb *tables, p int) int {
	r := &w.rafts[p]
	n, own := r.aboard(), r.count(p)
	k := min(max(n, laguna.MinAboard), maxPearls)
	if min(own, n-laguna.MinAboard) > 0 && tb.field[r.o][k][laguna.Volcano][r.at] >= 0 {
		return laguna.Volcano
	}
	best, bestD := -1, int16(math.MaxInt16)
	for pass := range 2 {
		for i := range laguna.NumIslands {
			want := w.islands[i][p] > 0
			if pass == 1 {
				want = n < 3 && w.islandCount(i) > 0
			}
			if d := tb.field[r.o][k][i][r.at]; want && d >= 0 && d < bestD {
				best, bestD = i, d
			}
		}
		if best >= 0 {
			break
		}
	}
	return best
}

// sail returns the policy's next move towards its destination: a step
// down the destination's field, or the pearl moved between holes that the
// step needs (or, where the raft touches the place, that docking needs).
func (s *Position) sail(p int, rng *rand.Rand) (game.Move, bool) {
	dest := destination(&s.w, s.tb, p)
	if dest < 0 {
		return 0, false
	}
	r := &s.w.rafts[p]
	k := min(max(r.aboard(), laguna.MinAboard), maxPearls)
	return sailTo(&s.w, s.tb, &s.tb.kind, s.tb.legs(r.o, k), p, dest, rng)
}

// sailTo is sail towards dest, reading the squares from kinds and the
// distances from lg.
func sailTo(w *world, tb *tables, kinds *[laguna.NumSquares]laguna.Kind, lg legs, p, dest int, rng *rand.Rand) (game.Move, bool) {
	r := &w.rafts[p]
	n := r.aboard()
	f := &lg.field[dest]
	cur := r.mask()
	reefs, arrows := holeMasks(kinds, r.o, r.at)
	var can uint8
	for d := range laguna.Dir(4) {
		if t, ok := step(r.o, r.at, d); ok && tb.fits[r.o][t] && !w.overlaps(p, r.o, t) {
			can |= 1 << d
		}
	}
	if f[r.at] == 0 && tb.touch[r.o][r.at] == int8(dest) {
		// Touching: cover the arrows showing to dock.
		if shown(arrows, cur) == 0 {
			return 0, false
		}
		return shiftTo(cur, n, reefs, func(m uint8) bool { return shown(arrows, m) == 0 })
	}
	best, bestF, ties := -1, int16(math.MaxInt16), 0
	for d := range 4 {
		t, _ := step(r.o, r.at, laguna.Dir(d))
		if can>>d&1 == 0 || f[t] < 0 {
			continue
		}
		switch {
		case f[t] < bestF:
			best, bestF, ties = d, f[t], 1
		case f[t] == bestF:
			ties++
			if rng != nil && rng.IntN(ties) == 0 {
				best = d
			}
		}
	}
	if best < 0 {
		return 0, false
	}
	if reefs&^cur == 0 && allowed(shown(arrows, cur), can)>>best&1 != 0 {
		return laguna.Step(laguna.Dir(best)), true
	}
	return shiftTo(cur, n, reefs, func(m uint8) bool {
		return reefs&^m == 0 && allowed(shown(arrows, m), can)>>best&1 != 0
	})
}

// shiftTo returns the first pearl moved between holes on the way from the
// arrangement cur to the nearest arrangement of n pearls that ok accepts,
// never uncovering a reef (which would end the turn).
func shiftTo(cur uint8, n int, reefs uint8, ok func(uint8) bool) (game.Move, bool) {
	bestM, bestD := uint8(0), 99
	for m := uint8(0); m < 1<<laguna.Holes; m++ {
		if bits.OnesCount8(m) != n || cur&^m&reefs != 0 || !ok(m) {
			continue
		}
		if d := bits.OnesCount8(m ^ cur); d < bestD {
			bestM, bestD = m, d
		}
	}
	if bestD == 99 || bestD == 0 {
		return 0, false
	}
	from := bits.TrailingZeros8(cur &^ bestM)
	to := bits.TrailingZeros8(bestM &^ cur)
	return laguna.Shift(from, to), true
}

// Prior rates a move for the search's widening: the pearls it brings at
// once, then whether it is the playout policy's own choice; peeking (which
// tells the search nothing) and ending the turn early come last.
func (s *Position) Prior(m game.Move) float64 {
	p := s.ToMove()
	if p < 0 {
		return 0
	}
	switch m {
	case laguna.Peek:
		return -10
	case laguna.End:
		return -5
	}
	if m >= mPut {
		return 0
	}
	v := s.gain(p, m)
	if v == 0 && s.w.rafts[p].aboard() >= laguna.MinAboard {
		if want, ok := s.sail(p, nil); ok && want == m {
			v = 5
		}
	}
	return v
}

// Rewards gives each seat mostly its share of the victory and a little for
// the pearls it delivered; a playout stopped unfinished shares the victory
// among those who delivered the most.
func (s *Position) Rewards(r []float64) {
	n := s.Players()
	target := float64(laguna.Target(n))
	st := s.Standing()
	if n == 1 {
		r[0] = 0
		if s.Over() {
			r[0] = 1
		}
		return
	}
	winners := st.Winners
	if !s.Over() {
		best := slices.Max(st.Scores)
		winners = nil
		for p, v := range st.Scores {
			if v == best && best > 0 {
				winners = append(winners, p)
			}
		}
	}
	for p := range n {
		r[p] = 0.2 * min(float64(st.Scores[p])/target, 1)
		if slices.Contains(winners, p) {
			share := 0.8 / float64(len(winners))
			if !s.Over() {
				share *= 0.5
			}
			r[p] += share
		}
	}
}
