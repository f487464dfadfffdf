package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lagoon-games/lagoon/ai/arena"
	"github.com/lagoon-games/lagoon/game"
)

// optionFlags collects -option key=value flags.
type optionFlags map[string]string

func (o optionFlags) String() string { return "" }

func (o optionFlags) Set(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not key=value", kv)
	}
	o[k] = v
	return nil
}

// arenaRun is one run of lagoon arena, as its flags describe it.
type arenaRun struct {
	gameID, board                      string
	options                            optionFlags
	players, games, parallel, maxMoves int
	seed                               uint64
	timeout                            time.Duration
	asJSON, quiet, merge               bool
}

// runArena plays a tournament between bots and reports their strength.
func runArena(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, a := arenaFlags(stderr)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if a.merge {
		return a.mergeOnly(fs, stdout, stderr)
	}
	cfg, err := a.config(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "lagoon %v\n", err)
		return 2
	}
	return a.play(cfg, stdout, stderr)
}

// arenaFlags returns lagoon arena's flags and the run they fill.
func arenaFlags(stderr io.Writer) (*flag.FlagSet, *arenaRun) {
	a := &arenaRun{options: optionFlags{}}
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.StringVar(&a.gameID, "game", hosted[0].rules.ID, "the game played")
	fs.IntVar(&a.players, "players", 0, "players a game (default: one per bot given)")
	fs.IntVar(&a.games, "games", 100, "games to play, rounded up to whole deals played in every seat rotation")
	fs.StringVar(&a.board, "board", "", "the game's board, the same as -option board=...: "+boardsOfGames())
	fs.Var(a.options, "option", "an option of the game, key=value (repeat the flag for several)")
	fs.Uint64Var(&a.seed, "seed", 1, "seed of the first deal")
	fs.IntVar(&a.parallel, "parallel", 0, "games played at once (default: one per core)")
	fs.DurationVar(&a.timeout, "timeout", 10*time.Second, "time an external bot may take for a move (more than 0)")
	fs.IntVar(&a.maxMoves, "max-moves", arena.DefaultMaxMoves, "decisions after which a game is stopped unfinished, nobody winning (bots that never end a game)")
	fs.BoolVar(&a.asJSON, "json", false, "write the report and every game's record as JSON")
	fs.BoolVar(&a.quiet, "q", false, "no progress bar")
	fs.BoolVar(&a.merge, "merge", false, "report on earlier runs together: the arguments are files written by -json, not bots")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `usage: lagoon arena [flags] bot bot [bot bot]
       lagoon arena -merge [-json] report.json report.json...

Plays games between bots, one bot per seat, and reports who is stronger.
Every deal is played in every rotation of the bots around the seats.
A seat the rules play themselves takes no bot and keeps its seat: against
Druids' AJ, lagoon arena -game druids -option aj=legend mcts:1s.
The games are %s (-game; the first is the default).
The bots of each game:
%s
or extern:"<command>", a program speaking the protocol of docs/bot-protocol.md.

Example: lagoon arena -players 2 -games 400 -board standard mcts:1s greedy

Interrupted (Ctrl-C), it reports the deals played in every seat order and
exits with 1; it exits with 1 too when a bot lost every game by forfeit.

Deal k of a run uses seed -seed + k, so a long tournament can be played in
runs over different seeds and reported as one with -merge:

  lagoon arena -json -seed 1 -games 200 mcts:1s greedy > a.json
  lagoon arena -json -seed 101 -games 200 mcts:1s greedy > b.json
  lagoon arena -merge a.json b.json

`, strings.Join(hostedIDs(), ", "), botsOfGames())
		fs.PrintDefaults()
	}
	return fs, a
}

// mergeOnly reports on the runs of the files named, refusing the flags
// that only a new run takes.
func (a *arenaRun) mergeOnly(fs *flag.FlagSet, stdout, stderr io.Writer) int {
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
	return mergeReports(fs.Args(), a.asJSON, stdout, stderr)
}

// config checks the run's game, options, seats and bots and returns the
// tournament; its errors begin "arena:". It fixes a.players to the seats
// of a game.
func (a *arenaRun) config(bots []string) (arena.Config, error) {
	h, err := hostedByID(a.gameID)
	if err != nil {
		return arena.Config{}, fmt.Errorf("arena: %v", err)
	}
	if a.board != "" {
		a.options["board"] = a.board
	}
	opts, err := h.rules.CheckOptions(a.options)
	if err != nil {
		return arena.Config{}, fmt.Errorf("arena: %s: %v", h.rules.Name, err)
	}
	if a.timeout <= 0 {
		return arena.Config{}, fmt.Errorf("arena: -timeout %v: an external bot needs some time to answer", a.timeout)
	}
	cfg := arena.Config{
		Game: h.bots(), Options: opts, Bots: bots, Games: a.games, Seed: a.seed,
		Parallel: a.parallel, MoveTimeout: a.timeout, MaxMoves: a.maxMoves,
	}
	// A seat the rules play (Druids' AJ) takes no bot.
	seats, house, err := cfg.Table()
	if err == nil && a.players != 0 && a.players != seats {
		err = fmt.Errorf("arena: %d bots make a game of %d players, not %d", len(bots), seats, a.players)
	}
	if a.players != 0 && len(bots) != a.players-len(house) {
		return cfg, fmt.Errorf("arena: %d players need %d bots, one per seat the rules do not play; got %d", a.players, a.players-len(house), len(bots))
	}
	if err != nil {
		return cfg, err
	}
	a.players = seats
	return cfg, cfg.Check()
}

