// Package bots holds what Blue Lagoon brings to the platform's bots beyond
// the contract (package game): its own bots, greedy and heuristic, and the
// search's knowledge of the game (Position: the move prior, the playout
// policy, the shaped rewards, an evaluation and rerooting for ai/mcts),
// handed to package ai as one value, Kit.
package bots

import (
	"context"
	"fmt"
	"slices"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

// engineGame returns the engine's game behind st, or an error for another
// game's state.
func engineGame(st game.State) (*bluelagoon.Game, error) {
	g := bluelagoon.GameOf(st)
	if g == nil {
		return nil, fmt.Errorf("not a state of Blue Lagoon but %T", st)
	}
	return g, nil
}

// standing returns what each player has so far: the phases scored plus what
// the board would score if the current phase ended now.
func standing(g *bluelagoon.Game) [bluelagoon.MaxPlayers]int {
	s := g.Totals()
	if !g.Over() {
		sc := g.Scores()
		for p := range g.Players() {
			s[p] += sc[p].Total
		}
	}
	return s
}

// margin returns player p's standing minus the best standing of the others.
func margin(s [bluelagoon.MaxPlayers]int, players, p int) int {
	best := -1 << 30
	for q := range players {
		if q != p {
			best = max(best, s[q])
		}
	}
	return s[p] - best
}

// islandsOf returns the islands on which player p has a piece, as a bit set.
func islandsOf(g *bluelagoon.Game, p int) uint64 {
	var set uint64
	for i, isl := range g.Board().Islands() {
		for _, c := range isl.Spaces {
			if q, _, ok := g.PieceAt(c); ok && q == p {
				set |= 1 << uint(i)
				break
			}
		}
	}
	return set
}

// A rated move is a candidate with its value, compared lexicographically.
type rated struct {
	move  bluelagoon.Move
	key   [3]float64
	bonus float64 // the part of key[0] that is not the score margin
}

func compareRated(a, b rated) int {
	for i := range a.key {
		if a.key[i] != b.key[i] {
			if a.key[i] > b.key[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// rateMoves rates every legal move by its immediate gain in score margin,
// half its prior (tokens, new islands, land) and what it brings within
// reach; then by its prior; ties are broken by a draw from rng. The moves
// come in the order of LegalMoves: compareRated orders them best first.
func rateMoves(g *bluelagoon.Game, rng *ai.LockedRand) []rated {
	p := g.Current()
	islands := islandsOf(g, p)
	nbr := neighboursOf(g.Board())
	moves := g.LegalMoves()
	out := make([]rated, len(moves))
	for i, m := range moves {
		c := *g
		c.ApplyLegal(m)
		gain := float64(margin(standing(&c), g.Players(), p))
		prior := movePrior(g, islands, m)
		bonus := prior/2 + reachValue(g, nbr, islands, m)
		out[i] = rated{m, [3]float64{gain + bonus, prior, rng.Float64()}, bonus}
	}
	return out
}

// reachValue is what a move brings within the mover's reach: tokens and
// islands next to it that no piece of the mover touches yet. Without it a
// one-move lookahead never goes to sea, and never finds the islands and
// tokens beyond. nbr is the board's table of neighbours, which (unlike the
// board's Neighbours) costs no allocation: the search's prior calls this
// for every move at its root.
func reachValue(g *bluelagoon.Game, nbr *neighbours, islands uint64, m bluelagoon.Move) float64 {
	b := g.Board()
	p := g.Current()
	v := 0.0
	var seen uint64
	for _, n := range nbr.at(m.At) {
		if _, _, taken := g.PieceAt(n); taken || touches(g, nbr, p, n) {
			continue
		}
		if t, ok := g.TokenAt(n); ok {
			v += tokenGain(g.Held(p), t) / 2
		}
		if i := b.IslandAt(n); i >= 0 && (islands|seen)&(1<<uint(i)) == 0 {
			seen |= 1 << uint(i)
			v += 3
		}
	}
	return v
}

// touches reports whether player p has a piece next to c.
func touches(g *bluelagoon.Game, nbr *neighbours, p int, c bluelagoon.Coord) bool {
	for _, n := range nbr.at(c) {
		if q, _, ok := g.PieceAt(n); ok && q == p {
			return true
		}
	}
	return false
}

// Greedy plays the move with the best immediate gain in score margin, then
// the one that takes the most valuable token or reaches a new island, and
// otherwise any of the best at random. With a randomness r it plays a
// uniformly random move in a share r of its turns instead.
type Greedy struct {
	name       string
	randomness float64
	rng        *ai.LockedRand
}

// NewGreedy returns a greedy bot of the given name that plays a random
// move in a share randomness of its turns (0: never).
func NewGreedy(name string, randomness float64, seed uint64) *Greedy {
	return &Greedy{name: name, randomness: randomness, rng: ai.NewLockedRand(seed, 0x677265656479)}
}

// Name returns the bot's name.
func (b *Greedy) Name() string { return b.name }

// Move returns the greedy move; st is not changed.
func (b *Greedy) Move(ctx context.Context, st game.State) (game.Move, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	g, err := engineGame(st)
	if err != nil {
		return 0, err
	}
	n := g.NumLegalMoves()
	if n == 0 {
		return 0, ai.ErrGameOver
	}
	if b.randomness > 0 && b.rng.Float64() < b.randomness {
		return bluelagoon.ContractMove(g.Board(), g.LegalMove(b.rng.IntN(n))), nil
	}
	return bluelagoon.ContractMove(g.Board(), slices.MinFunc(rateMoves(g, b.rng), compareRated).move), nil
}

// Heuristic looks two moves deep: it rates each move as greedy does; then,
// for its best candidates, it lets the next player answer with the move that
// player rates best and keeps the margin left after that answer, less what
// the answer brought the other player beyond the score (its tokens, islands
// and reach, by greedy's rating). Measured against greedy (docs/strength.md):
// more candidates help up to about 32, and a bonus for villages, which
// stay for the settlement phase, made it weaker, not stronger.
type Heuristic struct {
	rng *ai.LockedRand
}

// heuristicWidth is how many of the best-rated moves the heuristic bot
// checks against the next player's answer.
const heuristicWidth = 32

// NewHeuristic returns a heuristic bot.
func NewHeuristic(seed uint64) *Heuristic {
	return &Heuristic{rng: ai.NewLockedRand(seed, 0x6865757269737469)}
}

// Name returns "heuristic".
func (*Heuristic) Name() string { return "heuristic" }

// Move returns the heuristic's move; st is not changed.
func (b *Heuristic) Move(ctx context.Context, st game.State) (game.Move, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	g, err := engineGame(st)
	if err != nil {
		return 0, err
	}
	if g.NumLegalMoves() == 0 {
		return 0, ai.ErrGameOver
	}
	first := rateMoves(g, b.rng)
	slices.SortFunc(first, compareRated)
	if len(first) > heuristicWidth {
		first = first[:heuristicWidth]
	}
	p := g.Current()
	for i := range first {
		if ctx.Err() != nil {
			break
		}
		c := *g
		c.ApplyLegal(first[i].move)
		if c.Over() || c.Current() == p {
			continue
		}
		// The next player answers with the move best for it; what
		// counts is the margin that leaves to p.
		answer := slices.MinFunc(rateMoves(&c, b.rng), compareRated)
		d := c
		d.ApplyLegal(answer.move)
		first[i].key[0] = float64(margin(standing(&d), g.Players(), p)) + first[i].bonus - answer.bonus
	}
	slices.SortStableFunc(first, compareRated)
	return bluelagoon.ContractMove(g.Board(), first[0].move), nil
}
