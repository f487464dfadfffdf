package game

import (
	"fmt"
)

// A Record is a whole game: which game, its setup and its moves in the
// game's notation. Replaying it reproduces every state exactly, so it is
// all that needs to be stored or exchanged. In JSON:
//
//	{"game":"bluelagoon","players":2,"options":{"board":"standard","first":"0"},"seed":7,"moves":["S 9,3","T 8,3"]}
type Record struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Options map[string]string `json:"options"`
	Seed    uint64            `json:"seed"`
	Moves   []string          `json:"moves"`
}

// Setup returns the record's setup.
func (rec *Record) Setup() Setup {
	return Setup{Players: rec.Players, Options: rec.Options, Seed: rec.Seed}
}

// Replay sets the record's game up with r and plays its first n moves (all
// of them if n < 0), checking each. The error names the move that failed.
func (rec *Record) Replay(r *Rules, n int) (State, error) {
	if rec.Game != r.ID {
		return nil, fmt.Errorf("replay: the record is of game %q, not %q", rec.Game, r.ID)
	}
	st, err := r.NewGame(rec.Setup())
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if n < 0 || n > len(rec.Moves) {
		n = len(rec.Moves)
	}
	for i, text := range rec.Moves[:n] {
		if err := PlayText(st, text); err != nil {
			return nil, fmt.Errorf("replay: move %d: %w", i+1, err)
		}
	}
	return st, nil
}

// PlayText reads a move in the game's notation and plays it.
func PlayText(st State, text string) error {
	m, err := st.ParseMove(text)
	if err != nil {
		return err
	}
	return st.Play(m)
}

// Legal returns the legal moves of the seat to move.
func Legal(st State) []Move { return st.AppendLegal(nil) }
