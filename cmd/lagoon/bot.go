package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/extern"
)

// runBot plays one of Lagoon's bots over the external bot protocol
// (docs/bot-protocol.md): a state a line in, a move a line out. It lets other
// tools, and another build of lagoon arena, use the bots as a program.
func runBot(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	// Seated by lagoon arena, the program is told the game in its
	// environment; given -game, it plays that.
	defaultGame := hosted[0].rules.ID
	if id := os.Getenv(extern.GameEnv); id != "" {
		defaultGame = id
	}
	gameID := fs.String("game", defaultGame, "the game played (default: $"+extern.GameEnv+" if set, else "+hosted[0].rules.ID+")")
	seed := fs.Uint64("seed", 1, "seed of the bot's random choices")
	workers := fs.Int("workers", 0, "goroutines a search bot uses (default: one per core); give the arena's in-process bots' number, -workers 1 on two cores, to compare like with like")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `usage: lagoon bot [flags] bot

Plays a bot over the protocol of docs/bot-protocol.md: reads a game state in
the game's text notation, one a line, and answers each with the bot's move.
The games are %s, and their bots:
%s

Example: lagoon arena 'extern:"lagoon bot -workers 1 hard"' greedy

`, strings.Join(hostedIDs(), ", "), botsOfGames())
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if *workers < 0 {
		fmt.Fprintf(stderr, "lagoon bot: -workers %d: want 0 (one per core) or more\n", *workers)
		return 2
	}
	h, err := hostedByID(*gameID)
	if err != nil {
		fmt.Fprintf(stderr, "lagoon bot: %v\n", err)
		return 2
	}
	rules := h.rules
	bot, err := ai.NewWith(h.bots(), fs.Arg(0), ai.Options{Seed: *seed, Workers: *workers})
	if err != nil {
		fmt.Fprintf(stderr, "lagoon bot: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	in := bufio.NewScanner(stdin)
	in.Buffer(nil, 1<<20)
	out := bufio.NewWriter(stdout)
	for line := 1; in.Scan(); line++ {
		st, err := rules.ParseState(strings.TrimSuffix(in.Text(), "\r"))
		if err != nil {
			fmt.Fprintf(stderr, "lagoon bot: line %d: %v\n", line, err)
			return 1
		}
		m, err := bot.Move(ctx, st)
		if err != nil {
			fmt.Fprintf(stderr, "lagoon bot: line %d: %v\n", line, err)
			return 1
		}
		fmt.Fprintln(out, st.MoveText(m))
		if err := out.Flush(); err != nil {
			fmt.Fprintf(stderr, "lagoon bot: %v\n", err)
			return 1
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(stderr, "lagoon bot: %v\n", err)
		return 1
	}
	return 0
}
