package laguna

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/lagoon-games/lagoon/game"
)

// The pearls: six of each of four colours, one colour a seat (seat p plays
// colour p; in a game of 2 or 3 the other colours belong to nobody).
const (
	NumColours      = 4
	PearlsPerColour = 6
	NumPearls       = NumColours * PearlsPerColour
	// IslandRoom is how many pearls an island holds: its three places.
	IslandRoom = 3
	// MinAboard is the fewest pearls a raft holds once loaded.
	MinAboard = 2
)

// ColourNames are the colours' letters, seat by seat: red, yellow, green,
// blue.
const ColourNames = "RYGB"

// Target returns how many pearls of its colour a seat must deliver to the
// volcano to win: 6, 5 or 4 for 2, 3 or 4 players.
func Target(players int) int { return 8 - players }

// The phases of a game.
type phase uint8

const (
	phPlace phase = iota // the rafts are placed against the islands
	phDeal               // the players deal the pearls to the islands (variant)
	phPlay
	phOver
)

var phaseNames = [...]string{"place", "deal", "play", "over"}

// raft is a raft: where it lies and the pearls in its holes.
type raft struct {
	at     int16 // top-left square, -1 before it is placed
	orient Orient
	holes  [Holes]int8 // a pearl's colour, or -1 for an open hole
}

func (r *raft) placed() bool { return r.at >= 0 }

func (r *raft) aboard() int {
	n := 0
	for _, c := range r.holes {
		if c >= 0 {
			n++
		}
	}
	return n
}

// square returns the square under hole h.
func (r *raft) square(h int) Square { return HoleSquare(r.orient, Square(r.at), h) }

// rect returns the rows and columns the raft covers, [r0, r1) and [c0, c1).
func (r *raft) rect() (r0, c0, r1, c1 int) {
	rows, cols := extent(r.orient)
	s := Square(r.at)
	return s.Row(), s.Col(), s.Row() + rows, s.Col() + cols
}

// State is a game of Laguna, a flat value: copying it is one assignment
// (the board is shared and never changes).
type State struct {
	board   *Board
	players uint8
	// The options.
	maxAboard uint8  // 4, or 5 in the variant
	deal      bool   // the players deal the pearls to the islands
	timer     bool   // the sand timer rules; false: the variant without it
	open      bool   // the open board assist: views show under the pearls
	limit     uint16 // rounds of play after which the game stops; 0: none

	phase  phase
	seat   int8   // the seat to move
	turns  int32  // turns ended, placing and dealing included
	played int32  // turns of the play phase ended
	moved  int32  // steps of every raft since play began
	steps  uint16 // steps the raft to move has made this turn
	peeked bool   // the seat to move has looked under its pearls this turn
	// calm counts the turns of play ended in a row in which no pearl
	// changed place (loaded, unloaded, swapped, delivered, traded): a game
	// of 2 to 4 that stays calm for stallRounds rounds is over (decision
	// 22).
	calm uint16
	// with is the exchange in progress: the island (0 to 7) or the raft
	// (withRaft + seat) the seat to move has exchanged pearls with since
	// its last other action, or -1. While it lasts, what the exchange
	// uncovers has no effect: an arrow showing does not undock the raft.
	with int8

	rafts [4]raft
	// home is the island each raft was placed against.
	home [4]int8
	// begun tells whether a seat has ended a turn of play: its raft was
	// loaded at the start of its first.
	begun [4]bool
	// reefEnd tells whether a seat's last turn ended on a reef: in the
	// variant without the sand timer, only then may it move its pearls.
	reefEnd [4]bool
	islands [NumIslands][NumColours]uint8
	// target is the solo game's goal: the pearls each island must hold.
	target [NumIslands][NumColours]uint8
	// par is the solo game's par, found when the game is set up through
	// Rules (SoloPar), or -1.
	par int16
	// volcano holds the pearls in the volcano: all of them before they are
	// dealt, and those delivered.
	volcano [NumColours]uint8
}

var _ game.State = (*State)(nil)

