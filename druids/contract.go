package druids

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// Rules is Lagoon: Land of Druids behind the platform's contract. Its
// options are the play set, the starting setup and the first player.
var Rules = &game.Rules{
	ID:         "druids",
	Name:       "Lagoon: Land of Druids",
	MinPlayers: 2,
	MaxPlayers: MaxPlayers,
	Options: []game.Option{
		{
			Key: "set", Label: "Play set", Kind: game.Choice, Default: "regular", Custom: true,
			Choices: []game.OptionChoice{
				{Value: "beginner", Label: "Beginner (tiles 1-21)"},
				{Value: "regular", Label: "Regular (tiles 1-24)"},
				{Value: "advanced", Label: "Advanced (tiles 1-6 and 10-27)"},
				{Value: "all", Label: "All 27 tiles"},
			},
			Help: "The tiles of the game; or your own, as numbers and ranges (1-6,10-27), as many of each group.",
		},
		{
			Key: "start", Label: "Starting sites", Kind: game.Choice, Default: "random", Custom: true,
			Choices: []game.OptionChoice{
				{Value: "random", Label: "Random"},
				{Value: "gruu", Label: "Gruu's Walkabout (1A 14A 21A)"},
				{Value: "paradise", Label: "Floating in Paradise (2B 16B 18B)"},
				{Value: "river", Label: "River of Freedom (5A 15A 19A)"},
			},
			Help: "The three sites the world begins with; or your own three (as 1A 14A 21A): one haven, one of each energy.",
		},
		{
			Key: "aj", Label: "AJ, the solo opponent", Kind: game.Choice, Default: "none",
			Choices: []game.OptionChoice{
				{Value: "none", Label: "No AJ"},
				{Value: "initiate", Label: "AJ: Initiate"},
				{Value: "acolyte", Label: "AJ: Acolyte"},
				{Value: "adept", Label: "AJ: Adept"},
				{Value: "eldrid", Label: "AJ: Eldrid"},
				{Value: "legend", Label: "AJ: Legend"},
			},
			Help:    "Play alone against AJ, the rulebook's solo opponent, at a level: two seats, AJ in seat 2, you first.",
			Players: []int{2},
		},
		{
			Key: "aj_plays", Label: "AJ's ties", Kind: game.Choice, Default: "arbitrary",
			Choices: []game.OptionChoice{
				{Value: "arbitrary", Label: "Arbitrary (by the dice)"},
				{Value: "shrewd", Label: "Shrewd (best for AJ)"},
			},
			Help:    "Where the solo rules leave AJ a choice: chance, or the play best for his position (the rulebook's harder option).",
			Players: []int{2},
		},
		{
			Key: "first", Label: "First player", Kind: game.Choice, Default: "0",
			Choices: []game.OptionChoice{{Value: "0", Label: "Seat 1"}, {Value: "1", Label: "Seat 2"}, {Value: "2", Label: "Seat 3"}, {Value: "3", Label: "Seat 4"}},
			Help:    "The seat that takes the first turn.",
		},
	},
	Times:      []game.TimeKind{game.Bank, game.Correspondence},
	House:      houseSeats,
	New:        newState,
	ParseState: func(text string) (game.State, error) { return ParseState(text) },
}

// houseSeats is the seat the engine plays itself: AJ's, in a game against
// him, named with his level.
func houseSeats(s game.Setup) []game.HouseSeat {
	level := s.Options["aj"]
	if level == "" || level == "none" {
		return nil
	}
	return []game.HouseSeat{{Seat: ajSeat, Name: "AJ (" + strings.ToUpper(level[:1]) + level[1:] + ")"}}
}

// configOf turns the contract's setup into the engine's.
func configOf(s game.Setup) (config, error) {
	cfg := config{Players: s.Players, Seed: s.Seed}
	set := s.Options["set"]
	if set == "" {
		set = "regular"
	}
	tiles, err := ParseSet(set)
	if err != nil {
		return cfg, err
	}
	cfg.Set = tiles
	start := s.Options["start"]
	if start == "" {
		start = "random"
	}
	if cfg.Start, err = ParseStart(start); err != nil {
		return cfg, err
	}
	if f, ok := s.Options["first"]; ok {
		if cfg.First, err = strconv.Atoi(f); err != nil {
			return cfg, err
		}
	}
	if level, ok := s.Options["aj"]; ok && level != "none" {
		cfg.AJ = indexOf(AJLevels[:], level)
		if cfg.AJ < 0 {
			return cfg, fmt.Errorf("option aj: %q is not a level", level)
		}
		cfg.AJShrewd = s.Options["aj_plays"] == "shrewd"
	} else if ties := s.Options["aj_plays"]; ties != "" && ties != "arbitrary" {
		return cfg, fmt.Errorf("option aj_plays: %q settles AJ's ties, and the game has no AJ (option aj)", ties)
	}
	return cfg, nil
}

// New sets a game up as the contract's setup says, its options checked
// and their defaults filled (Rules.CheckOptions). It is what Rules.NewGame
// makes, as the engine's type.
func New(s game.Setup) (*State, error) {
	cfg, err := configOf(s)
	if err != nil {
		return nil, err
	}
	return newGame(cfg)
}

func newState(s game.Setup) (game.State, error) {
	st, err := New(s)
	if err != nil {
		return nil, err
	}
	return st, nil
}

var _ game.State = (*State)(nil)

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// CopyFrom makes s a copy of src, which must be a *State.
func (s *State) CopyFrom(src game.State) { *s = *src.(*State) }

// Resample draws the bag's order anew: the generator is reseeded. What is
// in the bag is known to every seat; only the order of the draws is not.
func (s *State) Resample(_ int, r *rand.Rand) { s.rng.Seed(r.Uint64(), r.Uint64()) }

// Secret reports whether tiles remain in the bag: the seed decides the
// order they come out in.
func (s *State) Secret() bool { return s.bag != 0 && !s.Over() }

// Revealed counts the draws of the game's chance (game.Revealer): a tile
// out of the bag, which its player sees at once, and, in a game against
// AJ, the token and the picks that make his turn, which everyone sees.
// Each is a draw the generator made and shown, so no take-back goes back
// past it. A draw from a bag of one tile is counted too, though the seed
// decided nothing there: counting more than is shown only refuses a
// take-back that could have been allowed.
func (s *State) Revealed() int { return int(s.revealed) }

// TimeUp returns false: the game keeps no turn timer.
func (s *State) TimeUp() (game.Move, bool) { return 0, false }
