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

// The tests in this file take the rules page section by section, each rule
// and each decided case in a position written for it. Every position is also
// read by the reference model, and every move played is checked against it.

// stdTokens lays all 32 tokens on the standard board's stone circles.
const stdTokens = "r C 0,0 0,5 0,9 1,4 1,8 1,12 B 2,1 3,5 3,7 3,10 3,12 4,0 W 4,2 5,9 5,11 6,3 6,6 7,0 P 7,8 7,12 8,2 8,5 9,0 9,9 S 10,3 10,6 10,10 11,0 11,5 12,2 12,8 12,11;"

func mustMove(t testing.TB, s string) move {
	t.Helper()
	m, err := bluelagoon.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func moveStrings(ms []move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

func sortMoves(ms []move) {
	slices.SortFunc(ms, func(a, b move) int {
		if c := compareCoords(a.At, b.At); c != 0 {
			return c
		}
		return int(a.Piece) - int(b.Piece)
	})
}

// checkRejects checks that m is refused with a reason containing want and
// that trying it changes nothing.
func checkRejects(t *testing.T, g *bluelagoon.Game, m move, want string) {
	t.Helper()
	before := g.String()
	err := g.Apply(m)
	var ill *bluelagoon.IllegalMoveError
	if !errors.As(err, &ill) {
		t.Fatalf("Apply(%v) = %v, want an *IllegalMoveError", m, err)
	}
	if !strings.Contains(ill.Reason, want) {
		t.Errorf("Apply(%v): reason %q, want it to say %q", m, ill.Reason, want)
	}
	if ill.Move != m || ill.Player != g.Current() {
		t.Errorf("Apply(%v): error names move %v by player %d, want %v by %d", m, ill.Move, ill.Player, m, g.Current())
	}
	if !strings.Contains(err.Error(), ill.Reason) {
		t.Errorf("error %q does not say its reason", err)
	}
	if c := g.Check(m); c == nil || c.Error() != err.Error() {
		t.Errorf("Check(%v) = %v, Apply said %v", m, c, err)
	}
	if g.String() != before {
		t.Errorf("a refused move changed the game")
	}
}

func TestGeometry(t *testing.T) {
	b := bluelagoon.StandardBoard()
	land, stones := 0, 0
	for r := range b.Height() {
		for c := range bluelagoon.RowLen(b.Height(), r) {
			at := coord{Row: r, Col: c}
			if b.IslandAt(at) >= 0 {
				land++
			}
			if b.IsStoneCircle(at) {
				stones++
				if b.IslandAt(at) < 0 {
					t.Errorf("stone circle %v is not land", at)
				}
			}
		}
	}
	if b.Height() != 13 || b.NumSpaces() != 162 || land != 116 || stones != 32 {
		t.Errorf("standard board: height %d, %d spaces, %d land, %d stone circles; want 13, 162, 116, 32",
			b.Height(), b.NumSpaces(), land, stones)
	}
	var bonuses []int
	for _, isl := range b.Islands() {
		bonuses = append(bonuses, isl.Bonus)
	}
	if want := []int{6, 6, 6, 8, 8, 8, 10, 10}; !slices.Equal(bonuses, want) {
		t.Errorf("standard board bonuses %v, want %v", bonuses, want)
	}
	if bluelagoon.RowLen(13, 0) != 12 || bluelagoon.RowLen(13, 1) != 13 {
		t.Errorf("row lengths: even rows have H-1 spaces, odd rows H")
	}

	for _, tc := range []struct {
		at   coord
		want string
	}{
		{coord{Row: 9, Col: 3}, "8,2 8,3 9,2 9,4 10,2 10,3"}, // the rules page's example
		{coord{Row: 0, Col: 0}, "0,1 1,0 1,1"},
		{coord{Row: 0, Col: 11}, "0,10 1,11 1,12"},
		{coord{Row: 1, Col: 0}, "0,0 1,1 2,0"},
		{coord{Row: 1, Col: 12}, "0,11 1,11 2,11"},
		{coord{Row: 12, Col: 5}, "11,5 11,6 12,4 12,6"},
		{coord{Row: 13, Col: 0}, ""},
	} {
		var got []string
		nb := b.Neighbours(tc.at)
		slices.SortFunc(nb, compareCoords)
		for _, n := range nb {
			got = append(got, n.String())
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Neighbours(%v) = %v, want %s", tc.at, got, tc.want)
		}
	}

	// Every board, every space: the engine's neighbours are the rules'.
	for _, name := range bluelagoon.BoardNames() {
		b, _ := bluelagoon.BoardByName(name)
		ref := newRefGame(boardText(t, name))
		for r := range b.Height() {
			for c := range bluelagoon.RowLen(b.Height(), r) {
				at := coord{Row: r, Col: c}
				got, want := b.Neighbours(at), ref.computeNeighbours(at)
				slices.SortFunc(got, compareCoords)
				slices.SortFunc(want, compareCoords)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: Neighbours(%v) = %v, want %v", name, at, got, want)
				}
			}
		}
	}
}

// TestBoardHeights plays games on made-up boards from the smallest height
// that holds 32 stone circles comfortably to past the largest built-in one.
func TestBoardHeights(t *testing.T) {
	for _, h := range []int{7, 8, 9, 13, 22, 23, bluelagoon.MaxHeight} {
		t.Run(fmt.Sprint(h), func(t *testing.T) {
			text := stripedBoard(h)
			b, err := bluelagoon.ParseBoard(text)
			if err != nil {
				t.Fatalf("ParseBoard: %v\n%s", err, text)
			}
			if b.String() != text {
				t.Fatalf("board prints as\n%s\nwant\n%s", b, text)
			}
			for players := 2; players <= 4; players++ {
				playDifferential(t, b, text, players, uint64(h*10+players), policies[0], map[string]int{})
			}
		})
	}
}

// TestManyIslands plays on a board with as many islands as the engine takes,
// one space each, and checks that one more is refused.
func TestManyIslands(t *testing.T) {
	islandsBoard := func(n int) string {
		var sb strings.Builder
		sb.WriteString("a 24 2; c 0 E;")
		var stones []string
		for k := range n {
			c := coord{Row: k / 8 * 3, Col: k%8*2 + 1}
			fmt.Fprintf(&sb, " i %d %v;", k%7+1, c)
			if len(stones) < 32 {
				stones = append(stones, c.String())
			}
		}
		fmt.Fprintf(&sb, " s %s; r C B W P S; p 0 0 0 0 0 0 0 S T; p 1 0 0 0 0 0 0 S T;", strings.Join(stones, " "))
		return sb.String()
	}
	text := islandsBoard(bluelagoon.MaxIslands)
	b, err := bluelagoon.ParseBoard(text)
	if err != nil {
		t.Fatal(err)
	}
	for players := 2; players <= 4; players++ {
		for i, pol := range policies {
			playDifferential(t, b, b.String(), players, uint64(i), pol, map[string]int{})
		}
	}
	if _, err := bluelagoon.ParseBoard(islandsBoard(bluelagoon.MaxIslands + 1)); err == nil {
		t.Errorf("a board with %d islands was accepted", bluelagoon.MaxIslands+1)
	}
}

// stripedBoard returns a board of height h in canonical notation: each row
// but every third is an island, with bonuses 4, 6, 8, ..., and the 32 stone
// circles are dealt round the islands from their first spaces.
func stripedBoard(h int) string {
	type isl struct {
		bonus int
		cells []coord
	}
	var islands []isl
	var stones []coord
	for r := range h {
		if r%3 == 2 {
			continue
		}
		is := isl{bonus: 4 + 2*len(islands)}
		for c := range bluelagoon.RowLen(h, r) {
			is.cells = append(is.cells, coord{Row: r, Col: c})
		}
		islands = append(islands, is)
	}
	for len(stones) < 32 {
		for _, is := range islands {
			for _, c := range is.cells {
				if len(stones) < 32 && !slices.Contains(stones, c) {
					stones = append(stones, c)
					break
				}
			}
		}
	}
	slices.SortFunc(stones, compareCoords)
	var sb strings.Builder
	fmt.Fprintf(&sb, "a %d 2; c 0 E;", h)
	for _, is := range islands {
		fmt.Fprintf(&sb, " i %d", is.bonus)
		for _, c := range is.cells {
			fmt.Fprintf(&sb, " %v", c)
		}
		sb.WriteString(";")
	}
	sb.WriteString(" s")
	for _, c := range stones {
		fmt.Fprintf(&sb, " %v", c)
	}
	sb.WriteString("; r C B W P S; p 0 0 0 0 0 0 0 S T; p 1 0 0 0 0 0 0 S T;")
	return sb.String()
}

func TestExplorationPlacement(t *testing.T) {
	p := pos{board: "standard", players: 2, phase: 'E', tokens: "none",
		pieces: []string{"S 6,7 T 8,4", "S 3,4 T"}}
	g := p.game(t)

	// Settlers on any free sea space; settlers and villages on the free land
	// next to one of the player's pieces, on land or on sea.
	var want []move
	for _, s := range seaSpaces(t, "standard", 46) {
		if s != "6,7" {
			want = append(want, mustMove(t, "S "+s))
		}
	}
	for _, s := range []string{"6,6", "6,8", "5,8", "7,8", "8,5", "7,4", "7,5"} {
		want = append(want, mustMove(t, "S "+s), mustMove(t, "T "+s))
	}
	sortMoves(want)
	if got := g.LegalMoves(); !slices.Equal(got, want) {
		t.Errorf("legal moves\n got %v\nwant %v", moveStrings(got), moveStrings(want))
	}
	if g.NumLegalMoves() != len(want) {
		t.Errorf("NumLegalMoves = %d, want %d", g.NumLegalMoves(), len(want))
	}
	for k, m := range want {
		if got := g.LegalMove(k); got != m {
			t.Errorf("LegalMove(%d) = %v, want %v", k, got, m)
		}
	}

	checkRejects(t, g, mustMove(t, "S 0,0"), "not next to one of the player's pieces")
	checkRejects(t, g, mustMove(t, "T 0,0"), "not next to one of the player's pieces")
	checkRejects(t, g, mustMove(t, "S 3,3"), "not next to one of the player's pieces") // next to the opponent only
	checkRejects(t, g, mustMove(t, "T 5,7"), "village cannot be placed on the sea")    // next to 6,7
	checkRejects(t, g, mustMove(t, "T 0,4"), "village cannot be placed on the sea")
	checkRejects(t, g, mustMove(t, "S 6,7"), "already taken")
	checkRejects(t, g, mustMove(t, "S 3,4"), "already taken")
	checkRejects(t, g, mustMove(t, "T 8,4"), "already taken")

	// A settler on the sea is enough to reach the land beside it.
	play(t, g, "S 0,4", "S 2,2", "T 0,3")
	if pl, piece, ok := g.PieceAt(coord{Row: 0, Col: 3}); !ok || pl != 0 || piece != bluelagoon.Village {
		t.Errorf("PieceAt(0,3) = %d %v %v, want player 0's village", pl, piece, ok)
	}
}

func TestSettlementPlacement(t *testing.T) {
	p := pos{board: "standard", players: 2, phase: 'S', tokens: "none",
		pieces: []string{"S 9,4 T 8,4", "S T 3,3"}}
	g := p.game(t)
	want := "S 7,4 S 7,5 S 8,3 S 8,5 S 9,3 S 9,5 S 10,3 S 10,4"
	if got := strings.Join(moveStrings(g.LegalMoves()), " "); got != want {
		t.Errorf("legal moves %s, want %s", got, want)
	}
	for pl := range 2 {
		if g.VillagesLeft(pl) != 0 {
			t.Errorf("player %d has %d villages left in the settlement phase", pl, g.VillagesLeft(pl))
		}
	}
	checkRejects(t, g, mustMove(t, "T 7,4"), "villages are not placed in the settlement phase")
	checkRejects(t, g, mustMove(t, "S 0,4"), "not next to one of the player's pieces") // sea needs a neighbour too
	checkRejects(t, g, mustMove(t, "S 3,4"), "not next to one of the player's pieces")
	play(t, g, "S 9,3", "S 3,4")
}

// exhausted returns a player's pieces when all allowance settlers are on the
// given spaces and all 5 villages on the given land.
func exhausted(settlers []string, villages string) string {
	s := "S " + strings.Join(settlers, " ") + " T"
	if villages != "" {
		s += " " + villages
	}
	return s
}

func TestAllowances(t *testing.T) {
	for _, tc := range []struct{ players, settlers int }{{2, 30}, {3, 25}, {4, 20}} {
		t.Run(fmt.Sprintf("%dp", tc.players), func(t *testing.T) {
			if a := bluelagoon.SettlerAllowance(tc.players); a != tc.settlers {
				t.Errorf("SettlerAllowance(%d) = %d, want %d", tc.players, a, tc.settlers)
			}
			pieces := make([]string, tc.players)
			for i := range pieces {
				pieces[i] = "S T"
			}
			sea := seaSpaces(t, "standard", 46)
			pieces[0] = "S " + strings.Join(sea[:tc.settlers], " ") + " T"
			p := pos{board: "standard", players: tc.players, phase: 'E', tokens: "none", pieces: pieces}
			g := p.game(t)
			if g.SettlersLeft(0) != 0 || g.VillagesLeft(0) != 5 {
				t.Errorf("player 0 has %d settlers and %d villages left, want 0 and 5", g.SettlersLeft(0), g.VillagesLeft(0))
			}
			if g.SettlersLeft(1) != tc.settlers {
				t.Errorf("player 1 has %d settlers left, want %d", g.SettlersLeft(1), tc.settlers)
			}
			moves := g.LegalMoves()
			if len(moves) == 0 {
				t.Fatal("no legal move")
			}
			for _, m := range moves {
				if m.Piece != bluelagoon.Village {
					t.Errorf("legal move %v with no settler left", m)
				}
			}
			checkRejects(t, g, mustMove(t, "S "+sea[45]), "no settlers left")

			p.pieces[0] = "S " + strings.Join(sea[:tc.settlers+1], " ") + " T"
			if _, err := bluelagoon.ParseState(p.state(t)); err == nil || !strings.Contains(err.Error(), "allowance") {
				t.Errorf("%d settlers on the board: error %v, want one about the allowance", tc.settlers+1, err)
			}
		})
	}

	t.Run("villages", func(t *testing.T) {
		p := pos{board: "standard", players: 2, phase: 'E', tokens: "none",
			pieces: []string{"S 6,7 T 5,8 6,6 6,8 7,8 8,5", "S T"}}
		g := p.game(t)
		if g.VillagesLeft(0) != 0 {
			t.Errorf("VillagesLeft = %d, want 0", g.VillagesLeft(0))
		}
		checkRejects(t, g, mustMove(t, "T 7,9"), "no villages left")
		play(t, g, "S 7,9")
		p.pieces[0] = "S 6,7 T 5,8 6,6 6,8 7,8 8,5 7,9"
		if _, err := bluelagoon.ParseState(p.state(t)); err == nil || !strings.Contains(err.Error(), "villages") {
			t.Errorf("6 villages on the board: error %v, want one about villages", err)
		}
	})
}

func TestTokenTakenOnPlacement(t *testing.T) {
	p := pos{board: "standard", players: 2, phase: 'E', tokens: stdTokens,
		pieces: []string{"S 0,4 T", "S 12,9 T"}}
	g := p.game(t)
	held := func(pl int, t bluelagoon.Token) int { return g.Held(pl)[t] }

	play(t, g, "S 0,5") // a settler takes the coconut
	if held(0, bluelagoon.Coconut) != 1 || g.TokensHeld(0) != 1 {
		t.Errorf("player 0 holds %v, want one coconut", g.Held(0))
	}
	if _, ok := g.TokenAt(coord{Row: 0, Col: 5}); ok {
		t.Error("the coconut is still on 0,5")
	}
	play(t, g, "S 12,8") // a statuette
	if held(1, bluelagoon.Statuette) != 1 || g.TokensHeld(1) != 1 {
		t.Errorf("player 1 holds %v, want one statuette", g.Held(1))
	}
	play(t, g, "T 1,4") // a village takes a token too
	if held(0, bluelagoon.Coconut) != 2 {
		t.Errorf("player 0 holds %v, want two coconuts", g.Held(0))
	}
	play(t, g, "S 11,9", "S 1,5") // no stone circle, no token
	if g.TokensHeld(0) != 2 || g.TokensHeld(1) != 1 {
		t.Errorf("tokens held %d and %d, want 2 and 1", g.TokensHeld(0), g.TokensHeld(1))
	}
	if !strings.Contains(g.String(), "r C 0,0 0,9 1,8 1,12 B") || !strings.Contains(g.String(), " p 0 0 2 0 0 0 0 S 0,4 0,5 1,5 T 1,4;") {
		t.Errorf("state does not show the tokens moved:\n%s", g)
	}
}

func TestTurnSkipping(t *testing.T) {
	sea := seaSpaces(t, "standard", 46)
	t.Run("3p", func(t *testing.T) {
		p := pos{board: "standard", players: 3, phase: 'E', tokens: "none",
			pieces: []string{"S T", exhausted(sea[:25], "0,0 0,1 0,2 0,3 1,0"), "S T"}}
		g := p.game(t)
		if got := g.Current(); got != 0 {
			t.Fatalf("current %d", got)
		}
		play(t, g, "S "+sea[30])
		if g.Current() != 2 {
			t.Errorf("after player 0 moved, player %d is to move; want 2 (player 1 cannot move)", g.Current())
		}
		play(t, g, "S "+sea[31])
		if g.Current() != 0 {
			t.Errorf("after player 2 moved, player %d is to move; want 0", g.Current())
		}
	})
	t.Run("same player again", func(t *testing.T) {
		p := pos{board: "standard", players: 2, phase: 'E', tokens: "none",
			pieces: []string{"S T", exhausted(sea[:30], "0,0 0,1 0,2 0,3 1,0")}}
		g := p.game(t)
		for k := range 3 {
			play(t, g, "S "+sea[40+k])
			if g.Current() != 0 || g.Phase() != bluelagoon.Exploration {
				t.Fatalf("after move %d player %d is to move in the %v phase; want player 0 again", k+1, g.Current(), g.Phase())
			}
		}
	})
}

// fullBoard returns two players' pieces on the standard board: player 1 has
// placed all 35, player 0 all but one settler, and every sea space is taken.
func fullBoard(t *testing.T) (p0, p1 string) {
	sea := seaSpaces(t, "standard", 46)
	land := "3,3 3,4 3,5 4,2 5,5 5,6 6,3 6,4 6,5 6,6 7,4 7,5 7,6"
	p0 = "S " + strings.Join(sea[30:], " ") + " " + land + " T 4,3 4,4 4,5 5,3 5,4"
	p1 = exhausted(sea[:30], "0,1 0,2 0,3 1,0 1,1")
	return p0, p1
}

func TestExplorationEndsWhenNobodyCanMove(t *testing.T) {
	p0, p1 := fullBoard(t)
	p := pos{board: "standard", players: 2, phase: 'E', tokens: "none", pieces: []string{p0, p1}}
	g := p.game(t)
	if g.SettlersLeft(0) != 1 || g.VillagesLeft(0) != 0 || g.SettlersLeft(1) != 0 || g.VillagesLeft(1) != 0 {
		t.Fatal("the position is not the one meant")
	}
	play(t, g, "S 8,4")
	if g.Phase() != bluelagoon.Settlement || g.Over() {
		t.Fatalf("phase %v, over %v: want the settlement phase under way", g.Phase(), g.Over())
	}
	// Player 1 comes after the last mover and has villages off the circles.
	if g.Current() != 1 {
		t.Errorf("settlement starts with player %d, want 1", g.Current())
	}
	sc, ok := g.PhaseScores(bluelagoon.Exploration)
	if !ok || g.Totals()[0] != sc[0].Total || g.Totals()[1] != sc[1].Total {
		t.Errorf("totals %v, exploration scores %+v (known %v)", g.Totals(), sc, ok)
	}
}

func TestExplorationEndsByCollection(t *testing.T) {
	// Player 1 makes the last move. Exploration scores, component by
	// component:
	//   player 0: 2,2-3,3 on I6 links 5; shares I6 with player 2 (5) or
	//     loses it to player 2's two pieces (0); 6 coconuts and 6 bamboo
	//     40; a statuette 4.
	//   player 1: 0,4-0,5-1,4-1,3 links I1 and I0 (10) and wins both
	//     (6+6); 6 water 20; a statuette 4: 46.
	//   player 2: 9,4 alone on the sea, 6,6 (and 8,4, joined to 9,4) each
	//     link one island (5); I6 shared (5) or won (10); 5 precious
	//     stones 20; a statuette 4.
	for _, tc := range []struct {
		name    string
		p2      string
		current int
		totals  []int
	}{
		// Player 2 is next but keeps no village (its only one stood on a
		// stone circle), so player 0 starts.
		{"next cannot move", "S 9,4 T 6,6", 0, []int{5 + 5 + 40 + 4, 46, 5 + 5 + 20 + 4}},
		{"next can move", "S 9,4 T 6,6 8,4", 2, []int{5 + 0 + 40 + 4, 46, 5 + 10 + 20 + 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := pos{board: "standard", players: 3, current: 1, phase: 'E',
				tokens: "r C B W P 0,5 S 10,3 10,6 10,10 11,0 11,5;",
				pieces: []string{"S 2,2 T 3,3", "S 0,4 T 1,3 1,4", tc.p2},
				held:   [][5]int{{6, 6, 0, 0, 1}, {0, 0, 6, 0, 1}, {0, 0, 0, 5, 1}},
			}
			g := p.game(t)
			play(t, g, "S 0,5") // the 24th resource
			if g.Phase() != bluelagoon.Settlement || g.Over() {
				t.Fatalf("phase %v, over %v: want the settlement phase under way", g.Phase(), g.Over())
			}
			if g.Current() != tc.current {
				t.Errorf("settlement starts with player %d, want %d", g.Current(), tc.current)
			}
			if got := g.Totals(); !slices.Equal(got[:3], tc.totals) {
				t.Errorf("totals %v, want %v", got[:3], tc.totals)
			}
			// Settlers back, villages on stone circles gone, the others kept
			// by their owners, villages never placed out of the game.
			for pl := range 3 {
				if g.SettlersLeft(pl) != 25 || g.VillagesLeft(pl) != 0 || g.TokensHeld(pl) != 0 {
					t.Errorf("player %d: %d settlers left, %d villages left, %d tokens held; want 25, 0, 0",
						pl, g.SettlersLeft(pl), g.VillagesLeft(pl), g.TokensHeld(pl))
				}
			}
			s := g.String()
			for _, want := range []string{
				fmt.Sprintf(" p 0 %d 0 0 0 0 0 S T 3,3;", tc.totals[0]),
				" p 1 46 0 0 0 0 0 S T 1,3;",
			} {
				if !strings.Contains(s, want) {
					t.Errorf("state lacks %q:\n%s", want, s)
				}
			}
			for _, c := range []coord{{Row: 6, Col: 6}, {Row: 1, Col: 4}, {Row: 2, Col: 2}, {Row: 0, Col: 5}} {
				if _, _, ok := g.PieceAt(c); ok {
					t.Errorf("a piece is still on %v", c)
				}
			}
			checkLayout(t, g, engineLayout(g))
			checkRejects(t, g, mustMove(t, "T 3,4"), "villages are not placed in the settlement phase")
		})
	}
}

func TestSettlementOverAtOnce(t *testing.T) {
	p := pos{board: "standard", players: 2, phase: 'E',
		tokens: "r C B W P 0,5 S 10,3 10,6 10,10 11,0 11,5 12,2 12,8 12,11;",
		pieces: []string{"S 0,4 T", "S T"},
		held:   [][5]int{{6, 6, 0, 0, 0}, {0, 0, 6, 5, 0}},
	}
	g := p.game(t)
	play(t, g, "S 0,5")
	if !g.Over() || g.Phase() != bluelagoon.Settlement || !g.PhaseOver() {
		t.Fatalf("phase %v, over %v: nobody has a village, the game should be over", g.Phase(), g.Over())
	}
	// Exploration: player 0 links and wins the 6-island of 0,5 and holds
	// 6 coconuts, 6 bamboo and a precious stone; player 1 holds 6 water and
	// 5 precious stones. The empty settlement phase scores nothing.
	if got := g.Totals(); got[0] != 5+6+40 || got[1] != 40 {
		t.Errorf("totals %v, want [51 40]", got[:2])
	}
	sc, ok := g.PhaseScores(bluelagoon.Settlement)
	if !ok || sc[0] != (bluelagoon.Score{}) || sc[1] != (bluelagoon.Score{}) {
		t.Errorf("settlement scores %+v (%v), want nothing", sc, ok)
	}
	if g.Current() != 0 {
		t.Errorf("current %d: the turn does not pass once the game is over", g.Current())
	}
	if len(g.LegalMoves()) != 0 || g.NumLegalMoves() != 0 {
		t.Errorf("legal moves after the game: %v", g.LegalMoves())
	}
	if w := g.Winners(); !slices.Equal(w, []int{0}) {
		t.Errorf("winners %v, want [0]", w)
	}
	checkRejects(t, g, mustMove(t, "S 0,4"), "the game is over")
}

func TestGameOver(t *testing.T) {
	t.Run("nobody can move", func(t *testing.T) {
		p0, p1 := fullBoard(t)
		p := pos{board: "standard", players: 2, phase: 'S', tokens: "none",
			pieces: []string{p0, p1}, scores: []int{40, 30}}
		g := p.game(t)
		play(t, g, "S 8,5")
		if !g.Over() || g.Current() != 0 {
			t.Fatalf("over %v, current %d: want the game over and the turn kept by player 0", g.Over(), g.Current())
		}
		checkRejects(t, g, mustMove(t, "S 8,4"), "the game is over")
	})
	t.Run("all resources collected", func(t *testing.T) {
		p := pos{board: "standard", players: 3, current: 2, phase: 'S', scores: []int{40, 30, 20},
			tokens: "r C B W P 0,5 S 10,3 10,6 10,10 11,0 11,5 12,2 12,8 12,11;",
			pieces: []string{"S T 3,3", "S T 1,3", "S 0,4 T 2,0"},
			held:   [][5]int{{6, 6, 0, 0, 0}, {0, 0, 6, 0, 0}, {0, 0, 0, 5, 0}},
		}
		g := p.game(t)
		play(t, g, "S 0,5")
		if !g.Over() || g.Current() != 2 {
			t.Fatalf("over %v, current %d: want the game over and the turn kept by player 2", g.Over(), g.Current())
		}
		if _, ok := g.PhaseScores(bluelagoon.Exploration); ok {
			t.Error("a game read in the settlement phase claims to know the exploration breakdown")
		}
	})
}

// TestRandomMoveWhenThePhaseIsOver: a random (or preferred) move of a phase that is over,
// whether the game ended in play or was read so, panics saying so.
func TestRandomMoveWhenThePhaseIsOver(t *testing.T) {
	g := newGame(t, bluelagoon.StandardBoard(), 2, 1, 0)
	r := rand.New(rand.NewPCG(1, 2))
	for !g.Over() {
		g.ApplyRandom(r)
	}
	// An exploration phase read as over, not moved on: every piece placed.
	p0, p1 := fullBoard(t)
	explored := pos{board: "standard", players: 2, phase: 'E', tokens: "none",
		pieces: []string{strings.Replace(p0, "S ", "S 8,4 ", 1), p1}}.game(t)
	for _, over := range []*bluelagoon.Game{g, explored} {
		if over.NumLegalMoves() != 0 || !over.PhaseOver() {
			t.Fatalf("no phase that is over to try:\n%s", over)
		}
		for name, f := range map[string]func(){
			"RandomMove":  func() { over.RandomMove(r) },
			"ApplyRandom": func() { over.ApplyRandom(r) },
			"ApplyPreferred": func() {
				var reached bluelagoon.Spaces
				over.ApplyPreferred(r, &bluelagoon.Preferences{}, &reached)
			},
		} {
			func() {
				defer func() {
					if msg, _ := recover().(string); !strings.Contains(msg, "phase that is over") {
						t.Errorf("%s in a phase that is over: panic %q, want one that says so", name, msg)
					}
				}()
				f()
			}()
		}
	}
}

func TestIslandsScore(t *testing.T) {
	// One settler on each island, none on a stone circle.
	one := []string{"0,1", "0,6", "8,11", "0,10", "5,0", "11,1", "3,3", "5,8"}
	for _, tc := range []struct{ islands, score int }{{8, 20}, {7, 10}, {6, 0}, {1, 0}} {
		p := pos{board: "standard", players: 2, phase: 'E', tokens: "none",
			pieces: []string{"S " + strings.Join(one[:tc.islands], " ") + " T", "S T"}}
		sc := p.game(t).Scores()[0]
		if sc.Islands != tc.score || sc.Links != 5 {
			t.Errorf("pieces on %d islands: islands %d links %d, want %d and 5", tc.islands, sc.Islands, sc.Links, tc.score)
		}
	}
}

func TestLinksScore(t *testing.T) {
	for _, tc := range []struct {
		pieces string
		links  int
	}{
		{"S T", 0},
		{"S 0,4 T", 0},                   // on the sea only
		{"S 0,1 T", 5},                   // a single piece on an island
		{"S T 0,1", 5},                   // a village counts as a piece
		{"S 0,1 0,2 1,1 T", 5},           // one island, however many pieces
		{"S 3,8 3,9 3,10 T", 10},         // two islands linked over the sea
		{"S 3,9 T 3,8 3,10", 10},         // through villages too
		{"S 3,8 3,9 3,10 0,0 T", 10},     // the best group, not the sum
		{"S 3,8 3,9 3,10 4,7 5,8 T", 15}, // I1, I3 and I7
		{"S 3,9 4,7 5,7 T 3,8 3,10 5,6 5,8", 20},
	} {
		p := pos{board: "standard", players: 2, phase: 'E', tokens: "none", pieces: []string{tc.pieces, "S T"}}
		if got := p.game(t).Scores()[0].Links; got != tc.links {
			t.Errorf("pieces %q: links %d, want %d", tc.pieces, got, tc.links)
		}
	}
}

func TestMajoritiesScore(t *testing.T) {
	for _, tc := range []struct {
		name   string
		board  string
		pieces []string
		want   []int
	}{
		{"alone", "standard", []string{"S 3,3 T", "S T"}, []int{10, 0}},
		{"most", "standard", []string{"S 3,3 3,4 T", "S T 4,4"}, []int{10, 0}},
		{"6 shared by 2", "standard", []string{"S 0,1 T", "S 0,2 T"}, []int{3, 3}},
		{"8 shared by 3", "standard", []string{"S 5,0 T", "S 5,1 T", "S 6,0 T"}, []int{2, 2, 2}},
		{"10 shared by 3", "standard", []string{"S 3,3 T", "S 3,4 T", "S 4,3 T"}, []int{3, 3, 3}},
		{"10 shared by 2 of 3", "standard", []string{"S 3,3 4,4 T", "S 3,4 T 5,5", "S 4,3 T"}, []int{5, 5, 0}},
		{"10 shared by 4", "standard", []string{"S 3,3 T", "S 3,4 T", "S 4,3 T", "S 4,4 T"}, []int{2, 2, 2, 2}},
		{"9 shared by 2", "wheels", []string{"S 2,2 T", "S 4,3 T"}, []int{4, 4}},
		{"sea counts nothing", "standard", []string{"S 0,4 0,8 T", "S 0,1 T"}, []int{0, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := pos{board: tc.board, players: len(tc.pieces), phase: 'E', tokens: "none", pieces: tc.pieces}
			sc := p.game(t).Scores()
			for pl, want := range tc.want {
				if sc[pl].Majorities != want {
					t.Errorf("player %d: majorities %d, want %d", pl, sc[pl].Majorities, want)
				}
			}
		})
	}
}

func TestTokenScores(t *testing.T) {
	for _, tc := range []struct {
		held                       [5]int
		resources, set, statuettes int
	}{
		{[5]int{}, 0, 0, 0},
		{[5]int{1, 0, 0, 0, 0}, 0, 0, 0},
		{[5]int{2, 0, 0, 0, 0}, 5, 0, 0},
		{[5]int{0, 3, 0, 0, 0}, 10, 0, 0},
		{[5]int{0, 0, 4, 0, 0}, 20, 0, 0},
		{[5]int{0, 0, 0, 6, 0}, 20, 0, 0},
		{[5]int{1, 1, 1, 1, 0}, 0, 10, 0},
		{[5]int{2, 2, 2, 2, 0}, 20, 10, 0}, // the set scores once
		{[5]int{2, 3, 4, 5, 0}, 55, 10, 0},
		{[5]int{1, 1, 1, 0, 8}, 0, 0, 32}, // statuettes are not a resource
		{[5]int{0, 0, 0, 0, 3}, 0, 0, 12},
	} {
		p := pos{board: "standard", players: 2, phase: 'E', pieces: []string{"S T", "S T"},
			held: [][5]int{tc.held, {}}}
		sc := p.game(t).Scores()[0]
		if sc.Resources != tc.resources || sc.Set != tc.set || sc.Statuettes != tc.statuettes {
			t.Errorf("holding %v: resources %d set %d statuettes %d, want %d %d %d",
				tc.held, sc.Resources, sc.Set, sc.Statuettes, tc.resources, tc.set, tc.statuettes)
		}
		if sc.Total != tc.resources+tc.set+tc.statuettes {
			t.Errorf("holding %v: total %d is not the sum of the components", tc.held, sc.Total)
		}
	}
}

func TestWinners(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []int
		held   [][5]int
		want   []int
	}{
		{"highest total", []int{50, 60}, [][5]int{{3, 0, 0, 0, 0}, {}}, []int{1}},
		{"tie broken by tokens", []int{60, 60}, [][5]int{{2, 1, 0, 0, 0}, {0, 0, 0, 1, 3}}, []int{1}},
		{"statuettes count as tokens", []int{60, 60}, [][5]int{{0, 0, 0, 0, 2}, {1, 0, 0, 0, 0}}, []int{0}},
		{"shared victory", []int{60, 60}, [][5]int{{2, 0, 0, 0, 0}, {0, 0, 1, 0, 1}}, []int{0, 1}},
		{"only the tied count", []int{70, 70, 40}, [][5]int{{1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {4, 4, 4, 0, 0}}, []int{0, 1}},
		{"three share", []int{70, 70, 70}, [][5]int{{}, {}, {}}, []int{0, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pieces := make([]string, len(tc.scores))
			for i := range pieces {
				pieces[i] = "S T"
			}
			p := pos{board: "standard", players: len(tc.scores), phase: 'S', pieces: pieces, scores: tc.scores, held: tc.held}
			g := p.game(t)
			if !g.Over() {
				t.Fatal("a settlement phase with no pieces is over")
			}
			if w := g.Winners(); !slices.Equal(w, tc.want) {
				t.Errorf("winners %v, want %v", w, tc.want)
			}
			for p := range len(tc.scores) {
				if g.Wins(p) != slices.Contains(tc.want, p) {
					t.Errorf("Wins(%d) = %v with winners %v", p, g.Wins(p), tc.want)
				}
			}
		})
	}
	g := newGame(t, bluelagoon.StandardBoard(), 2, 0, 0)
	if w := g.Winners(); w != nil || g.Wins(0) || g.Wins(1) {
		t.Errorf("winners %v (Wins %v, %v) before the game is over", w, g.Wins(0), g.Wins(1))
	}
}

// TestIllegalMoveReasons reaches every reason Check gives.
func TestIllegalMoveReasons(t *testing.T) {
	sea := seaSpaces(t, "standard", 46)
	explore := pos{board: "standard", players: 2, phase: 'E', tokens: "none", pieces: []string{"S 6,7 T 8,4", "S T"}}
	settle := pos{board: "standard", players: 2, phase: 'S', tokens: "none", pieces: []string{"S 9,4 T 8,4", "S T 3,3"}}
	for _, tc := range []struct {
		p    pos
		m    move
		want string
	}{
		{pos{board: "standard", players: 2, phase: 'S', pieces: []string{"S T", "S T"}}, mustMove(t, "S 0,4"), "the game is over"},
		{pos{board: "standard", players: 2, phase: 'E', pieces: []string{"S 0,4 T", "S T"}, held: [][5]int{{6, 6, 6, 6, 0}, {}}},
			mustMove(t, "S 0,8"), "the exploration phase is over"},
		{explore, move{Piece: 7, At: coord{Row: 0, Col: 4}}, "unknown piece"},
		{explore, mustMove(t, "S 13,0"), "not on the board"},
		{explore, mustMove(t, "S 0,12"), "not on the board"},
		{explore, move{Piece: bluelagoon.Settler, At: coord{Row: -1, Col: 0}}, "not on the board"},
		{explore, mustMove(t, "S 8,4"), "already taken"},
		{settle, mustMove(t, "T 7,4"), "villages are not placed in the settlement phase"},
		{explore, mustMove(t, "T 7,7"), "a village cannot be placed on the sea"},
		{pos{board: "standard", players: 2, phase: 'E', tokens: "none", pieces: []string{"S T 3,3 3,4 3,5 4,2 4,3", "S T"}},
			mustMove(t, "T 4,4"), "no villages left"},
		{pos{board: "standard", players: 2, phase: 'E', tokens: "none", pieces: []string{exhausted(sea[:30], ""), "S T"}},
			mustMove(t, "S "+sea[40]), "no settlers left"},
		{explore, mustMove(t, "S 0,0"), "land at 0,0 is not next to one of the player's pieces"},
		{settle, mustMove(t, "S 0,4"), "space 0,4 is not next to one of the player's pieces"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			checkRejects(t, tc.p.game(t), tc.m, tc.want)
		})
	}
}