// options are a game's options as the engine reads them.
type options struct {
	Board *Board
	// MaxAboard is 4, or 5 in the variant with easier movement.
	MaxAboard int
	// Deal lets the players deal the pearls to the islands; otherwise the
	// setup deals them at random.
	Deal bool
	// NoTimer plays the variant without the sand timer: pearls are moved
	// between holes only at the start of a turn that follows a reef.
	NoTimer bool
	// Open shows every view what lies under the pearls.
	Open bool
	// Limit stops the game after that many rounds of play (0: never); the
	// seats that delivered the most pearls then share the win.
	Limit int
	// Puzzle is the solo game's kind of target: 0 a whole deal of its own,
	// 1 to 3 the start with two pearls taken aboard and that many pearls
	// swapped between islands.
	Puzzle int
}

// newGame sets a game up for 1 to 4 players: the pearls on the islands (dealt
// at random from seed, three colours to an island, unless the players deal
// them) and the rafts waiting to be placed, seat 0 first. One player plays
// the solo game: a target arrangement of the islands' pearls, drawn from
// seed too, to reach in the fewest steps.
func newGame(players int, o options, seed uint64) (*State, error) {
	if players < 1 || players > 4 {
		return nil, fmt.Errorf("%d players; Laguna has 2 to 4, or 1 for the solo game", players)
	}
	if players == 1 && o.Deal {
		return nil, errors.New("option deal: in the solo game the pearls are dealt at random")
	}
	if o.MaxAboard == 0 {
		o.MaxAboard = 4
	}
	if o.MaxAboard != 4 && o.MaxAboard != 5 {
		return nil, fmt.Errorf("a raft carries up to 4 pearls, or 5 in the variant, not %d", o.MaxAboard)
	}
	if o.Limit < 0 || o.Limit > 65535 {
		return nil, fmt.Errorf("limit %d: 0 to 65535 rounds", o.Limit)
	}
	if o.Board == nil {
		o.Board = builtin[0]
	}
	s := &State{board: o.Board, players: uint8(players), maxAboard: uint8(o.MaxAboard), deal: o.Deal,
		timer: !o.NoTimer, open: o.Open, limit: uint16(o.Limit), par: -1, with: -1}
	for p := range s.rafts {
		s.rafts[p].at = -1
		s.home[p] = -1
		for h := range Holes {
			s.rafts[p].holes[h] = -1
		}
	}
	for c := range s.volcano {
		s.volcano[c] = PearlsPerColour
	}
	if !o.Deal {
		s.dealRandom(seed)
	}
	if o.Puzzle < 0 || o.Puzzle > 3 {
		return nil, fmt.Errorf("puzzle %d: 0 to 3", o.Puzzle)
	}
	if players == 1 {
		s.drawTarget(seed, o.Puzzle)
	}
	return s, nil
}

// drawTarget draws the solo game's goal. A raft always carries two pearls,
// so the target leaves two islands a pearl short: those two end the game
// aboard. At level 0 the rest is a deal of its own (three colours to an
// island); at level n it is the start with n swaps of two pearls of
// different colours between two islands, no island getting two of a colour.
func (s *State) drawTarget(seed uint64, level int) {
	r := rand.New(rand.NewPCG(seed, 0x74617267))
	s.target = s.islands
	if level == 0 {
		t := State{}
		t.dealRandom(seed ^ 0x736f6c6f)
		s.target = t.islands
	}
	for n := 0; n < level; {
		i, j := r.IntN(NumIslands), r.IntN(NumIslands)
		a, b := r.IntN(NumColours), r.IntN(NumColours)
		t := &s.target
		if i == j || t[i][a] == 0 || t[j][b] == 0 || t[i][b] > 0 || t[j][a] > 0 {
			continue
		}
		t[i][a], t[i][b], t[j][b], t[j][a] = 0, 1, 0, 1
		n++
	}
	first := r.IntN(NumIslands)
	second := (first + 1 + r.IntN(NumIslands-1)) % NumIslands
	for _, i := range []int{first, second} {
		k := r.IntN(IslandRoom)
		for c := range NumColours {
			if s.target[i][c] > 0 {
				if k == 0 {
					s.target[i][c]--
					break
				}
				k--
			}
		}
	}
}

// Solo reports whether the game is the solo game.
func (s *State) Solo() bool { return s.players == 1 }

