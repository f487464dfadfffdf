package druids

import (
	"math/bits"
)

// The solo game: one player against AJ, the scripted opponent of the
// rulebook's solo rules. AJ sits in seat 2 (index 1) of a two-seat game;
// he never decides through the contract: his turn is played by the rules
// below, as soon as the player's turn ends, and his arbitrary choices are
// drawn by the game's generator.
//
// The player plays the Stag circle (the path of Adventure). AJ keeps one
// Eldrid of each other path: the Hare (Renewal), the Fern (Presence) and the
// Mushroom (Mystery), in druid slots 1, 2 and 3. The Hare starts on the
// starting haven; the Fern and the Mushroom arrive on the first two havens
// explored. AJ's token bag holds the acolytes of the paths whose Eldrid is
// in play, by circle.

// AJ's levels.
const (
	ajOff = iota
	AJInitiate
	AJAcolyte
	AJAdept
	AJEldrid
	AJLegend
)

// AJLevels names AJ's levels; "none" is a game without AJ.
var AJLevels = [...]string{"none", "initiate", "acolyte", "adept", "eldrid", "legend"}

// The circles, by number: two a path.
var CircleNames = [8]string{"Stag", "Dragonfly", "Hare", "Owl", "Fern", "Turtle", "Mushroom", "Moon"}

const ajSeat = 1

// ajCircle is the circle of AJ's Eldrid in druid slot k (1 to 3).
func ajCircle(k int) int { return 2 * k }

// seatCircle is the circle of druid slot k: the first circle of path k, so
// that seats (and AJ's Eldrids) walk different paths (the Stag, the Hare,
// the Fern, the Mushroom).
func seatCircle(k int) int { return 2 * k }

// circles returns how many druid slots are in use: a circle a seat, or
// four in a game against AJ (the player's and AJ's three Eldrids).
func (s *State) circles() int {
	if s.aj != ajOff {
		return MaxPlayers
	}
	return int(s.players)
}

// ajOccupied returns the tiles where AJ's Eldrids stand.
func (s *State) ajOccupied() uint32 { return s.occ[1] | s.occ[2] | s.occ[3] }

// ajPick returns one of n equal options, drawn by the generator: AJ's
// arbitrary choice.
func (s *State) ajPick(n int) int {
	if n <= 1 {
		return 0
	}
	s.revealed++
	return int(s.rng.Uint64() % uint64(n))
}

// ajBest keeps, of the tiles or cells offered one by one, those with the
// highest score, and picks one of them by the generator at the end.
type ajBest struct {
	score int
	items [64]int16
	n     int
}

func newBest() ajBest { return ajBest{score: -1 << 30} }

func (b *ajBest) offer(item, score int) {
	switch {
	case score > b.score:
		b.score, b.n = score, 0
		fallthrough
	case score == b.score && b.n < len(b.items):
		b.items[b.n] = int16(item)
		b.n++
	}
}

// pickShrewd picks as pick does, but when AJ plays shrewdly (the
// rulebook's harder option) the tie goes to the item that leaves AJ's
// position best by eval, the generator deciding only what is still tied.
func (b *ajBest) pickShrewd(s *State, eval func(item int) int) int {
	if !s.ajShrewd || b.n <= 1 {
		return b.pick(s)
	}
	top := newBest()
	for _, it := range b.items[:b.n] {
		top.offer(int(it), eval(int(it)))
	}
	return top.pick(s)
}

// ajPosition is how AJ stands if the game ended now: his points less the
// player's.
func (s *State) ajPosition() int {
	d := s.Destiny()
	if d.Draw {
		return 0
	}
	return s.Points(ajSeat, d.Energy) - s.Points(0, d.Energy)
}

func (b *ajBest) pick(s *State) int {
	if b.n == 0 {
		return -1
	}
	return int(b.items[s.ajPick(b.n)])
}

