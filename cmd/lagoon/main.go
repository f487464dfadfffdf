// Command lagoon is the one Lagoon binary: with no arguments it serves the
// games in the browser; its subcommands are the tools around them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// A command runs one subcommand with its arguments (after the name) and
// returns its exit status.
type command struct {
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
	summary string
}

func commands() map[string]command {
	return map[string]command{
		"rules":    {runRules, "check positions and moves in the text notation, one per line"},
		"loadtest": {runLoadtest, "play many games at once against a running server and measure it"},
		"serve":    {runServe, "serve the games in the browser, with the API and live play (the default)"},
		"arena":    {runArena, "play many games between bots and report who is stronger"},
		"bot":      {runBot, "play a bot over the external bot protocol, a state a line in, a move out"},
		"boards":   {runBoards, "check board files of one's own (lagoon boards check FILE)"},
		"backup":   {runBackup, "take a consistent copy of the games of a data directory, beside its running server"},
		"store":    {runStore, "copy every game between stores, a data directory or PostgreSQL (lagoon store copy -from X -to Y)"},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help":
			usage(stdout, cmds)
			return 0
		case "help":
			// help <command> is <command> -h.
			if len(args) > 1 {
				c, ok := cmds[args[1]]
				if !ok {
					fmt.Fprintf(stderr, "lagoon help: unknown command %q\n", args[1])
					usage(stderr, cmds)
					return 2
				}
				return c.run([]string{"-h"}, stdin, stdout, stderr)
			}
			usage(stdout, cmds)
			return 0
		}
	}
	name := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	c, ok := cmds[name]
	if !ok {
		fmt.Fprintf(stderr, "lagoon: unknown command %q\n", name)
		usage(stderr, cmds)
		return 2
	}
	return c.run(args, stdin, stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: lagoon [command] [flags]")
	fmt.Fprintln(w, "\nWith no command, lagoon serves the games (lagoon serve).\n\nCommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'lagoon <command> -h' or 'lagoon help <command>' for a command's flags.")
	fs, _, _ := serveFlags(&serveOptions{})
	fmt.Fprintln(w, "\nServing (with no command or with serve), the flags most often given:")
	for _, name := range []string{"addr", "data"} {
		f := fs.Lookup(name)
		fmt.Fprintf(w, "  -%-9s %s (default %s)\n", f.Name, f.Usage, f.DefValue)
	}
	fmt.Fprintln(w, "and the server's limits, bots and metrics: 'lagoon serve -h'.")
}

// parseFlags parses a subcommand's flags, printing errors and usage to
// stderr. It returns the exit status to use and false when the command should
// stop (help asked for, or bad flags).
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}
