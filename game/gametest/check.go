package gametest

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// Check plays random games of r from each setup (a few seeds each) to their
// end and checks, at every decision, what the contract promises:
//
//   - nobody is to move exactly when the game is over, and then there are
//     no legal moves, nor before that too few;
//   - Clone and CopyFrom make independent copies, equal in the notation;
//   - Play refuses a move that is not legal and changes nothing, with a
//     game.Refusal (a code and words for the player), and Note changes
//     nothing; once the game is over it refuses any move as RefusedOver;
//   - every legal move's text reads back as the move, and the state's
//     notation reads back as the same state with the same legal moves;
//   - a view encodes to JSON; views are the same for every viewer unless
//     the rules declare private views; Resample for a seat leaves that
//     seat's view and legal moves as they were;
//   - Turn never goes back, Standing has a score a seat and no winners
//     before the end;
//   - the seats the rules play themselves (Rules.House) are distinct
//     seats of the game, named, and never to move;
//   - a take-back's game.Reseed leaves every view and the legal moves as
//     they were; once Secret is false, a reseed changes nothing any
//     viewer sees for the rest of the game;
//   - a game that counts what its chance has shown (game.Revealer) never
//     counts back, and a move that leaves the count as it was shows every
//     viewer the same, note and legal moves too, whatever a reseed drew
//     before it;
//   - the game's record, replayed with its reseeds, gives the same final
//     state: the same seed draws the same.
func Check(t testing.TB, r *game.Rules, setups ...game.Setup) {
	t.Helper()
	for _, setup := range setups {
		for seed := range uint64(3) {
			s := setup
			s.Seed = setup.Seed + seed
			checkGame(t, r, s)
		}
	}
}

// checkGame plays a game from setup to its end with random moves, checking
// the promises of positionPromises at every position and those of
// decisionPromises at every decision.
func checkGame(t testing.TB, r *game.Rules, setup game.Setup) {
	t.Helper()
	g := newGameRun(t, r, setup)
	g.houseSeatsAreSeats()
	for ; ; g.step++ {
		if g.step > 100000 {
			t.Fatalf("%s: no end after %d decisions", r.ID, g.step)
		}
		g.text, g.legal = g.st.String(), g.st.AppendLegal(nil)
		for _, promise := range positionPromises {
			promise(g)
		}
		if g.st.Over() {
			g.finishedGameRefuses()
			break
		}
		g.move = g.legal[g.rng.IntN(len(g.legal))]
		for _, promise := range decisionPromises {
			promise(g)
		}
	}
	g.recordReplays()
}

// positionPromises are what the contract promises of every position, the
// last one too, in the order they are checked.
var positionPromises = []func(*gameRun){
	(*gameRun).overExactlyWhenNobodyMoves,
	(*gameRun).houseSeatsNeverMove,
	(*gameRun).turnNeverGoesBack,
	(*gameRun).standingScoresEverySeat,
	(*gameRun).endingSaysOnlyTheEnd,
	(*gameRun).revealedNeverGoesBack,
	(*gameRun).notationReadsBack,
	(*gameRun).copiesAreEqual,
	(*gameRun).viewsEncode,
}

// decisionPromises are what the contract promises at every decision of a
// game in play, in the order they are checked; the last plays the move the
// game goes on with.
var decisionPromises = []func(*gameRun){
	(*gameRun).movesReadBack,
	(*gameRun).illegalMoveRefused,
	(*gameRun).noteChangesNothing,
	(*gameRun).resampleKeepsWhatTheSeatSees,
	(*gameRun).openSeedDecidesNothing,
	(*gameRun).reseedKeepsWhatSeatsSee,
	(*gameRun).quietMoveShowsNothing,
	(*gameRun).legalMovePlays,
}

