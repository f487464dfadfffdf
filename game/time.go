package game

import (
	"fmt"
	"slices"
	"time"
)

// A TimeKind is a way of keeping time at a table.
type TimeKind string

const (
	// NoTime: the players take the time they like.
	NoTime TimeKind = "none"
	// Bank is a chess clock: each seat has a bank of time that runs while
	// it is to decide, and gains an increment when its turn ends. A seat
	// whose bank is empty has a stand-in decide for it.
	Bank TimeKind = "bank"
	// TurnTimer gives each turn a fixed time, like a sand timer. With
	// Carry it is a sand glass turned over for the next turn (Laguna's):
	// a turn that ends with R left of its time, on a glass that holds
	// Turn, leaves the next turn Turn + R when R <= Turn, and Turn +
	// (R - Turn) when more than a glass was left, so a turn never has more
	// than two glasses. When a turn's time runs out, the game's
	// State.TimeUp move is played, or, where it has none, a stand-in
	// decides; decision by decision, until the turn ends.
	TurnTimer TimeKind = "turn"
	// Correspondence is for games played over days: each turn of a
	// person has Turn, a whole number of days from CorrespondenceDays,
	// counted from the moment the turn began on the calendar (the time a
	// server is down counts too, as it does for someone waiting by post).
	// As with a Bank, a seat whose time runs out has a stand-in decide
	// for it, and bots have no time.
	Correspondence TimeKind = "days"
)

// CorrespondenceDays are the times a turn a Correspondence rule may give,
// in days: few enough that a form lists them, from a move a day to a
// fortnight.
var CorrespondenceDays = []int{1, 2, 3, 5, 7, 10, 14}

// Day is a Correspondence rule's unit: a calendar day of 24 hours (no
// time zone is involved; a deadline is a moment, not a date).
const Day = 24 * time.Hour

// A TimeRule is the time a table keeps: a kind and its amounts.
type TimeRule struct {
	Kind TimeKind `json:"kind"`
	// Initial and Increment are a Bank's starting time and what a seat
	// gains when its turn ends.
	Initial   time.Duration `json:"initial"`
	Increment time.Duration `json:"increment"`
	// Turn is a TurnTimer's time a turn, or a Correspondence rule's (a
	// whole number of days); Carry passes what a turn leaves to the next
	// one (a TurnTimer's only).
	Turn  time.Duration `json:"turn"`
	Carry bool          `json:"carry"`
}

// Bounds of the amounts a time rule may set.
const (
	MinTime      = time.Second
	MaxTime      = 24 * time.Hour
	MaxIncrement = time.Hour
)

// CheckTime checks a time rule against the kinds r allows and the bounds
// above. The zero TimeRule is NoTime, which every game allows.
func (r *Rules) CheckTime(t TimeRule) (TimeRule, error) {
	if t.Kind == "" {
		t.Kind = NoTime
	}
	if t.Kind != NoTime && !slices.Contains(r.Times, t.Kind) {
		return t, fmt.Errorf("%s does not keep time by %q; it allows %v", r.Name, t.Kind, append([]TimeKind{NoTime}, r.Times...))
	}
	switch t.Kind {
	case NoTime:
		return TimeRule{Kind: NoTime}, nil
	case Bank:
		if t.Initial < MinTime || t.Initial > MaxTime || t.Increment < 0 || t.Increment > MaxIncrement {
			return t, fmt.Errorf("time: the bank must be from %v to %v and the increment from 0 to %v", MinTime, MaxTime, MaxIncrement)
		}
		return TimeRule{Kind: Bank, Initial: t.Initial, Increment: t.Increment}, nil
	case TurnTimer:
		if t.Turn < MinTime || t.Turn > MaxTime {
			return t, fmt.Errorf("time: a turn's time must be from %v to %v", MinTime, MaxTime)
		}
		return TimeRule{Kind: TurnTimer, Turn: t.Turn, Carry: t.Carry}, nil
	case Correspondence:
		if t.Turn%Day != 0 || !slices.Contains(CorrespondenceDays, int(t.Turn/Day)) {
			return t, fmt.Errorf("time: a correspondence game gives a turn %s days, not %v", orList(CorrespondenceDays), t.Turn)
		}
		return TimeRule{Kind: Correspondence, Turn: t.Turn}, nil
	}
	return t, fmt.Errorf("time: unknown kind %q", t.Kind)
}

// What a state may tell a host's time rule beyond the contract, asked of
// it as ai/mcts asks for its optional knowledge.
type (
	// Untimed reports that the decision now is none of a turn timer's:
	// the game is being set up and the glass not yet turned (Laguna's
	// rafts are placed before play begins, when the rulebook turns the
	// glass). The time does not run for it, and the first timed turn
	// after it begins with a turn's time and nothing carried.
	Untimed interface{ Untimed() bool }
	// TimeUpNoter gives the note of move m, legal now, when the time rule
	// makes it for the seat to move rather than the seat itself (the
	// rules' TimeUp move, or a stand-in's): the log then says the time
	// decided ("the sand ran out"), not the player.
	TimeUpNoter interface{ TimeUpNote(m Move) any }
	// HandTimer gives the time a player's hand takes at the table to make
	// move m, legal now (Laguna's raft moved a square, a pearl moved
	// between holes): under a turn timer, a host makes no move sooner than
	// its hand time after the decision began (the last move, or the
	// turn's start), holding one sent sooner until then, so that the
	// glass is charged the longer of the time taken and the hand's, and a
	// glass of T buys at most T / HandTime such moves however fast they
	// are sent. A move the time rule makes (the rules' TimeUp move, a
	// stand-in's) is not held.
	HandTimer interface{ HandTime(m Move) time.Duration }
)

// HandTime returns the time a hand takes to make move m, legal in st
// (HandTimer): 0 for a game that gives none.
func HandTime(st State, m Move) time.Duration {
	if h, ok := st.(HandTimer); ok {
		return max(0, h.HandTime(m))
	}
	return 0
}

// IsUntimed reports whether st's decision now is none of a turn timer's
// (Untimed).
func IsUntimed(st State) bool {
	u, ok := st.(Untimed)
	return ok && u.Untimed()
}

// NoteOf returns what the log says of move m, legal in st: its Note, or,
// when the time rule makes it for the seat (byTime), its TimeUpNote where
// the game gives one.
func NoteOf(st State, m Move, byTime bool) any {
	if n, ok := st.(TimeUpNoter); ok && byTime {
		return n.TimeUpNote(m)
	}
	return st.Note(m)
}
