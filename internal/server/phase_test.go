package server

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// TestPhaseEndNote plays Blue Lagoon through the server to the end of the
// exploration phase and checks what the note of the move that ended it
// says against the moves made in it and the board after it: the settlers
// removed, the villages removed and kept, the scores and the new tokens.
func TestPhaseEndNote(t *testing.T) {
	ts := newTestServer(t, nil)
	for players := 2; players <= 4; players++ {
		t.Run(fmt.Sprint(players, "p"), func(t *testing.T) {
			ts := ts.in(t)
			id, tokens := ts.humans(players, uint64(players))
			table := decode[struct {
				StoneCircles []string `json:"stone_circles"`
			}](t, ts.get(id, "").Table)
			placed := make([]map[string]string, players)
			for p := range placed {
				placed[p] = make(map[string]string)
			}
			var end *moveView
			for v := 0; end == nil; v++ {
				g := ts.get(id, "")
				m := g.State.View.Legal[v*13%len(g.State.View.Legal)]
				p := g.State.ToMove
				placed[p][m[2:]] = m[:1]
				r := ts.move(id, tokens[p], v, m)
				if len(note(t, r.State.LastMove).PhaseEnds) > 0 {
					end = r.State.LastMove
				}
			}
			n := note(t, end)
			sum := n.PhaseEnds[0]
			if n.Phase != "exploration" || sum.Phase != "exploration" || len(n.PhaseEnds) != 1 {
				t.Fatalf("the note of the move that ended the exploration phase: %s", end.Note)
			}
			after := ts.get(id, "")
			sg, err := ts.store.Game(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			eng := engine(t, replay(t, sg))
			scores, _ := eng.PhaseScores(bluelagoon.Exploration)
			for p := range players {
				var settlers, villages []string
				for at, piece := range placed[p] {
					if piece == "S" {
						settlers = append(settlers, at)
					} else {
						villages = append(villages, at)
					}
				}
				got := append(slices.Clone(sum.VillagesRemoved[p]), sum.VillagesKept[p]...)
				slices.Sort(settlers)
				slices.Sort(villages)
				slices.Sort(got)
				if s := slices.Sorted(slices.Values(sum.SettlersRemoved[p])); !slices.Equal(s, settlers) {
					t.Errorf("player %d: settlers removed %v, placed %v", p, s, settlers)
				}
				if !slices.Equal(got, villages) {
					t.Errorf("player %d: villages removed and kept %v, placed %v", p, got, villages)
				}
				for _, at := range sum.VillagesKept[p] {
					on := slices.Contains(after.State.View.Pieces, blPiece{At: at, Seat: p, Piece: "village"})
					if !on || slices.Contains(table.StoneCircles, at) {
						t.Errorf("player %d: kept village %s is not on the board after the phase", p, at)
					}
				}
				for _, at := range sum.VillagesRemoved[p] {
					if !slices.Contains(table.StoneCircles, at) {
						t.Errorf("player %d: removed village %s is on no stone circle", p, at)
					}
				}
				if sum.Totals[p] != scores[p].Total || sum.Scores[p] != scores[p] {
					t.Errorf("player %d: scores %+v, want %+v", p, sum.Scores[p], scores[p])
				}
			}
			if len(sum.Tokens) != len(after.State.View.Tokens) || len(sum.Tokens) == 0 || after.State.View.Phase != "settlement" {
				t.Errorf("summary tokens %d, on the board %d, phase %s", len(sum.Tokens), len(after.State.View.Tokens), after.State.View.Phase)
			}
		})
	}
}
