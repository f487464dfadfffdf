package laguna

import (
	"strings"
	"testing"
)

// edit returns the frame's notation (one line) with squares set, and with
// from replaced by to everywhere first when from is not 0.
func edit(t *testing.T, from, to byte, squares map[string]byte) string {
	t.Helper()
	line := Frame().Line()
	if from != 0 {
		line = strings.ReplaceAll(line, string(from), string(to))
	}
	rows := strings.Split(line, "/")
	for name, ch := range squares {
		sq, err := ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		row := []byte(rows[sq.Row()])
		row[sq.Col()] = ch
		rows[sq.Row()] = string(row)
	}
	return strings.Join(rows, "/")
}

func TestOriginalBoardsAreFair(t *testing.T) {
	for _, name := range BoardNames() {
		b := BoardByName(name)
		if err := Check(b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		again, err := ParseBoard(b.String())
		if err != nil || again.Line() != b.Line() {
			t.Errorf("%s does not read back: %v", name, err)
		}
	}
	if err := Check(Frame()); err != nil {
		t.Errorf("the frame: %v", err)
	}
	if b, err := BoardFromText(BoardByName("hard").Line()); err != nil || b.Name() != "hard" {
		t.Errorf("the hard board in the notation is not the hard board: %v", err)
	}
}

func TestBoardsThatFail(t *testing.T) {
	wall := map[string]byte{}
	for c := 'c'; c <= 'v'; c++ {
		wall[string(c)+"4"] = 'v'
		wall[string(c)+"5"] = 'v'
	}
	volcanoNearA := map[string]byte{}
	for _, sq := range []string{"f5", "g5", "h5", "f6", "g6", "h6"} {
		volcanoNearA[sq] = '@'
	}
	for _, c := range []struct {
		name, text, want string
	}{
		{"rows", "........................", "1 rows"},
		{"row length", strings.Replace(Frame().Line(), "/", "./", 1), "row 1 has 25 characters"},
		{"character", edit(t, 0, 0, map[string]byte{"j10": 'x'}), "square j10 is 'x'"},
		{"missing island", edit(t, 'C', '.', nil), "island C is missing"},
		{"island in pieces", edit(t, 0, 0, map[string]byte{"a24": 'A'}), "island A is in pieces"},
		{"island off the edge", edit(t, 0, 0, map[string]byte{"a6": '.', "b6": '.', "a7": '.', "b7": '.', "a8": '.', "b8": '.',
			"c6": 'H', "c7": 'H', "c8": 'H', "d6": 'h', "d7": 'h', "d8": 'h'}), "island H does not touch the board's edge"},
		{"volcano on the edge", edit(t, '@', '.', map[string]byte{"l1": '@', "l2": '@'}), "the volcano touches the board's edge"},
		{"volcano missing", edit(t, '@', '.', nil), "the volcano is missing"},
		{"landing astray", edit(t, 0, 0, map[string]byte{"j17": 'a'}), "landing square j17 does not border island A"},
		{"two places", edit(t, '@', '.', volcanoNearA), "touches two places at once"},
		{"landing between two", edit(t, 0, 0, map[string]byte{"i1": 'B', "j1": 'B', "k1": 'B', "l1": 'B', "m1": 'B', "n1": 'B',
			"o1": 'B', "p1": 'B', "i2": 'a'}), "landing square i2 of island A also borders island B"},
		{"no room to start", edit(t, 0, 0, map[string]byte{"f3": 'A', "h3": 'A'}), "no raft lying across fits against the landing line of island A"},
		{"arrow off the board", edit(t, 0, 0, map[string]byte{"c1": '^'}), "the arrow at c1 points off the board"},
		{"arrow into land", edit(t, 0, 0, map[string]byte{"e1": '>'}), "the arrow at e1 points off the board or into land"},
		{"unreachable", edit(t, 0, 0, wall), "cannot reach island A"},
		{"trap", edit(t, 0, 0, map[string]byte{"j17": '#', "k17": '#', "l17": '#'}), "reachable from the islands, cannot reach"},
		{"current loop", edit(t, 0, 0, map[string]byte{"j17": '>', "k17": '<'}), "follows the currents for ever"},
	} {
		_, err := ParseBoard(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

func TestBoardNotation(t *testing.T) {
	b := BoardByName("easy")
	file := "; a comment\n\n" + b.String()
	again, err := ParseBoard(file)
	if err != nil || again.Line() != b.Line() {
		t.Fatalf("a board file with a comment does not read: %v", err)
	}
	if again.Name() != "" {
		t.Fatal("a board read has a name")
	}
	if _, err := BoardFromText("nosuch"); err == nil {
		t.Fatal("an unknown board name is accepted")
	}
	for _, text := range []string{"a1", "x24", "c7", "l12"} {
		sq, err := ParseSquare(text)
		if err != nil || sq.String() != text {
			t.Errorf("square %s: %v %v", text, sq, err)
		}
	}
	for _, text := range []string{"", "a0", "a25", "y1", "A1", "a01", "a+1", "a1 ", "aa"} {
		if _, err := ParseSquare(text); err == nil {
			t.Errorf("square %q accepted", text)
		}
	}
}

func FuzzParseBoard(f *testing.F) {
	f.Add(BoardByName("easy").String())
	f.Add(BoardByName("hard").Line())
	f.Add(Frame().Line())
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ParseBoard(text)
		if err != nil {
			return
		}
		again, err := ParseBoard(b.Line())
		if err != nil || again.Line() != b.Line() {
			t.Fatalf("a board read does not read back: %v", err)
		}
	})
}
