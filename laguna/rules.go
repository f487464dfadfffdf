package laguna

import (
	"fmt"
	"strconv"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// Rules is Laguna behind the platform's contract, for 2 to 4 players or one
// playing the solo game. Its options are the
// board (an original board's name, or a board in the notation), the
// rulebook's variants (five pearls a raft, the players dealing the pearls,
// no sand timer), the open board assist and a limit of rounds.
var Rules = &game.Rules{
	ID:         "laguna",
	Name:       "Laguna",
	MinPlayers: 1,
	MaxPlayers: 4,
	Options: []game.Option{
		{Key: "board", Label: "Board", Kind: game.Choice, Default: "easy", Custom: true,
			Choices: []game.OptionChoice{{Value: "easy", Label: "Original board: easy"}, {Value: "hard", Label: "Original board: hard"}},
			Help:    "One of Lagoon's original boards, or a board of your own in the board notation."},
		{Key: "raft", Label: "Pearls a raft may carry", Kind: game.Choice, Default: "4",
			Choices: []game.OptionChoice{{Value: "4", Label: "4"}, {Value: "5", Label: "5 (easier movement)"}},
			Help:    "The variant with five pearls makes rafts easier to steer."},
		{Key: "deal", Label: "Pearls on the islands", Kind: game.Choice, Default: "random",
			Choices: []game.OptionChoice{{Value: "random", Label: "Dealt at random"}, {Value: "players", Label: "Dealt by the players"}},
			Help:    "In the variant the players take turns putting the pearls on the islands, never their own colour."},
		{Key: "timer", Label: "Sand timer rules", Kind: game.Choice, Default: "on",
			Choices: []game.OptionChoice{{Value: "on", Label: "With the sand timer"}, {Value: "off", Label: "Without (turn by turn)"}},
			Help:    "Without the sand timer, pearls may be moved between holes only after a reef ended one's turn."},
		{Key: "open", Label: "Open board", Kind: game.Choice, Default: "off",
			Choices: []game.OptionChoice{{Value: "off", Label: "Off"}, {Value: "on", Label: "On (shows what lies under the pearls)"}},
			Help:    "An assist: everybody sees what lies under every pearl, so nothing has to be remembered."},
		{Key: "puzzle", Label: "Solo puzzle", Kind: game.Choice, Default: "1",
			Choices: []game.OptionChoice{{Value: "1", Label: "Two pearls out of place"}, {Value: "2", Label: "Four pearls out of place"},
				{Value: "3", Label: "Six pearls out of place"}, {Value: "0", Label: "A whole new arrangement"}},
			Help: "For one player: the target the islands' pearls must be brought to.", Players: []int{1}},
		{Key: "limit", Label: "Rounds (0: no limit)", Kind: game.Number, Default: "0", Min: 0, Max: 1000,
			Help: "Stops the game after that many rounds; those who delivered the most pearls win."},
	},
	Times:       []game.TimeKind{game.TurnTimer, game.Bank, game.Correspondence},
	DefaultTime: defaultTime,
	New:         newState,
	ParseState:  func(text string) (game.State, error) { return ParseState(text) },
}

// SandTimer is the rulebook's sand timer as a time rule: 30 seconds a
// turn, what a turn leaves passing to the next on top of a fresh glass.
var SandTimer = game.TimeRule{Kind: game.TurnTimer, Turn: 30 * time.Second, Carry: true}

// defaultTime is the sand timer for a table that plays with it; the solo
// puzzle, counted in moves, and the variant without it keep no time.
func defaultTime(players int, opts map[string]string) game.TimeRule {
	if players < 2 || opts["timer"] == "off" {
		return game.TimeRule{}
	}
	return SandTimer
}

// optionsOf reads the contract's options, checked by Rules.CheckOptions.
func optionsOf(opts map[string]string) (options, error) {
	var o options
	b, err := BoardFromText(opts["board"])
	if err != nil {
		return o, fmt.Errorf("option board: %w", err)
	}
	o.Board = b
	o.MaxAboard, _ = strconv.Atoi(opts["raft"])
	o.Deal = opts["deal"] == "players"
	o.NoTimer = opts["timer"] == "off"
	o.Open = opts["open"] == "on"
	o.Limit, _ = strconv.Atoi(opts["limit"])
	o.Puzzle, _ = strconv.Atoi(opts["puzzle"])
	return o, nil
}

// New sets a game up as the contract's setup says, its options checked
// and their defaults filled (Rules.CheckOptions), with a solo game's par.
// It is what Rules.NewGame makes, as the engine's type.
func New(s game.Setup) (*State, error) {
	o, err := optionsOf(s.Options)
	if err != nil {
		return nil, err
	}
	st, err := newGame(s.Players, o, s.Seed)
	if err != nil {
		return nil, err
	}
	if st.Solo() {
		// The puzzle's par, once, when the game is set up.
		if par, ok := SoloPar(st, parBudget); ok {
			st.par = int16(par)
		}
	}
	return st, nil
}

func newState(s game.Setup) (game.State, error) {
	st, err := New(s)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// parBudget bounds the search for a solo game's par, and so the time a
// solo game of a board of one's own may take to set up (about a second);
// every puzzle of the original boards tested needs less.
const parBudget = 200000