// TestWorkedExample builds a position that gives exactly the rulebook's
// worked scoring example: three players after the exploration phase on the
// standard board.
//
// Islands in canonical order: I0 (6, top left), I1 (6, top middle), I2 (6,
// bottom right), I3 (8, top right), I4 (8, left), I5 (8, bottom left), I6
// (10, centre left), I7 (10, centre right).
//
//   - Player 0 stands on all 8 islands (20); its group 3,10-3,9-3,8-4,7-5,7-
//     5,8/5,6-6,6 links I3, I1, I7 and I6 (20); it wins I6 with 2 pieces (10)
//     and shares I3 with player 2, one piece each (4); it holds 2 of each
//     resource (4 x 5) and so the set (10), and 2 statuettes (8): 92.
//   - Player 1 stands on 7 islands, all but I3 (10); its group 4,0/5,0-3,0-
//     2,0-2,1-1,2-1,3-1,4-1,5-1,6/1,7 links I4, I0 and I1 (15); it wins I0
//     (5 pieces), I1 and I4 (2 pieces each): 6+6+8; it holds 3 water (10) and
//     4 precious stones (20) and 4 statuettes (16): 91.
//   - Player 2 stands on 5 islands (0); its group 8,4-9,4-10,4-10,5-10,6-...
//     -10,9-10,10-9,11-8,11-7,12-6,11-5,11 links I6, I5, I7, I2 and I3 (25);
//     it wins I2 (4 pieces, 6), I5 (3, 8) and I7 (3, 10) and shares I3 (4);
//     it holds 4 coconuts (20), 3 bamboo (10) and a statuette (4): 87.
func TestWorkedExample(t *testing.T) {
	p := pos{board: "standard", players: 3, phase: 'E',
		tokens: "r C B 3,5 W 3,7 P S 12,2;",
		pieces: []string{
			"S 3,8 3,9 4,7 5,6 5,7 5,8 6,6 9,0 12,0 12,10 T 0,0 3,10",
			"S 1,2 1,3 1,4 1,5 1,6 1,7 2,0 3,0 5,0 7,5 11,12 12,3 12,8 T 2,1 4,0",
			"S 5,11 6,11 7,12 8,4 8,11 9,4 9,11 10,4 10,5 10,7 10,8 10,9 10,10 11,4 T 10,6 11,5",
		},
		held: [][5]int{{2, 2, 2, 2, 2}, {0, 0, 3, 4, 4}, {4, 3, 0, 0, 1}},
	}
	g := p.game(t)
	got := g.Scores()
	want := []bluelagoon.Score{
		{Islands: 20, Links: 20, Majorities: 14, Resources: 20, Set: 10, Statuettes: 8, Total: 92},
		{Islands: 10, Links: 15, Majorities: 20, Resources: 30, Set: 0, Statuettes: 16, Total: 91},
		{Islands: 0, Links: 25, Majorities: 28, Resources: 30, Set: 0, Statuettes: 4, Total: 87},
	}
	for pl := range want {
		if got[pl] != want[pl] {
			t.Errorf("player %d: %+v\n                 want %+v", pl, got[pl], want[pl])
		}
	}
}

