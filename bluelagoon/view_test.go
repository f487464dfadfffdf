package bluelagoon

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

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

// A finished game's view explains the result with the seats' names, or
// with "Player 1"... when the viewer has none.
func TestViewResultNames(t *testing.T) {
	st, err := Rules.NewGame(game.Setup{Players: 2, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	for !s.Game.Over() {
		s.ApplyLegal(s.LegalMove(0))
	}
	named := s.View(game.Viewer{Names: []string{"Ann", "Bob"}}).(stateView)
	anonymous := s.View(game.Viewer{}).(stateView)
	if named.Result == nil || anonymous.Result == nil {
		t.Fatal("a finished game's view has no result")
	}
	b, _ := json.Marshal(named.Result)
	if !strings.Contains(named.Result.Explanation, "Ann") && !strings.Contains(named.Result.Explanation, "Bob") {
		t.Fatalf("named result %s", b)
	}
	if !strings.Contains(anonymous.Result.Explanation, "Player ") {
		t.Fatalf("anonymous result %q", anonymous.Result.Explanation)
	}
}

// BenchmarkView describes positions of random games as the page is sent
// them: what every move costs the server.
func BenchmarkView(b *testing.B) {
	positions := benchPositions(b, benchCase{"standard", 2}, 4)
	names := []string{"Ann", "Bob"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		st := State{Game: positions[i%len(positions)]}
		if _, err := json.Marshal(st.View(game.Viewer{Names: names})); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
