// Package arena plays many games between bots and measures who is stronger,
// for any game behind the contract (package game).
//
// A tournament is fair by construction: each deal (a seed, which fixes
// what chance decides: Blue Lagoon's token layouts, a deck's order) is
// played once in every rotation of the bots around the
// seats, so every bot sits in every seat equally often on the same deals.
// With two bots, or one bot against copies of another, the rotations are
// all the seat orders there are; with three or four different bots they
// keep the bots' cyclic order (who moves after whom) the same in every
// game. Games run in parallel. The report gives each bot its share of the victories
// with a 95% confidence interval, its mean score and margin, and an Elo
// rating from a Bradley-Terry fit over all games.
//
// A seat the rules play themselves (game.Rules.House: Druids' solo
// opponent AJ) takes no bot: the bots are rotated over the other seats, and
// the house stands in the report under its name, at its seat in every game,
// so that a bot's record against it reads off the table.
//
// A bot that fails (an error, an illegal move, an external program that
// crashes or times out) loses that game; the game stops there and the report
// says who failed and why.
package arena

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/extern"
	"github.com/lagoon-games/lagoon/game"
)

// Config describes a tournament.
type Config struct {
	// Game is the game played, with its bots; Options its options (Blue
	// Lagoon's board, say), the defaults for those left out.
	Game    *ai.Game
	Options map[string]string
	// Bots are the specs of the bots, one per seat the rules do not play
	// themselves: ai.New specs, or extern:"<command>" for a program
	// speaking the line protocol.
	Bots []string
	// Games is the number of games wanted; it is rounded up to a whole
	// number of deals, each played in every seat rotation.
	Games int
	// Seed is the seed of the first deal; deal k uses Seed+k.
	Seed uint64
	// Parallel is the number of games played at once; default
	// runtime.GOMAXPROCS(0). Search bots get the cores divided among the
	// games: GOMAXPROCS/Parallel workers each, at least one.
	Parallel int
	// MoveTimeout bounds an external bot's answer; default 10s.
	MoveTimeout time.Duration
	// MaxMoves bounds a game's decisions: a game that reaches it is
	// stopped unfinished, nobody winning, so that bots that never end a
	// game (a Laguna planner stalled a pearl short) cannot hold a
	// tournament up for ever. Default DefaultMaxMoves.
	MaxMoves int
	// Progress, if set, is called after each game with the number of
	// games finished and the total; calls do not overlap.
	Progress func(done, total int)
}

// DefaultMaxMoves is the bound on a game's decisions unless Config says
// otherwise: ten times the longest games of random bots (Laguna's, of some
// 100,000 decisions).
const DefaultMaxMoves = 1_000_000

// Game is the result of one game of a tournament.
type Game struct {
	Deal int `json:"deal"`
	// Seats lists, for each seat, the index of the bot in Config.Seated:
	// Config.Bots, then the house's seats.
	Seats  []int       `json:"seats"`
	Record game.Record `json:"record"`
	// Scores are the final points by seat (as they stood if the game was
	// forfeited), Winners the winning seats (a team's seats, all of
	// them).
	Scores  []int    `json:"scores"`
	Winners []int    `json:"winners"`
	Forfeit *Forfeit `json:"forfeit,omitempty"`
	// Unfinished says the game was stopped at Config.MaxMoves: the scores
	// are as they stood, and nobody won.
	Unfinished bool `json:"unfinished,omitempty"`
	// Turns are the turns the game's state counted when it stopped
	// (State.Turn), End how a game played to the end ended
	// (game.Ending: "over", or the game's own word); "" for a game
	// stopped or forfeited.
	Turns int    `json:"turns"`
	End   string `json:"end,omitempty"`
}

// Forfeit says which seat lost a game by failing, and why.
type Forfeit struct {
	Seat   int    `json:"seat"`
	Bot    string `json:"bot"`
	Reason string `json:"reason"`
}

