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

// TestRevealedAtTheSettlement: the count of revelations (game.Revealer)
// is 0 through the exploration and 1 from the move that ends it, which
// lays the settlement's tokens, to the end: a take-back goes back past any
// placement but that one (issue 47, item 10).
func TestRevealedAtTheSettlement(t *testing.T) {
	for _, setup := range []game.Setup{
		{Players: 2, Seed: 5},
		{Players: 3, Seed: 6, Options: map[string]string{"board": "sides"}},
		{Players: 4, Seed: 7},
	} {
		st, err := bluelagoon.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(setup.Seed, 2))
		ended := 0
		for !st.Over() {
			legal := game.Legal(st)
			m := legal[rng.IntN(len(legal))]
			text, before := st.MoveText(m), st.Revealed()
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
			want := before
			if st.Phase() == bluelagoon.Settlement && before == 0 {
				want, ended = 1, ended+1
			}
			if got := st.Revealed(); got != want {
				t.Fatalf("%+v: after %s in the %v phase Revealed is %d, want %d", setup, text, st.Phase(), got, want)
			}
		}
		if ended != 1 {
			t.Errorf("%+v: the exploration ended %d times", setup, ended)
		}
	}
}
