package bluelagoon_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// notationBase is a well-formed state the syntax tests break one way at a
// time: the standard board, two players, some pieces, all tokens on the board.
func notationBase(t testing.TB) string {
	return pos{board: "standard", players: 2, phase: 'E', tokens: stdTokens,
		pieces: []string{"S 0,4 T", "S 12,9 T"}}.state(t)
}

// at returns the offset of the n-th (from 1) occurrence of sub in s.
func at(t testing.TB, s, sub string, n int) int {
	t.Helper()
	off := -1
	for range n {
		i := strings.Index(s[off+1:], sub)
		if i < 0 {
			t.Fatalf("%q does not occur %d times", sub, n)
		}
		off += 1 + i
	}
	return off
}

func TestSyntaxErrors(t *testing.T) {
	base := notationBase(t)
	if _, err := bluelagoon.ParseState(base); err != nil {
		t.Fatalf("base state: %v", err)
	}
	type tc struct {
		name   string
		input  string
		offset int // where the error must point
		span   int // or up to span bytes further, within the faulty number
		msg    string
	}
	var cases []tc
	// add breaks the base state by replacing the first old with new, and
	// expects an error at offset rel into new.
	add := func(name, old, new string, rel, span int, msg string) {
		i := strings.Index(base, old)
		if i < 0 {
			t.Fatalf("%s: base state has no %q", name, old)
		}
		cases = append(cases, tc{name, base[:i] + new + base[i+len(old):], i + rel, span, msg})
	}
	addInput := func(name, input string, offset int, msg string) {
		cases = append(cases, tc{name, input, offset, 0, msg})
	}
	sea := seaSpaces(t, "standard", 46)
	p0 := "p 0 0 0 0 0 0 0 S 0,4 T;"
	p1 := "p 1 0 0 0 0 0 0 S 12,9 T;"

	// Spacing and punctuation.
	addInput("empty", "", 0, "expected the arrangement statement")
	add("missing ';' after a", "a 13 2; ", "a 13 2 ", 6, 0, "expected ';' to end the arrangement statement")
	add("missing ';' after c", "c 0 E; ", "c 0 E ", 5, 0, "';' to end the current-player statement")
	addInput("missing final ';'", strings.TrimSuffix(base, ";"), len(base)-1, "';' to end the player statement")
	add("doubled space", "; c 0 E;", ";  c 0 E;", 2, 0, "doubled space")
	add("doubled space in a list", "S 0,4 T", "S  0,4 T", 2, 0, "found ' '")
	add("doubled space in a statement", "a 13 2;", "a  13 2;", 2, 0, "expected board height")
	addInput("trailing space", base+" ", len(base), "trailing space")
	addInput("leading space", " "+base, 0, "expected the arrangement statement")
	add("tab for a space", "a 13 2;", "a\t13 2;", 1, 0, "found '\\t'")
	add("no player statements", " "+p0+" "+p1, "", 0, 0, "0 player statements for 2 players")
	cases = append(cases, tc{"too many players", base + " p 2 0 0 0 0 0 0 S T;", len(base) + 3, 1, "player 2 is not a seat"})
	add("a player twice", p1, strings.Replace(p1, "p 1", "p 0", 1), 0, 0, "player 0 has two statements")

	// Coordinates and counts.
	add("column off the board", "S 0,4 T", "S 0,12 T", 2, 0, "space 0,12 is off a board of height 13")
	add("row off the board", "S 12,9 T", "S 13,0 T", 2, 0, "space 13,0 is off a board of height 13")
	add("bad coordinate", "S 0,4 T", "S 0;4 T", 3, 0, "expected ',' between row and column")
	add("missing column", "S 0,4 T", "S 0, T", 4, 0, "expected column")
	add("height out of range", "a 13 2;", "a 99 2;", 2, 2, "board height 99 is out of range")
	add("height too small", "a 13 2;", "a 2 2;", 2, 1, "board height 2 is out of range")
	add("five players", "a 13 2;", "a 13 5;", 5, 1, "player count 5 is out of range")
	add("one player", "a 13 2;", "a 13 1;", 5, 1, "player count 1 is out of range")
	add("current player not a seat", "c 0 E;", "c 2 E;", 2, 1, "current player 2 is not a seat")
	add("unknown phase", "c 0 E;", "c 0 X;", 4, 0, "expected phase E or S")
	add("more coconuts than exist", p0, "p 0 0 7 0 0 0 0 S 0,4 T;", 6, 0, "holds 7 tokens of coconut; there are only 6")
	add("more statuettes than exist", p1, "p 1 0 0 0 0 0 9 S 12,9 T;", 14, 0, "there are only 8")
	add("score before any phase is scored", p0, "p 0 12 0 0 0 0 0 S 0,4 T;", 0, 0, "score 12 in the exploration phase")
	add("more settlers than the allowance", p0, "p 0 0 0 0 0 0 0 S "+strings.Join(sea[:31], " ")+" T;", 0, 0, "the allowance is 30")
	add("more villages than exist", p0, "p 0 0 0 0 0 0 0 S 0,4 T 0,3 1,0 1,1 1,2 1,3 2,0;", 0, 0, "there are only 5")
	add("number too large", "a 13 2;", "a 123456789 2;", 2, 0, "too large")

	// Pieces and tokens where they cannot be.
	add("duplicated piece", "S 0,4 T", "S 0,4 0,4 T", 6, 0, "space 0,4 holds more than one piece")
	add("two players on a space", "S 12,9 T", "S 12,9 0,4 T", 7, 0, "space 0,4 holds more than one piece")
	add("village on the sea", "S 0,4 T", "S 0,4 T 0,8", 8, 0, "village at 0,8 is on the sea")
	add("piece on a token", "S 0,4 T", "S 0,4 0,5 T", 6, 0, "still holds a token")
	add("token off the stone circles", "r C 0,0", "r C 0,1 0,0", 4, 0, "coconut at 0,1 is not on a stone circle")
	add("two tokens on a circle", "B 2,1", "B 0,0 2,1", 2, 0, "stone circle 0,0 holds two tokens")
	set := pos{board: "standard", players: 2, phase: 'S', tokens: "none", pieces: []string{"S T 0,0", "S T"}}.state(t)
	addInput("village on a stone circle in the settlement phase", set, strings.Index(set, "T 0,0")+2, "stands on a stone circle in the settlement phase")

	// Unknown statements and statements out of order.
	add("unknown statement", "c 0 E;", "x 0 E;", 0, 0, "expected the current-player statement")
	add("unknown statement after the islands", " s 0,0", " q 1; s 0,0", 1, 0, "expected the stone-circle statement")
	addInput("unknown statement at the end", base+" z;", len(base)+1, "expected a player statement")
	add("tokens out of order", " r C", " r W", 3, 0, "expected ' C' (coconut)")
	add("islands after the stone circles", " s 0,0", " s 0,0 i 6 0,0;", 6, 0, "';' to end the stone-circle statement")

	// Leading zeros are never repaired.
	add("leading zero in a row", "S 0,4 T", "S 00,4 T", 2, 0, `row "00" has a leading zero`)
	add("leading zero in a column", "S 12,9 T", "S 12,09 T", 5, 0, `column "09" has a leading zero`)
	add("leading zero in the height", "a 13 2;", "a 013 2;", 2, 0, "leading zero")
	add("leading zero in a count", p0, "p 0 0 00 0 0 0 0 S 0,4 T;", 6, 0, "leading zero")

	// The board itself.
	overlap := strings.Replace(base, "i 6 0,0 0,1", "i 6 0,0 0,5 0,1", 1)
	addInput("islands overlap", overlap, strings.Index(overlap, "i 6 0,5")+4, "space 0,5 is already on an island")
	add("island lists a space twice", "i 6 0,0 0,1", "i 6 0,0 0,0 0,1", 8, 0, "0,0")
	add("stone circle on the sea", " s 0,0", " s 0,4", 3, 0, "stone circle 0,4 is not on land")
	add("stone circle listed twice", " s 0,0 0,5", " s 0,0 0,0 0,5", 7, 0, "stone circle 0,0")
	add("island with no spaces", "i 6 0,0 0,1", "i 6; i 6 0,0 0,1", 3, 0, "island has no spaces")
	fewer := strings.Replace(strings.Replace(base, " s 0,0 0,5", " s 0,5", 1), "r C 0,0", "r C", 1)
	addInput("31 stone circles", fewer, strings.Index(fewer, "; r C"), "31 stone circles")
	more := strings.Replace(base, " s 0,0", " s 0,0 0,1", 1)
	addInput("33 stone circles", more, strings.Index(more, "; r C"), "33 stone circles")

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := bluelagoon.ParseState(c.input)
			var se *bluelagoon.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParseState = %v, want a *SyntaxError", err)
			}
			if se.Offset < c.offset || se.Offset > c.offset+c.span || !strings.Contains(se.Msg, c.msg) {
				near := c.input[max(0, se.Offset-10):min(len(c.input), se.Offset+10)]
				t.Errorf("error at offset %d (near %q): %q\nwant offset %d and a message with %q", se.Offset, near, se.Msg, c.offset, c.msg)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("offset %d", se.Offset)) {
				t.Errorf("error %q does not say where", err)
			}
		})
	}
}

