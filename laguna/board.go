package laguna

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Size is the side of the board in squares: Laguna's board is 24 by 24.
const Size = 24

// NumSquares is the number of squares of the board.
const NumSquares = Size * Size

// NumIslands is the number of pearl islands on the board's edges.
const NumIslands = 8

// Volcano is the place number of the volcano; islands are places 0 to 7.
const Volcano = NumIslands

// A Kind is what a square shows.
type Kind uint8

// The kinds of square. Water, reefs and arrows are water a raft may cover;
// island and volcano squares are land, cut out of the board.
const (
	Water Kind = iota
	Reef
	ArrowN // a current towards the top of the board
	ArrowE
	ArrowS
	ArrowW
	Land // an island's or the volcano's square
)

// IsArrow reports whether k is a current arrow.
func (k Kind) IsArrow() bool { return k >= ArrowN && k <= ArrowW }

// Dir returns the direction of an arrow.
func (k Kind) Dir() Dir { return Dir(k - ArrowN) }

// A Dir is one of the four directions a raft steps in.
type Dir uint8

// The directions, clockwise from the top of the board.
const (
	North Dir = iota
	East
	South
	West
)

var dirRow = [4]int{-1, 0, 1, 0}
var dirCol = [4]int{0, 1, 0, -1}

// DirNames are the directions in the notation.
var DirNames = [4]string{"N", "E", "S", "W"}

// A Square is a square's index, row by row from the top left: row*Size+col.
type Square int

// Row and Col return the square's row and column, from 0.
func (s Square) Row() int { return int(s) / Size }
func (s Square) Col() int { return int(s) % Size }

// At returns the square at row r and column c, which must be on the board.
func At(r, c int) Square { return Square(r*Size + c) }

// String writes the square as its column letter (a to x, left to right) and
// its row number (1 to 24, top to bottom): "c7".
func (s Square) String() string {
	return string(rune('a'+s.Col())) + strconv.Itoa(s.Row()+1)
}

// ParseSquare reads a square written as String writes it.
func ParseSquare(text string) (Square, error) {
	if len(text) < 2 || len(text) > 3 || text[0] < 'a' || text[0] >= 'a'+Size {
		return 0, fmt.Errorf("square %q: a square is a column a to x and a row 1 to 24, as c7", text)
	}
	r, err := strconv.Atoi(text[1:])
	if err != nil || r < 1 || r > Size || text[1] == '0' || text[1] == '+' {
		return 0, fmt.Errorf("square %q: a square is a column a to x and a row 1 to 24, as c7", text)
	}
	return At(r-1, int(text[0]-'a')), nil
}

// An Orient is how a raft lies, chosen when it is first placed and kept for
// the whole game.
type Orient uint8

// The orientations: Across is 3 squares wide and 2 high, Down 2 wide and 3
// high.
const (
	Across Orient = iota
	Down
)

// OrientNames are the orientations in the notation.
var OrientNames = [2]string{"H", "V"}

// Holes is the number of holes in a raft, one over each square it covers.
const Holes = 6

// holeOffset returns the row and column of hole h (0 to 5) from the raft's
// top-left square. Holes are numbered along the raft's long sides: 1, 2, 3
// along the first and 4, 5, 6 along the second; so the same hole number is
// the same place on a raft lying across and one lying down, turned over its
// diagonal (top left stays top left, bottom right stays bottom right).
func holeOffset(o Orient, h int) (dr, dc int) {
	if o == Across {
		return h / 3, h % 3
	}
	return h % 3, h / 3
}

// extent returns the rows and columns a raft of orientation o covers.
func extent(o Orient) (rows, cols int) {
	if o == Across {
		return 2, 3
	}
	return 3, 2
}

// Board is a Laguna board: 24 by 24 squares of water, reefs and current
// arrows, eight pearl islands on the edges, each with its landing line, and
// the volcano in the middle. It is immutable once made, and shared by every
// game played on it.
type Board struct {
	name string
	kind [NumSquares]Kind
	// place is the island (0 to 7) or the volcano (8) a land square
	// belongs to, and -1 for water.
	place [NumSquares]int8
	// landing is the island whose landing line a water square lies on, or
	// -1.
	landing [NumSquares]int8
	// fits tells, per orientation, whether a raft whose top-left square is
	// s lies on six water squares inside the board.
	fits [2][NumSquares]bool
	// touch is the place (island or volcano) a raft at s touches along an
	// edge, or -1; a checked board has no raft position touching two.
	touch [2][NumSquares]int8
	// start is the island whose landing line a raft at s touches, or -1:
	// the positions a raft may be placed on at the start.
	start [2][NumSquares]int8
}

