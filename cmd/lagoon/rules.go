package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// maxLine bounds one input line of lagoon rules; the largest boards' states
// are a few kilobytes.
const maxLine = 1 << 20

const rulesUsage = `usage: lagoon rules [-game ID] <verb> [flags] < input > output

Batch tool over the games' text notations (-game: the game, Blue Lagoon by
default): one input per line on standard input, one output line per input
line, in order (show: one picture per line). Each answer is written as soon
as no more input is waiting, so a program may write a line and wait for its
answer. A line that fails gets an error on its own output line, processing
goes on, and the exit status is 1.

  moves   state -> JSON array of the legal moves of the seat to decide
  score   state -> JSON object: a game's own score sheet where it has one
          (Blue Lagoon's score components, one number per player), else
          its standing: phase, scores, winners, teams
  apply   state<TAB>move -> the state after the move (a game whose notation
          leaves its generator out, as Blue Lagoon's does, draws what the
          move brings from -seed N: not what the game 'new -seed N' began
          would get; replay a game's record for that)
  over    state -> true or false: is the game over (Blue Lagoon: is the
          current phase over)
  check   state -> ok, or the error
  show    state -> the game's text picture (or its view as JSON), then a
          line "end" (an error line, too, is followed by a line "end")
  new     prints an initial state: -players N -seed N -option key=value...,
          -board NAME|FILE and -first SEAT for those options
`

