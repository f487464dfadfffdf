package bluelagoon_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// This file holds the reference model: the project's rules page (sections 2
// to 10; docs/rules.md restates its decisions) written down again in the
// plainest way, with grids, maps and loops, no bitsets and nothing clever, so
// that it is obviously right. The differential tests play it against the
// engine.
//
// It reads and writes the state notation itself, with a lenient reader that
// trusts its input (written by a test or by the engine): the strict parser is
// the engine's and is tested on its own.

type (
	coord = bluelagoon.Coord
	move  = bluelagoon.Move
)

// refTokens are the token letters in notation order; the first four are the
// resources.
const refTokens = "CBWPS"

type refIsland struct {
	bonus int
	cells []coord
}

// refScore is one player's score, component by component (rules section 8).
type refScore struct {
	islands, links, majorities, resources, set, statuettes, total int
}

type refGame struct {
	height, players int
	islands         []refIsland
	islandOf        [][]int // per space: index in islands, or -1 for sea
	stones          []coord // in row-then-column order
	nbrs            [][][]coord

	current int
	phase   byte // 'E' or 'S'
	over    bool // the current phase is over; in phase 'S' the game is over

	owner    [][]int  // per space: the player whose piece stands there, or -1
	village  [][]bool // per space: the piece there is a village
	token    [][]byte // per space: the letter of the token lying there, or 0
	settlers []int    // per player: settlers on the board
	villages []int    // per player: villages on the board
	held     []map[byte]int
	totals   []int

	// phaseScores holds the breakdown of each phase this model scored.
	phaseScores map[byte][]refScore
}

func compareCoords(a, b coord) int {
	if a.Row != b.Row {
		return a.Row - b.Row
	}
	return a.Col - b.Col
}

func parseRefCoord(s string) coord {
	r, c, ok := strings.Cut(s, ",")
	if !ok {
		panic("reference model: bad coordinate " + s)
	}
	return coord{Row: atoi(r), Col: atoi(c)}
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic("reference model: bad number " + s)
	}
	return n
}

// grid returns a value per space of a board of height h.
func grid[T any](h int, zero T) [][]T {
	g := make([][]T, h)
	for r := range g {
		g[r] = make([]T, h)
		for c := range g[r] {
			g[r][c] = zero
		}
	}
	return g
}

// newRefGame reads a state in the notation.
func newRefGame(state string) *refGame {
	g := &refGame{phaseScores: map[byte][]refScore{}}
	type placed struct {
		player  int
		c       coord
		village bool
	}
	var pieces []placed
	tokens := map[coord]byte{}
	for _, stmt := range strings.Split(strings.TrimSuffix(state, ";"), "; ") {
		f := strings.Fields(stmt)
		switch f[0] {
		case "a":
			g.height, g.players = atoi(f[1]), atoi(f[2])
		case "c":
			g.current, g.phase = atoi(f[1]), f[2][0]
		case "i":
			isl := refIsland{bonus: atoi(f[1])}
			for _, s := range f[2:] {
				isl.cells = append(isl.cells, parseRefCoord(s))
			}
			g.islands = append(g.islands, isl)
		case "s":
			for _, s := range f[1:] {
				g.stones = append(g.stones, parseRefCoord(s))
			}
		case "r":
			var kind byte
			for _, s := range f[1:] {
				if len(s) == 1 {
					kind = s[0]
					continue
				}
				tokens[parseRefCoord(s)] = kind
			}
		case "p":
			p := atoi(f[1])
			held := map[byte]int{}
			for k := range 5 {
				held[refTokens[k]] = atoi(f[3+k])
			}
			village := false
			for _, s := range f[8:] {
				switch s {
				case "S":
					village = false
				case "T":
					village = true
				default:
					pieces = append(pieces, placed{p, parseRefCoord(s), village})
				}
			}
			g.totals = append(g.totals, atoi(f[2]))
			g.held = append(g.held, held)
		default:
			panic("reference model: unknown statement " + stmt)
		}
	}
	// Canonical order: islands by bonus, then by their cells.
	for _, isl := range g.islands {
		slices.SortFunc(isl.cells, compareCoords)
	}
	slices.SortStableFunc(g.islands, func(a, b refIsland) int {
		if a.bonus != b.bonus {
			return a.bonus - b.bonus
		}
		return slices.CompareFunc(a.cells, b.cells, compareCoords)
	})
	slices.SortFunc(g.stones, compareCoords)

	g.islandOf = grid(g.height, -1)
	for i, isl := range g.islands {
		for _, c := range isl.cells {
			g.islandOf[c.Row][c.Col] = i
		}
	}
	g.nbrs = grid[[]coord](g.height, nil)
	for r := range g.height {
		for c := range g.rowLen(r) {
			g.nbrs[r][c] = g.computeNeighbours(coord{Row: r, Col: c})
		}
	}
	g.token = grid(g.height, byte(0))
	for c, k := range tokens {
		g.token[c.Row][c.Col] = k
	}
	g.owner = grid(g.height, -1)
	g.village = grid(g.height, false)
	g.settlers = make([]int, g.players)
	g.villages = make([]int, g.players)
	for _, pc := range pieces {
		g.owner[pc.c.Row][pc.c.Col] = pc.player
		g.village[pc.c.Row][pc.c.Col] = pc.village
		if pc.village {
			g.villages[pc.player]++
		} else {
			g.settlers[pc.player]++
		}
	}
	g.over = g.resourcesCollected() == 24 || !g.anyoneCanMove()
	return g
}