// dealRandom puts three pearls of different colours on each island. Each
// island then lacks one colour, and as each colour has six pearls for eight
// islands, each colour is lacking on exactly two: a deal is which colour
// each island lacks, a shuffle of two of each.
func (s *State) dealRandom(seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x6465616c))
	lacks := [NumIslands]int{0, 0, 1, 1, 2, 2, 3, 3}
	r.Shuffle(len(lacks), func(i, j int) { lacks[i], lacks[j] = lacks[j], lacks[i] })
	for i := range NumIslands {
		for c := range NumColours {
			if c != lacks[i] {
				s.islands[i][c] = 1
				s.volcano[c]--
			}
		}
	}
}

// Board returns the board the game is played on.
func (s *State) Board() *Board { return s.board }

// Players returns the number of seats.
func (s *State) Players() int { return int(s.players) }

// ToMove returns the seat to move, or game.NoSeat once the game is over.
func (s *State) ToMove() int {
	if s.phase == phOver {
		return game.NoSeat
	}
	return int(s.seat)
}

// Over reports whether the game is over.
func (s *State) Over() bool { return s.phase == phOver }

// Turn counts the turns ended: each raft placed, each pearl dealt and each
// turn of play. The sand timer restarts when it changes.
func (s *State) Turn() int { return int(s.turns) }

// Delivered returns the pearls of seat p's colour in the volcano, once
// play has begun: its score.
func (s *State) Delivered(p int) int {
	if s.phase < phPlay {
		return 0
	}
	return int(s.volcano[p])
}

// The moves, numbered: each kind takes a block of numbers.
const (
	mStep    = 0   // + direction
	mEnd     = 4   // end the turn
	mPeek    = 5   // look under one's pearls
	mShift   = 6   // + from*6 + to: move a pearl between holes
	mLoad    = 42  // + hole*4 + colour: take a pearl from the island
	mUnload  = 66  // + hole: leave a pearl on the island
	mSwap    = 72  // + hole*4 + colour: the hole's pearl for one of the island's
	mDeliver = 96  // + hole: unload a pearl of one's colour at the volcano
	mTrade   = 102 // + seat*36 + mine*6 + theirs: exchange with another raft
	mPut     = 246 // + island*4 + colour: deal a pearl (variant)
	mPlace   = 278 // + orient*576 + square: place one's raft
	numMoves = mPlace + 2*NumSquares
)

// Step returns the move that steps the raft one square in direction d.
func Step(d Dir) game.Move { return game.Move(mStep + int(d)) }

// End is the move that ends the turn.
const End game.Move = mEnd

// Peek is the move that looks under one's own pearls, before the first step
// of a turn.
const Peek game.Move = mPeek

// Shift moves the pearl in hole from to the open hole to (holes 0 to 5).
func Shift(from, to int) game.Move { return game.Move(mShift + from*Holes + to) }

// Load takes a pearl of colour c from the island into open hole h.
func Load(h, c int) game.Move { return game.Move(mLoad + h*NumColours + c) }

// Unload leaves the pearl in hole h on the island.
func Unload(h int) game.Move { return game.Move(mUnload + h) }

// Swap leaves the pearl in hole h on the island and takes one of colour c
// into the hole.
func Swap(h, c int) game.Move { return game.Move(mSwap + h*NumColours + c) }

// Deliver unloads the pearl in hole h at the volcano.
func Deliver(h int) game.Move { return game.Move(mDeliver + h) }

// Trade exchanges one pearl with seat q's raft: the pearl in one's hole
// mine goes to the same hole of q's raft, and q's pearl in its hole theirs
// comes to the same hole of one's own (the same hole: a swap in place).
func Trade(q, mine, theirs int) game.Move {
	return game.Move(mTrade + q*Holes*Holes + mine*Holes + theirs)
}

// Put deals a pearl of colour c from the volcano to island i (variant).
func Put(i, c int) game.Move { return game.Move(mPut + i*NumColours + c) }

// Place places one's raft, lying o, with its top-left square at sq.
func Place(o Orient, sq Square) game.Move { return game.Move(mPlace + int(o)*NumSquares + int(sq)) }

// showing returns what shows through the open holes of seat p's raft:
// whether a reef, and the directions of the arrows.
func (s *State) showing(p int) (reef bool, arrows uint8) {
	r := &s.rafts[p]
	for h := range Holes {
		if r.holes[h] >= 0 {
			continue
		}
		switch k := s.board.kind[r.square(h)]; {
		case k == Reef:
			reef = true
		case k.IsArrow():
			arrows |= 1 << k.Dir()
		}
	}
	return reef, arrows
}

