package laguna

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

func TestNotes(t *testing.T) {
	b := testBoard(t, map[string]byte{"f16": '#'})
	s := position(t, b, options{}, "H f17 RY....", far)
	mustPlay(t, s, "N") // after the first step a pearl may uncover anything
	before := s.String()
	if n := s.Note(Peek).(NoteView); n != (NoteView{}) {
		t.Fatalf("peek: %+v", n)
	}
	if n := s.Note(Shift(0, 2)).(NoteView); n.Uncovers != "#" || n.TurnEnds != "reef" {
		t.Fatalf("shift onto a reef: %+v", n)
	}
	if n := s.Note(Shift(1, 2)).(NoteView); n.Uncovers != "." || n.TurnEnds != "" {
		t.Fatalf("shift over water: %+v", n)
	}
	if n := s.Note(End).(NoteView); n.TurnEnds != "player" {
		t.Fatalf("end: %+v", n)
	}
	if s.String() != before {
		t.Fatal("notes changed the state")
	}
	s = position(t, testBoard(t, nil), options{}, "V i11 RYG...", far)
	s.volcano[0] = 5
	for range 5 {
		s.takePearl(t, 0)
	}
	if n := s.Note(Deliver(0)).(NoteView); !n.GameOver || n.Uncovers != "." {
		t.Fatalf("the winning delivery: %+v", n)
	}
}

func TestViewAndTable(t *testing.T) {
	b := testBoard(t, map[string]byte{"g4": '>'})
	s := position(t, b, options{}, "H f3 RY....", far)
	raw, err := json.Marshal(s.View(game.Viewer{Seat: game.NoSeat}))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"phase", "to_move", "over", "steps", "peeked", "target", "rafts", "islands", "volcano", "docked", "forced", "legal", "scores", "winners", "open_board"} {
		if _, ok := v[key]; !ok {
			t.Errorf("the view lacks %q: %s", key, raw)
		}
	}
	sv := s.View(game.Viewer{}).(StateView)
	if sv.Target != 6 || sv.Docked != "" || strings.Join(sv.Forced, "") != "E" || sv.Rafts[0].At != "f3" || sv.Rafts[0].Home != "A" {
		t.Fatalf("view: %+v", sv)
	}
	holes := sv.Rafts[0].Holes
	if holes[0].Square != "f3" || holes[0].Pearl != "R" || holes[0].Shows != "" || holes[4].Shows != ">" || holes[4].Pearl != "" {
		t.Fatalf("holes: %+v", holes)
	}
	tv := s.Table().(TableView)
	if len(tv.Rows) != Size || tv.Rows[3][6] != '>' || tv.Rows[0][5] != 'A' || tv.Rows[2][5] != 'a' {
		t.Fatalf("table: %+v", tv)
	}
	// Docked at the volcano.
	s = position(t, testBoard(t, nil), options{}, "V i11 RYG...", far)
	if sv := s.View(game.Viewer{}).(StateView); sv.Docked != "volcano" {
		t.Fatalf("docked %q", sv.Docked)
	}
}

func TestOptions(t *testing.T) {
	own := BoardByName("hard").Line()
	st, err := Rules.NewGame(game.Setup{Players: 2, Options: map[string]string{"board": own}, Seed: 1})
	if err != nil || st.(*State).board.Name() != "hard" {
		t.Fatalf("the hard board in the notation: %v", err)
	}
	custom := edit(t, 0, 0, map[string]byte{"j17": '#'})
	st, err = Rules.NewGame(game.Setup{Players: 2, Options: map[string]string{"board": custom}, Seed: 1})
	if err != nil || st.(*State).board.Line() != custom {
		t.Fatalf("a board of one's own: %v", err)
	}
	if !strings.Contains(st.String(), "board="+custom+" ") {
		t.Fatal("a state on a board of one's own does not carry it")
	}
	bad := edit(t, 0, 0, map[string]byte{"j17": '>', "k17": '<'})
	if _, err := Rules.NewGame(game.Setup{Players: 2, Options: map[string]string{"board": bad}}); err == nil || !strings.Contains(err.Error(), "currents for ever") {
		t.Fatalf("an unfair board: %v", err)
	}
	for _, opts := range []map[string]string{{"raft": "6"}, {"deal": "x"}, {"limit": "-1"}, {"board": "nosuch"}, {"colour": "R"}} {
		if _, err := Rules.NewGame(game.Setup{Players: 2, Options: opts}); err == nil {
			t.Errorf("options %v accepted", opts)
		}
	}
	if _, err := Rules.NewGame(game.Setup{Players: 5}); err == nil {
		t.Error("five players accepted")
	}
	st, _ = Rules.NewGame(game.Setup{Players: 3, Options: map[string]string{"raft": "5", "deal": "players", "timer": "off", "open": "on", "limit": "7"}})
	s := st.(*State)
	if s.maxAboard != 5 || !s.deal || s.timer || !s.open || s.limit != 7 {
		t.Fatalf("options not read: %s", s)
	}
	if _, err := game.NewRegistry(Rules); err != nil {
		t.Fatal(err)
	}
}

func TestPicture(t *testing.T) {
	s := position(t, testBoard(t, map[string]byte{"h16": '#'}), options{}, "H f16 RY....", far)
	pic := s.Picture()
	lines := strings.Split(pic, "\n")
	if len(lines[0]) != 2*Size || lines[15][10:16] != ".r.y#1" || lines[16][10:16] != ".1.1.1" {
		t.Fatalf("picture:\n%s", pic)
	}
	if !strings.Contains(pic, "raft R (1): H f16, 2 pearls aboard, score 0") || !strings.Contains(pic, "volcano \n") {
		t.Fatalf("picture:\n%s", pic)
	}
}

func TestForcedInTheView(t *testing.T) {
	b := testBoard(t, map[string]byte{"h16": '>', "f17": 'v'})
	s := position(t, b, options{}, "H f16 RY....", "V i16 RY....")
	if v := s.View(game.Viewer{}).(StateView); strings.Join(v.Forced, "") != "S" {
		t.Fatalf("east blocked: forced %v", v.Forced)
	}
	s = position(t, b, options{}, "H f16 RY....", "V i16 RY....", "H f18 RY....")
	if v := s.View(game.Viewer{}).(StateView); len(v.Forced) != 0 {
		t.Fatalf("both blocked, the step is free: forced %v", v.Forced)
	}
}
