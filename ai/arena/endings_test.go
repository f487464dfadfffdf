package arena

import (
	"context"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// TestEndings: the games are counted by how they ended, the stopped and
// forfeited apart, and the lengths are of the games played to the end.
func TestEndings(t *testing.T) {
	ended := func(end string, turns, moves int) Game {
		return Game{End: end, Turns: turns, Record: game.Record{Moves: make([]string, moves)}}
	}
	tests := []struct {
		name  string
		games []Game
		want  string
	}{
		{"none", nil, "ended: none; 0 stopped unfinished, 0 forfeited"},
		{"one way", []Game{ended("over", 5, 40), ended("over", 9, 60), ended("over", 7, 50)},
			"ended: 3 over; 0 stopped unfinished, 0 forfeited; turns p50 7, p99 9, max 9; decisions at most 60"},
		{"most first", []Game{ended("calm", 40, 900), ended("delivered", 8, 100), ended("delivered", 6, 80),
			{Unfinished: true, Turns: 1000, Record: game.Record{Moves: make([]string, 3000)}},
			{Forfeit: &Forfeit{}, Turns: 2}},
			"ended: 2 delivered, 1 calm; 1 stopped unfinished, 1 forfeited; turns p50 8, p99 40, max 40; decisions at most 900"},
		{"ties by name", []Game{ended("b", 1, 1), ended("a", 2, 2)},
			"ended: 1 a, 1 b; 0 stopped unfinished, 0 forfeited; turns p50 1, p99 2, max 2; decisions at most 2"},
	}
	for _, tt := range tests {
		var out strings.Builder
		if err := SummariseEndings(tt.games).Write(&out); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(out.String(), "\n"); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
	var turns []Game
	for n := 1; n <= 200; n++ {
		turns = append(turns, ended("over", n, n))
	}
	if e := SummariseEndings(turns); e.TurnsMedian != 100 || e.TurnsP99 != 198 || e.TurnsMax != 200 {
		t.Errorf("turns 1 to 200: p50 %d, p99 %d, max %d; want 100, 198, 200", e.TurnsMedian, e.TurnsP99, e.TurnsMax)
	}
}

// TestGamesSayHowTheyEnded: a game played says its turns and how it ended,
// the game's own word where it has one, and replaying its record says the
// same.
func TestGamesSayHowTheyEnded(t *testing.T) {
	lagunaGame := &ai.Game{Rules: laguna.Rules}
	for _, cfg := range []Config{
		{Game: tiny, Bots: []string{"random", "random"}, Games: 2, Seed: 1},
		{Game: lagunaGame, Bots: []string{"random", "random"}, Games: 2, Seed: 1, Options: map[string]string{"board": "easy"}},
	} {
		games, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			// Laguna's random rafts seldom deliver: their games end calm.
			if ours := g.End != "over"; g.End == "" || ours != (cfg.Game == lagunaGame) || g.Turns == 0 {
				t.Errorf("%s deal %d: end %q, turns %d", cfg.Game.Rules.ID, g.Deal, g.End, g.Turns)
			}
			again := g
			again.End, again.Turns = "", 0
			if err := again.Replay(cfg.Game.Rules); err != nil {
				t.Fatal(err)
			}
			if again.End != g.End || again.Turns != g.Turns {
				t.Errorf("%s deal %d replayed: end %q, turns %d; played: %q, %d", cfg.Game.Rules.ID, g.Deal, again.End, again.Turns, g.End, g.Turns)
			}
			again.Record.Moves = again.Record.Moves[:len(again.Record.Moves)-1]
			if err := again.Replay(cfg.Game.Rules); err == nil {
				t.Errorf("%s deal %d: a record cut short of the end replayed for a game that ended", cfg.Game.Rules.ID, g.Deal)
			}
		}
	}
}
