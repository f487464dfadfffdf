package bluelagoon

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// This file writes what the page is shown of a game: the board once (Table),
// the state after every move (View), and what the log says of a move (Note),
// as the JSON objects of docs/api.md. Nothing of Blue Lagoon is hidden from
// a seat but the settlement phase's layout, which no view holds.

// BoardView is a board as the page draws it.
type BoardView struct {
	Name         string       `json:"name"`
	Height       int          `json:"height"`
	Islands      []IslandView `json:"islands"`
	StoneCircles []string     `json:"stone_circles"`
	Notation     string       `json:"notation"`
}

// IslandView is an island of a BoardView.
type IslandView struct {
	Bonus  int      `json:"bonus"`
	Spaces []string `json:"spaces"`
}

// ViewBoard describes b for the page.
func ViewBoard(b *Board) BoardView {
	v := BoardView{Name: b.Name(), Height: b.Height(), Notation: b.String()}
	for _, isl := range b.Islands() {
		v.Islands = append(v.Islands, IslandView{Bonus: isl.Bonus, Spaces: coordStrings(isl.Spaces)})
	}
	v.StoneCircles = coordStrings(b.StoneCircles())
	return v
}

func coordStrings(cs []Coord) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

type pieceView struct {
	At    string `json:"at"`
	Seat  int    `json:"seat"`
	Piece string `json:"piece"`
}

type tokenView struct {
	At    string `json:"at"`
	Token string `json:"token"`
}

type heldView struct {
	Coconut   int `json:"coconut"`
	Bamboo    int `json:"bamboo"`
	Water     int `json:"water"`
	Stone     int `json:"stone"`
	Statuette int `json:"statuette"`
}

type playerView struct {
	SettlersLeft int      `json:"settlers_left"`
	VillagesLeft int      `json:"villages_left"`
	Held         heldView `json:"held"`
	TokensHeld   int      `json:"tokens_held"`
	Total        int      `json:"total"`
}

type scoresView struct {
	Live        []Score `json:"live"`
	Exploration []Score `json:"exploration"`
	Settlement  []Score `json:"settlement"`
	Totals      []int   `json:"totals"`
}

type resultView struct {
	Winners     []int  `json:"winners"`
	Totals      []int  `json:"totals"`
	TokensHeld  []int  `json:"tokens_held"`
	TieBreak    string `json:"tie_break"`
	Explanation string `json:"explanation"`
}

// stateView is a state as the page draws it.
type stateView struct {
	Phase   string       `json:"phase"`
	Current int          `json:"current"`
	Over    bool         `json:"over"`
	Pieces  []pieceView  `json:"pieces"`
	Tokens  []tokenView  `json:"tokens"`
	Legal   []string     `json:"legal"`
	Players []playerView `json:"players"`
	Scores  scoresView   `json:"scores"`
	Result  *resultView  `json:"result"`
}

// phaseEndView is a phase's end: its scores and, after the exploration
// phase, what was removed and kept and the new layout.
type phaseEndView struct {
	Phase           string      `json:"phase"`
	Scores          []Score     `json:"scores"`
	Totals          []int       `json:"totals"`
	SettlersRemoved [][]string  `json:"settlers_removed,omitempty"`
	VillagesRemoved [][]string  `json:"villages_removed,omitempty"`
	VillagesKept    [][]string  `json:"villages_kept,omitempty"`
	Tokens          []tokenView `json:"tokens,omitempty"`
}

// noteView is what the log says of a move: the phase it was made in, the
// token it took and the phases it ended.
type noteView struct {
	Phase     string         `json:"phase"`
	Took      *string        `json:"took"`
	PhaseEnds []phaseEndView `json:"phase_ends,omitempty"`
}

// TokenNames are the API's names of the token kinds, in the engine's order.
var TokenNames = [NumTokenKinds]string{"coconut", "bamboo", "water", "stone", "statuette"}

// Table returns the board, which the page draws once.
func (s *State) Table() any { return ViewBoard(s.board) }

// View returns the state as the page draws it; every viewer sees the same.
func (s *State) View(v game.Viewer) any {
	g := &s.Game
	n := g.Players()
	sv := stateView{
		Phase:   g.Phase().String(),
		Current: g.Current(),
		Over:    g.Over(),
		Pieces:  []pieceView{},
		Tokens:  tokensOn(g),
	}
	b := g.board
	for sp, c := range b.coords {
		if p, piece, ok := g.PieceAt(c); ok {
			sv.Pieces = append(sv.Pieces, pieceView{At: b.names[sp], Seat: p, Piece: piece.String()})
		}
	}
	var buf [256]Move
	legal := g.AppendLegalMoves(buf[:0])
	sv.Legal = make([]string, len(legal))
	for i, m := range legal {
		sv.Legal[i] = string(m.Piece.Letter()) + " " + b.names[b.index(m.At)]
	}
	totals := g.Totals()
	live := g.Scores()
	sv.Scores = scoresView{Live: live[:n], Totals: totals[:n]}
	if sc, ok := g.PhaseScores(Exploration); ok {
		sv.Scores.Exploration = sc[:n]
	}
	if sc, ok := g.PhaseScores(Settlement); ok {
		sv.Scores.Settlement = sc[:n]
	}
	for p := range n {
		h := g.Held(p)
		sv.Players = append(sv.Players, playerView{
			SettlersLeft: g.SettlersLeft(p),
			VillagesLeft: g.VillagesLeft(p),
			Held:         heldView{h[Coconut], h[Bamboo], h[Water], h[PreciousStone], h[Statuette]},
			TokensHeld:   g.TokensHeld(p),
			Total:        totals[p],
		})
	}
	if g.Over() {
		sv.Result = result(g, v.Names)
	}
	return sv
}

