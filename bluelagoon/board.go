package bluelagoon

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Board limits. Every board has exactly NumStoneCircles stone circles, one
// for each of the 32 tokens.
const (
	MinHeight       = 3
	MaxHeight       = 24
	MaxIslands      = 64
	NumStoneCircles = 32
)

// Coord names a space by row and column, as in the notation: "9,3".
type Coord struct {
	Row, Col int
}

func (c Coord) String() string { return fmt.Sprintf("%d,%d", c.Row, c.Col) }

func compareCoords(a, b Coord) int {
	if a.Row != b.Row {
		return cmp.Compare(a.Row, b.Row)
	}
	return cmp.Compare(a.Col, b.Col)
}

// RowLen returns the number of spaces in row r of a board of height h:
// even rows are the short, indented ones.
func RowLen(h, r int) int {
	if r%2 == 0 {
		return h - 1
	}
	return h
}

// Island is a group of land spaces with a majority bonus.
type Island struct {
	Bonus  int
	Spaces []Coord // in row-then-column order
}

// A Board is the hex map of a game: its rows, islands and stone circles.
// A Board is immutable once made and is shared by every game played on it.
//
// Spaces are numbered row by row from 0; with that numbering the six
// neighbours of a space are always at the same offsets (±1, -h, -h+1, h-1, h),
// which is what lets the engine keep sets of spaces as bitsets.
type Board struct {
	name      string
	height    int
	size      int // number of spaces
	words     int // bitset words in use
	rowStart  []int
	coords    []Coord
	names     []string // per space: its coordinates as text, for views
	islandOf  []int8   // per space: island index, or -1 for sea
	circleOf  []int8   // per space: stone circle index, or -1
	circles   []int    // stone circle index -> space, in row-then-column order
	islands   []Island
	nbr       [][6]int16 // per space: neighbours, padded with size (past the board)
	islandBit []uint64   // per space: 1<<island, or 0 for sea
	adj       []window   // per space: its neighbours, as two bitset words
	land      bitset
	sea       bitset
	stones    bitset
	island    []bitset // per island: its spaces
	span      [][2]int // per island: the bitset words it lies in, [first, last+1)
}

// newBoard checks a board description and builds its tables.
// Islands and stone circles are given in any order; the board keeps them in
// canonical order.
func newBoard(height int, islands []Island, stones []Coord) (*Board, error) {
	if height < MinHeight || height > MaxHeight {
		return nil, fmt.Errorf("board height %d is out of range %d to %d", height, MinHeight, MaxHeight)
	}
	b := &Board{height: height}
	b.numberSpaces()
	sorted, err := b.canonicalIslands(islands)
	if err != nil {
		return nil, err
	}
	if err := b.setIslands(sorted); err != nil {
		return nil, err
	}
	if err := b.setStoneCircles(stones); err != nil {
		return nil, err
	}
	b.linkNeighbours()
	return b, nil
}

// numberSpaces numbers the spaces row by row and names each.
func (b *Board) numberSpaces() {
	b.rowStart = make([]int, b.height+1)
	for r := range b.height {
		b.rowStart[r+1] = b.rowStart[r] + RowLen(b.height, r)
	}
	b.size = b.rowStart[b.height]
	b.words = (b.size + 63) / 64
	b.coords = make([]Coord, b.size)
	b.names = make([]string, b.size)
	for r := range b.height {
		for c := range RowLen(b.height, r) {
			b.coords[b.rowStart[r]+c] = Coord{r, c}
			b.names[b.rowStart[r]+c] = Coord{r, c}.String()
		}
	}
}

