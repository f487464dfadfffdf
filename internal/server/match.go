package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/corr"
	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// A match is the one authoritative owner of a game in the process. Its
// mutex orders everything that happens to the game: a move is checked,
// written to the store and only then applied in memory and broadcast, all
// under the lock, so subscribers see the moves in the order of their
// versions and nobody ever sees a move that is not stored. playLocked's
// steps are that order (checkMove, storeMove, apply, broadcastMove), and a
// take-back keeps it too.
type match struct {
	s          *Server
	id         string
	created    time.Time
	rules      *game.Rules
	setup      game.Setup // every option set
	table      json.RawMessage
	seedChosen bool
	time       *store.Time // nil without time

	// version is the number of moves made, readable without the lock.
	version    atomic.Int64
	lastAccess atomic.Int64 // unix nanoseconds, for forgetting finished games
	// summary is the lobby's line for the game, kept up to date by
	// refresh: the lobby, the health and the limits read it without the
	// game's lock, which a move holds while the store writes it.
	summary atomic.Pointer[summaryView]
	// creator is the address group the game was created from (addrGroup;
	// "" for a game resumed from the store); botsOnly says every seat was
	// a bot's.
	creator  string
	botsOnly bool

	mu    sync.Mutex
	start game.State // the state before the first move, for replays
	// checkpoints are states the replays start from (replay.go): the
	// state at version k*checkpointEvery is checkpoints[k-1], or nil where
	// a take-back dropped it. Like start,
	// nobody plays on them. movesJSON holds each move's view, encoded:
	// movesJSON[i] is the move that made version i+1. replayGen is the
	// take-backs' count when the last move was recorded.
	checkpoints []game.State
	// reseeds are the take-backs' new draws of chance, which every
	// replay makes where they were made (game.ReseedAt). A take-back
	// gives the game a new slice, so a replay may read an old one.
	reseeds   []game.Reseed
	movesJSON [][]byte
	replayGen int
	cur       game.State
	spare     game.State // a state whose memory a move reuses, so as not to allocate
	moves     []moveInfo
	owner     int // the seat whose turn it is: the seat to move when it began
	seats     []store.Seat
	clocks    []int64 // ms: the banks, or the turn's time in the entry of the seat to move; as of turnStart
	turnStart time.Time
	// away holds, under a correspondence rule, the vacations of the
	// players holding the seats, by seat (vacation.go): those ending
	// after the turn began, read from the store.
	away      map[int][]corr.Vacation
	timer     *time.Timer
	held      *heldMove // a move waiting for its hand (hand.go), or nil
	subs      map[*wsConn]struct{}
	connected []int
	// connectedAt are the seats' clients on other nodes of a cluster, by
	// node (remote.go): counted with connected, and dropped with a node
	// that is no longer alive.
	connectedAt map[string][]int
	// views holds the current state's view, encoded, by viewer (-1 for
	// spectators, and for everyone in a game without private views);
	// standing the current standing. A move or a change of names clears
	// views.
	views      map[int]json.RawMessage
	standing   standingView
	botVersion int // the version a bot move is under way for, -1 for none
	// fastBots says a person at the table asked for bots without pauses
	// (handleBotPace). It is kept in memory only: the page that asked
	// asks again whenever it connects.
	fastBots bool
	updated  time.Time
	closed   bool
	// epoch is the lease's epoch under which this node owns the game in
	// a cluster (node.go), which fences its writes: 0 for a server alone
	// or a finished game read, -1 once the lease of a game over is
	// released. renewed is when the last renewal (or acquisition) of the
	// lease that succeeded was sent: the database judged the lease's
	// expiry from a moment after it, so the lease is surely this node's
	// until renewed plus the lease time (leaseHeldLocked).
	epoch   int64
	renewed time.Time
	// givenUp says the node gave the game up, its lease lost (closed is
	// true too): it is on its way out of the server's games, and a
	// request reads it as a game owned elsewhere.
	givenUp bool

	// takeBacksOff says the table allows no take-backs; takeBacks counts
	// those made, and is the history's generation: a bot's move or a
	// timer of an earlier one is stale even at the same version. pending
	// is a take-back asked for among people, waiting for their answers.
	takeBacksOff bool
	takeBacks    int
	pending      *takeBackRequest
}

