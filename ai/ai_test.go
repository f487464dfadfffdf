package ai

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
	"github.com/lagoon-games/lagoon/laguna"
)

// tinyGame returns a new game of Tiny, the test game that names nothing of
// Blue Lagoon: hidden hands, draws, turns of several decisions.
func tinyGame(t testing.TB, players int, seed uint64) game.State {
	t.Helper()
	st, err := gametest.Tiny.NewGame(game.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestNewUnknownListsKnown(t *testing.T) {
	for _, rules := range []*game.Rules{bluelagoon.Rules, gametest.Tiny} {
		_, err := New(rules, "nonsense")
		if err == nil {
			t.Fatal("New(nonsense) succeeded")
		}
		for _, s := range Specs(rules.ID) {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not list %q", err, s)
			}
		}
	}
	if _, err := New(nil, "random"); err == nil {
		t.Error("a bot for no game was made")
	}
}

// playOut plays a whole game with bot in every seat, checking every move.
func playOut(t *testing.T, bot Bot, st game.State) game.State {
	t.Helper()
	for !st.Over() {
		before := st.String()
		m, err := bot.Move(context.Background(), st)
		if err != nil {
			t.Fatalf("%s: %v in %s", bot.Name(), err, before)
		}
		if st.String() != before {
			t.Fatalf("%s changed the game it was given", bot.Name())
		}
		if err := st.Play(m); err != nil {
			t.Fatalf("%s: %v in %s", bot.Name(), err, before)
		}
	}
	return st
}

func TestBotsPlayLegalMoves(t *testing.T) {
	counts := []int{2, 3, 4}
	if testing.Short() || raceEnabled {
		counts = []int{3}
	}
	for _, spec := range []string{"random", "greedy", "heuristic", "easy", "medium", "mcts:40"} {
		t.Run(spec, func(t *testing.T) {
			bot, err := NewWith(bluelagoon.Rules, spec, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, players := range counts {
				st := playOut(t, bot, blueLagoon(t, players, uint64(players)))
				if _, err := bot.Move(context.Background(), st); !errors.Is(err, ErrGameOver) {
					t.Errorf("move in a finished game: got %v, want ErrGameOver", err)
				}
			}
		})
	}
}

// TestBotsPlayAnyGame plays Tiny, a game package ai knows nothing of, with
// every spec it offers for it: the bots go through the contract alone.
func TestBotsPlayAnyGame(t *testing.T) {
	specs := Specs(gametest.Tiny.ID)
	for _, want := range []string{"random", "mcts", "easy", "medium", "hard", "max"} {
		if !slices.Contains(specs, want) {
			t.Errorf("Tiny's specs %v lack %q", specs, want)
		}
	}
	if slices.Contains(specs, "greedy") {
		t.Errorf("Tiny's specs %v hold Blue Lagoon's greedy", specs)
	}
	for _, spec := range []string{"random", "mcts:200", "easy", "medium"} {
		t.Run(spec, func(t *testing.T) {
			bot, err := NewWith(gametest.Tiny, spec, Options{Seed: 1, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, players := range []int{2, 3, 4} {
				st := playOut(t, bot, tinyGame(t, players, uint64(players)))
				if _, err := bot.Move(context.Background(), st); !errors.Is(err, ErrGameOver) {
					t.Errorf("move in a finished game: got %v, want ErrGameOver", err)
				}
			}
		})
	}
}

// TestSearchReadsNothingHidden: two deals of Tiny that look the same to the
// seat to move (its hand, the points, the turn), differing in the other
// seats' hands and the deck, get the same move from the same search: it
// never reads what its seat cannot see.
func TestSearchReadsNothingHidden(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	differ := 0
	for seed := range uint64(6) {
		st := tinyGame(t, 3, seed)
		// Play into the game a little, through decisions of every kind.
		for range int(seed) {
			st.Play(game.Legal(st)[0])
		}
		seat := st.ToMove()
		other := st.Clone()
		other.Resample(seat, r)
		if other.String() != st.String() {
			differ++
		}
		a := NewMCTS(gametest.Tiny, "mcts", mcts.Budget{Simulations: 400}, Options{Seed: 7, Workers: 1})
		b := NewMCTS(gametest.Tiny, "mcts", mcts.Budget{Simulations: 400}, Options{Seed: 7, Workers: 1})
		ma, err := a.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		mb, err := b.Move(context.Background(), other)
		if err != nil {
			t.Fatal(err)
		}
		if ma != mb {
			t.Errorf("seed %d: seat %d plays %s in one deal and %s in another it cannot tell apart",
				seed, seat, st.MoveText(ma), st.MoveText(mb))
		}
	}
	if differ == 0 {
		t.Error("no deal differed from the one it was resampled from: the test shows nothing")
	}
}

// TestMCTSPlaysTinyWell: against random play, the generic search (random
// playouts, rewards by the share of the victory) wins most games of Tiny,
// seats rotated.
func TestMCTSPlaysTinyWell(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("plays many games")
	}
	wins := 0.0
	games := 0
	for seed := range uint64(20) {
		for searchSeat := range 2 {
			bots := make([]Bot, 2)
			bots[searchSeat] = NewMCTS(gametest.Tiny, "mcts", mcts.Budget{Simulations: 300}, Options{Seed: seed, Workers: 1})
			bots[1-searchSeat] = NewRandom(seed)
			st := tinyGame(t, 2, seed)
			for !st.Over() {
				m, err := bots[st.ToMove()].Move(context.Background(), st)
				if err != nil {
					t.Fatal(err)
				}
				if err := st.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			w := st.Standing().Winners
			if slices.Contains(w, searchSeat) {
				wins += 1 / float64(len(w))
			}
			games++
		}
	}
	t.Logf("mcts won %.1f of %d games of Tiny against random", wins, games)
	if wins < 0.6*float64(games) {
		t.Errorf("mcts won %.1f of %d games of Tiny against random; want 60%% or more", wins, games)
	}
}

func TestLevelsForEveryGame(t *testing.T) {
	want := []string{"easy", "medium", "hard", "max"}
	for _, id := range []string{bluelagoon.Rules.ID, druids.Rules.ID, laguna.Rules.ID, gametest.Tiny.ID, "nosuchgame"} {
		if got := Levels(id); !slices.Equal(got, want) {
			t.Errorf("Levels(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestEverySpecMakesABot(t *testing.T) {
	for _, c := range []struct {
		rules *game.Rules
		st    game.State
	}{
		{bluelagoon.Rules, blueLagoon(t, 2, 3)},
		{gametest.Tiny, tinyGame(t, 2, 3)},
		{druids.Rules, newGame(t, druids.Rules, 2, nil, 3)},
		{laguna.Rules, newGame(t, laguna.Rules, 2, nil, 3)},
	} {
		rules, st := c.rules, c.st
		for _, spec := range Specs(rules.ID) {
			bot, err := New(rules, spec)
			if err != nil {
				t.Errorf("New(%s, %q): %v", rules.ID, spec, err)
				continue
			}
			if bot.Name() == "" {
				t.Errorf("New(%s, %q) has no name", rules.ID, spec)
			}
			// A short deadline keeps the search bots quick; they still move.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			m, err := bot.Move(ctx, st)
			cancel()
			if err != nil {
				t.Errorf("%s %s: %v", rules.ID, spec, err)
			} else if err := st.Clone().Play(m); err != nil {
				t.Errorf("%s %s: %v", rules.ID, spec, err)
			}
		}
	}
}

// TestSearchSettingsInSpecs: settings after the budget reach the search
// (bias, mast, c, w for every game) and the game (Blue Lagoon's playout
// policy), and the bots they make play.
func TestSearchSettingsInSpecs(t *testing.T) {
	for _, c := range []struct {
		rules *game.Rules
		spec  string
		st    game.State
	}{
		{bluelagoon.Rules, "mcts:200,bias=2,mast=0.5,minimax=0.5,c=0.3,w=1.5,token=0.9,settlefresh=0.5,margin=0.3", blueLagoon(t, 2, 3)},
		{gametest.Tiny, "mcts:200,bias=1,mast=0.6", tinyGame(t, 2, 3)},
	} {
		bot, err := NewWith(c.rules, c.spec, Options{Seed: 1, Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if bot.Name() != c.spec {
			t.Errorf("bot %q is named %q", c.spec, bot.Name())
		}
		m, err := bot.Move(context.Background(), c.st)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if err := c.st.Clone().Play(m); err != nil {
			t.Errorf("%s: %v", c.spec, err)
		}
	}
	_, cfg, extra, err := parseSearch("1s,bias=2,mast=0.25,minimax=0.5,token=0.9", mcts.Config{Exploration: 0.3})
	if err != nil || cfg.Bias != 2 || cfg.MAST != 0.25 || cfg.Minimax != 0.5 || cfg.Exploration != 0.3 || extra["token"] != 0.9 || len(extra) != 1 {
		t.Errorf("parseSearch: %+v %v %v", cfg, extra, err)
	}
}

func TestBadSpecs(t *testing.T) {
	for _, spec := range []string{"", "mcts:", "mcts:0", "mcts:-1s", "mcts:fast", "greedy:1s", "Random", "extern:x"} {
		if _, err := New(bluelagoon.Rules, spec); err == nil {
			t.Errorf("New(%q) succeeded", spec)
		}
	}
	for _, spec := range []string{"mcts:1000,", "mcts:1000,bias", "mcts:1000,bias=-1", "mcts:1000,nosuch=1", "mcts:1000,token=x", "mcts:1000,margin=2"} {
		if _, err := New(bluelagoon.Rules, spec); err == nil {
			t.Errorf("New(%q) succeeded", spec)
		}
	}
	// A game's own bots, and its own settings of the search, are its own.
	for _, spec := range []string{"greedy", "heuristic", "mcts:100,token=0.5"} {
		if _, err := New(gametest.Tiny, spec); err == nil {
			t.Errorf("New(tiny, %q) succeeded", spec)
		}
	}
}

// TestGameBotsRefuseAnotherGame: Blue Lagoon's own bots, given another
// game's state, say so.
func TestGameBotsRefuseAnotherGame(t *testing.T) {
	for _, spec := range []string{"greedy", "heuristic", "easy", "medium"} {
		bot, err := NewWith(bluelagoon.Rules, spec, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bot.Move(context.Background(), tinyGame(t, 2, 1)); err == nil {
			t.Errorf("%s moved in a game of Tiny", spec)
		}
	}
}
