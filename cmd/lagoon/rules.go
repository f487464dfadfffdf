package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// maxLine bounds one input line of lagoon rules; the largest boards' states
// are a few kilobytes.
const maxLine = 1 << 20

const rulesUsage = `usage: lagoon rules [-game ID] <verb> [flags] < input > output

Batch tool over the text notation: one input per line on standard input, one
output line per input line, in order (show: one picture per line). Each
answer is written as soon as no more input is waiting, so a program may
write a line and wait for its answer. A line that fails gets an error on its
own output line, processing goes on, and the exit status is 1.

  moves   state -> JSON array of the current player's legal moves
  score   state -> JSON object of score components, one number per player
  apply   state<TAB>move -> the state after the move (-seed N seeds the next
          phase's token layout; a state in the notation has no generator,
          so this is not the layout the game 'new -seed N' began would get:
          replay a game's record for that)
  over    state -> true or false: is the current phase over
  check   state -> ok, or the error
  show    state -> a text picture of the board, then a line "end" (an
          error line, too, is followed by a line "end")
  new     prints an initial state: -board standard -players 2 -seed 0 -first 0
`

func runRules(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "help" {
		fmt.Fprint(stderr, rulesUsage+gameRulesUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	// lagoon rules [-game ID] VERB [flags]: Blue Lagoon's verbs keep their
	// own forms; any other game goes through the contract.
	top := flag.NewFlagSet("lagoon rules", flag.ContinueOnError)
	top.Usage = func() { fmt.Fprint(stderr, rulesUsage+gameRulesUsage) }
	gameID := top.String("game", hosted[0].rules.ID, "the game whose notation is read")
	if code, ok := parseFlags(top, args, stderr); !ok {
		return code
	}
	if top.NArg() == 0 {
		fmt.Fprintln(stderr, "lagoon rules: a verb is needed")
		fmt.Fprint(stderr, rulesUsage+gameRulesUsage)
		return 2
	}
	verb, args := top.Arg(0), top.Args()[1:]
	reg, err := registry()
	if err != nil {
		fmt.Fprintf(stderr, "lagoon rules: %v\n", err)
		return 1
	}
	rules, err := reg.Get(*gameID)
	if err != nil {
		fmt.Fprintf(stderr, "lagoon rules: %v\n", err)
		return 2
	}
	if rules != bluelagoon.Rules {
		return runGameRules(rules, verb, args, stdin, stdout, stderr)
	}
	fs := flag.NewFlagSet("lagoon rules "+verb, flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(stderr, rulesUsage) }
	if verb == "new" {
		return rulesNew(fs, args, stdout, stderr)
	}
	seed := fs.Uint64("seed", 0, "apply: seed of the generator that lays out the next phase's tokens")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lagoon rules %s: unexpected argument %q\n", verb, fs.Arg(0))
		return 2
	}
	var each func(line string) (string, error)
	failed := func(err error) string { return "error: " + err.Error() }
	ls := &lineStates{}
	switch verb {
	case "moves":
		each, failed = ls.moves, jsonError
	case "score":
		each, failed = ls.score, jsonError
	case "apply":
		each = func(line string) (string, error) { return ls.apply(line, *seed) }
	case "over":
		each = ls.over
	case "check":
		each = ls.check
	case "show":
		// A picture ends with a line "end", and so does an error, so that
		// the output splits into one part per input line.
		each, failed = ls.show, func(err error) string { return "error: " + err.Error() + "\n" + showEnd }
	default:
		fmt.Fprintf(stderr, "lagoon rules: unknown verb %q\n", verb)
		fmt.Fprint(stderr, rulesUsage)
		return 2
	}
	return eachLine(stdin, stdout, stderr, each, failed)
}

func jsonError(err error) string {
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	return string(b)
}

// errTooLong is the error of an input line longer than maxLine.
var errTooLong = fmt.Errorf("line longer than %d bytes", maxLine)

// eachLine runs each on every input line and writes one output per line;
// failed writes the output of a line that failed, a line too long among
// them.
func eachLine(stdin io.Reader, stdout, stderr io.Writer, each func(string) (string, error), failed func(error) string) int {
	in := bufio.NewReaderSize(stdin, 64*1024)
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	status := 0
	for {
		line, err := readLine(in)
		if err == io.EOF {
			return status
		}
		if err != nil && err != errTooLong {
			out.Flush()
			fmt.Fprintf(stderr, "lagoon rules: reading input: %v\n", err)
			return 1
		}
		res := ""
		if err == nil {
			res, err = each(line)
		}
		if err != nil {
			status = 1
			res = failed(err)
		}
		out.WriteString(res)
		out.WriteByte('\n')
		// Each answer leaves as soon as no more input is waiting, so that
		// a program that writes a line and waits for its answer gets it.
		if in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				fmt.Fprintf(stderr, "lagoon rules: writing output: %v\n", err)
				return 1
			}
		}
	}
}

