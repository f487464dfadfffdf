package bluelagoon_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

// tb is what newGame needs of a test: a testing.TB or a rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
}

// newGame sets up a game on board b through the package's constructor,
// the board given as the option board takes it (a built-in board by name,
// any other in the notation), and returns the engine's game.
func newGame(t tb, b *bluelagoon.Board, players int, seed uint64, first int) *bluelagoon.Game {
	t.Helper()
	board := b.Name()
	if board == "" {
		board = b.String()
	}
	st, err := bluelagoon.New(game.Setup{Players: players, Seed: seed, Options: map[string]string{"board": board, "first": strconv.Itoa(first)}})
	if err != nil {
		t.Fatal(err)
	}
	return &st.Game
}

// TestNewRefuses: the constructor says what is wrong with a setup.
func TestNewRefuses(t *testing.T) {
	for _, c := range []struct {
		setup game.Setup
		want  string
	}{
		{game.Setup{Players: 5}, "5 players"},
		{game.Setup{Players: 2, Options: map[string]string{"first": "2"}}, `seat "2"`},
		{game.Setup{Players: 2, Options: map[string]string{"board": "nowhere"}}, "option board"},
	} {
		if _, err := bluelagoon.New(c.setup); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want an error saying %q", c.setup, err, c.want)
		}
	}
}

// TestReseed checks the chance event: the settlement layout comes from the
// game's generator, the same seed gives the same layout, and copies given
// other seeds sample other layouts with everything else the same.
func TestReseed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	g := newGame(t, bluelagoon.StandardBoard(), 2, 11, 0)
	var last move // the move that ends the exploration phase
	for {
		last = g.LegalMove(r.IntN(g.NumLegalMoves()))
		c := *g
		c.ApplyLegal(last)
		if c.Phase() == bluelagoon.Settlement {
			break
		}
		*g = c
	}
	layouts := map[string]bool{}
	rest := ""
	for seed := range uint64(5) {
		a, b := *g, *g
		a.Reseed(seed)
		b.Reseed(seed)
		a.ApplyLegal(last)
		b.ApplyLegal(last)
		if a.String() != b.String() {
			t.Errorf("seed %d laid out two different layouts", seed)
		}
		layout, others := splitLayout(a.String())
		layouts[layout] = true
		if rest == "" {
			rest = others
		} else if others != rest {
			t.Errorf("seed %d changed more than the tokens:\n%s\n%s", seed, others, rest)
		}
	}
	if len(layouts) != 5 {
		t.Errorf("5 seeds gave %d layouts", len(layouts))
	}
}

// splitLayout returns the r statement of a state and the rest of it.
func splitLayout(s string) (layout, rest string) {
	i := strings.Index(s, "; r ") + 2
	j := i + strings.Index(s[i:], ";")
	return s[i:j], s[:i] + s[j:]
}
