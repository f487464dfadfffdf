package ai

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
)

// MCTS is the Monte Carlo tree search bot (see package mcts), for any game;
// with the game's knowledge where it brings some (Blue Lagoon's playouts
// guided by its move prior).
type MCTS struct {
	name   string
	budget mcts.Budget
	search *mcts.Searcher
	// prepare turns a state into the state the search plays on, which
	// carries the game's knowledge; nil for a game that brings none.
	prepare func(game.State) (game.State, error)
}

// defaultSearchTime is the budget of a plain "mcts".
const defaultSearchTime = time.Second

// NewMCTS returns a search bot for the game with the given name and budget.
func NewMCTS(rules *game.Rules, name string, budget mcts.Budget, o Options) *MCTS {
	return &MCTS{
		name:    name,
		budget:  budget,
		search:  mcts.New(mcts.Config{Workers: o.Workers, Seed: o.Seed}),
		prepare: knowledgeOf(rules.ID).search,
	}
}

// Name returns the bot's name.
func (b *MCTS) Name() string { return b.name }

// Move searches for the move of the seat to move; st is not changed.
func (b *MCTS) Move(ctx context.Context, st game.State) (game.Move, error) {
	if st.Over() {
		return 0, ErrGameOver
	}
	pos, err := b.position(st)
	if err != nil {
		return 0, err
	}
	res, err := b.search.Search(ctx, pos, b.budget)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", b.name, err)
	}
	return res.Move, nil
}

// position returns the state the search plays on for st.
func (b *MCTS) position(st game.State) (game.State, error) {
	if b.prepare == nil {
		return st, nil
	}
	pos, err := b.prepare(st)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.name, err)
	}
	return pos, nil
}

// parseBudget reads a search budget: a duration ("1s", "500ms") or a number
// of simulations ("20000").
func parseBudget(arg string) (mcts.Budget, error) {
	if n, err := strconv.Atoi(arg); err == nil {
		if n <= 0 {
			return mcts.Budget{}, fmt.Errorf("budget %q: the number of simulations must be positive", arg)
		}
		return mcts.Budget{Simulations: n}, nil
	}
	d, err := time.ParseDuration(arg)
	if err != nil {
		return mcts.Budget{}, fmt.Errorf("budget %q is neither a duration (1s, 500ms) nor a number of simulations", arg)
	}
	if d <= 0 {
		return mcts.Budget{}, fmt.Errorf("budget %q: the time must be positive", arg)
	}
	return mcts.Budget{Time: d}, nil
}