// Run plays the tournament and returns its games in deal and rotation
// order. It stops early, with the games finished, when ctx is done.
func Run(ctx context.Context, cfg Config) ([]Game, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg.Options, _ = cfg.Game.Rules.CheckOptions(cfg.Options)
	n := len(cfg.Bots)
	players, house, _ := cfg.Table()
	if cfg.Parallel <= 0 {
		cfg.Parallel = runtime.GOMAXPROCS(0)
	}
	if cfg.MoveTimeout <= 0 {
		cfg.MoveTimeout = 10 * time.Second
	}
	if cfg.MaxMoves <= 0 {
		cfg.MaxMoves = DefaultMaxMoves
	}
	workers := max(1, runtime.GOMAXPROCS(0)/cfg.Parallel)
	deals := (cfg.Games + n - 1) / n
	games := make([]Game, deals*n)
	for k := range games {
		games[k].Deal = k / n
		games[k].Seats = seating(players, house, Rotation(n, k%n))
	}

	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	finished := make([]bool, len(games))
	for range min(cfg.Parallel, len(games)) {
		wg.Go(func() {
			for k := range jobs {
				play(ctx, cfg, workers, &games[k])
				mu.Lock()
				finished[k] = ctx.Err() == nil
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, len(games))
				}
				mu.Unlock()
			}
		})
	}
	for k := range games {
		if ctx.Err() != nil {
			break
		}
		jobs <- k
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		// Games cut short by the cancellation say nothing about the bots.
		var kept []Game
		for k, g := range games {
			if finished[k] {
				kept = append(kept, g)
			}
		}
		return kept, err
	}
	return games, nil
}