// play plays the tournament and reports it; a run cut short (Ctrl-C)
// reports the deals played in every seat order, so that what it reports,
// and a merge of it, stays fair, and exits with 1.
func (a *arenaRun) play(cfg arena.Config, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	if !a.quiet {
		bar := &progressBar{w: stderr, start: start}
		cfg.Progress = bar.update
	}
	played, err := arena.Run(ctx, cfg)
	if err != nil && len(played) == 0 {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 1
	}
	status := 0
	if err != nil {
		whole := wholeDeals(played, len(cfg.Bots))
		fmt.Fprintf(stderr, "lagoon arena: %v; reporting the %d games of the deals played in every seat order, leaving out %d\n",
			err, len(whole), len(played)-len(whole))
		if len(whole) == 0 {
			return 1
		}
		played, status = whole, 1
	}
	seated := cfg.Seated()
	st := arena.Summarise(seated, played)
	for _, s := range st {
		if s.Forfeits == s.Games {
			fmt.Fprintf(stderr, "lagoon arena: %s lost every game by forfeit; see the reasons below the table\n", s.Bot)
			status = 1
		}
	}
	if code := a.report(cfg, seated, st, played, time.Since(start), stdout, stderr); code != 0 {
		return code
	}
	return status
}

// report writes the run's report: as JSON with every game's record, or as
// a table.
func (a *arenaRun) report(cfg arena.Config, seated []string, st []arena.Standing, played []arena.Game, took time.Duration, stdout, stderr io.Writer) int {
	rules := cfg.Game.Rules
	if a.asJSON {
		return writeReport(report{
			Game: rules.ID, Options: cfg.Options, Players: a.players, Seed: a.seed, Bots: seated,
			Seconds: took.Seconds(), Standings: st, Endings: endingsOf(played), Games: played,
		}, stdout, stderr)
	}
	fmt.Fprintf(stdout, "%s: %d games, %d players, %sdeals from seed %d, each in %d seat orders, %v\n\n",
		rules.Name, len(played), a.players, describeOptions(rules, cfg.Options), a.seed, len(cfg.Bots), took.Round(time.Second))
	if err := arena.WriteTable(stdout, st, played); err != nil {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 1
	}
	return 0
}

// wholeDeals keeps the games of the deals played in all their seat orders,
// one for each of the bots.
func wholeDeals(games []arena.Game, bots int) []arena.Game {
	count := map[int]int{}
	for _, g := range games {
		count[g.Deal]++
	}
	var whole []arena.Game
	for _, g := range games {
		if count[g.Deal] == bots {
			whole = append(whole, g)
		}
	}
	return whole
}

// firstGameID is the game of a report written when Blue Lagoon was the
// only game, which says no game.
const firstGameID = "bluelagoon"

// boardsOfGames lists the boards of each hosted game that has a board
// option, for the help of -board.
func boardsOfGames() string {
	var games []string
	for i := range hosted {
		r := hosted[i].rules
		if names, def, ok := boardChoices(r); ok {
			games = append(games, fmt.Sprintf("%s %s (default %s)", r.Name, strings.Join(names, ", "), def))
		}
	}
	return strings.Join(games, "; ")
}

// boardChoices returns the named boards of a game's option board and its
// default, and whether the game has that option.
func boardChoices(r *game.Rules) (names []string, def string, ok bool) {
	i := slices.IndexFunc(r.Options, func(o game.Option) bool { return o.Key == "board" })
	if i < 0 {
		return nil, "", false
	}
	for _, c := range r.Options[i].Choices {
		names = append(names, c.Value)
	}
	return names, r.Options[i].Default, true
}