// A gameRun is a game Check plays, at a decision.
type gameRun struct {
	t     testing.TB
	r     *game.Rules
	setup game.Setup
	st    game.State
	// other is a state of another game, which CopyFrom makes a copy of st.
	other game.State
	house []game.HouseSeat
	rng   *rand.Rand
	// rec records the moves played, to replay them at the end.
	rec game.Record
	// step counts the decisions; turn is the Turn of the last one.
	step, turn int
	// text and legal are the notation and the legal moves at the
	// decision, move the one drawn to go on with; clone is a Clone of the
	// state taken there.
	text  string
	legal []game.Move
	move  game.Move
	clone game.State
	// openChecked says openSeedDecidesNothing has checked a position.
	openChecked bool
	// revealed is the game's count of revelations (game.Revealer) at the
	// last position, 0 for a game that keeps none.
	revealed int
}

func newGameRun(t testing.TB, r *game.Rules, setup game.Setup) *gameRun {
	t.Helper()
	st, err := r.NewGame(setup)
	if err != nil {
		t.Fatalf("%s: setup %+v: %v", r.ID, setup, err)
	}
	opts, _ := r.CheckOptions(setup.Options)
	other, err := r.NewGame(game.Setup{Players: setup.Players, Options: setup.Options, Seed: setup.Seed + 1000})
	if err != nil {
		t.Fatalf("%s: setup: %v", r.ID, err)
	}
	return &gameRun{
		t: t, r: r, setup: setup, st: st, other: other,
		house: r.HouseSeats(game.Setup{Players: setup.Players, Options: opts, Seed: setup.Seed}),
		rng:   rand.New(rand.NewPCG(setup.Seed, 99)),
		rec:   game.Record{Game: r.ID, Players: setup.Players, Options: opts, Seed: setup.Seed},
		turn:  st.Turn(),
	}
}

// where names the decision in a failure: the game, seed, step and state.
func (g *gameRun) where() string {
	return g.r.ID + " seed " + itoa(g.setup.Seed) + " step " + itoa(uint64(g.step)) + ": " + g.st.String()
}

// houseSeatsAreSeats: the seats the rules play themselves are distinct
// seats of the game, and named.
func (g *gameRun) houseSeatsAreSeats() {
	g.t.Helper()
	for i, h := range g.house {
		if h.Seat < 0 || h.Seat >= g.setup.Players || h.Name == "" || slices.ContainsFunc(g.house[:i], func(o game.HouseSeat) bool { return o.Seat == h.Seat }) {
			g.t.Fatalf("%s: setup %+v: house seats %+v", g.r.ID, g.setup, g.house)
		}
	}
}

// overExactlyWhenNobodyMoves: nobody is to move exactly when the game is
// over, and then there are no legal moves, nor before that too few.
func (g *gameRun) overExactlyWhenNobodyMoves() {
	g.t.Helper()
	if g.st.Over() != (g.st.ToMove() == game.NoSeat) {
		g.t.Fatalf("%s: Over %v but ToMove %d", g.where(), g.st.Over(), g.st.ToMove())
	}
	if g.st.Over() != (len(g.legal) == 0) {
		g.t.Fatalf("%s: Over %v with %d legal moves", g.where(), g.st.Over(), len(g.legal))
	}
}

// houseSeatsNeverMove: the seats the rules play themselves are never to
// move.
func (g *gameRun) houseSeatsNeverMove() {
	g.t.Helper()
	if p := g.st.ToMove(); slices.ContainsFunc(g.house, func(h game.HouseSeat) bool { return h.Seat == p }) {
		g.t.Fatalf("%s: seat %d, which the rules play themselves, is to move", g.where(), p)
	}
}

// turnNeverGoesBack: Turn never goes back.
func (g *gameRun) turnNeverGoesBack() {
	g.t.Helper()
	if g.st.Turn() < g.turn {
		g.t.Fatalf("%s: Turn went back from %d to %d", g.where(), g.turn, g.st.Turn())
	}
	g.turn = g.st.Turn()
}