// A pos is a position written for a test, in the notation, on a built-in
// board: everything but the board's islands and stone circles is spelt out.
type pos struct {
	board   string // built-in board name
	players int
	current int
	phase   byte // 'E' or 'S'
	// pieces holds, per player, the end of the player statement: "S" and
	// the settlers, "T" and the villages, e.g. "S 6,7 T 8,4" or "S T".
	pieces []string
	held   [][5]int // per player: C, B, W, P, S held; nil: nothing
	scores []int    // per player; nil: all 0
	// tokens is the r statement. Empty: the tokens nobody holds lie on the
	// free stone circles in row-then-column order, C first, then B, W, P
	// and S; "none": no tokens at all, as in the board files.
	tokens string
}

// boardPart returns the island and stone-circle statements of a built-in
// board, as in testdata.
func boardPart(t testing.TB, name string) string {
	t.Helper()
	text := boardText(t, name)
	start := strings.Index(text, " i ") + 1
	end := strings.Index(text, "; r ") + 1
	return text[start:end]
}

// state writes the position in the notation.
func (p pos) state(t testing.TB) string {
	t.Helper()
	if len(p.pieces) != p.players {
		t.Fatalf("position has pieces for %d players, not %d", len(p.pieces), p.players)
	}
	tokens := p.tokens
	switch tokens {
	case "none":
		tokens = "r C B W P S;"
	case "":
		tokens = p.layRest(t)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "a %d %d; c %d %c; %s %s", heightOf(t, p.board), p.players, p.current, p.phase, boardPart(t, p.board), tokens)
	for pl := range p.players {
		var h [5]int
		if p.held != nil {
			h = p.held[pl]
		}
		score := 0
		if p.scores != nil {
			score = p.scores[pl]
		}
		fmt.Fprintf(&sb, " p %d %d %d %d %d %d %d %s;", pl, score, h[0], h[1], h[2], h[3], h[4], p.pieces[pl])
	}
	return sb.String()
}

