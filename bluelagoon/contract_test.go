package bluelagoon_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

func TestContract(t *testing.T) {
	gametest.Check(t, bluelagoon.Rules,
		game.Setup{Players: 2, Seed: 1},
		game.Setup{Players: 3, Options: map[string]string{"board": "sides", "first": "2"}, Seed: 10},
		game.Setup{Players: 4, Options: map[string]string{"board": "space_invaders", "first": "1"}, Seed: 20},
		game.Setup{Players: 3, Options: map[string]string{"board": stripedBoard(9)}, Seed: 30},
	)
}

// The contract's moves are the engine's moves, in the same order, and a
// game played through the contract is the engine's game.
func TestContractIsTheEngine(t *testing.T) {
	for seed := range uint64(20) {
		st, err := bluelagoon.Rules.NewGame(game.Setup{Players: 2 + int(seed%3), Seed: seed, Options: map[string]string{"first": "1"}})
		if err != nil {
			t.Fatal(err)
		}
		g := bluelagoon.GameOf(st)
		engine := newGame(t, bluelagoon.StandardBoard(), g.Players(), seed, 1)
		rng := rand.New(rand.NewPCG(seed, 1))
		for !st.Over() {
			legal := st.AppendLegal(nil)
			want := engine.LegalMoves()
			if len(legal) != len(want) {
				t.Fatalf("seed %d: %d moves through the contract, %d in the engine", seed, len(legal), len(want))
			}
			for i, m := range legal {
				if em, _ := bluelagoon.EngineMove(g.Board(), m); em != want[i] || st.MoveText(m) != want[i].String() {
					t.Fatalf("seed %d: move %d is %v (%s), the engine's %v", seed, i, em, st.MoveText(m), want[i])
				}
			}
			k := rng.IntN(len(legal))
			if err := st.Play(legal[k]); err != nil {
				t.Fatal(err)
			}
			engine.ApplyLegal(want[k])
			if st.String() != engine.String() || st.ToMove() != engine.Current() && !engine.Over() {
				t.Fatalf("seed %d: the contract's game %s, the engine's %s", seed, st.String(), engine.String())
			}
		}
		if st.ToMove() != game.NoSeat || len(st.Standing().Winners) == 0 {
			t.Fatalf("seed %d: over, to move %d, standing %+v", seed, st.ToMove(), st.Standing())
		}
	}
}

func TestContractOptions(t *testing.T) {
	for _, tc := range []struct {
		players int
		options map[string]string
		err     string
	}{
		{2, map[string]string{"board": "nowhere"}, "option board"},
		{2, map[string]string{"first": "2"}, "option first"},
		{3, map[string]string{"first": "9"}, "option first: \"9\" is not one of"},
		{2, map[string]string{"colour": "red"}, "option \"colour\": unknown; the options are board, first"},
		{5, nil, "5 players; a game has 2 to 4"},
	} {
		_, err := bluelagoon.Rules.NewGame(game.Setup{Players: tc.players, Options: tc.options})
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%d players, %v: error %v, want one saying %q", tc.players, tc.options, err, tc.err)
		}
	}
	custom := bluelagoon.StandardBoard().String()
	st, err := bluelagoon.Rules.NewGame(game.Setup{Players: 2, Options: map[string]string{"board": custom}})
	if err != nil {
		t.Fatalf("a board in the notation: %v", err)
	}
	if bluelagoon.GameOf(st).Board() != bluelagoon.StandardBoard() {
		t.Fatal("the standard board in the notation is not the standard board")
	}
	wheels, err := bluelagoon.New(game.Setup{Players: 3, Options: map[string]string{"board": "wheels", "first": "2"}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if wheels.Board().Name() != "wheels" || wheels.Current() != 2 {
		t.Fatalf("New with the options board wheels and first 2: board %q, seat %d to move", wheels.Board().Name(), wheels.Current())
	}
}

// A move's note tells the token it takes and, for the move that ends the
// exploration phase, what the phase's end removed and kept.
func TestContractNotes(t *testing.T) {
	st, _ := bluelagoon.Rules.NewGame(game.Setup{Players: 2, Seed: 3})
	rng := rand.New(rand.NewPCG(3, 3))
	sawToken, sawEnd := false, false
	for !st.Over() {
		legal := st.AppendLegal(nil)
		m := legal[rng.IntN(len(legal))]
		b, _ := json.Marshal(st.Note(m))
		var note struct {
			Phase     string  `json:"phase"`
			Took      *string `json:"took"`
			PhaseEnds []struct {
				Phase           string     `json:"phase"`
				SettlersRemoved [][]string `json:"settlers_removed"`
			} `json:"phase_ends"`
		}
		if err := json.Unmarshal(b, &note); err != nil {
			t.Fatal(err)
		}
		g := bluelagoon.GameOf(st)
		em, _ := bluelagoon.EngineMove(g.Board(), m)
		if _, ok := g.TokenAt(em.At); ok != (note.Took != nil) {
			t.Fatalf("%s: note %s", st.MoveText(m), b)
		}
		sawToken = sawToken || note.Took != nil
		phase := g.Phase()
		st.Play(m)
		if ended := bluelagoon.GameOf(st).Phase() != phase; ended {
			if len(note.PhaseEnds) == 0 || note.PhaseEnds[0].Phase != "exploration" || len(note.PhaseEnds[0].SettlersRemoved) != 2 {
				t.Fatalf("the move that ended the exploration phase: note %s", b)
			}
			sawEnd = true
		}
		if st.Over() && (len(note.PhaseEnds) == 0 || note.PhaseEnds[len(note.PhaseEnds)-1].Phase != "settlement") {
			t.Fatalf("the last move: note %s", b)
		}
	}
	if !sawToken || !sawEnd {
		t.Fatalf("a whole game took no token (%v) or never ended the exploration (%v)", sawToken, sawEnd)
	}
}
