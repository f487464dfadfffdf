package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/internal/store"
)

// A game is the one authoritative owner of a game in the process. Its mutex
// orders everything that happens to the game: a move is checked, written to
// the store and only then applied in memory and broadcast, all under the
// lock, so subscribers see the moves in the order of their versions and
// nobody ever sees a move that is not stored.
type game struct {
	s          *Server
	id         string
	created    time.Time
	board      *bluelagoon.Board
	boardJSON  json.RawMessage
	layout     *layout
	seedChosen bool
	clock      *store.Clock

	// version is the number of moves made, readable without the lock.
	version    atomic.Int64
	lastAccess atomic.Int64 // unix nanoseconds, for forgetting finished games

	mu             sync.Mutex
	rec            bluelagoon.Record
	cur            bluelagoon.Game
	moves          []moveInfo
	seats          []store.Seat
	clocks         []int64 // time banks in ms; the seat to move's as of turnStart
	turnStart      time.Time
	timer          *time.Timer
	explorationEnd *phaseSummaryView
	subs           map[*wsConn]struct{}
	connected      []int
	view           stateView // the current state, without clocks
	botVersion     int       // the version a bot move is under way for, -1 for none
	updated        time.Time
	closed         bool
}

// moveInfo is what the game remembers of a move besides the move itself.
type moveInfo struct {
	seat   int
	move   bluelagoon.Move
	took   *string
	phase  bluelagoon.Phase
	at     time.Time
	clocks []int64 // time banks after the move, nil without clocks
}

func (mi *moveInfo) view(version int, l *layout) moveView {
	return moveView{Version: version, Seat: mi.seat, Move: l.move(mi.move), Phase: mi.phase.String(), Took: mi.took}
}

// loadGame makes the owner of a stored game, replaying and checking its
// moves.
func (s *Server) loadGame(sg *store.Game) (*game, error) {
	b, err := s.board(sg.Board)
	if err != nil {
		return nil, fmt.Errorf("game %s: board: %w", sg.ID, err)
	}
	g := &game{
		s: s, id: sg.ID, created: sg.Created, board: b.board, boardJSON: b.json, layout: b.layout,
		seedChosen: sg.SeedChosen, clock: sg.Clock, seats: sg.Seats, updated: sg.Updated,
		subs: make(map[*wsConn]struct{}), connected: make([]int, sg.Players), botVersion: -1,
	}
	g.rec.Setup = bluelagoon.Setup{Board: b.board, Players: sg.Players, Seed: sg.Seed, First: sg.First}
	if len(sg.Seats) != sg.Players {
		return nil, fmt.Errorf("game %s: %d seats for %d players", sg.ID, len(sg.Seats), sg.Players)
	}
	start, err := bluelagoon.NewGame(g.rec.Setup)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", sg.ID, err)
	}
	g.cur = *start
	for i, sm := range sg.Moves {
		m, err := bluelagoon.ParseMove(sm.Move)
		if err != nil {
			return nil, fmt.Errorf("game %s: move %d: %w", sg.ID, i+1, err)
		}
		if sm.Seat != g.cur.Current() {
			return nil, fmt.Errorf("game %s: move %d is stored for seat %d, but seat %d was to move", sg.ID, i+1, sm.Seat, g.cur.Current())
		}
		prev := g.cur
		if err := g.cur.Apply(m); err != nil {
			return nil, fmt.Errorf("game %s: move %d: %w", sg.ID, i+1, err)
		}
		g.record(&prev, moveInfo{seat: sm.Seat, move: m, took: took(&prev, m), phase: prev.Phase(), at: sm.At, clocks: sm.Clocks})
	}
	if g.clock != nil {
		g.clocks = slices.Clone(sg.Clocks)
		if len(g.clocks) != sg.Players {
			g.clocks = initialClocks(g.clock, sg.Players)
		}
	}
	g.turnStart = time.Now()
	g.refreshView()
	g.lastAccess.Store(time.Now().UnixNano())
	return g, nil
}

func initialClocks(c *store.Clock, players int) []int64 {
	out := make([]int64, players)
	for i := range out {
		out[i] = c.InitialMS
	}
	return out
}

