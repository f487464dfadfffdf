package ai

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

// blueLagoonGame is Blue Lagoon without its bots' kit: the generic search
// plays it, whose mechanics these tests check on positions of a real game.
var blueLagoonGame = &Game{Rules: bluelagoon.Rules}

// blueLagoon returns a new Blue Lagoon game on the standard board behind
// the contract.
func blueLagoon(t testing.TB, players int, seed uint64) *bluelagoon.State {
	t.Helper()
	st, err := bluelagoon.Rules.NewGame(game.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*bluelagoon.State)
}

// lastMoves finds, in games of uniformly random moves, a position in which
// every legal move ends the game, some win it for the player to move and
// some lose it, and where the winning moves satisfy want. It returns the
// position and its winning moves.
func lastMoves(t *testing.T, players int, want func(g *bluelagoon.Game, winning []bluelagoon.Move) bool) (*bluelagoon.State, []game.Move) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 1))
	for seed := uint64(1); seed < 2000; seed++ {
		st := blueLagoon(t, players, seed)
		g := &st.Game
		for !g.Over() {
			if win, ok := decisive(g); ok && want(g, win) {
				t.Logf("seed %d: %d of %d moves win", seed, len(win), g.NumLegalMoves())
				var moves []game.Move
				for _, m := range win {
					moves = append(moves, bluelagoon.ContractMove(g.Board(), m))
				}
				return st, moves
			}
			g.ApplyLegal(g.LegalMove(r.IntN(g.NumLegalMoves())))
		}
	}
	t.Fatal("no position found")
	return nil, nil
}

// decisive reports whether every legal move ends the game, and returns the
// ones that the player to move wins alone, if some but not all do.
func decisive(g *bluelagoon.Game) ([]bluelagoon.Move, bool) {
	if g.Phase() != bluelagoon.Settlement {
		return nil, false
	}
	p := g.Current()
	moves := g.LegalMoves()
	var win []bluelagoon.Move
	for _, m := range moves {
		c := *g
		c.ApplyLegal(m)
		if !c.Over() {
			return nil, false
		}
		if w := c.Winners(); len(w) == 1 && w[0] == p {
			win = append(win, m)
		}
	}
	return win, len(win) > 0 && len(win) < len(moves)
}

func TestMCTSFindsTheWinningMove(t *testing.T) {
	for _, players := range []int{2, 3} {
		st, win := lastMoves(t, players, func(*bluelagoon.Game, []bluelagoon.Move) bool { return true })
		bot := NewMCTS(blueLagoonGame, "mcts", mcts.Budget{Simulations: 2000}, Options{Seed: 1, Workers: 2})
		m, err := bot.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(win, m) {
			t.Errorf("%d players: played %v in %s; the winning moves are %v", players, st.MoveText(m), st, win)
		}
	}
}