// moveInfo is what the match remembers of a move.
type moveInfo struct {
	seat      int
	move      game.Move
	text      string          // in the game's notation
	note      json.RawMessage // the game's note, encoded
	turnEnded bool            // the move ended its turn
	owner     int             // the seat whose turn the move was made in
	byTime    bool            // the time rule made it for the seat
	at        time.Time
	clocks    []int64 // the time after the move, nil without time
	// floor is the lowest version a take-back may go back to once the
	// move is made: the version of the last move up to it that showed
	// chance (takeback.go), 0 if none did.
	floor int
}

func (mi *moveInfo) view(version int) *moveView {
	return &moveView{Version: version, Seat: mi.seat, Move: mi.text, Note: mi.note, ByTime: mi.byTime}
}

// loadGame makes the owner of a stored game, replaying and checking its
// moves.
func (s *Server) loadGame(sg *store.Game) (*match, error) {
	rules, err := s.cfg.Games.Get(sg.Game)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", sg.ID, err)
	}
	if len(sg.Seats) != sg.Players {
		return nil, fmt.Errorf("game %s: %d seats for %d players", sg.ID, len(sg.Seats), sg.Players)
	}
	opts, err := rules.CheckOptions(sg.Options)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", sg.ID, err)
	}
	setup := game.Setup{Players: sg.Players, Options: opts, Seed: sg.Seed}
	first, err := rules.NewGame(setup)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", sg.ID, err)
	}
	start := bound(first, s.moveLimit(sg))
	g := &match{
		s: s, id: sg.ID, created: sg.Created, rules: rules, setup: setup, table: mustJSON(start.Table()),
		seedChosen: sg.SeedChosen, time: sg.Time, seats: sg.Seats, updated: sg.Updated,
		start: start, cur: start.Clone(), owner: start.ToMove(),
		subs: make(map[*wsConn]struct{}), connected: make([]int, sg.Players), botVersion: -1,
		takeBacksOff: sg.TakeBacksOff, takeBacks: sg.TakeBacks, reseeds: fromStoredReseeds(sg.Reseeds),
	}
	game.ReseedAt(g.cur, g.reseeds, 0)
	next := start.Clone()
	for i, sm := range sg.Moves {
		if p := g.cur.ToMove(); sm.Seat != p {
			return nil, fmt.Errorf("game %s: move %d is stored for seat %d, but seat %d was to move", sg.ID, i+1, sm.Seat, p)
		}
		m, err := g.cur.ParseMove(sm.Move)
		if err != nil {
			return nil, fmt.Errorf("game %s: move %d: %w", sg.ID, i+1, err)
		}
		next.CopyFrom(g.cur)
		if err := next.Play(m); err != nil {
			return nil, fmt.Errorf("game %s: move %d: %w", sg.ID, i+1, err)
		}
		mi := moveInfo{seat: sm.Seat, move: m, text: g.cur.MoveText(m), note: mustJSON(game.NoteOf(g.cur, m, sm.ByTime)),
			turnEnded: next.Turn() != g.cur.Turn(), owner: g.owner, byTime: sm.ByTime, at: sm.At, clocks: sm.Clocks, floor: g.floorAfter(g.cur, next)}
		g.cur, next = next, g.cur
		game.ReseedAt(g.cur, g.reseeds, i+1)
		g.record(mi)
	}
	g.spare = next
	if g.time != nil {
		g.clocks = slices.Clone(sg.Clocks)
		if len(g.clocks) != sg.Players {
			g.clocks = initialClocks(g.time, start)
		}
	}
	g.turnStart = time.Now()
	if g.byPost() {
		// The stored clocks are as of the last write (time.go), and a
		// correspondence turn's time ran while no server kept it.
		g.turnStart = sg.Updated
		g.readAway(context.Background())
	}
	g.refresh()
	g.lastAccess.Store(time.Now().UnixNano())
	return g, nil
}

// initialClocks returns the time at the start of a game: every seat's bank,
// or the first turn's time; nil without time.
func initialClocks(t *store.Time, start game.State) []int64 {
	if t == nil {
		return nil
	}
	out := make([]int64, start.Players())
	switch t.Kind {
	case string(game.Bank):
		for i := range out {
			out[i] = t.InitialMS
		}
	case string(game.TurnTimer), string(game.Correspondence):
		if p := start.ToMove(); p >= 0 {
			out[p] = t.TurnMS
		}
	}
	return out
}

