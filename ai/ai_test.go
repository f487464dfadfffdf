package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// tiny is the test game Tiny as a game that brings nothing to the bots.
var tiny = &Game{Rules: gametest.Tiny}

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
	for _, g := range []*Game{tiny, tinyKitted} {
		_, err := New(g, "nonsense")
		if err == nil {
			t.Fatal("New(nonsense) succeeded")
		}
		for _, s := range g.Specs() {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not list %q", err, s)
			}
		}
	}
	if _, err := New(nil, "random"); err == nil {
		t.Error("a bot for no game was made")
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
		a := NewMCTS(tiny, "mcts", mcts.Budget{Simulations: 400}, Options{Seed: 7, Workers: 1})
		b := NewMCTS(tiny, "mcts", mcts.Budget{Simulations: 400}, Options{Seed: 7, Workers: 1})
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
			bots[searchSeat] = NewMCTS(tiny, "mcts", mcts.Budget{Simulations: 300}, Options{Seed: seed, Workers: 1})
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

// TestSearchSettingsInSpecs: settings after the budget reach the search
// (bias, mast, c, w for every game) and the game's kit (SearchWith), and
// the bots they make play.
func TestSearchSettingsInSpecs(t *testing.T) {
	for _, c := range []struct {
		g    *Game
		spec string
	}{
		{tiny, "mcts:200,bias=1,mast=0.6"},
		{tinyKitted, "mcts:200,bias=2,mast=0.5,minimax=0.5,c=0.3,w=1.5,x=0.5"},
	} {
		bot, err := NewWith(c.g, c.spec, Options{Seed: 1, Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if bot.Name() != c.spec {
			t.Errorf("bot %q is named %q", c.spec, bot.Name())
		}
		st := tinyGame(t, 2, 3)
		m, err := bot.Move(context.Background(), st)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if err := st.Clone().Play(m); err != nil {
			t.Errorf("%s: %v", c.spec, err)
		}
	}
	_, cfg, extra, err := parseSearch("1s,bias=2,mast=0.25,minimax=0.5,c=0.3,x=0.9")
	if err != nil || cfg.Bias != 2 || cfg.MAST != 0.25 || cfg.Minimax != 0.5 || cfg.Exploration != 0.3 || extra["x"] != 0.9 || len(extra) != 1 {
		t.Errorf("parseSearch: %+v %v %v", cfg, extra, err)
	}
}

func TestBadSpecs(t *testing.T) {
	for _, spec := range []string{"", "mcts:", "mcts:0", "mcts:-1s", "mcts:fast", "first:1s", "Random", "extern:x",
		"mcts:1000,", "mcts:1000,bias", "mcts:1000,bias=-1", "mcts:1000,nosuch=1", "mcts:1000,x=y", "mcts:1000,x=2"} {
		if _, err := New(tinyKitted, spec); err == nil {
			t.Errorf("New(%q) succeeded", spec)
		}
	}
	// A game's own bots, and its own settings of the search, are its own.
	for _, spec := range []string{"first", "mcts:100,x=0.5"} {
		if _, err := New(tiny, spec); err == nil {
			t.Errorf("New(tiny, %q) succeeded", spec)
		}
	}
}