func tokensOn(g *Game) []tokenView {
	out := make([]tokenView, 0, NumStoneCircles)
	b := g.board
	for _, sp := range b.circles {
		if t, ok := g.TokenAt(b.coords[sp]); ok {
			out = append(out, tokenView{At: b.names[sp], Token: TokenNames[t]})
		}
	}
	return out
}

// Note returns the move's phase, the token it takes and the phases it ends,
// each with its scores; the exploration phase's with what its end removed,
// what it kept and the new layout.
func (s *State) Note(m game.Move) any {
	g := &s.Game
	em, ok := EngineMove(g.board, m)
	if !ok {
		return nil
	}
	note := noteView{Phase: g.Phase().String()}
	if t, ok := g.TokenAt(em.At); ok {
		name := TokenNames[t]
		note.Took = &name
	}
	after := *g
	if err := after.Apply(em); err != nil {
		return note
	}
	n := g.Players()
	if g.Phase() == Exploration && after.Phase() == Settlement {
		note.PhaseEnds = append(note.PhaseEnds, explorationEnd(g, em, &after))
	}
	if after.Over() {
		sc, _ := after.PhaseScores(Settlement)
		totals := after.Totals()
		note.PhaseEnds = append(note.PhaseEnds, phaseEndView{Phase: Settlement.String(), Scores: sc[:n], Totals: totals[:n]})
	}
	return note
}

// explorationEnd describes the end of the exploration phase: before is the
// game before the move m that ended it, after the game after it.
func explorationEnd(before *Game, m Move, after *Game) phaseEndView {
	n := before.Players()
	sc, _ := after.PhaseScores(Exploration)
	e := phaseEndView{
		Phase:           Exploration.String(),
		Scores:          sc[:n],
		SettlersRemoved: make([][]string, n),
		VillagesRemoved: make([][]string, n),
		VillagesKept:    make([][]string, n),
		Tokens:          tokensOn(after),
	}
	for p := range n {
		e.Totals = append(e.Totals, sc[p].Total)
		e.SettlersRemoved[p] = []string{}
		e.VillagesRemoved[p] = []string{}
		e.VillagesKept[p] = []string{}
	}
	b := before.board
	for _, c := range b.coords {
		p, piece, ok := before.PieceAt(c)
		if c == m.At {
			p, piece, ok = before.Current(), m.Piece, true
		}
		switch {
		case !ok:
		case piece == Settler:
			e.SettlersRemoved[p] = append(e.SettlersRemoved[p], c.String())
		case b.IsStoneCircle(c):
			e.VillagesRemoved[p] = append(e.VillagesRemoved[p], c.String())
		default:
			e.VillagesKept[p] = append(e.VillagesKept[p], c.String())
		}
	}
	return e
}

// result describes the end of a finished game, the tie-break included;
// names are the seats' names ("Player 1"... when there are none).
func result(g *Game, names []string) *resultView {
	n := g.Players()
	totals := g.Totals()
	tokens := make([]int, n)
	for p := range tokens {
		tokens[p] = g.TokensHeld(p)
	}
	if len(names) < n {
		names = make([]string, n)
		for p := range names {
			names[p] = fmt.Sprintf("Player %d", p+1)
		}
	}
	return explainResult(totals[:n], tokens, g.Winners(), names)
}

// explainResult says who won and how the tie-break, if any, decided it.
func explainResult(totals, tokens, winners []int, names []string) *resultView {
	r := &resultView{Winners: winners, Totals: totals, TokensHeld: tokens}
	best := slices.Max(totals)
	var tied []int
	for p, t := range totals {
		if t == best {
			tied = append(tied, p)
		}
	}
	name := func(p int) string { return names[p] }
	who := joinNames(winners, name)
	switch {
	case len(tied) == 1:
		r.TieBreak = "none"
		r.Explanation = fmt.Sprintf("%s wins with %d points.", who, best)
	case len(winners) < len(tied):
		r.TieBreak = "tokens"
		held := make([]string, len(tied))
		for i, p := range tied {
			held[i] = fmt.Sprintf("%s %d", names[p], tokens[p])
		}
		verdict := who + " wins."
		if len(winners) > 1 {
			verdict = who + " share the victory."
		}
		r.Explanation = fmt.Sprintf("%s tied on %d points; the most tokens held decides (%s): %s",
			joinNames(tied, name), best, strings.Join(held, ", "), verdict)
	default:
		r.TieBreak = "shared"
		r.Explanation = fmt.Sprintf("%s tied on %d points and on %d tokens held; they share the victory.",
			who, best, tokens[tied[0]])
	}
	return r
}

// joinNames writes "A", "A and B", "A, B and C".
func joinNames(seats []int, name func(int) string) string {
	var b strings.Builder
	for i, p := range seats {
		switch {
		case i == 0:
		case i == len(seats)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(name(p))
	}
	return b.String()
}
