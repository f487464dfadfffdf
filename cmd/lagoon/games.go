package main

import (
	"strings"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/bluelagoon"
	blbots "github.com/lagoon-games/lagoon/bluelagoon/bots"
	"github.com/lagoon-games/lagoon/druids"
	druidsbots "github.com/lagoon-games/lagoon/druids/bots"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
	lagunabots "github.com/lagoon-games/lagoon/laguna/bots"
)

// hosted are the games of the binary, the first the default: the one list
// of games that every command reads (lagoon serve hosts them, lagoon rules
// reads their notation, lagoon arena and lagoon bot play their bots, lagoon
// boards checks their boards, lagoon loadtest plays them). Adding a game
// is a line here. The tests add the tiny test game.
var hosted = []hostedGame{
	{rules: bluelagoon.Rules, kit: blbots.Kit(), board: checkBlueLagoonBoard, boardHead: "a "},
	{rules: druids.Rules, kit: druidsbots.Kit()},
	{rules: laguna.Rules, kit: lagunabots.Kit(), board: checkLagunaBoard,
		// Random play does not finish a game of Laguna: rafts drift for
		// tens of thousands of moves before a pearl reaches the volcano,
		// and what is measured is a raft's step.
		load: loadDefaults{moves: 200, measure: strings.Join(laguna.DirNames[:], " ")}},
}

// checkBlueLagoonBoard checks a board in Blue Lagoon's notation (a state,
// docs/rules.md) with its reader.
func checkBlueLagoonBoard(text string) error {
	_, err := bluelagoon.ParseBoard(strings.TrimSpace(text))
	return err
}

// checkLagunaBoard checks a Laguna board with Laguna's checker, which
// proves it fair and playable or gives every reason it is not.
func checkLagunaBoard(text string) error {
	_, err := laguna.ParseBoard(text)
	return err
}

// A hostedGame is one game of the binary: its rules, what its bots package
// brings (ai.Kit), and what the tools need of it beyond the contract.
type hostedGame struct {
	rules *game.Rules
	kit   ai.Kit
	// board checks a board file of one's own, as a table would load it,
	// saying every reason it cannot be played on; nil for a game without
	// board files.
	board func(text string) error
	// boardHead is how a board file of the game begins, which tells its
	// game when lagoon boards is not told it; "" for the game whose board
	// files are taken when no other game's head is found.
	boardHead string
	// load is what lagoon loadtest plays by default where random play
	// does not finish a game.
	load loadDefaults
}

// loadDefaults are lagoon loadtest's defaults for a game: how many moves
// each game plays (0: to its end) and the moves whose latency is measured
// (empty: every move).
type loadDefaults struct {
	moves   int
	measure string
}

// bots returns the game as the bots play it.
func (h *hostedGame) bots() *ai.Game { return &ai.Game{Rules: h.rules, Kit: h.kit} }

// registry returns the rules of the hosted games.
func registry() (*game.Registry, error) {
	rules := make([]*game.Rules, len(hosted))
	for i := range hosted {
		rules[i] = hosted[i].rules
	}
	return game.NewRegistry(rules...)
}

// hostedByID returns the hosted game of the given id, or the registry's
// error, which lists them.
func hostedByID(id string) (*hostedGame, error) {
	for i := range hosted {
		if hosted[i].rules.ID == id {
			return &hosted[i], nil
		}
	}
	reg, err := registry()
	if err == nil {
		_, err = reg.Get(id)
	}
	return nil, err
}

// hostedIDs returns the ids of the hosted games.
func hostedIDs() []string {
	ids := make([]string, len(hosted))
	for i := range hosted {
		ids[i] = hosted[i].rules.ID
	}
	return ids
}
