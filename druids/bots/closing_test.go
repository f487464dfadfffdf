package bots

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// passive is a seat that only ends its turns: at every decision the first
// way to stop (the end, done, no), else the first choice.
type passive struct{}

func (passive) Name() string { return "passive" }

func (passive) Move(_ context.Context, st game.State) (game.Move, error) {
	legal := st.AppendLegal(nil)
	if m, ok := druids.Stop(legal); ok {
		return m, nil
	}
	return legal[0], nil
}

// gameTurns is the most turns a two-player game of the regular set (21
// tiles in the bag) takes when one seat only ends its turns: StallTurns,
// then one tile drawn each round by the bot's explores, and a round to
// spare (docs/druids.md, Bots, "Games that end").
const gameTurns = StallTurns + 2*21 + 2

// TestGamesEnd: every level, its search at a small budget, ends a game
// against a seat that only ends its turns, ahead of it (the passive seat
// begins with no seeds) and behind it (the passive seat begins with six
// seeds of each energy, six points under any destiny), first and second,
// within gameTurns.
func TestGamesEnd(t *testing.T) {
	levels := []string{"easy", "medium", "mcts:30", "mcts:300/turn"}
	if testing.Short() {
		levels = []string{"easy", "medium", "mcts:300/turn"}
	}
	for _, spec := range levels {
		for _, lead := range []string{"ahead", "behind"} {
			for _, first := range []int{0, 1} {
				t.Run(fmt.Sprintf("%s/%s/seat%d", spec, lead, first+1), func(t *testing.T) {
					t.Parallel()
					st := passiveGame(t, 7+uint64(first), first, lead == "behind")
					b := levelBot(t, spec)
					seats := []bot{b, passive{}}
					if first == 1 {
						seats[0], seats[1] = seats[1], seats[0]
					}
					for n := 0; !st.Over() && st.Turn() <= gameTurns; n++ {
						p := st.ToMove()
						m, err := seats[p].Move(context.Background(), st)
						if err != nil {
							t.Fatal(err)
						}
						if err := st.Play(m); err != nil {
							t.Fatal(err)
						}
					}
					if !st.Over() {
						t.Fatalf("%s against a seat that only ends its turns: not over after %d turns\n%s", spec, st.Turn(), st)
					}
					t.Logf("%s: over after %d turns: %v", t.Name(), st.Turn(), st.Standing().Scores)
				})
			}
		}
	}
}

// levelBot returns the bot of spec ("mcts:300/turn": the search with a
// budget of simulations for each whole turn, as the levels hard and max
// search with one of time).
func levelBot(t *testing.T, spec string) bot {
	t.Helper()
	return levelBotSeeded(t, spec, 3)
}

