package server

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// TestPhaseSummary checks the summary of the end of the exploration phase
// against the moves made in it and the board after it.
func TestPhaseSummary(t *testing.T) {
	for players := 2; players <= 4; players++ {
		t.Run(fmt.Sprint(players, "p"), func(t *testing.T) {
			b := bluelagoon.StandardBoard()
			l := newLayout(b)
			g, err := bluelagoon.NewGame(bluelagoon.Setup{Board: b, Players: players, Seed: uint64(players)})
			if err != nil {
				t.Fatal(err)
			}
			placed := make([]map[string]bluelagoon.Piece, players)
			for p := range placed {
				placed[p] = make(map[string]bluelagoon.Piece)
			}
			v := 0
			var sum *phaseSummaryView
			for sum == nil {
				before := *g
				m := g.LegalMove(v * 13 % g.NumLegalMoves())
				placed[before.Current()][l.name(m.At)] = m.Piece
				g.ApplyLegal(m)
				v++
				if g.Phase() == bluelagoon.Settlement {
					sum = makePhaseSummary(v, &before, m, g, l)
				}
			}
			scores, _ := g.PhaseScores(bluelagoon.Exploration)
			for p := range players {
				var settlers, villages []string
				for at, piece := range placed[p] {
					if piece == bluelagoon.Settler {
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
					var c bluelagoon.Coord
					fmt.Sscanf(at, "%d,%d", &c.Row, &c.Col)
					if q, piece, ok := g.PieceAt(c); !ok || q != p || piece != bluelagoon.Village || b.IsStoneCircle(c) {
						t.Errorf("player %d: kept village %s is not on the board after the phase", p, at)
					}
				}
				if sum.Totals[p] != scores[p].Total || sum.Scores[p] != scores[p] {
					t.Errorf("player %d: scores %+v, want %+v", p, sum.Scores[p], scores[p])
				}
			}
			if len(sum.Tokens) != len(tokensOn(g, l)) || sum.Version != v {
				t.Errorf("summary tokens %d, version %d", len(sum.Tokens), sum.Version)
			}
		})
	}
}

func TestResultTieBreak(t *testing.T) {
	names := []string{"Ann", "Bob", "Cy"}
	for _, tc := range []struct {
		totals, tokens []int
		winners        []int
		tieBreak, text string
	}{
		{[]int{90, 80}, []int{1, 9}, []int{0}, "none", "Ann wins with 90 points."},
		{[]int{90, 90}, []int{7, 5}, []int{0}, "tokens", "Ann and Bob tied on 90 points; the most tokens held decides (Ann 7, Bob 5): Ann wins."},
		{[]int{90, 90, 90}, []int{7, 7, 5}, []int{0, 1}, "tokens", "Ann, Bob and Cy tied on 90 points; the most tokens held decides (Ann 7, Bob 7, Cy 5): Ann and Bob share the victory."},
		{[]int{90, 90, 10}, []int{7, 7, 9}, []int{0, 1}, "shared", "Ann and Bob tied on 90 points and on 7 tokens held; they share the victory."},
	} {
		r := explainResult(tc.totals, tc.tokens, tc.winners, names)
		if r.TieBreak != tc.tieBreak || r.Explanation != tc.text {
			t.Errorf("totals %v tokens %v: %q %q, want %q %q", tc.totals, tc.tokens, r.TieBreak, r.Explanation, tc.tieBreak, tc.text)
		}
	}
}
