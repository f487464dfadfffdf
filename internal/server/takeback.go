package server

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/store"
)

// This file takes moves back (docs/api.md, Take-backs). A game is its
// setup plus its moves, so taking back is removing the last moves, from the
// store first and then from memory, and replaying what is left; the time
// goes back to what the last move left stands stored with it. A seat asks
// to take back its own last move, with whatever was played after it, so
// that it is that seat's decision again. Against bots alone it is done at
// once; among people the other people's seats answer, and a refusal or any
// move made meanwhile ends the request. Versions go down: each take-back
// counts one more in takeBacks, which clients send back when they resume,
// and which makes a bot's move or a timer of the history before stale.
//
// Chance stays chance: a take-back never goes back past a move that
// showed what chance drew (a tile drawn, a layout laid, AJ's turn), for
// any seat, against bots as among people, as Board Game Arena's undo
// never does. Otherwise a move could be taken back and played again, or
// another played in its place, until chance suited its player: drawn
// again from the same seed it shows what was seen before, and drawn anew
// it is a re-roll. The game tells which moves showed chance by counting
// them (game.Revealer); each move remembers the floor it leaves, the
// version of the last such move. What a take-back then goes back across
// showed nothing of the seed, so nothing of the future is known and the
// seed stays as it was.
//
// A game that counts nothing cannot be held to that floor. Its take-backs
// go back as far as asked, and while the seed still decides something a
// seat cannot see (State.Secret) the game's chance is drawn anew from a
// seed of crypto/rand, stored with the take-back and in the record, so
// that a move played again does not show what it showed before and every
// replay draws what the game drew.

// takeBackRequest is a take-back asked for among people.
type takeBackRequest struct {
	Version  int   `json:"version"`  // the game's version when it was asked
	Seat     int   `json:"seat"`     // who asked
	To       int   `json:"to"`       // the version the game goes back to
	Waiting  []int `json:"waiting"`  // the seats still to answer
	Accepted []int `json:"accepted"` // the seats that accepted
}

// takeBacksView describes take-backs in the game, copied: it is encoded
// after the game's lock is let go.
func (g *match) takeBacksView() takeBacksView {
	v := takeBacksView{Allowed: !g.takeBacksOff, Count: g.takeBacks}
	if r := g.pending; r != nil {
		v.Request = &takeBackRequest{Version: r.Version, Seat: r.Seat, To: r.To, Waiting: slices.Clone(r.Waiting), Accepted: slices.Clone(r.Accepted)}
	}
	return v
}

// floorAt returns the lowest version a take-back may go back to from
// version v: the version of the last move up to it that showed chance.
func (g *match) floorAt(v int) int {
	if v == 0 {
		return 0
	}
	return g.moves[v-1].floor
}

// floorAfter returns the floor the next move leaves, which takes the game
// from cur to next: its own version if it showed chance. A game that
// counts nothing has the floor 0 throughout. The game's own state is
// asked: the bound on a game's length draws nothing.
func (g *match) floorAfter(cur, next game.State) int {
	v := len(g.moves)
	before, _ := game.Revealed(unbounded(cur))
	if after, _ := game.Revealed(unbounded(next)); after != before {
		return v + 1
	}
	return g.floorAt(v)
}

var (
	errTakeBacksOff = errorf(http.StatusForbidden, "take_backs_off", "this game was created without take-backs")
	errNoRequest    = errorf(http.StatusConflict, "no_request", "no take-back is asked for at this version")
)

