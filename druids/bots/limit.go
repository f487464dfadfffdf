package bots

import (
	"sync"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// TurnLimit is how many decisions of one turn a search bot makes before it
// takes the first way to stop that is offered. Some sites' actions repeat
// in a cycle within a turn (two druids on Gruu's Refuge refresh each other
// for ever), and where the search finds going round no worse than
// stopping, its choice among moves of equal worth is noise: it could go
// round for hundreds of decisions. The limit sits well above the length of
// the search's ordinary turns (docs/druids.md, Bots).
const TurnLimit = 40

// LimitTurns returns prepare for a bot that makes at most TurnLimit
// decisions a turn: past them, the state it returns offers the search only
// the first way to stop (druids.Stop), which the search takes without
// searching; within them, and where no way to stop is offered (a site's
// action half played), prepare's. It counts the decisions it is asked
// for in each turn, so each bot needs its own; a state of another turn,
// or of no later decision (another game), starts the count again.
func LimitTurns(prepare ai.Prepare) ai.Prepare {
	var (
		mu        sync.Mutex
		turn, ply = -1, -1
		n         int
	)
	return func(st game.State) (game.State, error) {
		s, err := stateOf(st)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		if s.Turn() != turn || s.Ply() <= ply {
			turn, n = s.Turn(), 0
		}
		ply = s.Ply()
		n++
		over := n > TurnLimit
		mu.Unlock()
		if over {
			if stop, ok := druids.Stop(s.AppendLegal(nil)); ok {
				return decided{st, stop}, nil
			}
		}
		return prepare(st)
	}
}

// decided is a state whose one legal move is already chosen: a search of
// it answers at once, with that move.
type decided struct {
	game.State
	move game.Move
}

// AppendLegal appends the chosen move alone.
func (d decided) AppendLegal(dst []game.Move) []game.Move { return append(dst, d.move) }