// record appends a move, already played on g.cur, to the game's history.
func (g *match) record(mi moveInfo) {
	g.moves = append(g.moves, mi)
	g.version.Store(int64(len(g.moves)))
	g.keepForReplays()
	if mi.turnEnded {
		g.owner = g.cur.ToMove()
	}
}

// names returns the seats' names.
func (g *match) names() []string {
	out := make([]string, len(g.seats))
	for i, st := range g.seats {
		out[i] = st.Name
	}
	return out
}

// refresh forgets the views of the state before and takes its standing.
func (g *match) refresh() {
	clear(g.views)
	if g.views == nil {
		g.views = make(map[int]json.RawMessage)
	}
	g.standing = standingOf(g.cur)
	sv := g.summaryView()
	g.summary.Store(&sv)
	g.s.changes.Mark(players.GameKey(g.id))
}

// viewer returns the key of the view a seat sees (-1 for a spectator): the
// spectators' in a game without private views.
func (g *match) viewer(seat int) int {
	if !g.rules.PrivateViews {
		return game.NoSeat
	}
	return seat
}

// view returns the current state's view for seat, encoded once.
func (g *match) view(seat int) json.RawMessage {
	key := g.viewer(seat)
	if v, ok := g.views[key]; ok {
		return v
	}
	v := mustJSON(g.cur.View(game.Viewer{Seat: key, Names: g.names()}))
	g.views[key] = v
	return v
}

// stateJSON encodes the current state as seat sees it, with the clocks at
// now.
func (g *match) stateJSON(seat int, now time.Time) json.RawMessage {
	v := len(g.moves)
	head := stateHead{Version: v, ToMove: g.cur.ToMove(), Over: g.cur.Over(), Clocks: g.clockViews(now), Standing: g.standing, TakeBackFloor: g.floorAt(v)}
	if v > 0 {
		head.LastMove = g.moves[v-1].view(v)
	}
	return withField(mustJSON(head), "view", g.view(seat))
}

// replay plays the game's first n moves again, with the reseeds made on
// the way, and returns the position and the seat whose turn it is there.
func (g *match) replay(n int) (pos game.State, owner int) {
	pos = g.start.Clone()
	owner = pos.ToMove()
	game.ReseedAt(pos, g.reseeds, 0)
	for i, mi := range g.moves[:n] {
		if err := pos.Play(mi.move); err != nil {
			panic(fmt.Sprintf("server: game %s does not replay at move %d: %v", g.id, i+1, err))
		}
		if mi.turnEnded {
			owner = pos.ToMove()
		}
		game.ReseedAt(pos, g.reseeds, i+1)
	}
	return pos, owner
}