// canStep reports whether seat p's raft can step in direction d: it stays
// on water inside the board and off the other rafts.
func (s *State) canStep(p int, d Dir) bool {
	r := s.rafts[p]
	t, ok := step(r.orient, Square(r.at), d)
	if !ok || !s.board.fits[r.orient][t] {
		return false
	}
	r.at = int16(t)
	return !s.overlaps(p, &r)
}

// overlaps reports whether raft r, seat p's raft somewhere, lies on another
// placed raft.
func (s *State) overlaps(p int, r *raft) bool {
	r0, c0, r1, c1 := r.rect()
	for q := range int(s.players) {
		o := &s.rafts[q]
		if q == p || !o.placed() {
			continue
		}
		q0, d0, q1, d1 := o.rect()
		if r0 < q1 && q0 < r1 && c0 < d1 && d0 < c1 {
			return true
		}
	}
	return false
}

// touching reports whether the rafts of p and q touch along an edge.
func (s *State) touching(p, q int) bool {
	r0, c0, r1, c1 := s.rafts[p].rect()
	q0, d0, q1, d1 := s.rafts[q].rect()
	rows := r0 < q1 && q0 < r1
	cols := c0 < d1 && d0 < c1
	return rows && (c1 == d0 || d1 == c0) || cols && (r1 == q0 || q1 == r0)
}

// stepDirs returns the directions seat p may step in now: none while a
// reef shows; those of the arrows showing that it can follow; every
// direction it can step in when no arrow shows or it can follow none.
func (s *State) stepDirs(p int) uint8 {
	reef, arrows := s.showing(p)
	return s.stepsWith(p, reef, arrows)
}

// stepsWith is stepDirs with what shows through the raft worked out.
func (s *State) stepsWith(p int, reef bool, arrows uint8) uint8 {
	if reef {
		return 0
	}
	var can uint8
	for d := range Dir(4) {
		if s.canStep(p, d) {
			can |= 1 << d
		}
	}
	if arrows&can != 0 {
		return arrows & can
	}
	return can
}

// withRaft + q in State.with is an exchange with seat q's raft.
const withRaft = 16

// docked returns the place (island or volcano) seat p's raft is docked at,
// touching it with no arrow showing, or -1. An island the seat to move is
// exchanging pearls with stays its dock whatever the exchange uncovered.
func (s *State) docked(p int) int {
	if p == int(s.seat) && s.with >= 0 && s.with < NumIslands {
		return int(s.with)
	}
	_, arrows := s.showing(p)
	if arrows != 0 {
		return -1
	}
	return int(s.board.touch[s.rafts[p].orient][s.rafts[p].at])
}

// mayTrade reports whether the seat to move, with arrows showing through
// its raft, may exchange with seat q's raft, which touches it: docked (no
// arrow showing), or already exchanging with it.
func (s *State) mayTrade(q int, arrows uint8) bool {
	return arrows == 0 || int(s.with) == withRaft+q
}

// mayShift reports whether seat p, to move, may move pearls between holes
// now (reef: whether a reef shows through its raft). With the sand timer it
// may at any time; without, only before the first step of a turn that a
// reef ended, while a reef shows (to cover it).
func (s *State) mayShift(p int, reef bool) bool {
	return s.timer || s.reefEnd[p] && s.steps == 0 && reef
}

// validShift reports whether hole from of seat p's raft holds a pearl and
// hole to is open.
func (s *State) validShift(p, from, to int) bool {
	r := &s.rafts[p]
	return r.holes[from] >= 0 && r.holes[to] < 0
}

// shiftUncovers reports whether moving the pearl in hole h of seat p's raft
// is refused because it would uncover a reef or an arrow before the raft's
// first step of the turn: then the rulebook allows the pearls to be moved
// only on that condition (decision 21).
func (s *State) shiftUncovers(p, h int) bool {
	if s.steps > 0 {
		return false
	}
	k := s.board.kind[s.rafts[p].square(h)]
	return k == Reef || k.IsArrow()
}

// loadingAtHome reports whether the seat to move may load from its home
// island without docking: the loading at the start of its first turn (up
// to 3 pearls), or a raft still short of two pearls, before it sails.
func (s *State) loadingAtHome() bool {
	p := s.seat
	n := s.rafts[p].aboard()
	return s.steps == 0 && (n < 3 && !s.begun[p] || n < MinAboard)
}