// took returns the token that m takes in g, if any.
func took(g *bluelagoon.Game, m bluelagoon.Move) *string {
	if t, ok := g.TokenAt(m.At); ok {
		return tokenName(t)
	}
	return nil
}

// record appends a move, already applied to g.cur, to the game's history.
func (g *game) record(prev *bluelagoon.Game, mi moveInfo) {
	g.rec.Moves = append(g.rec.Moves, mi.move)
	g.moves = append(g.moves, mi)
	v := len(g.moves)
	g.version.Store(int64(v))
	if prev.Phase() == bluelagoon.Exploration && (g.cur.Phase() == bluelagoon.Settlement) {
		g.explorationEnd = makePhaseSummary(v, prev, mi.move, &g.cur, g.layout)
	}
}

// names returns the seats' names.
func (g *game) names() []string {
	out := make([]string, len(g.seats))
	for i, st := range g.seats {
		out[i] = st.Name
	}
	return out
}

// refreshView describes the current position; clocks are added when it is
// sent.
func (g *game) refreshView() {
	var last *moveView
	if v := len(g.moves); v > 0 {
		mv := g.moves[v-1].view(v, g.layout)
		last = &mv
	}
	g.view = makeState(&g.cur, g.layout, last, nil, g.names())
}

// clocksStarted reports whether the clocks run: the game has clocks and
// every human seat has been joined.
func (g *game) clocksStarted() bool {
	if g.clock == nil {
		return false
	}
	for _, st := range g.seats {
		if st.Kind == kindOpen || (st.Kind == kindHuman && !st.Joined) {
			return false
		}
	}
	return true
}

// clockRuns reports whether seat p's clock runs when p is to move.
func (g *game) clockRuns(p int) bool {
	return g.clocksStarted() && g.seats[p].Kind != kindBot
}

// remaining returns seat p's time bank at now.
func (g *game) remaining(p int, now time.Time) int64 {
	r := g.clocks[p]
	if p == g.cur.Current() && !g.cur.Over() && g.clockRuns(p) {
		r -= now.Sub(g.turnStart).Milliseconds()
	}
	return max(0, r)
}

// clockViews describes the clocks at now, nil for a game without clocks.
func (g *game) clockViews(now time.Time) []clockView {
	if g.clock == nil {
		return nil
	}
	out := make([]clockView, len(g.clocks))
	for p := range out {
		out[p] = clockView{
			RemainingMS: g.remaining(p, now),
			Running:     p == g.cur.Current() && !g.cur.Over() && g.clockRuns(p),
		}
	}
	return out
}

// historicClocks describes the clocks as they were right after a move, with
// seat to move the seat whose clock then ran.
func (g *game) historicClocks(banks []int64, toMove int, over bool) []clockView {
	if g.clock == nil || banks == nil {
		return nil
	}
	out := make([]clockView, len(banks))
	for p, r := range banks {
		out[p] = clockView{RemainingMS: r, Running: p == toMove && !over && g.clockRuns(p)}
	}
	return out
}

// stateJSON encodes the current state with the clocks at now.
func (g *game) stateJSON(now time.Time) json.RawMessage {
	v := g.view
	v.Clocks = g.clockViews(now)
	return mustJSON(v)
}

// withState adds a "state" field to an encoded object. The state is already
// encoded, once for every subscriber; embedding it as a json.RawMessage would
// have encoding/json check and compact it again for each message.
func withState(object []byte, state json.RawMessage) []byte {
	out := make([]byte, 0, len(object)+len(state)+10)
	out = append(out, object[:len(object)-1]...)
	out = append(out, `,"state":`...)
	out = append(out, state...)
	return append(out, '}')
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("server: encoding %T: %v", v, err))
	}
	return b
}

// seatViews describes the seats.
func (g *game) seatViews() []seatView {
	out := make([]seatView, len(g.seats))
	for i, st := range g.seats {
		out[i] = seatView{Seat: i, Name: st.Name, Kind: st.Kind, Level: st.Level, Joined: st.Joined || st.Kind == kindBot,
			Connected: g.connected[i], StandIn: st.StandIn}
	}
	return out
}

// seatOf returns the seat whose token this is, or -1.
func (g *game) seatOf(token string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.seatOfLocked(token)
}

