package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
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
	timeout := fs.Duration("timeout", 10*time.Second, "time an external bot may take for a move (more than 0)")
	asJSON := fs.Bool("json", false, "write the report and every game's record as JSON")
	quiet := fs.Bool("q", false, "no progress bar")
	merge := fs.Bool("merge", false, "report on earlier runs together: the arguments are files written by -json, not bots")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `usage: lagoon arena [flags] bot bot [bot bot]
       lagoon arena -merge [-json] report.json report.json...

Plays games between bots, one bot per seat, and reports who is stronger.
Every deal is played in every rotation of the bots around the seats.
A bot is one of: %s,
or extern:"<command>", a program speaking the protocol of docs/bot-protocol.md.

Example: lagoon arena -players 2 -games 400 -board standard mcts:1s greedy

Interrupted (Ctrl-C), it reports the deals played in every seat order and
exits with 1; it exits with 1 too when a bot lost every game by forfeit.

Deal k of a run uses seed -seed + k, so a long tournament can be played in
runs over different seeds and reported as one with -merge:

  lagoon arena -json -seed 1 -games 200 mcts:1s greedy > a.json
  lagoon arena -json -seed 101 -games 200 mcts:1s greedy > b.json
  lagoon arena -merge a.json b.json

`, strings.Join(ai.Specs(), ", "))
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *merge {
		var bad []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "merge" && f.Name != "json" && f.Name != "q" {
				bad = append(bad, "-"+f.Name)
			}
		})
		if len(bad) > 0 {
			fmt.Fprintf(stderr, "lagoon arena: %s: the runs being merged already fixed it\n", strings.Join(bad, ", "))
			return 2
		}
		return mergeReports(fs.Args(), *asJSON, stdout, stderr)
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
	if *timeout <= 0 {
		fmt.Fprintf(stderr, "lagoon arena: -timeout %v: an external bot needs some time to answer\n", *timeout)
		return 2
	}
	cfg := arena.Config{
		Board: b, Bots: bots, Games: *games, Seed: *seed,
		Parallel: *parallel, MoveTimeout: *timeout,
	}
	if err := cfg.Check(); err != nil {
		fmt.Fprintf(stderr, "lagoon %v\n", err) // "lagoon arena: ..."
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	if !*quiet {
		bar := &progressBar{w: stderr, start: start}
		cfg.Progress = bar.update
	}
	played, err := arena.Run(ctx, cfg)
	// A run cut short (Ctrl-C) reports the deals played in every seat
	// order, so that what it reports, and a merge of it, stays fair; it
	// exits with 1.
	if err != nil && len(played) == 0 {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 1
	}
	status := 0
	if err != nil {
		whole := wholeDeals(played, *players)
		fmt.Fprintf(stderr, "lagoon arena: %v; reporting the %d games of the deals played in every seat order, leaving out %d\n",
			err, len(whole), len(played)-len(whole))
		if len(whole) == 0 {
			return 1
		}
		played, status = whole, 1
	}
	st := arena.Summarise(bots, played)
	for _, s := range st {
		if s.Forfeits == s.Games {
			fmt.Fprintf(stderr, "lagoon arena: %s lost every game by forfeit; see the reasons below the table\n", s.Bot)
			status = 1
		}
	}
	if *asJSON {
		if code := writeReport(report{
			Board: *board, Players: *players, Seed: *seed, Bots: bots,
			Seconds: time.Since(start).Seconds(), Standings: st, Games: played,
		}, stdout, stderr); code != 0 {
			return code
		}
		return status
	}
	fmt.Fprintf(stdout, "%d games, %d players, board %s, deals from seed %d, each in %d seat orders, %v\n\n",
		len(played), *players, *board, *seed, *players, time.Since(start).Round(time.Second))
	if err := arena.WriteTable(stdout, st, played); err != nil {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 1
	}
	return status
}

