package server

import (
	"fmt"
	"slices"

	"github.com/lagoon-games/lagoon/game"
)

// A spectator stepping through a long game's past asks for positions
// thousands of moves back. Replaying them under the game's lock kept the
// players' moves waiting as long as the replay took, so a replay takes
// what it needs under the lock (a state to start from, the moves after
// it, the list of moves before it) and plays them without it. The states
// it starts from are the game's start and checkpoints, one every
// checkpointEvery moves, so that no replay plays more than that many
// moves; the list of moves is a prefix of the moves' views, each encoded
// once when it was made, shared rather than copied.

// checkpointEvery is how many moves apart a game's checkpoints are: a
// replay plays fewer, and a game of the longest (Config.MaxMoves) keeps
// some forty states. A variable, so that a test can watch short games
// cross many.
var checkpointEvery = 256

// A rerun is what replaying a game to a version needs, taken under the
// game's lock: a state at or before the version, which nobody plays on
// (the game's start, a checkpoint, a copy of the current state), and the
// moves from there to the version.
type rerun struct {
	id    string
	from  game.State
	base  int // the version of from
	moves []game.Move
	// reseeds are the game's (match.reseeds), made again where they were
	// made; fresh says from is the game's start, before those made at
	// version 0. A checkpoint is never older than a reseed at its own
	// version: the move after a take-back drops the checkpoints from the
	// version taken back to on (keepForReplays).
	reseeds []game.Reseed
	fresh   bool
}

// replayTo returns what replaying g to version at, at most the current
// version, needs. Under g.mu.
func (g *match) replayTo(at int) rerun {
	if at == len(g.moves) {
		return rerun{id: g.id, from: g.cur.Clone(), base: at}
	}
	r := rerun{id: g.id, from: g.start, reseeds: g.reseeds, fresh: true}
	// The checkpoints before the current version are the game's: those a
	// take-back left behind it lie at or past the current version.
	k := min(at/checkpointEvery, len(g.checkpoints))
	for k > 0 && g.checkpoints[k-1] == nil {
		k--
	}
	if k > 0 {
		r.from, r.base, r.fresh = g.checkpoints[k-1], k*checkpointEvery, false
	}
	r.moves = make([]game.Move, at-r.base)
	for i := range r.moves {
		r.moves[i] = g.moves[r.base+i].move
	}
	return r
}

// position plays the rerun: the game as it was at its version. It needs
// no lock.
func (r rerun) position() game.State {
	pos := r.from.Clone()
	if r.fresh {
		game.ReseedAt(pos, r.reseeds, 0)
	}
	for i, m := range r.moves {
		if err := pos.Play(m); err != nil {
			panic(fmt.Sprintf("server: game %s does not replay at move %d: %v", r.id, r.base+i+1, err))
		}
		game.ReseedAt(pos, r.reseeds, r.base+i+1)
	}
	return pos
}

// positionAt replays the game to version at. Under g.mu.
func (g *match) positionAt(at int) game.State { return g.replayTo(at).position() }

// keepForReplays keeps what replays need of the move just recorded: its
// view, encoded, and the current state if the move made a checkpoint's
// version. A take-back since the last move recorded went back to the
// version before this move: what was kept from that version on is
// dropped, for the game may differ after it. The encoded views are only
// ever appended to, where no replay reads: after a take-back they move to
// a new array rather than be written over where a replay may still read.
func (g *match) keepForReplays() {
	v := len(g.moves)
	if g.replayGen != g.takeBacks {
		g.movesJSON = slices.Clone(g.movesJSON[:v-1])
		g.checkpoints = g.checkpoints[:min(len(g.checkpoints), (v-2)/checkpointEvery)]
		g.replayGen = g.takeBacks
	}
	g.movesJSON = append(g.movesJSON, mustJSON(g.moves[v-1].view(v)))
	if v%checkpointEvery == 0 {
		// The checkpoints a take-back dropped, from the version it went
		// back to up to this one, stay missing (nil): that version's
		// state is gone, and a reseed made there is in none of them.
		k := v / checkpointEvery
		g.checkpoints = g.checkpoints[:min(len(g.checkpoints), k-1)]
		for len(g.checkpoints) < k-1 {
			g.checkpoints = append(g.checkpoints, nil)
		}
		g.checkpoints = append(g.checkpoints, g.cur.Clone())
	}
}

// viewJSON is the game at version at (the current one if at < 0) for the
// viewer in seat you, encoded. It takes g.mu, and replays a past version
// after letting it go.
func (g *match) viewJSON(at, you int) []byte {
	g.mu.Lock()
	if at < 0 || at >= len(g.moves) {
		v := g.fullView(you)
		g.mu.Unlock()
		return mustJSON(v)
	}
	v := g.viewHead(you)
	v.Moves = nil // added below, encoded
	moves := g.movesJSON[:at:at]
	r := g.replayTo(at)
	head := g.pastHead(at)
	viewer := game.Viewer{Seat: g.viewer(you), Names: g.names()}
	g.mu.Unlock()

	pos := r.position()
	head.Standing = standingOf(pos)
	return withMovesAndState(mustJSON(v), moves, withField(mustJSON(head), "view", mustJSON(pos.View(viewer))))
}

// withMovesAndState adds to an encoded game view its moves, each encoded,
// and its state: in one buffer, for the moves of a long game are
// megabytes.
func withMovesAndState(object []byte, moves [][]byte, state []byte) []byte {
	size := len(object) + len(state) + len(moves) + 32
	for _, m := range moves {
		size += len(m)
	}
	out := make([]byte, 0, size)
	out = append(out, object[:len(object)-1]...)
	out = append(out, `,"moves":[`...)
	for i, m := range moves {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, m...)
	}
	out = append(out, `],"state":`...)
	out = append(out, state...)
	return append(out, '}')
}

// pastHead is the head of the state at version at, before the current
// one, but for its standing, which needs the position: the seat to move is
// the one that made the next move, and the game was not over. Under g.mu.
func (g *match) pastHead(at int) stateHead {
	toMove := g.moves[at].seat
	head := stateHead{Version: at, ToMove: toMove, TakeBackFloor: g.floorAt(at)}
	if at > 0 {
		head.LastMove = g.moves[at-1].view(at)
		head.Clocks = g.historicClocks(g.moves[at-1].clocks, toMove)
	} else if g.time != nil {
		head.Clocks = g.historicClocks(initialClocks(g.time, g.start), toMove)
	}
	return head
}