// Check reports what makes cfg unplayable: no game, a number of bots the
// game does not seat, options it does not take, no games, or a bot spec
// that names no bot of the game. Run checks too; a caller checks first to
// tell a mistake in its arguments from a failure while playing.
func (cfg Config) Check() error {
	if cfg.Game == nil || cfg.Game.Rules == nil {
		return errors.New("arena: no game")
	}
	r := cfg.Game.Rules
	players, _, err := cfg.Table()
	if err != nil {
		return err
	}
	// Setting a game up checks the options, those only the game can
	// check (a board in its notation) too.
	if _, err := r.NewGame(game.Setup{Players: players, Options: cfg.Options, Seed: cfg.Seed}); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if cfg.Games <= 0 {
		return errors.New("arena: the number of games must be positive")
	}
	for _, spec := range cfg.Bots {
		if _, err := newBot(cfg.Game, spec, ai.Options{}, time.Second, false); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	return nil
}

// Table returns the seats of a game of cfg's bots: the bots' own and the
// seats the rules play themselves with cfg's options (none in most games;
// AJ's in Druids against him), and those.
func (cfg Config) Table() (int, []game.HouseSeat, error) {
	r := cfg.Game.Rules
	n := len(cfg.Bots)
	opts, err := r.CheckOptions(cfg.Options)
	if err != nil {
		return 0, nil, fmt.Errorf("arena: %s: %w", r.Name, err)
	}
	for players := max(n, r.MinPlayers); players <= r.MaxPlayers; players++ {
		house := r.HouseSeats(game.Setup{Players: players, Options: opts, Seed: cfg.Seed})
		if players-len(house) == n {
			return players, house, nil
		}
	}
	return 0, nil, fmt.Errorf("arena: %d bots; a game of %s with these options seats %d to %d", n, r.Name, r.MinPlayers, r.MaxPlayers)
}

// Seated returns the names of the seats' players, the index a Game's
// Seats holds: the bots' specs, then the house's seats by their names.
func (cfg Config) Seated() []string {
	_, house, _ := cfg.Table()
	out := slices.Clone(cfg.Bots)
	for _, h := range house {
		out = append(out, h.Name)
	}
	return out
}

// seating seats the bots of a rotation in the seats the house leaves, in
// order, and the house's seats after the bots.
func seating(players int, house []game.HouseSeat, rotation []int) []int {
	seats := make([]int, players)
	for s := range seats {
		seats[s] = -1
	}
	for k, h := range house {
		seats[h.Seat] = len(rotation) + k
	}
	i := 0
	for s := range seats {
		if seats[s] < 0 {
			seats[s] = rotation[i]
			i++
		}
	}
	return seats
}

// Rotation returns the seating of rotation r of n bots: seat s holds bot
// (s+r) mod n.
func Rotation(n, r int) []int {
	seats := make([]int, n)
	for s := range seats {
		seats[s] = (s + r) % n
	}
	return seats
}

// play plays one game and fills in its result.
func play(ctx context.Context, cfg Config, workers int, res *Game) {
	n := len(res.Seats)
	names := cfg.Seated()
	setup := game.Setup{Players: n, Options: cfg.Options, Seed: cfg.Seed + uint64(res.Deal)}
	res.Record = game.Record{Game: cfg.Game.Rules.ID, Players: n, Options: cfg.Options, Seed: setup.Seed, Moves: []string{}}
	st, err := cfg.Game.Rules.NewGame(setup)
	if err != nil {
		res.Forfeit = &Forfeit{Seat: 0, Bot: names[res.Seats[0]], Reason: err.Error()}
		return
	}
	bots := make([]ai.Bot, n)
	defer func() {
		for _, b := range bots {
			if c, ok := b.(interface{ Close() error }); ok {
				c.Close()
			}
		}
	}()
	fail := func(seat int, reason string) {
		res.Forfeit = &Forfeit{Seat: seat, Bot: names[res.Seats[seat]], Reason: reason}
		res.Scores, res.Turns = st.Standing().Scores, st.Turn()
		for s := range n {
			if s != seat {
				res.Winners = append(res.Winners, s)
			}
		}
	}
	for s := range n {
		if res.Seats[s] >= len(cfg.Bots) {
			continue // the house's: the rules play it
		}
		// The bot's own seed depends on the deal and the bot, not on the
		// seat, so a rotation replays the deal with the same bots.
		seed := botSeed(cfg.Seed, res.Deal, res.Seats[s])
		b, err := newBot(cfg.Game, cfg.Bots[res.Seats[s]], ai.Options{Seed: seed, Workers: workers}, cfg.MoveTimeout, true)
		if err != nil {
			fail(s, err.Error())
			return
		}
		bots[s] = b
	}
	for !st.Over() {
		if len(res.Record.Moves) >= cfg.MaxMoves {
			res.Unfinished = true
			res.Scores, res.Turns = st.Standing().Scores, st.Turn()
			return
		}
		s := st.ToMove()
		if bots[s] == nil {
			fail(s, fmt.Sprintf("seat %d, which the rules play themselves, is to move", s))
			return
		}
		m, err := bots[s].Move(ctx, st)
		if err != nil {
			fail(s, err.Error())
			return
		}
		text := st.MoveText(m)
		if err := st.Play(m); err != nil {
			// An external program is told, and its standard error quoted.
			if r, ok := bots[s].(interface{ Refused(error) error }); ok {
				err = r.Refused(err)
			}
			fail(s, err.Error())
			return
		}
		res.Record.Moves = append(res.Record.Moves, text)
	}
	end := st.Standing()
	res.Scores, res.Winners = end.Scores, end.Winners
	res.Turns, res.End = st.Turn(), game.Ending(st)
}

// Replay sets g's Turns and End from its record, played again by r: how a
// report written before they were kept is read.
func (g *Game) Replay(r *game.Rules) error {
	st, err := g.Record.Replay(r, len(g.Record.Moves))
	if err != nil {
		return fmt.Errorf("deal %d: %w", g.Deal, err)
	}
	g.Turns, g.End = st.Turn(), ""
	if g.Forfeit == nil && !g.Unfinished {
		if !st.Over() {
			return fmt.Errorf("deal %d: the record stops after %d moves, before the end, in a game neither stopped nor forfeited", g.Deal, len(g.Record.Moves))
		}
		g.End = game.Ending(st)
	}
	return nil
}

// botSeed derives a bot's seed from the tournament seed, the deal and the
// bot; it is the same from run to run.
func botSeed(seed uint64, deal, bot int) uint64 {
	x := seed ^ uint64(deal)*0x9e3779b97f4a7c15 ^ uint64(bot+1)*0xbf58476d1ce4e5b9
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	return x ^ x>>29
}

// newBot makes the bot for a spec of a game; with start false it only
// checks the spec, without starting an external program.
func newBot(g *ai.Game, spec string, o ai.Options, timeout time.Duration, start bool) (ai.Bot, error) {
	if cmd, ok := strings.CutPrefix(spec, "extern:"); ok {
		cmd = strings.TrimSpace(cmd)
		if len(cmd) >= 2 && cmd[0] == '"' && cmd[len(cmd)-1] == '"' {
			cmd = cmd[1 : len(cmd)-1]
		}
		if strings.TrimSpace(cmd) == "" {
			return nil, fmt.Errorf("bot %q has no command", spec)
		}
		if !start {
			return nil, nil
		}
		return extern.Start(g.Rules, cmd, timeout)
	}
	return ai.NewWith(g, spec, o)
}
