package bluelagoon

import (
	"fmt"
	"strings"
)

// islandLetters names islands in pictures, in the board's canonical order.
const islandLetters = "abcdefghijklmnopqrstuvwxyz"

func islandLetter(i int) byte {
	if i < len(islandLetters) {
		return islandLetters[i]
	}
	return '+'
}

// Picture draws the game as text for people and the command line (lagoon
// rules show): one line per row, cells four characters
// wide, the short even rows indented by half a cell so that the hexes sit as
// on the board; then the players and a legend.
//
//	~   sea               a   land of island a
//	(a) empty stone circle of island a
//	[C] a token: C coconut, B bamboo, W water, P precious stone, S statuette
//	s0  settler of player 0 (~s0 at sea), T0 village of player 0 (T as in
//	    the notation)
func (g *Game) Picture() string {
	b := g.Board()
	var sb strings.Builder
	phase := g.Phase().String()
	switch {
	case g.Over():
		fmt.Fprintf(&sb, "%d players, game over\n", g.Players())
	case g.PhaseOver():
		fmt.Fprintf(&sb, "%d players, %s phase over\n", g.Players(), phase)
	default:
		fmt.Fprintf(&sb, "%d players, %s phase, player %d to move\n", g.Players(), phase, g.Current())
	}
	for r := range b.Height() {
		fmt.Fprintf(&sb, "%3d ", r)
		var row strings.Builder
		if r%2 == 0 {
			row.WriteString("  ")
		}
		for c := range RowLen(b.Height(), r) {
			row.WriteString(cell(g, Coord{Row: r, Col: c}))
		}
		sb.WriteString(strings.TrimRight(row.String(), " "))
		sb.WriteByte('\n')
	}
	sb.WriteByte('\n')
	totals := g.Totals()
	for p := range g.Players() {
		h := g.Held(p)
		fmt.Fprintf(&sb, "player %d: score %d; holds C%d B%d W%d P%d S%d; %d settlers and %d villages left\n",
			p, totals[p], h[Coconut], h[Bamboo], h[Water], h[PreciousStone], h[Statuette],
			g.SettlersLeft(p), g.VillagesLeft(p))
	}
	sb.WriteString("islands:")
	for i, isl := range b.Islands() {
		fmt.Fprintf(&sb, " %c=%d", islandLetter(i), isl.Bonus)
	}
	sb.WriteString(" (letter = island, bonus)\n")
	sb.WriteString("legend: ~ sea; a land of island a; (a) empty stone circle; [C]oconut [B]amboo [W]ater [P]recious stone [S]tatuette; s0 settler (~s0 at sea) and T0 village of player 0\n")
	return strings.TrimRight(sb.String(), "\n") + "\n"
}

// cell draws one space, four characters wide.
func cell(g *Game, c Coord) string {
	b := g.Board()
	if p, piece, ok := g.PieceAt(c); ok {
		switch {
		case piece == Village:
			return fmt.Sprintf(" T%d ", p)
		case b.IslandAt(c) < 0:
			return fmt.Sprintf("~s%d ", p)
		}
		return fmt.Sprintf(" s%d ", p)
	}
	if t, ok := g.TokenAt(c); ok {
		return fmt.Sprintf("[%c] ", t.Letter())
	}
	i := b.IslandAt(c)
	switch {
	case i < 0:
		return " ~  "
	case b.IsStoneCircle(c):
		return fmt.Sprintf("(%c) ", islandLetter(i))
	}
	return fmt.Sprintf(" %c  ", islandLetter(i))
}
