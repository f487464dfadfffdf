package bots

import (
	"sync"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// The solo game: every level plays the plan laguna.SoloPlan finds (the
// par's plan, played out by the rules), worked out once from the position
// where it is first asked and kept, position by position, for the moves
// after it. A position the plan does not reach (the plan went astray, or
// none was found) gets a plan of its own.

// soloBudget bounds the plan's search, as the par's (laguna's parBudget).
const soloBudget = 200000

// keptSoloMoves bounds the positions the plans keep, over every game.
const keptSoloMoves = 4096

// soloPlans holds the next move of the plans found, by position.
type soloPlans struct {
	mu    sync.Mutex
	moves map[string]game.Move
}

// move returns the plan's move from s, and false when SoloPlan finds none.
func (sp *soloPlans) move(s *laguna.State) (game.Move, bool) {
	key := s.String()
	sp.mu.Lock()
	m, ok := sp.moves[key]
	sp.mu.Unlock()
	if ok {
		return m, true
	}
	moves, _, ok := laguna.SoloPlan(s, soloBudget)
	if !ok || len(moves) == 0 {
		return 0, false
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.moves == nil || len(sp.moves)+len(moves) > keptSoloMoves {
		sp.moves = map[string]game.Move{}
	}
	c := *s
	for _, m := range moves {
		sp.moves[c.String()] = m
		if c.Play(m) != nil {
			break
		}
	}
	return moves[0], true
}