// AppendLegal appends the legal moves of the seat to move, in the order of
// their numbers.
func (s *State) AppendLegal(dst []game.Move) []game.Move {
	p := int(s.seat)
	switch s.phase {
	case phPlace:
		for o := range Orient(2) {
			for sq := range Square(NumSquares) {
				if s.canPlace(p, o, sq) {
					dst = append(dst, Place(o, sq))
				}
			}
		}
	case phDeal:
		for i := range NumIslands {
			for c := range NumColours {
				if s.canPut(p, i, c) {
					dst = append(dst, Put(i, c))
				}
			}
		}
	case phPlay:
		dst = s.appendPlay(dst, p)
	}
	return dst
}

func (s *State) appendPlay(dst []game.Move, p int) []game.Move {
	r := &s.rafts[p]
	n := r.aboard()
	if n < MinAboard {
		start := len(dst)
		dst = s.appendLoads(dst, p, int(s.home[p]), MinAboard+1)
		if len(dst) == start {
			dst = append(dst, End) // nothing to load: it waits
		}
		return dst
	}
	reef, arrows := s.showing(p)
	dirs := s.stepsWith(p, reef, arrows)
	for d := range Dir(4) {
		if dirs>>d&1 != 0 {
			dst = append(dst, Step(d))
		}
	}
	dst = append(dst, End)
	if s.steps == 0 && !s.peeked {
		dst = append(dst, Peek)
	}
	if s.mayShift(p, reef) {
		for from := range Holes {
			for to := range Holes {
				if s.validShift(p, from, to) && !s.shiftUncovers(p, from) {
					dst = append(dst, Shift(from, to))
				}
			}
		}
	}
	dst = s.appendDocked(dst, p)
	for q := range int(s.players) {
		if q == p || !s.mayTrade(q, arrows) || !s.touching(p, q) {
			continue
		}
		o := &s.rafts[q]
		for mine := range Holes {
			for theirs := range Holes {
				if s.canTrade(r, o, mine, theirs) {
					dst = append(dst, Trade(q, mine, theirs))
				}
			}
		}
	}
	return dst
}

// appendDocked appends the loads, unloads, swaps and deliveries of seat p,
// which holds at least two pearls.
func (s *State) appendDocked(dst []game.Move, p int) []game.Move {
	r := &s.rafts[p]
	n := r.aboard()
	dock := s.docked(p)
	switch {
	case dock >= 0 && dock < NumIslands:
		dst = s.appendLoads(dst, p, dock, int(s.maxAboard))
	case s.loadingAtHome():
		dst = s.appendLoads(dst, p, int(s.home[p]), 3)
	}
	if dock >= 0 && dock < NumIslands {
		room := s.islandCount(dock) < IslandRoom
		for h := range Holes {
			if r.holes[h] >= 0 && n > MinAboard && room {
				dst = append(dst, Unload(h))
			}
		}
		for h := range Holes {
			for c := range NumColours {
				if r.holes[h] >= 0 && int(r.holes[h]) != c && s.islands[dock][c] > 0 {
					dst = append(dst, Swap(h, c))
				}
			}
		}
	}
	if dock == Volcano && n > MinAboard && !s.Solo() {
		for h := range Holes {
			if int(r.holes[h]) == p {
				dst = append(dst, Deliver(h))
			}
		}
	}
	return dst
}

// appendLoads appends the loads from island i while the raft holds fewer
// than up pearls.
func (s *State) appendLoads(dst []game.Move, p, i, up int) []game.Move {
	r := &s.rafts[p]
	if r.aboard() >= up {
		return dst
	}
	for h := range Holes {
		for c := range NumColours {
			if r.holes[h] < 0 && s.islands[i][c] > 0 {
				dst = append(dst, Load(h, c))
			}
		}
	}
	return dst
}

func (s *State) canTrade(r, o *raft, mine, theirs int) bool {
	if r.holes[mine] < 0 || o.holes[theirs] < 0 {
		return false
	}
	if mine == theirs {
		return r.holes[mine] != o.holes[mine]
	}
	return o.holes[mine] < 0 && r.holes[theirs] < 0
}

