package druids

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// The notation. A move is written as the choice it is:
//
//	done  yes  no  end  eldrid  acolyte  side A  side B
//	move  summon  explore  unravel      the basic actions
//	use 14A                             a site's action
//	2E@14A  2e@14A  2A@14A  2a@14A      a druid of seat 2: its Eldrid or an
//	                                    acolyte, refreshed (capital) or exhausted
//	14A                                 a site in play or in a score area
//	tile 14                             a tile drawn, not yet placed
//	16,15                               an empty space, q,r on the grid
//	seed E  seed V  seed D              a seed given up
//
// Both are strict: a text is read only if it is exactly how the state
// writes that move.

var plainMoves = [numPlain]string{"done", "yes", "no", "end", "eldrid", "acolyte", "side A", "side B", "move", "summon", "explore", "unravel"}

// tileLabel writes tile t: its site if a side of it shows, else "tile n".
func (s *State) tileLabel(t int) string {
	if s.loc[t] == locPlay || s.loc[t] >= locScore {
		return Sites[siteOf(t, int(s.side[t]))].ID
	}
	return "tile " + strconv.Itoa(tileNumber(t))
}

func druidText(s *State, d druid) string {
	letter := byte('A')
	if d.eldrid() {
		letter = 'E'
	}
	if d.exhausted() {
		letter += 'a' - 'A'
	}
	return strconv.Itoa(d.seat()+1) + string(letter) + "@" + s.tileLabel(d.tile())
}

// MoveText writes m in the notation.
func (s *State) MoveText(m game.Move) string {
	arg := int(m & argMask)
	switch m &^ argMask {
	case 0:
		if m >= 0 && m < numPlain {
			return plainMoves[m]
		}
	case vUse:
		if arg < NumSites {
			return "use " + Sites[arg].ID
		}
	case vDruid:
		if d := druid(arg); d.seat() < MaxPlayers && d.tile() < NumTiles {
			return druidText(s, d)
		}
	case vSite:
		if arg < NumTiles {
			return s.tileLabel(arg)
		}
	case vSpace:
		if arg < numCells {
			q, r := cellQR(arg)
			return strconv.Itoa(q) + "," + strconv.Itoa(r)
		}
	case vSeed:
		if arg < int(NumEnergies) {
			return "seed " + string(energyLetters[arg])
		}
	}
	return "#" + strconv.Itoa(int(m))
}

// ParseMove reads a move in the notation.
func (s *State) ParseMove(text string) (game.Move, error) {
	m, ok := s.parseMove(text)
	if !ok || s.MoveText(m) != text {
		return 0, fmt.Errorf("move %q: not a move; a move is done, yes, no, end, move, summon, explore, unravel, use 14A, a druid as 2E@14A, a site as 14A, tile 14, a space as 16,15, side A or seed E", text)
	}
	return m, nil
}

func (s *State) parseMove(text string) (game.Move, bool) {
	for i, p := range plainMoves {
		if text == p {
			return game.Move(i), true
		}
	}
	if id, ok := strings.CutPrefix(text, "use "); ok {
		site, err := ParseSiteID(id)
		return vUse | game.Move(site), err == nil
	}
	if e, ok := strings.CutPrefix(text, "seed "); ok {
		i := strings.Index("EVD", e)
		return vSeed | game.Move(i), len(e) == 1 && i >= 0
	}
	if n, ok := strings.CutPrefix(text, "tile "); ok {
		t, err := strconv.Atoi(n)
		return vSite | game.Move(t-1), err == nil && t >= 1 && t <= NumTiles
	}
	if q, r, ok := strings.Cut(text, ","); ok {
		qi, err1 := strconv.Atoi(q)
		ri, err2 := strconv.Atoi(r)
		return vSpace | game.Move(cellAt(qi, ri)), err1 == nil && err2 == nil && qi >= 0 && qi < gridW && ri >= 0 && ri < gridW
	}
	if who, where, ok := strings.Cut(text, "@"); ok {
		site, err := ParseSiteID(where)
		if err != nil || len(who) != 2 || who[0] < '1' || who[0] > '4' {
			return 0, false
		}
		k := strings.IndexByte("AEae", who[1])
		if k < 0 {
			return 0, false
		}
		d := mkDruid(int(who[0]-'1'), k%2 == 1, k >= 2, site/2)
		return vDruid | game.Move(d), true
	}
	site, err := ParseSiteID(text)
	return vSite | game.Move(site/2), err == nil
}