// TestTokenSupply checks that the tokens on the board and held add up to the
// game's 32, 6 of each resource and 8 statuettes, or to none at all.
func TestTokenSupply(t *testing.T) {
	for _, tc := range []struct {
		name, tokens string
		held         [5]int
	}{
		{"a coconut for a statuette", strings.Replace(strings.Replace(stdTokens, "r C", "r C 12,8", 1), " 12,8 12,11;", " 12,11;", 1), [5]int{}},
		{"a coconut missing", strings.Replace(stdTokens, "r C 0,0", "r C", 1), [5]int{}},
		{"held and on the board", stdTokens, [5]int{1, 0, 0, 0, 0}},
		{"only some held", "r C B W P S;", [5]int{1, 0, 0, 0, 0}},
	} {
		s := pos{board: "standard", players: 2, phase: 'E', tokens: tc.tokens,
			pieces: []string{"S 0,4 T", "S 12,9 T"}, held: [][5]int{tc.held, {}}}.state(t)
		if _, err := bluelagoon.ParseState(s); err == nil || !strings.Contains(err.Error(), "the game has") {
			t.Errorf("%s: ParseState = %v, want an error about the number of tokens", tc.name, err)
		}
	}
}

func TestParseMove(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want move
	}{
		{"S 9,3", move{Piece: bluelagoon.Settler, At: coord{Row: 9, Col: 3}}},
		{"T 0,0", move{Piece: bluelagoon.Village, At: coord{Row: 0, Col: 0}}},
		{"S 22,21", move{Piece: bluelagoon.Settler, At: coord{Row: 22, Col: 21}}},
	} {
		m, err := bluelagoon.ParseMove(tc.in)
		if err != nil || m != tc.want || m.String() != tc.in {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", tc.in, m, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "a move starts with S"},
		{"V 1,1", 0, "a move starts with S"},
		{"s 1,1", 0, "a move starts with S"},
		{"S1,1", 0, "a move starts with S"},
		{"S  1,1", 2, "expected row"},
		{"S 1,1 ", 5, "unexpected text"},
		{"S 1,1;", 5, "unexpected text"},
		{"S 01,1", 2, "leading zero"},
		{"S 1,01", 4, "leading zero"},
		{"S 1", 3, "expected ','"},
		{"S 1,", 4, "expected column"},
		{"S -1,1", 2, "expected row"},
	} {
		_, err := bluelagoon.ParseMove(tc.in)
		var se *bluelagoon.SyntaxError
		if !errors.As(err, &se) || se.Offset != tc.offset || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("ParseMove(%q) = %v, want a syntax error at offset %d saying %q", tc.in, err, tc.offset, tc.msg)
		}
	}
}