func (s *State) islandCount(i int) int {
	n := 0
	for _, c := range s.islands[i] {
		n += int(c)
	}
	return n
}

// canPlace reports whether seat p may place its raft lying o at sq: against
// the landing line of an island no other raft was placed at, on water, off
// the other rafts.
func (s *State) canPlace(p int, o Orient, sq Square) bool {
	i := s.board.start[o][sq]
	if i < 0 || !s.board.fits[o][sq] {
		return false
	}
	for q := range int(s.players) {
		if q != p && s.home[q] == i {
			return false
		}
	}
	r := raft{at: int16(sq), orient: o}
	return !s.overlaps(p, &r)
}

// canPut reports whether seat p may deal a pearl of colour c to island i:
// not its own colour, one is left in the volcano, the island has room and
// no pearl of that colour, and the pearls left can still all be dealt.
func (s *State) canPut(p, i, c int) bool {
	if c == p || s.volcano[c] == 0 || s.islands[i][c] > 0 || s.islandCount(i) >= IslandRoom {
		return false
	}
	t := *s
	t.volcano[c]--
	t.islands[i][c]++
	return t.dealable()
}

// dealable reports whether the pearls left in the volcano can all be dealt,
// at most one of a colour to an island and three to an island: for every
// set of colours, their pearls fit in the room the islands have for them
// (Hall's condition for this transport, which is exact for it).
func (s *State) dealable() bool {
	for set := 1; set < 1<<NumColours; set++ {
		need, room := 0, 0
		for c := range NumColours {
			if set>>c&1 != 0 {
				need += int(s.volcano[c])
			}
		}
		for i := range NumIslands {
			free, fits := IslandRoom-s.islandCount(i), 0
			for c := range NumColours {
				if set>>c&1 != 0 && s.islands[i][c] == 0 {
					fits++
				}
			}
			room += min(free, fits)
		}
		if need > room {
			return false
		}
	}
	return true
}

// dealer returns the next seat from p on (p included) that can deal a
// pearl, or -1 when none is left.
func (s *State) dealer(p int) int {
	for k := range int(s.players) {
		q := (p + k) % int(s.players)
		for i := range NumIslands {
			for c := range NumColours {
				if s.canPut(q, i, c) {
					return q
				}
			}
		}
	}
	return -1
}

// Play checks m and plays it for the seat to move; a refused move changes
// nothing.
func (s *State) Play(m game.Move) error {
	if !s.legal(m) {
		return s.refusal(m)
	}
	s.play(m)
	return nil
}

// legal reports whether m is among the legal moves, checking only what m
// needs (TestOnlyListedMovesPlay holds it to AppendLegal).
func (s *State) legal(m game.Move) bool {
	p := int(s.seat)
	r := &s.rafts[p]
	var buf [64]game.Move
	switch {
	case m < 0 || m >= numMoves || s.phase == phOver:
		return false
	case s.phase == phPlace:
		k := int(m - mPlace)
		return m >= mPlace && s.canPlace(p, Orient(k/NumSquares), Square(k%NumSquares))
	case s.phase == phDeal:
		k := int(m - mPut)
		return m >= mPut && m < mPlace && s.canPut(p, k/NumColours, k%NumColours)
	case m >= mPut || r.aboard() < MinAboard:
		return slices.Contains(s.appendPlay(buf[:0], p), m)
	case m < mEnd:
		return s.stepDirs(p)>>m&1 != 0
	case m == mEnd:
		return true
	case m == mPeek:
		return s.steps == 0 && !s.peeked
	case m < mLoad:
		from, to := int(m-mShift)/Holes, int(m-mShift)%Holes
		reef, _ := s.showing(p)
		return s.mayShift(p, reef) && s.validShift(p, from, to) && !s.shiftUncovers(p, from)
	case m < mTrade:
		return slices.Contains(s.appendDocked(buf[:0], p), m)
	}
	k := int(m - mTrade)
	q, mine, theirs := k/(Holes*Holes), k/Holes%Holes, k%Holes
	_, arrows := s.showing(p)
	return q != p && q < int(s.players) && s.mayTrade(q, arrows) && s.touching(p, q) && s.canTrade(r, &s.rafts[q], mine, theirs)
}

