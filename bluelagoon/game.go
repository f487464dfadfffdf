package bluelagoon

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/lagoon-games/lagoon/game"
)

// Player counts and pieces.
const (
	MinPlayers        = 2
	MaxPlayers        = 4
	VillagesPerPlayer = 5
	// numResourceTokens is how many resources a phase can hand out; when all
	// are held, the phase ends.
	numResourceTokens = 24
)

// SettlerAllowance returns how many settlers each player has: 30 with 2
// players, 25 with 3, 20 with 4.
func SettlerAllowance(players int) int { return 40 - 5*players }

// Phase is one of the game's two phases.
type Phase uint8

const (
	Exploration Phase = iota
	Settlement
)

// Letter returns the phase's letter in the notation: E or S.
func (ph Phase) Letter() byte {
	if ph == Settlement {
		return 'S'
	}
	return 'E'
}

func (ph Phase) String() string {
	if ph == Settlement {
		return "settlement"
	}
	return "exploration"
}

// A Game is a Blue Lagoon position together with the generator that will lay
// out the settlement phase's tokens.
//
// A Game is a plain value: assigning it (g2 := *g) or calling Clone gives an
// independent copy, which is how search explores the future. The board is
// shared by pointer and never changes. A Game is not safe for concurrent use
// by several goroutines; copies are.
type Game struct {
	board     *Board
	players   uint8
	phase     Phase
	current   uint8
	over      bool  // the current phase is over (in the settlement phase: the game is)
	breakdown uint8 // bit ph set: the score breakdown of phase ph is known
	collected uint8 // resources held, all players together
	allowance uint8 // settlers per player
	freeSea   int16 // sea spaces without a piece

	numSettlers [MaxPlayers]uint8
	numVillages [MaxPlayers]uint8
	held        [MaxPlayers][NumTokenKinds]uint8
	tokens      [NumStoneCircles]Token // per stone circle
	totals      [MaxPlayers]int
	phaseScores [2][MaxPlayers]Score

	rng rand.PCG

	occupied bitset
	settlers [MaxPlayers]bitset
	villages [MaxPlayers]bitset
	own      [MaxPlayers]bitset // settlers and villages
	reach    [MaxPlayers]bitset // spaces next to each player's pieces

	links [MaxPlayers]linkForest
	slot  [maxSpaces]int8 // per occupied space: the piece's index in its owner's linkForest
}

// seedStream is the PCG stream the engine uses for a game's seed; fixing it
// keeps layouts the same from one version to the next.
const seedStream = 0x626c75656c61676f // "bluelago"

// newGame sets up a game on board b: the board is empty, the tokens are
// laid out from the seed (which drives the generator that lays out each
// phase's tokens: the same seed gives the same layouts), and seat first is
// to move.
func newGame(b *Board, players int, seed uint64, first int) (*Game, error) {
	if players < MinPlayers || players > MaxPlayers {
		return nil, fmt.Errorf("new game: %d players; a game has %d to %d", players, MinPlayers, MaxPlayers)
	}
	if first < 0 || first >= players {
		return nil, fmt.Errorf("new game: first player %d is not a seat of a %d-player game", first, players)
	}
	g := &Game{board: b, players: uint8(players), allowance: uint8(SettlerAllowance(players))}
	g.freeSea = int16(b.sea.count(b.words))
	g.Reseed(seed)
	g.layTokens()
	g.startPhase(first)
	return g, nil
}

// Reseed replaces the generator that lays out the tokens of the next phase.
// Search uses it on its copies so that it samples the settlement phase's
// unknown layout instead of reading the real one.
func (g *Game) Reseed(seed uint64) { g.rng = *rand.NewPCG(seed, seedStream) }

// layTokens puts all 32 tokens back on the stone circles in a uniformly random
// order drawn from the game's generator (Fisher-Yates, with Lemire's unbiased
// bounded integers). Players hold nothing afterwards.
func (g *Game) layTokens() {
	i := 0
	for t := Coconut; t <= Statuette; t++ {
		for range Supply(t) {
			g.tokens[i] = t
			i++
		}
	}
	for i := NumStoneCircles - 1; i > 0; i-- {
		j := g.intn(uint64(i + 1))
		g.tokens[i], g.tokens[j] = g.tokens[j], g.tokens[i]
	}
	g.held = [MaxPlayers][NumTokenKinds]uint8{}
	g.collected = 0
}