// TestNonCanonicalInput checks that the order of islands, spaces and player
// statements is free on input, and that output is canonical.
func TestNonCanonicalInput(t *testing.T) {
	base := notationBase(t)
	g, err := bluelagoon.ParseState(base)
	if err != nil {
		t.Fatal(err)
	}
	// Reverse the islands, the spaces of each list and the players.
	stmts := strings.Split(strings.TrimSuffix(base, ";"), "; ")
	var islands, players, rest []string
	for _, st := range stmts {
		f := strings.Fields(st)
		switch f[0] {
		case "i":
			cells := f[2:]
			slices.Reverse(cells)
			islands = append([]string{"i " + f[1] + " " + strings.Join(cells, " ")}, islands...)
		case "p":
			players = append([]string{st}, players...)
		default:
			rest = append(rest, st)
		}
	}
	shuffled := strings.Join(slices.Concat(rest[:2], islands, rest[2:], players), "; ") + ";"
	h, err := bluelagoon.ParseState(shuffled)
	if err != nil {
		t.Fatalf("ParseState(%s): %v", shuffled, err)
	}
	if h.String() != g.String() || h.Board().Name() != "standard" {
		t.Errorf("non-canonical input reads as\n%s (board %q)\nwant\n%s", h, h.Board().Name(), g)
	}
}