// String writes the state on one line, sections separated by "; ":
//
//	druids 2; first 0; active 0; step action; turns 3; ply 41; set 1-24; bag 2 3 ...;
//	world 1A@16,16 14A@17,16 21A@16,17; hand -; score1 -; score2 5B;
//	seeds1 1 0 2; seeds2 0 1 0; markers + -; druids1 E@1A 2A@1A a@14A;
//	druids2 e@21A A@1A; used 0; unravels 0; refreshes 0; stack -; rng <hex>
//
// A world site is written with the cell it lies on (q,r); a seat's druids
// as its Eldrid (E, e exhausted, "E@supply" in the supply) and its acolytes
// on the board by site, a count before the letter when more than one; the
// acolytes not written are in the supply. The stack holds the actions being
// resolved, each as its registers; the generator's state ends the line.
func (s *State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "druids %d; ", s.players)
	if s.aj != ajOff {
		s.writeAJ(&b)
	}
	fmt.Fprintf(&b, "first %d; active %d; step %s; turns %d; ply %d; set %s; bag %s; world",
		s.first, s.active, stepNames[s.step], s.turns, s.ply, rangesText(s.set), tilesText(s.bag))
	s.writeTiles(&b)
	s.writeSeats(&b)
	for p := range s.circles() {
		s.writeDruids(&b, p)
	}
	fmt.Fprintf(&b, "; used %x; unravels %d; refreshes %d; stack", s.used, s.unravels, s.refreshes)
	if s.depth == 0 {
		b.WriteString(" -")
	}
	for i := range int(s.depth) {
		b.WriteString(" " + s.stack[i].text())
	}
	rng, _ := s.rng.MarshalBinary()
	fmt.Fprintf(&b, "; rng %s", hex.EncodeToString(rng))
	return b.String()
}

// writeAJ writes the section of AJ: level, how he settles ties, havens,
// tokens by circle, seeds given up.
func (s *State) writeAJ(b *strings.Builder) {
	fmt.Fprintf(b, "aj %s %s %d", AJLevels[s.aj], ajPlays[b2i(s.ajShrewd)], s.ajHavens)
	for _, c := range s.tokens {
		fmt.Fprintf(b, " %d", c)
	}
	fmt.Fprintf(b, " %d %d %d; ", s.ajSpent[0], s.ajSpent[1], s.ajSpent[2])
}

// writeTiles writes where the tiles out of the bag are: the world's sites
// with their cells, then the hand and the score areas.
func (s *State) writeTiles(b *strings.Builder) {
	if s.inPlay == 0 {
		b.WriteString(" -")
	}
	eachTile(s.inPlay, func(t int) {
		q, r := cellQR(int(s.cell[t]))
		fmt.Fprintf(b, " %s@%d,%d", s.tileLabel(t), q, r)
	})
	var hand uint32
	for t := range NumTiles {
		if s.loc[t] == locHand {
			hand |= 1 << t
		}
	}
	fmt.Fprintf(b, "; hand %s", tilesText(hand))
	for p := range int(s.players) {
		fmt.Fprintf(b, "; score%d", p+1)
		area := s.scoreArea(p)
		if area == 0 {
			b.WriteString(" -")
		}
		eachTile(area, func(t int) { b.WriteString(" " + s.tileLabel(t)) })
	}
}

// writeSeats writes each seat's seeds, then the player markers.
func (s *State) writeSeats(b *strings.Builder) {
	n := int(s.players)
	for p := range n {
		fmt.Fprintf(b, "; seeds%d %d %d %d", p+1, s.seeds[p][0], s.seeds[p][1], s.seeds[p][2])
	}
	b.WriteString("; markers")
	for p := range n {
		if s.marker[p] {
			b.WriteString(" -")
		} else {
			b.WriteString(" +")
		}
	}
}

