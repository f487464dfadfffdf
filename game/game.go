// Package game is the contract between Lagoon's games and everything that
// hosts them: the bots and the search, the arena, the server, the store and
// the command line. A game implements it once and is then playable
// everywhere; the layers above name no game.
//
// The contract is shaped after OpenSpiel's State and boardgame.io's Game:
//
//   - A game is described by its Rules: an id, a name, its player counts,
//     the options a table may choose, the time rules it allows, and how to
//     set a game up from a Setup (players, options, a seed) or read one from
//     its text notation.
//   - A game in progress is a State. Who must decide now is one seat
//     (ToMove), which need not be the seat whose turn it is: a triggered
//     choice is simply the next decision, and a turn of many small actions
//     is many decisions by the same seat. Chance is drawn by the state's own
//     generator, seeded by the Setup, so a game is its setup plus its
//     moves and replays are free.
//   - Moves are small integers (Move) whose meaning is the game's own; they
//     are read and written as text through the state, so that a move's text
//     may depend on the board it is played on.
//   - What a seat may see is the game's View for that seat; a search that
//     plays for a seat draws everything that seat cannot see anew
//     (Resample), and so never reads what it could not know.
//
// The surface is kept small on purpose: every bot, the server and the page
// go through the same methods, and the fast paths a game offers (flat value
// copies, its own playout policy) are reached through it: CopyFrom copies a
// state into memory already held, and the search asks a state for optional
// knowledge through small interfaces of its own (see ai/mcts).
//
// The package is standard library only and does no I/O.
package game

import (
	"errors"
	"math/rand/v2"
)

// A Move is one decision, numbered by the game. Its meaning, and which
// numbers are legal, belong to the game; State.MoveText and State.ParseMove
// turn it into the game's notation and back.
type Move int32

// ErrOver is what a bot, or anything that decides for a seat, returns
// when asked to decide in a game that is over. Every bot package returns
// this one error, so callers can recognise it whichever bot they hold.
var ErrOver = errors.New("the game is over")

// NoSeat is what State.ToMove returns when nobody is to decide: the game is
// over. As a viewer it means a spectator.
const NoSeat = -1

// A State is a game in progress or finished. It is not safe for concurrent
// use; copies are independent of the original and of each other.
type State interface {
	// Players returns the number of seats, 0 to Players()-1.
	Players() int
	// ToMove returns the seat that must decide now, or NoSeat when the game
	// is over.
	ToMove() int
	// Over reports whether the game is over.
	Over() bool
	// Turn counts the turns that have ended since the game began. A turn is
	// the span of decisions a time rule charges together: a clock's
	// increment is given, and a turn timer restarts, when Turn changes.
	Turn() int

	// AppendLegal appends the legal moves of the seat to move to dst, in an
	// order that depends only on the state, and returns the extended slice.
	AppendLegal(dst []Move) []Move
	// Play checks m and plays it for the seat to move. A refused move
	// changes nothing, and the error is (or wraps) a *Refusal: a code and
	// the reason in words for the player.
	Play(m Move) error

	// Clone returns an independent copy.
	Clone() State
	// CopyFrom makes the receiver a copy of src, a state of the same game
	// made by the same Rules, reusing the receiver's memory: how a search
	// copies a position once a simulation without allocating.
	CopyFrom(src State)

	// Resample draws anew, from r, everything that seat cannot see: the
	// future the generator holds (a layout to come, a bag's order) and
	// other seats' hidden pieces, consistent with what seat has seen. A
	// search playing for seat calls it on its copies. NoSeat resamples
	// what no seat can see, which is how a take-back draws the chance of
	// a game that counts no revelations (Revealer) anew (Reseed); the
	// same state and generator draw the same, so that a record's replay
	// draws what the game drew.
	Resample(seat int, r *rand.Rand)
	// Secret reports whether the game's seed still decides something that
	// some seat cannot see yet. While it does, the game's record, which
	// holds the seed, is withheld from the players, and a take-back in a
	// game that counts no revelations (Revealer) reseeds it; once it does
	// not, no reseed changes what anyone sees.
	Secret() bool

	// View returns what the viewer may see of the state, as a value the
	// server encodes to JSON for the page: the board, the legal moves of
	// the viewer when it is to move, the score breakdown, the result.
	// Nothing a viewer may not see is in its view.
	View(v Viewer) any
	// Table returns what does not change in the course of the game and
	// every view would otherwise repeat (Blue Lagoon's board), as a value
	// encoded to JSON and sent once with the game; nil if nothing.
	Table() any
	// Note returns what the log says of move m, legal and about to be
	// played now, besides its text (for Blue Lagoon: the token it takes,
	// and the summary of the phase it ends), as a value encoded to JSON,
	// or nil. It does not change the state; to tell what the move brings
	// about (a tile drawn, a scripted opponent's turn) it may play it on a
	// copy, which is cheap for a flat state.
	Note(m Move) any
	// TimeUp returns the move the rules make for the seat to move when its
	// turn's time runs out under a TurnTimer (Laguna: the turn ends), and
	// false when the game has none: a stand-in then decides.
	TimeUp() (Move, bool)
	// Standing returns where the game stands: its phase, each seat's
	// points so far and, once it is over, who won.
	Standing() Standing

	// MoveText writes m in the game's notation.
	MoveText(m Move) string
	// ParseMove reads a move in the game's notation. It checks the text,
	// not the move's legality, which Play checks.
	ParseMove(text string) (Move, error)
	// String writes the state in the game's notation; Rules.ParseState
	// reads it back.
	String() string
}

// A Viewer is who a view is for: a seat, or NoSeat for a spectator, and
// the seats' names, for a view that explains a result in words.
type Viewer struct {
	Seat  int
	Names []string
}

// Standing is where a game stands, in terms every layer understands.
type Standing struct {
	// Phase names the part of the game being played, for a lobby ("",
	// "exploration", "settlement"...); "" when the game has no phases.
	Phase string
	// Scores are each seat's own points so far (final once the game is
	// over); with Teams, a team's points are the sum of its seats'.
	Scores []int
	// Winners are the seats that won, once the game is over: one seat, a
	// team's seats, or several seats sharing a victory; none when nobody
	// won (a solo game lost). Empty before the end.
	Winners []int
	// Teams groups the seats that play together, nil when every seat plays
	// for itself.
	Teams [][]int
}

// Rewards sets r[p], for each seat p of a finished game, to its share of
// the victory in [0, 1]: 1 split among the winners, a team's members each
// getting the team's share. A search maximises it when the game offers no
// finer reward of its own.
func (s Standing) Rewards(r []float64) {
	clear(r)
	if len(s.Winners) == 0 {
		return
	}
	units := len(s.Winners)
	if s.Teams != nil {
		units = 0
		for _, team := range s.Teams {
			for _, p := range team {
				if contains(s.Winners, p) {
					units++
					break
				}
			}
		}
	}
	for _, p := range s.Winners {
		if p >= 0 && p < len(r) {
			r[p] = 1 / float64(units)
		}
	}
}

func contains(seats []int, p int) bool {
	for _, q := range seats {
		if q == p {
			return true
		}
	}
	return false
}
