package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/laguna"
)

// boardCheckers check a user's board file, by game: the game's own reader,
// which refuses a board the game cannot be played on and says why.
var boardCheckers = map[string]func(text string) error{
	laguna.Rules.ID: func(text string) error {
		_, err := laguna.ParseBoard(text)
		return err
	},
	bluelagoon.Rules.ID: func(text string) error {
		_, err := bluelagoon.ParseBoard(strings.TrimSpace(text))
		return err
	},
}

// runBoards checks board files before they are offered to a table: Laguna's
// by its checker (fair and playable: every island reaches the volcano and
// every other island, no trap, no current loop a raft cannot leave), Blue
// Lagoon's by its notation's reader.
func runBoards(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("boards", flag.ContinueOnError)
	gameID := fs.String("game", "", "the game the boards are for: laguna or bluelagoon (default: told by each file, a Blue Lagoon board starting \"a \")")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: lagoon boards check [-game laguna|bluelagoon] FILE...

Checks board files of one's own, as a table would load them ("-" reads
standard input): a Laguna board (24 lines of 24 squares, docs/laguna.md)
with Laguna's checker, which proves it fair and playable or gives every
reason it is not; a Blue Lagoon board (a state in the notation starting
"a ", docs/rules.md) with its reader. Each file gets a line "FILE: ok" or
its reasons; the exit status is 0 if every board is good, 1 if one is not,
2 for a mistake in the arguments.

`)
		fs.PrintDefaults()
	}
	fs.SetOutput(stderr)
	if len(args) == 0 || args[0] != "check" {
		fs.Usage()
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			return 0
		}
		return 2
	}
	if code, ok := parseFlags(fs, args[1:], stderr); !ok {
		return code
	}
	if *gameID != "" && boardCheckers[*gameID] == nil {
		fmt.Fprintf(stderr, "lagoon boards: -game %q: boards are checked for laguna and bluelagoon\n", *gameID)
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "lagoon boards check: no file given")
		return 2
	}
	status := 0
	for _, name := range fs.Args() {
		if err := checkBoardFile(name, *gameID, stdin); err != nil {
			fmt.Fprintf(stdout, "%s: %s\n", name, strings.ReplaceAll(err.Error(), "\n", "\n  "))
			status = 1
			continue
		}
		fmt.Fprintf(stdout, "%s: ok\n", name)
	}
	return status
}

// checkBoardFile reads a board file ("-": stdin) and checks it for the
// game given, or for the game its text is of.
func checkBoardFile(name, gameID string, stdin io.Reader) error {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return err
	}
	text := string(data)
	if gameID == "" {
		gameID = laguna.Rules.ID
		if strings.HasPrefix(strings.TrimSpace(text), "a ") {
			gameID = bluelagoon.Rules.ID
		}
	}
	if err := boardCheckers[gameID](text); err != nil {
		return fmt.Errorf("not a good board of %s:\n%w", gameID, err)
	}
	return nil
}
