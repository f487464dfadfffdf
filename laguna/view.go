package laguna

import (
	"strconv"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// This file writes what the page is shown: the board once (Table), the
// state after every move (View) and what the log says of a move (Note).
//
// The board is public, and so every view is the same for every viewer
// (Rules.PrivateViews is false). What the table hides is what lies under a
// raft's pearls: a view leaves those squares out, so that the page draws
// only what the table shows, except while the raft's owner peeks (others
// at the table can see under a lifted pearl too) and with the open board
// assist. Nothing is secret from a program that keeps the board: the game
// is one of memory, and the board is on the table.

// TableView is the board as the page draws it.
type TableView struct {
	Name string `json:"name"`
	Size int    `json:"size"`
	// Rows are the board's rows in the notation, top to bottom.
	Rows    []string `json:"rows"`
	Islands string   `json:"islands"`
	Colours string   `json:"colours"`
}

// Table returns the board.
func (s *State) Table() any {
	v := TableView{Name: s.board.name, Size: Size, Islands: IslandNames, Colours: ColourNames}
	for r := range Size {
		v.Rows = append(v.Rows, s.board.Line()[r*(Size+1):r*(Size+1)+Size])
	}
	return v
}

// HoleView is one hole of a raft: the square under it, the pearl in it and
// what shows through it ("" when a pearl hides it).
type HoleView struct {
	Square string `json:"square"`
	Pearl  string `json:"pearl"`
	Shows  string `json:"shows"`
}

// RaftView is a raft: its seat and colour, where it lies ("" before it is
// placed), its orientation (H or V), its home island and its holes 1 to 6.
type RaftView struct {
	Seat   int        `json:"seat"`
	Colour string     `json:"colour"`
	At     string     `json:"at"`
	Orient string     `json:"orient"`
	Home   string     `json:"home"`
	Holes  []HoleView `json:"holes"`
}

// StateView is a state as the page draws it.
type StateView struct {
	Phase  string `json:"phase"`
	ToMove int    `json:"to_move"`
	Over   bool   `json:"over"`
	// Steps the raft to move has made this turn, and whether its owner
	// is peeking under its pearls.
	Steps  int  `json:"steps"`
	Peeked bool `json:"peeked"`
	// Target is how many pearls of its colour a seat must deliver (0 in
	// the solo game).
	Target int `json:"target"`
	// Goal is the solo game's target: the pearls each island must hold.
	Goal []string `json:"goal,omitempty"`
	// Par is the solo game's par in steps, when known.
	Par   *int       `json:"par,omitempty"`
	Rafts []RaftView `json:"rafts"`
	// Islands are the pearls on each island A to H, as colour letters.
	Islands []string `json:"islands"`
	// Volcano counts the pearls of each colour in the volcano.
	Volcano []int `json:"volcano"`
	// Docked is where the raft to move is docked: an island's letter,
	// "volcano", or "".
	Docked string `json:"docked"`
	// Forced are the directions of the arrows showing through the raft to
	// move that it can follow: its next step must take one of them (none:
	// the step is free).
	Forced  []string `json:"forced"`
	Legal   []string `json:"legal"`
	Scores  []int    `json:"scores"`
	Winners []int    `json:"winners"`
	// OpenBoard is the assist: every hole shows its square.
	OpenBoard bool `json:"open_board"`
}

// View returns the state as the page draws it; every viewer sees the same.
func (s *State) View(game.Viewer) any {
	n := int(s.players)
	st := s.Standing()
	v := StateView{Phase: phaseNames[s.phase], ToMove: s.ToMove(), Over: s.Over(), Steps: int(s.steps), Peeked: s.peeked,
		Target: Target(n), Scores: st.Scores, Winners: st.Winners, OpenBoard: s.open,
		Forced: []string{}, Legal: []string{}}
	if v.Winners == nil {
		v.Winners = []int{}
	}
	for p := range n {
		r := &s.rafts[p]
		rv := RaftView{Seat: p, Colour: ColourNames[p : p+1], Holes: []HoleView{}}
		if s.home[p] >= 0 {
			rv.Home = IslandNames[s.home[p] : s.home[p]+1]
		}
		if r.placed() {
			rv.At, rv.Orient = Square(r.at).String(), OrientNames[r.orient]
			for h := range Holes {
				sq := r.square(h)
				hv := HoleView{Square: sq.String()}
				if r.holes[h] >= 0 {
					hv.Pearl = ColourNames[r.holes[h] : r.holes[h]+1]
				}
				if r.holes[h] < 0 || s.open || s.peeked && p == int(s.seat) {
					hv.Shows = string(s.board.char(sq))
				}
				rv.Holes = append(rv.Holes, hv)
			}
		}
		v.Rafts = append(v.Rafts, rv)
	}
	for i := range NumIslands {
		v.Islands = append(v.Islands, pearlLetters(&s.islands[i]))
	}
	for c := range NumColours {
		v.Volcano = append(v.Volcano, int(s.volcano[c]))
	}
	if s.Solo() {
		v.Target = 0
		if s.par >= 0 {
			par := int(s.par)
			v.Par = &par
		}
		for i := range NumIslands {
			v.Goal = append(v.Goal, pearlLetters(&s.target[i]))
		}
	}
	if s.phase == phPlay && s.rafts[s.seat].aboard() >= MinAboard {
		p := int(s.seat)
		switch d := s.docked(p); {
		case d == Volcano:
			v.Docked = "volcano"
		case d >= 0:
			v.Docked = IslandNames[d : d+1]
		}
		_, arrows := s.showing(p)
		for d := range Dir(4) {
			if arrows>>d&1 != 0 && s.canStep(p, d) {
				v.Forced = append(v.Forced, DirNames[d])
			}
		}
	}
	for _, m := range s.AppendLegal(nil) {
		v.Legal = append(v.Legal, MoveText(m))
	}
	return v
}

// NoteView is what the log says of a move: what it uncovers, and whether it
// ends the turn (on a reef, or by the player) or the game.
type NoteView struct {
	Uncovers string `json:"uncovers,omitempty"`
	// TurnEnds says why the move ended the turn: "player" (the player
	// ended it), "reef", or "time" (the sand ran out).
	TurnEnds string `json:"turn_ends,omitempty"`
	GameOver bool   `json:"game_over,omitempty"`
	// ByTime says the time rule made the move for the player (a raft
	// placed for them, the turn the sand ended).
	ByTime bool `json:"by_time,omitempty"`
}

// Note returns what the log says of m, legal now.
func (s *State) Note(m game.Move) any {
	var note NoteView
	p := int(s.seat)
	if s.phase != phPlay {
		return note
	}
	r := &s.rafts[p]
	switch {
	case m >= mShift && m < mLoad:
		note.Uncovers = string(s.board.char(r.square(int(m-mShift) / Holes)))
	case m >= mDeliver && m < mTrade:
		note.Uncovers = string(s.board.char(r.square(int(m - mDeliver))))
	}
	after := *s
	if after.Play(m) != nil {
		return note
	}
	switch {
	case after.phase == phOver:
		note.GameOver = true
	case after.turns != s.turns && m == End:
		note.TurnEnds = "player"
	case after.turns != s.turns:
		note.TurnEnds = "reef"
	}
	return note
}

// TimeUpNote returns the note of m when the time rule makes it for the
// seat to move (game.TimeUpNoter): the sand, not the player, ended the
// turn; a raft placed, a pearl dealt, was placed for the player.
func (s *State) TimeUpNote(m game.Move) any {
	note := s.Note(m).(NoteView)
	note.ByTime = true
	if note.TurnEnds == "player" {
		note.TurnEnds = "time"
	}
	return note
}

// Untimed reports whether the game is still being set up (the rafts
// placed, the pearls dealt): the rulebook turns the sand glass when play
// begins (game.Untimed).
func (s *State) Untimed() bool { return s.phase < phPlay }

// pearlLetters writes an island's pearls as colour letters, "RYG".
func pearlLetters(counts *[NumColours]uint8) string {
	out := ""
	for c := range NumColours {
		out += strings.Repeat(ColourNames[c:c+1], int(counts[c]))
	}
	return out
}

// Picture draws the state as text for people and the command line: the
// board, two characters a square: the square's own character (see the board
// notation), then a mark where a raft lies: the raft's seat (1 to 4) over an
// open hole, or the lower-case letter of the pearl's colour (r y g b) over a
// hole holding one; a space elsewhere. Under the board, one line a raft and
// the pearls on the islands and in the volcano.
func (s *State) Picture() string {
	var marks [NumSquares]byte
	for p := range int(s.players) {
		r := &s.rafts[p]
		if !r.placed() {
			continue
		}
		for h := range Holes {
			marks[r.square(h)] = '1' + byte(p)
			if c := r.holes[h]; c >= 0 {
				marks[r.square(h)] = "rygb"[c]
			}
		}
	}
	var b strings.Builder
	for row := range Size {
		for col := range Size {
			sq := At(row, col)
			b.WriteByte(s.board.char(sq))
			if marks[sq] == 0 {
				b.WriteByte(' ')
			} else {
				b.WriteByte(marks[sq])
			}
		}
		b.WriteByte('\n')
	}
	std := s.Standing()
	for p := range int(s.players) {
		r := &s.rafts[p]
		b.WriteString("raft " + ColourNames[p:p+1] + " (" + string('1'+rune(p)) + "): ")
		if r.placed() {
			b.WriteString(OrientNames[r.orient] + " " + Square(r.at).String() + ", " + strconv.Itoa(r.aboard()) + " pearls aboard")
		} else {
			b.WriteString("not placed")
		}
		b.WriteString(", score " + strconv.Itoa(std.Scores[p]) + "\n")
	}
	b.WriteString("islands")
	for i := range NumIslands {
		b.WriteString(" " + IslandNames[i:i+1] + ":" + pearlLetters(&s.islands[i]))
	}
	b.WriteString("\nvolcano " + pearlLetters(&s.volcano) + "\n")
	return b.String()
}
