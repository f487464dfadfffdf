package druids

import (
	"math/bits"

	"github.com/lagoon-games/lagoon/game"
)

// The world is a grid of hexes in axial coordinates, gridW by gridW, a
// cell numbered r*gridW+q. Its six neighbours are at +-1 (q), +-gridW (r)
// and +-(gridW-1) (q+1,r-1 and q-1,r+1). The sites in play are kept away
// from the grid's border (q and r from 1 to gridW-2), so that every
// neighbour of a site is on the grid: when a site lands on the border the
// whole world is shifted back to the middle (recentre). A connected world
// of 27 sites spans at most 27 hexes in any direction, which fits.
const (
	gridW    = 32
	numCells = gridW * gridW
)

var neighbourOffsets = [6]int{1, -1, gridW, -gridW, -(gridW - 1), gridW - 1}

func cellQR(c int) (q, r int) { return c % gridW, c / gridW }

func cellAt(q, r int) int { return r*gridW + q }

// neighbour returns the cell next to c in direction k, or -1 off the grid.
func neighbour(c, k int) int {
	q, r := cellQR(c)
	switch k {
	case 0:
		q++
	case 1:
		q--
	case 2:
		r++
	case 3:
		r--
	case 4:
		q, r = q+1, r-1
	case 5:
		q, r = q-1, r+1
	}
	if q < 0 || q >= gridW || r < 0 || r >= gridW {
		return -1
	}
	return cellAt(q, r)
}