// wholeDeals keeps the games of the deals played in all their seat orders,
// one for each of the players.
func wholeDeals(games []arena.Game, players int) []arena.Game {
	count := map[int]int{}
	for _, g := range games {
		count[g.Deal]++
	}
	var whole []arena.Game
	for _, g := range games {
		if count[g.Deal] == players {
			whole = append(whole, g)
		}
	}
	return whole
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

// mergeReports reads the JSON reports of earlier runs and reports on all
// their games together. The runs must be of the same bots, players and
// board, and no deal may be in two of them: its games would count twice.
func mergeReports(files []string, asJSON bool, stdout, stderr io.Writer) int {
	if len(files) == 0 {
		fmt.Fprintln(stderr, "lagoon arena -merge: no reports given")
		return 2
	}
	var all report
	from := map[uint64]int{} // deal seed -> the file it came from
	for i, name := range files {
		r, err := readReport(name)
		if err != nil {
			fmt.Fprintf(stderr, "lagoon arena -merge: %v\n", err)
			return 1
		}
		if i == 0 {
			all = report{Board: r.Board, Players: r.Players, Seed: r.Seed, Bots: r.Bots}
		} else if r.Board != all.Board || r.Players != all.Players || !slices.Equal(r.Bots, all.Bots) {
			fmt.Fprintf(stderr, "lagoon arena -merge: %s is of %s, %d players, board %s; %s is of %s, %d players, board %s\n",
				name, strings.Join(r.Bots, " "), r.Players, r.Board,
				files[0], strings.Join(all.Bots, " "), all.Players, all.Board)
			return 1
		}
		all.Seed = min(all.Seed, r.Seed)
		all.Seconds += r.Seconds
		for _, g := range r.Games {
			seed := g.Record.Seed
			if j, ok := from[seed]; ok && j != i {
				fmt.Fprintf(stderr, "lagoon arena -merge: the deal of seed %d is in both %s and %s\n", seed, files[j], name)
				return 1
			}
			from[seed] = i
			all.Games = append(all.Games, g)
		}
	}
	for i := range all.Games {
		all.Games[i].Deal = int(all.Games[i].Record.Seed - all.Seed)
	}
	slices.SortStableFunc(all.Games, func(a, b arena.Game) int { return a.Deal - b.Deal })
	all.Standings = arena.Summarise(all.Bots, all.Games)
	if asJSON {
		return writeReport(all, stdout, stderr)
	}
	seeds := make([]uint64, 0, len(from))
	for s := range from {
		seeds = append(seeds, s)
	}
	slices.Sort(seeds)
	runs := fmt.Sprintf("%d runs", len(files))
	if len(files) == 1 {
		runs = "1 run"
	}
	fmt.Fprintf(stdout, "%d games, %d players, board %s, deals of seeds %s, each in %d seat orders, %s, %v of play\n\n",
		len(all.Games), all.Players, all.Board, seedRanges(seeds), all.Players, runs,
		(time.Duration(all.Seconds) * time.Second).Round(time.Second))
	if err := arena.WriteTable(stdout, all.Standings, all.Games); err != nil {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 1
	}
	return 0
}

// readReport reads a report that -json wrote.
func readReport(name string) (report, error) {
	var r report
	data, err := os.ReadFile(name)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("%s: not a report of lagoon arena -json: %v", name, err)
	}
	if len(r.Bots) < bluelagoon.MinPlayers || r.Players != len(r.Bots) {
		return r, fmt.Errorf("%s: not a report of lagoon arena -json: %d bots for %d players", name, len(r.Bots), r.Players)
	}
	for k, g := range r.Games {
		if len(g.Seats) != r.Players || len(g.Scores) != r.Players {
			return r, fmt.Errorf("%s: game %d has %d seats and %d scores for %d players", name, k, len(g.Seats), len(g.Scores), r.Players)
		}
		for _, b := range g.Seats {
			if b < 0 || b >= len(r.Bots) {
				return r, fmt.Errorf("%s: game %d seats bot %d of %d", name, k, b, len(r.Bots))
			}
		}
	}
	return r, nil
}

// writeReport writes a report as indented JSON.
func writeReport(r report, stdout, stderr io.Writer) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 1
	}
	return 0
}

// seedRanges writes sorted seeds as ranges: "1 to 50, 101 to 150".
func seedRanges(seeds []uint64) string {
	var parts []string
	for i := 0; i < len(seeds); {
		j := i
		for j+1 < len(seeds) && seeds[j+1] == seeds[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.FormatUint(seeds[i], 10))
		} else {
			parts = append(parts, fmt.Sprintf("%d to %d", seeds[i], seeds[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
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