func (g *game) seatOfLocked(token string) int {
	for i, st := range g.seats {
		if st.Kind == kindHuman && tokenMatches(token, st.TokenHash) {
			return i
		}
	}
	return -1
}

// A moveRequest asks for a move for a seat.
type moveRequest struct {
	seat    int
	version int // the version the move was made against
	move    bluelagoon.Move
	person  bool // made by the seat's person, not by a bot playing for it
}

// play makes a move: it checks it, stores it, and only then applies it,
// broadcasts it and answers. A request repeated after it was applied is
// answered as a duplicate and not applied again.
func (g *game) play(ctx context.Context, req moveRequest) (version int, duplicate bool, _ *apiError) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return 0, false, errShuttingDown
	}
	v := len(g.moves)
	if req.version >= 0 && req.version < v {
		if mi := g.moves[req.version]; mi.seat == req.seat && mi.move == req.move {
			return req.version + 1, true, nil
		}
	}
	if req.version != v {
		return 0, false, errorf(409, "stale_version", "the move was made against version %d, but the game is at version %d", req.version, v)
	}
	if g.cur.Over() {
		return 0, false, errGameOver
	}
	if req.person && g.seats[req.seat].Kind != kindHuman {
		return 0, false, errorf(403, "bad_token", "seat %d has been left to a bot", req.seat)
	}
	if p := g.cur.Current(); p != req.seat {
		return 0, false, errorf(409, "not_your_turn", "it is seat %d's turn, not seat %d's", p, req.seat)
	}
	next := g.cur
	if err := next.Apply(req.move); err != nil {
		return 0, false, errorf(422, "illegal_move", "%v", err)
	}

	now := time.Now()
	mi := moveInfo{seat: req.seat, move: req.move, took: took(&g.cur, req.move), phase: g.cur.Phase(), at: now}
	if g.clock != nil {
		mi.clocks = slices.Clone(g.clocks)
		if g.clockRuns(req.seat) {
			mi.clocks[req.seat] = g.remaining(req.seat, now) + g.clock.IncrementMS
		}
	}
	after := store.After{Over: next.Over()}
	if req.person && (g.seats[req.seat].StandIn || !g.seats[req.seat].Joined) {
		after.Seats = slices.Clone(g.seats)
		after.Seats[req.seat].StandIn = false
		after.Seats[req.seat].Joined = true
	}
	// The seat to move next, if a stand-in plays for it, has at least the
	// grace to come back: part of the banks the move leaves, so that it is
	// sent with the move and stored with it (a restart does not give it
	// again).
	seatsAfter := g.seats
	if after.Seats != nil {
		seatsAfter = after.Seats
	}
	if q := next.Current(); mi.clocks != nil && !next.Over() && g.clockRuns(q) && seatsAfter[q].StandIn {
		mi.clocks[q] = max(mi.clocks[q], g.s.cfg.StandInGrace.Milliseconds())
	}
	totals := next.Totals()
	after.Summary = store.Summary{Phase: next.Phase().String(), Current: next.Current(), Totals: totals[:next.Players()], Winners: next.Winners()}
	sm := store.Move{Seat: req.seat, Move: g.layout.move(req.move), At: now, Clocks: mi.clocks}
	if err := g.s.store.AppendMove(ctx, g.id, v+1, sm, after); err != nil {
		g.s.log.Error("storing a move", "game", g.id, "version", v+1, "err", err)
		if errors.Is(err, store.ErrClosed) {
			return 0, false, errShuttingDown
		}
		return 0, false, errorf(500, "internal_error", "the move could not be stored; it was not made")
	}

	prev := g.cur
	g.cur = next
	g.record(&prev, mi)
	if mi.clocks != nil {
		g.clocks = slices.Clone(mi.clocks)
	}
	g.turnStart = now
	g.updated = now
	if after.Seats != nil {
		g.seats = after.Seats
	}
	g.refreshView()
	state := g.stateJSON(now)
	g.broadcast(g.events(v+1, &prev, &g.cur, state)...)
	if after.Seats != nil {
		g.broadcastSeats(now)
	}
	if g.cur.Over() {
		g.s.log.Info("game over", "game", g.id, "version", v+1, "winners", g.cur.Winners())
	}
	g.schedule()
	return v + 1, false, nil
}

