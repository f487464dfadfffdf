package mcts

import (
	"math"
	"math/rand/v2"

	"github.com/lagoon-games/lagoon/game"
)

// Traced is optional knowledge of a search state: its playout policy (as
// Playout) telling played every move it plays, with the seat that plays
// it, for RAVE (Config.RAVE). A game may leave out the moves whose number
// means another thing where they are played (the same space in another
// phase of the game, say): RAVE takes a move played later by the same seat
// for the same move.
type Traced interface {
	TracedPlayout(r *rand.Rand, played func(seat int, m game.Move))
}

// amaf is what RAVE keeps of a simulation: the moves played in its
// playout, and the sets of moves each seat played below a level of the
// tree, as bits of the move numbers below denseMoves (a larger number is
// left out of RAVE).
type amaf struct {
	playout []mastKey
	seen    [MaxPlayers][denseMoves / 64]uint64
	set     []mastKey // the moves set in seen, to clear them
}

// record notes that seat played m in the simulation's playout.
func (a *amaf) record(seat int, m game.Move) {
	a.playout = append(a.playout, mastKey{int8(seat), m})
}

func (a *amaf) add(seat int8, m game.Move) {
	if m < 0 || m >= denseMoves {
		return
	}
	w, bit := m>>6, uint64(1)<<(uint(m)&63)
	if a.seen[seat][w]&bit == 0 {
		a.seen[seat][w] |= bit
		a.set = append(a.set, mastKey{seat, m})
	}
}

func (a *amaf) has(seat int8, m game.Move) bool {
	return m >= 0 && m < denseMoves && a.seen[seat][m>>6]&(1<<(uint(m)&63)) != 0
}

// update adds the rewards r of the simulation just ended to the RAVE
// statistics of the tree along its path: each child of a node on the path
// whose mover played its move at any later point of the simulation (below
// that node in the tree, or in the playout) counts the simulation as its
// own, for its mover. Then it forgets the simulation's moves.
func (t *tree) updateAMAF(r []float64) {
	a := t.amaf
	for _, k := range a.playout {
		a.add(k.seat, k.move)
	}
	for k := len(t.path) - 1; k >= 0; k-- {
		if k+1 < len(t.path) {
			below := &t.nodes[t.path[k+1]]
			a.add(below.mover, below.move)
		}
		for c := t.nodes[t.path[k]].child; c >= 0; c = t.nodes[c].next {
			if nd := &t.nodes[c]; a.has(nd.mover, nd.move) {
				nd.amafSum += float32(r[nd.mover])
				nd.amafN++
			}
		}
	}
	for _, k := range a.set {
		a.seen[k.seat][k.move>>6] = 0
	}
	a.set, a.playout = a.set[:0], a.playout[:0]
}

// raveMean mixes a child's mean reward with its RAVE mean, the weight of
// the RAVE mean falling as the child's own visits n grow: sqrt(k/(3n+k))
// with k the RAVE setting, a half at n = k/3.
func (t *tree) raveMean(nd *node, mean, n float64) float64 {
	if nd.amafN == 0 {
		return mean
	}
	k := t.cfg.RAVE
	beta := math.Sqrt(k / (3*n + k))
	return mean + beta*(float64(nd.amafSum/nd.amafN)-mean)
}