// askTakeBack asks, for seat, to take back its last move at version: done
// says whether it was taken back at once.
func (g *match) askTakeBack(ctx context.Context, seat, version int) (done bool, _ *apiError) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch v := len(g.moves); {
	case g.closed:
		return false, errShuttingDown
	case g.takeBacksOff:
		return false, errTakeBacksOff
	case g.cur.Over():
		return false, errGameOver
	case g.seats[seat].Kind != kindHuman:
		return false, errorf(http.StatusForbidden, "bad_token", "seat %d has been left to a bot", seat)
	case version != v:
		return false, errorf(http.StatusConflict, "stale_version", "the take-back was asked at version %d, but the game is at version %d", version, v)
	case g.pending != nil:
		return false, errorf(http.StatusConflict, "take_back_pending", "seat %d's take-back waits for answers", g.pending.Seat)
	}
	to := -1
	for i := len(g.moves) - 1; i >= 0; i-- {
		if g.moves[i].seat == seat {
			to = i
			break
		}
	}
	if to < 0 {
		return false, errorf(http.StatusConflict, "nothing_to_take_back", "seat %d has made no move", seat)
	}
	if floor := g.floorAt(len(g.moves)); to < floor {
		return false, errorf(http.StatusConflict, "chance_shown", "move %d showed what chance drew, and a take-back never goes back past that: seat %d's last move is move %d", floor, seat, to+1)
	}
	var others []int
	for i, st := range g.seats {
		if i != seat && st.Kind == kindHuman {
			others = append(others, i)
		}
	}
	if len(others) == 0 {
		return true, g.takeBack(ctx, seat, to)
	}
	g.pending = &takeBackRequest{Version: version, Seat: seat, To: to, Waiting: others, Accepted: []int{}}
	g.s.log.Info("take-back asked", "game", g.id, "seat", seat, "version", version, "to", to)
	g.broadcast(mustJSON(takeBackRequestEvent{Type: "take_back_request", takeBackRequest: g.pending}))
	return false, nil
}

// answerTakeBack answers, for seat, the take-back asked at version: done
// says whether the moves were taken back. The seat that asked may answer
// no, which withdraws its request.
func (g *match) answerTakeBack(ctx context.Context, seat, version int, accept bool) (done bool, _ *apiError) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false, errShuttingDown
	}
	r := g.pending
	if r == nil || r.Version != version {
		return false, errNoRequest
	}
	switch {
	case seat == r.Seat && !accept:
		g.endTakeBack("withdrawn", seat)
		return false, nil
	case !slices.Contains(r.Waiting, seat):
		return false, errorf(http.StatusConflict, "not_asked", "seat %d is not asked about this take-back", seat)
	case !accept:
		g.endTakeBack("refused", seat)
		return false, nil
	}
	r.Waiting = slices.DeleteFunc(r.Waiting, func(p int) bool { return p == seat })
	r.Accepted = append(r.Accepted, seat)
	g.broadcast(mustJSON(takeBackAnswerEvent{Type: "take_back_answer", Version: version, Seat: seat, Accept: true, Waiting: r.Waiting}))
	if len(r.Waiting) > 0 {
		return false, nil
	}
	return true, g.takeBack(ctx, r.Seat, r.To)
}

// endTakeBack ends the take-back asked for, for a reason ("refused",
// "withdrawn", "moved", "left") that seat gave.
func (g *match) endTakeBack(reason string, seat int) {
	r := g.pending
	g.pending = nil
	g.s.log.Info("take-back ended", "game", g.id, "asked by", r.Seat, "reason", reason, "seat", seat)
	g.broadcast(mustJSON(takeBackEndedEvent{Type: "take_back_ended", Version: r.Version, Seat: seat, Reason: reason}))
}

