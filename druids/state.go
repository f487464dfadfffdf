package druids

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// MaxPlayers is the most seats at a table; four play as two teams.
const MaxPlayers = 4

// Where a tile is.
const (
	locOut   = iota // not in the play set
	locBag          // in the draw bag
	locPlay         // in the world
	locHand         // drawn, being explored
	locScore        // in a score area: locScore+seat
)

// The steps of a turn, and the end.
const (
	stepBegin = iota
	stepRefresh
	stepAction
	stepEnd
	stepOver
)

var stepNames = [...]string{"begin", "refresh", "action", "end", "over"}

// A druid names a druid token by where it is and what it is: seat<<7 |
// eldrid<<6 | exhausted<<5 | tile. Acolytes of a circle on the same site in
// the same state are alike, so one number stands for any of them.
type druid uint16

const noDruid = druid(0xffff)

func mkDruid(p int, eldrid, exhausted bool, t int) druid {
	d := druid(p<<7 | t)
	if eldrid {
		d |= 1 << 6
	}
	if exhausted {
		d |= 1 << 5
	}
	return d
}

func (d druid) seat() int       { return int(d >> 7) }
func (d druid) eldrid() bool    { return d>>6&1 != 0 }
func (d druid) exhausted() bool { return d>>5&1 != 0 }
func (d druid) tile() int       { return int(d & 31) }
func (d druid) with(ex bool) druid {
	if ex {
		return d | 1<<5
	}
	return d &^ (1 << 5)
}
func (d druid) at(t int) druid { return d&^31 | druid(t) }

// A frame is an action or a triggered effect being resolved: a program of
// steps (ops) and what its steps have chosen so far.
type frame struct {
	prog    uint8 // the program: a site's number, or a basic program
	pc      uint8 // the step being resolved
	sub     uint8 // the stage within the step
	seat    int8  // who decides
	seed    int8  // the energy of the seed given up, -1 before
	t       int8  // a tile chosen: explored, unravelled, moved
	t2      int8  // a second tile
	invTile int8  // the site the invoking druid was on when invoked
	mask    uint8 // seats that stood on a site as it was unravelled
	inv     druid // the invoking druid, as it is now
	d       druid // a druid chosen

	// The counting registers, each of one op; the notation writes them in
	// one column (framenotation.go).
	side     uint8      // the side the explored tile shows, once chosen
	summoned summonWhat // what a summon brings, once chosen
	given    int8       // seeds given up to Song of Seeds
	left     int8       // druids a refresh may still refresh
}

// A summonWhat is what a summon brings onto the board.
type summonWhat uint8

const (
	summonUnchosen summonWhat = iota
	summonEldrid              // the Eldrid, from the supply
	summonAcolyte             // an acolyte from the supply
	summonTaken               // an acolyte taken back from the board
)

const maxDepth = 8

// State is a game of Lagoon: Land of Druids, a flat value: copying it is
// one assignment.
type State struct {
	players uint8
	first   uint8
	active  uint8
	step    uint8
	turns   int32
	ply     int32 // decisions made since the game began
	// revealed counts the generator's draws since the state was set up or
	// read (Revealed): a tile out of the bag, AJ's token, AJ's pick.
	revealed int32

	loc    [NumTiles]uint8 // where each tile is
	side   [NumTiles]uint8 // the side face up in play or in a score area
	cell   [NumTiles]int16 // the cell of a tile in play
	inPlay uint32
	bag    uint32
	set    uint32 // the play set

	eld    [MaxPlayers]int8 // each Eldrid's tile, -1 in the supply
	eldEx  [MaxPlayers]bool // each Eldrid exhausted
	acoR   [MaxPlayers][NumTiles]uint8
	acoE   [MaxPlayers][NumTiles]uint8
	acoSup [MaxPlayers]uint8
	marker [MaxPlayers]bool // player markers exhausted
	seeds  [MaxPlayers][NumEnergies]uint8

	used      uint64 // sites used this turn (once a turn, and timely ones this step)
	unravels  uint8  // sites unravelled this turn
	refreshes uint8  // druids refreshed in this Refresh step

	depth uint8
	stack [maxDepth]frame

	// Masks of tiles kept up to date as druids and sites change: where
	// each seat has a druid, a refreshed one, an exhausted one; the havens
	// and each energy's sites in play.
	occ        [MaxPlayers]uint32
	fresh      [MaxPlayers]uint32
	tired      [MaxPlayers]uint32
	havenMask  uint32
	energyMask [NumEnergies]uint32
	faceUp     uint64 // the sites face up in play, by site number

	// Each site's neighbours, kept as sites move; the locked sites,
	// rebuilt when worldOK is false.
	adj     [NumTiles]uint32
	worldOK bool
	locked  uint32

	// The solo game against AJ (aj.go): his level, how many havens have
	// brought him an Eldrid, his token bag by circle, the seeds he gave up
	// onto unravelled sites (Acolyte level and above), and what he did in
	// his last turn (for the log; not part of the notation).
	aj       uint8
	ajShrewd bool // ties go to the play best for AJ's position
	ajHavens uint8
	tokens   [8]uint8
	ajSpent  [NumEnergies]uint8
	ajEvents uint8
	ajEvent  [24]ajEvent

	rng  rand.PCG
	grid [numCells]int8 // tile+1 at each cell, 0 for an empty space
}