func heightOf(t testing.TB, board string) int {
	t.Helper()
	b, err := bluelagoon.BoardByName(board)
	if err != nil {
		t.Fatal(err)
	}
	return b.Height()
}

// layRest writes an r statement with every token nobody holds on a free
// stone circle.
func (p pos) layRest(t testing.TB) string {
	t.Helper()
	b, err := bluelagoon.BoardByName(p.board)
	if err != nil {
		t.Fatal(err)
	}
	taken := map[coord]bool{}
	for _, spec := range p.pieces {
		for _, f := range strings.Fields(spec) {
			if strings.Contains(f, ",") {
				taken[parseRefCoord(f)] = true
			}
		}
	}
	var free []coord
	for _, c := range b.StoneCircles() {
		if !taken[c] {
			free = append(free, c)
		}
	}
	var sb strings.Builder
	sb.WriteString("r")
	for k, supply := range []int{6, 6, 6, 6, 8} {
		fmt.Fprintf(&sb, " %c", refTokens[k])
		left := supply
		for _, h := range p.held {
			left -= h[k]
		}
		if left > len(free) {
			t.Fatalf("no room for the %d tokens nobody holds", left)
		}
		for _, c := range free[:left] {
			fmt.Fprintf(&sb, " %d,%d", c.Row, c.Col)
		}
		free = free[left:]
	}
	sb.WriteString(";")
	return sb.String()
}