// ajLog records what AJ did, for the log and the page.
func (s *State) ajLog(kind uint8, a, b int) {
	if s.ajEvents < uint8(len(s.ajEvent)) {
		s.ajEvent[s.ajEvents] = ajEvent{kind: kind, a: int8(a), b: int8(b)}
		s.ajEvents++
	}
}

// An ajEvent is one thing AJ did.
type ajEvent struct {
	kind uint8
	a, b int8
}

// The kinds of AJ's events.
const (
	evExplore    = iota + 1 // explored tile a with the Eldrid of slot b
	evMove                  // moved the Eldrid of slot a to tile b
	evArrive                // his Eldrid of slot a arrived on the haven b
	evUnravel               // unravelled tile a paying b seeds
	evToken                 // drew a token of circle a: b is what it does
	evSeed                  // gained a seed of energy a
	evShift                 // moved tile a next to the locked tile b
	evNothing               // the token had no effect
	evMovePlayer            // moved a player's druid from tile a to tile b
)

// The tokens' effects.
const (
	tokActive = iota
	tokSupporting
	tokInactive
	tokDormant
)

// ajTurn plays AJ's turn: Explore, Unravel, Invoke.
func (s *State) ajTurn() {
	s.ajEvents = 0
	s.used = 0
	s.unravels = 0
	slot, explored := s.ajExplore(-1)
	unravelled := s.ajUnravelStep()
	if s.aj == AJInitiate && unravelled {
		s.ajMovesPlayer()
		return
	}
	times := 1
	if s.aj >= AJAdept && s.inPlaySite(sitePresence) >= 0 {
		times = 2
	}
	for range times {
		if s.ajInvoke(slot, explored) {
			unravelled = true
		}
	}
	if s.aj >= AJLegend && !unravelled {
		s.ajExplore(-1)
	}
	s.ajMovesPlayer()
}

// ajUnravelStep is the Unravel step: once, or at the Adept level twice
// when Destiny Helix is in play, needing two energy each.
func (s *State) ajUnravelStep() bool {
	if s.aj >= AJAdept && s.inPlaySite(site("18A")) >= 0 {
		a := s.ajUnravel(-1, 2)
		b := s.ajUnravel(-1, 2)
		return a || b
	}
	return s.ajUnravel(-1, 3)
}

// ajExplore explores for AJ with the Eldrid in slot, or, with slot < 0, the
// Eldrid on the best origin; it returns the slot and the tile explored
// (-1 if he moved an Eldrid instead).
func (s *State) ajExplore(slot int) (int, int) {
	if s.bag == 0 {
		return max(slot, 1), -1
	}
	// The origin: a site of AJ's with an open space next to it and the most
	// neighbouring sites (at the Acolyte level and above, the one closest
	// to a locked site first).
	s.world()
	best := newBest()
	for k := 1; k <= 3; k++ {
		t := int(s.eld[k])
		if t < 0 || slot >= 0 && k != slot || !s.hasEmptyAround(t) {
			continue
		}
		score := bits.OnesCount32(s.adj[t])
		if s.aj >= AJAcolyte && s.locked != 0 {
			score -= 100 * s.distanceTo(int(s.cell[t]), s.locked)
		}
		best.offer(k, score)
	}
	k := best.pick(s)
	if k < 0 {
		return s.ajMoveLandlocked(slot), -1
	}
	origin := int(s.eld[k])
	// The space: next to two sites or more if it can be, then as far as
	// can be from the player's druids. At the Acolyte level and above, one
	// that unlocks the closest locked site comes first.
	var set cellSet
	s.emptyAround(origin, &set)
	if s.aj >= AJAcolyte {
		s.ajKeepUnlocking(origin, &set)
	}
	two := false
	set.each(func(c int) { two = two || s.sitesAround(c, -1) >= 2 })
	spaces := newBest()
	set.each(func(c int) {
		if two && s.sitesAround(c, -1) < 2 {
			return
		}
		spaces.offer(c, s.distanceTo(c, s.occ[0]))
	})
	c := spaces.pick(s)
	t := s.draw()
	side := s.ajSide(t)
	s.place(t, side, c)
	s.seeds[ajSeat][s.energyOf(t)]++
	s.ajLog(evExplore, t, k)
	if !s.ajHavenArrives(t) {
		s.relocate(mkDruid(k, true, s.eldEx[k], origin), t)
	}
	return k, t
}

