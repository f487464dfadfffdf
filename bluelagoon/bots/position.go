package bots

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

// Position is a Blue Lagoon game as the search (ai/mcts) plays it: the
// contract's state, with what the search may ask of it beyond the contract
// (a move prior, the playout policy, shaped rewards, an evaluation,
// rerooting) and the little extra the playout policy needs kept up to date
// move by move. Like the state it holds, it is a flat value: the search
// copies it once a simulation (CopyFrom) without allocating.
type Position struct {
	bluelagoon.State
	// islands[p] has bit i set when player p has a piece on island i, and
	// reached[p] holds the spaces of those islands.
	islands [bluelagoon.MaxPlayers]uint64
	reached [bluelagoon.MaxPlayers]bluelagoon.Spaces
	// tokens holds the stone circles that carried a token when the phase
	// began. It is not updated as tokens are taken: a circle whose token is
	// gone has a piece on it, so it is never a legal move again.
	tokens bluelagoon.Spaces
	// nbr lists the neighbours of every space of the board, and its sets.
	nbr *neighbours
	// ply counts moves: pieces placed in the exploration phase, and from
	// settlementPly on, settlers placed in the settlement phase.
	ply int
	// pol is the playout policy's probabilities, shared and never
	// changed.
	pol *Policy
	// cut is set, with the policy's Cut, on a position of the exploration
	// phase that the search plays from: its playouts stop where that
	// phase ends, and its rewards estimate the settlement phase.
	cut bool
	// root is the ply of the position the search plays from, with the
	// policy's Root: the prior of the Root plies from there is greedy's
	// rating.
	root int
	// from is the ply of the position the search plays from, and scut is
	// set, with the policy's SettleCut, on a position of the settlement
	// phase that the search plays from: its playouts stop SettleCut plies
	// (rounded up to whole rounds) past from, and are rewarded by the
	// standing.
	from int
	scut bool
}

var (
	_ game.State      = (*Position)(nil)
	_ mcts.Prior      = (*Position)(nil)
	_ mcts.Playout    = (*Position)(nil)
	_ mcts.Guided     = (*Position)(nil)
	_ mcts.Traced     = (*Position)(nil)
	_ mcts.Rewards    = (*Position)(nil)
	_ mcts.Evaluation = (*Position)(nil)
	_ mcts.Reroot     = (*Position)(nil)
)

// settlementPly is the ply of the first settlement move, far past any
// exploration ply, so that plies of different phases never compare equal.
const settlementPly = 1 << 20

