package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

const gameRulesUsage = `
With -game, any game's notation through the contract (lagoon rules -game ID VERB):

  moves   state -> JSON array of the legal moves of the seat to decide
  score   state -> JSON object: phase, scores, winners, teams
  apply   state<TAB>move -> the state after the move
  over    state -> true or false: is the game over
  check   state -> ok, or the error
  show    state -> the game's text picture (or its view as JSON), then a
          line "end"
  new     prints an initial state: -players N -seed N -option key=value...
`

// runGameRules is lagoon rules for a game other than Blue Lagoon, whose
// verbs keep their own forms: everything goes through the game contract.
func runGameRules(r *game.Rules, verb string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lagoon rules -game "+r.ID+" "+verb, flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(stderr, rulesUsage+gameRulesUsage) }
	players := fs.Int("players", r.MinPlayers, "new: number of players")
	seed := fs.Uint64("seed", 0, "new: the game's seed")
	options := optionFlags{}
	fs.Var(options, "option", "new: an option of the game, key=value (repeat the flag for several)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lagoon rules %s: unexpected argument %q\n", verb, fs.Arg(0))
		return 2
	}
	if verb == "new" {
		st, err := r.NewGame(game.Setup{Players: *players, Options: options, Seed: *seed})
		if err != nil {
			fmt.Fprintf(stderr, "lagoon rules new: %v\n", err)
			return 2
		}
		fmt.Fprintln(stdout, st.String())
		return 0
	}
	parse := func(line string) (game.State, error) {
		if line == "" {
			return nil, errors.New("empty line: expected a state")
		}
		return r.ParseState(line)
	}
	var each func(line string) (string, error)
	failed := func(err error) string { return "error: " + err.Error() }
	switch verb {
	case "moves":
		failed = jsonError
		each = func(line string) (string, error) {
			st, err := parse(line)
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
	case "score":
		failed = jsonError
		each = func(line string) (string, error) {
			st, err := parse(line)
			if err != nil {
				return "", err
			}
			s := st.Standing()
			b, err := json.Marshal(map[string]any{"phase": s.Phase, "scores": s.Scores, "winners": nonNil(s.Winners), "teams": s.Teams})
			return string(b), err
		}
	case "apply":
		each = func(line string) (string, error) {
			state, move, ok := strings.Cut(line, "\t")
			if !ok {
				return "", errors.New("expected a state, a tab, and a move")
			}
			st, err := parse(state)
			if err != nil {
				return "", err
			}
			if err := game.PlayText(st, move); err != nil {
				return "", err
			}
			return st.String(), nil
		}
	case "over":
		each = func(line string) (string, error) {
			st, err := parse(line)
			if err != nil {
				return "", err
			}
			return fmt.Sprint(st.Over()), nil
		}
	case "check":
		each = func(line string) (string, error) {
			if _, err := parse(line); err != nil {
				return "", err
			}
			return "ok", nil
		}
	case "show":
		failed = func(err error) string { return "error: " + err.Error() + "\n" + showEnd }
		each = func(line string) (string, error) {
			st, err := parse(line)
			if err != nil {
				return "", err
			}
			return picture(st) + showEnd, nil
		}
	default:
		fmt.Fprintf(stderr, "lagoon rules: unknown verb %q\n", verb)
		fmt.Fprint(stderr, rulesUsage+gameRulesUsage)
		return 2
	}
	return eachLine(stdin, stdout, stderr, each, failed)
}

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