// withField adds a field, already encoded, to an encoded object. The value
// is encoded once for every subscriber; embedding it as a json.RawMessage
// would have encoding/json check and compact it again for each message.
func withField(object []byte, name string, value json.RawMessage) []byte {
	out := make([]byte, 0, len(object)+len(name)+len(value)+4)
	out = append(out, object[:len(object)-1]...)
	out = append(out, `,"`...)
	out = append(out, name...)
	out = append(out, `":`...)
	out = append(out, value...)
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
func (g *match) seatViews() []seatView {
	out := make([]seatView, len(g.seats))
	for i, st := range g.seats {
		out[i] = seatView{Seat: i, Name: st.Name, Kind: st.Kind, Level: st.Level, Joined: st.Joined || st.Kind == kindBot,
			Connected: g.connected[i], StandIn: st.StandIn, AwayUntil: g.awayUntil(i, time.Now())}
		for _, counts := range g.connectedAt {
			out[i].Connected += counts[i]
		}
	}
	return out
}

// seatOf returns the seat whose token this is, or -1.
func (g *match) seatOf(token string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.seatOfLocked(token)
}

func (g *match) seatOfLocked(token string) int {
	for i, st := range g.seats {
		if st.Kind == kindHuman && tokenMatches(token, st.TokenHash) {
			return i
		}
	}
	return -1
}

// A moveRequest asks for a move for a seat: by its text (from a client) or
// the move itself (from a bot or the rules when time is up).
type moveRequest struct {
	seat    int
	version int // the version the move was made against
	text    string
	move    game.Move
	person  bool // made by the seat's person, not by a bot or the rules playing for it
	// takeBacks is, for a move not made by a person, the generation of
	// the history it was chosen in (match.takeBacks).
	takeBacks int
	// afterTime says the time rule makes the move, the turn's time being
	// up (the rules' TimeUp move, a bot deciding in the seat's stead):
	// the only moves a seat whose turn timer ran out may make.
	afterTime bool
	// held says the move waited for its hand (hold): like a bot's, it
	// was made in the generation takeBacks, and move is its text read.
	held bool
}

// playLocked is play under g.mu. Its steps keep the type's order: check
// the move, store it, and only then apply it and broadcast it.
func (g *match) playLocked(ctx context.Context, req moveRequest) (version int, duplicate bool, _ *apiError) {
	if g.closed {
		return 0, false, errShuttingDown
	}
	v := len(g.moves)
	if req.version >= 0 && req.version < v {
		if mi := g.moves[req.version]; mi.seat == req.seat && g.sameMove(&mi, req) {
			return req.version + 1, true, nil
		}
	}
	// One reading of the clock checks the move's time and gives the time
	// it leaves.
	now := time.Now()
	m, e := g.checkMove(req, now)
	if e != nil {
		return 0, false, e
	}
	next := g.spare
	next.CopyFrom(g.cur)
	if err := next.Play(m); err != nil {
		return 0, false, refused(err)
	}
	// The note is the game's word on a legal move, asked of the state
	// before it. A move the time rule makes for a seat (the rules' move
	// when its time is up, a stand-in's) is said to be the time's.
	byTime := req.afterTime || !req.person && g.seats[req.seat].Kind == kindHuman
	mi := moveInfo{seat: req.seat, move: m, text: g.cur.MoveText(m), note: mustJSON(game.NoteOf(g.cur, m, byTime)),
		turnEnded: next.Turn() != g.cur.Turn(), owner: g.owner, byTime: byTime, at: now, floor: g.floorAfter(g.cur, next)}
	after := g.afterMove(req, &mi, next)
	if e := g.storeMove(ctx, v+1, &mi, after); e != nil {
		return 0, false, e
	}
	g.apply(req, mi, next, after)
	g.broadcastMove(v+1, now)
	if after.Seats != nil {
		g.broadcastSeats(now)
	}
	if g.cur.Over() {
		g.s.log.Info("game over", "game", g.id, "version", v+1, "winners", after.Summary.Winners)
	}
	g.schedule()
	return v + 1, false, nil
}

// checkMove checks that a move that is not a duplicate is the seat's to
// make at now, at the game's version, and returns it: read from its text
// for a person's, as it comes for the others. Once a turn's time is up
// only the time rule moves, and where the rules have a move for it
// (game.State.TimeUp) only that one: a bot asked to decide in the seat's
// stead is asked only where they have none.
func (g *match) checkMove(req moveRequest, now time.Time) (game.Move, *apiError) {
	if v := len(g.moves); req.version != v || ((!req.person || req.held) && req.takeBacks != g.takeBacks) {
		return 0, errorf(http.StatusConflict, "stale_version", "the move was made against version %d, but the game is at version %d", req.version, v)
	}
	if g.cur.Over() {
		return 0, errGameOver
	}
	if req.person && g.seats[req.seat].Kind != kindHuman {
		return 0, errorf(http.StatusForbidden, "bad_token", "seat %d has been left to a bot", req.seat)
	}
	if p := g.cur.ToMove(); p != req.seat {
		return 0, errorf(http.StatusConflict, "not_your_turn", "seat %d is to move, not seat %d", p, req.seat)
	}
	if req.afterTime {
		if m, ok := g.cur.TimeUp(); ok && m != req.move {
			return 0, errorf(http.StatusConflict, "time_up", "the turn's time has run out: the rules' move ends it")
		}
	} else if g.timeUp(req.seat, now) {
		// The glass has run out, whether or not its timer has fired yet.
		return 0, errorf(http.StatusConflict, "time_up", "the turn's time has run out")
	}
	if !req.person || req.held {
		return req.move, nil
	}
	m, err := g.cur.ParseMove(req.text)
	if err != nil {
		return 0, errorf(http.StatusBadRequest, "bad_request", "%v", err)
	}
	return m, nil
}

// afterMove returns the game's metadata after the move mi, which takes the
// game to next, and sets the clocks the move leaves in mi. A person's move
// ends the seat's stand-in, and joins a seat never joined.
func (g *match) afterMove(req moveRequest, mi *moveInfo, next game.State) store.After {
	after := store.After{Over: next.Over()}
	if req.person && (g.seats[req.seat].StandIn || !g.seats[req.seat].Joined) {
		after.Seats = slices.Clone(g.seats)
		after.Seats[req.seat].StandIn = false
		after.Seats[req.seat].Joined = true
	}
	seatsAfter := g.seats
	if after.Seats != nil {
		seatsAfter = after.Seats
	}
	mi.clocks = g.clocksAfter(mi, next, seatsAfter, mi.at)
	standing := next.Standing()
	after.Summary = store.Summary{Phase: standing.Phase, ToMove: next.ToMove(), Scores: standing.Scores, Winners: standing.Winners}
	return after
}

// storeMove writes the move that makes version: a move the store has not
// taken is not made.
func (g *match) storeMove(ctx context.Context, version int, mi *moveInfo, after store.After) *apiError {
	sm := store.Move{Seat: mi.seat, Move: mi.text, At: mi.at, Clocks: mi.clocks, ByTime: mi.byTime}
	err := g.s.store.AppendMove(g.fence(ctx), g.id, version, sm, after)
	if err == nil {
		return nil
	}
	if g.fenced(err) {
		return errMoved
	}
	g.s.repeats.Error("storing a move", "game", g.id, "version", version, "err", err)
	if errors.Is(err, store.ErrClosed) {
		return errShuttingDown
	}
	return errorf(http.StatusInternalServerError, "internal_error", "the move could not be stored; it was not made")
}

// apply makes a stored move in memory: next becomes the current state, the
// move joins the history, and the clocks, seats and views follow it.
func (g *match) apply(req moveRequest, mi moveInfo, next game.State, after store.After) {
	if g.pending != nil {
		g.endTakeBack("moved", req.seat)
	}
	g.cur, g.spare = next, g.cur
	g.record(mi)
	if mi.clocks != nil {
		g.clocks = slices.Clone(mi.clocks)
	}
	g.turnStart = mi.at
	if !req.afterTime {
		// A move the time rule makes for a seat nobody plays is no sign
		// of life: a table its people left, whose glass ends every turn,
		// must still be given up (Config.IdleExpiry).
		g.updated = mi.at
	}
	if after.Seats != nil {
		g.seats = after.Seats
	}
	g.refresh()
}

// sameMove reports whether a request is the move mi, sent again.
func (g *match) sameMove(mi *moveInfo, req moveRequest) bool {
	if !req.person {
		return mi.move == req.move
	}
	if req.text == mi.text {
		return true
	}
	m, err := g.cur.ParseMove(req.text)
	return err == nil && m == mi.move
}

// broadcastMove sends the events of the move that made version v, the last
// one, to every subscriber, each with the state as it sees it.
func (g *match) broadcastMove(v int, now time.Time) {
	byViewer := make(map[int][][]byte)
	for c := range g.subs {
		key := g.viewer(c.seat)
		msgs, ok := byViewer[key]
		if !ok {
			msgs = g.events(v, g.stateJSON(key, now), g.cur.Over())
			byViewer[key] = msgs
		}
		for _, m := range msgs {
			if !c.send(m) {
				g.drop(c)
				break
			}
		}
	}
	g.publishMove(v, now, byViewer)
}

// events returns the encoded events of the move that made version v:
// state is the state after it as the subscriber sees it, over whether it
// ended the game.
func (g *match) events(v int, state json.RawMessage, over bool) [][]byte {
	mi := &g.moves[v-1]
	out := [][]byte{withField(mustJSON(moveEvent{Type: "move", Version: v, Seat: mi.seat, Move: mi.text, Note: mi.note, ByTime: mi.byTime}), "state", state)}
	if over {
		out = append(out, mustJSON(gameOverEvent{Type: "game_over", Version: v, Standing: g.standing}))
	}
	return out
}

// eventsSince returns the events after version from, in order, as seat
// sees them, by replaying the game.
func (g *match) eventsSince(from, seat int, now time.Time) [][]byte {
	pos := g.positionAt(from)
	key := g.viewer(seat)
	names := g.names()
	var out [][]byte
	for v := from + 1; v <= len(g.moves); v++ {
		mi := &g.moves[v-1]
		if err := pos.Play(mi.move); err != nil {
			panic(fmt.Sprintf("server: game %s does not replay at move %d: %v", g.id, v, err))
		}
		game.ReseedAt(pos, g.reseeds, v)
		var state json.RawMessage
		if v == len(g.moves) {
			state = g.stateJSON(seat, now)
		} else {
			head := stateHead{Version: v, ToMove: pos.ToMove(), Over: pos.Over(), Clocks: g.historicClocks(mi.clocks, pos.ToMove()),
				LastMove: mi.view(v), Standing: standingOf(pos), TakeBackFloor: mi.floor}
			state = withField(mustJSON(head), "view", mustJSON(pos.View(game.Viewer{Seat: key, Names: names})))
		}
		out = append(out, g.events(v, state, pos.Over())...)
	}
	return out
}

// broadcast sends messages to every subscriber. A subscriber too slow to
// take them is dropped; it will reconnect and catch up.
func (g *match) broadcast(msgs ...[]byte) {
	for c := range g.subs {
		for _, m := range msgs {
			if !c.send(m) {
				g.drop(c)
				break
			}
		}
	}
	g.publishAll(msgs)
}

// drop forgets subscriber c.
func (g *match) drop(c *wsConn) {
	if _, ok := g.subs[c]; !ok {
		return
	}
	delete(g.subs, c)
	if c.seat >= 0 {
		g.connected[c.seat]--
	}
}

func (g *match) broadcastSeats(now time.Time) {
	g.broadcast(g.seatsMessage(now))
}

// seatsMessage is the seats event: the seats and the clocks at now.
func (g *match) seatsMessage(now time.Time) []byte {
	return mustJSON(seatsEvent{Type: "seats", Version: len(g.moves), Seats: g.seatViews(), Clocks: g.clockViews(now)})
}

// schedule arranges what happens next without a person: a bot's move, or
// the end of the time of the seat to move. One reading of the clock
// decides both: a seat whose time is already up when the server looks,
// however little sand its last move left and however long that move took
// to store, is the time rule's (timeout), never a bot's asked as if it
// still had time; so a bot cannot play on with an empty glass while the
// rules have a move that ends its turn.
func (g *match) schedule() {
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	if g.closed || g.cur.Over() {
		return
	}
	p := g.cur.ToMove()
	v := len(g.moves)
	now := time.Now()
	if st := g.seats[p]; st.Kind == kindBot && !g.timeUp(p, now) {
		g.queueBot(v, p, st.Level, now)
	}
	if g.timed(p) {
		left := g.remaining(p, now)
		wait := time.Duration(left) * time.Millisecond
		if g.byPost() {
			// Wake at the deadline, or first at the warning moment
			// (timeout warns), both moved by the seat's vacations.
			run := g.clocks[p]
			if left*warnShare > g.time.TurnMS {
				run -= g.time.TurnMS / warnShare
			}
			wait = corr.Deadline(g.away[p], g.turnStart, time.Duration(run)*time.Millisecond).Sub(now)
		}
		gen := g.takeBacks
		g.timer = time.AfterFunc(wait, func() { g.timeout(v, gen) })
	}
}

// clockSaver returns what stores the time of the seat to move as it is
// now, so that the time it has used on this turn still counts when the
// game is loaded again (the time starts again from the stored amount), or
// nil if there is nothing to store. The server calls it as it closes, with
// g locked and closed, and stores the clocks of all its games at once;
// after a crash the turn's time is given back.
func (g *match) clockSaver() func(context.Context) {
	if g.time == nil || g.cur.Over() || g.byPost() {
		// A correspondence turn's time runs while the server is down:
		// its stored clocks already say when it runs out.
		return nil
	}
	p := g.cur.ToMove()
	left := g.remaining(p, time.Now())
	if left == g.clocks[p] {
		return nil
	}
	clocks := slices.Clone(g.clocks)
	clocks[p] = left
	id, version, seats, updated, fence := g.id, len(g.moves), g.seats, g.updated, g.fence
	return func(ctx context.Context) {
		if err := g.s.store.UpdateSeats(fence(ctx), id, version, seats, clocks, updated); err != nil {
			g.s.log.Error("storing the clock at shutdown", "game", id, "err", err)
		}
	}
}

// queueBot asks the bot pool for a move at version v, once, as of now.
func (g *match) queueBot(v, seat int, level string, now time.Time) {
	if g.botVersion == v {
		return
	}
	g.botVersion = v
	person := slices.ContainsFunc(g.seats, func(st store.Seat) bool { return st.Kind == kindHuman })
	afterTime := g.timeUp(seat, now)
	g.s.bots.queue(botJob{g: g, version: v, seat: seat, level: level, takeBacks: g.takeBacks, person: person,
		addr: g.botAddr(), afterTime: afterTime, turnEnd: g.botDeadline(seat, afterTime, now), pause: g.botPause(seat)})
}

// setSeats stores new seats and tells the subscribers.
func (g *match) setSeats(ctx context.Context, seats []store.Seat) *apiError {
	now := time.Now()
	startedBefore := g.timeStarted()
	old := g.seats
	g.seats = seats
	startsNow := !startedBefore && g.timeStarted()
	g.seats = old
	clocks := g.clocks
	if g.byPost() && startedBefore {
		// Stored as of now, as every correspondence write is (time.go).
		clocks = slices.Clone(g.clocks)
		if p := g.cur.ToMove(); p >= 0 {
			clocks[p] = g.remaining(p, now)
		}
	}
	if err := g.s.store.UpdateSeats(g.fence(ctx), g.id, len(g.moves), seats, clocks, now); err != nil {
		if g.fenced(err) {
			return errMoved
		}
		g.s.repeats.Error("storing seats", "game", g.id, "err", err)
		if errors.Is(err, store.ErrClosed) {
			return errShuttingDown
		}
		return errorf(http.StatusInternalServerError, "internal_error", "the seats could not be stored")
	}
	g.seats, g.clocks = seats, clocks
	g.updated = now
	if startsNow || g.byPost() {
		g.turnStart = now
	}
	g.refresh()
	g.broadcastSeats(now)
	g.schedule()
	return nil
}

// errGameOver refuses what only a game in progress allows: a finished
// game's seats are part of its record.
var errGameOver = errorf(http.StatusConflict, "game_over", "the game is over")

// join marks seat as joined, renaming it if name is not empty.
func (g *match) join(ctx context.Context, seat int, name string) *apiError {
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

// fullView describes the game as it is for the viewer in seat you (-1 for
// a spectator); viewAt describes it as it was.
func (g *match) fullView(you int) gameView {
	v := g.viewHead(you)
	for i := range g.moves {
		v.Moves = append(v.Moves, g.moves[i].view(i+1))
	}
	v.State = g.stateJSON(you, time.Now())
	return v
}

// viewHead is a game's view but for its moves and state.
func (g *match) viewHead(you int) gameView {
	v := gameView{
		ID: g.id, Created: g.created, Game: g.rules.ID, GameName: g.rules.Name, Options: g.setup.Options, Table: g.table,
		Players: g.setup.Players, SeedChosen: g.seedChosen, MaxMoves: g.maxMoves(), Time: g.timeView(), Seats: g.seatViews(), Moves: []*moveView{},
		TakeBacks: g.takeBacksView(),
	}
	if you >= 0 {
		v.You = &you
	}
	return v
}

// summaryView describes the game for the lobby.
func (g *match) summaryView() summaryView {
	v := summaryView{
		ID: g.id, Game: g.rules.ID, GameName: g.rules.Name, Options: g.setup.Options, Players: g.setup.Players,
		SeedChosen: g.seedChosen, OpenSeats: []int{}, Version: len(g.moves), Phase: g.standing.Phase, ToMove: g.cur.ToMove(), Over: g.cur.Over(),
		Scores: g.standing.Scores, Winners: g.standing.Winners, Created: g.created, Updated: g.updated,
	}
	for i, st := range g.seats {
		v.Seats = append(v.Seats, summarySeatView{Seat: i, Name: st.Name, Kind: st.Kind, Level: st.Level, Joined: st.Joined || st.Kind == kindBot})
		if st.Kind == kindOpen {
			v.OpenSeats = append(v.OpenSeats, i)
		}
	}
	return v
}