// standingScoresEverySeat: Standing has a score a seat and no winners
// before the end.
func (g *gameRun) standingScoresEverySeat() {
	g.t.Helper()
	standing := g.st.Standing()
	if len(standing.Scores) != g.st.Players() || !g.st.Over() && len(standing.Winners) > 0 {
		g.t.Fatalf("%s: standing %+v", g.where(), standing)
	}
}

// endingSaysOnlyTheEnd: a game that tells how it ended (game.Ender) says
// nothing before the end and something at it.
func (g *gameRun) endingSaysOnlyTheEnd() {
	g.t.Helper()
	e, ok := g.st.(game.Ender)
	if ok && (e.Ending() == "") == g.st.Over() {
		g.t.Fatalf("%s: over %v, ending %q", g.where(), g.st.Over(), e.Ending())
	}
}

// notationReadsBack: the state's notation reads back as the same state
// with the same legal moves.
func (g *gameRun) notationReadsBack() {
	g.t.Helper()
	parsed, err := g.r.ParseState(g.text)
	if err != nil {
		g.t.Fatalf("%s: the notation does not read back: %v", g.where(), err)
	}
	if parsed.String() != g.text || !slices.Equal(parsed.AppendLegal(nil), g.legal) {
		g.t.Fatalf("%s: read back as %s", g.where(), parsed.String())
	}
}

// copiesAreEqual: Clone and CopyFrom make copies equal in the notation
// (legalMovePlays checks the clone stays independent).
func (g *gameRun) copiesAreEqual() {
	g.t.Helper()
	g.clone = g.st.Clone()
	g.other.CopyFrom(g.st)
	if g.clone.String() != g.text || g.other.String() != g.text {
		g.t.Fatalf("%s: copies differ: %s / %s", g.where(), g.clone.String(), g.other.String())
	}
}

// viewsEncode: every viewer's view encodes to JSON, and the views are the
// same for every viewer unless the rules declare private views; the table
// encodes too.
func (g *gameRun) viewsEncode() {
	g.t.Helper()
	spectator := viewJSON(g.t, g.st, game.NoSeat)
	for p := range g.st.Players() {
		if v := viewJSON(g.t, g.st, p); !g.r.PrivateViews && v != spectator {
			g.t.Fatalf("%s: seat %d sees %s but a spectator %s, and the views are not private", g.where(), p, v, spectator)
		}
	}
	if _, err := json.Marshal(g.st.Table()); err != nil {
		g.t.Fatalf("%s: table does not encode: %v", g.where(), err)
	}
}

// revealedNeverGoesBack: a game's count of revelations (game.Revealer)
// never goes back.
func (g *gameRun) revealedNeverGoesBack() {
	g.t.Helper()
	n, ok := game.Revealed(g.st)
	if !ok {
		return
	}
	if n < g.revealed {
		g.t.Fatalf("%s: Revealed went back from %d to %d", g.where(), g.revealed, n)
	}
	g.revealed = n
}

// movesReadBack: every legal move's text reads back as the move.
func (g *gameRun) movesReadBack() {
	g.t.Helper()
	for _, m := range g.legal {
		back, err := g.st.ParseMove(g.st.MoveText(m))
		if err != nil || back != m {
			g.t.Fatalf("%s: move %d written %q reads back as %d, %v", g.where(), m, g.st.MoveText(m), back, err)
		}
	}
}

// illegalMoveRefused: Play refuses a move that is not legal, with a
// refusal, and changes nothing.
func (g *gameRun) illegalMoveRefused() {
	g.t.Helper()
	bad := illegal(g.legal)
	err := g.st.Play(bad)
	switch r := game.RefusalOf(err); {
	case err == nil:
		g.t.Fatalf("%s: illegal move %d (%s) accepted", g.where(), bad, g.st.MoveText(bad))
	case r == nil || r.Code == "" || r.Reason == "":
		g.t.Fatalf("%s: illegal move %d refused with %v, not a game.Refusal with a code and a reason", g.where(), bad, err)
	case g.st.String() != g.text:
		g.t.Fatalf("%s: a refused move changed the state to %s", g.where(), g.st.String())
	}
}

