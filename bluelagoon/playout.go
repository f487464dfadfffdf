package bluelagoon

import (
	"math/bits"
	"math/rand/v2"
)

// Preferences are a playout policy's rules of thumb for drawing a move,
// which ApplyPreferred plays in one pass over the engine's own sets. A
// playout policy could ask the same of LegalSpaces and the sets' methods,
// but a playout asks it a hundred times a game, and each set of spaces
// made along the way costs more than the rule it serves (ApplyPreferred
// plays a whole game of the search's policy in some three quarters of the
// time).
type Preferences struct {
	// Token is the probability of taking a token within reach, when
	// there is one: the one Worth rates highest for the mover, the first
	// in board order among equals.
	Token float64
	// Worth rates taking a token of kind t for a player holding held;
	// it must be set when Token is above 0.
	Worth func(held [NumTokenKinds]int, t Token) float64
	// Fresh is the probability, in the exploration phase, of a land
	// space on an island the mover has no piece on yet; Land, after it,
	// of any land space.
	Fresh, Land float64
	// SettleFresh and SettleLand are Fresh and Land in the settlement
	// phase.
	SettleFresh, SettleLand float64
}

// ApplyPreferred plays a move of the player to move drawn from r by pref,
// and returns it. Step by step, among the spaces the mover may take (where
// it may place a settler, or a village if it has no settlers left): a
// token within reach with probability pref.Token; else a land space of an
// island the mover has not reached with probability Fresh (SettleFresh in
// the settlement phase), a space drawn uniformly; else a land space with
// probability Land (SettleLand); else a legal move drawn uniformly, as
// ApplyRandom draws it. A step whose set is empty or whose probability is
// 0 draws nothing from r. A space is taken by a settler where one may go,
// else by a village. reached holds the spaces of the islands the mover has
// a piece on, which the caller keeps (the game does not); it is read, not
// changed. The phase must not be over.
func (g *Game) ApplyPreferred(r *rand.Rand, pref *Preferences, reached *Spaces) Move {
	if g.over {
		panic("bluelagoon: a preferred move in a phase that is over")
	}
	b := g.board
	nw := b.words
	p := int(g.current)
	var st, vt [maxWords]uint64
	ns, nv := g.legalSets(p, &st, &vt)
	reach := &st
	if ns == 0 {
		reach = &vt
	}
	if pref.Token > 0 {
		var stones uint64
		for w := range nw {
			stones |= reach[w] & b.stones[w]
		}
		if stones != 0 {
			if sp := g.bestToken(p, reach, pref.Worth); sp >= 0 && r.Float64() < pref.Token {
				return g.playPreferred(p, &st, sp)
			}
		}
	}
	fresh, land := pref.Fresh, pref.Land
	if g.phase == Settlement {
		fresh, land = pref.SettleFresh, pref.SettleLand
	}
	if fresh > 0 || land > 0 {
		var l, f [maxWords]uint64
		nl, nf := 0, 0
		for w := range nw {
			l[w] = reach[w] & b.land[w]
			f[w] = l[w] &^ reached.bits[w]
			nl += bits.OnesCount64(l[w])
			nf += bits.OnesCount64(f[w])
		}
		if nf > 0 && fresh > 0 && r.Float64() < fresh {
			return g.playPreferred(p, &st, selectSpace(f[:nw], r.IntN(nf)))
		}
		if nl > 0 && land > 0 && r.Float64() < land {
			return g.playPreferred(p, &st, selectSpace(l[:nw], r.IntN(nl)))
		}
	}
	k := r.IntN(ns + nv)
	piece, sp := Settler, 0
	if k < ns {
		sp = selectSpace(st[:nw], k)
	} else {
		piece, sp = Village, selectSpace(vt[:nw], k-ns)
	}
	g.play(p, piece, sp)
	return Move{piece, b.coords[sp]}
}

// bestToken returns the stone circle within reach whose token worth rates
// highest for player p, the first in board order among equals, or -1 if
// none in reach carries a token.
func (g *Game) bestToken(p int, reach *[maxWords]uint64, worth func([NumTokenKinds]int, Token) float64) int {
	b := g.board
	held := g.Held(p)
	best, bestWorth := -1, 0.0
	for w := range b.words {
		for x := reach[w] & b.stones[w]; x != 0; x &= x - 1 {
			sp := w<<6 + bits.TrailingZeros64(x)
			t := g.tokens[b.circleOf[sp]]
			if t == noToken {
				continue
			}
			if v := worth(held, t); best < 0 || v > bestWorth {
				best, bestWorth = sp, v
			}
		}
	}
	return best
}

// playPreferred places a settler of player p on the space sp if settlers
// (the settler moves) has it, and a village otherwise.
func (g *Game) playPreferred(p int, settlers *[maxWords]uint64, sp int) Move {
	piece := Settler
	if settlers[sp>>6]&(1<<(uint(sp)&63)) == 0 {
		piece = Village
	}
	g.play(p, piece, sp)
	return Move{piece, g.board.coords[sp]}
}