// Policy is the playout policy's probabilities, step by step: a token
// within reach is taken with probability Token (the one worth most to the
// mover); otherwise, in the exploration phase, a new island is settled with
// probability Fresh and land is preferred to sea with probability Land; in
// the settlement phase, a new island with probability SettleFresh and land
// with probability SettleLand; otherwise the move is uniformly random, which
// is the randomness that keeps the playouts from all ending alike. The
// engine plays such a step in one pass over its own sets
// (bluelagoon.Game.ApplyPreferred) rather than asking questions of its
// sets of spaces one by one, since the playout is most of a simulation's
// time (docs/performance.md, "Search").
//
// Margin is not the playouts' but the rewards': the share of a seat's reward
// that is its score margin (squashed into [0, 1]) rather than its share of
// the victory.
//
// Cut, if not 0, ends a playout begun in the exploration phase where that
// phase ends: the exploration phase is scored exactly, and the settlement
// phase is estimated as Village points a village kept for it and Circle
// points a stone circle within two steps of the villages. A playout of
// the settlement phase is half the moves of a game from the first move and
// as much noise again in the final scores as the whole exploration phase,
// little of which the board at the phase's end predicts (docs/strength.md,
// "Small budgets").
type Policy struct {
	Token, Fresh, Land, SettleFresh, SettleLand float64
	Margin                                      float64
	Cut, Village                                float64
	// Root, if not 0, makes the prior of the moves of the first Root
	// plies from the search's root greedy's rating (the score margin the
	// move leaves, and half its prior and what it brings within reach),
	// which looks at the scores a move changes (an island's majority, the
	// links) and costs a copy of the game a move: too slow for every node,
	// cheap for the few nodes near the root.
	Root float64
	// Tie is what winning the tie-break (the most tokens among players
	// tied on points) is worth in a finished game's score margin, in
	// points; 0 leaves a tie on points a tie, which the player holding
	// fewer tokens loses.
	Tie float64
	// Scale squashes the score margin into the reward, as
	// tanh(margin/Scale): the margin at which a reward is three quarters
	// of the way from a tie to the most it can be (0.88 of its range).
	// A smaller scale tells a narrow win from a wide one less.
	Scale float64
	// SettleCut, if not 0, ends a playout of a search begun in the
	// settlement phase that many plies past the search's root, rounded
	// up to whole rounds (each player as many moves), and rewards it by
	// the standing: the totals and what the board scores as it stands.
	// The settlement phase has no chance and no hidden information
	// left, and a playout to its end is some 60 moves of mostly random
	// play; but the standing halfway is a worse judge than such a
	// playout, since it does not count the tokens and majorities still
	// to be taken, so it is off by default (docs/strength.md, "Small
	// budgets").
	SettleCut float64
	// SettleMajority is the probability that a settlement phase's
	// playout step that takes no token places a settler on land of the
	// island where it gains most in island majorities (a tie made or
	// broken), if one gains anything.
	SettleMajority float64
	// Circle is what the cut's estimate adds, beside Village, for each
	// stone circle within two steps of a player's kept villages: in the
	// settlement phase every circle holds a token, and a player builds
	// only out from its villages, so the tokens near them are the ones
	// it can take first. Fitted on the playout policy's games and tuned
	// in the arena (docs/strength.md, "Small budgets").
	Circle float64
}

// SmallPolicy is the policy the search uses at small budgets, up to
// SmallBudget simulations a move: what the arena found best at 1,000
// simulations a move. Greedy's rating at the root matters most, since the
// cheap prior is blind to the scores a move changes; the reward all margin
// and the playouts cut at the exploration's end tell a small search's moves
// apart sooner, and the cut halves a playout from the first move; the
// cut's estimate counts the stone circles near the villages kept, not only
// the villages, since a player builds out from its villages in the
// settlement phase (docs/strength.md, "Small budgets").
var SmallPolicy = Policy{Token: 0.75, Fresh: 0.5, Land: 0.5, Margin: 1, Cut: 1, Village: 1.9, Circle: 3, Root: 1, Scale: 40}

// LargePolicy is the policy the search uses above SmallBudget: whole
// playouts, and a reward mostly the share of the victory. What a small
// search needs to tell its moves apart, an estimate of the settlement
// phase and a reward all margin, bounds a larger one by the estimate's
// errors and by the points it plays for rather than the win, which more
// simulations cannot average away (docs/strength.md, "A policy for each
// budget").
var LargePolicy = Policy{Token: 0.75, Fresh: 0.5, Land: 0.5, Margin: 0.2, Root: 1, Scale: 40}

// SmallBudget is the most simulations a move at which the search plays by
// SmallPolicy: around it the two policies play evenly (docs/strength.md,
// "A policy for each budget").
const SmallBudget = 3000

// simulationsPerSecond is what a time budget is taken to allow a tree when
// its policy is chosen: somewhat less than a quiet core searches at the
// first move (docs/performance.md, "Search"), since a machine is seldom
// quiet.
const simulationsPerSecond = 50_000