// game parses the position and checks that the reference model reads it the
// same way.
func (p pos) game(t testing.TB) *bluelagoon.Game {
	t.Helper()
	s := p.state(t)
	g, err := bluelagoon.ParseState(s)
	if err != nil {
		t.Fatalf("ParseState: %v\n%s", err, s)
	}
	if d := diffRef(g, newRefGame(s)); d != "" {
		t.Fatalf("engine and reference read the position differently: %s", d)
	}
	return g
}

// play applies the moves, checking each against the reference model.
func play(t testing.TB, g *bluelagoon.Game, moves ...string) {
	t.Helper()
	ref := newRefGame(g.String())
	for _, s := range moves {
		m, err := bluelagoon.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Apply(m); err != nil {
			t.Fatalf("Apply(%v): %v\n%s", m, err, g)
		}
		ref.apply(m, func() map[coord]byte { return engineLayout(g) })
		if d := diffRef(g, ref); d != "" {
			t.Fatalf("after %v: %s", m, d)
		}
	}
}

// seaSpaces returns the first n sea spaces of a built-in board, in row order.
func seaSpaces(t testing.TB, board string, n int) []string {
	t.Helper()
	b, err := bluelagoon.BoardByName(board)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for r := range b.Height() {
		for c := range bluelagoon.RowLen(b.Height(), r) {
			if at := (coord{Row: r, Col: c}); b.IslandAt(at) < 0 && len(out) < n {
				out = append(out, at.String())
			}
		}
	}
	if len(out) < n {
		t.Fatalf("board %s has fewer than %d sea spaces", board, n)
	}
	return out
}

// TestAppendLegalMovesTouchesOnlyWhatItAppends checks, through random games,
// that AppendLegalMoves keeps what dst holds and leaves the capacity past
// the moves it appends as it was.
func TestAppendLegalMovesTouchesOnlyWhatItAppends(t *testing.T) {
	sentinel := move{Piece: bluelagoon.Village, At: coord{Row: -7, Col: -7}}
	r := rand.New(rand.NewPCG(9, 9))
	g := newGame(t, bluelagoon.StandardBoard(), 2, 9, 0)
	buf := make([]move, 400)
	for !g.Over() {
		for i := range buf {
			buf[i] = sentinel
		}
		keep := r.IntN(4)
		got := g.AppendLegalMoves(buf[:keep])
		want := append(slices.Repeat([]move{sentinel}, keep), g.LegalMoves()...)
		if !slices.Equal(got, want) {
			t.Fatalf("AppendLegalMoves(%d moves) = %v, want %v", keep, got, want)
		}
		for i, m := range buf[len(got):] {
			if m != sentinel {
				t.Fatalf("element %d past the %d moves appended was changed to %v", len(got)+i, len(got)-keep, m)
			}
		}
		g.ApplyRandom(r)
	}
}
