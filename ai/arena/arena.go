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
// A bot that fails (an error, an illegal move, an external program that
// crashes or times out) loses that game; the game stops there and the report
// says who failed and why.
package arena

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/ai/extern"
	"github.com/lagoon-games/lagoon/game"
)

// Config describes a tournament.
type Config struct {
	// Rules is the game played; Options its options (Blue Lagoon's
	// board, say), the defaults for those left out.
	Rules   *game.Rules
	Options map[string]string
	// Bots are the specs of the bots, one per seat: ai.New specs, or
	// extern:"<command>" for a program speaking the line protocol.
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
	// Progress, if set, is called after each game with the number of
	// games finished and the total; calls do not overlap.
	Progress func(done, total int)
}

// Game is the result of one game of a tournament.
type Game struct {
	Deal int `json:"deal"`
	// Seats lists, for each seat, the index of the bot in Config.Bots.
	Seats  []int       `json:"seats"`
	Record game.Record `json:"record"`
	// Scores are the final points by seat (as they stood if the game was
	// forfeited), Winners the winning seats (a team's seats, all of
	// them).
	Scores  []int    `json:"scores"`
	Winners []int    `json:"winners"`
	Forfeit *Forfeit `json:"forfeit,omitempty"`
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
	cfg.Options, _ = cfg.Rules.CheckOptions(cfg.Options)
	n := len(cfg.Bots)
	if cfg.Parallel <= 0 {
		cfg.Parallel = runtime.GOMAXPROCS(0)
	}
	if cfg.MoveTimeout <= 0 {
		cfg.MoveTimeout = 10 * time.Second
	}
	workers := max(1, runtime.GOMAXPROCS(0)/cfg.Parallel)
	deals := (cfg.Games + n - 1) / n
	games := make([]Game, deals*n)
	for k := range games {
		games[k].Deal = k / n
		games[k].Seats = Rotation(n, k%n)
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
	r := cfg.Rules
	if r == nil {
		return errors.New("arena: no game")
	}
	n := len(cfg.Bots)
	if n < r.MinPlayers || n > r.MaxPlayers {
		return fmt.Errorf("arena: %d bots; a game of %s seats %d to %d", n, r.Name, r.MinPlayers, r.MaxPlayers)
	}
	// Setting a game up checks the options, those only the game can
	// check (a board in its notation) too.
	if _, err := r.NewGame(game.Setup{Players: n, Options: cfg.Options, Seed: cfg.Seed}); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if cfg.Games <= 0 {
		return errors.New("arena: the number of games must be positive")
	}
	for _, spec := range cfg.Bots {
		if _, err := newBot(r, spec, ai.Options{}, time.Second, false); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	return nil
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
	n := len(cfg.Bots)
	setup := game.Setup{Players: n, Options: cfg.Options, Seed: cfg.Seed + uint64(res.Deal)}
	res.Record = game.Record{Game: cfg.Rules.ID, Players: n, Options: cfg.Options, Seed: setup.Seed, Moves: []string{}}
	st, err := cfg.Rules.NewGame(setup)
	if err != nil {
		res.Forfeit = &Forfeit{Seat: 0, Bot: cfg.Bots[res.Seats[0]], Reason: err.Error()}
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
		res.Forfeit = &Forfeit{Seat: seat, Bot: cfg.Bots[res.Seats[seat]], Reason: reason}
		res.Scores = st.Standing().Scores
		for s := range n {
			if s != seat {
				res.Winners = append(res.Winners, s)
			}
		}
	}
	for s := range n {
		// The bot's own seed depends on the deal and the bot, not on the
		// seat, so a rotation replays the deal with the same bots.
		seed := botSeed(cfg.Seed, res.Deal, res.Seats[s])
		b, err := newBot(cfg.Rules, cfg.Bots[res.Seats[s]], ai.Options{Seed: seed, Workers: workers}, cfg.MoveTimeout, true)
		if err != nil {
			fail(s, err.Error())
			return
		}
		bots[s] = b
	}
	for !st.Over() {
		s := st.ToMove()
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
func newBot(rules *game.Rules, spec string, o ai.Options, timeout time.Duration, start bool) (ai.Bot, error) {
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
		return extern.Start(rules, cmd, timeout)
	}
	return ai.NewWith(rules, spec, o)
}