// PolicyFor returns the policy of a search within budget b: SmallPolicy if
// b allows at most SmallBudget simulations a move, a time budget counted
// at simulationsPerSecond; LargePolicy otherwise.
func PolicyFor(b mcts.Budget) *Policy {
	n := b.Simulations
	if b.Time > 0 {
		if t := int(b.Time.Seconds() * simulationsPerSecond); n == 0 || t < n {
			n = t
		}
	}
	if n > 0 && n <= SmallBudget {
		return &SmallPolicy
	}
	return &LargePolicy
}

// NewPosition returns the search's position for a Blue Lagoon state, a copy
// playing by SmallPolicy: st is not changed. Any other game's state is an
// error.
func NewPosition(st game.State) (*Position, error) {
	g := bluelagoon.GameOf(st)
	if g == nil {
		return nil, fmt.Errorf("not a state of Blue Lagoon but %T", st)
	}
	s := &Position{State: *st.(*bluelagoon.State), nbr: neighboursOf(g.Board())}
	s.recount()
	s.use(&SmallPolicy)
	return s, nil
}

// fields returns pol's fields by the names a spec gives them.
func (pol *Policy) fields() map[string]*float64 {
	return map[string]*float64{
		"token": &pol.Token, "fresh": &pol.Fresh, "land": &pol.Land, "settlefresh": &pol.SettleFresh, "settleland": &pol.SettleLand,
		"margin": &pol.Margin, "cut": &pol.Cut, "village": &pol.Village, "root": &pol.Root, "tie": &pol.Tie, "scale": &pol.Scale,
		"settlecut": &pol.SettleCut, "settlemaj": &pol.SettleMajority, "circle": &pol.Circle,
	}
}

// use makes pol the position's policy, for the search that plays from it.
func (s *Position) use(pol *Policy) {
	s.pol = pol
	s.cut = pol.Cut != 0 && s.Phase() == bluelagoon.Exploration
	s.scut = pol.SettleCut != 0 && s.Phase() == bluelagoon.Settlement
	s.from = s.ply
	s.root = -1
	if pol.Root != 0 {
		s.root = s.ply
	}
}

// SearchFor returns what turns a state into the position a search within
// budget b plays on (PolicyFor): the Search of the game's Kit.
func SearchFor(b mcts.Budget) ai.Prepare {
	return searchBy(PolicyFor(b))
}

// searchBy returns what turns a state into the search's position playing
// by pol.
func searchBy(pol *Policy) ai.Prepare {
	return func(st game.State) (game.State, error) {
		p, err := NewPosition(st)
		if err != nil {
			return nil, err
		}
		p.use(pol)
		return p, nil
	}
}

// SearchWith is SearchFor with a policy of its own: the budget's policy's
// fields are set from settings by name (token, fresh, land, settlefresh,
// settleland, settlemaj, margin, cut, village, circle, settlecut, root,
// tie, scale); other names are an error.
func SearchWith(b mcts.Budget, settings map[string]float64) (ai.Prepare, error) {
	pol := *PolicyFor(b)
	fields := pol.fields()
	for k, v := range settings {
		f, ok := fields[k]
		if !ok {
			return nil, fmt.Errorf("unknown setting %q of Blue Lagoon's search (known: %s)", k, strings.Join(slices.Sorted(maps.Keys(fields)), ", "))
		}
		if k == "margin" && v > 1 {
			return nil, fmt.Errorf("setting margin: %v is more than 1", v)
		}
		if k == "scale" && v == 0 {
			return nil, errors.New("setting scale: 0 is no scale")
		}
		*f = v
	}
	return searchBy(&pol), nil
}

// neighbours is a board's adjacency as a table, for the prior, which looks
// at the neighbours of every move it rates, and the board's sets of spaces
// the playouts use.
type neighbours struct {
	rowStart []int
	of       [][]bluelagoon.Coord
	land     bluelagoon.Spaces
	island   []bluelagoon.Spaces
	bonus    []int
	// near holds, for every space, the stone circles within two steps
	// of it.
	near []bluelagoon.Spaces
}

var neighbourTables sync.Map // *bluelagoon.Board -> *neighbours