// ajSide chooses the side AJ lays: by the generator, unless the player has
// two sites or more in the score area; then not the side whose energy would
// give the player the most points. Near the end the higher levels first
// keep to the side their own rules ask for (see ajAllowsSide).
func (s *State) ajSide(t int) int {
	okA, okB := s.ajAllowsSide(t, 0), s.ajAllowsSide(t, 1)
	if okA != okB {
		if okA {
			return 0
		}
		return 1
	}
	if bits.OnesCount32(s.scoreArea(0)) >= 2 {
		var pts [NumEnergies]int
		for e := range NumEnergies {
			pts[e] = s.Points(0, e)
		}
		top := max(pts[0], pts[1], pts[2])
		a, b := pts[Sites[siteOf(t, 0)].Energy] == top, pts[Sites[siteOf(t, 1)].Energy] == top
		if a != b {
			if a {
				return 1
			}
			return 0
		}
	}
	if s.ajShrewd {
		var pos [2]int
		for side := range 2 {
			after := *s
			after.energyMask[Sites[siteOf(t, side)].Energy] |= 1 << t
			after.seeds[ajSeat][Sites[siteOf(t, side)].Energy]++
			pos[side] = after.ajPosition()
		}
		if pos[0] != pos[1] {
			if pos[0] > pos[1] {
				return 0
			}
			return 1
		}
	}
	return s.ajPick(2)
}

// ajHavenArrives sets a new Eldrid of AJ's on tile t, just explored, if it
// is one of the first two havens explored in the game, with its path's
// acolytes into the token bag; it reports whether it did.
func (s *State) ajHavenArrives(t int) bool {
	if s.aj == ajOff || s.ajHavens >= 2 || s.havenMask>>t&1 == 0 {
		return false
	}
	s.ajHavens++
	k := 1 + int(s.ajHavens)
	s.put(mkDruid(k, true, false, t))
	s.tokens[ajCircle(k)] += 4
	s.tokens[ajCircle(k)+1] += 4
	s.ajLog(evArrive, k, t)
	return true
}

// ajMoveLandlocked moves one of AJ's Eldrids (the one in slot, if slot >=
// 0) a hex, to the neighbouring site with the most open spaces around it.
func (s *State) ajMoveLandlocked(slot int) int {
	best := newBest()
	for k := 1; k <= 3; k++ {
		t := int(s.eld[k])
		if t < 0 || slot >= 0 && k != slot {
			continue
		}
		eachTile(s.adj[t], func(u int) { best.offer(k*NumTiles+u, 6-bits.OnesCount32(s.adj[u])) })
	}
	choice := best.pick(s)
	if choice < 0 {
		return max(slot, 1)
	}
	k, u := choice/NumTiles, choice%NumTiles
	s.relocate(mkDruid(k, true, s.eldEx[k], int(s.eld[k])), u)
	s.ajLog(evMove, k, u)
	return k
}

// sitesAround counts the sites next to cell c but tile except (-1 for
// none): a site that moves is not its own neighbour.
func (s *State) sitesAround(c, except int) int {
	n := 0
	for k := range 6 {
		if x := neighbour(c, k); x >= 0 && s.grid[x] != 0 && int(s.grid[x]) != except+1 {
			n++
		}
	}
	return n
}

// distanceTo returns the distance in hexes from cell c to the nearest
// tile of m, or 99 when m is empty.
func (s *State) distanceTo(c int, m uint32) int {
	d := 99
	eachTile(m, func(t int) { d = min(d, hexDistance(c, int(s.cell[t]))) })
	return d
}