// play plays m, which must be legal.
func (s *State) play(m game.Move) {
	p := int(s.seat)
	r := &s.rafts[p]
	// An exchange lasts while the seat exchanges with the same island or
	// raft; any other action ends it (a peek changes nothing).
	with := int8(-1)
	switch {
	case m == mPeek:
		with = s.with
	case m >= mLoad && m < mDeliver:
		if d := s.docked(p); d >= 0 && d < NumIslands {
			with = int8(d)
		}
	case m >= mTrade && m < mPut:
		with = int8(withRaft + int(m-mTrade)/(Holes*Holes))
	}
	s.with = with
	if m >= mLoad && m < mPut {
		s.calm = 0 // a pearl changes place
	}
	switch {
	case m < mEnd:
		t, _ := step(r.orient, Square(r.at), Dir(m-mStep))
		r.at = int16(t)
		s.steps = min(s.steps+1, 1<<16-1) // a turn of 65535 steps peeks no more
		s.moved++
		s.peeked = false
		if reef, _ := s.showing(p); reef {
			s.endTurn(true)
		}
	case m == mEnd:
		s.endTurn(false)
	case m == mPeek:
		s.peeked = true
	case m < mLoad:
		from, to := int(m-mShift)/Holes, int(m-mShift)%Holes
		r.holes[to], r.holes[from] = r.holes[from], -1
		if s.board.kind[r.square(from)] == Reef {
			s.endTurn(true)
		}
	case m < mDeliver:
		s.playIsland(p, m)
	case m < mTrade:
		s.playDeliver(p, int(m-mDeliver))
	case m < mPut:
		k := int(m - mTrade)
		s.playTrade(r, &s.rafts[k/(Holes*Holes)], k/Holes%Holes, k%Holes)
	case m < mPlace:
		s.playPut(p, int(m-mPut)/NumColours, int(m-mPut)%NumColours)
	default:
		k := int(m - mPlace)
		s.playPlace(p, Orient(k/NumSquares), Square(k%NumSquares))
	}
}

// playIsland plays m, a load, an unload or a swap of seat p with the island
// its raft is docked at (or loading at the start, its home island).
func (s *State) playIsland(p int, m game.Move) {
	r := &s.rafts[p]
	switch {
	case m < mUnload:
		h, c := int(m-mLoad)/NumColours, int(m-mLoad)%NumColours
		i := s.dockOrHome(p)
		s.islands[i][c]--
		r.holes[h] = int8(c)
	case m < mSwap:
		h := int(m - mUnload)
		s.islands[s.docked(p)][r.holes[h]]++
		r.holes[h] = -1
	default:
		h, c := int(m-mSwap)/NumColours, int(m-mSwap)%NumColours
		i := s.docked(p)
		s.islands[i][r.holes[h]]++
		s.islands[i][c]--
		r.holes[h] = int8(c)
	}
	s.solved()
}

// playDeliver delivers the pearl in hole h of seat p's raft: the game ends
// when the seat has delivered its number, the turn when the hole uncovers
// a reef.
func (s *State) playDeliver(p, h int) {
	r := &s.rafts[p]
	s.volcano[p]++
	r.holes[h] = -1
	switch {
	case int(s.volcano[p]) >= Target(int(s.players)):
		s.phase = phOver
	case s.board.kind[r.square(h)] == Reef:
		s.endTurn(true)
	}
}

// playTrade exchanges the pearl in hole mine of raft r with the one in hole
// theirs of raft o, each landing in the same hole of the other raft.
func (s *State) playTrade(r, o *raft, mine, theirs int) {
	a, b := r.holes[mine], o.holes[theirs]
	r.holes[mine], o.holes[theirs] = -1, -1
	o.holes[mine], r.holes[theirs] = a, b
}

// playPut deals a pearl of colour c to island i, and passes the deal to the
// next seat that deals, or, when the pearls are dealt, begins the play.
func (s *State) playPut(p, i, c int) {
	s.volcano[c]--
	s.islands[i][c]++
	s.turns++
	if q := s.dealer((p + 1) % int(s.players)); q >= 0 {
		s.seat = int8(q)
	} else {
		s.phase, s.seat = phPlay, 0
	}
}