func neighboursOf(b *bluelagoon.Board) *neighbours {
	if t, ok := neighbourTables.Load(b); ok {
		return t.(*neighbours)
	}
	t := &neighbours{land: b.LandSpaces()}
	for i := range b.Islands() {
		t.island = append(t.island, b.IslandSpaces(i))
		t.bonus = append(t.bonus, b.Islands()[i].Bonus)
	}
	for r := range b.Height() {
		t.rowStart = append(t.rowStart, len(t.of))
		for c := range bluelagoon.RowLen(b.Height(), r) {
			t.of = append(t.of, b.Neighbours(bluelagoon.Coord{Row: r, Col: c}))
		}
	}
	circles := b.LandSpaces().AndNot(b.LandSpaces())
	for _, c := range b.StoneCircles() {
		circles = circles.Add(c)
	}
	for r := range b.Height() {
		for c := range bluelagoon.RowLen(b.Height(), r) {
			near := circles.AndNot(circles)
			for _, n := range t.at(bluelagoon.Coord{Row: r, Col: c}) {
				near = near.Add(n)
				for _, m := range t.at(n) {
					near = near.Add(m)
				}
			}
			t.near = append(t.near, near.And(circles))
		}
	}
	actual, _ := neighbourTables.LoadOrStore(b, t)
	return actual.(*neighbours)
}

func (t *neighbours) at(c bluelagoon.Coord) []bluelagoon.Coord {
	return t.of[t.rowStart[c.Row]+c.Col]
}

// recount rebuilds the island sets, the token set and the ply from the
// board.
func (s *Position) recount() {
	g := &s.Game
	s.islands = [bluelagoon.MaxPlayers]uint64{}
	s.reached = [bluelagoon.MaxPlayers]bluelagoon.Spaces{}
	for p := range g.Players() {
		pieces := g.PieceSpaces(p)
		for i, isl := range s.nbr.island {
			if !pieces.And(isl).Empty() {
				s.islands[p] |= 1 << uint(i)
				s.reached[p] = s.reached[p].Or(isl)
			}
		}
	}
	s.tokens = g.TokenSpaces()
	s.ply = 0
	if g.Phase() == bluelagoon.Settlement {
		s.ply = settlementPly
	}
	allowance := bluelagoon.SettlerAllowance(g.Players())
	for p := range g.Players() {
		s.ply += allowance - g.SettlersLeft(p)
		if g.Phase() == bluelagoon.Exploration {
			s.ply += bluelagoon.VillagesPerPlayer - g.VillagesLeft(p)
		}
	}
}

// Clone returns an independent copy.
func (s *Position) Clone() game.State {
	c := *s
	return &c
}

// CopyFrom makes s a copy of src, which must be a *Position.
func (s *Position) CopyFrom(src game.State) { *s = *src.(*Position) }

// Play checks and plays m, keeping the playout policy's extras up to date.
func (s *Position) Play(m game.Move) error {
	p, ph := s.Current(), s.Phase()
	if err := s.State.Play(m); err != nil {
		return err
	}
	em, _ := bluelagoon.EngineMove(s.Board(), m)
	s.played(p, ph, em)
	return nil
}

// playLegal plays the legal engine move m, as the playouts do: it leaves
// the contract's count of turns behind, which no reward reads.
func (s *Position) playLegal(m bluelagoon.Move) {
	p, ph := s.Current(), s.Phase()
	s.Game.ApplyLegal(m)
	s.played(p, ph, m)
}

// played brings the position's extras up to date after player p played m in
// phase ph.
func (s *Position) played(p int, ph bluelagoon.Phase, m bluelagoon.Move) {
	s.ply++
	if s.Phase() != ph {
		s.recount()
		return
	}
	if i := s.Board().IslandAt(m.At); i >= 0 && s.islands[p]&(1<<uint(i)) == 0 {
		s.islands[p] |= 1 << uint(i)
		s.reached[p] = s.reached[p].Or(s.nbr.island[i])
	}
}

