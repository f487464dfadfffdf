package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// runBoards checks board files before they are offered to a table, each
// by its game's checker (the hosted games' board).
func runBoards(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("boards", flag.ContinueOnError)
	ids := boardGameIDs()
	gameID := fs.String("game", "", "the game the boards are for: "+strings.Join(ids, " or ")+" (default: told by each file, a Blue Lagoon board starting \"a \")")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `usage: lagoon boards check [-game %s] FILE...

Checks board files of one's own, as a table would load them ("-" reads
standard input): a Laguna board (24 lines of 24 squares, docs/laguna.md)
with Laguna's checker, which proves it fair and playable or gives every
reason it is not; a Blue Lagoon board (a state in the notation starting
"a ", docs/rules.md) with its reader. Each file gets a line "FILE: ok" or
its reasons; the exit status is 0 if every board is good, 1 if one is not,
2 for a mistake in the arguments.

`, strings.Join(ids, "|"))
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
	if *gameID != "" && !slices.Contains(ids, *gameID) {
		fmt.Fprintf(stderr, "lagoon boards: -game %q: boards are checked for %s\n", *gameID, strings.Join(ids, " and "))
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
	h := boardGame(gameID, text)
	if err := h.board(text); err != nil {
		return fmt.Errorf("not a good board of %s:\n%w", h.rules.ID, err)
	}
	return nil
}

// boardGameIDs returns the ids of the hosted games that take board files.
func boardGameIDs() []string {
	var ids []string
	for _, h := range hosted {
		if h.board != nil {
			ids = append(ids, h.rules.ID)
		}
	}
	return ids
}

// boardGame returns the hosted game whose board text is: the game of id
// if given (one of boardGameIDs), else the game whose board files begin as
// text does, else the one whose head is "".
func boardGame(id, text string) *hostedGame {
	var fallback *hostedGame
	for i := range hosted {
		h := &hosted[i]
		switch {
		case h.board == nil:
		case id != "":
			if h.rules.ID == id {
				return h
			}
		case h.boardHead == "":
			fallback = h
		case strings.HasPrefix(strings.TrimSpace(text), h.boardHead):
			return h
		}
	}
	return fallback
}