// events returns the encoded events of the move that made version v: prev
// is the game before it and next after it, state next's encoded state.
func (g *game) events(v int, prev, next *bluelagoon.Game, state json.RawMessage) [][]byte {
	mi := &g.moves[v-1]
	out := [][]byte{withState(mustJSON(moveEvent{Type: "move", Version: v, Seat: mi.seat, Move: g.layout.move(mi.move), Took: mi.took}), state)}
	n := next.Players()
	if prev.Phase() == bluelagoon.Exploration && (next.Phase() == bluelagoon.Settlement) {
		scores, _ := next.PhaseScores(bluelagoon.Exploration)
		totals := make([]int, n)
		for p := range totals {
			totals[p] = scores[p].Total
		}
		sum := g.explorationEnd
		if sum == nil || sum.Version != v {
			sum = makePhaseSummary(v, prev, mi.move, next, g.layout)
		}
		out = append(out, mustJSON(phaseEndEvent{Type: "phase_end", Version: v, Phase: bluelagoon.Exploration.String(), Scores: scores[:n], Totals: totals, Summary: sum}))
	}
	if next.Over() {
		scores, _ := next.PhaseScores(bluelagoon.Settlement)
		totals := next.Totals()
		out = append(out, mustJSON(phaseEndEvent{Type: "phase_end", Version: v, Phase: bluelagoon.Settlement.String(), Scores: scores[:n], Totals: totals[:n]}))
		out = append(out, mustJSON(gameOverEvent{Type: "game_over", Version: v, Result: makeResult(next, g.names())}))
	}
	return out
}

// eventsSince returns the events after version from, in order, by
// replaying the record.
func (g *game) eventsSince(from int, now time.Time) [][]byte {
	rec := bluelagoon.Record{Setup: g.rec.Setup, Moves: g.rec.Moves[:from]}
	pos, err := rec.Replay(-1)
	if err != nil {
		panic(fmt.Sprintf("server: game %s does not replay: %v", g.id, err))
	}
	var out [][]byte
	names := g.names()
	for v := from + 1; v <= len(g.moves); v++ {
		prev := *pos
		mi := &g.moves[v-1]
		pos.ApplyLegal(mi.move)
		var state json.RawMessage
		if v == len(g.moves) {
			state = g.stateJSON(now)
		} else {
			mv := mi.view(v, g.layout)
			state = mustJSON(makeState(pos, g.layout, &mv, g.historicClocks(mi.clocks, pos.Current(), pos.Over()), names))
		}
		out = append(out, g.events(v, &prev, pos, state)...)
	}
	return out
}

// broadcast sends messages to every subscriber. A subscriber too slow to
// take them is dropped; it will reconnect and catch up.
func (g *game) broadcast(msgs ...[]byte) {
	for c := range g.subs {
		for _, m := range msgs {
			if !c.send(m) {
				g.drop(c)
				break
			}
		}
	}
}

// drop forgets subscriber c.
func (g *game) drop(c *wsConn) {
	if _, ok := g.subs[c]; !ok {
		return
	}
	delete(g.subs, c)
	if c.seat >= 0 {
		g.connected[c.seat]--
	}
}

func (g *game) broadcastSeats(now time.Time) {
	g.broadcast(g.seatsMessage(now))
}

// seatsMessage is the seats event: the seats and the clocks at now.
func (g *game) seatsMessage(now time.Time) []byte {
	return mustJSON(seatsEvent{Type: "seats", Version: len(g.moves), Seats: g.seatViews(), Clocks: g.clockViews(now)})
}

// schedule arranges what happens next without a person: a bot's move, or the
// clock of the seat to move.
func (g *game) schedule() {
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	if g.closed || g.cur.Over() {
		return
	}
	p := g.cur.Current()
	v := len(g.moves)
	switch st := g.seats[p]; {
	case st.Kind == kindBot:
		g.queueBot(v, p, st.Level)
	case g.clockRuns(p):
		wait := time.Duration(g.remaining(p, time.Now())) * time.Millisecond
		g.timer = time.AfterFunc(wait, func() { g.timeout(v) })
	}
}