// Playout plays the game to its end with the playout policy, or, for a
// position that cuts, to the end of the exploration phase.
func (s *Position) Playout(r *rand.Rand) {
	for !s.stop() {
		s.playoutStep(r, nil)
	}
}

// TracedPlayout is Playout telling played each move of the phase it began
// in, for RAVE: a space of the settlement phase is another move than the
// same space in the exploration phase, whose pieces are gone.
func (s *Position) TracedPlayout(r *rand.Rand, played func(seat int, m game.Move)) {
	ph := s.Phase()
	for !s.stop() {
		p, now := s.Current(), s.Phase()
		m := s.playoutStep(r, nil)
		if now == ph {
			played(p, bluelagoon.ContractMove(s.Board(), m))
		}
	}
}

// stop reports whether a playout ends here: at the game's end, or at the
// exploration phase's for a position that cuts.
func (s *Position) stop() bool {
	if s.scut {
		d := s.ply - s.from
		return s.Game.Over() || d >= int(s.pol.SettleCut) && d%s.Players() == 0
	}
	return s.Game.Over() || s.cut && s.Phase() == bluelagoon.Settlement
}

// GuidedPlayout plays the game to its end with the playout policy, telling
// the search's move averages every move and letting them choose between
// two draws wherever the policy draws a space at random.
func (s *Position) GuidedPlayout(r *rand.Rand, m *mcts.MAST) {
	if m == nil {
		s.Playout(r)
		return
	}
	for !s.stop() {
		s.playoutStep(r, m)
	}
}

// playoutStep plays one move of the playout policy, guided by the move
// averages if mast is not nil, and returns it.
func (s *Position) playoutStep(r *rand.Rand, mast *mcts.MAST) bluelagoon.Move {
	g := &s.Game
	p, ph := g.Current(), g.Phase()
	pol := s.pol
	if mast == nil && (ph == bluelagoon.Exploration || pol.SettleMajority == 0) {
		// The policy without the move averages and the majorities is
		// what the engine's ApplyPreferred plays, in a fraction of the
		// time the steps below take (the same moves for the same draws).
		prefs := bluelagoon.Preferences{
			Token: pol.Token, Worth: tokenGain, Fresh: pol.Fresh, Land: pol.Land,
			SettleFresh: pol.SettleFresh, SettleLand: pol.SettleLand,
		}
		m := g.ApplyPreferred(r, &prefs, &s.reached[p])
		s.played(p, ph, m)
		return m
	}
	settlers, villages := g.LegalSpaces()
	// Where a village may go a settler may too, unless the player has no
	// settlers left: the settler moves are the spaces within reach.
	reach := settlers
	if reach.Empty() {
		reach = villages
	}
	if tokens := reach.And(s.tokens); !tokens.Empty() && r.Float64() < pol.Token {
		held := g.Held(p)
		var best bluelagoon.Coord
		bestGain := -1.0
		for c := range tokens.All() {
			t, _ := g.TokenAt(c)
			if v := tokenGain(held, t); v > bestGain {
				best, bestGain = c, v
			}
		}
		return s.playAt(settlers, best, mast)
	}
	if ph == bluelagoon.Exploration {
		land := reach.And(s.nbr.land)
		if fresh := land.AndNot(s.reached[p]); !fresh.Empty() && r.Float64() < pol.Fresh {
			return s.playAt(settlers, s.draw(r, mast, settlers, fresh), mast)
		}
		if !land.Empty() && r.Float64() < pol.Land {
			return s.playAt(settlers, s.draw(r, mast, settlers, land), mast)
		}
	} else if pol.SettleFresh > 0 || pol.SettleLand > 0 || pol.SettleMajority > 0 {
		land := reach.And(s.nbr.land)
		if pol.SettleMajority > 0 && !land.Empty() && r.Float64() < pol.SettleMajority {
			if i := s.majorityIsland(p, land); i >= 0 {
				on := land.And(s.nbr.island[i])
				return s.playAt(settlers, s.draw(r, mast, settlers, on), mast)
			}
		}
		if fresh := land.AndNot(s.reached[p]); !fresh.Empty() && r.Float64() < pol.SettleFresh {
			return s.playAt(settlers, s.draw(r, mast, settlers, fresh), mast)
		}
		if !land.Empty() && r.Float64() < pol.SettleLand {
			return s.playAt(settlers, s.draw(r, mast, settlers, land), mast)
		}
	}
	if mast == nil {
		m := g.ApplyRandom(r)
		s.played(p, ph, m)
		return m
	}
	a, b := g.RandomMove(r), g.RandomMove(r)
	board := g.Board()
	cm := mast.Better(r, p, bluelagoon.ContractMove(board, a), bluelagoon.ContractMove(board, b))
	mast.Played(p, cm)
	m, _ := bluelagoon.EngineMove(board, cm)
	s.playLegal(m)
	return m
}

