package game

import (
	"errors"
	"fmt"
)

// A Refusal is why the rules refuse a move: Play's error for every move it
// refuses is one, or wraps one (errors.As finds it). Code is what a
// program keys on, the same word for the same reason in any position;
// Reason is the reason in words for the player who tried the move ("you
// have no settlers left"). The error's own text may say more (a tool's
// message names the move and the seat).
type Refusal struct {
	Code   RefusalCode `json:"code"`
	Reason string      `json:"reason"`
}

// A RefusalCode names a kind of refusal: one of the codes every game
// shares below, or a game's own (documented with the game), lower-case
// words joined by "_".
type RefusalCode string

// The codes every game's refusals may carry.
const (
	// RefusedOver: the game is over.
	RefusedOver RefusalCode = "over"
	// RefusedNoSuchMove: the move is no move of the game at all (a number
	// out of range, a space off the board).
	RefusedNoSuchMove RefusalCode = "no_such_move"
	// RefusedNotNow: a move of the game, but not one of the choices now;
	// the reason says what the choices are.
	RefusedNotNow RefusalCode = "not_now"
)

func (r *Refusal) Error() string { return r.Reason }

// Refuse returns a refusal of code with the reason formatted.
func Refuse(code RefusalCode, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// RefusalOf returns the refusal err is or wraps, or nil.
func RefusalOf(err error) *Refusal {
	var r *Refusal
	if errors.As(err, &r) {
		return r
	}
	return nil
}