// hexDistance is the distance in hexes between two cells.
func hexDistance(a, b int) int {
	aq, ar := cellQR(a)
	bq, br := cellQR(b)
	dq, dr := aq-bq, ar-br
	ds := -dq - dr
	return (abs(dq) + abs(dr) + abs(ds)) / 2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// cellSet is a set of cells.
type cellSet [numCells / 64]uint64

func (s *cellSet) add(c int)      { s[c>>6] |= 1 << (c & 63) }
func (s *cellSet) has(c int) bool { return s[c>>6]>>(c&63)&1 != 0 }
func (s *cellSet) remove(c int)   { s[c>>6] &^= 1 << (c & 63) }
func (s *cellSet) each(f func(c int)) {
	for w, x := range s {
		for ; x != 0; x &= x - 1 {
			f(w<<6 | bits.TrailingZeros64(x))
		}
	}
}

// tiles iterates over the tiles of a mask.
func eachTile(m uint32, f func(t int)) {
	for ; m != 0; m &= m - 1 {
		f(bits.TrailingZeros32(m))
	}
}

// tileAt returns the tile in play at cell c, or -1.
func (s *State) tileAt(c int) int { return int(s.grid[c]) - 1 }

// place puts tile t in play, side up, at cell c.
func (s *State) place(t, side, c int) {
	s.loc[t] = locPlay
	s.side[t] = uint8(side)
	s.cell[t] = int16(c)
	s.grid[c] = int8(t + 1)
	s.inPlay |= 1 << t
	st := &Sites[siteOf(t, side)]
	if st.Type == Haven {
		s.havenMask |= 1 << t
	}
	s.energyMask[st.Energy] |= 1 << t
	s.faceUp |= 1 << siteOf(t, side)
	s.recentre(c)
	s.link(t)
}

// lift takes tile t out of the world (its druids must be gone or be
// moved with it by the caller).
func (s *State) lift(t int) {
	s.unlink(t)
	s.grid[s.cell[t]] = 0
	s.inPlay &^= 1 << t
	s.havenMask &^= 1 << t
	s.faceUp &^= 3 << (2 * t)
	for e := range s.energyMask {
		s.energyMask[e] &^= 1 << t
	}
}

// moveSite moves tile t, with its druids, to the empty cell c.
func (s *State) moveSite(t, c int) {
	s.unlink(t)
	s.grid[s.cell[t]] = 0
	s.cell[t] = int16(c)
	s.grid[c] = int8(t + 1)
	s.recentre(c)
	s.link(t)
}

// swapSites trades the places of tiles a and b, with their druids.
func (s *State) swapSites(a, b int) {
	s.unlink(a)
	s.unlink(b)
	ca, cb := s.cell[a], s.cell[b]
	s.cell[a], s.cell[b] = cb, ca
	s.grid[ca], s.grid[cb] = int8(b+1), int8(a+1)
	s.link(a)
	s.link(b)
}

// link records the neighbours of tile t, just placed, and t as theirs; the
// locked sites are then out of date.
func (s *State) link(t int) {
	c := int(s.cell[t])
	var m uint32
	for _, off := range neighbourOffsets {
		if g := s.grid[c+off]; g != 0 {
			u := int(g - 1)
			m |= 1 << u
			s.adj[u] |= 1 << t
		}
	}
	s.adj[t] = m
	s.worldOK = false
}

// unlink forgets the neighbours of tile t, about to leave its cell.
func (s *State) unlink(t int) {
	for m := s.adj[t]; m != 0; m &= m - 1 {
		s.adj[bits.TrailingZeros32(m)] &^= 1 << t
	}
	s.adj[t] = 0
	s.worldOK = false
}

// recentre shifts the world back to the middle of the grid if cell c, just
// filled, lies on the border.
func (s *State) recentre(c int) {
	q, r := cellQR(c)
	if q > 0 && q < gridW-1 && r > 0 && r < gridW-1 {
		return
	}
	minQ, minR, maxQ, maxR := gridW, gridW, -1, -1
	eachTile(s.inPlay, func(t int) {
		q, r := cellQR(int(s.cell[t]))
		minQ, maxQ = min(minQ, q), max(maxQ, q)
		minR, maxR = min(minR, r), max(maxR, r)
	})
	dq := (gridW-(maxQ-minQ+1))/2 - minQ
	dr := (gridW-(maxR-minR+1))/2 - minR
	s.grid = [numCells]int8{}
	eachTile(s.inPlay, func(t int) {
		q, r := cellQR(int(s.cell[t]))
		c := cellAt(q+dq, r+dr)
		s.cell[t] = int16(c)
		s.grid[c] = int8(t + 1)
	})
}

// world brings the locked sites up to date.
func (s *State) world() {
	if s.worldOK {
		return
	}
	s.worldOK = true
	s.locked = s.articulation()
}

// relink computes every site's neighbours anew from the grid.
func (s *State) relink() {
	s.adj = [NumTiles]uint32{}
	eachTile(s.inPlay, s.link)
}

// articulation returns the sites whose removal would split the world: the
// articulation points of the sites' graph, by one depth-first search.
func (s *State) articulation() uint32 {
	if s.inPlay == 0 {
		return 0
	}
	var disc, low, parent [NumTiles]int8
	var rest [NumTiles]uint32
	var stack [NumTiles]int8
	root := bits.TrailingZeros32(s.inPlay)
	clock := int8(1)
	disc[root], low[root], parent[root] = clock, clock, -1
	rest[root] = s.adj[root]
	stack[0] = int8(root)
	sp, rootChildren := 1, 0
	var locked uint32
	for sp > 0 {
		u := int(stack[sp-1])
		if rest[u] != 0 {
			v := bits.TrailingZeros32(rest[u])
			rest[u] &= rest[u] - 1
			switch {
			case disc[v] == 0:
				clock++
				disc[v], low[v], parent[v], rest[v] = clock, clock, int8(u), s.adj[v]
				stack[sp] = int8(v)
				sp++
				if u == root {
					rootChildren++
				}
			case int(parent[u]) != v:
				low[u] = min(low[u], disc[v])
			}
			continue
		}
		sp--
		if p := int(parent[u]); p >= 0 {
			low[p] = min(low[p], low[u])
			if p != root && low[u] >= disc[p] {
				locked |= 1 << p
			}
		}
	}
	if rootChildren > 1 {
		locked |= 1 << root
	}
	return locked
}

// worldParts holds, for some locked sites, the parts the world falls into
// without each: what a new site must join to unlock it.
type worldParts struct {
	sites uint32
	// A site has six neighbours, so a connected world falls into six
	// parts at most; more (a world not connected) and split is set.
	parts [NumTiles][6]uint32
	n     [NumTiles]uint8
	split bool
}

// partsWithout returns the parts of the world without each of the locked
// sites of sites.
func (s *State) partsWithout(sites uint32) *worldParts {
	w := &worldParts{sites: sites}
	eachTile(sites, func(u int) {
		for rest := s.inPlay &^ (1 << u); rest != 0; {
			part := rest & -rest
			for frontier := part; frontier != 0; {
				var next uint32
				eachTile(frontier, func(v int) { next |= s.adj[v] })
				frontier = next & rest &^ (1 << u) &^ part
				part |= frontier
			}
			if int(w.n[u]) == len(w.parts[u]) {
				w.split = true
				return
			}
			w.parts[u][w.n[u]] = part
			w.n[u]++
			rest &^= part
		}
	})
	return w
}

// unlockedBy reports whether a site laid in the free cell c would unlock
// one of the locked sites, as a copy of the state with a site placed there
// would have them: it would where its neighbours meet every part of the
// world without the site, joining them. It returns false, false where c is
// at the grid's edge (placing there recentres the grid first) or the world
// is not connected.
func (w *worldParts) unlockedBy(s *State, c int) (unlocks, ok bool) {
	if q, r := cellQR(c); w.split || q <= 0 || q >= gridW-1 || r <= 0 || r >= gridW-1 {
		return false, false
	}
	var m uint32
	for _, off := range neighbourOffsets {
		if g := s.grid[c+off]; g != 0 {
			m |= 1 << (g - 1)
		}
	}
	for u := w.sites; u != 0; u &= u - 1 {
		t := bits.TrailingZeros32(u)
		joined := true
		for _, part := range w.parts[t][:w.n[t]] {
			joined = joined && part&m != 0
		}
		if joined {
			return true, true
		}
	}
	return false, true
}

// connectedWithout reports whether the world minus tile t is connected.
func (s *State) connectedWithout(t int) bool {
	rest := s.inPlay
	if t >= 0 {
		rest &^= 1 << t
	}
	if rest == 0 {
		return true
	}
	seen := rest & -rest
	frontier := seen
	for frontier != 0 {
		var next uint32
		eachTile(frontier, func(u int) { next |= s.adj[u] })
		next &= rest &^ seen
		seen |= next
		frontier = next
	}
	return seen == rest
}

// ringOffsets are the six neighbouring cells in order round a cell.
var ringOffsets = [6]int{1, -(gridW - 1), -gridW, -1, gridW - 1, gridW}

// lockedAt reports whether tile t is locked, from the cache if it is up to
// date, else at once when its neighbours make one unbroken arc round it
// (they stay joined through each other), else by a search of the world.
func (s *State) lockedAt(t int) bool {
	if s.worldOK {
		return s.locked>>t&1 != 0
	}
	c := int(s.cell[t])
	var ring uint
	for k, off := range ringOffsets {
		ring |= filled(s.grid[c+off]) << k
	}
	// The neighbours that start an arc: filled, with the cell before them
	// round the ring empty.
	starts := ring &^ (ring<<1 | ring>>5)
	if starts&(starts-1) == 0 {
		return false
	}
	return !s.connectedWithout(t)
}

// filled is 1 for a cell of the grid that holds a tile, else 0.
func filled(g int8) uint {
	if g != 0 {
		return 1
	}
	return 0
}

// unlockedAmong returns the sites of m that are not locked: from the cache
// if it is up to date, else each by lockedAt, which for the few sites a
// step asks about is cheaper than the search of the whole world.
func (s *State) unlockedAmong(m uint32) uint32 {
	if s.worldOK {
		return m &^ s.locked
	}
	for c := m; c != 0; c &= c - 1 {
		if t := bits.TrailingZeros32(c); s.lockedAt(t) {
			m &^= 1 << t
		}
	}
	return m
}

// anyUnlocked reports whether unlockedAmong(m) is not empty, looking no
// further than the first unlocked site.
func (s *State) anyUnlocked(m uint32) bool {
	for ; m != 0; m &= m - 1 {
		if !s.lockedAt(bits.TrailingZeros32(m)) {
			return true
		}
	}
	return false
}

// adjacent returns the tiles in play next to tile t.
func (s *State) adjacent(t int) uint32 { return s.adj[t] }

// isLocked reports whether removing tile t would split the world.
func (s *State) isLocked(t int) bool { return s.lockedAt(t) }

// within returns the tiles at 1 to k steps from tile t, stepping from site
// to neighbouring site.
func (s *State) within(t, k int) uint32 {
	seen := uint32(1) << t
	frontier := seen
	for range k {
		var next uint32
		eachTile(frontier, func(u int) { next |= s.adj[u] })
		next &^= seen
		seen |= next
		frontier = next
	}
	return seen &^ (1 << t)
}

// emptyAround adds to set the empty cells next to tile t.
func (s *State) emptyAround(t int, set *cellSet) {
	c := int(s.cell[t])
	for _, off := range neighbourOffsets {
		if s.grid[c+off] == 0 {
			set.add(c + off)
		}
	}
}

// sortedOffsets are the six neighbouring cells in the order of their
// numbers.
var sortedOffsets = [6]int{-gridW, -(gridW - 1), -1, 1, gridW - 1, gridW}

// appendSpacesAround appends, as moves, the empty cells next to tile t in
// the order of their numbers.
func (s *State) appendSpacesAround(dst []game.Move, t int) []game.Move {
	c := int(s.cell[t])
	for _, off := range sortedOffsets {
		if s.grid[c+off] == 0 {
			dst = append(dst, vSpace|game.Move(c+off))
		}
	}
	return dst
}

// hasEmptyAround reports whether tile t has an empty neighbouring cell:
// fewer than six neighbours.
func (s *State) hasEmptyAround(t int) bool { return bits.OnesCount32(s.adj[t]) < 6 }

// spacefulAmong returns the sites among cand with an empty neighbouring
// cell.
func (s *State) spacefulAmong(cand uint32) uint32 {
	var m uint32
	for u := cand; u != 0; u &= u - 1 {
		if t := bits.TrailingZeros32(u); bits.OnesCount32(s.adj[t]) < 6 {
			m |= 1 << t
		}
	}
	return m
}

// spaces returns the cells a site may be placed in: the empty cells next to
// the world. With moving >= 0, the cells next to the world without that
// tile, other than its own cell.
func (s *State) spaces(moving int) cellSet {
	var set cellSet
	// A site with six neighbours has no empty cell around it but, when
	// its neighbour is the one moving, that site's own cell.
	eachTile(s.spacefulAmong(s.inPlay), func(t int) {
		if t != moving {
			s.emptyAround(t, &set)
		}
	})
	if moving >= 0 {
		set.remove(int(s.cell[moving]))
	}
	return set
}

// havens returns the havens in play.
func (s *State) havens() uint32 { return s.havenMask }

// siteIn returns the site number of tile t as it lies.
func (s *State) siteIn(t int) int { return siteOf(t, int(s.side[t])) }

// energyOf returns the energy of tile t as it lies.
func (s *State) energyOf(t int) Energy { return Sites[s.siteIn(t)].Energy }

// ofEnergy returns the tiles in play of energy e.
func (s *State) ofEnergy(e Energy) uint32 { return s.energyMask[e] }

// inPlaySite returns the tile of site number site if it lies face up in
// play, or -1.
func (s *State) inPlaySite(site int) int {
	if s.faceUp>>site&1 != 0 {
		return site / 2
	}
	return -1
}
