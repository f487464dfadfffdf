package druids

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// TestReseedDrawsAnew: what a take-back's reseed (game.Reseed) draws anew
// in Land of Druids (issue 28, item 1): the tile an explore draws from the
// bag, and AJ's turn after the player's. 50 reseeds before the same move
// see more than one tile, and more than one turn of AJ's.
func TestReseedDrawsAnew(t *testing.T) {
	for _, c := range []struct {
		name string
		opts map[string]string
		// shows is what the note of the move tells, "" for a move that
		// draws nothing.
		shows func(n NoteView) string
	}{
		{"explore", nil, func(n NoteView) string {
			if len(n.Drew) == 0 {
				return ""
			}
			return fmt.Sprint(n.Drew)
		}},
		{"AJ's turn", map[string]string{"aj": "legend"}, func(n NoteView) string {
			if len(n.AJ) == 0 {
				return ""
			}
			return fmt.Sprint(n.AJ)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := Rules.NewGame(game.Setup{Players: 2, Seed: 3, Options: c.opts})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for !st.Over() {
				legal := game.Legal(st)
				for _, m := range legal {
					if c.shows(st.Note(m).(NoteView)) == "" {
						continue
					}
					seen := map[string]bool{}
					for seed := range uint64(50) {
						again := st.Clone()
						game.Reseed{Seed: seed}.Apply(again)
						seen[c.shows(again.Note(m).(NoteView))] = true
					}
					if len(seen) < 2 {
						t.Fatalf("50 reseeds before %s all show %v", st.MoveText(m), seen)
					}
					return
				}
				if err := st.Play(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			t.Fatal("no move drew anything")
		})
	}
}
