package bluelagoon

import (
	"encoding/json"
	"fmt"
	"strings"
)

// String returns the board in the notation, as the boards are exchanged: a
// two-player state with no pieces and no tokens laid out.
func (b *Board) String() string {
	g := Game{board: b, players: 2, allowance: uint8(SettlerAllowance(2))}
	for i := range g.tokens {
		g.tokens[i] = noToken
	}
	return g.String()
}

// MarshalText writes a built-in board as its name and any other board in the
// notation.
func (b *Board) MarshalText() ([]byte, error) {
	if b.name != "" {
		return []byte(b.name), nil
	}
	return []byte(b.String()), nil
}

// boardText is a board in a record's JSON: a built-in board's name, or any
// board in the notation. Reading one sets the pointer; a Board itself is
// never written over, so a built-in board stays what it is whatever is
// decoded where it was.
type boardText struct{ b *Board }

func (t boardText) MarshalText() ([]byte, error) { return t.b.MarshalText() }

func (t *boardText) UnmarshalText(text []byte) error {
	b, err := BoardFromText(string(text))
	t.b = b
	return err
}

// BoardFromText reads a board as MarshalText writes it: a built-in board's
// name (the board itself is returned), or a board in the notation.
func BoardFromText(s string) (*Board, error) {
	if strings.HasPrefix(s, "a ") {
		return ParseBoard(s)
	}
	return BoardByName(s)
}

// A Record is a whole game: its setup and its moves. Replaying it reproduces
// every state exactly, so it is all that needs to be stored or exchanged.
// In JSON, a built-in board is written by name and any other in the notation:
//
//	{"board":"standard","players":2,"seed":7,"first":0,"moves":["S 9,3","T 8,3"]}
type Record struct {
	Setup
	Moves []Move
}

type recordJSON struct {
	Board   boardText `json:"board"`
	Players int       `json:"players"`
	Seed    uint64    `json:"seed"`
	First   int       `json:"first"`
	Moves   []Move    `json:"moves"`
}

// MarshalJSON writes the record in the form shown on Record.
func (r Record) MarshalJSON() ([]byte, error) {
	moves := r.Moves
	if moves == nil {
		moves = []Move{}
	}
	return json.Marshal(recordJSON{boardText{r.Board}, r.Players, r.Seed, r.First, moves})
}

// UnmarshalJSON reads a record; it does not replay it.
func (r *Record) UnmarshalJSON(data []byte) error {
	var j recordJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	// A board in the notation equal to a built-in one is that one already
	// (ParseBoard sees to it).
	b := j.Board.b
	if b == nil {
		return fmt.Errorf("record has no board")
	}
	*r = Record{Setup{b, j.Players, j.Seed, j.First}, j.Moves}
	return nil
}

// Replay sets the game up and plays the first n moves of the record (all of
// them if n < 0), checking each. The error names the move that failed.
func (r *Record) Replay(n int) (*Game, error) {
	g, err := NewGame(r.Setup)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > len(r.Moves) {
		n = len(r.Moves)
	}
	for i, m := range r.Moves[:n] {
		if err := g.Apply(m); err != nil {
			return nil, fmt.Errorf("replay: move %d: %w", i+1, err)
		}
	}
	return g, nil
}