// majorityIsland returns the island, among those with a space of land, on
// which a piece of player p gains most in island majorities (p's bonus less
// what the others lose of theirs, each other's loss counted at its share
// of the others), or -1 if no island gains anything. Ties go to the first.
func (s *Position) majorityIsland(p int, land bluelagoon.Spaces) int {
	g := &s.Game
	n := g.Players()
	var pieces [bluelagoon.MaxPlayers]bluelagoon.Spaces
	for q := range n {
		pieces[q] = g.PieceSpaces(q)
	}
	best, bestGain := -1, 0.0
	for i, isl := range s.nbr.island {
		if land.And(isl).Empty() {
			continue
		}
		var count [bluelagoon.MaxPlayers]int
		for q := range n {
			count[q] = pieces[q].And(isl).Len()
		}
		before := shares(count[:n], s.nbr.bonus[i])
		count[p]++
		after := shares(count[:n], s.nbr.bonus[i])
		gain := 0.0
		for q := range n {
			d := float64(after[q] - before[q])
			if q == p {
				gain += d
			} else {
				gain -= d / float64(n-1)
			}
		}
		if gain > bestGain {
			best, bestGain = i, gain
		}
	}
	return best
}

// shares returns each player's share of an island's bonus, by the players'
// counts of pieces on it.
func shares(count []int, bonus int) [bluelagoon.MaxPlayers]int {
	var out [bluelagoon.MaxPlayers]int
	most, k := 0, 0
	for _, c := range count {
		switch {
		case c > most:
			most, k = c, 1
		case c == most:
			k++
		}
	}
	if most == 0 {
		return out
	}
	for q, c := range count {
		if c == most {
			out[q] = bonus / k
		}
	}
	return out
}

// draw returns a space of set drawn at random: with MAST, the better by the
// move averages of two draws (as a settler where the mover may place one).
func (s *Position) draw(r *rand.Rand, mast *mcts.MAST, settlers, set bluelagoon.Spaces) bluelagoon.Coord {
	a := set.Nth(r.IntN(set.Len()))
	if mast == nil {
		return a
	}
	b := set.Nth(r.IntN(set.Len()))
	board := s.Board()
	ma, mb := bluelagoon.ContractMove(board, s.pieceAt(settlers, a)), bluelagoon.ContractMove(board, s.pieceAt(settlers, b))
	if mast.Better(r, s.Current(), ma, mb) == mb {
		return b
	}
	return a
}

// pieceAt returns the move that places a settler on c if that is legal, and
// a village otherwise.
func (s *Position) pieceAt(settlers bluelagoon.Spaces, c bluelagoon.Coord) bluelagoon.Move {
	piece := bluelagoon.Settler
	if !settlers.Has(c) {
		piece = bluelagoon.Village
	}
	return bluelagoon.Move{Piece: piece, At: c}
}

