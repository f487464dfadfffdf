package ai

import (
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
)

// TurnLevel is the search under the name of a level whose budget is for
// a whole turn of its seat, however many decisions the turn asks of it: a
// game whose turn is many small decisions (Druids' is a dozen) would
// otherwise keep a person waiting the budget a dozen times. Each decision
// gets a share of what the turn has left, one part in the kit's
// TurnShares of it, so that a turn never spends more than the budget
// however long it runs, the first decisions, which shape the turn, get
// the most, and the later ones search on in the tree the earlier ones grew
// (mcts.Reroot).
func TurnLevel(name string, turn mcts.Budget) Maker {
	return Maker{name, func(g *Game, o Options) Bot {
		b := NewMCTS(g, name, turn, o)
		b.turn = newTurnBudget(turn, g.Kit.TurnShares)
		return b
	}}
}

// newTurnBudget returns the sharing of a budget for a whole turn in
// shares (at least 1).
func newTurnBudget(whole mcts.Budget, shares int) *turnBudget {
	return &turnBudget{whole: whole, shares: max(shares, 1), turn: -1}
}

// minShare is the least time a decision of a turn's budget searches, so
// that the last decisions of a long turn still search a little.
const minShare = time.Millisecond

// turnBudget shares a budget for a whole turn among the turn's decisions.
// It knows a turn by its number and the seat deciding (game.State.Turn and
// ToMove): a decision of another turn, or of another seat in one (a
// triggered choice), starts a new count.
type turnBudget struct {
	whole  mcts.Budget
	shares int

	mu         sync.Mutex
	turn, seat int
	time       time.Duration
	sims       int
}

// share returns the budget of a decision in st: a part in shares of what
// is left of its turn's budget.
func (t *turnBudget) share(st game.State) mcts.Budget {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st.Turn() != t.turn || st.ToMove() != t.seat {
		t.turn, t.seat, t.time, t.sims = st.Turn(), st.ToMove(), 0, 0
	}
	var b mcts.Budget
	if t.whole.Time > 0 {
		b.Time = max((t.whole.Time-t.time)/time.Duration(t.shares), minShare)
	}
	if t.whole.Simulations > 0 {
		b.Simulations = max((t.whole.Simulations-t.sims)/t.shares, 1)
	}
	return b
}

// spend counts what a decision of the turn of st spent.
func (t *turnBudget) spend(st game.State, d time.Duration, sims int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st.Turn() == t.turn && st.ToMove() == t.seat {
		t.time += d
		t.sims += sims
	}
}