// TestMCTSTakesTheDecisiveToken plays positions where only taking a token
// that an opponent could also reach wins the game.
func TestMCTSTakesTheDecisiveToken(t *testing.T) {
	contested := func(g *bluelagoon.Game, win []bluelagoon.Move) bool {
		for _, m := range win {
			if _, ok := g.TokenAt(m.At); !ok {
				return false
			}
			near := false
			for _, c := range g.Board().Neighbours(m.At) {
				if q, _, ok := g.PieceAt(c); ok && q != g.Current() {
					near = true
				}
			}
			if !near {
				return false
			}
		}
		return true
	}
	st, win := lastMoves(t, 2, contested)
	bot := NewMCTS(blueLagoonGame, "mcts", mcts.Budget{Simulations: 2000}, Options{Seed: 2, Workers: 1})
	m, err := bot.Move(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(win, m) {
		t.Errorf("played %v in %s; only %v (taking a token) win", st.MoveText(m), st, win)
	}
}

func TestMCTSIsReproducible(t *testing.T) {
	play := func() []game.Move {
		bot := NewMCTS(blueLagoonGame, "mcts", mcts.Budget{Simulations: 300}, Options{Seed: 9, Workers: 2})
		st := blueLagoon(t, 2, 4)
		var moves []game.Move
		for range 6 {
			m, err := bot.Move(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
			moves = append(moves, m)
		}
		return moves
	}
	if a, b := play(), play(); !slices.Equal(a, b) {
		t.Errorf("same seed and budget, different games:\n%v\n%v", a, b)
	}
}

// search runs the bot's search on st and returns its result.
func search(t *testing.T, bot *MCTS, st game.State) mcts.Result {
	t.Helper()
	pos, err := bot.position(st)
	if err != nil {
		t.Fatal(err)
	}
	res, err := bot.search.Search(context.Background(), pos, bot.budget)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestMCTSRespectsItsIterationBudget(t *testing.T) {
	st := blueLagoon(t, 2, 4)
	bot := NewMCTS(blueLagoonGame, "mcts", mcts.Budget{Simulations: 250}, Options{Seed: 1, Workers: 2})
	res := search(t, bot, st)
	if res.Simulations != 250 || res.Reused != 0 {
		t.Errorf("ran %d simulations (%d reused); want 250 and none reused", res.Simulations, res.Reused)
	}
	if err := st.Play(res.Move); err != nil {
		t.Fatal(err)
	}
	// After the expected answer the next search starts from the subtree.
	if err := st.Play(game.Legal(st)[0]); err != nil {
		t.Fatal(err)
	}
	res = search(t, bot, st)
	if res.Simulations != 250 {
		t.Errorf("second search ran %d simulations, want 250", res.Simulations)
	}
	t.Logf("reused %d visits", res.Reused)
}

func TestMCTSKeepsTheTreeWhenTheGameGoesAsExpected(t *testing.T) {
	st := blueLagoon(t, 2, 4)
	bot := NewMCTS(blueLagoonGame, "mcts", mcts.Budget{Simulations: 2000}, Options{Seed: 1, Workers: 1})
	res := search(t, bot, st)
	st.Play(res.Move)
	// The answer the tree explored most is surely in it.
	reply := search(t, bot, st)
	if reply.Reused == 0 {
		t.Errorf("after its own move the bot started a new tree")
	}
	st.Play(reply.Move)
	res = search(t, bot, blueLagoon(t, 2, 5))
	if res.Reused != 0 {
		t.Errorf("reused %d visits in an unrelated game", res.Reused)
	}
}

func TestMCTSStopsWhenCancelled(t *testing.T) {
	st := blueLagoon(t, 4, 4)
	bot := NewMCTS(blueLagoonGame, "mcts", mcts.Budget{Time: time.Hour}, Options{Seed: 1})

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := bot.Move(ctx, st); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the search: got %v, want context.Canceled", err)
	}

	// Cancelled during an hour-long search: it answers with what it has.
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	m, err := bot.Move(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Clone().Play(m); err != nil {
		t.Error(err)
	}
}

// TestMCTSAnswersWhenTimeRunsOutPreparing: a deadline that passes while
// the game's knowledge is prepared (slow on a loaded machine) still gets a
// legal move, as one during the search does.
func TestMCTSAnswersWhenTimeRunsOutPreparing(t *testing.T) {
	st := blueLagoon(t, 2, 4)
	bot := NewMCTS(blueLagoonGame, "mcts", mcts.Budget{Time: time.Hour}, Options{Seed: 1})
	ctx, cancel := context.WithCancel(context.Background())
	prepare := bot.prepare
	bot.prepare = func(s game.State) (game.State, error) {
		cancel() // the time runs out while the search state is made
		if prepare == nil {
			return s, nil
		}
		return prepare(s)
	}
	m, err := bot.Move(ctx, st)
	if err != nil {
		t.Fatalf("a deadline passed while preparing: %v", err)
	}
	if err := st.Clone().Play(m); err != nil {
		t.Errorf("the move answered is refused: %v", err)
	}
}
