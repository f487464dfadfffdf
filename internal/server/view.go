package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// This file turns games into the JSON objects of docs/api.md.

type boardView struct {
	Name         string       `json:"name"`
	Height       int          `json:"height"`
	Islands      []islandView `json:"islands"`
	StoneCircles []string     `json:"stone_circles"`
	Notation     string       `json:"notation"`
}

type islandView struct {
	Bonus  int      `json:"bonus"`
	Spaces []string `json:"spaces"`
}

func makeBoardView(b *bluelagoon.Board) boardView {
	v := boardView{Name: b.Name(), Height: b.Height(), Notation: b.String()}
	for _, isl := range b.Islands() {
		v.Islands = append(v.Islands, islandView{Bonus: isl.Bonus, Spaces: coordStrings(isl.Spaces)})
	}
	v.StoneCircles = coordStrings(b.StoneCircles())
	return v
}

func coordStrings(cs []bluelagoon.Coord) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// A layout is what describing a board's states needs, worked out once per
// board: its spaces and stone circles, and the name of every space, so that
// describing a state formats no numbers.
type layout struct {
	all     []bluelagoon.Coord // every space, in row-then-column order
	circles []bluelagoon.Coord
	names   [][]string // names[row][col] is "row,col"
}

func newLayout(b *bluelagoon.Board) *layout {
	l := &layout{circles: b.StoneCircles(), names: make([][]string, b.Height())}
	for r := range b.Height() {
		for c := range bluelagoon.RowLen(b.Height(), r) {
			at := bluelagoon.Coord{Row: r, Col: c}
			l.all = append(l.all, at)
			l.names[r] = append(l.names[r], at.String())
		}
	}
	return l
}

func (l *layout) name(c bluelagoon.Coord) string { return l.names[c.Row][c.Col] }

// move writes m in the notation, "S 9,3".
func (l *layout) move(m bluelagoon.Move) string {
	if m.Piece == bluelagoon.Village {
		return "T " + l.name(m.At)
	}
	return "S " + l.name(m.At)
}