// config is a game's setup in the engine's terms.
type config struct {
	Players int
	First   int
	Set     []int  // tile numbers, 1 to 27
	Start   [3]int // starting sites by number (2*(tile-1)+side); all -1 for a random start
	Seed    uint64
	// AJ, if not 0 (AJInitiate to AJLegend), plays seat 2 of a two-seat
	// game by the solo rules; the player in seat 1 moves first. With
	// AJShrewd his ties go to the play best for his position rather than
	// to the generator (the rulebook's harder option).
	AJ       int
	AJShrewd bool
}

// PlaySets are the recommended play sets by name.
var PlaySets = map[string]string{
	"beginner": "1-21",
	"regular":  "1-24",
	"advanced": "1-6,10-27",
	"all":      "1-27",
}

// Starts are the recommended starting setups by name.
var Starts = map[string]string{
	"gruu":     "1A 14A 21A",
	"paradise": "2B 16B 18B",
	"river":    "5A 15A 19A",
}

// ParseSet reads a play set: a name of PlaySets, or tile numbers and
// ranges separated by commas ("1-6,10-27"). A play set holds as many tiles
// of each group, at least three in all.
func ParseSet(text string) ([]int, error) {
	if named, ok := PlaySets[text]; ok {
		text = named
	}
	var tiles []int
	for part := range strings.SplitSeq(text, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b > NumTiles || a > b {
			return nil, fmt.Errorf("play set %q: %q is not a tile number or range of 1 to %d", text, part, NumTiles)
		}
		for n := a; n <= b; n++ {
			if slices.Contains(tiles, n) {
				return nil, fmt.Errorf("play set %q: tile %d twice", text, n)
			}
			tiles = append(tiles, n)
		}
	}
	var groups [3]int
	for _, n := range tiles {
		groups[(n-1)%3]++
	}
	if groups[0] != groups[1] || groups[1] != groups[2] || len(tiles) < 6 {
		return nil, fmt.Errorf("play set %q: %d, %d and %d tiles of groups I, II and III; a play set has as many of each group, at least two", text, groups[0], groups[1], groups[2])
	}
	slices.Sort(tiles)
	return tiles, nil
}

// ParseSiteID reads a site's identifier, "14A", as its number.
func ParseSiteID(text string) (int, error) {
	if len(text) < 2 {
		return 0, fmt.Errorf("site %q: a site is a tile number and a side, as 14A", text)
	}
	side := strings.IndexByte("AB", text[len(text)-1])
	n, err := strconv.Atoi(text[:len(text)-1])
	if side < 0 || err != nil || n < 1 || n > NumTiles || text[0] == '0' || text[0] == '+' {
		return 0, fmt.Errorf("site %q: a site is a tile number (1 to %d) and a side (A or B), as 14A", text, NumTiles)
	}
	return siteOf(n-1, side), nil
}