// newRefGameFrom starts a game of the given players on a board in the
// notation, with the first player to move and the token layout given.
func newRefGameFrom(boardText string, players, first int, layout map[coord]byte) *refGame {
	g := newRefGame(boardText)
	g.players = players
	g.current = first
	g.settlers = make([]int, players)
	g.villages = make([]int, players)
	g.totals = make([]int, players)
	g.held = nil
	for range players {
		g.held = append(g.held, map[byte]int{})
	}
	g.layTokens(layout)
	if !g.canMove(first) {
		panic("reference model: the first player cannot move")
	}
	return g
}

func (g *refGame) layTokens(layout map[coord]byte) {
	g.token = grid(g.height, byte(0))
	for c, k := range layout {
		g.token[c.Row][c.Col] = k
	}
}

func (g *refGame) rowLen(r int) int {
	if r%2 == 0 {
		return g.height - 1
	}
	return g.height
}

func (g *refGame) onBoard(c coord) bool {
	return c.Row >= 0 && c.Row < g.height && c.Col >= 0 && c.Col < g.rowLen(c.Row)
}

// neighbours returns the spaces next to c.
func (g *refGame) neighbours(c coord) []coord { return g.nbrs[c.Row][c.Col] }

// computeNeighbours follows rules section 2.
func (g *refGame) computeNeighbours(c coord) []coord {
	cand := []coord{{Row: c.Row, Col: c.Col - 1}, {Row: c.Row, Col: c.Col + 1}}
	if c.Row%2 == 0 {
		cand = append(cand,
			coord{Row: c.Row - 1, Col: c.Col}, coord{Row: c.Row - 1, Col: c.Col + 1},
			coord{Row: c.Row + 1, Col: c.Col}, coord{Row: c.Row + 1, Col: c.Col + 1})
	} else {
		cand = append(cand,
			coord{Row: c.Row - 1, Col: c.Col - 1}, coord{Row: c.Row - 1, Col: c.Col},
			coord{Row: c.Row + 1, Col: c.Col - 1}, coord{Row: c.Row + 1, Col: c.Col})
	}
	return slices.DeleteFunc(cand, func(n coord) bool { return !g.onBoard(n) })
}

func (g *refGame) isLand(c coord) bool { return g.islandOf[c.Row][c.Col] >= 0 }

func (g *refGame) nextToOwnPiece(p int, c coord) bool {
	for _, n := range g.neighbours(c) {
		if g.owner[n.Row][n.Col] == p {
			return true
		}
	}
	return false
}

func (g *refGame) settlerAllowance() int {
	switch g.players {
	case 2:
		return 30
	case 3:
		return 25
	}
	return 20
}

func (g *refGame) settlersLeft(p int) int { return g.settlerAllowance() - g.settlers[p] }

func (g *refGame) villagesLeft(p int) int {
	if g.phase == 'S' {
		return 0 // villages never placed are out of the game
	}
	return 5 - g.villages[p]
}

// legal says whether player p may make move m now (rules section 4).
func (g *refGame) legal(p int, m move) bool {
	c := m.At
	if !g.onBoard(c) || g.owner[c.Row][c.Col] >= 0 {
		return false
	}
	land := g.isLand(c)
	near := g.nextToOwnPiece(p, c)
	switch m.Piece {
	case bluelagoon.Village:
		return g.phase == 'E' && g.villagesLeft(p) > 0 && land && near
	case bluelagoon.Settler:
		if g.settlersLeft(p) == 0 {
			return false
		}
		if g.phase == 'E' {
			return !land || near
		}
		return near
	}
	return false
}