// intn returns a uniform integer in [0, n).
func (g *Game) intn(n uint64) int {
	hi, lo := bits.Mul64(g.rng.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(g.rng.Uint64(), n)
		}
	}
	return int(hi)
}

// startPhase gives the turn to the first player from seat p on who can move,
// and ends the phase at once if nobody can.
func (g *Game) startPhase(p int) {
	if q := g.nextMover(p); q >= 0 {
		g.current = uint8(q)
		return
	}
	g.endPhase()
}

// Board returns the board the game is played on.
func (g *Game) Board() *Board { return g.board }

// Players returns the number of players.
func (g *Game) Players() int { return int(g.players) }

// Phase returns the current phase.
func (g *Game) Phase() Phase { return g.phase }

// Current returns the seat to move. Once the game is over it is the seat that
// moved last.
func (g *Game) Current() int { return int(g.current) }

// PhaseOver reports whether the current phase is over. The engine ends a
// phase the moment it is over, so this is true only at the end of the game or
// in a state read from notation.
func (g *Game) PhaseOver() bool { return g.over }

// Over reports whether the game is over.
func (g *Game) Over() bool { return g.over && g.phase == Settlement }

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := *g
	return &c
}

// SettlersLeft returns how many settlers player p can still place.
func (g *Game) SettlersLeft(p int) int {
	return int(g.allowance) - int(g.numSettlers[p])
}

// VillagesLeft returns how many villages player p can still place. In the
// settlement phase it is 0: villages not placed are out of the game.
func (g *Game) VillagesLeft(p int) int {
	if g.phase == Settlement {
		return 0
	}
	return VillagesPerPlayer - int(g.numVillages[p])
}

// Held returns how many tokens of each kind player p holds.
func (g *Game) Held(p int) [NumTokenKinds]int {
	var out [NumTokenKinds]int
	for t, n := range g.held[p] {
		out[t] = int(n)
	}
	return out
}

// TokensHeld returns how many tokens, resources and statuettes, player p holds.
func (g *Game) TokensHeld(p int) int {
	n := 0
	for _, c := range g.held[p] {
		n += int(c)
	}
	return n
}

// PieceAt returns the owner and kind of the piece on c, if there is one.
func (g *Game) PieceAt(c Coord) (player int, piece Piece, ok bool) {
	if !g.board.OnBoard(c) {
		return 0, 0, false
	}
	s := g.board.index(c)
	if !g.occupied.has(s) {
		return 0, 0, false
	}
	for p := range int(g.players) {
		if g.settlers[p].has(s) {
			return p, Settler, true
		}
		if g.villages[p].has(s) {
			return p, Village, true
		}
	}
	return 0, 0, false
}

// TokenAt returns the token lying on c, if there is one.
func (g *Game) TokenAt(c Coord) (Token, bool) {
	if !g.board.OnBoard(c) {
		return noToken, false
	}
	i := g.board.circleOf[g.board.index(c)]
	if i < 0 || g.tokens[i] == noToken {
		return noToken, false
	}
	return g.tokens[i], true
}

// legalSets computes, for each word of the board, the spaces where player p
// may place a settler (s) and a village (v), and returns how many of each
// there are. Whether p has settlers or villages left becomes a mask, so the
// loop itself does not branch.
func (g *Game) legalSets(p int, s, v *[maxWords]uint64) (settlers, villages int) {
	b := g.board
	nw := b.words
	var settle, village uint64
	if g.numSettlers[p] < g.allowance {
		settle = ^uint64(0)
	}
	occ, near := g.occupied[:nw], g.reach[p][:nw]
	if g.phase == Settlement {
		for w := range occ {
			s[w] = near[w] &^ occ[w] & settle
			v[w] = 0
			settlers += bits.OnesCount64(s[w])
		}
		return settlers, 0
	}
	if g.numVillages[p] < VillagesPerPlayer {
		village = ^uint64(0)
	}
	land, sea := b.land[:nw], b.sea[:nw]
	for w := range occ {
		free := ^occ[w]
		l := near[w] & free & land[w]
		s[w] = (sea[w]&free | l) & settle
		v[w] = l & village
		settlers += bits.OnesCount64(s[w])
		villages += bits.OnesCount64(v[w])
	}
	return settlers, villages
}

