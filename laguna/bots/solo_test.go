package bots

import (
	"context"
	"fmt"
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// TestSoloPuzzlesSolved: the planner finishes the solo puzzles of both
// original boards at every level of puzzle, in no fewer steps than the par
// and not many more (docs/laguna.md gives the steps against the par).
func TestSoloPuzzlesSolved(t *testing.T) {
	seeds, boards, puzzles := uint64(3), laguna.BoardNames(), 4
	if testing.Short() || raceEnabled {
		seeds, boards, puzzles = 1, boards[1:], 1 // the hard board's first
	}
	for _, board := range boards {
		for puzzle := range puzzles {
			for seed := uint64(1); seed <= seeds; seed++ {
				st, err := laguna.Rules.NewGame(game.Setup{Players: 1, Seed: seed,
					Options: map[string]string{"board": board, "puzzle": fmt.Sprint(puzzle)}})
				if err != nil {
					t.Fatal(err)
				}
				s := st.(*laguna.State)
				pp := s.View(game.Viewer{}).(laguna.StateView).Par
				if pp == nil {
					t.Fatalf("%s, puzzle %d, seed %d: no par", board, puzzle, seed)
				}
				par := *pp
				bot := planner(t, "max", seed)
				for n := 0; !s.Over(); n++ {
					if n > 2000 {
						t.Fatalf("%s, puzzle %d, seed %d: unsolved after %d decisions: %s", board, puzzle, seed, n, s)
					}
					m, err := bot.Move(context.Background(), s)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.Play(m); err != nil {
						t.Fatal(err)
					}
				}
				steps := s.Standing().Scores[0]
				if len(s.Standing().Winners) != 1 || steps < par || steps > par+par/5 {
					t.Fatalf("%s, puzzle %d, seed %d: %d steps, par %d, %+v", board, puzzle, seed, steps, par, s.Standing())
				}
				t.Logf("%s, puzzle %d, seed %d: %d steps, par %d", board, puzzle, seed, steps, par)
			}
		}
	}
}