// ajUnravel unravels a site for AJ if he can, with need energy; bonus >= 0
// is three energy of that kind that only this unravel may use (the Active
// druid). It reports whether he did.
func (s *State) ajUnravel(bonus, need int) bool {
	mine := s.ajOccupied()
	bestE, bestSeeds, bestSites := -1, 0, 0
	for e := range NumEnergies {
		th := e.Threat()
		var seeds int
		if bonus >= 0 {
			if int(th) != bonus {
				continue
			}
		} else {
			have := bits.OnesCount32(mine & s.energyMask[th])
			seeds = max(0, need-have)
			if seeds > int(s.seeds[ajSeat][th]) {
				continue
			}
		}
		if s.ajTargets(e, seeds) == 0 {
			continue
		}
		sites := bits.OnesCount32(s.energyMask[e])
		if bestE < 0 || seeds < bestSeeds || seeds == bestSeeds && (sites > bestSites || sites == bestSites && s.ajPick(2) == 0) {
			bestE, bestSeeds, bestSites = int(e), seeds, sites
		}
	}
	if bestE < 0 {
		return false
	}
	e := Energy(bestE)
	// The site: one the player occupies, then one that is not a trove.
	best := newBest()
	eachTile(s.ajTargets(e, bestSeeds), func(t int) {
		score := 0
		if s.occ[0]>>t&1 != 0 {
			score += 2
		}
		if Sites[s.siteIn(t)].Type != Trove {
			score++
		}
		best.offer(t, score)
	})
	th := e.Threat()
	t := best.pickShrewd(s, func(t int) int {
		after := *s
		after.seeds[ajSeat][th] -= uint8(bestSeeds)
		after.lift(t)
		after.loc[t] = uint8(locScore + ajSeat)
		return after.ajPosition()
	})
	s.seeds[ajSeat][th] -= uint8(bestSeeds)
	if s.aj >= AJAcolyte {
		s.ajSpent[th] += uint8(bestSeeds)
	}
	s.ajLog(evUnravel, t, bestSeeds)
	// Every druid there is exhausted and goes to the closest haven.
	havens := s.havenMask &^ (1 << t)
	for {
		d, ok := s.firstDruidOn(t)
		if !ok {
			break
		}
		near := newBest()
		eachTile(havens, func(h int) { near.offer(h, -hexDistance(int(s.cell[t]), int(s.cell[h]))) })
		s.take(d)
		s.put(d.with(true).at(near.pick(s)))
	}
	portal := s.occupiesSite(0, sitePortal)
	s.lift(t)
	s.loc[t] = uint8(locScore + ajSeat)
	s.unravels++
	if s.unravels == 1 && (portal || s.occupiesSite(0, sitePortal)) {
		s.ajPlayerRefreshes()
	}
	return true
}

// ajPlayerRefreshes is the player's Awakening Portal during AJ's turn: the
// player's Eldrid is refreshed if exhausted, else an acolyte (a refresh
// never harms, and AJ's turn asks the player nothing).
func (s *State) ajPlayerRefreshes() {
	if s.eld[0] >= 0 && s.eldEx[0] {
		s.setExhausted(mkDruid(0, true, true, int(s.eld[0])), false)
		return
	}
	if s.tired[0] != 0 {
		t := bits.TrailingZeros32(s.tired[0])
		s.setExhausted(mkDruid(0, false, true, t), false)
	}
}