type seatView struct {
	Seat      int    `json:"seat"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Level     string `json:"level"`
	Joined    bool   `json:"joined"`
	Connected int    `json:"connected"`
	StandIn   bool   `json:"stand_in"`
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
	Live        []bluelagoon.Score `json:"live"`
	Exploration []bluelagoon.Score `json:"exploration"`
	Settlement  []bluelagoon.Score `json:"settlement"`
	Totals      []int              `json:"totals"`
}

type clockView struct {
	RemainingMS int64 `json:"remaining_ms"`
	Running     bool  `json:"running"`
}

type lastMoveView struct {
	Version int     `json:"version"`
	Seat    int     `json:"seat"`
	Move    string  `json:"move"`
	Took    *string `json:"took"`
}

type resultView struct {
	Winners     []int  `json:"winners"`
	Totals      []int  `json:"totals"`
	TokensHeld  []int  `json:"tokens_held"`
	TieBreak    string `json:"tie_break"`
	Explanation string `json:"explanation"`
}

type stateView struct {
	Version  int           `json:"version"`
	Phase    string        `json:"phase"`
	Current  int           `json:"current"`
	Over     bool          `json:"over"`
	Pieces   []pieceView   `json:"pieces"`
	Tokens   []tokenView   `json:"tokens"`
	Legal    []string      `json:"legal"`
	Players  []playerView  `json:"players"`
	Scores   scoresView    `json:"scores"`
	Clocks   []clockView   `json:"clocks"`
	LastMove *lastMoveView `json:"last_move"`
	Result   *resultView   `json:"result"`
}

type moveView struct {
	Version int     `json:"version"`
	Seat    int     `json:"seat"`
	Move    string  `json:"move"`
	Phase   string  `json:"phase"`
	Took    *string `json:"took"`
}

type phaseSummaryView struct {
	Version         int                `json:"version"`
	Scores          []bluelagoon.Score `json:"scores"`
	Totals          []int              `json:"totals"`
	SettlersRemoved [][]string         `json:"settlers_removed"`
	VillagesRemoved [][]string         `json:"villages_removed"`
	VillagesKept    [][]string         `json:"villages_kept"`
	Tokens          []tokenView        `json:"tokens"`
}

type clockSettingsView struct {
	InitialMS   int64 `json:"initial_ms"`
	IncrementMS int64 `json:"increment_ms"`
	Started     bool  `json:"started"`
}

type gameView struct {
	ID             string             `json:"id"`
	Created        time.Time          `json:"created"`
	Board          json.RawMessage    `json:"board"`
	Players        int                `json:"players"`
	First          int                `json:"first"`
	SeedChosen     bool               `json:"seed_chosen"`
	Clock          *clockSettingsView `json:"clock"`
	Seats          []seatView         `json:"seats"`
	Moves          []moveView         `json:"moves"`
	ExplorationEnd *phaseSummaryView  `json:"exploration_end"`
	State          json.RawMessage    `json:"state"`
	You            *int               `json:"you"`
}

type summarySeatView struct {
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Level  string `json:"level"`
	Joined bool   `json:"joined"`
}

type summaryView struct {
	ID        string            `json:"id"`
	Board     string            `json:"board"`
	Players   int               `json:"players"`
	Seats     []summarySeatView `json:"seats"`
	OpenSeats []int             `json:"open_seats"`
	Version   int               `json:"version"`
	Phase     string            `json:"phase"`
	Current   int               `json:"current"`
	Over      bool              `json:"over"`
	Totals    []int             `json:"totals"`
	Winners   []int             `json:"winners"`
	Created   time.Time         `json:"created"`
	Updated   time.Time         `json:"updated"`
}

// tokenNames are the API's names of the token kinds, in the engine's order.
var tokenNames = [bluelagoon.NumTokenKinds]string{"coconut", "bamboo", "water", "stone", "statuette"}

func tokenName(t bluelagoon.Token) *string {
	s := tokenNames[t]
	return &s
}

func tokensOn(g *bluelagoon.Game, l *layout) []tokenView {
	out := make([]tokenView, 0, bluelagoon.NumStoneCircles)
	for _, c := range l.circles {
		if t, ok := g.TokenAt(c); ok {
			out = append(out, tokenView{At: l.name(c), Token: tokenNames[t]})
		}
	}
	return out
}

// makeState describes g after the move last (nil at version 0) with the given
// clocks (nil without clocks); names are the seats' names, for the result.
func makeState(g *bluelagoon.Game, l *layout, last *moveView, clocks []clockView, names []string) stateView {
	n := g.Players()
	v := stateView{
		Phase:   g.Phase().String(),
		Current: g.Current(),
		Over:    g.Over(),
		Pieces:  []pieceView{},
		Legal:   []string{},
		Clocks:  clocks,
	}
	if last != nil {
		v.Version = last.Version
		v.LastMove = &lastMoveView{Version: last.Version, Seat: last.Seat, Move: last.Move, Took: last.Took}
	}
	for _, c := range l.all {
		if p, piece, ok := g.PieceAt(c); ok {
			v.Pieces = append(v.Pieces, pieceView{At: l.name(c), Seat: p, Piece: piece.String()})
		}
	}
	v.Tokens = tokensOn(g, l)
	var buf [256]bluelagoon.Move
	legal := g.AppendLegalMoves(buf[:0])
	v.Legal = make([]string, len(legal))
	for i, m := range legal {
		v.Legal[i] = l.move(m)
	}
	totals := g.Totals()
	live := g.Scores()
	v.Scores = scoresView{Live: live[:n], Totals: totals[:n]}
	if s, ok := g.PhaseScores(bluelagoon.Exploration); ok {
		v.Scores.Exploration = s[:n]
	}
	if s, ok := g.PhaseScores(bluelagoon.Settlement); ok {
		v.Scores.Settlement = s[:n]
	}
	for p := range n {
		h := g.Held(p)
		v.Players = append(v.Players, playerView{
			SettlersLeft: g.SettlersLeft(p),
			VillagesLeft: g.VillagesLeft(p),
			Held:         heldView{h[bluelagoon.Coconut], h[bluelagoon.Bamboo], h[bluelagoon.Water], h[bluelagoon.PreciousStone], h[bluelagoon.Statuette]},
			TokensHeld:   g.TokensHeld(p),
			Total:        totals[p],
		})
	}
	if g.Over() {
		v.Result = makeResult(g, names)
	}
	return v
}

// makeResult describes the end of a finished game, the tie-break included.
func makeResult(g *bluelagoon.Game, names []string) *resultView {
	n := g.Players()
	totals := g.Totals()
	tokens := make([]int, n)
	for p := range tokens {
		tokens[p] = g.TokensHeld(p)
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

// makePhaseSummary describes the end of the exploration phase: before is the
// game before the move m that ended it, after the game after it.
func makePhaseSummary(version int, before *bluelagoon.Game, m bluelagoon.Move, after *bluelagoon.Game, l *layout) *phaseSummaryView {
	n := before.Players()
	s := &phaseSummaryView{
		Version:         version,
		SettlersRemoved: make([][]string, n),
		VillagesRemoved: make([][]string, n),
		VillagesKept:    make([][]string, n),
		Tokens:          tokensOn(after, l),
	}
	scores, _ := after.PhaseScores(bluelagoon.Exploration)
	s.Scores = scores[:n]
	for p := range n {
		s.Totals = append(s.Totals, scores[p].Total)
		s.SettlersRemoved[p] = []string{}
		s.VillagesRemoved[p] = []string{}
		s.VillagesKept[p] = []string{}
	}
	b := before.Board()
	for _, c := range l.all {
		p, piece, ok := before.PieceAt(c)
		if c == m.At {
			p, piece, ok = before.Current(), m.Piece, true
		}
		switch {
		case !ok:
		case piece == bluelagoon.Settler:
			s.SettlersRemoved[p] = append(s.SettlersRemoved[p], l.name(c))
		case b.IsStoneCircle(c):
			s.VillagesRemoved[p] = append(s.VillagesRemoved[p], l.name(c))
		default:
			s.VillagesKept[p] = append(s.VillagesKept[p], l.name(c))
		}
	}
	return s
}
