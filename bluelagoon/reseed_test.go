package bluelagoon_test

import (
	"math/rand/v2"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

// TestReseedDrawsAnew: a take-back's reseed (game.Reseed) before the move
// that ends the exploration draws the settlement's layout anew (issue 28,
// item 1): 50 reseeds see more than one layout.
func TestReseedDrawsAnew(t *testing.T) {
	st, err := bluelagoon.Rules.NewGame(game.Setup{Players: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for st.Secret() {
		legal := game.Legal(st)
		m := legal[rng.IntN(len(legal))]
		after := st.Clone()
		if err := after.Play(m); err != nil {
			t.Fatal(err)
		}
		if after.Secret() {
			st = after
			continue
		}
		layouts := map[string]bool{}
		for seed := range uint64(50) {
			again := st.Clone()
			game.Reseed{Seed: seed}.Apply(again)
			if err := again.Play(m); err != nil {
				t.Fatal(err)
			}
			layouts[again.String()] = true
		}
		if len(layouts) < 2 {
			t.Fatalf("50 reseeds before %s, which ends the exploration, lay out one settlement", st.MoveText(m))
		}
		return
	}
	t.Fatal("the exploration never ended")
}
