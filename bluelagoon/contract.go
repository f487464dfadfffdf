package bluelagoon

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"

	"github.com/lagoon-games/lagoon/game"
)

// Rules is Blue Lagoon behind the platform's contract (package game): the
// registry, the server, the bots and the command line reach the engine
// through it. Its options are the board (a built-in board's name or a
// board in the notation) and the seat that moves first.
var Rules = &game.Rules{
	ID:         "bluelagoon",
	Name:       "Blue Lagoon",
	MinPlayers: MinPlayers,
	MaxPlayers: MaxPlayers,
	Options: []game.Option{
		{
			Key: "board", Label: "Board", Kind: game.Choice, Default: "standard", Choices: boardChoices(), Custom: true,
			Help: "A built-in board, or a board of your own in the board notation.",
		},
		{
			Key: "first", Label: "First player", Kind: game.Choice, Default: "0",
			Choices: []game.OptionChoice{{Value: "0", Label: "Seat 1"}, {Value: "1", Label: "Seat 2"}, {Value: "2", Label: "Seat 3"}, {Value: "3", Label: "Seat 4"}},
			Help:    "The seat that places the first piece.",
		},
	},
	Times: []game.TimeKind{game.Bank, game.Correspondence},
	// The notation holds the board and the pieces, never the generator.
	PublicNotation: true,
	New:            newState,
	ParseState:     parseState,
	NewReader:      newReader,
}

// boardTitles are the built-in boards' names for people.
var boardTitles = map[string]string{
	"standard":       "Standard",
	"wheels":         "Wheels",
	"face":           "Face",
	"sides":          "Sides",
	"space_invaders": "Space Invaders",
}

func boardChoices() []game.OptionChoice {
	var out []game.OptionChoice
	for _, name := range BoardNames() {
		label := boardTitles[name]
		if label == "" {
			label = name
		}
		out = append(out, game.OptionChoice{Value: name, Label: label})
	}
	return out
}

// New sets up a game as the contract's setup says: the board option read
// by name or in the notation (the standard board by default), the seat of
// the option first to move (seat 0 by default), the tokens laid out from
// the seed. It is what Rules.NewGame makes, as the engine's type.
func New(s game.Setup) (*State, error) {
	board, err := BoardFromText(cmp.Or(s.Options["board"], "standard"))
	if err != nil {
		return nil, fmt.Errorf("option board: %w", err)
	}
	first := 0
	if f, ok := s.Options["first"]; ok {
		if first, err = strconv.Atoi(f); err != nil || first < 0 || first >= s.Players {
			return nil, fmt.Errorf("option first: seat %q is not a seat of a %d-player game", f, s.Players)
		}
	}
	g, err := newGame(board, s.Players, s.Seed, first)
	if err != nil {
		return nil, err
	}
	return &State{Game: *g}, nil
}

func newState(s game.Setup) (game.State, error) {
	st, err := New(s)
	if err != nil {
		return nil, err
	}
	return st, nil
}

func parseState(text string) (game.State, error) {
	g, err := ParseState(text)
	if err != nil {
		return nil, err
	}
	return StateOf(g), nil
}

// newReader returns a reader of states that builds each board once, however
// many states are on it (StateReader).
func newReader() func(text string) (game.State, error) {
	var r StateReader
	return func(text string) (game.State, error) {
		g, err := r.Read(text)
		if err != nil {
			return nil, err
		}
		return StateOf(g), nil
	}
}

// StateOf returns a game behind the contract, a copy of g.
func StateOf(g *Game) *State {
	st := &State{Game: *g}
	// A state read from the notation counts a turn for every piece on the
	// board: Turn only has to change with every move.
	for p := range g.Players() {
		st.turns += int32(g.own[p].count(g.board.words))
	}
	return st
}

// State is a Blue Lagoon game behind the contract: the engine's Game, whose
// methods it has, and a count of the turns played. Like a Game it is a
// plain value. Each move is a turn of its own.
//
// A contract move numbers a placement by space and piece: twice the space's
// index in row-then-column order, plus one for a village.
type State struct {
	Game
	turns int32
}

var _ game.State = (*State)(nil)

// GameOf returns the engine's game behind a contract state of Blue Lagoon,
// for the bots that read the board, or nil for another game's state.
func GameOf(st game.State) *Game {
	if s, ok := st.(*State); ok {
		return &s.Game
	}
	return nil
}