// takeBack takes the game back to version to, for seat: the moves after
// it leave the store, then memory, and every subscriber gets the state at
// the new version.
func (g *match) takeBack(ctx context.Context, seat, to int) *apiError {
	from := len(g.moves)
	now := time.Now()
	cur, owner := g.replay(to)
	clocks := g.clocksTakenBack(to, cur.ToMove(), now)
	reseeds := slices.DeleteFunc(slices.Clone(g.reseeds), func(rs game.Reseed) bool { return rs.At > to })
	if _, counts := game.Revealed(unbounded(cur)); !counts && cur.Secret() {
		rs := game.Reseed{At: to, Seed: secretSeed()}
		rs.Apply(cur)
		reseeds = append(reseeds, rs)
	}
	if err := g.s.store.TakeBack(g.fence(ctx), g.id, from, to, clocks, toStoredReseeds(reseeds), now); err != nil {
		if g.fenced(err) {
			return errMoved
		}
		g.s.log.Error("storing a take-back", "game", g.id, "from", from, "to", to, "err", err)
		if errors.Is(err, store.ErrClosed) {
			return errShuttingDown
		}
		return errorf(http.StatusInternalServerError, "internal_error", "the take-back could not be stored; nothing was taken back")
	}
	clear(g.moves[to:])
	g.moves = g.moves[:to]
	g.version.Store(int64(to))
	g.cur, g.owner, g.clocks, g.reseeds = cur, owner, clocks, reseeds
	g.turnStart, g.updated = now, now
	g.takeBacks++
	g.s.metrics.takeBacks.Inc()
	g.pending = nil
	g.botVersion = -1
	g.refresh()
	g.s.log.Info("moves taken back", "game", g.id, "seat", seat, "from", from, "to", to)
	ev := mustJSON(takeBackEvent{Type: "take_back", Version: to, From: from, Seat: seat, TakeBacks: g.takeBacks})
	byViewer := make(map[int][]byte)
	for c := range g.subs {
		key := g.viewer(c.seat)
		msg, ok := byViewer[key]
		if !ok {
			msg = withField(ev, "state", g.stateJSON(key, now))
			byViewer[key] = msg
		}
		if !c.send(msg) {
			g.drop(c)
		}
	}
	// Other nodes' clients reconnect and are brought to the history as it
	// is now, as a client that missed a take-back is.
	g.publish(int64(to), mustJSON(relayed{Reconnect: "moves were taken back"}))
	g.schedule()
	return nil
}

// secretSeed returns a seed nobody can foresee.
func secretSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// toStoredReseeds converts reseeds for the store: nil for none, which it
// keeps as NULL.
func toStoredReseeds(reseeds []game.Reseed) []store.Reseed {
	if len(reseeds) == 0 {
		return nil
	}
	out := make([]store.Reseed, len(reseeds))
	for i, rs := range reseeds {
		out[i] = store.Reseed{At: rs.At, Seed: rs.Seed}
	}
	return out
}

func fromStoredReseeds(reseeds []store.Reseed) []game.Reseed {
	out := make([]game.Reseed, len(reseeds))
	for i, rs := range reseeds {
		out[i] = game.Reseed{At: rs.At, Seed: rs.Seed}
	}
	return out
}

type takeBackBody struct {
	Version *int  `json:"version"`
	Accept  *bool `json:"accept"`
}

// handleTakeBack asks to take back the seat's last move, or, with
// "accept", answers the take-back another seat asked for.
func (s *Server) handleTakeBack(w http.ResponseWriter, r *http.Request, g *match) error {
	seat, e := seatFor(r, g)
	if e != nil {
		return e
	}
	var req takeBackBody
	if e := s.decodeBody(w, r, &req, false); e != nil {
		return e
	}
	if req.Version == nil {
		return errorf(http.StatusBadRequest, "bad_request", `a take-back needs the "version" it was asked at`)
	}
	var done bool
	if req.Accept == nil {
		done, e = g.askTakeBack(r.Context(), seat, *req.Version)
	} else {
		done, e = g.answerTakeBack(r.Context(), seat, *req.Version, *req.Accept)
	}
	if e != nil {
		return e.withState(g.currentState(seat))
	}
	g.mu.Lock()
	body := map[string]any{"done": done, "version": len(g.moves), "take_backs": g.takeBacksView(), "state": g.stateJSON(seat, time.Now())}
	g.mu.Unlock()
	writeJSON(w, http.StatusOK, body)
	return nil
}
