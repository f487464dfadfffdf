package ai

import (
	"context"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
)

// turnAt is a state of which turnBudget reads only the turn and the seat.
type turnAt struct {
	game.State
	turn, seat int
}

func (s turnAt) Turn() int   { return s.turn }
func (s turnAt) ToMove() int { return s.seat }

// TestTurnBudgetShares: each decision of a turn gets a part in shares of
// what is left of the turn's budget, however many the turn asks for, so
// that a turn never spends more than its budget; a decision of another
// turn, or of another seat in it, starts a new count.
func TestTurnBudgetShares(t *testing.T) {
	tb := &turnBudget{whole: mcts.Budget{Time: 800 * time.Millisecond, Simulations: 1000}, shares: 4, turn: -1}
	st := turnAt{turn: 3, seat: 1}
	spent := mcts.Budget{}
	for n := range 30 {
		b := tb.share(st)
		if n == 0 && (b.Time != 200*time.Millisecond || b.Simulations != 250) {
			t.Fatalf("the turn's first decision gets %v, want a quarter of the turn's", b)
		}
		tb.spend(st, b.Time, b.Simulations)
		spent.Time += b.Time
		spent.Simulations += b.Simulations
	}
	// The last decisions search at least minShare and one simulation.
	if spent.Time > tb.whole.Time+30*minShare || spent.Simulations > tb.whole.Simulations+30 {
		t.Errorf("30 decisions of a turn spent %v, the turn's budget %v", spent, tb.whole)
	}
	for _, next := range []turnAt{{turn: 4, seat: 0}, {turn: 4, seat: 1}} {
		if b := tb.share(next); b.Simulations != 250 {
			t.Errorf("turn %d, seat %d begins with %d simulations, want 250", next.turn, next.seat, b.Simulations)
		}
		tb.spend(next, 0, 250)
	}
}

// TestTurnLevelPlaysWholeTurns: a level with a budget a turn, and the
// search of a spec with one, play Tiny, whose turns are several decisions,
// spending no more than the budget in any turn of their seat.
func TestTurnLevelPlaysWholeTurns(t *testing.T) {
	g := &Game{Rules: tinyKitted.Rules, Kit: tinyKitted.Kit}
	g.Kit.Levels = []Maker{TurnLevel("turn", mcts.Budget{Simulations: 120})}
	g.Kit.TurnShares = 3
	for _, spec := range []string{"turn", "mcts:120/turn", "mcts:120/turn,x=0.5"} {
		bot, err := NewWith(g, spec, Options{Seed: 2, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		playTurns(t, bot.(*MCTS), 120)
	}
	if _, err := NewWith(g, "mcts:/turn", Options{}); err == nil {
		t.Error("mcts:/turn accepted")
	}
}

// playTurns plays a game of Tiny by b, checking after each decision that
// its turn has spent no more than sims.
func playTurns(t *testing.T, b *MCTS, sims int) {
	t.Helper()
	st := tinyGame(t, 2, 5)
	for !st.Over() {
		m, err := b.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if b.turn.sims > sims {
			t.Fatalf("%s: turn %d spent %d simulations of a turn's %d", b.Name(), st.Turn(), b.turn.sims, sims)
		}
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
}