// finishedGameRefuses: once the game is over, Play refuses every move the
// game had at its last decision, as RefusedOver.
func (g *gameRun) finishedGameRefuses() {
	g.t.Helper()
	if r := game.RefusalOf(g.st.Play(g.move)); r == nil || r.Code != game.RefusedOver {
		g.t.Fatalf("%s: move %d in the finished game refused with %+v, want the code %q", g.where(), g.move, r, game.RefusedOver)
	}
}

// noteChangesNothing: the note of the move drawn encodes to JSON, and Note
// changes nothing.
func (g *gameRun) noteChangesNothing() {
	g.t.Helper()
	if _, err := json.Marshal(g.st.Note(g.move)); err != nil {
		g.t.Fatalf("%s: note does not encode: %v", g.where(), err)
	}
	if g.st.String() != g.text {
		g.t.Fatalf("%s: Note changed the state", g.where())
	}
}

// resampleKeepsWhatTheSeatSees: Resample for the seat to move leaves that
// seat's view and legal moves as they were.
func (g *gameRun) resampleKeepsWhatTheSeatSees() {
	g.t.Helper()
	seat := g.st.ToMove()
	before := viewJSON(g.t, g.st, seat)
	rs := g.st.Clone()
	rs.Resample(seat, g.rng)
	if viewJSON(g.t, rs, seat) != before || !slices.Equal(rs.AppendLegal(nil), g.legal) {
		g.t.Fatalf("%s: Resample(%d) changed what the seat sees", g.where(), seat)
	}
}

// reseedKeepsWhatSeatsSee: at one decision in four, a take-back's
// game.Reseed, recorded, leaves every viewer's view and the legal moves as
// they were; the game goes on reseeded, and recordReplays holds the replay
// to what the reseed drew.
func (g *gameRun) reseedKeepsWhatSeatsSee() {
	g.t.Helper()
	if g.rng.IntN(4) != 0 {
		return
	}
	before := allViews(g.t, g.st)
	rs := game.Reseed{At: len(g.rec.Moves), Seed: g.rng.Uint64()}
	rs.Apply(g.st)
	if !slices.Equal(allViews(g.t, g.st), before) || !slices.Equal(g.st.AppendLegal(nil), g.legal) {
		g.t.Fatalf("%s: a reseed changed what a viewer sees", g.where())
	}
	g.rec.Reseeds = append(g.rec.Reseeds, rs)
	g.text, g.clone = g.st.String(), g.st.Clone()
}

// quietMoveShowsNothing: for a game that counts its revelations
// (game.Revealer), the move drawn, played on two copies reseeded apart,
// either raises the count or shows every viewer the same: its note, the
// views and the legal moves after it. A take-back relies on it: what a
// move that raised no count is taken back across has shown nobody
// anything of the seed. Once Secret is false a reseed changes nothing
// (openSeedDecidesNothing), so only secret positions are tried.
func (g *gameRun) quietMoveShowsNothing() {
	g.t.Helper()
	n, ok := game.Revealed(g.st)
	if !ok || !g.st.Secret() {
		return
	}
	// Seeds of the step's own, so that the moves Check draws stay those
	// of a game that counts nothing.
	a, b := g.st.Clone(), g.st.Clone()
	game.Reseed{Seed: uint64(2 * g.step)}.Apply(a)
	game.Reseed{Seed: uint64(2*g.step + 1)}.Apply(b)
	noteA, noteB := mustJSON(g.t, a.Note(g.move)), mustJSON(g.t, b.Note(g.move))
	for _, c := range []game.State{a, b} {
		if err := c.Play(g.move); err != nil {
			g.t.Fatalf("%s: %s, legal, is refused after a reseed: %v", g.where(), g.st.MoveText(g.move), err)
		}
	}
	if ra, _ := game.Revealed(a); ra != n {
		return
	}
	if rb, _ := game.Revealed(b); rb != n {
		return
	}
	if noteA != noteB || !slices.Equal(allViews(g.t, a), allViews(g.t, b)) || !slices.Equal(a.AppendLegal(nil), b.AppendLegal(nil)) {
		g.t.Fatalf("%s: %s counts no revelation (Revealed stays %d), but what it shows depends on the seed", g.where(), g.st.MoveText(g.move), n)
	}
}