// canMove reports whether player p has a legal placement.
func (g *Game) canMove(p int) bool {
	b := g.board
	nw := b.words
	occ, near := g.occupied[:nw], g.reach[p][:nw]
	var any uint64
	if g.numSettlers[p] < g.allowance {
		if g.phase == Exploration {
			if g.freeSea > 0 {
				return true
			}
		} else {
			for w, x := range near {
				any |= x &^ occ[w]
			}
		}
	}
	if g.phase == Exploration && (g.numSettlers[p] < g.allowance || g.numVillages[p] < VillagesPerPlayer) {
		for w, x := range near {
			any |= x &^ occ[w] & b.land[w]
		}
	}
	return any != 0
}

// nextMover returns the first seat from p on, wrapping around, that has a
// legal placement, or -1 if none has.
func (g *Game) nextMover(p int) int {
	n := int(g.players)
	for q := range n {
		// p+q wraps around without a division, which would cost more than
		// the rest of the turn passing.
		q += p
		if q >= n {
			q -= n
		}
		if g.canMove(q) {
			return q
		}
	}
	return -1
}

// NumLegalMoves returns the number of legal moves of the player to move.
func (g *Game) NumLegalMoves() int {
	if g.over {
		return 0
	}
	var s, v [maxWords]uint64
	ns, nv := g.legalSets(int(g.current), &s, &v)
	return ns + nv
}

// LegalMove returns the k-th legal move, 0 <= k < NumLegalMoves, in the order
// of LegalMoves.
func (g *Game) LegalMove(k int) Move {
	var s, v [maxWords]uint64
	if n := g.NumLegalMoves(); k < 0 || k >= n {
		panic(fmt.Sprintf("bluelagoon: LegalMove(%d) with %d legal moves", k, n))
	}
	g.legalSets(int(g.current), &s, &v)
	return g.kthMove(&s, &v, k)
}

// RandomMove returns a uniformly random legal move drawn from r, in one pass
// over the board. It draws one number k below the number of legal moves and
// returns the k-th move, counting the settler moves first and then the
// village moves, each in board order (not the order of LegalMoves, which
// would cost more to find). The phase must not be over.
func (g *Game) RandomMove(r *rand.Rand) Move {
	piece, sp := g.randomSpace(int(g.current), r)
	return Move{piece, g.board.coords[sp]}
}

// ApplyRandom plays a uniformly random legal move drawn from r and returns
// it: the same move as RandomMove for the same draw, and the same game as
// ApplyLegal(RandomMove(r)), in one step without going through coordinates.
// It is the fast path for random playouts. The phase must not be over.
func (g *Game) ApplyRandom(r *rand.Rand) Move {
	p := int(g.current)
	piece, sp := g.randomSpace(p, r)
	g.play(p, piece, sp)
	return Move{piece, g.board.coords[sp]}
}

// randomSpace draws a legal move of player p from r and returns its piece
// and space.
func (g *Game) randomSpace(p int, r *rand.Rand) (Piece, int) {
	if g.over {
		panic("bluelagoon: a random move in a phase that is over")
	}
	var s, v [maxWords]uint64
	ns, nv := g.legalSets(p, &s, &v)
	k := r.IntN(ns + nv)
	if k < ns {
		return Settler, selectSpace(s[:g.board.words], k)
	}
	return Village, selectSpace(v[:g.board.words], k-ns)
}

// selectSpace returns the k-th space of the set, counting from 0 in board
// order. The word that holds it is found without a branch that depends on k
// (which no predictor could guess): every word is looked at, and each word
// whose spaces all come before the k-th counts one.
func selectSpace(set []uint64, k int) int {
	w, before, sum := 0, 0, 0
	for _, x := range set {
		c := bits.OnesCount64(x)
		sum += c
		past := 1 + (k-sum)>>63 // 1 while the k-th space lies past this word
		w += past
		before += c * past
	}
	return w<<6 + selectBit(set[w], k-before)
}

// selectBit returns the position of the k-th set bit of x, counting from 0
// at the least significant bit; x must have more than k bits set. The byte
// is found by selectByte, the bit in it by a table.
func selectBit(x uint64, k int) int {
	shift, r := selectByte(byteCounts(x), k)
	return int(shift) + int(selectInByte[(x>>shift&0xff)<<3|uint64(r)&7])
}