// levelBotSeeded is levelBot with the bot's seed.
func levelBotSeeded(t *testing.T, spec string, seed uint64) bot {
	t.Helper()
	b, err := ai.NewWith(kitGame, spec, ai.Options{Seed: seed, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// passiveGame is a two-player game of the regular set whose passive seat
// is seat 2 if first is 0, else seat 1; rich gives it six seeds of each
// energy.
func passiveGame(t *testing.T, seed uint64, first int, rich bool) game.State {
	t.Helper()
	text := newGame(t, 2, seed, nil).String()
	if rich {
		seat := 2 - first
		text = strings.Replace(text, fmt.Sprintf("seeds%d 0 0 0", seat), fmt.Sprintf("seeds%d 6 6 6", seat), 1)
	}
	st, err := druids.ParseState(text)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// refreshState is a two-player game at seat 1's Refresh step, its Eldrid
// and acolyte exhausted (druids1): passing would end its turn, as it has
// no refreshed druid to act with.
const refreshState = "druids 2; first 0; active 0; step refresh; turns 2; ply 9; set 1-3,14,19,21; bag 2 3 19 21; world 1A@11,16 14A@12,16; hand -; score1 -; score2 -; seeds1 0 0 0; seeds2 0 0 0; markers + +; druids1 %s; druids2 E@14A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a00000000000000070000000000000007"

// stallState is a two-player game of six tiles, none drawn yet, at seat
// 1's Action step after the given number of turns, the explore offered.
const stallState = "druids 2; first 0; active 0; step action; turns %d; ply 40; set 1-3,14,19,21; bag 2 3 19 21; world 1A@11,16 14A@12,16; hand -; score1 -; score2 -; seeds1 0 0 0; seeds2 0 0 0; markers + +; druids1 E@1A a@1A; druids2 E@14A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a00000000000000070000000000000007"

// closingSpecs are the bots the closing rules bind: the heuristic levels,
// the search at a budget a decision and at one a turn.
var closingSpecs = []string{"easy", "medium", "heuristic", "mcts:40", "mcts:200/turn"}

// TestFreeRefreshNotPassed: at a Refresh step where passing would leave
// the turn with nothing to do, no bot passes, whatever its seed; where
// passing leaves a refreshed druid to act, the search is offered the pass.
func TestFreeRefreshNotPassed(t *testing.T) {
	idle, err := druids.ParseState(fmt.Sprintf(refreshState, "e@1A a@14A"))
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range closingSpecs {
		for seed := range uint64(6) {
			b := levelBotSeeded(t, spec, seed)
			m, err := b.Move(context.Background(), idle)
			if err != nil {
				t.Fatal(err)
			}
			if text := idle.MoveText(m); text == "done" {
				t.Errorf("%s (seed %d) passed its free refresh, leaving nothing to do", spec, seed)
			}
		}
	}
	prepare := CloseGames(Search)
	for druids1, want := range map[string]int{"e@1A a@14A": 2, "E@1A a@14A": 2} {
		st, err := druids.ParseState(fmt.Sprintf(refreshState, druids1))
		if err != nil {
			t.Fatal(err)
		}
		pos, err := prepare(st)
		if err != nil {
			t.Fatal(err)
		}
		legal := pos.AppendLegal(nil)
		_, passOffered := druids.Stop(legal)
		if idlePassed := druids1 == "e@1A a@14A"; passOffered == idlePassed || len(legal) != want {
			t.Errorf("druids %s: the search is offered %d moves, the pass %v", druids1, len(legal), passOffered)
		}
	}
}

// TestStalledGameExplores: once a game's turns outrun two a tile drawn by
// more than StallTurns, every bot explores where it is offered; a turn
// before, the search is offered every move.
func TestStalledGameExplores(t *testing.T) {
	stalledGame, err := druids.ParseState(fmt.Sprintf(stallState, StallTurns-1))
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range closingSpecs {
		for seed := range uint64(4) {
			m, err := levelBotSeeded(t, spec, seed).Move(context.Background(), stalledGame)
			if err != nil {
				t.Fatal(err)
			}
			if text := stalledGame.MoveText(m); text != "explore" {
				t.Errorf("%s (seed %d) played %q in a stalled game, not the explore", spec, seed, text)
			}
		}
	}
	before, err := druids.ParseState(fmt.Sprintf(stallState, StallTurns-2))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := CloseGames(Search)(before)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(pos.AppendLegal(nil)), len(before.AppendLegal(nil)); got != want {
		t.Errorf("a turn before the game stalls the search is offered %d moves, want %d", got, want)
	}
}

// closedState is a stalled two-player game (turn 103, one tile in the
// bag) from a run of easy against medium that the rules of stalled games
// did not end while they only explored where the explore was offered:
// each seat's one druid on the board stands on Neilym's Hermitage (6A),
// which has no empty space beside it, so neither may explore until it
// moves a druid (or summons one) somewhere it may.
const closedState = "druids 2; first 0; active 0; step refresh; turns 102; ply 399; set 1-24; bag 11; world 2A@17,16 3A@20,14 4A@19,12 6A@17,15 7A@16,16 8B@20,13 9A@19,14 10A@17,13 12A@19,15 14B@17,17 15A@21,13 16B@19,11 17B@18,14 18A@20,15 19B@18,15 20A@18,16 21A@16,15 22A@18,12 23B@17,14 24A@16,17; hand -; score1 1B 13A; score2 5B; seeds1 1 0 1; seeds2 0 2 8; markers + +; druids1 e@6A; druids2 E@supply a@6A; used 0; unravels 0; refreshes 0; stack -; rng 7063673af51076aca4343add1134a1919fc790b2"

// TestStalledGameLeavesAClosedSite: in a stalled game where no druid of
// a seat may explore, every bot moves or summons one where it may, and
// the game ends within a few turns.
func TestStalledGameLeavesAClosedSite(t *testing.T) {
	closed, err := druids.ParseState(closedState)
	if err != nil {
		t.Fatal(err)
	}
	if got := closed.OpenDruids(0); got != 0 {
		t.Fatalf("seat 1 has %d druids that could explore, want none", got)
	}
	for _, spec := range closingSpecs {
		st, err := druids.ParseState(closedState)
		if err != nil {
			t.Fatal(err)
		}
		seats := []bot{levelBot(t, spec), levelBot(t, spec)}
		start := st.Turn()
		for !st.Over() && st.Turn() < start+6 {
			m, err := seats[st.ToMove()].Move(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if !st.Over() {
			t.Errorf("%s: the game is not over after %d more turns", spec, st.Turn()-start)
		}
	}
}

// TestHasteRewardsAWinSooner: a finished game's victory is worth haste
// less for every turn it took from the search's root, at most half of
// it; the losers' rewards do not change.
func TestHasteRewardsAWinSooner(t *testing.T) {
	pos, err := NewPosition(newGame(t, 2, 8, nil))
	if err != nil {
		t.Fatal(err)
	}
	pos.Playout(rand.New(rand.NewPCG(1, 2)))
	rewardsFrom := func(turnsAgo int) []float64 {
		p := *pos
		p.root = p.Turn() - turnsAgo
		r := make([]float64, 2)
		p.Rewards(r)
		return r
	}
	now, win := rewardsFrom(0), pos.Winners()[0]
	for _, c := range []struct{ turns, cost float64 }{{10, 10 * DefaultHaste}, {30, 30 * DefaultHaste}, {1000, maxHaste}} {
		later := rewardsFrom(int(c.turns))
		want := now[win] - (1-DefaultMargin)*c.cost
		if math.Abs(later[win]-want) > 1e-9 || later[1-win] != now[1-win] {
			t.Errorf("a win %v turns from the root: rewards %v, want %v for the winner and %v for the loser", c.turns, later, want, now[1-win])
		}
	}
}
