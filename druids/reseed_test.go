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

// TestRevealedCountsDraws: the count of revelations (game.Revealer) rises
// with every move whose note tells a tile drawn, and stays with every move
// that tells neither a tile drawn nor a turn of AJ's, so that a take-back
// stops at a tile drawn (issue 47, item 10) and passes a side or a space
// chosen.
func TestRevealedCountsDraws(t *testing.T) {
	for _, c := range []struct {
		name string
		opts map[string]string
	}{
		{"two players", nil},
		{"against AJ", map[string]string{"aj": "legend"}},
		{"all sites", map[string]string{"set": "all"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			drew, quiet := 0, 0
			for seed := range uint64(4) {
				st, err := New(game.Setup{Players: 2, Seed: seed, Options: c.opts})
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(seed, 3))
				for !st.Over() {
					legal := game.Legal(st)
					m := legal[rng.IntN(len(legal))]
					note, text := st.Note(m).(NoteView), st.MoveText(m)
					before := st.Revealed()
					if err := st.Play(m); err != nil {
						t.Fatal(err)
					}
					switch after := st.Revealed(); {
					case len(note.Drew) > 0 && after <= before:
						t.Fatalf("seed %d: %s drew %v, but Revealed stays %d", seed, text, note.Drew, before)
					case len(note.Drew) > 0:
						drew++
					case len(note.AJ) == 0 && after != before:
						t.Fatalf("seed %d: %s drew nothing, but Revealed went from %d to %d", seed, text, before, after)
					case len(note.AJ) == 0:
						quiet++
					}
				}
			}
			if drew == 0 || quiet == 0 {
				t.Errorf("%d moves drew, %d drew nothing: the test saw too little", drew, quiet)
			}
		})
	}
}