// readLine reads one line, without its line end. A line longer than
// maxLine is read to its end and dropped with errTooLong; at the end of the
// input readLine returns io.EOF.
func readLine(in *bufio.Reader) (string, error) {
	var line []byte
	n := 0
	for {
		chunk, err := in.ReadSlice('\n')
		n += len(chunk)
		if n <= maxLine+2 { // room for "\r\n"
			line = append(line, chunk...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && n == 0:
			return "", io.EOF
		case err != nil && err != io.EOF:
			return "", err
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
		if n > maxLine+2 || len(text) > maxLine {
			return "", errTooLong
		}
		return text, nil
	}
}

// lineStates reads the states of one run of lagoon rules, building each
// board once however many states are on it.
type lineStates struct {
	reader bluelagoon.StateReader
}

func (ls *lineStates) parse(line string) (*bluelagoon.Game, error) {
	if line == "" {
		return nil, errors.New("empty line: expected a state")
	}
	return ls.reader.Read(line)
}

func (ls *lineStates) moves(line string) (string, error) {
	g, err := ls.parse(line)
	if err != nil {
		return "", err
	}
	moves := make([]string, 0, g.NumLegalMoves())
	for _, m := range g.LegalMoves() {
		moves = append(moves, m.String())
	}
	b, err := json.Marshal(moves)
	return string(b), err
}

// scoreColumns is the output of lagoon rules score: one array per
// component, one number per player, in this order.
type scoreColumns struct {
	Islands    []int `json:"islands"`
	Links      []int `json:"links"`
	Majorities []int `json:"majorities"`
	Resources  []int `json:"resources"`
	Set        []int `json:"set"`
	Statuettes []int `json:"statuettes"`
	Total      []int `json:"total"`
}

func (ls *lineStates) score(line string) (string, error) {
	g, err := ls.parse(line)
	if err != nil {
		return "", err
	}
	var c scoreColumns
	scores := g.Scores()
	for _, s := range scores[:g.Players()] {
		c.Islands = append(c.Islands, s.Islands)
		c.Links = append(c.Links, s.Links)
		c.Majorities = append(c.Majorities, s.Majorities)
		c.Resources = append(c.Resources, s.Resources)
		c.Set = append(c.Set, s.Set)
		c.Statuettes = append(c.Statuettes, s.Statuettes)
		c.Total = append(c.Total, s.Total)
	}
	b, err := json.Marshal(c)
	return string(b), err
}

func (ls *lineStates) apply(line string, seed uint64) (string, error) {
	state, move, ok := strings.Cut(line, "\t")
	if !ok {
		return "", errors.New("expected a state, a tab, and a move")
	}
	g, err := ls.parse(state)
	if err != nil {
		return "", err
	}
	m, err := bluelagoon.ParseMove(move)
	if err != nil {
		return "", fmt.Errorf("parse move: %w", err)
	}
	g.Reseed(seed)
	if err := g.Apply(m); err != nil {
		return "", err
	}
	return g.String(), nil
}

func (ls *lineStates) over(line string) (string, error) {
	g, err := ls.parse(line)
	if err != nil {
		return "", err
	}
	return fmt.Sprint(g.PhaseOver()), nil
}

func (ls *lineStates) check(line string) (string, error) {
	if _, err := ls.parse(line); err != nil {
		return "", err
	}
	return "ok", nil
}

func (ls *lineStates) show(line string) (string, error) {
	g, err := ls.parse(line)
	if err != nil {
		return "", err
	}
	return drawState(g) + showEnd, nil
}

// showEnd is the line that ends each answer of lagoon rules show.
const showEnd = "end"

func rulesNew(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	board := fs.String("board", "standard", "a built-in board ("+strings.Join(bluelagoon.BoardNames(), ", ")+") or a file holding a board in the notation")
	players := fs.Int("players", 2, "number of players, 2 to 4")
	seed := fs.Uint64("seed", 0, "seed of the token layouts")
	first := fs.Int("first", 0, "seat that moves first")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lagoon rules new: unexpected argument %q (a board is given with -board)\n", fs.Arg(0))
		return 2
	}
	b, err := loadBoard(*board)
	if err != nil {
		fmt.Fprintf(stderr, "lagoon rules new: %v\n", err)
		return 2
	}
	g, err := bluelagoon.NewGame(bluelagoon.Setup{Board: b, Players: *players, Seed: *seed, First: *first})
	if err != nil {
		fmt.Fprintf(stderr, "lagoon rules new: %v\n", err)
		return 2
	}
	fmt.Fprintln(stdout, g.String())
	return 0
}

// loadBoard returns a built-in board by name, or reads one from a file.
func loadBoard(name string) (*bluelagoon.Board, error) {
	if b, err := bluelagoon.BoardByName(name); err == nil {
		return b, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("board %q is neither a built-in board (%s) nor a readable file: %w", name, strings.Join(bluelagoon.BoardNames(), ", "), err)
	}
	b, err := bluelagoon.ParseBoard(strings.TrimSpace(string(data)))
	if err != nil {
		return nil, fmt.Errorf("board file %s: %w", name, err)
	}
	return b, nil
}