// ParseStart reads a starting setup: a name of Starts, "random", or three
// sites ("1A 14A 21A"). Random is all -1.
func ParseStart(text string) ([3]int, error) {
	if text == "random" {
		return [3]int{-1, -1, -1}, nil
	}
	if named, ok := Starts[text]; ok {
		text = named
	}
	var start [3]int
	f := strings.Fields(text)
	if len(f) != 3 {
		return start, fmt.Errorf("start %q: three sites, as 1A 14A 21A, or random, gruu, paradise or river", text)
	}
	for i, id := range f {
		site, err := ParseSiteID(id)
		if err != nil {
			return start, fmt.Errorf("start: %w", err)
		}
		start[i] = site
	}
	return start, nil
}

// checkStart checks three starting sites against the play set: three
// tiles of the set, exactly one haven, three energies.
func checkStart(start [3]int, set uint32) error {
	havens := 0
	var energies [NumEnergies]bool
	var tiles uint32
	for _, site := range start {
		t := site / 2
		if set>>t&1 == 0 {
			return fmt.Errorf("start: tile %d is not in the play set", tileNumber(t))
		}
		if tiles>>t&1 != 0 {
			return fmt.Errorf("start: tile %d twice", tileNumber(t))
		}
		tiles |= 1 << t
		if Sites[site].Type == Haven {
			havens++
		}
		energies[Sites[site].Energy] = true
	}
	if havens != 1 || !energies[0] || !energies[1] || !energies[2] {
		return errors.New("start: the three sites must show exactly one haven and one site of each energy")
	}
	return nil
}

// randomStart picks a starting setup from the play set: one tile of each
// group, the same side of each (which gives one site of each energy), with
// exactly one haven among them.
func randomStart(set uint32, rng *rand.PCG) ([3]int, error) {
	var options [][3]int
	var groups [3][]int
	eachTile(set, func(t int) { groups[t%3] = append(groups[t%3], t) })
	for _, a := range groups[0] {
		for _, b := range groups[1] {
			for _, c := range groups[2] {
				for side := range 2 {
					start := [3]int{siteOf(a, side), siteOf(b, side), siteOf(c, side)}
					if checkStart(start, set) == nil {
						options = append(options, start)
					}
				}
			}
		}
	}
	if len(options) == 0 {
		return [3]int{}, errors.New("start: the play set allows no starting setup (it needs a haven)")
	}
	return options[rng.Uint64()%uint64(len(options))], nil
}

// newGame sets a game up.
func newGame(cfg config) (*State, error) {
	if cfg.Players < 2 || cfg.Players > MaxPlayers {
		return nil, fmt.Errorf("%d players; a game has 2 to %d", cfg.Players, MaxPlayers)
	}
	if cfg.First < 0 || cfg.First >= cfg.Players {
		return nil, fmt.Errorf("first player %d is not a seat", cfg.First)
	}
	if cfg.AJ != ajOff && (cfg.Players != 2 || cfg.First != 0 || cfg.AJ < AJInitiate || cfg.AJ > AJLegend) {
		return nil, errors.New("aj: AJ plays seat 2 of a two-seat game, and the player in seat 1 goes first")
	}
	s := &State{players: uint8(cfg.Players), first: uint8(cfg.First), active: uint8(cfg.First)}
	s.rng.Seed(cfg.Seed, 0x6472756964)
	for _, n := range cfg.Set {
		s.set |= 1 << (n - 1)
	}
	start := cfg.Start
	if start[0] < 0 {
		var err error
		if start, err = randomStart(s.set, &s.rng); err != nil {
			return nil, err
		}
	} else if err := checkStart(start, s.set); err != nil {
		return nil, err
	}
	s.bag = s.set
	for t := range NumTiles {
		if s.set>>t&1 != 0 {
			s.loc[t] = locBag
		}
	}
	centre := cellAt(gridW/2, gridW/2)
	cells := [3]int{centre, centre + 1, centre + gridW}
	haven := 0
	for i, site := range start {
		t := site / 2
		s.bag &^= 1 << t
		s.place(t, site%2, cells[i])
		if Sites[site].Type == Haven {
			haven = t
		}
	}
	for p := range cfg.Players {
		s.eld[p] = int8(haven)
		s.acoR[p][haven] = 1
		s.acoSup[p] = 3
	}
	for p := cfg.Players; p < MaxPlayers; p++ {
		s.eld[p] = -1
	}
	if cfg.AJ != ajOff {
		// AJ has no acolytes on the board: his Hare Eldrid alone starts on
		// the haven, its path's acolytes go into his token bag.
		s.aj = uint8(cfg.AJ)
		s.ajShrewd = cfg.AJShrewd
		s.acoR[ajSeat][haven] = 0
		s.acoSup[ajSeat] = 0
		s.tokens[ajCircle(1)], s.tokens[ajCircle(1)+1] = 4, 4
	}
	s.rebuildMasks()
	s.startTurn()
	return s, nil
}