// Name returns the board's name, "" for a board read from its notation.
func (b *Board) Name() string { return b.name }

// Kind returns what square s shows.
func (b *Board) Kind(s Square) Kind { return b.kind[s] }

// Place returns the island (0 to 7) or volcano (8) of a land square, or -1.
func (b *Board) Place(s Square) int { return int(b.place[s]) }

// Landing returns the island whose landing line water square s lies on, or -1.
func (b *Board) Landing(s Square) int { return int(b.landing[s]) }

// Fits reports whether a raft of orientation o with its top-left square at s
// lies on six water squares inside the board.
func (b *Board) Fits(o Orient, s Square) bool { return s >= 0 && s < NumSquares && b.fits[o][s] }

// Touches returns the island or volcano a raft at s touches, or -1.
func (b *Board) Touches(o Orient, s Square) int { return int(b.touch[o][s]) }

// StartIsland returns the island whose landing line a raft at s touches, or
// -1: where a raft may be placed at the start.
func (b *Board) StartIsland(o Orient, s Square) int { return int(b.start[o][s]) }

// HoleSquare returns the square under hole h of a raft of orientation o at s.
func HoleSquare(o Orient, s Square, h int) Square {
	dr, dc := holeOffset(o, h)
	return s + Square(dr*Size+dc)
}

// step returns the top-left square of a raft at s of orientation o moved
// one square in direction d, and false if the raft would leave the board.
func step(o Orient, s Square, d Dir) (Square, bool) {
	rows, cols := extent(o)
	r, c := s.Row()+dirRow[d], s.Col()+dirCol[d]
	if r < 0 || c < 0 || r+rows > Size || c+cols > Size {
		return 0, false
	}
	return At(r, c), true
}

// inside reports whether a raft of orientation o at s lies inside the board.
func inside(o Orient, s Square) bool {
	rows, cols := extent(o)
	return s.Row()+rows <= Size && s.Col()+cols <= Size
}

// The characters of the board notation.
const (
	chWater   = '.'
	chReef    = '#'
	chVolcano = '@'
)

var arrowChars = [4]byte{'^', '>', 'v', '<'}

// IslandNames are the islands' letters, A to H.
const IslandNames = "ABCDEFGH"

// String writes the board in its notation: 24 lines of 24 characters, each
// followed by a newline (see docs/laguna.md).
func (b *Board) String() string { return b.rows("\n") + "\n" }

// Line writes the board on one line, its rows joined by "/": how a state
// and an option carry a board of the players' own.
func (b *Board) Line() string { return b.rows("/") }

func (b *Board) rows(sep string) string {
	var sb strings.Builder
	for r := range Size {
		if r > 0 {
			sb.WriteString(sep)
		}
		for c := range Size {
			sb.WriteByte(b.char(At(r, c)))
		}
	}
	return sb.String()
}

func (b *Board) char(s Square) byte {
	switch k := b.kind[s]; {
	case k == Reef:
		return chReef
	case k.IsArrow():
		return arrowChars[k.Dir()]
	case k == Land && b.place[s] == Volcano:
		return chVolcano
	case k == Land:
		return IslandNames[b.place[s]]
	case b.landing[s] >= 0:
		return 'a' + byte(b.landing[s])
	}
	return chWater
}

// ParseBoard reads a board in its notation, either as a file (24 lines of
// 24 characters; lines starting with ";" and blank lines are left out) or
// on one line with its rows joined by "/", and checks it (Check): a board
// that is not fair and playable is refused with every reason.
func ParseBoard(text string) (*Board, error) {
	b, err := parseLayout(text)
	if err != nil {
		return nil, err
	}
	if err := Check(b); err != nil {
		return nil, err
	}
	return b, nil
}

// parseLayout reads a board's squares and checks its shape (islands,
// volcano, landing lines), not whether it is fair to play.
func parseLayout(text string) (*Board, error) {
	var rows []string
	if strings.Contains(text, "/") && !strings.Contains(text, "\n") {
		rows = strings.Split(text, "/")
	} else {
		for line := range strings.SplitSeq(text, "\n") {
			line = strings.TrimSuffix(line, "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, ";") {
				continue
			}
			rows = append(rows, line)
		}
	}
	if len(rows) != Size {
		return nil, fmt.Errorf("board: %d rows; a board has %d rows of %d squares", len(rows), Size, Size)
	}
	b := &Board{}
	for r, row := range rows {
		if len(row) != Size {
			return nil, fmt.Errorf("board: row %d has %d characters, not %d", r+1, len(row), Size)
		}
		for c := range Size {
			s := At(r, c)
			b.place[s], b.landing[s] = -1, -1
			switch ch := row[c]; {
			case ch == chWater:
			case ch == chReef:
				b.kind[s] = Reef
			case strings.IndexByte(string(arrowChars[:]), ch) >= 0:
				b.kind[s] = ArrowN + Kind(strings.IndexByte(string(arrowChars[:]), ch))
			case ch == chVolcano:
				b.kind[s], b.place[s] = Land, Volcano
			case ch >= 'A' && ch < 'A'+NumIslands:
				b.kind[s], b.place[s] = Land, int8(ch-'A')
			case ch >= 'a' && ch < 'a'+NumIslands:
				b.landing[s] = int8(ch - 'a')
			default:
				return nil, fmt.Errorf("board: square %v is %q; the squares are . # ^ > v < @ A-H a-h", s, ch)
			}
		}
	}
	if err := b.checkShape(); err != nil {
		return nil, err
	}
	b.index()
	return b, nil
}