// ContractMove returns the contract's number of a move on board b, which
// must be on the board.
func ContractMove(b *Board, m Move) game.Move {
	return game.Move(b.index(m.At)<<1 | int(m.Piece))
}

// EngineMove returns the engine's move for a contract move on board b, and
// false if the number is no space of the board.
func EngineMove(b *Board, m game.Move) (Move, bool) {
	s := int(m >> 1)
	if m < 0 || s >= b.size {
		return Move{}, false
	}
	return Move{Piece(m & 1), b.coords[s]}, true
}

// ToMove returns the player to move, or game.NoSeat once the game is over.
func (s *State) ToMove() int {
	if s.Game.Over() {
		return game.NoSeat
	}
	return s.Current()
}

// Turn counts the moves played: every placement is a turn.
func (s *State) Turn() int { return int(s.turns) }

// AppendLegal appends the legal moves, in the order of AppendLegalMoves.
func (s *State) AppendLegal(dst []game.Move) []game.Move {
	g := &s.Game
	if g.over {
		return dst
	}
	var sw, vw [maxWords]uint64
	g.legalSets(int(g.current), &sw, &vw)
	for w := range g.board.words {
		base := w << 6
		for x := sw[w] | vw[w]; x != 0; x &= x - 1 {
			t := uint(bits.TrailingZeros64(x))
			m := game.Move((base + int(t)) << 1)
			if sw[w]>>t&1 != 0 {
				dst = append(dst, m)
			}
			if vw[w]>>t&1 != 0 {
				dst = append(dst, m|1)
			}
		}
	}
	return dst
}

// Play checks and plays m for the player to move.
func (s *State) Play(m game.Move) error {
	em, ok := EngineMove(s.board, m)
	if !ok {
		return fmt.Errorf("move %d: %w", m, game.Refuse(game.RefusedNoSuchMove, "no such space on the board"))
	}
	if err := s.Apply(em); err != nil {
		return err
	}
	s.turns++
	return nil
}

// PlayLegal plays m, which must be legal, without checking it: the fast
// path of the Blue Lagoon playouts.
func (s *State) PlayLegal(m game.Move) {
	s.play(int(s.current), Piece(m&1), int(m>>1))
	s.turns++
}

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// CopyFrom makes s a copy of src, which must be a *State.
func (s *State) CopyFrom(src game.State) { *s = *src.(*State) }

// Resample draws anew the layout of the settlement phase, the one thing
// nobody can see: it reseeds the generator.
func (s *State) Resample(_ int, r *rand.Rand) { s.Reseed(r.Uint64()) }

// Secret reports whether the settlement phase's layout is still to come.
func (s *State) Secret() bool { return s.phase == Exploration && !s.Game.Over() }

// Revealed counts the layouts chance has laid since the game was set up
// (game.Revealer): the settlement phase's, laid by the move that ends the
// exploration, is the only one, so no take-back goes back past that move.
// The exploration's own layout is the setup's, seen before any move.
func (s *State) Revealed() int {
	if s.phase == Exploration {
		return 0
	}
	return 1
}

// TimeUp returns false: Blue Lagoon keeps no turn timer.
func (s *State) TimeUp() (game.Move, bool) { return 0, false }

// Standing returns the phase, the points of the phases scored so far and,
// once the game is over, the winners.
func (s *State) Standing() game.Standing {
	n := s.Players()
	totals := s.Totals()
	st := game.Standing{Phase: s.Phase().String(), Scores: totals[:n:n]}
	if s.Game.Over() {
		st.Winners = s.Winners()
	}
	return st
}

// MoveText writes m in the notation, "S 9,3"; a number that is no space of
// the board is written as a number.
func (s *State) MoveText(m game.Move) string {
	em, ok := EngineMove(s.board, m)
	if !ok {
		return "#" + strconv.Itoa(int(m))
	}
	return em.String()
}

// ParseMove reads a move in the notation; the space must be on the board.
func (s *State) ParseMove(text string) (game.Move, error) {
	em, err := ParseMove(text)
	if err != nil {
		return 0, err
	}
	if !s.board.OnBoard(em.At) {
		return 0, fmt.Errorf("move %q: space %v is not on the board", text, em.At)
	}
	return ContractMove(s.board, em), nil
}
