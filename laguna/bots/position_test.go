package bots

import (
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

func newGame(t testing.TB, players int, board string, seed uint64) *laguna.State {
	t.Helper()
	st, err := laguna.Rules.NewGame(game.Setup{Players: players, Options: map[string]string{"board": board}, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*laguna.State)
}

// checkWorld compares the position's copy of the rafts and pearls with the
// engine's view.
func checkWorld(t *testing.T, s *Position) {
	t.Helper()
	w, _, _, err := viewWorld(&s.State, 0)
	if err != nil {
		t.Fatal(err)
	}
	if w != s.w {
		t.Fatalf("the position's world drifted from the engine's after %v:\n got %+v\nwant %+v", s.String(), s.w, w)
	}
}

// TestPlayoutsFinish: the playout policy ends games, at 2 to 4 players on
// both boards, within its bound, and its copy of the rafts stays the
// engine's.
func TestPlayoutsFinish(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 4
	}
	for _, board := range []string{"easy", "hard"} {
		for players := 2; players <= 4; players++ {
			unfinished, total := 0, 0
			for seed := range uint64(games) {
				pos, err := NewPosition(newGame(t, players, board, seed))
				if err != nil {
					t.Fatal(err)
				}
				r := rand.New(rand.NewPCG(seed, 9))
				var buf [256]game.Move
				n := 0
				for ; n < maxPlayout && !pos.Over(); n++ {
					legal := pos.AppendLegal(buf[:0])
					if err := pos.Play(pos.policy(legal, r)); err != nil {
						t.Fatal(err)
					}
					if seed == 0 {
						checkWorld(t, pos)
					}
				}
				total += n
				if !pos.Over() {
					unfinished++
				}
			}
			t.Logf("%s, %d players: %d of %d playouts unfinished, %d decisions a game", board, players, unfinished, games, total/games)
			if unfinished > 0 {
				t.Errorf("%s, %d players: %d of %d playouts did not finish within %d decisions", board, players, unfinished, games, maxPlayout)
			}
		}
	}
}
