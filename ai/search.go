package ai

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
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
	prepare Prepare
	// turn, for a level whose budget is for a whole turn (TurnLevel),
	// shares it among the turn's decisions; nil when budget is a
	// decision's.
	turn *turnBudget
}

// defaultSearchTime is the budget of a plain "mcts".
const defaultSearchTime = time.Second

// NewMCTS returns a search bot for the game with the given name and budget,
// playing on the positions the game's kit prepares.
func NewMCTS(g *Game, name string, budget mcts.Budget, o Options) *MCTS {
	return newMCTS(g, name, budget, mcts.Config{}, o)
}

func newMCTS(g *Game, name string, budget mcts.Budget, cfg mcts.Config, o Options) *MCTS {
	cfg.Workers, cfg.Seed = o.Workers, o.Seed
	b := &MCTS{name: name, budget: budget, search: mcts.New(cfg)}
	if g.Kit.Search != nil {
		b.prepare = g.Kit.Search(budget)
	}
	return b
}

// mctsFromSpec makes the search bot of an "mcts:" spec's argument for the
// game (parseSearch); settings the search does not know are the game's
// (its kit's SearchWith). A budget followed by "/turn" ("3000/turn",
// "2s/turn") is for a whole turn, as a TurnLevel's.
func mctsFromSpec(g *Game, spec, arg string, o Options) (*MCTS, error) {
	budget, settings, hasSettings := strings.Cut(arg, ",")
	budget, perTurn := strings.CutSuffix(budget, "/turn")
	if hasSettings {
		budget += "," + settings
	}
	b, cfg, extra, err := parseSearch(budget)
	if err != nil {
		return nil, err
	}
	bot := newMCTS(g, spec, b, cfg, o)
	if perTurn {
		bot.turn = newTurnBudget(b, g.Kit.TurnShares)
	}
	if len(extra) > 0 {
		if g.Kit.SearchWith == nil {
			return nil, fmt.Errorf("unknown search setting %q (known: %s)", slices.Sorted(maps.Keys(extra))[0], strings.Join(settingNames(), ", "))
		}
		if bot.prepare, err = g.Kit.SearchWith(b, extra); err != nil {
			return nil, err
		}
	}
	return bot, nil
}

// parseSearch reads the argument of an "mcts:" spec: a budget, then
// optionally settings that override the search's defaults, separated by commas, for
// tuning in the arena: "1000,bias=2,c=0.3". Settings of the search
// (searchSettings) go into the config; the others are returned by name, for
// the game's own knowledge (its playout policy, say).
func parseSearch(arg string) (mcts.Budget, mcts.Config, map[string]float64, error) {
	var cfg mcts.Config
	parts := strings.Split(arg, ",")
	b, err := parseBudget(parts[0])
	if err != nil {
		return b, cfg, nil, err
	}
	var extra map[string]float64
	for _, kv := range parts[1:] {
		k, v, _ := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 {
			return b, cfg, nil, fmt.Errorf("search setting %q: %q is not a number at least 0", k, v)
		}
		if set, ok := searchSettings[k]; ok {
			set(&cfg, f)
			continue
		}
		if extra == nil {
			extra = map[string]float64{}
		}
		extra[k] = f
	}
	return b, cfg, extra, nil
}

// searchSettings are the settings of the search a spec may give.
var searchSettings = map[string]func(*mcts.Config, float64){
	"c":       func(c *mcts.Config, f float64) { c.Exploration = f },
	"w":       func(c *mcts.Config, f float64) { c.Widening = f },
	"bias":    func(c *mcts.Config, f float64) { c.Bias = f },
	"mast":    func(c *mcts.Config, f float64) { c.MAST = f },
	"minimax": func(c *mcts.Config, f float64) { c.Minimax = f },
	"rave":    func(c *mcts.Config, f float64) { c.RAVE = f },
}

func settingNames() []string {
	var names []string
	for k := range searchSettings {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// Name returns the bot's name.
func (b *MCTS) Name() string { return b.name }

// Move searches for the move of the seat to move; st is not changed. It
// returns ctx's error if ctx is done when it is called; once begun it
// answers, even when ctx ends while the game's knowledge is still being
// prepared (a turn's deadline on a loaded machine): then with the move of
// a single simulation, the most the time allowed.
func (b *MCTS) Move(ctx context.Context, st game.State) (game.Move, error) {
	if st.Over() {
		return 0, ErrGameOver
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("%s: %w", b.name, err)
	}
	start := time.Now()
	budget := b.budget
	if b.turn != nil {
		budget = b.turn.share(st)
	}
	pos, err := b.position(st)
	if err != nil {
		return 0, err
	}
	if ctx.Err() != nil {
		ctx, budget = context.WithoutCancel(ctx), mcts.Budget{Simulations: 1}
	}
	res, err := b.search.Search(ctx, pos, budget)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", b.name, err)
	}
	if b.turn != nil {
		b.turn.spend(st, time.Since(start), res.Simulations)
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