// clockSaver returns what stores the time bank of the seat to move as it
// is now, so that the time it has used on this turn still counts when the
// game is loaded again (the clock starts again from the stored bank), or
// nil if there is nothing to store. The server calls it as it closes, with
// g locked and closed, and stores the clocks of all its games at once;
// after a crash the turn's time is given back.
func (g *game) clockSaver() func(context.Context) {
	if g.clock == nil || g.cur.Over() {
		return nil
	}
	p := g.cur.Current()
	left := g.remaining(p, time.Now())
	if left == g.clocks[p] {
		return nil
	}
	clocks := slices.Clone(g.clocks)
	clocks[p] = left
	id, version, seats, updated := g.id, len(g.moves), g.seats, g.updated
	return func(ctx context.Context) {
		if err := g.s.store.UpdateSeats(ctx, id, version, seats, clocks, updated); err != nil {
			g.s.log.Error("storing the clock at shutdown", "game", id, "err", err)
		}
	}
}

// queueBot asks the bot pool for a move at version v, once.
func (g *game) queueBot(v, seat int, level string) {
	if g.botVersion == v {
		return
	}
	g.botVersion = v
	g.s.bots.queue(botJob{g: g, version: v, seat: seat, level: level})
}

// timeout is called when the clock of the seat to move at version v may
// have run out: the stand-in bot then plays for that seat.
func (g *game) timeout(v int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || len(g.moves) != v || g.cur.Over() {
		return
	}
	p := g.cur.Current()
	now := time.Now()
	if g.remaining(p, now) > 0 {
		g.schedule()
		return
	}
	g.clocks[p] = 0
	g.turnStart = now
	if !g.seats[p].StandIn {
		seats := slices.Clone(g.seats)
		seats[p].StandIn = true
		if err := g.s.store.UpdateSeats(context.Background(), g.id, len(g.moves), seats, g.clocks, now); err != nil {
			g.s.log.Error("storing a stand-in", "game", g.id, "seat", p, "err", err)
		} else {
			g.seats = seats
		}
		g.s.log.Info("time is up; the stand-in bot plays", "game", g.id, "seat", p)
		g.broadcastSeats(now)
	}
	g.queueBot(v, p, g.s.cfg.StandInLevel)
}

// setSeats stores new seats and tells the subscribers.
func (g *game) setSeats(ctx context.Context, seats []store.Seat) *apiError {
	now := time.Now()
	startedBefore := g.clocksStarted()
	old := g.seats
	g.seats = seats
	startsNow := !startedBefore && g.clocksStarted()
	g.seats = old
	if err := g.s.store.UpdateSeats(ctx, g.id, len(g.moves), seats, g.clocks, now); err != nil {
		g.s.log.Error("storing seats", "game", g.id, "err", err)
		if errors.Is(err, store.ErrClosed) {
			return errShuttingDown
		}
		return errorf(500, "internal_error", "the seats could not be stored")
	}
	g.seats = seats
	g.updated = now
	if startsNow {
		g.turnStart = now
	}
	g.refreshView()
	g.broadcastSeats(now)
	g.schedule()
	return nil
}

// errGameOver refuses what only a game in progress allows: a finished
// game's seats are part of its record.
var errGameOver = errorf(409, "game_over", "the game is over")

// join marks seat as joined, renaming it if name is not empty.
func (g *game) join(ctx context.Context, seat int, name string) *apiError {
	if g.seats[seat].Joined && (name == "" || name == g.seats[seat].Name) {
		return nil
	}
	if g.cur.Over() {
		return errGameOver
	}
	seats := slices.Clone(g.seats)
	seats[seat].Joined = true
	if name != "" {
		seats[seat].Name = name
	}
	return g.setSeats(ctx, seats)
}

// fullView describes the game at version at (the current one if at < 0) for
// the viewer in seat you (-1 for a spectator).
func (g *game) fullView(at, you int) gameView {
	now := time.Now()
	v := gameView{
		ID: g.id, Created: g.created, Board: g.boardJSON, Players: g.rec.Players, First: g.rec.First,
		SeedChosen: g.seedChosen, Seats: g.seatViews(), Moves: []moveView{},
	}
	if you >= 0 {
		v.You = &you
	}
	if g.clock != nil {
		v.Clock = &clockSettingsView{InitialMS: g.clock.InitialMS, IncrementMS: g.clock.IncrementMS, Started: g.clocksStarted()}
	}
	if at < 0 || at > len(g.moves) {
		at = len(g.moves)
	}
	for i := range at {
		v.Moves = append(v.Moves, g.moves[i].view(i+1, g.layout))
	}
	if g.explorationEnd != nil && g.explorationEnd.Version <= at {
		v.ExplorationEnd = g.explorationEnd
	}
	if at == len(g.moves) {
		v.State = g.stateJSON(now)
		return v
	}
	v.State = mustJSON(g.stateAt(at))
	return v
}