// realStates returns states reached in random games on every board, for
// seeding the fuzz corpora.
func realStates(tb testing.TB) []string {
	var out []string
	r := rand.New(rand.NewPCG(5, 5))
	for _, name := range bluelagoon.BoardNames() {
		b, _ := bluelagoon.BoardByName(name)
		for players := 2; players <= 4; players++ {
			g := newGame(tb, b, players, uint64(players), 0)
			out = append(out, g.String())
			for n := 0; !g.Over(); n++ {
				g.ApplyLegal(g.LegalMove(r.IntN(g.NumLegalMoves())))
				if n%37 == 0 {
					out = append(out, g.String())
				}
			}
			out = append(out, g.String())
		}
	}
	return out
}

func FuzzParseState(f *testing.F) {
	for _, s := range realStates(f) {
		f.Add(s)
	}
	f.Add(notationBase(f))
	f.Add("a 7 2; c 0 E; i 4 0,0; s; r C B W P S;")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := bluelagoon.ParseState(s)
		if err != nil {
			var se *bluelagoon.SyntaxError
			if errors.As(err, &se) && (se.Offset < 0 || se.Offset > len(s)) {
				t.Fatalf("error offset %d outside the input of %d bytes: %v", se.Offset, len(s), err)
			}
			return
		}
		canon := g.String()
		h, err := bluelagoon.ParseState(canon)
		if err != nil {
			t.Fatalf("the canonical form of an accepted state is refused: %v\ninput %q\ncanonical %q", err, s, canon)
		}
		if h.String() != canon {
			t.Fatalf("canonical form is not stable:\n%s\n%s", canon, h)
		}
		if !slices.Equal(g.LegalMoves(), h.LegalMoves()) || g.Scores() != h.Scores() || g.Current() != h.Current() || g.PhaseOver() != h.PhaseOver() {
			t.Fatalf("re-reading the canonical form changes the game:\n%s", canon)
		}
		if g.NumLegalMoves() > 0 {
			m := g.LegalMove(g.NumLegalMoves() / 2)
			if err := g.Apply(m); err != nil {
				t.Fatalf("a listed move is refused: %v\n%s", err, canon)
			}
			if _, err := bluelagoon.ParseState(g.String()); err != nil {
				t.Fatalf("the state after %v is refused: %v\n%s", m, err, g)
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"S 9,3", "T 0,0", "S 22,21", "T 12,11", "S 01,1", "X 1,1", "S 1,1 ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := bluelagoon.ParseMove(s)
		if err != nil {
			var se *bluelagoon.SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("ParseMove(%q) = %v, want a syntax error inside the input", s, err)
			}
			return
		}
		// The move notation has one spelling per move: what is accepted
		// is canonical.
		if m.String() != s {
			t.Fatalf("ParseMove(%q) prints as %q", s, m)
		}
		b, err := m.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back move
		if err := back.UnmarshalText(b); err != nil || back != m {
			t.Fatalf("text round trip of %v: %v, %v", m, back, err)
		}
	})
}

func FuzzParseBoard(f *testing.F) {
	for _, name := range bluelagoon.BoardNames() {
		f.Add(boardText(f, name))
	}
	f.Add(stripedBoard(7))
	f.Add(stripedBoard(bluelagoon.MaxHeight))
	f.Fuzz(func(t *testing.T, s string) {
		b, err := bluelagoon.ParseBoard(s)
		if err != nil {
			return
		}
		canon := b.String()
		c, err := bluelagoon.ParseBoard(canon)
		if err != nil {
			t.Fatalf("the canonical form of an accepted board is refused: %v\n%s", err, canon)
		}
		if c.String() != canon || c.Name() != b.Name() {
			t.Fatalf("canonical form is not stable:\n%s\n%s", canon, c)
		}
		if len(b.StoneCircles()) != bluelagoon.NumStoneCircles {
			t.Fatalf("board with %d stone circles accepted", len(b.StoneCircles()))
		}
		for _, sc := range b.StoneCircles() {
			if b.IslandAt(sc) < 0 {
				t.Fatalf("stone circle %v on the sea accepted", sc)
			}
		}
		// Any accepted board can be played on.
		g := newGame(t, b, 4, 1, 0)
		for n := 0; n < 20 && !g.Over(); n++ {
			if err := g.Apply(g.LegalMove(n % g.NumLegalMoves())); err != nil {
				t.Fatal(err)
			}
		}
	})
}