// ajInvoke is the Invoke step: a token from the bag decides what AJ does.
// slot is the Eldrid that explored, explored the tile (-1 if none). It
// reports whether AJ unravelled.
func (s *State) ajInvoke(slot, explored int) bool {
	total := 0
	for _, n := range s.tokens {
		total += int(n)
	}
	if total == 0 {
		return false
	}
	s.revealed++
	k := int(s.rng.Uint64() % uint64(total))
	c := 0
	for ; k >= int(s.tokens[c]); c++ {
		k -= int(s.tokens[c])
	}
	s.tokens[c]--
	kind := tokDormant
	switch {
	case c == ajCircle(slot):
		kind = tokActive
	case c/2 == slot:
		kind = tokSupporting
	case c%2 == 0 && c/2 >= 1 && s.eld[c/2] >= 0:
		kind = tokInactive
	}
	s.ajLog(evToken, c, kind)
	back := kind == tokInactive && s.aj >= AJAdept || kind == tokActive && s.aj >= AJEldrid
	if back {
		s.tokens[c]++
	}
	unravelled := false
	switch kind {
	case tokActive:
		if explored < 0 {
			s.ajLog(evNothing, 0, 0)
			break
		}
		unravelled = s.ajUnravel(int(s.energyOf(explored)), 3)
	case tokSupporting:
		fewest := NumEnergies
		for e := range NumEnergies {
			if fewest == NumEnergies || bits.OnesCount32(s.energyMask[e]) < bits.OnesCount32(s.energyMask[fewest]) {
				fewest = e
			}
		}
		if explored >= 0 {
			for e := range NumEnergies {
				if e == s.energyOf(explored) && bits.OnesCount32(s.energyMask[e]) == bits.OnesCount32(s.energyMask[fewest]) {
					fewest = e
				}
			}
		}
		s.seeds[ajSeat][fewest]++
		s.ajLog(evSeed, int(fewest), 0)
	case tokInactive:
		s.ajExplore(c / 2)
	case tokDormant:
		if explored < 0 || s.loc[explored] != locPlay {
			s.ajLog(evNothing, 0, 0)
			break
		}
		s.ajShift(explored)
	}
	return unravelled
}

// ajShift moves tile t, just explored, to a space next to the closest
// locked site, next to as many sites as can be.
func (s *State) ajShift(t int) {
	s.world()
	if s.locked&^(1<<t) == 0 || s.locked>>t&1 != 0 {
		s.ajLog(evNothing, 0, 0)
		return
	}
	near := newBest()
	eachTile(s.locked&^(1<<t), func(u int) { near.offer(u, -hexDistance(int(s.cell[t]), int(s.cell[u]))) })
	lock := near.pick(s)
	spaces := s.spaces(t)
	var around cellSet
	s.emptyAround(lock, &around)
	best := newBest()
	around.each(func(c int) {
		if spaces.has(c) {
			best.offer(c, s.sitesAround(c, t))
		}
	})
	c := best.pick(s)
	if c < 0 {
		s.ajLog(evNothing, 0, 0)
		return
	}
	s.moveSite(t, c)
	s.ajLog(evShift, t, lock)
}

// ajTargets returns the sites of energy e AJ may unravel, giving up seeds:
// those that can be unravelled at all, less those his level's end-game
// rules forbid.
func (s *State) ajTargets(e Energy, seeds int) uint32 {
	var m uint32
	cand := s.unravelableAmong(s.energyMask[e])
	if cand == 0 {
		return 0
	}
	rules := s.ajEndRules()
	eachTile(cand, func(t int) {
		if s.ajAllowsUnravel(&rules, t, seeds) {
			m |= 1 << t
		}
	})
	return m
}

// ajFavourite returns the energy whose dominance would give AJ the most
// points now (the first of a tie).
func (s *State) ajFavourite() Energy { return s.favourite(ajSeat) }

// ajScore is AJ's score if the game ended now.
func (s *State) ajScore() int { return s.scoreNow(ajSeat) }

// bagSize is how many tiles the bag holds.
func (s *State) bagSize() int { return bits.OnesCount32(s.bag) }

// ajEndRules is what the end-game rules of the higher levels compare an
// unravel with, worked out once for all of a turn's targets: the bag's
// size, and at the Adept level near the end AJ's favourite energy, at the
// Eldrid level his score now.
type ajEndRules struct {
	bag       int
	favourite Energy
	score     int
}

// ajEndRules returns the end-game rules' figures of the state as it is.
func (s *State) ajEndRules() ajEndRules {
	r := ajEndRules{bag: s.bagSize()}
	if s.aj >= AJAdept && r.bag <= 3 {
		r.favourite = s.ajFavourite()
	}
	if s.aj >= AJEldrid && r.bag <= 5 {
		r.score = s.ajScore()
	}
	return r
}