// writeDruids writes circle p's druids: its Eldrid, then its acolytes on
// the board by site.
func (s *State) writeDruids(b *strings.Builder, p int) {
	fmt.Fprintf(b, "; druids%d ", p+1)
	if s.eld[p] < 0 {
		b.WriteString("E@supply")
	} else {
		letter := "E"
		if s.eldEx[p] {
			letter = "e"
		}
		b.WriteString(letter + "@" + s.tileLabel(int(s.eld[p])))
	}
	eachTile(s.inPlay, func(t int) {
		for k, c := range [2]uint8{s.acoR[p][t], s.acoE[p][t]} {
			if c == 0 {
				continue
			}
			b.WriteByte(' ')
			if c > 1 {
				b.WriteString(strconv.Itoa(int(c)))
			}
			b.WriteString([2]string{"A", "a"}[k] + "@" + s.tileLabel(t))
		}
	})
}

// rangesText writes a set of tiles as numbers and ranges: "1-6,10-27".
func rangesText(m uint32) string {
	var parts []string
	for t := 0; t < NumTiles; {
		if m>>t&1 == 0 {
			t++
			continue
		}
		u := t
		for u+1 < NumTiles && m>>(u+1)&1 != 0 {
			u++
		}
		if u == t {
			parts = append(parts, strconv.Itoa(t+1))
		} else {
			parts = append(parts, strconv.Itoa(t+1)+"-"+strconv.Itoa(u+1))
		}
		t = u + 1
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ",")
}

// tilesText writes tiles as their numbers, "-" for none.
func tilesText(m uint32) string {
	if m == 0 {
		return "-"
	}
	var parts []string
	eachTile(m, func(t int) { parts = append(parts, strconv.Itoa(t+1)) })
	return strings.Join(parts, " ")
}

// ParseState reads a state written by String. The text must be exactly as
// String writes it, and describe a state the rules can reach in form: each
// tile in one place, five druids a circle, a connected world.
func ParseState(text string) (*State, error) {
	s, err := parseState(text)
	if err != nil {
		return nil, fmt.Errorf("druids state: %w", err)
	}
	if s.String() != text {
		return nil, errors.New("druids state: not in the canonical form (as String writes it)")
	}
	return s, nil
}

type sections struct {
	parts []string
	i     int
	err   error
}

// next returns the fields of the next section, which must begin with key.
func (r *sections) next(key string) []string {
	if r.err != nil {
		return nil
	}
	if r.i >= len(r.parts) {
		r.err = fmt.Errorf("missing section %q", key)
		return nil
	}
	f := strings.Split(r.parts[r.i], " ")
	r.i++
	if f[0] != key {
		r.err = fmt.Errorf("section %q where %q belongs", r.parts[r.i-1], key)
		return nil
	}
	if len(f) < 2 {
		r.err = fmt.Errorf("section %q has no value", key)
		return nil
	}
	return f[1:]
}

