package bots

import (
	"context"
	"testing"

	"github.com/lagoon-games/lagoon/druids"
)

// The heuristic bot reads destiny: of a drawn tile's two sides it lays the
// one whose energy, dominating, scores its seeds (19B, Vowelon, for its
// five Vowelon seeds, not 19A, Elemeen, the other seat's); and it
// unravels 21B, an Elemeen leaf, since the three energies then tie and
// the seeds make Vowelon dominate, where ending the turn would leave
// Elemeen dominating. (The positions are druids' TestHeuristicReadsDestiny,
// with tiles of other groups in the bag to make a play set.)
func TestHeuristicReadsDestiny(t *testing.T) {
	for _, c := range []struct{ state, want string }{
		{"druids 2; first 0; active 0; step action; turns 0; ply 2; set 1-3,14,19,21; bag 2 3; world 1A@10,16 14A@11,16 21A@12,16; hand 19; score1 -; score2 -; seeds1 0 5 0; seeds2 5 0 0; markers - +; druids1 e@1A; druids2 E@1A; used 0; unravels 0; refreshes 0; stack 56:2:1:0:0:-1:18:-1:0:0:96:65535; rng 7063673a28a18b11899cca8decae973f56023d32", "side B"},
		{"druids 2; first 0; active 0; step action; turns 0; ply 0; set 1-2,14-15,19,21; bag 2 19; world 1A@11,16 14A@12,16 15A@13,16 21B@10,16; hand -; score1 -; score2 -; seeds1 0 5 3; seeds2 4 0 0; markers + +; druids1 E@21B; druids2 E@1A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a00000000000000070000000000000007", "unravel"},
	} {
		st, err := druids.ParseState(c.state)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(3) {
			m, err := NewHeuristic(seed, 48).Move(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			if got := st.MoveText(m); got != c.want {
				t.Errorf("seed %d: the heuristic chose %q, want %q", seed, got, c.want)
			}
		}
	}
}