// playPlace places seat p's raft lying o at sq, and passes the placing to
// the next seat, or, when every raft lies on the board, begins the deal
// (variant) or the play.
func (s *State) playPlace(p int, o Orient, sq Square) {
	r := &s.rafts[p]
	r.at, r.orient = int16(sq), o
	s.home[p] = s.board.start[o][sq]
	s.turns++
	s.seat++
	if int(s.seat) == int(s.players) {
		s.seat = 0
		s.phase = phPlay
		if s.deal {
			s.phase = phDeal
			s.seat = int8(s.dealer(0))
		}
	}
}

// solved ends the solo game when the islands hold the target.
func (s *State) solved() {
	if s.Solo() && s.islands == s.target && s.rafts[0].aboard() >= MinAboard {
		s.phase, s.with = phOver, -1 // the exchange ends with the game
	}
}

// dockOrHome returns the island seat p loads from: the one it is docked at,
// or its home island while it loads at the start.
func (s *State) dockOrHome(p int) int {
	if d := s.docked(p); d >= 0 && d < NumIslands {
		return d
	}
	return int(s.home[p])
}

// endTurn ends the turn of play of the seat to move, on a reef or not.
func (s *State) endTurn(reef bool) {
	p := s.seat
	s.begun[p] = true
	s.reefEnd[p] = reef
	s.steps, s.peeked, s.with = 0, false, -1
	s.turns++
	s.played++
	s.seat = (p + 1) % int8(s.players)
	s.calm = min(s.calm+1, 1<<16-1)
	switch {
	case s.limit > 0 && !s.Solo() && int(s.played) >= int(s.limit)*int(s.players):
		s.phase = phOver
	case !s.Solo() && int(s.calm) >= stallRounds*int(s.players):
		s.phase = phOver // no pearl moved for stallRounds rounds
	case s.Solo() && s.stuck():
		s.phase = phOver // the raft can never do anything again
	}
}

// stallRounds is how many rounds of play in which no pearl changes place
// end a game of 2 to 4 players (decision 22): far more than any voyage
// between two places takes, so only a game in which no raft can make
// progress (or none tries) comes to it.
const stallRounds = 20

// stuck reports whether the solo raft, at the start of its turn, can do
// nothing but end its turn (or peek): with no other raft on the board the
// next turn begins the same way, for ever (decision 22).
func (s *State) stuck() bool {
	var buf [512]game.Move
	for _, m := range s.AppendLegal(buf[:0]) {
		if m != End && m != Peek {
			return false
		}
	}
	return true
}

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// CopyFrom makes s a copy of src, which must be a *State.
func (s *State) CopyFrom(src game.State) { *s = *src.(*State) }

// Resample does nothing: no seat is kept from anything. The board is
// public and the pearls were dealt in the open; what lies under a raft's
// pearls is on the board for anyone who remembers it.
func (s *State) Resample(int, *rand.Rand) {}

// Secret reports false: the seed only deals the pearls, which everybody
// sees.
func (s *State) Secret() bool { return false }

// Revealed is 0 (game.Revealer): the deal is the setup's, and no move
// draws anything, so a take-back may go back as far as the first move.
func (s *State) Revealed() int { return 0 }

// TimeUp returns End when the turn may end: the sand has run out.
func (s *State) TimeUp() (game.Move, bool) {
	if s.phase != phPlay {
		return 0, false
	}
	var buf [512]game.Move
	if slices.Contains(s.AppendLegal(buf[:0]), End) {
		return End, true
	}
	return 0, false
}

// Standing returns the phase, the pearls each seat has delivered and, once
// the game is over, the winner: the seat that delivered its number, or,
// when the round limit stopped the game, those that delivered the most. In
// the solo game the score is the steps taken so far (the fewer the
// better), and the game is over, won, when the islands hold the target.
func (s *State) Standing() game.Standing {
	n := int(s.players)
	st := game.Standing{Phase: phaseNames[s.phase], Scores: make([]int, n)}
	for p := range n {
		st.Scores[p] = s.Delivered(p)
	}
	if s.Solo() {
		st.Scores[0] = int(s.moved)
	}
	if s.phase != phOver {
		return st
	}
	if s.Solo() && s.islands != s.target {
		return st // stuck, the puzzle unsolved: no winner
	}
	best := slices.Max(st.Scores)
	for p, v := range st.Scores {
		if v == best {
			st.Winners = append(st.Winners, p)
		}
	}
	return st
}