func (r *sections) int(key string, lo, hi int) int {
	f := r.next(key)
	if r.err != nil {
		return 0
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || len(f) != 1 || n < lo || n > hi {
		r.err = fmt.Errorf("%s: %q is not a number from %d to %d", key, strings.Join(f, " "), lo, hi)
	}
	return n
}

func (r *sections) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

func parseState(text string) (*State, error) {
	r := &sections{parts: strings.Split(text, "; ")}
	s := &State{}
	n := r.int("druids", 2, MaxPlayers)
	if r.err != nil {
		return nil, r.err
	}
	s.players = uint8(n)
	if r.i < len(r.parts) && strings.HasPrefix(r.parts[r.i], "aj ") {
		r.aj(s)
	}
	r.turn(s)
	r.playSet(s)
	r.world(s)
	hand := r.tiles("hand")
	eachTile(hand, func(t int) { s.loc[t] = locHand })
	r.scores(s)
	r.seeds(s)
	r.markers(s)
	for p := range MaxPlayers {
		s.eld[p] = -1
	}
	for p := range s.circles() {
		r.druids(s, p)
		if s.aj != ajOff && p >= ajSeat {
			if s.acoSup[p] != 4 {
				r.fail("druids: AJ has no acolytes on the board")
			}
			s.acoSup[p] = 0
		}
	}
	if s.aj != ajOff && r.err == nil {
		r.ajDruids(s)
	}
	r.resolving(s)
	if f := r.next("rng"); r.err == nil {
		raw, err := hex.DecodeString(f[0])
		if err != nil || len(f) != 1 || s.rng.UnmarshalBinary(raw) != nil {
			r.fail("rng: %q", f[0])
		}
	}
	if r.err == nil && r.i != len(r.parts) {
		r.fail("%d sections, want %d", len(r.parts), r.i)
	}
	if r.err != nil {
		return nil, r.err
	}
	s.rebuildMasks()
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, s.checkStack()
}

// turn reads where the game is: the first and active seats, the step of
// the turn, the turns and decisions made.
func (r *sections) turn(s *State) {
	n := int(s.players)
	s.first = uint8(r.int("first", 0, n-1))
	s.active = uint8(r.int("active", 0, n-1))
	step := r.next("step")
	if r.err == nil {
		k := indexOf(stepNames[:], step[0])
		if k < 0 || len(step) != 1 {
			r.fail("step %q", step[0])
		}
		s.step = uint8(max(k, 0))
	}
	s.turns = int32(r.int("turns", 0, 1<<30))
	s.ply = int32(r.int("ply", 0, 1<<30))
}

// playSet reads the play set and the bag; the tiles of the set are in the
// bag until the sections that follow place them.
func (r *sections) playSet(s *State) {
	if f := r.next("set"); r.err == nil {
		tiles, err := ParseSet(strings.Join(f, " "))
		if err != nil {
			if f[0] != "-" {
				r.fail("%v", err)
			}
		}
		for _, t := range tiles {
			s.set |= 1 << (t - 1)
		}
	}
	s.bag = r.tiles("bag")
	for t := range NumTiles {
		if s.set>>t&1 != 0 {
			s.loc[t] = locBag
		}
	}
}

// world reads the sites in play and their cells.
func (r *sections) world(s *State) {
	if f := r.next("world"); r.err == nil && f[0] != "-" {
		for _, w := range f {
			id, at, _ := strings.Cut(w, "@")
			site, err := ParseSiteID(id)
			q, rr, ok := strings.Cut(at, ",")
			qi, err1 := strconv.Atoi(q)
			ri, err2 := strconv.Atoi(rr)
			if err != nil || !ok || err1 != nil || err2 != nil || qi < 1 || qi > gridW-2 || ri < 1 || ri > gridW-2 {
				r.fail("world: %q", w)
				break
			}
			t, c := site/2, cellAt(qi, ri)
			if s.inPlay>>t&1 != 0 || s.grid[c] != 0 {
				r.fail("world: %q twice", w)
				break
			}
			s.loc[t], s.side[t], s.cell[t] = locPlay, uint8(site%2), int16(c)
			s.grid[c] = int8(t + 1)
			s.inPlay |= 1 << t
		}
	}
}

// scores reads each seat's score area.
func (r *sections) scores(s *State) {
	for p := range int(s.players) {
		if f := r.next("score" + strconv.Itoa(p+1)); r.err == nil && f[0] != "-" {
			for _, id := range f {
				site, err := ParseSiteID(id)
				if err != nil {
					r.fail("score: %v", err)
					break
				}
				t := site / 2
				if s.loc[t] == locScore+uint8(p) {
					r.fail("score: %s twice", id)
				}
				s.loc[t], s.side[t] = uint8(locScore+p), uint8(site%2)
			}
		}
	}
}

// seeds reads each seat's seeds.
func (r *sections) seeds(s *State) {
	for p := range int(s.players) {
		f := r.next("seeds" + strconv.Itoa(p+1))
		if r.err == nil && len(f) != 3 {
			r.fail("seeds: %q", f)
		}
		for e := range min(len(f), 3) {
			v, err := strconv.Atoi(f[e])
			if err != nil || v < 0 || v > 81 {
				r.fail("seeds: %q", f[e])
			}
			s.seeds[p][e] = uint8(v)
		}
	}
}

// markers reads the player markers.
func (r *sections) markers(s *State) {
	n := int(s.players)
	if f := r.next("markers"); r.err == nil {
		if len(f) != n {
			r.fail("markers: %q", f)
		}
		for p := range min(len(f), n) {
			if f[p] != "+" && f[p] != "-" {
				r.fail("markers: %q", f[p])
			}
			s.marker[p] = f[p] == "-"
		}
	}
}

// resolving reads what is being resolved: the sites used this turn, the
// unravels and refreshes made, the stack.
func (r *sections) resolving(s *State) {
	if f := r.next("used"); r.err == nil {
		u, err := strconv.ParseUint(f[0], 16, 64)
		if err != nil || len(f) != 1 {
			r.fail("used: %q", f)
		}
		s.used = u
	}
	s.unravels = uint8(r.int("unravels", 0, NumTiles))
	s.refreshes = uint8(r.int("refreshes", 0, 5))
	if f := r.next("stack"); r.err == nil && f[0] != "-" {
		if len(f) > maxDepth {
			r.fail("stack: %d frames", len(f))
		}
		for i := range min(len(f), maxDepth) {
			r.frame(s, f[i])
			s.depth++
		}
	}
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// aj reads the section of AJ: level, havens, tokens by circle, seeds
// given up.
func (r *sections) aj(s *State) {
	f := r.next("aj")
	if r.err != nil {
		return
	}
	if len(f) != 14 || s.players != 2 {
		r.fail("aj: %q", f)
		return
	}
	level := indexOf(AJLevels[:], f[0])
	plays := indexOf(ajPlays[:], f[1])
	if level <= ajOff || plays < 0 {
		r.fail("aj: %q %q", f[0], f[1])
		return
	}
	s.aj, s.ajShrewd = uint8(level), plays == 1
	var v [12]int
	for i, x := range f[2:] {
		n, err := strconv.Atoi(x)
		if err != nil || n < 0 || n > 27 {
			r.fail("aj: %q", x)
			return
		}
		v[i] = n
	}
	if v[0] > 2 {
		r.fail("aj: %d havens", v[0])
	}
	s.ajHavens = uint8(v[0])
	for c := range 8 {
		s.tokens[c] = uint8(v[1+c])
	}
	for e := range 3 {
		s.ajSpent[e] = uint8(v[9+e])
	}
}

// ajDruids checks AJ's Eldrids and tokens against the havens that have
// brought them: the first Eldrid from the start and one a haven for two
// havens, never back in the supply; tokens only of the paths in play,
// four at most a circle.
func (r *sections) ajDruids(s *State) {
	for k := ajSeat; k < MaxPlayers; k++ {
		if arrived := k-ajSeat <= int(s.ajHavens); arrived != (s.eld[k] >= 0) {
			r.fail("aj: %d havens explored, and his Eldrid %d is %s", s.ajHavens, k, map[bool]string{true: "in play", false: "in the supply"}[s.eld[k] >= 0])
			return
		}
	}
	for c, n := range s.tokens {
		if path := c / 2; n > 4 || n > 0 && (path < ajSeat || s.eld[path] < 0) {
			r.fail("aj: %d tokens of circle %d", n, c+1)
			return
		}
	}
}

// tiles reads a section of tile numbers.
func (r *sections) tiles(key string) uint32 {
	f := r.next(key)
	if r.err != nil || f[0] == "-" {
		return 0
	}
	var m uint32
	for _, x := range f {
		t, err := strconv.Atoi(x)
		if err != nil || t < 1 || t > NumTiles || m>>(t-1)&1 != 0 {
			r.fail("%s: %q", key, x)
			return 0
		}
		m |= 1 << (t - 1)
	}
	return m
}

// druids reads a seat's druids.
func (r *sections) druids(s *State, p int) {
	key := "druids" + strconv.Itoa(p+1)
	f := r.next(key)
	if r.err != nil {
		return
	}
	on := 0
	for i, w := range f {
		who, where, ok := strings.Cut(w, "@")
		if i == 0 {
			if !ok || who != "E" && who != "e" {
				r.fail("%s: the Eldrid first, not %q", key, w)
				return
			}
			if where == "supply" && who == "E" {
				continue
			}
		}
		count := 1
		if len(who) > 1 {
			c, err := strconv.Atoi(who[:len(who)-1])
			if err != nil || c < 2 || c > 4 || i == 0 {
				r.fail("%s: %q is not a druid", key, w)
				return
			}
			count, who = c, who[len(who)-1:]
		}
		site, err := ParseSiteID(where)
		if !ok || err != nil {
			r.fail("%s: %q is not a druid on a site", key, w)
			return
		}
		if s.loc[site/2] != locPlay || s.side[site/2] != uint8(site%2) {
			r.fail("%s: %q stands on %s, which is not in the world", key, w, where)
			return
		}
		t := site / 2
		switch who {
		case "E", "e":
			if i != 0 {
				r.fail("%s: a second Eldrid %q", key, w)
				return
			}
			s.eld[p], s.eldEx[p] = int8(t), who == "e"
		case "A":
			s.acoR[p][t] += uint8(count)
			on += count
		case "a":
			s.acoE[p][t] += uint8(count)
			on += count
		default:
			r.fail("%s: %q is not a druid", key, w)
			return
		}
	}
	if on > 4 {
		r.fail("%s: %d acolytes, a circle has 4", key, on)
		return
	}
	s.acoSup[p] = uint8(4 - on)
}

// check checks what the sections cannot: each tile in the play set in one
// place, a connected world, a haven, nothing out of the set.
func (s *State) check() error {
	if s.bag&^s.set != 0 {
		return errors.New("a tile in the bag is not in the play set")
	}
	for t := range NumTiles {
		inSet := s.set>>t&1 != 0
		if !inSet && s.loc[t] != locOut || inSet && s.loc[t] == locOut {
			return fmt.Errorf("tile %d is not where its play set says", tileNumber(t))
		}
		if s.loc[t] == locBag && s.bag>>t&1 == 0 {
			return fmt.Errorf("tile %d of the play set is nowhere: not in the bag, the world, the hand or a score area", tileNumber(t))
		}
		if s.loc[t] != locBag && s.bag>>t&1 != 0 {
			return fmt.Errorf("tile %d is both in the bag and elsewhere", tileNumber(t))
		}
	}
	if s.inPlay == 0 || s.havens() == 0 {
		return errors.New("the world has no haven")
	}
	s.worldOK = false
	s.world()
	if !s.connectedWithout(-1) {
		return errors.New("the world is not connected")
	}
	if s.step == stepOver && s.depth > 0 {
		return errors.New("a finished game resolves nothing")
	}
	if bits.OnesCount32(s.set) < 3 {
		return errors.New("the play set is too small")
	}
	return nil
}

// consistent checks what the engine keeps as it plays and a text could
// contradict: the masks kept as druids and sites change agree with them,
// each seat's circle has its four acolytes (on the board or in the supply)
// and AJ's circles none.
func (s *State) consistent() error {
	c := *s
	c.rebuildMasks()
	if c.occ != s.occ || c.fresh != s.fresh || c.tired != s.tired || c.adj != s.adj ||
		c.havenMask != s.havenMask || c.energyMask != s.energyMask || c.faceUp != s.faceUp {
		return errors.New("the druids or sites are not where the engine keeps them")
	}
	for p := range s.circles() {
		n := int(s.acoSup[p])
		for t := range NumTiles {
			n += int(s.acoR[p][t]) + int(s.acoE[p][t])
		}
		if want := 4 * b2i(p < int(s.players) && (s.aj == ajOff || p != ajSeat)); n != want {
			return fmt.Errorf("circle %d has %d acolytes, not %d", p+1, n, want)
		}
	}
	return nil
}

// ajPlays names how AJ settles a tie: by the generator, or shrewdly.
var ajPlays = [2]string{"arbitrary", "shrewd"}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