// canonicalIslands checks the islands one by one and returns copies of them
// in canonical order: by bonus, then by spaces, each island's spaces in
// row-then-column order. The caller's islands are left as they are.
func (b *Board) canonicalIslands(islands []Island) ([]Island, error) {
	if len(islands) == 0 {
		return nil, fmt.Errorf("board has no islands")
	}
	if len(islands) > MaxIslands {
		return nil, fmt.Errorf("board has %d islands, more than the %d supported", len(islands), MaxIslands)
	}
	sorted := make([]Island, len(islands))
	for i, isl := range islands {
		sp, err := b.islandSpaces(i, isl)
		if err != nil {
			return nil, err
		}
		sorted[i] = Island{Bonus: isl.Bonus, Spaces: sp}
	}
	slices.SortStableFunc(sorted, func(x, y Island) int {
		if x.Bonus != y.Bonus {
			return cmp.Compare(x.Bonus, y.Bonus)
		}
		return slices.CompareFunc(x.Spaces, y.Spaces, compareCoords)
	})
	return sorted, nil
}

// islandSpaces checks island i of the description and returns its spaces
// sorted, each on the board and listed once.
func (b *Board) islandSpaces(i int, isl Island) ([]Coord, error) {
	if len(isl.Spaces) == 0 {
		return nil, fmt.Errorf("island %d (bonus %d) has no spaces", i, isl.Bonus)
	}
	if isl.Bonus < 0 {
		return nil, fmt.Errorf("island %d has a negative bonus %d", i, isl.Bonus)
	}
	sp := slices.Clone(isl.Spaces)
	slices.SortFunc(sp, compareCoords)
	for j, c := range sp {
		if !b.OnBoard(c) {
			return nil, fmt.Errorf("island %d: space %v is off the board", i, c)
		}
		if j > 0 && sp[j-1] == c {
			return nil, fmt.Errorf("island %d lists space %v twice", i, c)
		}
	}
	return sp, nil
}

// setIslands lays the islands, in canonical order, on the board: the island
// of each space, land and sea, and each island's spaces as a bitset and the
// words it spans. Islands must not overlap.
func (b *Board) setIslands(sorted []Island) error {
	b.islands = sorted
	b.islandOf = make([]int8, b.size)
	for i := range b.islandOf {
		b.islandOf[i] = -1
	}
	for i, isl := range sorted {
		for _, c := range isl.Spaces {
			s := b.index(c)
			if o := b.islandOf[s]; o >= 0 {
				return fmt.Errorf("islands overlap at %v", c)
			}
			b.islandOf[s] = int8(i)
			b.land.set(s)
		}
	}
	for s := range b.size {
		if b.islandOf[s] < 0 {
			b.sea.set(s)
		}
	}
	b.span = make([][2]int, len(sorted))
	for i, isl := range sorted {
		b.span[i] = [2]int{b.index(isl.Spaces[0]) >> 6, b.index(isl.Spaces[len(isl.Spaces)-1])>>6 + 1}
	}
	b.island = make([]bitset, len(sorted))
	b.islandBit = make([]uint64, b.size)
	for s, i := range b.islandOf {
		if i >= 0 {
			b.island[i].set(s)
			b.islandBit[s] = 1 << uint(i)
		}
	}
	return nil
}

// setStoneCircles checks the stone circles, on land, each listed once and
// exactly NumStoneCircles of them, and numbers them in row-then-column
// order. The islands must be laid first.
func (b *Board) setStoneCircles(stones []Coord) error {
	st := slices.Clone(stones)
	slices.SortFunc(st, compareCoords)
	b.circleOf = make([]int8, b.size)
	for i := range b.circleOf {
		b.circleOf[i] = -1
	}
	for j, c := range st {
		if !b.OnBoard(c) {
			return fmt.Errorf("stone circle %v is off the board", c)
		}
		if j > 0 && st[j-1] == c {
			return fmt.Errorf("stone circle %v is listed twice", c)
		}
		s := b.index(c)
		if b.islandOf[s] < 0 {
			return fmt.Errorf("stone circle %v is not on land", c)
		}
	}
	if len(st) != NumStoneCircles {
		return fmt.Errorf("board has %d stone circles, want exactly %d", len(st), NumStoneCircles)
	}
	b.circles = make([]int, len(st))
	for i, c := range st {
		s := b.index(c)
		b.circles[i] = s
		b.circleOf[s] = int8(i)
		b.stones.set(s)
	}
	return nil
}

