package bots

import (
	"context"
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
)

var strengthGames = flag.Int("strength", 0, "games of each strength match (TestStrength); 0 skips it")

// wilson returns the 95% Wilson interval of a share of wins.
func wilson(wins, games int) (lo, hi float64) {
	const z = 1.96
	n, p := float64(games), float64(wins)/float64(games)
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / (1 + z*z/n)
	return centre - half, centre + half
}

// TestStrength plays the top level against random and against the lowest
// level, two players, seats rotated, boards alternated, without a round
// limit (play stops a game that would not end), and reports the share of
// games the top level won with its 95% interval:
//
//	go test ./laguna/bots -run TestStrength -strength 100 -v
func TestStrength(t *testing.T) {
	if *strengthGames == 0 {
		t.Skip("run with -strength N")
	}
	top, low := Levels[len(Levels)-1].Name, Levels[0].Name
	for _, against := range []string{"random", low} {
		wins := 0
		for g := range *strengthGames {
			seed := uint64(g + 1)
			var opp mover = randomBot{rand.New(rand.NewPCG(seed, 77))}
			if against != "random" {
				opp = planner(t, against, seed+1000)
			}
			seats := []mover{planner(t, top, seed), opp}
			me := g % 2
			if me == 1 {
				seats[0], seats[1] = seats[1], seats[0]
			}
			board := []string{"easy", "hard"}[g/2%2]
			std, _ := play(t, seats, board, 0, seed)
			if len(std.Winners) == 1 && std.Winners[0] == me {
				wins++
			}
		}
		lo, hi := wilson(wins, *strengthGames)
		t.Logf("%s against %s: won %d of %d (%.0f%%, 95%% interval %.0f%% to %.0f%%)", top, against, wins, *strengthGames,
			100*float64(wins)/float64(*strengthGames), 100*lo, 100*hi)
	}
}

var searchGames = flag.Int("strength-search", 0, "games of the generic search on Position against random (TestSearchStrength); 0 skips it")

// searchBot is ai/mcts on Position with a budget of simulations, a fresh
// tree a move (Position offers no rerooting yet).
type searchBot struct {
	seed uint64
	sim  int
}

func (searchBot) Name() string { return "mcts" }
func (b searchBot) Move(ctx context.Context, st game.State) (game.Move, error) {
	pos, err := NewPosition(st)
	if err != nil {
		return 0, err
	}
	res, err := mcts.New(mcts.Config{Workers: 1, Seed: b.seed}).Search(ctx, pos, mcts.Budget{Simulations: b.sim})
	return res.Move, err
}

// TestSearchStrength: the generic search with this package's knowledge
// gets a signal: against random it wins.
//
//	go test ./laguna/bots -run TestSearchStrength -strength-search 10 -v
func TestSearchStrength(t *testing.T) {
	if *searchGames == 0 {
		t.Skip("run with -strength-search N")
	}
	wins := 0
	for g := range *searchGames {
		seed := uint64(g + 1)
		seats := []mover{searchBot{seed, 100}, randomBot{rand.New(rand.NewPCG(seed, 77))}}
		me := g % 2
		if me == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		std, n := play(t, seats, "easy", 30, seed)
		t.Logf("game %d: %v, %d decisions", g, std.Scores, n)
		if len(std.Winners) == 1 && std.Winners[0] == me {
			wins++
		}
	}
	lo, hi := wilson(wins, *searchGames)
	t.Logf("mcts (100 simulations) against random: won %d of %d (95%% interval %.0f%% to %.0f%%)", wins, *searchGames, 100*lo, 100*hi)
}