// checkShape checks the islands, the volcano and the landing lines.
func (b *Board) checkShape() error {
	var errs []error
	for p := range NumIslands + 1 {
		var squares []Square
		for s := range Square(NumSquares) {
			if b.place[s] == int8(p) {
				squares = append(squares, s)
			}
		}
		name := placeName(p)
		if len(squares) == 0 {
			errs = append(errs, fmt.Errorf("board: %s is missing", name))
			continue
		}
		if !connected(squares) {
			errs = append(errs, fmt.Errorf("board: %s is in pieces; its squares must join side to side", name))
		}
		edge := false
		for _, s := range squares {
			edge = edge || s.Row() == 0 || s.Col() == 0 || s.Row() == Size-1 || s.Col() == Size-1
		}
		if p < NumIslands && !edge {
			errs = append(errs, fmt.Errorf("board: %s does not touch the board's edge", name))
		}
		if p == Volcano && edge {
			errs = append(errs, fmt.Errorf("board: the volcano touches the board's edge"))
		}
	}
	for s := range Square(NumSquares) {
		i := b.landing[s]
		if i < 0 {
			continue
		}
		ok := false
		for _, n := range neighbours(s) {
			if p := b.place[n]; p >= 0 && p != i {
				errs = append(errs, fmt.Errorf("board: landing square %v of %s also borders %s", s, placeName(int(i)), placeName(int(p))))
			} else if p == i {
				ok = true
			}
		}
		if !ok {
			errs = append(errs, fmt.Errorf("board: landing square %v does not border %s", s, placeName(int(i))))
		}
	}
	return errors.Join(errs...)
}

func placeName(p int) string {
	if p == Volcano {
		return "the volcano"
	}
	return "island " + IslandNames[p:p+1]
}

// PlaceName names an island ("island C") or the volcano.
func PlaceName(p int) string { return placeName(p) }

// neighbours returns the squares beside s, side to side, on the board.
func neighbours(s Square) []Square {
	out := make([]Square, 0, 4)
	for d := range 4 {
		r, c := s.Row()+dirRow[d], s.Col()+dirCol[d]
		if r >= 0 && c >= 0 && r < Size && c < Size {
			out = append(out, At(r, c))
		}
	}
	return out
}

func connected(squares []Square) bool {
	in := map[Square]bool{}
	for _, s := range squares {
		in[s] = true
	}
	seen := map[Square]bool{squares[0]: true}
	todo := []Square{squares[0]}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, n := range neighbours(s) {
			if in[n] && !seen[n] {
				seen[n] = true
				todo = append(todo, n)
			}
		}
	}
	return len(seen) == len(squares)
}

// index works out, for every raft position, whether it fits, which place it
// touches and which landing line.
func (b *Board) index() {
	for o := range Orient(2) {
		for s := range Square(NumSquares) {
			b.touch[o][s], b.start[o][s] = -1, -1
			if !inside(o, s) {
				continue
			}
			fits := true
			for h := range Holes {
				fits = fits && b.kind[HoleSquare(o, s, h)] != Land
			}
			b.fits[o][s] = fits
			if !fits {
				continue
			}
			b.touch[o][s] = int8(b.touching(o, s))
			for h := range Holes {
				if l := b.landing[HoleSquare(o, s, h)]; l >= 0 {
					b.start[o][s] = l
				}
			}
		}
	}
}

// touching returns the place a raft at s touches: -1 for none, -2 for
// more than one.
func (b *Board) touching(o Orient, s Square) int {
	found := -1
	for h := range Holes {
		for _, n := range neighbours(HoleSquare(o, s, h)) {
			p := int(b.place[n])
			switch {
			case p < 0 || p == found:
			case found < 0:
				found = p
			default:
				return -2
			}
		}
	}
	return found
}
