package laguna

import (
	"errors"
	"math/rand/v2"
)

// A Density is how crowded a generated board is: how many currents (runs of
// arrows) and reefs it draws.
type Density struct {
	// Currents is the number of currents drawn, each a run of 2 to
	// MaxCurrent arrows that may bend.
	Currents   int
	MaxCurrent int
	// Reefs is the number of reef clusters drawn, each of 1 to MaxReef
	// squares.
	Reefs   int
	MaxReef int
}

// The densities of the two original boards: the easy side, open water with
// a few currents and reefs, and the hard side, where hardly a square is
// empty.
var (
	EasyDensity = Density{Currents: 20, MaxCurrent: 5, Reefs: 36, MaxReef: 3}
	HardDensity = Density{Currents: 60, MaxCurrent: 6, Reefs: 100, MaxReef: 4}
)

// GenerateAttempts bounds how many boards Generate draws before it gives up.
const GenerateAttempts = 2000

// Generate draws a board of the given density from seed: the fixed frame
// (the volcano in the middle, two islands on each side with their landing
// lines, the same on both sides of the printed board so that its pieces fit
// either side) with currents and reefs drawn on the water, and keeps the
// first board that passes Check. The same seed and density give the same
// board. It also returns how many boards it drew.
func Generate(seed uint64, d Density) (*Board, int, error) {
	r := rand.New(rand.NewPCG(seed, 0x6c6167756e61))
	for n := 1; n <= GenerateAttempts; n++ {
		b := frame()
		draw(b, r, d)
		b.index()
		if Check(b) == nil {
			return b, n, nil
		}
	}
	return nil, GenerateAttempts, errors.New("laguna: no fair board drawn; lower the density")
}

// Frame returns the generator's frame: the volcano, the eight islands and
// their landing lines on open water.
func Frame() *Board {
	b := frame()
	b.index()
	return b
}

// islandFrame places each island: its top-left square, height, width, and
// the side its landing line is on.
var islandFrame = [NumIslands]struct {
	r, c, h, w int
	land       Dir
}{
	{0, 5, 2, 3, South},   // A, top edge, left
	{0, 16, 2, 3, South},  // B, top edge, right
	{5, 22, 3, 2, West},   // C, right edge, top
	{16, 22, 3, 2, West},  // D, right edge, bottom
	{22, 16, 2, 3, North}, // E, bottom edge, right
	{22, 5, 2, 3, North},  // F, bottom edge, left
	{16, 0, 3, 2, East},   // G, left edge, bottom
	{5, 0, 3, 2, East},    // H, left edge, top
}

func frame() *Board {
	b := &Board{}
	for s := range Square(NumSquares) {
		b.place[s], b.landing[s] = -1, -1
	}
	for r := 10; r < 14; r++ {
		for c := 10; c < 14; c++ {
			b.kind[At(r, c)], b.place[At(r, c)] = Land, Volcano
		}
	}
	for i, f := range islandFrame {
		for r := f.r; r < f.r+f.h; r++ {
			for c := f.c; c < f.c+f.w; c++ {
				s := At(r, c)
				b.kind[s], b.place[s] = Land, int8(i)
				lr, lc := r+dirRow[f.land], c+dirCol[f.land]
				if l := At(lr, lc); b.place[l] < 0 {
					b.landing[l] = int8(i)
				}
			}
		}
	}
	return b
}

// draw lays currents and reefs on b's open water, never on a landing line.
func draw(b *Board, r *rand.Rand, d Density) {
	open := func(s Square) bool { return b.kind[s] == Water && b.landing[s] < 0 }
	for range d.Currents {
		s := Square(r.IntN(NumSquares))
		dir := Dir(r.IntN(4))
		n := 2 + r.IntN(d.MaxCurrent-1)
		for range n {
			if r.IntN(5) == 0 { // the current bends
				dir = (dir + 1 + 2*Dir(r.IntN(2))) % 4
			}
			t, ok := toWater(b, s, dir)
			if !open(s) || !ok {
				break
			}
			b.kind[s] = ArrowN + Kind(dir)
			s = t
		}
	}
	for range d.Reefs {
		s := Square(r.IntN(NumSquares))
		n := 1 + r.IntN(d.MaxReef)
		for range n {
			if open(s) {
				b.kind[s] = Reef
				if crowded(b, s) {
					b.kind[s] = Water
				}
			}
			dir := Dir(r.IntN(4))
			rr, cc := s.Row()+dirRow[dir], s.Col()+dirCol[dir]
			if rr < 0 || cc < 0 || rr >= Size || cc >= Size {
				break
			}
			s = At(rr, cc)
		}
	}
}

// toWater returns the square beside s in direction d, and whether it is a
// water square of the board (where an arrow at s may point).
func toWater(b *Board, s Square, d Dir) (Square, bool) {
	r, c := s.Row()+dirRow[d], s.Col()+dirCol[d]
	if r < 0 || c < 0 || r >= Size || c >= Size || b.kind[At(r, c)] == Land {
		return 0, false
	}
	return At(r, c), true
}

// crowded reports whether some raft over square s would lie over more reefs
// than checkPearls pearls can cover: such a raft could never move again.
func crowded(b *Board, s Square) bool {
	for o := range Orient(2) {
		rows, cols := extent(o)
		for dr := range rows {
			for dc := range cols {
				r, c := s.Row()-dr, s.Col()-dc
				if r < 0 || c < 0 || !inside(o, At(r, c)) {
					continue
				}
				n := 0
				for h := range Holes {
					if b.kind[HoleSquare(o, At(r, c), h)] == Reef {
						n++
					}
				}
				if n > checkPearls {
					return true
				}
			}
		}
	}
	return false
}
