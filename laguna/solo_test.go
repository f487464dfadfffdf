package laguna

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

func TestSoloSetup(t *testing.T) {
	for seed := range uint64(30) {
		s, err := newGame(1, options{}, seed)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i := range NumIslands {
			for c := range NumColours {
				if s.target[i][c] > 1 {
					t.Fatalf("seed %d: two of a colour in the target", seed)
				}
				n += int(s.target[i][c])
			}
		}
		if n != NumPearls-MinAboard || s.islands == s.target {
			t.Fatalf("seed %d: a target of %d pearls", seed, n)
		}
		back, err := ParseState(s.String())
		if err != nil || back.String() != s.String() {
			t.Fatalf("a solo state does not read back: %v", err)
		}
	}
	if _, err := newGame(1, options{Deal: true}, 1); err == nil {
		t.Fatal("the players deal in the solo game")
	}
}

func TestSoloPlay(t *testing.T) {
	s, _ := newGame(1, options{Board: Frame()}, 1)
	mustPlay(t, s, "place H f3")
	if s.phase != phPlay || s.seat != 0 {
		t.Fatal("play does not begin")
	}
	// Load two from island A; after the turn the same seat plays on.
	legal := s.AppendLegal(nil)
	mustPlay(t, s, MoveText(legal[0]))
	legal = s.AppendLegal(nil)
	mustPlay(t, s, MoveText(legal[len(legal)-1]), "S", "S", "end")
	if s.seat != 0 || s.Turn() != 2 || s.Standing().Scores[0] != 2 {
		t.Fatalf("after a turn: %s, standing %+v", s, s.Standing())
	}
	// No delivering at the volcano in the solo game.
	s = position(t, testBoard(t, nil), options{}, "V i11 RYG...")
	s.drawTarget(1, 0)
	if slices.ContainsFunc(legalTexts(s), func(m string) bool { return m[0] == 'd' }) {
		t.Fatal("a delivery in the solo game")
	}
	// One unload from the target: the game is won.
	s = position(t, testBoard(t, nil), options{}, "H f3 RYG...")
	for c := range NumColours { // room on island A: one of its pearls to H
		if s.islands[0][c] > 0 {
			s.islands[0][c]--
			s.islands[7][c]++
			break
		}
	}
	s.target = s.islands
	s.target[0][s.rafts[0].holes[0]]++
	mustPlay(t, s, "unload 1")
	if !s.Over() || !slices.Equal(s.Standing().Winners, []int{0}) {
		t.Fatalf("the target reached and %s", s)
	}
	if v := s.View(game.Viewer{}).(StateView); len(v.Goal) != NumIslands || v.Target != 0 {
		t.Fatalf("the solo view: %+v", v)
	}
}

// TestSoloRandomPlay plays random solo moves (the game seldom ends so) and
// checks the invariants and the notation after each.
func TestSoloRandomPlay(t *testing.T) {
	s, _ := newGame(1, options{Board: BoardByName("hard")}, 3)
	r := newRand(3)
	for range 3000 {
		legal := s.AppendLegal(nil)
		m := legal[r.IntN(len(legal))]
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
		invariants(t, s)
		if back, err := ParseState(s.String()); err != nil || back.String() != s.String() {
			t.Fatalf("%s does not read back: %v", s, err)
		}
		if s.Over() {
			break
		}
	}
}

func TestSoloParInTheGame(t *testing.T) {
	st, err := Rules.NewGame(game.Setup{Players: 1, Options: map[string]string{"board": "hard", "puzzle": "2"}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	par, _ := SoloPar(s, 200000)
	if int(s.par) != par || !strings.HasSuffix(s.String(), " par="+strconv.Itoa(par)) {
		t.Fatalf("par %d, the state %s", par, s)
	}
	if v := s.View(game.Viewer{}).(StateView); v.Par == nil || *v.Par != par {
		t.Fatal("the view has no par")
	}
	back, err := ParseState(s.String())
	if err != nil || back.par != s.par {
		t.Fatalf("the par does not read back: %v", err)
	}
}