// selectByte finds the byte that holds the k-th item of a word, given how
// many items each byte holds (at most 16, as byteCounts gives for one or two
// words), and returns the byte's bit offset and the item's rank within it.
// It works without a loop: the running sums of the counts by one
// multiplication, and the number of bytes whose running sum is at most k by
// one subtraction on all eight bytes at once (the sums are at most 128, so
// each byte's top bit is free to record the comparison).
func selectByte(counts uint64, k int) (shift uint, rank int) {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	sums := counts * ones
	below := ((uint64(k)*ones | tops) - sums) & tops
	shift = uint(bits.OnesCount64(below)) * 8
	return shift, k - int(sums<<8>>shift&0xff)
}

// selectInByte[b<<3|r] is the position of the r-th set bit of the byte b.
// It is filled once and only read.
var selectInByte = func() (t [256 * 8]uint8) {
	for b := range 256 {
		r := 0
		for i := range 8 {
			if b>>i&1 != 0 {
				t[b<<3|r] = uint8(i)
				r++
			}
		}
	}
	return t
}()

// kthMove returns the k-th move of the sets s and v, in the order of
// LegalMoves.
func (g *Game) kthMove(s, v *[maxWords]uint64, k int) Move {
	w := 0
	for {
		c := bits.OnesCount64(s[w]) + bits.OnesCount64(v[w])
		if k < c {
			break
		}
		k -= c
		w++
	}
	bit, piece := selectMove(s[w], v[w], k)
	return Move{piece, g.board.coords[w<<6+bit]}
}

// selectMove returns the bit and the piece of the k-th move of a word,
// counting a settler move at each bit of s and a village move at each bit of
// v, in bit order, the settler first at a bit both have.
//
// It finds the byte with selectByte, from the moves per byte; in that byte
// it interleaves the settler and village bits, S before T, and drops the
// moves before the one wanted.
func selectMove(s, v uint64, k int) (int, Piece) {
	shift, r := selectByte(byteCounts(s)+byteCounts(v), k)
	m := spread(s>>shift&0xff) | spread(v>>shift&0xff)<<1
	for ; r > 0; r-- {
		m &= m - 1
	}
	pos := bits.TrailingZeros64(m)
	return int(shift) + pos>>1, Piece(pos & 1)
}

// byteCounts returns the number of bits set in each byte of x, in that byte.
func byteCounts(x uint64) uint64 {
	x -= x >> 1 & 0x5555555555555555
	x = x&0x3333333333333333 + x>>2&0x3333333333333333
	return (x + x>>4) & 0x0f0f0f0f0f0f0f0f
}

// spread moves the 8 bits of x to the even bits of a 16-bit number.
func spread(x uint64) uint64 {
	x = (x | x<<4) & 0x0f0f
	x = (x | x<<2) & 0x3333
	return (x | x<<1) & 0x5555
}

// LegalMoves returns the legal moves of the player to move, sorted by row,
// then column, then settler before village. It is empty when the phase is over.
func (g *Game) LegalMoves() []Move { return g.AppendLegalMoves(nil) }

// AppendLegalMoves appends the legal moves, in the order of LegalMoves, to dst
// and returns the extended slice. It allocates nothing when dst has room.
func (g *Game) AppendLegalMoves(dst []Move) []Move {
	if g.over {
		return dst
	}
	var s, v [maxWords]uint64
	ns, nv := g.legalSets(int(g.current), &s, &v)
	n := ns + nv
	i := len(dst)
	// One spare element: the loop below writes a village move at every
	// space and keeps it only if it is legal, which saves a branch per move
	// that no predictor could guess. Whatever the caller had in that
	// element is put back at the end.
	dst = slices.Grow(dst, n+1)[:i+n+1]
	spare := dst[i+n]
	coords := g.board.coords
	for w := range g.board.words {
		base := w << 6
		if v[w] == 0 {
			for x := s[w]; x != 0; x &= x - 1 {
				dst[i] = Move{Settler, coords[base+bits.TrailingZeros64(x)]}
				i++
			}
			continue
		}
		sw, vw := s[w], v[w]
		for x := sw | vw; x != 0; x &= x - 1 {
			t := uint(bits.TrailingZeros64(x))
			at := coords[base+int(t)]
			dst[i] = Move{Settler, at}
			i += int(sw >> t & 1)
			dst[i] = Move{Village, at}
			i += int(vw >> t & 1)
		}
	}
	dst[i] = spare
	return dst[:i]
}

