package server

import (
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/store"
)

// Every game the server hosts has a bound on its length, Config.MaxMoves:
// a game whose rules have not ended it when it reaches that many moves
// ends there, a draw that nobody wins, its scores as they stand. Some
// games end by themselves in a bounded number of moves; others need not
// (Laguna's rafts may sail on forever without the sand timer, and turn
// after turn with it), and a game of hundreds of thousands of moves would
// make every load and replay of it cost as much.

// A bounded state is a game's state that ends once it has had max moves:
// the server's games are played, replayed and stored through it, so the
// bound holds everywhere the game's own end does (no move, no bot, no
// timer, the store told the game is over).
type bounded struct {
	game.State
	max    int // the moves that end the game; 0 for no bound
	played int
}

// bound returns st, at the start of a game, bounded to max moves.
func bound(st game.State, max int) *bounded { return &bounded{State: st, max: max} }

// unbounded returns the game's own state that st holds: what a bot reads,
// which may know the game's own types.
func unbounded(st game.State) game.State {
	if b, ok := st.(*bounded); ok {
		return b.State
	}
	return st
}

// moveLimit returns the bound of a stored game's length: the server's; a
// game already that long (the bound was lowered since) makes one more
// move; and a finished game ends at its length, whether its rules or the
// bound of its day ended it.
func (s *Server) moveLimit(sg *store.Game) int {
	n := len(sg.Moves)
	switch {
	case sg.Over:
		return n
	case s.cfg.MaxMoves > 0:
		return max(s.cfg.MaxMoves, n+1)
	}
	return 0
}

// limitReached reports whether the bound, not the rules, ended the game.
func (b *bounded) limitReached() bool {
	return b.max > 0 && b.played >= b.max && !b.State.Over()
}

func (b *bounded) Over() bool { return b.limitReached() || b.State.Over() }

func (b *bounded) ToMove() int {
	if b.limitReached() {
		return game.NoSeat
	}
	return b.State.ToMove()
}

func (b *bounded) AppendLegal(dst []game.Move) []game.Move {
	if b.limitReached() {
		return dst
	}
	return b.State.AppendLegal(dst)
}

func (b *bounded) Play(m game.Move) error {
	if b.limitReached() {
		return game.Refuse(game.RefusedOver, "the game ended at its limit of %d moves", b.max)
	}
	if err := b.State.Play(m); err != nil {
		return err
	}
	b.played++
	return nil
}

func (b *bounded) Clone() game.State {
	c := *b
	c.State = b.State.Clone()
	return &c
}

func (b *bounded) CopyFrom(src game.State) {
	s := src.(*bounded)
	b.State.CopyFrom(s.State)
	b.max, b.played = s.max, s.played
}

// Secret is false once the bound has ended the game: no draw is to come.
func (b *bounded) Secret() bool { return !b.limitReached() && b.State.Secret() }

func (b *bounded) TimeUp() (game.Move, bool) {
	if b.limitReached() {
		return 0, false
	}
	return b.State.TimeUp()
}

// Standing is the game's, with nobody winning once the bound has ended it.
func (b *bounded) Standing() game.Standing {
	st := b.State.Standing()
	if b.limitReached() {
		st.Winners = nil
	}
	return st
}

// standingOf describes where a game stands, saying when the bound on its
// length ended it.
func standingOf(st game.State) standingView {
	v := makeStanding(st.Standing())
	if b, ok := st.(*bounded); ok && b.limitReached() {
		v.MoveLimit = b.max
	}
	return v
}

// maxMoves returns the bound on g's length, 0 for none.
func (g *match) maxMoves() int {
	if b, ok := g.start.(*bounded); ok {
		return b.max
	}
	return 0
}

// The optional things a state may tell the time rule (game.Untimed,
// game.TimeUpNoter, game.HandTimer) are the game's own: the bound passes
// them on, as it would hide them otherwise. A capability the server comes
// to ask of its games' states belongs here too, but for game.Revealer,
// whose absence says something (the game cannot tell which moves showed
// chance, and its take-backs reseed): the server asks it of the game's
// own state (unbounded), since the bound draws nothing.
var _ interface {
	game.Untimed
	game.TimeUpNoter
	game.HandTimer
} = (*bounded)(nil)

func (b *bounded) Untimed() bool { return game.IsUntimed(b.State) }

func (b *bounded) TimeUpNote(m game.Move) any { return game.NoteOf(b.State, m, true) }

func (b *bounded) HandTime(m game.Move) time.Duration { return game.HandTime(b.State, m) }