func runRules(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "help" {
		fmt.Fprint(stderr, rulesUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	top := flag.NewFlagSet("lagoon rules", flag.ContinueOnError)
	top.Usage = func() { fmt.Fprint(stderr, rulesUsage) }
	gameID := top.String("game", hosted[0].rules.ID, "the game whose notation is read")
	if code, ok := parseFlags(top, args, stderr); !ok {
		return code
	}
	if top.NArg() == 0 {
		fmt.Fprintln(stderr, "lagoon rules: a verb is needed")
		fmt.Fprint(stderr, rulesUsage)
		return 2
	}
	h, err := hostedByID(*gameID)
	if err != nil {
		fmt.Fprintf(stderr, "lagoon rules: %v\n", err)
		return 2
	}
	verb, args := top.Arg(0), top.Args()[1:]
	fs := flag.NewFlagSet("lagoon rules "+verb, flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(stderr, rulesUsage) }
	if verb == "new" {
		return rulesNew(h.rules, fs, args, stdout, stderr)
	}
	seed := fs.Uint64("seed", 0, "apply: seed of the generator that draws what a move brings, for a game whose notation leaves it out")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lagoon rules %s: unexpected argument %q\n", verb, fs.Arg(0))
		return 2
	}
	v, ok := rulesVerbs[verb]
	if !ok {
		fmt.Fprintf(stderr, "lagoon rules: unknown verb %q\n", verb)
		fmt.Fprint(stderr, rulesUsage)
		return 2
	}
	lines := &lineStates{read: h.rules.ParseState, seed: *seed}
	if h.rules.NewReader != nil {
		lines.read = h.rules.NewReader()
	}
	failed := v.failed
	if failed == nil {
		failed = func(err error) string { return "error: " + err.Error() }
	}
	return eachLine(stdin, stdout, stderr, func(line string) (string, error) { return v.each(lines, line) }, failed)
}

// A rulesVerb is what lagoon rules does with each input line for a verb,
// and what it writes for a line that failed (nil: "error: " and the error).
type rulesVerb struct {
	each   func(ls *lineStates, line string) (string, error)
	failed func(error) string
}

// rulesVerbs are the verbs of lagoon rules but new, by name.
var rulesVerbs = map[string]rulesVerb{
	"moves": {(*lineStates).moves, jsonError},
	"score": {(*lineStates).score, jsonError},
	"apply": {each: (*lineStates).apply},
	"over":  {each: (*lineStates).over},
	"check": {each: (*lineStates).check},
	// A picture ends with a line "end", and so does an error, so that the
	// output splits into one part per input line.
	"show": {(*lineStates).show, func(err error) string { return "error: " + err.Error() + "\n" + showEnd }},
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

// What a game's states may offer lagoon rules beyond the contract, for
// verbs whose answers a game defines in its own terms; each is asked of a
// state once, as ai/mcts asks for its optional interfaces.
type (
	// scoreSheet: the score verb answers the game's own sheet (Blue
	// Lagoon's score components) rather than its standing.
	scoreSheet interface{ ScoreSheet() any }
	// phased: the over verb answers whether the current phase is over,
	// where a game's states in the notation stop at a phase's end (Blue
	// Lagoon's, before the next phase's tokens are laid out).
	phased interface{ PhaseOver() bool }
	// reseeder: a state whose notation leaves its generator out takes
	// apply's -seed before the move.
	reseeder interface{ Reseed(seed uint64) }
)

// lineStates reads the states of one run of lagoon rules, with the game's
// reader where it has one (which may keep what it built, Blue Lagoon's
// boards, from one line for the next).
type lineStates struct {
	read func(text string) (game.State, error)
	// seed is apply's -seed.
	seed uint64
}

func (ls *lineStates) parse(line string) (game.State, error) {
	if line == "" {
		return nil, errors.New("empty line: expected a state")
	}
	return ls.read(line)
}

func (ls *lineStates) moves(line string) (string, error) {
	st, err := ls.parse(line)
	if err != nil {
		return "", err
	}
	moves := []string{}
	for _, m := range st.AppendLegal(nil) {
		moves = append(moves, st.MoveText(m))
	}
	b, err := json.Marshal(moves)
	return string(b), err
}

func (ls *lineStates) score(line string) (string, error) {
	st, err := ls.parse(line)
	if err != nil {
		return "", err
	}
	var answer any
	if sheet, ok := st.(scoreSheet); ok {
		answer = sheet.ScoreSheet()
	} else {
		s := st.Standing()
		answer = map[string]any{"phase": s.Phase, "scores": s.Scores, "winners": nonNil(s.Winners), "teams": s.Teams}
	}
	b, err := json.Marshal(answer)
	return string(b), err
}

func (ls *lineStates) apply(line string) (string, error) {
	state, move, ok := strings.Cut(line, "\t")
	if !ok {
		return "", errors.New("expected a state, a tab, and a move")
	}
	st, err := ls.parse(state)
	if err != nil {
		return "", err
	}
	if r, ok := st.(reseeder); ok {
		r.Reseed(ls.seed)
	}
	m, err := st.ParseMove(move)
	if err != nil {
		return "", fmt.Errorf("parse move: %w", err)
	}
	if err := st.Play(m); err != nil {
		return "", err
	}
	return st.String(), nil
}

func (ls *lineStates) over(line string) (string, error) {
	st, err := ls.parse(line)
	if err != nil {
		return "", err
	}
	if p, ok := st.(phased); ok {
		return fmt.Sprint(p.PhaseOver()), nil
	}
	return fmt.Sprint(st.Over()), nil
}

func (ls *lineStates) check(line string) (string, error) {
	if _, err := ls.parse(line); err != nil {
		return "", err
	}
	return "ok", nil
}

func (ls *lineStates) show(line string) (string, error) {
	st, err := ls.parse(line)
	if err != nil {
		return "", err
	}
	return picture(st) + showEnd, nil
}

// showEnd is the line that ends each answer of lagoon rules show.
const showEnd = "end"

// picture draws a state: the game's own text picture when it has one, its
// view for a spectator as JSON otherwise; ended by a line end.
func picture(st game.State) string {
	if p, ok := st.(interface{ Picture() string }); ok {
		return strings.TrimRight(p.Picture(), "\n") + "\n"
	}
	b, err := json.Marshal(st.View(game.Viewer{Seat: game.NoSeat}))
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	return string(b) + "\n"
}

func nonNil(seats []int) []int {
	if seats == nil {
		return []int{}
	}
	return seats
}

// rulesNew prints the initial state of a game set up by the flags.
func rulesNew(r *game.Rules, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	players := fs.Int("players", r.MinPlayers, "number of players")
	seed := fs.Uint64("seed", 0, "the game's seed")
	options := optionFlags{}
	fs.Var(options, "option", "an option of the game, key=value (repeat the flag for several)")
	board := fs.String("board", "", "the option board: a board's name, or a file holding a board in the game's notation")
	first := fs.String("first", "", "the option first: the seat that moves first")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lagoon rules new: unexpected argument %q (options are given with -option key=value, a board with -board)\n", fs.Arg(0))
		return 2
	}
	if *board != "" {
		b, err := boardOption(r, *board)
		if err != nil {
			fmt.Fprintf(stderr, "lagoon rules new: %v\n", err)
			return 2
		}
		options["board"] = b
	}
	if *first != "" {
		options["first"] = *first
	}
	st, err := r.NewGame(game.Setup{Players: *players, Options: options, Seed: *seed})
	if err != nil {
		fmt.Fprintf(stderr, "lagoon rules new: %v\n", err)
		return 2
	}
	fmt.Fprintln(stdout, st.String())
	return 0
}

// boardOption returns the value of the option board that -board names: a
// board's name as it is, or the board held in a file of that name.
func boardOption(r *game.Rules, name string) (string, error) {
	names, _, _ := boardChoices(r)
	if slices.Contains(names, name) {
		return name, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("board %q is neither a board of %s (%s) nor a readable file: %w", name, r.Name, strings.Join(names, ", "), err)
	}
	return strings.TrimSpace(string(data)), nil
}