// playAt places a settler on c if that is legal, and a village otherwise,
// and returns the move.
func (s *Position) playAt(settlers bluelagoon.Spaces, c bluelagoon.Coord, mast *mcts.MAST) bluelagoon.Move {
	m := s.pieceAt(settlers, c)
	if mast != nil {
		mast.Played(s.Current(), bluelagoon.ContractMove(s.Board(), m))
	}
	s.playLegal(m)
	return m
}

// Prior orders the moves the search tries: it is the playouts' movePrior
// plus, in the exploration phase, what the move brings within reach (tokens
// and new islands next to it), which is too slow to look at in playouts but
// tells the search which sea moves to try first.
func (s *Position) Prior(cm game.Move) float64 {
	g := &s.Game
	m, ok := bluelagoon.EngineMove(g.Board(), cm)
	if !ok {
		return math.Inf(-1)
	}
	islands := s.islands[g.Current()]
	if s.root >= 0 && s.ply-s.root < int(s.pol.Root) {
		c := *g
		c.ApplyLegal(m)
		return float64(margin(standing(&c), g.Players(), g.Current())) + movePrior(g, islands, m)/2 + reachValue(g, s.nbr, islands, m)
	}
	v := movePrior(g, islands, m)
	if g.Phase() == bluelagoon.Settlement {
		return v
	}
	b := g.Board()
	var seen uint64
	for _, n := range s.nbr.at(m.At) {
		if _, _, taken := g.PieceAt(n); taken {
			continue
		}
		if t, ok := g.TokenAt(n); ok {
			v += tokenGain(g.Held(g.Current()), t) / 2
		}
		if i := b.IslandAt(n); i >= 0 && (islands|seen)&(1<<uint(i)) == 0 {
			seen |= 1 << uint(i)
			v += 3
		}
	}
	return v
}

// movePrior scores a move by what it takes at once: a token (by what it
// adds to the mover's resource and statuette score), a new island (links
// and the island count), land over sea, and a village where it will last.
func movePrior(g *bluelagoon.Game, islands uint64, m bluelagoon.Move) float64 {
	b := g.Board()
	p := g.Current()
	v := 0.0
	if t, ok := g.TokenAt(m.At); ok {
		v += tokenGain(g.Held(p), t)
	}
	if i := b.IslandAt(m.At); i >= 0 {
		v += 2
		if islands&(1<<uint(i)) == 0 {
			v += 6
		}
		if m.Piece == bluelagoon.Village {
			if b.IsStoneCircle(m.At) {
				v -= 3 // removed at the end of the exploration phase
			} else {
				v += 2 // stays for the settlement phase
			}
		}
	}
	return v
}

// tokenGain is what taking a token of kind t adds to the score of a player
// who holds held, with a little extra for the first of a kind.
func tokenGain(held [bluelagoon.NumTokenKinds]int, t bluelagoon.Token) float64 {
	if t == bluelagoon.Statuette {
		return 4
	}
	steps := [...]float64{0: 1.5, 1: 5, 2: 5, 3: 10}
	v := 0.5
	if h := held[t]; h < len(steps) {
		v = steps[h]
	}
	if held[t] == 0 {
		kinds := 0
		for k := range bluelagoon.NumResources {
			if held[k] > 0 {
				kinds++
			}
		}
		v += 2.5 * float64(kinds+1) // a step towards the complete set
	}
	return v
}

