package druids

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The picture of a position built for it: the hexes in rows, half a cell
// apart, a locked site marked #, an original side *, the druids by site,
// each seat's seeds, marker, supply, score area and points, the drawn
// tile's two sides and the choices.
func TestPicture(t *testing.T) {
	s := pos(t, 2, "1A@10,16 14A@11,16 21A@12,16 16B@10,17")
	onlyInBag(s, 20)
	put(t, s, "1E@1A", "1a@16B", "2a@14A")
	s.seeds[1] = [3]uint8{0, 2, 1}
	scoreSites(s, 1, "2B")
	play(t, s, "explore", "1E@1A")
	want := `Lagoon: Land of Druids, 2 players, turn 1: seat 1's action step
bag 0; sites in play E1 V2 D1; destiny now Vowelon

[1A  E  ] [14A V# ] [21A D  ]
     [16B V* ]

1A   Gruu's Refuge (Elemeen haven, I): 1e
14A  Eye of the Forest (Vowelon sanctum, II), locked: 2a
16B  Windward Steps (Vowelon shrine, I), original to Lagoon: 1a
21A  Terrapin Ancient (Deonin ally, III)

seat 1: seeds E0 V0 D0; marker exhausted; supply 3 acolytes; unravelled -; points if E/V/D dominated 0/0/0
seat 2: seeds E0 V2 D1; marker refreshed; supply Eldrid and 3 acolytes; unravelled 2B; points if E/V/D dominated 2/4/1
drawn: tile 20, side A Neem's Mirror (Vowelon), side B Deonium Arch (Deonin)
seat 1 decides (explore): side A, side B
key: # locked, * original to Lagoon; 1E seat 1's Eldrid, 1A an acolyte (e, a: exhausted)
`
	if got := s.Picture(); got != want {
		t.Errorf("picture:\n%s\nwant:\n%s", got, want)
	}
}

// Every state of random games draws, and the picture names every site in
// play and the choices.
func TestPictureOfRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for g := range 6 {
		cfg := config{Players: 2 + g%3, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: uint64(g)}
		if g == 5 {
			cfg.Players, cfg.AJ = 2, AJLegend
		}
		st, err := newGame(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for !st.Over() {
			p := st.Picture()
			eachTile(st.inPlay, func(tile int) {
				if !strings.Contains(p, "["+st.tileLabel(tile)+" ") {
					t.Fatalf("%s not drawn:\n%s", st.tileLabel(tile), p)
				}
			})
			legal := st.AppendLegal(nil)
			if !strings.Contains(p, st.MoveText(legal[0])) {
				t.Fatalf("the choice %s not said:\n%s", st.MoveText(legal[0]), p)
			}
			st.PlayLegal(legal[rng.IntN(len(legal))])
		}
		if p := st.Picture(); !strings.Contains(p, "game over") || !strings.Contains(p, "winners: seat ") {
			t.Fatalf("the end:\n%s", p)
		}
	}
}
