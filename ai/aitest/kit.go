// Package aitest holds a game's bot kit (ai.Kit) to what package ai
// promises of every game's bots, as gametest.Check holds a game to the
// contract. Each game's bots package runs it in its tests.
package aitest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/mcts"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// CheckKit makes every bot g offers (g.Specs) and checks, for each:
//
//   - the levels are "easy", "medium", "hard" and "max", in that order;
//   - the bot is named by its spec;
//   - given st, a state of g in play, it answers with a legal move (within
//     a short deadline, which a search answers with what it has) and
//     leaves st as it was;
//   - given over, a finished game of g, it answers ai.ErrGameOver;
//   - given a state of another game (the test game Tiny), a bot of the
//     game's own or the search with the game's knowledge says so with an
//     error, rather than playing it wrongly;
//   - the kit's Search, if any, prepares from st a position with st's
//     legal moves.
func CheckKit(t *testing.T, g *ai.Game, st, over game.State) {
	t.Helper()
	if want := []string{"easy", "medium", "hard", "max"}; !slices.Equal(g.Levels(), want) {
		t.Errorf("%s's levels are %v, want %v", g.Rules.ID, g.Levels(), want)
	}
	if !over.Over() {
		t.Fatalf("CheckKit: the finished game given is in play: %s", over)
	}
	other, err := gametest.Tiny.NewGame(game.Setup{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range g.Specs() {
		bot, err := ai.NewWith(g, spec, ai.Options{Seed: 1, Workers: 1})
		if err != nil {
			t.Errorf("%s %q: %v", g.Rules.ID, spec, err)
			continue
		}
		if bot.Name() != spec {
			t.Errorf("%s %q is named %q", g.Rules.ID, spec, bot.Name())
		}
		checkMove(t, g.Rules.ID+" "+spec, bot, st)
		if _, err := bot.Move(context.Background(), over); !errors.Is(err, ai.ErrGameOver) {
			t.Errorf("%s %q in a finished game: %v, want ErrGameOver", g.Rules.ID, spec, err)
		}
		if spec == "random" || (g.Kit.Search == nil && !isOwn(g, spec)) {
			continue // plays any game: it knows none
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		if _, err := bot.Move(ctx, other); err == nil {
			t.Errorf("%s %q moved in a game of Tiny", g.Rules.ID, spec)
		}
		cancel()
	}
	if g.Kit.Search != nil {
		pos, err := g.Kit.Search(mcts.Budget{Simulations: 1})(st)
		if err != nil {
			t.Fatalf("%s's Search: %v", g.Rules.ID, err)
		}
		if got, want := game.Legal(pos), game.Legal(st); !slices.Equal(got, want) {
			t.Errorf("%s's search position has the moves %v, the state %v", g.Rules.ID, got, want)
		}
	}
}

// checkMove asks bot for a move in st within a short deadline and checks
// that it is legal and st unchanged.
func checkMove(t *testing.T, name string, bot ai.Bot, st game.State) {
	t.Helper()
	before := st.String()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	m, err := bot.Move(ctx, st)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if st.String() != before {
		t.Errorf("%s changed the state it was given", name)
	}
	if err := st.Clone().Play(m); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

// isOwn reports whether spec names one of the kit's own bots or levels
// (not the generic random and search bots).
func isOwn(g *ai.Game, spec string) bool {
	for _, m := range slices.Concat(g.Kit.Bots, g.Kit.Levels) {
		if m.Name() == spec {
			return true
		}
	}
	return false
}

// PlayOut plays st to its end with bot in every seat, checking that the bot
// leaves the state it is given as it was and that every move it answers is
// legal, and returns the finished game.
func PlayOut(t testing.TB, bot ai.Bot, st game.State) game.State {
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