// legalMoves lists player p's legal moves by row, column, settler first.
func (g *refGame) legalMoves(p int) []move {
	var out []move
	for r := range g.height {
		for c := range g.rowLen(r) {
			for _, piece := range []bluelagoon.Piece{bluelagoon.Settler, bluelagoon.Village} {
				if m := (move{Piece: piece, At: coord{Row: r, Col: c}}); g.legal(p, m) {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// moves lists the legal moves of the player to move; none once the phase is
// over.
func (g *refGame) moves() []move {
	if g.over {
		return nil
	}
	return g.legalMoves(g.current)
}

func (g *refGame) canMove(p int) bool {
	for r := range g.height {
		for c := range g.rowLen(r) {
			for _, piece := range []bluelagoon.Piece{bluelagoon.Settler, bluelagoon.Village} {
				if g.legal(p, move{Piece: piece, At: coord{Row: r, Col: c}}) {
					return true
				}
			}
		}
	}
	return false
}

func (g *refGame) anyoneCanMove() bool {
	for p := range g.players {
		if g.canMove(p) {
			return true
		}
	}
	return false
}

func (g *refGame) resourcesCollected() int {
	n := 0
	for p := range g.players {
		for _, t := range refTokens[:4] {
			n += g.held[p][byte(t)]
		}
	}
	return n
}

// nextMover returns the first player after p, in seat order and wrapping
// around to p last, who can move, or -1.
func (g *refGame) nextMover(p int) int {
	for k := 1; k <= g.players; k++ {
		if q := (p + k) % g.players; g.canMove(q) {
			return q
		}
	}
	return -1
}

// apply plays m for the player to move, which must be legal. layout is asked
// for the settlement phase's token layout (the chance event) if the move
// ends the exploration phase.
func (g *refGame) apply(m move, layout func() map[coord]byte) {
	p := g.current
	if g.over || !g.legal(p, m) {
		panic(fmt.Sprintf("reference model: illegal move %v by player %d", m, p))
	}
	r, c := m.At.Row, m.At.Col
	g.owner[r][c] = p
	g.village[r][c] = m.Piece == bluelagoon.Village
	if m.Piece == bluelagoon.Village {
		g.villages[p]++
	} else {
		g.settlers[p]++
	}
	if t := g.token[r][c]; t != 0 {
		g.token[r][c] = 0
		g.held[p][t]++
	}
	if g.resourcesCollected() == 24 || !g.anyoneCanMove() {
		g.endPhase(layout)
		return
	}
	g.current = g.nextMover(p)
}

// endPhase follows rules section 7; g.current is the player who moved last.
func (g *refGame) endPhase(layout func() map[coord]byte) {
	g.scorePhase()
	if g.phase == 'S' {
		g.over = true
		return
	}
	for r := range g.height {
		for c := range g.rowLen(r) {
			p := g.owner[r][c]
			if p < 0 {
				continue
			}
			onStone := slices.Contains(g.stones, coord{Row: r, Col: c})
			if !g.village[r][c] || onStone {
				g.owner[r][c] = -1
				g.village[r][c] = false
			}
		}
	}
	for p := range g.players {
		g.settlers[p] = 0
		g.villages[p] = 0
		g.held[p] = map[byte]int{}
	}
	for r := range g.height {
		for c := range g.rowLen(r) {
			if p := g.owner[r][c]; p >= 0 {
				g.villages[p]++
			}
		}
	}
	g.layTokens(layout())
	g.phase = 'S'
	if q := g.nextMover(g.current); q >= 0 {
		g.current = q
		return
	}
	g.scorePhase()
	g.over = true
}

func (g *refGame) scorePhase() {
	s := g.scores()
	g.phaseScores[g.phase] = s
	for p := range g.players {
		g.totals[p] += s[p].total
	}
}

// scores scores the board as it stands and the tokens held (section 8).
func (g *refGame) scores() []refScore {
	out := make([]refScore, g.players)
	count := make([][]int, len(g.islands)) // island -> player -> pieces
	for i := range count {
		count[i] = make([]int, g.players)
	}
	for r := range g.height {
		for c := range g.rowLen(r) {
			if p, i := g.owner[r][c], g.islandOf[r][c]; p >= 0 && i >= 0 {
				count[i][p]++
			}
		}
	}

	for p := range g.players {
		sc := &out[p]
		on := 0
		for i := range g.islands {
			if count[i][p] > 0 {
				on++
			}
		}
		switch {
		case on >= 8:
			sc.islands = 20
		case on == 7:
			sc.islands = 10
		}

		// Links: flood each connected group of the player's pieces and
		// count the islands it stands on.
		seen := make([]bool, g.height*g.height) // by row*height+col
		best := 0
		for r := range g.height {
			for c := range g.rowLen(r) {
				start := coord{Row: r, Col: c}
				if g.owner[r][c] != p || seen[r*g.height+c] {
					continue
				}
				group := map[int]bool{}
				todo := []coord{start}
				seen[r*g.height+c] = true
				for len(todo) > 0 {
					x := todo[len(todo)-1]
					todo = todo[:len(todo)-1]
					if i := g.islandOf[x.Row][x.Col]; i >= 0 {
						group[i] = true
					}
					for _, n := range g.neighbours(x) {
						if g.owner[n.Row][n.Col] == p && !seen[n.Row*g.height+n.Col] {
							seen[n.Row*g.height+n.Col] = true
							todo = append(todo, n)
						}
					}
				}
				best = max(best, len(group))
			}
		}
		sc.links = 5 * best

		kinds := 0
		for _, t := range refTokens[:4] {
			switch n := g.held[p][byte(t)]; {
			case n >= 4:
				sc.resources += 20
			case n == 3:
				sc.resources += 10
			case n == 2:
				sc.resources += 5
			}
			if g.held[p][byte(t)] > 0 {
				kinds++
			}
		}
		if kinds == 4 {
			sc.set = 10
		}
		sc.statuettes = 4 * g.held[p]['S']
	}

	for i, isl := range g.islands {
		most := slices.Max(count[i])
		if most == 0 {
			continue
		}
		var tied []int
		for p, n := range count[i] {
			if n == most {
				tied = append(tied, p)
			}
		}
		for _, p := range tied {
			out[p].majorities += isl.bonus / len(tied)
		}
	}

	for p := range out {
		sc := &out[p]
		sc.total = sc.islands + sc.links + sc.majorities + sc.resources + sc.set + sc.statuettes
	}
	return out
}

func (g *refGame) tokensHeld(p int) int {
	n := 0
	for _, c := range g.held[p] {
		n += c
	}
	return n
}

// winners follows rules section 9; nil until the game is over.
func (g *refGame) winners() []int {
	if !(g.phase == 'S' && g.over) {
		return nil
	}
	best := slices.Max(g.totals)
	var top []int
	for p, t := range g.totals {
		if t == best {
			top = append(top, p)
		}
	}
	most := 0
	for _, p := range top {
		most = max(most, g.tokensHeld(p))
	}
	var win []int
	for _, p := range top {
		if g.tokensHeld(p) == most {
			win = append(win, p)
		}
	}
	return win
}

// String writes the state in canonical notation (rules section 10).
func (g *refGame) String() string {
	var b []byte
	num := func(n int) { b = strconv.AppendInt(b, int64(n), 10) }
	space := func(c coord) {
		b = append(b, ' ')
		num(c.Row)
		b = append(b, ',')
		num(c.Col)
	}
	b = append(b, "a "...)
	num(g.height)
	b = append(b, ' ')
	num(g.players)
	b = append(b, "; c "...)
	num(g.current)
	b = append(b, ' ', g.phase, ';')
	for _, isl := range g.islands {
		b = append(b, " i "...)
		num(isl.bonus)
		for _, c := range isl.cells {
			space(c)
		}
		b = append(b, ';')
	}
	b = append(b, " s"...)
	for _, c := range g.stones {
		space(c)
	}
	b = append(b, "; r"...)
	for _, t := range []byte(refTokens) {
		b = append(b, ' ', t)
		for _, c := range g.stones {
			if g.token[c.Row][c.Col] == t {
				space(c)
			}
		}
	}
	b = append(b, ';')
	for p := range g.players {
		b = append(b, " p "...)
		num(p)
		b = append(b, ' ')
		num(g.totals[p])
		for _, t := range []byte(refTokens) {
			b = append(b, ' ')
			num(g.held[p][t])
		}
		for _, kind := range []byte("ST") {
			b = append(b, ' ', kind)
			for r := range g.height {
				for c := range g.rowLen(r) {
					if g.owner[r][c] == p && g.village[r][c] == (kind == 'T') {
						space(coord{Row: r, Col: c})
					}
				}
			}
		}
		b = append(b, ';')
	}
	return string(b)
}
