package game

import (
	"fmt"
	"math/rand/v2"
)

// A Record is a whole game: which game, its setup and its moves in the
// game's notation, and the reseeds of its take-backs. Replaying it
// reproduces every state exactly, so it is all that needs to be stored or
// exchanged. In JSON:
//
//	{"game":"bluelagoon","players":2,"options":{"board":"standard","first":"0"},"seed":7,"moves":["S 9,3","T 8,3"],"reseeds":[{"at":1,"seed":12}]}
type Record struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Options map[string]string `json:"options"`
	Seed    uint64            `json:"seed"`
	Moves   []string          `json:"moves"`
	// Reseeds are the game's chance drawn anew by its take-backs, in the
	// order they were made; none in a game without take-backs.
	Reseeds []Reseed `json:"reseeds,omitempty"`
}

// A Reseed draws a game's chance anew after its first At moves: a take-back
// to that position does it in a game that counts no revelations
// (Revealer), and did it in every game before they were counted, so that
// a move taken back and played again does not draw what the mover saw the
// first time (a tile from the bag, a layout to come, a solo opponent's
// turn). Seed comes from a secret source and is recorded, so that a replay
// draws what the game drew.
type Reseed struct {
	At   int    `json:"at"`
	Seed uint64 `json:"seed"`
}

// reseedStream is the stream of the generator a Reseed's seed starts.
const reseedStream = 0x726573656564

// Apply draws anew, from the reseed's seed, everything in st that no seat
// can see (Resample for NoSeat): what the seats have seen stays as it was.
// The same state and seed draw the same.
func (rs Reseed) Apply(st State) {
	st.Resample(NoSeat, rand.New(rand.NewPCG(rs.Seed, reseedStream)))
}

// ReseedAt applies to st, the position after the first n moves, the
// reseeds made there, in order: how a replay that plays moves itself keeps
// to the record.
func ReseedAt(st State, reseeds []Reseed, n int) {
	for _, rs := range reseeds {
		if rs.At == n {
			rs.Apply(st)
		}
	}
}

// Setup returns the record's setup.
func (rec *Record) Setup() Setup {
	return Setup{Players: rec.Players, Options: rec.Options, Seed: rec.Seed}
}

// Replay sets the record's game up with r and plays its first n moves (all
// of them if n < 0), checking each, with the reseeds made on the way. The
// error names the move that failed.
func (rec *Record) Replay(r *Rules, n int) (State, error) {
	if rec.Game != r.ID {
		return nil, fmt.Errorf("replay: the record is of game %q, not %q", rec.Game, r.ID)
	}
	after := 0
	for i, rs := range rec.Reseeds {
		if rs.At < after || rs.At > len(rec.Moves) {
			return nil, fmt.Errorf("replay: reseed %d is after move %d, not from %d to %d", i+1, rs.At, after, len(rec.Moves))
		}
		after = rs.At
	}
	st, err := r.NewGame(rec.Setup())
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if n < 0 || n > len(rec.Moves) {
		n = len(rec.Moves)
	}
	ReseedAt(st, rec.Reseeds, 0)
	for i, text := range rec.Moves[:n] {
		if err := PlayText(st, text); err != nil {
			return nil, fmt.Errorf("replay: move %d: %w", i+1, err)
		}
		ReseedAt(st, rec.Reseeds, i+1)
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
