package bluelagoon

import (
	"strconv"
	"strings"
)

// Piece is a kind of playing piece.
type Piece uint8

const (
	Settler Piece = iota
	Village
)

// Letter returns the piece's letter in the notation: S for a settler, T for a
// village.
func (p Piece) Letter() byte {
	if p == Village {
		return 'T'
	}
	return 'S'
}

func (p Piece) String() string {
	if p == Village {
		return "village"
	}
	return "settler"
}

// Token is a kind of token on a stone circle: one of the four resources or a
// statuette.
type Token uint8

const (
	Coconut Token = iota
	Bamboo
	Water
	PreciousStone
	Statuette
	NumTokenKinds       = 5
	noToken       Token = 255
)

// Resources are the first four token kinds; statuettes are not resources.
const NumResources = 4

// Supply returns how many tokens of kind t the game has: 6 of each resource
// and 8 statuettes, 32 in all.
func Supply(t Token) int {
	if t == Statuette {
		return 8
	}
	return 6
}

const tokenLetters = "CBWPS"

// Letter returns the token's letter in the notation: C, B, W, P or S.
func (t Token) Letter() byte { return tokenLetters[t] }

func (t Token) String() string {
	switch t {
	case Coconut:
		return "coconut"
	case Bamboo:
		return "bamboo"
	case Water:
		return "water"
	case PreciousStone:
		return "precious stone"
	case Statuette:
		return "statuette"
	}
	return "no token"
}

// IsResource reports whether t is one of the four resources.
func (t Token) IsResource() bool { return t < Statuette }

// A Move places one piece on one space.
type Move struct {
	Piece Piece
	At    Coord
}

// String returns the move in the notation, e.g. "S 9,3".
func (m Move) String() string {
	return string(m.Piece.Letter()) + " " + m.At.String()
}

// MarshalText writes the move in the notation.
func (m Move) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a move in the notation.
func (m *Move) UnmarshalText(b []byte) error {
	v, err := ParseMove(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// ParseMove reads a move in the notation: "S row,col" or "T row,col".
// It checks the syntax only; whether the space exists and the move is legal
// depends on the game.
func ParseMove(s string) (Move, error) {
	p := parser{s: s}
	var m Move
	switch {
	case strings.HasPrefix(s, "S "):
		m.Piece = Settler
	case strings.HasPrefix(s, "T "):
		m.Piece = Village
	default:
		return m, p.errorf("a move starts with S (settler) or T (village) and a space")
	}
	p.i = 2
	c, err := p.coord()
	if err != nil {
		return m, err
	}
	if p.i != len(s) {
		return m, p.errorf("unexpected text after the move")
	}
	m.At = c
	return m, nil
}

func appendCoord(dst []byte, c Coord) []byte {
	dst = strconv.AppendInt(dst, int64(c.Row), 10)
	dst = append(dst, ',')
	return strconv.AppendInt(dst, int64(c.Col), 10)
}
