package arena

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/extern"
	"github.com/lagoon-games/lagoon/bluelagoon"
	blbots "github.com/lagoon-games/lagoon/bluelagoon/bots"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// botEnv makes a re-executed test binary play as an external bot that
// answers the first legal move, in the game its environment names.
const botEnv = "LAGOON_ARENA_TEST_BOT"

// blueLagoon, tiny and druidsGame are the games the tests play, as the
// bots play them: Blue Lagoon with its kit (its greedy bot), the others
// with random bots.
var (
	blueLagoon = &ai.Game{Rules: bluelagoon.Rules, Kit: blbots.Kit()}
	tiny       = &ai.Game{Rules: gametest.Tiny}
	druidsGame = &ai.Game{Rules: druids.Rules}
)

var testGames = map[string]*game.Rules{bluelagoon.Rules.ID: bluelagoon.Rules, gametest.Tiny.ID: gametest.Tiny}

func TestMain(m *testing.M) {
	if os.Getenv(botEnv) != "" {
		rules := testGames[os.Getenv(extern.GameEnv)]
		if rules == nil {
			fmt.Fprintf(os.Stderr, "unknown game %q\n", os.Getenv(extern.GameEnv))
			os.Exit(1)
		}
		in := bufio.NewScanner(os.Stdin)
		in.Buffer(nil, 1<<20)
		for in.Scan() {
			st, err := rules.ParseState(in.Text())
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Println(st.MoveText(game.Legal(st)[0]))
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// run plays a tournament, of Blue Lagoon unless cfg says which game.
func run(t *testing.T, cfg Config) []Game {
	t.Helper()
	if cfg.Game == nil {
		cfg.Game = blueLagoon
	}
	games, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// goodBot is the spec of the external bot of TestMain.
func goodBot(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`extern:"%s=1 exec %s -test.run=^$"`, botEnv, exe)
}

// checkRotations checks that every bot sat in every seat equally often on
// the same deals, and that every record replays to its reported result.
func checkRotations(t *testing.T, rules *game.Rules, bots []string, games []Game, deals int) {
	t.Helper()
	n := len(bots)
	seat := make([][]int, n) // seat[bot][s]: games bot played in seat s
	for b := range seat {
		seat[b] = make([]int, n)
	}
	seeds := map[uint64][]int{}
	for _, g := range games {
		if g.Forfeit != nil {
			t.Fatalf("forfeit: %+v", g.Forfeit)
		}
		for s, b := range g.Seats {
			seat[b][s]++
		}
		seeds[g.Record.Seed] = append(seeds[g.Record.Seed], g.Deal)
		// The record replays to the reported result.
		end, err := g.Record.Replay(rules, -1)
		if err != nil {
			t.Fatal(err)
		}
		if !end.Over() || fmt.Sprint(end.Standing().Winners) != fmt.Sprint(g.Winners) {
			t.Errorf("deal %d: record ends with winners %v, reported %v", g.Deal, end.Standing().Winners, g.Winners)
		}
	}
	for b := range seat {
		for s, k := range seat[b] {
			if k != deals {
				t.Errorf("%v: bot %d sat %d times in seat %d, want %d", bots, b, k, s, deals)
			}
		}
	}
	if len(seeds) != deals {
		t.Errorf("%v: %d seeds, want %d", bots, len(seeds), deals)
	}
	for seed, d := range seeds {
		if len(d) != n || d[0] != d[n-1] {
			t.Errorf("seed %d played in deals %v, want one deal %d times", seed, d, n)
		}
	}
}

func TestSeatsRotateOverTheSameDeals(t *testing.T) {
	for _, bots := range [][]string{{"random", "greedy"}, {"greedy", "random", "random"}, {"random", "easy", "random", "greedy"}} {
		n := len(bots)
		games := run(t, Config{Bots: bots, Games: 2*n - 1, Seed: 10})
		if len(games) != 2*n {
			t.Fatalf("%d bots, 2n-1 games asked: played %d, want %d (whole deals)", n, len(games), 2*n)
		}
		checkRotations(t, bluelagoon.Rules, bots, games, 2)
	}
}

// TestAnyGame plays tournaments of Tiny, a game the arena knows nothing
// of: with its options, teams, the generic search and an external program
// told the game by its environment.
func TestAnyGame(t *testing.T) {
	for _, c := range []struct {
		bots    []string
		options map[string]string
	}{
		{[]string{"random", "mcts:100"}, nil},
		{[]string{"easy", goodBot(t), "medium"}, map[string]string{"hand": "4", "goal": "low"}},
		{[]string{"random", "mcts:50", "random", "mcts:50"}, map[string]string{"teams": "pairs"}},
	} {
		games := run(t, Config{Game: tiny, Options: c.options, Bots: c.bots, Games: 2 * len(c.bots), Seed: 3})
		checkRotations(t, gametest.Tiny, c.bots, games, 2)
		for _, g := range games {
			if g.Record.Game != "tiny" || g.Record.Options["hand"] == "" {
				t.Errorf("record of game %q, options %v; want tiny's, the defaults filled in", g.Record.Game, g.Record.Options)
			}
			if c.options["teams"] == "pairs" && len(g.Winners) != 2 && len(g.Winners) != 4 {
				t.Errorf("a game of pairs won by seats %v", g.Winners)
			}
		}
		wins := 0.0
		for _, s := range Summarise(c.bots, games) {
			wins += s.Wins
		}
		if math.Abs(wins-float64(len(games))) > 1e-9 {
			t.Errorf("%v: wins add up to %v in %d games", c.bots, wins, len(games))
		}
	}
}

func TestRunsAreReproducible(t *testing.T) {
	cfg := Config{Bots: []string{"mcts:30", "easy"}, Games: 2, Seed: 3, Parallel: 2}
	a, b := run(t, cfg), run(t, cfg)
	for i := range a {
		if fmt.Sprint(a[i].Record.Moves) != fmt.Sprint(b[i].Record.Moves) {
			t.Errorf("game %d differs between two runs", i)
		}
	}
}

func TestExternalBots(t *testing.T) {
	good := goodBot(t)
	// Only the silent bot is given a short timeout: the others must be
	// caught by what they do, however slowly a busy machine starts them
	// (a shell not finding its program once took over 2 s at a load of 14).
	const short, long = 2 * time.Second, time.Minute
	tests := []struct {
		bot, reason string
		timeout     time.Duration
	}{
		{`extern:"echo hello; sleep 5"`, `malformed answer "hello"`, long},
		{`extern:"echo thinking >&2; echo T 99,99; sleep 5"`, `not on the board; stderr: "thinking"`, long},
		{`extern:"echo oops >&2; exit 3"`, "oops", long},
		{`extern:"sleep 60"`, "timeout", short},
		{"extern:/nonexistent/bot", "closed its output", long},
	}
	for _, tt := range tests {
		// The bad bot's opponent plays in the arena's process, so the
		// timeout, which applies to external programs, catches only it.
		games := run(t, Config{Bots: []string{"random", tt.bot}, Games: 2, MoveTimeout: tt.timeout})
		for _, g := range games {
			f := g.Forfeit
			if f == nil || f.Bot != tt.bot || !strings.Contains(f.Reason, tt.reason) {
				t.Errorf("%s: forfeit %+v, want one by it saying %q", tt.bot, f, tt.reason)
				continue
			}
			if len(g.Winners) != 1 || g.Seats[g.Winners[0]] != 0 {
				t.Errorf("%s: winners %v, want its opponent", tt.bot, g.Winners)
			}
		}
		st := Summarise([]string{"random", tt.bot}, games)
		if st[0].Share != 1 || st[1].Share != 0 || st[1].Forfeits != 2 {
			t.Errorf("%s: standings %+v", tt.bot, st)
		}
		var out strings.Builder
		if err := WriteTable(&out, st, games); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tt.reason) {
			t.Errorf("the report does not give the reason %q:\n%s", tt.reason, out.String())
		}
	}
	// The good bot plays whole games.
	for _, g := range run(t, Config{Bots: []string{good, "random"}, Games: 2}) {
		if g.Forfeit != nil {
			t.Errorf("the good external bot forfeited: %+v", g.Forfeit)
		}
	}
}

func TestBadConfigs(t *testing.T) {
	b := blueLagoon
	for _, cfg := range []Config{
		{Game: b, Bots: []string{"random"}, Games: 1},
		{Game: b, Bots: []string{"random", "random", "random", "random", "random"}, Games: 1},
		{Game: b, Bots: []string{"random", "nonsense"}, Games: 1},
		{Game: b, Bots: []string{"random", `extern:""`}, Games: 1},
		{Game: b, Bots: []string{"random", "random"}, Games: 0},
		{Game: b, Options: map[string]string{"board": "nowhere"}, Bots: []string{"random", "random"}, Games: 1},
		{Game: b, Options: map[string]string{"colour": "blue"}, Bots: []string{"random", "random"}, Games: 1},
		{Game: tiny, Bots: []string{"random", "greedy"}, Games: 1},
		{Bots: []string{"random", "random"}, Games: 1},
	} {
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("Run(%+v) succeeded", cfg)
		}
	}
}

func TestCancelledRunReportsOnlyFinishedGames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	games, err := Run(ctx, Config{Game: blueLagoon, Bots: []string{"random", "random"}, Games: 10})
	if err == nil || len(games) != 0 {
		t.Errorf("got %d games and %v, want none and an error", len(games), err)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-3 }

func TestWilson(t *testing.T) {
	tests := []struct {
		wins      float64
		n         int
		low, high float64
	}{
		{5, 10, 0.2366, 0.7634},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{90, 100, 0.8256, 0.9448},
	}
	for _, tt := range tests {
		low, high := Wilson(tt.wins, tt.n)
		if !near(low, tt.low) || !near(high, tt.high) {
			t.Errorf("Wilson(%v, %d) = %.4f, %.4f; want %.4f, %.4f", tt.wins, tt.n, low, high, tt.low, tt.high)
		}
	}
}

func TestElo(t *testing.T) {
	// Bot 0 beats bot 1 in 3 games of 4: with the virtual draw, 3.5 to 1.5.
	var games []Game
	for i := range 4 {
		w := 0
		if i == 3 {
			w = 1
		}
		scores := []int{100, 90}
		if w == 1 {
			scores = []int{90, 100}
		}
		games = append(games, Game{Seats: []int{0, 1}, Scores: scores, Winners: []int{w}})
	}
	elo := Elo(2, games)
	want := 400 * math.Log10(3.5/1.5) / 2
	if !near(elo[0], want) || !near(elo[1], -want) {
		t.Errorf("Elo = %v, want ±%.3f", elo, want)
	}
	// Three bots in a clear order come out in that order.
	games = nil
	for range 5 {
		games = append(games, Game{Seats: []int{0, 1, 2}, Scores: []int{30, 20, 10}, Winners: []int{0}})
	}
	elo = Elo(3, games)
	if !(elo[0] > elo[1] && elo[1] > elo[2]) || !near(elo[0]+elo[1]+elo[2], 0) {
		t.Errorf("Elo = %v, want decreasing with mean 0", elo)
	}
	// Teams: bot 0 in seats 0 and 2 wins every game with fewer points a
	// seat than bot 1 scores in seat 1 (but not seat 3): the win counts.
	games = nil
	for range 5 {
		games = append(games, Game{Seats: []int{0, 1, 0, 1}, Scores: []int{10, 30, 25, 2}, Winners: []int{0, 2}})
	}
	if elo = Elo(2, games); elo[0] <= elo[1] {
		t.Errorf("Elo = %v; the team that won every game is rated below the one that lost", elo)
	}
}

func TestSummariseNamesRepeatedBots(t *testing.T) {
	bots := []string{"mcts", "greedy", "greedy"}
	games := []Game{{Seats: []int{0, 1, 2}, Scores: []int{10, 20, 20}, Winners: []int{1, 2}}}
	st := Summarise(bots, games)
	if st[2].Bot != "greedy #2" || !near(st[1].Wins, 0.5) || !near(st[0].MeanMargin, -10) {
		t.Errorf("standings %+v", st)
	}
}

// TestHouseSeats: in a game whose rules play a seat (Druids against AJ),
// the bots take the other seats, the house keeps its seat in every game
// and stands in the report under its name; a bot too many is refused.
func TestHouseSeats(t *testing.T) {
	cfg := Config{Game: druidsGame, Options: map[string]string{"aj": "initiate"}, Bots: []string{"random"}, Games: 4, Seed: 3, Parallel: 2}
	if players, house, err := cfg.Table(); err != nil || players != 2 || len(house) != 1 || house[0].Seat != 1 {
		t.Fatalf("Table: %d players, house %+v, %v", players, house, err)
	}
	games, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 4 {
		t.Fatalf("%d games, want 4: one a deal, the one bot in the one seat left", len(games))
	}
	for _, g := range games {
		if !slices.Equal(g.Seats, []int{0, 1}) || g.Forfeit != nil || len(g.Record.Moves) == 0 {
			t.Errorf("deal %d: seats %v, forfeit %+v, %d moves", g.Deal, g.Seats, g.Forfeit, len(g.Record.Moves))
		}
	}
	seated := cfg.Seated()
	if !slices.Equal(seated, []string{"random", "AJ (Initiate)"}) {
		t.Errorf("seated %q", seated)
	}
	st := Summarise(seated, games)
	if st[1].Bot != "AJ (Initiate)" || st[0].Games != 4 || st[1].Games != 4 || st[0].Wins+st[1].Wins != 4 {
		t.Errorf("standings %+v", st)
	}
	cfg.Bots = []string{"random", "random"}
	if err := cfg.Check(); err == nil {
		t.Error("two bots for a game against AJ, who plays the second seat himself, were accepted")
	}
}

// TestMaxMoves: a game that reaches the bound on its decisions is stopped
// unfinished, nobody winning, and the table says so; the others are not.
func TestMaxMoves(t *testing.T) {
	cfg := Config{Game: tiny, Bots: []string{"random", "random"}, Games: 4, Seed: 1, MaxMoves: 3}
	games, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if !g.Unfinished || len(g.Winners) != 0 || len(g.Record.Moves) != 3 || len(g.Scores) != 2 {
			t.Errorf("deal %d: unfinished %v, winners %v, %d moves, scores %v", g.Deal, g.Unfinished, g.Winners, len(g.Record.Moves), g.Scores)
		}
	}
	var out strings.Builder
	if err := WriteTable(&out, Summarise(cfg.Bots, games), games); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "stopped unfinished after 3 moves: nobody won"); n != 4 {
		t.Errorf("the table names %d games stopped, want 4:\n%s", n, out.String())
	}
	cfg.MaxMoves = 0
	games, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if g.Unfinished || len(g.Winners) == 0 {
			t.Errorf("deal %d with the default bound: unfinished %v, winners %v", g.Deal, g.Unfinished, g.Winners)
		}
	}
}