// draw takes a tile from the bag by the generator and holds it in hand.
func (s *State) draw() int {
	s.revealed++
	k := int(s.rng.Uint64() % uint64(bits.OnesCount32(s.bag)))
	m := s.bag
	for range k {
		m &= m - 1
	}
	t := bits.TrailingZeros32(m)
	s.bag &^= 1 << t
	s.loc[t] = locHand
	return t
}

// count returns how many druids d stands for.
func (s *State) count(d druid) int {
	p, t := d.seat(), d.tile()
	if d.eldrid() {
		if int(s.eld[p]) == t && s.eldEx[p] == d.exhausted() {
			return 1
		}
		return 0
	}
	if d.exhausted() {
		return int(s.acoE[p][t])
	}
	return int(s.acoR[p][t])
}

// take removes one druid d from the board.
func (s *State) take(d druid) {
	s.dec(d)
	s.touch(d.seat(), d.tile())
}

// put sets druid d on the board.
func (s *State) put(d druid) {
	s.inc(d)
	s.touch(d.seat(), d.tile())
}

// dec removes one druid d from the board, leaving the masks to the caller.
func (s *State) dec(d druid) {
	p, t := d.seat(), d.tile()
	switch {
	case d.eldrid():
		s.eld[p] = -1
		s.eldEx[p] = false
	case d.exhausted():
		s.acoE[p][t]--
	default:
		s.acoR[p][t]--
	}
}

// inc sets druid d on the board, leaving the masks to the caller.
func (s *State) inc(d druid) {
	p, t := d.seat(), d.tile()
	switch {
	case d.eldrid():
		s.eld[p] = int8(t)
		s.eldEx[p] = d.exhausted()
	case d.exhausted():
		s.acoE[p][t]++
	default:
		s.acoR[p][t]++
	}
}

// touch brings seat p's masks up to date for tile t. It computes the
// tile's two bits without branching: it runs at every druid's move, and
// which way its tests go is as good as random.
func (s *State) touch(p, t int) {
	e, ex := b2u(int(s.eld[p]) == t), b2u(s.eldEx[p])
	refreshed := b2u(s.acoR[p][t] > 0) | e&^ex
	exhausted := b2u(s.acoE[p][t] > 0) | e&ex
	fresh := s.fresh[p]&^(1<<t) | refreshed<<t
	tired := s.tired[p]&^(1<<t) | exhausted<<t
	s.fresh[p], s.tired[p], s.occ[p] = fresh, tired, fresh|tired
}

// b2u is 1 for true and 0 for false, which the compiler makes without a
// branch.
func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// rebuildMasks computes every mask anew from the druids and the world.
func (s *State) rebuildMasks() {
	s.relink()
	s.havenMask = 0
	s.energyMask = [NumEnergies]uint32{}
	s.faceUp = 0
	eachTile(s.inPlay, func(t int) {
		site := s.siteIn(t)
		s.faceUp |= 1 << site
		if Sites[site].Type == Haven {
			s.havenMask |= 1 << t
		}
		s.energyMask[Sites[site].Energy] |= 1 << t
	})
	for p := range MaxPlayers {
		s.occ[p], s.fresh[p], s.tired[p] = 0, 0, 0
		for t := range NumTiles {
			s.touch(p, t)
		}
	}
}

// relocate moves druid d to tile t, keeping its state, and returns it there.
func (s *State) relocate(d druid, t int) druid {
	s.dec(d)
	to := d.at(t)
	s.inc(to)
	s.touch(d.seat(), d.tile())
	s.touch(d.seat(), t)
	return to
}