// IllegalMoveError says why a move was refused: in the words of a tool,
// which name the move and the seat (Error), and as the contract's refusal,
// a code and words for the player who tried it (Unwrap).
type IllegalMoveError struct {
	Move   Move
	Player int
	Reason string
	// Refusal is the refusal the error wraps.
	Refusal game.Refusal
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("illegal move %v by player %d: %s", e.Move, e.Player, e.Reason)
}

// Unwrap returns the contract's refusal.
func (e *IllegalMoveError) Unwrap() error { return &e.Refusal }

// Blue Lagoon's own refusal codes, beside the contract's RefusedOver and
// RefusedNoSuchMove.
const (
	RefusedPhaseOver    game.RefusalCode = "phase_over"     // the phase is over, the next not laid out
	RefusedTaken        game.RefusalCode = "taken"          // the space holds a piece
	RefusedVillageLate  game.RefusalCode = "village_late"   // villages are placed in the exploration only
	RefusedVillageAtSea game.RefusalCode = "village_at_sea" // a village goes on land
	RefusedNoVillages   game.RefusalCode = "no_villages"    // the player's villages are all placed
	RefusedNoSettlers   game.RefusalCode = "no_settlers"    // the player's settlers are all placed
	RefusedNotNext      game.RefusalCode = "not_next"       // land, or in the settlement any space, away from the player's pieces
)

// Check returns nil if m is a legal move for the player to move, and an
// *IllegalMoveError that says why if it is not.
func (g *Game) Check(m Move) error {
	p := int(g.current)
	// fail refuses m with code, the player's words, and the tool's words
	// made from format and args.
	fail := func(code game.RefusalCode, player, format string, args ...any) error {
		return &IllegalMoveError{Move: m, Player: p, Reason: fmt.Sprintf(format, args...), Refusal: game.Refusal{Code: code, Reason: player}}
	}
	b := g.board
	switch {
	case g.Over():
		return fail(game.RefusedOver, "the game is over", "the game is over")
	case g.over:
		return fail(RefusedPhaseOver, "the "+g.phase.String()+" phase is over", "the %v phase is over", g.phase)
	case m.Piece != Settler && m.Piece != Village:
		return fail(game.RefusedNoSuchMove, "there is no such piece", "unknown piece")
	case !b.OnBoard(m.At):
		return fail(game.RefusedNoSuchMove, "that space is not on the board", "space %v is not on the board", m.At)
	}
	s := b.index(m.At)
	sea := b.islandOf[s] < 0
	near := g.reach[p].has(s)
	switch {
	case g.occupied.has(s):
		return fail(RefusedTaken, "that space is taken", "space %v is already taken", m.At)
	case m.Piece == Village && g.phase == Settlement:
		return fail(RefusedVillageLate, "villages are placed in the exploration phase only", "villages are not placed in the settlement phase")
	case m.Piece == Village && sea:
		return fail(RefusedVillageAtSea, "a village cannot be placed on the sea", "a village cannot be placed on the sea")
	case m.Piece == Village && g.numVillages[p] >= VillagesPerPlayer:
		return fail(RefusedNoVillages, "you have no villages left", "no villages left")
	case m.Piece == Settler && g.SettlersLeft(p) <= 0:
		return fail(RefusedNoSettlers, "you have no settlers left", "no settlers left")
	case g.phase == Exploration && !sea && !near:
		return fail(RefusedNotNext, "land must be next to one of your pieces", "land at %v is not next to one of the player's pieces", m.At)
	case g.phase == Settlement && !near:
		return fail(RefusedNotNext, "in the settlement phase a piece goes next to one of yours", "space %v is not next to one of the player's pieces", m.At)
	}
	return nil
}

// Apply plays m for the player to move, or returns an *IllegalMoveError and
// leaves the game unchanged. After the placement the turn passes (section 5
// of the rules); a phase that is over ends, is scored and, after the
// exploration phase, the settlement phase is set up.
func (g *Game) Apply(m Move) error {
	if err := g.Check(m); err != nil {
		return err
	}
	g.ApplyLegal(m)
	return nil
}

// ApplyLegal plays m, which must be legal (from LegalMoves, LegalMove or
// checked with Check), without checking it. It is the fast path for search;
// an illegal move leaves the game in an undefined state.
func (g *Game) ApplyLegal(m Move) {
	g.play(int(g.current), m.Piece, g.board.index(m.At))
}