// linkNeighbours builds each space's neighbours, as a list padded with
// b.size and as a window of two bitset words.
func (b *Board) linkNeighbours() {
	b.nbr = make([][6]int16, b.size)
	b.adj = make([]window, b.size)
	for s, c := range b.coords {
		n := b.nbr[s][:0]
		for _, d := range neighbourOffsets(c.Row) {
			nc := Coord{c.Row + d.Row, c.Col + d.Col}
			if b.OnBoard(nc) {
				n = append(n, int16(b.index(nc)))
			}
		}
		for k := len(n); k < 6; k++ {
			b.nbr[s][k] = int16(b.size)
		}
		// The neighbours are at most 2*height+1 spaces apart, so two
		// words hold them all.
		w := min(max(s-b.height-1, 0)>>6, maxWords-2)
		b.adj[s].word = w
		for _, t := range n {
			b.adj[s].bits[t>>6-int16(w)] |= 1 << (uint(t) & 63)
		}
	}
}

// neighbourOffsets returns the (row, column) offsets of the six neighbours of
// a space in row r.
func neighbourOffsets(r int) [6]Coord {
	if r%2 == 0 {
		return [6]Coord{{0, -1}, {0, 1}, {-1, 0}, {-1, 1}, {1, 0}, {1, 1}}
	}
	return [6]Coord{{0, -1}, {0, 1}, {-1, -1}, {-1, 0}, {1, -1}, {1, 0}}
}

// Name returns the board's built-in name, or "" for a board made from notation.
func (b *Board) Name() string { return b.name }

// Height returns the number of rows.
func (b *Board) Height() int { return b.height }

// NumSpaces returns the number of spaces, land and sea.
func (b *Board) NumSpaces() int { return b.size }

// OnBoard reports whether c is a space of the board.
func (b *Board) OnBoard(c Coord) bool {
	return c.Row >= 0 && c.Row < b.height && c.Col >= 0 && c.Col < RowLen(b.height, c.Row)
}

func (b *Board) index(c Coord) int { return b.rowStart[c.Row] + c.Col }

// Islands returns the islands in canonical order: by bonus, then by spaces.
// The result must not be modified.
func (b *Board) Islands() []Island { return b.islands }

// IslandAt returns the index in Islands of the island c belongs to, or -1 for
// a sea space or a space off the board.
func (b *Board) IslandAt(c Coord) int {
	if !b.OnBoard(c) {
		return -1
	}
	return int(b.islandOf[b.index(c)])
}

// IsStoneCircle reports whether c is a stone circle.
func (b *Board) IsStoneCircle(c Coord) bool {
	return b.OnBoard(c) && b.circleOf[b.index(c)] >= 0
}

// StoneCircles returns the stone circles in row-then-column order.
func (b *Board) StoneCircles() []Coord {
	out := make([]Coord, len(b.circles))
	for i, s := range b.circles {
		out[i] = b.coords[s]
	}
	return out
}

// Neighbours returns the spaces adjacent to c, in the order left, right,
// above, below.
func (b *Board) Neighbours(c Coord) []Coord {
	if !b.OnBoard(c) {
		return nil
	}
	var out []Coord
	for _, t := range b.nbr[b.index(c)] {
		if int(t) < b.size {
			out = append(out, b.coords[t])
		}
	}
	return out
}

// A window is a set of spaces that lies in two consecutive words of a
// bitset: the neighbours of a space.
type window struct {
	word int // the first of the two words
	bits [2]uint64
}

// String returns the board in the notation, as the boards are exchanged: a
// two-player state with no pieces and no tokens laid out.
func (b *Board) String() string {
	g := Game{board: b, players: 2, allowance: uint8(SettlerAllowance(2))}
	for i := range g.tokens {
		g.tokens[i] = noToken
	}
	return g.String()
}

// BoardFromText reads a board as the option board gives it: a built-in
// board's name (the board itself is returned), or a board in the notation.
func BoardFromText(s string) (*Board, error) {
	if strings.HasPrefix(s, "a ") {
		return ParseBoard(s)
	}
	return BoardByName(s)
}