// botsOfGames lists the bot specs of each hosted game, a line a game, for
// the help texts.
func botsOfGames() string {
	var b strings.Builder
	for i := range hosted {
		fmt.Fprintf(&b, "  %s: %s\n", hosted[i].rules.ID, strings.Join(hosted[i].bots().Specs(), ", "))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// describeOptions writes a game's options for a report's first line, each
// followed by ", ": the first option always (Blue Lagoon's board), the
// others where they are not the default; a value of a Custom option that
// is none of its choices (a board in the notation) as "own".
func describeOptions(rules *game.Rules, opts map[string]string) string {
	var b strings.Builder
	for i, o := range rules.Options {
		v := opts[o.Key]
		if i > 0 && v == o.Default {
			continue
		}
		if o.Custom && !slices.ContainsFunc(o.Choices, func(c game.OptionChoice) bool { return c.Value == v }) {
			v = "own"
		}
		fmt.Fprintf(&b, "%s %s, ", o.Key, v)
	}
	return b.String()
}

// report is the JSON form of a tournament.
type report struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	// Board is the board of a report written before there were other
	// games than Blue Lagoon; it is read, never written.
	Board     string           `json:"board,omitempty"`
	Players   int              `json:"players"`
	Seed      uint64           `json:"seed"`
	Bots      []string         `json:"bots"`
	Seconds   float64          `json:"seconds"`
	Standings []arena.Standing `json:"standings"`
	// Endings is how the games ended; a report written before it was
	// kept has none, and a merge counts its games' endings by replaying
	// them.
	Endings *arena.Endings `json:"endings,omitempty"`
	Games   []arena.Game   `json:"games"`
}

// mergeReports reads the JSON reports of earlier runs and reports on all
// their games together. The runs must be of the same game, options, bots
// and players, and no deal may be in two of them: its games would count
// twice.
func mergeReports(files []string, asJSON bool, stdout, stderr io.Writer) int {
	if len(files) == 0 {
		fmt.Fprintln(stderr, "lagoon arena -merge: no reports given")
		return 2
	}
	var all report
	var rules *game.Rules
	from := map[uint64]int{} // deal seed -> the file it came from
	for i, name := range files {
		r, rr, err := readReport(name)
		if err != nil {
			fmt.Fprintf(stderr, "lagoon arena -merge: %v\n", err)
			return 1
		}
		if i == 0 {
			all = report{Game: r.Game, Options: r.Options, Players: r.Players, Seed: r.Seed, Bots: r.Bots}
			rules = rr
		} else if r.Game != all.Game || !maps.Equal(r.Options, all.Options) || r.Players != all.Players || !slices.Equal(r.Bots, all.Bots) {
			fmt.Fprintf(stderr, "lagoon arena -merge: %s is of %s, %s, %d players, %s; %s is of %s, %s, %d players, %s\n",
				name, strings.Join(r.Bots, " "), rr.Name, r.Players, strings.TrimSuffix(describeOptions(rr, r.Options), ", "),
				files[0], strings.Join(all.Bots, " "), rules.Name, all.Players, strings.TrimSuffix(describeOptions(rules, all.Options), ", "))
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
	all.Standings, all.Endings = arena.Summarise(all.Bots, all.Games), endingsOf(all.Games)
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
	fmt.Fprintf(stdout, "%s: %d games, %d players, %sdeals of seeds %s, each in %d seat orders, %s, %v of play\n\n",
		rules.Name, len(all.Games), all.Players, describeOptions(rules, all.Options), seedRanges(seeds),
		all.Players-len(rules.HouseSeats(game.Setup{Players: all.Players, Options: all.Options})), runs,
		(time.Duration(all.Seconds) * time.Second).Round(time.Second))
	if err := arena.WriteTable(stdout, all.Standings, all.Games); err != nil {
		fmt.Fprintf(stderr, "lagoon arena: %v\n", err)
		return 1
	}
	return 0
}

// readReport reads a report that -json wrote, and returns it with its
// game. A report written before there were other games than Blue Lagoon
// (no game, a board) is read as one of Blue Lagoon on that board.
func readReport(name string) (report, *game.Rules, error) {
	var r report
	data, err := os.ReadFile(name)
	if err != nil {
		return r, nil, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, nil, fmt.Errorf("%s: not a report of lagoon arena -json: %v", name, err)
	}
	if r.Game == "" && r.Board != "" {
		r.Game, r.Options, r.Board = firstGameID, map[string]string{"board": r.Board, "first": "0"}, ""
		for k := range r.Games {
			rec := &r.Games[k].Record
			rec.Game, rec.Options = r.Game, r.Options
		}
	}
	h, err := hostedByID(r.Game)
	if err != nil {
		return r, nil, fmt.Errorf("%s: %v", name, err)
	}
	rules := h.rules
	if len(r.Bots) < rules.MinPlayers || r.Players != len(r.Bots) {
		return r, nil, fmt.Errorf("%s: not a report of lagoon arena -json: %d bots for %d players", name, len(r.Bots), r.Players)
	}
	for k, g := range r.Games {
		if len(g.Seats) != r.Players || len(g.Scores) != r.Players {
			return r, nil, fmt.Errorf("%s: game %d has %d seats and %d scores for %d players", name, k, len(g.Seats), len(g.Scores), r.Players)
		}
		for _, b := range g.Seats {
			if b < 0 || b >= len(r.Bots) {
				return r, nil, fmt.Errorf("%s: game %d seats bot %d of %d", name, k, b, len(r.Bots))
			}
		}
		if r.Endings == nil {
			if err := r.Games[k].Replay(rules); err != nil {
				return r, nil, fmt.Errorf("%s: game %d: %v", name, k, err)
			}
		}
	}
	return r, rules, nil
}

// endingsOf is how games ended, for a report.
func endingsOf(games []arena.Game) *arena.Endings {
	e := arena.SummariseEndings(games)
	return &e
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