// setExhausted exhausts or refreshes druid d and returns it.
func (s *State) setExhausted(d druid, ex bool) druid {
	s.dec(d)
	d = d.with(ex)
	s.inc(d)
	s.touch(d.seat(), d.tile())
	return d
}

// exile returns druid d to its owner's supply.
func (s *State) exile(d druid) {
	s.take(d)
	if !d.eldrid() {
		s.acoSup[d.seat()]++
	}
}

// occupies reports whether seat p has a druid on tile t.
func (s *State) occupies(p, t int) bool { return s.occ[p]>>t&1 != 0 }

// occupied returns the tiles where seat p has a druid.
func (s *State) occupied(p int) uint32 { return s.occ[p] }

// occupiedByAny returns the tiles where any druid stands.
func (s *State) occupiedByAny() uint32 { return s.occ[0] | s.occ[1] | s.occ[2] | s.occ[3] }

// eachDruid calls f with every kind of druid on the board: seats in order,
// tiles in order, Eldrid first, refreshed before exhausted.
func (s *State) eachDruid(f func(d druid)) {
	for p := range s.circles() {
		s.eachDruidOf(p, f)
	}
}

// eachDruidOf calls f with every kind of druid of seat p on the board.
func (s *State) eachDruidOf(p int, f func(d druid)) {
	eachTile(s.occ[p], func(t int) {
		if int(s.eld[p]) == t {
			f(mkDruid(p, true, s.eldEx[p], t))
		}
		if s.acoR[p][t] > 0 {
			f(mkDruid(p, false, false, t))
		}
		if s.acoE[p][t] > 0 {
			f(mkDruid(p, false, true, t))
		}
	})
}

// refreshedOnBoard reports whether seat p has a refreshed druid on the board.
func (s *State) refreshedOnBoard(p int) bool { return s.hasOnBoard(p, false) }

// hasExhausted reports whether seat p has an exhausted druid on the board.
func (s *State) hasExhausted(p int) bool { return s.hasOnBoard(p, true) }

// hasOnBoard reports whether seat p has a druid on the board, exhausted or
// refreshed as asked.
func (s *State) hasOnBoard(p int, exhausted bool) bool {
	if exhausted {
		return s.tired[p] != 0
	}
	return s.fresh[p] != 0
}

// supplyEmpty reports whether seat p has no druid in its supply.
func (s *State) supplyEmpty(p int) bool { return s.eld[p] >= 0 && s.acoSup[p] == 0 }

// canSummon reports whether seat p has a druid to summon: one in its
// supply, or on Cirqus Laguun one taken back from the board.
func (s *State) canSummon(p int) bool { return !s.supplyEmpty(p) || s.occupiesSite(p, siteCirqus) }

// occupiesSite reports whether seat p occupies the site numbered site.
func (s *State) occupiesSite(p, site int) bool {
	return s.faceUp>>site&1 != 0 && s.occ[p]>>(site/2)&1 != 0
}

// destiny returns the energy that would dominate now and false when all
// three are still tied after the seeds: a draw.
func (s *State) destiny() (Energy, bool) {
	var sites [NumEnergies]int
	eachTile(s.inPlay, func(t int) { sites[s.energyOf(t)]++ })
	top := max(sites[0], sites[1], sites[2])
	var tied []Energy
	for e := range NumEnergies {
		if sites[e] == top {
			tied = append(tied, e)
		}
	}
	if len(tied) == 3 {
		var seeds [NumEnergies]int
		for p := range int(s.players) {
			for e := range NumEnergies {
				seeds[e] += int(s.seeds[p][e])
			}
		}
		top = max(seeds[0], seeds[1], seeds[2])
		tied = tied[:0]
		for e := range NumEnergies {
			if seeds[e] == top {
				tied = append(tied, e)
			}
		}
		if len(tied) == 3 {
			return 0, false
		}
	}
	if len(tied) == 2 {
		// The energy that threatens the other wins the tie.
		if tied[0].Threat() == tied[1] {
			return tied[1], true
		}
		return tied[0], true
	}
	return tied[0], true
}
