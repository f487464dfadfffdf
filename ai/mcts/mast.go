package mcts

import (
	"math/rand/v2"

	"github.com/lagoon-games/lagoon/game"
)

// Guided is optional knowledge of a search state: its own playout policy
// (as Playout) that also takes advice from the search's move averages when
// the search shares them (Config.MAST). It reports every move it plays to
// m.Played, and where its policy would draw a move at random it may let
// m.Better choose between candidates instead. A state that offers Guided
// need not offer Playout: without MAST the search calls GuidedPlayout
// with a nil *MAST, and Played and Better on a nil *MAST do nothing and
// choose the first.
type Guided interface {
	GuidedPlayout(r *rand.Rand, m *MAST)
}

// MAST is move-average sampling: the mean reward, for the seat that played
// it, of every move played in the search's simulations, in the tree or in
// the playouts, wherever it was played. Moves good in one place of a game
// are often good in another (a strong placement, a card worth playing), and
// the averages carry that across the tree. A tree keeps one table for as
// long as it lives.
type MAST struct {
	// share is the probability that a playout step picks by the averages
	// rather than by the policy's own draw.
	share float64
	// dense holds the moves 0 to denseMoves-1 of each seat, the rest go to
	// sparse.
	dense  [MaxPlayers][]mastStat
	sparse map[mastKey]*mastStat
	// trace is the moves of the current simulation, with their seats.
	trace []mastKey
}

type mastStat struct{ sum, n float32 }

type mastKey struct {
	seat int8
	move game.Move
}

// denseMoves bounds the move numbers kept in arrays; games whose moves are
// larger numbers (a card and its arguments packed) use a map.
const denseMoves = 1 << 12

func newMAST(share float64) *MAST {
	return &MAST{share: share}
}

func (t *MAST) stat(seat int, m game.Move, add bool) *mastStat {
	if m >= 0 && m < denseMoves {
		d := t.dense[seat]
		if int(m) >= len(d) {
			if !add {
				return nil
			}
			d = append(d, make([]mastStat, int(m)+1-len(d))...)
			t.dense[seat] = d
		}
		return &d[m]
	}
	k := mastKey{int8(seat), m}
	s := t.sparse[k]
	if s == nil && add {
		if t.sparse == nil {
			t.sparse = map[mastKey]*mastStat{}
		}
		s = &mastStat{}
		t.sparse[k] = s
	}
	return s
}

// Value returns the mean reward of move m for seat, or 1 if the move was
// never played (optimism: an untried move deserves a try).
func (t *MAST) Value(seat int, m game.Move) float64 {
	if t == nil {
		return 0
	}
	s := t.stat(seat, m, false)
	if s == nil || s.n == 0 {
		return 1
	}
	return float64(s.sum / s.n)
}

// Played records that seat played m in the current simulation.
func (t *MAST) Played(seat int, m game.Move) {
	if t == nil {
		return
	}
	t.trace = append(t.trace, mastKey{int8(seat), m})
}

// Better returns whichever of a and b the averages prefer for seat, with
// the probability of the search's MAST setting, and otherwise a: the
// policy's own draw. The randomness stays; the averages tilt it.
func (t *MAST) Better(r *rand.Rand, seat int, a, b game.Move) game.Move {
	if t == nil || r.Float64() >= t.share {
		return a
	}
	if t.Value(seat, b) > t.Value(seat, a) {
		return b
	}
	return a
}

// pick returns the legal move the averages prefer for seat, with the
// probability of the MAST setting, and otherwise a uniformly random one:
// the search's own playout when the game brings none.
func (t *MAST) pick(r *rand.Rand, seat int, moves []game.Move) game.Move {
	if r.Float64() >= t.share {
		return moves[r.IntN(len(moves))]
	}
	best, bestV := moves[0], -1.0
	for _, m := range moves {
		if v := t.Value(seat, m); v > bestV {
			best, bestV = m, v
		}
	}
	return best
}

// update adds the rewards of the simulation just ended to the averages of
// its moves, and forgets the trace.
func (t *MAST) update(r []float64) {
	for _, k := range t.trace {
		s := t.stat(int(k.seat), k.move, true)
		s.sum += float32(r[k.seat])
		s.n++
	}
	t.trace = t.trace[:0]
}
