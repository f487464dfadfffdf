package bluelagoon_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// reachedBy returns the spaces of the islands on which player p has a
// piece.
func reachedBy(g *bluelagoon.Game, p int) bluelagoon.Spaces {
	b := g.Board()
	out := b.LandSpaces().AndNot(b.LandSpaces())
	pieces := g.PieceSpaces(p)
	for i := range b.Islands() {
		if isl := b.IslandSpaces(i); !pieces.And(isl).Empty() {
			out = out.Or(isl)
		}
	}
	return out
}

// byKind rates a token by its kind alone, so that which of several tokens
// in reach is best is plain to see.
func byKind(_ [bluelagoon.NumTokenKinds]int, t bluelagoon.Token) float64 { return float64(t) }

// TestApplyPreferredSteps plays whole games of 2 to 4 players with one
// step of the preferences made certain, and checks every move against the
// rule: the best token in reach, a new island, land; and otherwise a legal
// move, a settler wherever one may go.
func TestApplyPreferredSteps(t *testing.T) {
	// Each case's want returns the spaces the move must be on, given what
	// the mover may reach and the islands it has reached; an empty set
	// leaves the move to the uniform draw.
	cases := []struct {
		name string
		pref bluelagoon.Preferences
		want func(g *bluelagoon.Game, reach, reached bluelagoon.Spaces) bluelagoon.Spaces
	}{
		{"token", bluelagoon.Preferences{Token: 1, Worth: byKind}, func(g *bluelagoon.Game, reach, _ bluelagoon.Spaces) bluelagoon.Spaces {
			tokens := reach.And(g.TokenSpaces())
			var best bluelagoon.Token
			for c := range tokens.All() {
				tk, _ := g.TokenAt(c)
				best = max(best, tk)
			}
			for c := range tokens.All() {
				if tk, _ := g.TokenAt(c); tk != best {
					tokens = tokens.Remove(c)
				}
			}
			return tokens
		}},
		{"fresh", bluelagoon.Preferences{Fresh: 1, SettleFresh: 1, Worth: byKind}, func(g *bluelagoon.Game, reach, reached bluelagoon.Spaces) bluelagoon.Spaces {
			return reach.And(g.Board().LandSpaces()).AndNot(reached)
		}},
		{"land", bluelagoon.Preferences{Land: 1, SettleLand: 1, Worth: byKind}, func(g *bluelagoon.Game, reach, _ bluelagoon.Spaces) bluelagoon.Spaces {
			return reach.And(g.Board().LandSpaces())
		}},
		{"exploration only", bluelagoon.Preferences{Land: 1, Worth: byKind}, func(g *bluelagoon.Game, reach, _ bluelagoon.Spaces) bluelagoon.Spaces {
			if g.Phase() == bluelagoon.Settlement {
				return reach.AndNot(reach)
			}
			return reach.And(g.Board().LandSpaces())
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seaMoves := 0 // in the settlement phase, with land in reach
			for players := bluelagoon.MinPlayers; players <= bluelagoon.MaxPlayers; players++ {
				for seed := range uint64(5) {
					g := newGame(t, bluelagoon.StandardBoard(), players, seed, 0)
					r := rand.New(rand.NewPCG(seed, 9))
					for !g.Over() {
						settlers, villages := g.LegalSpaces()
						reach := settlers
						if reach.Empty() {
							reach = villages
						}
						p, reached, before := g.Current(), reachedBy(g, g.Current()), *g
						m := g.ApplyPreferred(r, &tc.pref, &reached)
						if err := before.Check(m); err != nil {
							t.Fatalf("%d players, seed %d: %v is not legal: %v", players, seed, m, err)
						}
						if want := tc.want(&before, reach, reached); !want.Empty() {
							if !want.Has(m.At) {
								t.Fatalf("%d players, seed %d, player %d: %v is not one of %v", players, seed, p, m, slices.Collect(want.All()))
							}
							if m.Piece == bluelagoon.Village && settlers.Has(m.At) {
								t.Fatalf("%d players, seed %d: a village on %v, where a settler may go", players, seed, m.At)
							}
						}
						if before.Phase() == bluelagoon.Settlement && !reach.And(before.Board().LandSpaces()).Empty() && before.Board().IslandAt(m.At) < 0 {
							seaMoves++
						}
						after := before
						after.ApplyLegal(m)
						if after != *g {
							t.Fatalf("%d players, seed %d: the game after %v is not the game ApplyLegal makes", players, seed, m)
						}
					}
				}
			}
			if tc.name == "exploration only" && seaMoves == 0 {
				t.Error("the settlement phase never went to sea with land in reach: the exploration's Land was applied to it")
			}
		})
	}
}

// TestApplyPreferredWithoutPreferences checks that preferences of
// probability 0 draw nothing from r: the same moves as ApplyRandom, from
// the same stream, to the game's end.
func TestApplyPreferredWithoutPreferences(t *testing.T) {
	for seed := range uint64(10) {
		g := newGame(t, bluelagoon.StandardBoard(), 2+int(seed%3), seed, 0)
		h := *g
		r1, r2 := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
		none := bluelagoon.Preferences{Worth: byKind}
		for !g.Over() {
			reached := reachedBy(g, g.Current())
			if a, b := g.ApplyPreferred(r1, &none, &reached), h.ApplyRandom(r2); a != b {
				t.Fatalf("seed %d: preferred %v, random %v", seed, a, b)
			}
		}
		if *g != h {
			t.Fatalf("seed %d: the games differ at the end", seed)
		}
	}
}