// ajAllowsUnravel applies the end-game rules of the higher levels to an
// unravel of tile t giving up seeds, rules the state's (ajEndRules): at
// the Adept level with three tiles or fewer in the bag, AJ does not
// unravel a site of the energy that would score him the most; at the
// Eldrid level with five or fewer, he does not unravel when it would lower
// his score.
func (s *State) ajAllowsUnravel(rules *ajEndRules, t, seeds int) bool {
	if s.aj >= AJAdept && rules.bag <= 3 && s.energyOf(t) == rules.favourite {
		return false
	}
	if s.aj >= AJEldrid && rules.bag <= 5 {
		after := *s
		after.seeds[ajSeat][s.energyOf(t).Threat()] -= uint8(min(seeds, int(after.seeds[ajSeat][s.energyOf(t).Threat()])))
		after.lift(t)
		after.loc[t] = uint8(locScore + ajSeat)
		if after.ajScore() < rules.score {
			return false
		}
	}
	return true
}

// ajAllowsSide applies the same rules to laying tile t side up: at the
// Adept level near the end AJ lays his favourite energy if a side has it;
// at the Eldrid level he does not lay a side that lowers his score.
func (s *State) ajAllowsSide(t, side int) bool {
	n := s.bagSize()
	e := Sites[siteOf(t, side)].Energy
	if s.aj >= AJAdept && n <= 3 {
		fav := s.ajFavourite()
		if Sites[siteOf(t, 1-side)].Energy == fav && e != fav {
			return false
		}
	}
	if s.aj >= AJEldrid && n <= 5 {
		score := func(e Energy) int {
			after := *s
			after.energyMask[e] |= 1 << t
			after.seeds[ajSeat][e]++
			return after.ajScore()
		}
		if score(e) < score(Sites[siteOf(t, 1-side)].Energy) {
			return false
		}
	}
	return true
}

// ajMovesPlayer is the Eldrid level's rule with Emilaphae or Elixona in
// play: at the end of his turn AJ moves one of the player's druids to
// another site the player occupies, a haven if he can, and a druid on a
// trove last of all.
func (s *State) ajMovesPlayer() {
	if s.aj < AJEldrid || s.inPlaySite(site("11A")) < 0 && s.inPlaySite(site("19B")) < 0 {
		return
	}
	if s.occ[0]&(s.occ[0]-1) == 0 {
		return
	}
	who := newBest()
	s.eachDruidOf(0, func(d druid) {
		score := 0
		if Sites[s.siteIn(d.tile())].Type != Trove {
			score = 1
		}
		who.offer(int(d), score)
	})
	d := druid(who.pick(s))
	where := newBest()
	eachTile(s.occ[0]&^(1<<d.tile()), func(t int) {
		score := 0
		if s.havenMask>>t&1 != 0 {
			score = 1
		}
		where.offer(t, score)
	})
	t := where.pick(s)
	s.relocate(d, t)
	s.ajLog(evMovePlayer, int(d.tile()), t)
}

// ajKeepUnlocking keeps, of the spaces in set, those where a new site would
// unlock one of the locked sites closest to tile origin, if there are any.
func (s *State) ajKeepUnlocking(origin int, set *cellSet) {
	s.world()
	if s.locked == 0 || s.bag == 0 {
		return
	}
	closest := newBest()
	eachTile(s.locked, func(u int) { closest.offer(u, -hexDistance(int(s.cell[origin]), int(s.cell[u]))) })
	var near uint32
	for _, u := range closest.items[:closest.n] {
		near |= 1 << u
	}
	var keep cellSet
	found := false
	dummy := bits.TrailingZeros32(s.bag)
	parts := s.partsWithout(near)
	set.each(func(c int) {
		unlocks, ok := parts.unlockedBy(s, c)
		if !ok {
			after := *s
			after.place(dummy, 0, c)
			after.world()
			unlocks = after.locked&near != near
		}
		if unlocks {
			keep.add(c)
			found = true
		}
	})
	if found {
		*set = keep
	}
}