// stateAt describes the game at an earlier version.
func (g *game) stateAt(at int) stateView {
	pos := g.positionAt(at)
	var last *moveView
	var clocks []clockView
	if at > 0 {
		mv := g.moves[at-1].view(at, g.layout)
		last = &mv
		clocks = g.historicClocks(g.moves[at-1].clocks, pos.Current(), pos.Over())
	} else if g.clock != nil {
		clocks = g.historicClocks(initialClocks(g.clock, g.rec.Players), pos.Current(), pos.Over())
	}
	return makeState(pos, g.layout, last, clocks, g.names())
}

// positionAt replays the game to version at.
func (g *game) positionAt(at int) *bluelagoon.Game {
	if at == len(g.moves) {
		c := g.cur
		return &c
	}
	pos, err := g.rec.Replay(at)
	if err != nil {
		panic(fmt.Sprintf("server: game %s does not replay: %v", g.id, err))
	}
	return pos
}

// summaryView describes the game for the lobby.
func (g *game) summaryView() summaryView {
	v := summaryView{
		ID: g.id, Board: boardLabel(g.board), Players: g.rec.Players, OpenSeats: []int{}, Version: len(g.moves),
		Phase: g.cur.Phase().String(), Current: g.cur.Current(), Over: g.cur.Over(), Winners: g.cur.Winners(),
		Created: g.created, Updated: g.updated,
	}
	totals := g.cur.Totals()
	v.Totals = totals[:g.rec.Players]
	for i, st := range g.seats {
		v.Seats = append(v.Seats, summarySeatView{Seat: i, Name: st.Name, Kind: st.Kind, Level: st.Level, Joined: st.Joined || st.Kind == kindBot})
		if st.Kind == kindOpen {
			v.OpenSeats = append(v.OpenSeats, i)
		}
	}
	return v
}

func boardLabel(b *bluelagoon.Board) string {
	if b.Name() == "" {
		return "custom"
	}
	return b.Name()
}

// The messages the server sends; see docs/protocol.md.
type (
	// moveEvent is a move event but for its state, which withState adds.
	moveEvent struct {
		Type    string  `json:"type"`
		Version int     `json:"version"`
		Seat    int     `json:"seat"`
		Move    string  `json:"move"`
		Took    *string `json:"took"`
	}
	phaseEndEvent struct {
		Type    string             `json:"type"`
		Version int                `json:"version"`
		Phase   string             `json:"phase"`
		Scores  []bluelagoon.Score `json:"scores"`
		Totals  []int              `json:"totals"`
		Summary *phaseSummaryView  `json:"summary"`
	}
	gameOverEvent struct {
		Type    string      `json:"type"`
		Version int         `json:"version"`
		Result  *resultView `json:"result"`
	}
	seatsEvent struct {
		Type    string      `json:"type"`
		Version int         `json:"version"`
		Seats   []seatView  `json:"seats"`
		Clocks  []clockView `json:"clocks"`
	}
	welcomeMessage struct {
		Type    string     `json:"type"`
		You     *int       `json:"you"`
		Version int        `json:"version"`
		Resume  string     `json:"resume"`
		Seats   []seatView `json:"seats"`
	}
	snapshotMessage struct {
		Type string   `json:"type"`
		Game gameView `json:"game"`
	}
	ackMessage struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		Version   int    `json:"version"`
		Duplicate bool   `json:"duplicate"`
	}
	errorMessage struct {
		Type    string          `json:"type"`
		ID      string          `json:"id,omitempty"`
		Status  int             `json:"status"`
		Code    string          `json:"code"`
		Message string          `json:"message"`
		State   json.RawMessage `json:"state,omitempty"`
	}
	heartbeatMessage struct {
		Type    string `json:"type"`
		Version int64  `json:"version"`
	}
	pongMessage struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
)