// play places piece for player p, the player to move, on the space s, where
// it is legal, takes the token there and passes the turn.
func (g *Game) play(p int, piece Piece, s int) {
	b := g.board
	g.put(p, piece, s)
	if c := b.circleOf[s]; c >= 0 {
		if t := g.tokens[c]; t != noToken {
			g.tokens[c] = noToken
			g.held[p][t]++
			if t.IsResource() {
				g.collected++
			}
		}
	}
	if g.collected < numResourceTokens {
		if q := g.nextMover(p + 1); q >= 0 {
			g.current = uint8(q)
			return
		}
	}
	g.endPhase()
}

// put places a piece of player p on the free space s, without taking tokens.
func (g *Game) put(p int, piece Piece, s int) {
	w, bit := s>>6, uint64(1)<<(uint(s)&63)
	g.occupied[w] |= bit
	g.own[p][w] |= bit
	if g.board.islandOf[s] < 0 {
		g.freeSea--
	}
	if piece == Village {
		g.villages[p][w] |= bit
		g.numVillages[p]++
	} else {
		g.settlers[p][w] |= bit
		g.numSettlers[p]++
	}
	adj := &g.board.adj[s]
	g.reach[p][adj.word] |= adj.bits[0]
	g.reach[p][adj.word+1] |= adj.bits[1]
	g.link(p, s)
}

// endPhase scores the phase that just ended and, after the exploration
// phase, sets up the settlement phase (section 7 of the rules).
func (g *Game) endPhase() {
	scores := g.Scores()
	for p := range int(g.players) {
		g.totals[p] += scores[p].Total
	}
	g.phaseScores[g.phase] = scores
	g.breakdown |= 1 << g.phase
	if g.phase == Settlement {
		g.over = true
		return
	}
	b := g.board
	g.phase = Settlement
	g.occupied = bitset{}
	g.freeSea = int16(b.sea.count(b.words))
	for p := range int(g.players) {
		kept := g.villages[p]
		for w := range b.words {
			kept[w] &^= b.stones[w]
		}
		g.settlers[p], g.villages[p], g.own[p], g.reach[p] = bitset{}, bitset{}, bitset{}, bitset{}
		g.numSettlers[p], g.numVillages[p] = 0, 0
		g.links[p] = linkForest{}
		for s := kept.next(0, b.words); s >= 0; s = kept.next(s+1, b.words) {
			g.put(p, Village, s)
		}
	}
	g.layTokens()
	g.startPhase(int(g.current) + 1)
}

// Totals returns each player's score over the phases scored so far; entries
// past Players are zero.
func (g *Game) Totals() [MaxPlayers]int { return g.totals }

// PhaseScores returns the score breakdown of phase ph, once that phase has
// been scored. For a game read from notation in the settlement phase the
// exploration breakdown is not known (only its total is) and ok is false.
func (g *Game) PhaseScores(ph Phase) (scores [MaxPlayers]Score, ok bool) {
	if g.breakdown&(1<<ph) == 0 {
		return scores, false
	}
	return g.phaseScores[ph], true
}

// Winners returns the seats that win a finished game: the highest total, and
// among tied players the most tokens held; players still tied share the
// victory. It returns nil while the game is not over.
func (g *Game) Winners() []int {
	var win []int
	for p, m := 0, g.winners(); m != 0; p, m = p+1, m>>1 {
		if m&1 != 0 {
			win = append(win, p)
		}
	}
	return win
}

// Wins reports whether seat p is one of the winners of a finished game. It
// is Winners without the slice, for search, which asks after every playout.
func (g *Game) Wins(p int) bool { return g.winners()>>uint(p)&1 != 0 }

// winners returns the set of winning seats of a finished game as a bit mask,
// bit p for seat p, and 0 while the game is not over.
func (g *Game) winners() uint8 {
	if !g.Over() {
		return 0
	}
	var win uint8
	best := 0
	for p := range int(g.players) {
		if win == 0 {
			win, best = 1<<p, p
			continue
		}
		switch c := compareFinish(g.totals[p], g.TokensHeld(p), g.totals[best], g.TokensHeld(best)); {
		case c > 0:
			win, best = 1<<p, p
		case c == 0:
			win |= 1 << p
		}
	}
	return win
}

func compareFinish(total, tokens, otherTotal, otherTokens int) int {
	if total != otherTotal {
		if total > otherTotal {
			return 1
		}
		return -1
	}
	switch {
	case tokens > otherTokens:
		return 1
	case tokens < otherTokens:
		return -1
	}
	return 0
}