// Rewards gives each player a share (the policy's Margin) of its reward for
// its score margin over the best other player, squashed into [0, 1], and
// the rest for its share of the victory. The margin says by how much a game
// went well, not only whether: a reward with less noise, which is what a
// small budget needs (all margin played best at 1,000 simulations).
//
// A playout that was cut at the end of the exploration phase is rewarded by
// an estimate of the final scores: the totals so far, the policy's Village
// points for each village kept for the settlement phase and its Circle
// points for each stone circle within two steps of them; the estimate's
// best wins. One cut in the settlement phase (SettleCut) is rewarded by the
// standing.
func (s *Position) Rewards(r []float64) {
	g := &s.Game
	half, win := s.pol.Margin/2, 1-s.pol.Margin
	totals := g.Totals()
	var won [bluelagoon.MaxPlayers]bool
	winners := 0
	if (s.cut || s.scut) && !g.Over() {
		// A playout cut short: its estimate of the final scores decides,
		// the best winning.
		if s.cut {
			allowance := bluelagoon.SettlerAllowance(g.Players())
			for p := range g.Players() {
				kept := g.PieceSpaces(p).Len() - (allowance - g.SettlersLeft(p))
				est := s.pol.Village * float64(kept)
				if s.pol.Circle != 0 {
					est += s.pol.Circle * float64(s.nearCircles(p))
				}
				totals[p] += int(math.Round(est))
			}
		} else {
			totals = standing(g)
		}
		best := math.MinInt
		for p := range g.Players() {
			best = max(best, totals[p])
		}
		for p := range g.Players() {
			if won[p] = totals[p] == best; won[p] {
				winners++
			}
		}
	} else {
		for p := range g.Players() {
			if won[p] = g.Wins(p); won[p] {
				winners++
			}
		}
	}
	for p := range g.Players() {
		other := -1
		for q := range g.Players() {
			if q != p && (other < 0 || totals[q] > totals[other] || totals[q] == totals[other] && g.TokensHeld(q) > g.TokensHeld(other)) {
				other = q
			}
		}
		m := float64(totals[p] - totals[other])
		if totals[p] == totals[other] && g.Over() {
			m += s.pol.Tie * float64(cmp.Compare(g.TokensHeld(p), g.TokensHeld(other)))
		}
		r[p] = half + half*math.Tanh(m/s.pol.Scale)
	}
	for p := range g.Players() {
		if won[p] {
			r[p] += win / float64(winners)
		}
	}
}

// nearCircles counts the stone circles within two steps of player p's
// pieces.
func (s *Position) nearCircles(p int) int {
	pieces := s.PieceSpaces(p)
	near := pieces.AndNot(pieces)
	for c := range pieces.All() {
		near = near.Or(s.nbr.near[s.nbr.rowStart[c.Row]+c.Col])
	}
	return near.Len()
}

// Evaluate rates the position for each player by its standing (the phases
// scored and what the board would score if the current phase ended now),
// as greedy does: the score margin over the best other player, squashed
// into [0, 1] as the rewards squash it.
func (s *Position) Evaluate(r []float64) {
	g := &s.Game
	st := standing(g)
	for p := range g.Players() {
		r[p] = 0.5 + 0.5*math.Tanh(float64(margin(st, g.Players(), p))/s.pol.Scale)
	}
}

// Ply returns the number of moves played, counted so that the plies of the
// two phases never meet.
func (s *Position) Ply() int { return s.ply }

// Leads reports whether move m, played now, can be on the way to later: the
// piece it places stands in later, owned by the player to move now.
func (s *Position) Leads(cm game.Move, later game.State) bool {
	l, ok := later.(*Position)
	if !ok || s.Phase() != l.Phase() {
		return false
	}
	m, ok := bluelagoon.EngineMove(s.Board(), cm)
	if !ok {
		return false
	}
	p, piece, ok := l.PieceAt(m.At)
	return ok && p == s.Current() && piece == m.Piece
}

// Equal reports whether other is the same position. The ply of the root a
// position was searched from is not part of it (a kept tree's positions
// were searched from an earlier root), but whether it cuts its playouts is:
// a tree grown on estimates of the settlement phase is not kept into it.
func (s *Position) Equal(other game.State) bool {
	o, ok := other.(*Position)
	if !ok {
		return false
	}
	c := *o
	c.root, c.from = s.root, s.from
	return *s == c
}
