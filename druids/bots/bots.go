// Package bots holds what Lagoon: Land of Druids brings to the platform's
// bots beyond the contract (package game): a heuristic bot that plans its
// turn by reading destiny, and the search's knowledge of the game
// (Position: the prior, a prior-led playout, rewards shaped by the margin
// and rerooting for ai/mcts), and AJ, the solo opponent, as a seat bot of
// any two-player game (NewAJ, AJAt). In the solo game itself the engine
// plays AJ's turns, set up with the option aj (see AJSetup).
package bots

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// stateOf returns the engine's state behind st.
func stateOf(st game.State) (*druids.State, error) {
	switch s := st.(type) {
	case *druids.State:
		return s, nil
	case *Position:
		return &s.State, nil
	}
	return nil, fmt.Errorf("not a state of Lagoon: Land of Druids but %T", st)
}

// priorWeights are the relative chances of a choice by its prior rank (0
// to 4, druids.State.PriorRank): stopping seldom, unravelling often. They
// are whole numbers so that a draw needs no table of weights: pick sums
// them, then walks the choices again.
var priorWeights = [5]uint32{1, 4, 10, 24, 64}

func weight(s *druids.State, m game.Move) uint32 {
	return priorWeights[s.PriorRank(m)]
}

// pick draws one of legal with a chance that grows with its prior.
func pick(s *druids.State, legal []game.Move, r *rand.Rand) game.Move {
	if len(legal) == 1 {
		return legal[0]
	}
	var total uint32
	for _, m := range legal {
		total += weight(s, m)
	}
	x := r.Uint32N(total)
	for _, m := range legal {
		w := weight(s, m)
		if x < w {
			return m
		}
		x -= w
	}
	return legal[len(legal)-1]
}

// toDecide returns the engine's state behind st, which a bot is asked to
// decide in: an error if the context is done, st is not a state of the
// game, or the game is over.
func toDecide(ctx context.Context, st game.State) (*druids.State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := stateOf(st)
	if err != nil {
		return nil, err
	}
	if s.Over() {
		return nil, ai.ErrGameOver
	}
	return s, nil
}

// viewKey is what a seat sees of s: its text without the generator, which
// holds the bag's order (what is in the bag is public; its order is not).
func viewKey(s *druids.State) string { return keyOf(s.String()) }

// keyOf is viewKey of a state's text.
func keyOf(text string) string {
	if i := strings.LastIndex(text, "; rng "); i >= 0 {
		return text[:i]
	}
	return text
}

// unitPoints returns each seat's points under energy e, a team's summed.
func unitPoints(s *druids.State, e druids.Energy) [druids.MaxPlayers]int {
	var pts [druids.MaxPlayers]int
	n := s.Players()
	for p := range n {
		pts[p] = s.Points(p, e)
	}
	if n == 4 {
		for p := range 2 {
			pts[p] += pts[p+2]
			pts[p+2] = pts[p]
		}
	}
	return pts
}

// margin returns seat p's points under the destiny of now less the best of
// its opponents', 0 on a draw of destiny.
func margin(s *druids.State, p int) int {
	d := s.Destiny()
	if d.Draw {
		return 0
	}
	pts := unitPoints(s, d.Energy)
	best := math.MinInt
	for q := range s.Players() {
		if !sameUnit(s, p, q) {
			best = max(best, pts[q])
		}
	}
	return pts[p] - best
}

func sameUnit(s *druids.State, p, q int) bool {
	if s.Players() == 4 {
		return p%2 == q%2
	}
	return p == q
}

// value judges s for seat p: a finished game by its result (and margin),
// one under way by destiny read as likely energies (druids' Evaluate) and a
// share of the margin under the destiny of now.
func value(s *druids.State, p int) float64 {
	if s.Over() {
		v := float64(margin(s, p))
		for _, w := range s.Winners() {
			if sameUnit(s, p, w) {
				return 1000 + v
			}
		}
		return -1000 + v
	}
	return s.Evaluate(p) + 0.25*float64(margin(s, p))
}

// AJSetup returns a two-seat setup of a game against AJ at level (one of
// druids.AJLevels but "none"): the engine plays AJ in seat 2, so the other
// seat is the only one a bot (or a person) plays. AJ is a scripted seat of
// the engine, not a bot of the contract: his turn is a few steps of the
// solo rules with three Eldrids and a token bag, not a sequence of the
// contract's moves, so he cannot sit at a table set up without him.
func AJSetup(level string, seed uint64, options map[string]string) (game.Setup, error) {
	ok := false
	for _, l := range druids.AJLevels[1:] {
		ok = ok || l == level
	}
	if !ok {
		return game.Setup{}, fmt.Errorf("AJ has no level %q (levels: %s)", level, strings.Join(druids.AJLevels[1:], ", "))
	}
	o := map[string]string{}
	for k, v := range options {
		o[k] = v
	}
	o["aj"] = level
	return game.Setup{Players: 2, Options: o, Seed: seed}, nil
}

// AJ plays a seat as AJ, the solo opponent, would at one of his levels,
// in any game of two players (druids.State.AJSeatMove): explore first,
// unravel whenever he can, by the solo rules' choices.
type AJ struct {
	level int
	rng   *ai.LockedRand
}

// NewAJ returns AJ at level (one of druids.AJLevels but "none") as a seat
// bot.
func NewAJ(level string, seed uint64) (*AJ, error) {
	for i, l := range druids.AJLevels[1:] {
		if l == level {
			return AJAt(druids.AJInitiate+i, seed), nil
		}
	}
	return nil, fmt.Errorf("AJ has no level %q (levels: %s)", level, strings.Join(druids.AJLevels[1:], ", "))
}

// AJAt returns AJ at level, by number (druids.AJInitiate to
// druids.AJLegend; a number out of that range is taken as the nearest), as
// a seat bot: for a table of bots, which names its levels in code.
func AJAt(level int, seed uint64) *AJ {
	level = min(max(level, druids.AJInitiate), druids.AJLegend)
	return &AJ{level: level, rng: ai.NewLockedRand(seed, 0x616a)}
}

// Name returns "aj-" and the level.
func (b *AJ) Name() string { return "aj-" + druids.AJLevels[b.level] }

// Move returns AJ's choice for the seat to decide; st is not changed.
func (b *AJ) Move(ctx context.Context, st game.State) (game.Move, error) {
	s, err := toDecide(ctx, st)
	if err != nil {
		return 0, err
	}
	var m game.Move
	b.rng.With(func(r *rand.Rand) { m = s.AJSeatMove(b.level, r) })
	return m, nil
}