// openSeedDecidesNothing: at the first decision where Secret is false, two
// copies reseeded apart and played alike to the end show every viewer the
// same at every step: the seed decides nothing any more.
func (g *gameRun) openSeedDecidesNothing() {
	g.t.Helper()
	if g.openChecked || g.st.Secret() {
		return
	}
	g.openChecked = true
	a, b := g.st.Clone(), g.st.Clone()
	game.Reseed{Seed: 1}.Apply(a)
	game.Reseed{Seed: 2}.Apply(b)
	rng := rand.New(rand.NewPCG(g.setup.Seed, 7))
	for step := 0; ; step++ {
		if !slices.Equal(allViews(g.t, a), allViews(g.t, b)) {
			g.t.Fatalf("%s: Secret is false, but %d moves on a reseed shows something else", g.where(), step)
		}
		legal := a.AppendLegal(nil)
		if len(legal) == 0 || step > 100000 {
			return
		}
		m := legal[rng.IntN(len(legal))]
		if err := a.Play(m); err != nil {
			g.t.Fatalf("%s: %v", g.where(), err)
		}
		if err := b.Play(m); err != nil {
			g.t.Fatalf("%s: Secret is false, but %d moves on a reseed refuses %s: %v", g.where(), step, a.MoveText(m), err)
		}
	}
}

// legalMovePlays: Play accepts the move drawn, which the game goes on
// with, and playing on the original leaves its clone as it was.
func (g *gameRun) legalMovePlays() {
	g.t.Helper()
	m := g.move
	g.rec.Moves = append(g.rec.Moves, g.st.MoveText(m))
	if err := g.st.Play(m); err != nil {
		g.t.Fatalf("%s: legal move %s refused: %v", g.where(), g.st.MoveText(m), err)
	}
	if g.clone.String() != g.text {
		g.t.Fatalf("%s: playing on the original changed its clone", g.where())
	}
}

// recordReplays: the game's record, replayed, gives the same final state.
func (g *gameRun) recordReplays() {
	g.t.Helper()
	replayed, err := g.rec.Replay(g.r, -1)
	if err != nil {
		g.t.Fatalf("%s: the record does not replay: %v", g.r.ID, err)
	}
	if replayed.String() != g.st.String() {
		g.t.Fatalf("%s: the record replays to %s, not %s", g.r.ID, replayed.String(), g.st.String())
	}
}

// allViews returns the views of the spectators and of every seat.
func allViews(t testing.TB, st game.State) []string {
	t.Helper()
	views := []string{viewJSON(t, st, game.NoSeat)}
	for p := range st.Players() {
		views = append(views, viewJSON(t, st, p))
	}
	return views
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%T does not encode: %v", v, err)
	}
	return string(b)
}

func viewJSON(t testing.TB, st game.State, seat int) string {
	t.Helper()
	names := make([]string, st.Players())
	for p := range names {
		names[p] = "P" + itoa(uint64(p))
	}
	b, err := json.Marshal(st.View(game.Viewer{Seat: seat, Names: names}))
	if err != nil {
		t.Fatalf("view for seat %d does not encode: %v", seat, err)
	}
	return string(b)
}

// illegal returns a move number that is not among the legal ones.
func illegal(legal []game.Move) game.Move {
	for m := game.Move(0); ; m++ {
		if !slices.Contains(legal, m) {
			return m
		}
	}
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
