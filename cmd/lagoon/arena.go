package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/arena"
	"github.com/lagoon-games/lagoon/bluelagoon"
)

// runArena plays a tournament between bots and reports their strength.
func runArena(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	players := fs.Int("players", 0, "players a game, 2 to 4 (default: one per bot given)")
	games := fs.Int("games", 100, "games to play, rounded up to whole deals played in every seat rotation")
	board := fs.String("board", "standard", "board: "+strings.Join(bluelagoon.BoardNames(), ", "))
	seed := fs.Uint64("seed", 1, "seed of the first deal")
	parallel := fs.Int("parallel", 0, "games played at once (default: one per core)")
	timeout := fs.Duration("timeout", 10*time.Second, "time an external bot may take for a move")
	asJSON := fs.Bool("json", false, "write the report and every game's record as JSON")
	quiet := fs.Bool("q", false, "no progress bar")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `usage: lagoon arena [flags] bot bot [bot bot]

Plays games between bots, one bot per seat, and reports who is stronger.
Every deal is played in every rotation of the bots around the seats.
A bot is one of: %s,
or extern:"<command>", a program speaking the protocol of docs/bot-protocol.md.

Example: lagoon arena -players 2 -games 400 -board standard mcts:1s greedy

`, strings.Join(ai.Specs(), ", "))
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	bots := fs.Args()
	if *players == 0 {
		*players = len(bots)
	}
	if len(bots) != *players {
		fmt.Fprintf(stderr, "lagoon arena: %d players need %d bots, one per seat; got %d\n", *players, *players, len(bots))
		return 2
	}
	b, err := bluelagoon.BoardByName(*board)
	if err != nil {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := arena.Config{
		Board: b, Bots: bots, Games: *games, Seed: *seed,
		Parallel: *parallel, MoveTimeout: *timeout,
	}
	start := time.Now()
	if !*quiet {
		bar := &progressBar{w: stderr, start: start}
		cfg.Progress = bar.update
	}
	played, err := arena.Run(ctx, cfg)
	if err != nil && len(played) == 0 {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "lagoon arena: %v; reporting the %d games finished\n", err, len(played))
	}
	st := arena.Summarise(bots, played)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report{
			Board: *board, Players: *players, Seed: *seed, Bots: bots,
			Seconds: time.Since(start).Seconds(), Standings: st, Games: played,
		}); err != nil {
			fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stdout, "%d games, %d players, board %s, deals from seed %d, each in %d seat orders, %v\n\n",
		len(played), *players, *board, *seed, *players, time.Since(start).Round(time.Second))
	if err := arena.WriteTable(stdout, st, played); err != nil {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 1
	}
	return 0
}

// report is the JSON form of a tournament.
type report struct {
	Board     string           `json:"board"`
	Players   int              `json:"players"`
	Seed      uint64           `json:"seed"`
	Bots      []string         `json:"bots"`
	Seconds   float64          `json:"seconds"`
	Standings []arena.Standing `json:"standings"`
	Games     []arena.Game     `json:"games"`
}

// progressBar draws the tournament's progress and the time left on one line.
type progressBar struct {
	w     io.Writer
	start time.Time
	last  time.Time
}

const barWidth = 30

func (p *progressBar) update(done, total int) {
	now := time.Now()
	if done < total && now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	filled := barWidth * done / total
	elapsed := now.Sub(p.start)
	left := time.Duration(float64(elapsed) / float64(done) * float64(total-done))
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d games, %v elapsed, %v left ",
		strings.Repeat("=", filled), strings.Repeat(" ", barWidth-filled),
		done, total, elapsed.Round(time.Second), left.Round(time.Second))
	if done == total {
		fmt.Fprintln(p.w)
	}
}
