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
//   - Play refuses a move that is not legal and changes nothing, and Note
//     changes nothing;
//   - every legal move's text reads back as the move, and the state's
//     notation reads back as the same state with the same legal moves;
//   - a view encodes to JSON; views are the same for every viewer unless
//     the rules declare private views; Resample for a seat leaves that
//     seat's view and legal moves as they were;
//   - Turn never goes back, Standing has a score a seat and no winners
//     before the end;
//   - the seats the rules play themselves (Rules.House) are distinct
//     seats of the game, named, and never to move;
//   - the game's record, replayed, gives the same final state.
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

func checkGame(t testing.TB, r *game.Rules, setup game.Setup) {
	t.Helper()
	st, err := r.NewGame(setup)
	if err != nil {
		t.Fatalf("%s: setup %+v: %v", r.ID, setup, err)
	}
	opts, _ := r.CheckOptions(setup.Options)
	rec := game.Record{Game: r.ID, Players: setup.Players, Options: opts, Seed: setup.Seed}
	rng := rand.New(rand.NewPCG(setup.Seed, 99))
	other, err := r.NewGame(game.Setup{Players: setup.Players, Options: setup.Options, Seed: setup.Seed + 1000})
	if err != nil {
		t.Fatalf("%s: setup: %v", r.ID, err)
	}
	house := r.HouseSeats(game.Setup{Players: setup.Players, Options: opts, Seed: setup.Seed})
	for i, h := range house {
		if h.Seat < 0 || h.Seat >= setup.Players || h.Name == "" || slices.ContainsFunc(house[:i], func(o game.HouseSeat) bool { return o.Seat == h.Seat }) {
			t.Fatalf("%s: setup %+v: house seats %+v", r.ID, setup, house)
		}
	}
	turn := st.Turn()
	for step := 0; ; step++ {
		if step > 100000 {
			t.Fatalf("%s: no end after %d decisions", r.ID, step)
		}
		where := func() string {
			return r.ID + " seed " + itoa(setup.Seed) + " step " + itoa(uint64(step)) + ": " + st.String()
		}
		legal := st.AppendLegal(nil)
		if st.Over() != (st.ToMove() == game.NoSeat) {
			t.Fatalf("%s: Over %v but ToMove %d", where(), st.Over(), st.ToMove())
		}
		if st.Over() != (len(legal) == 0) {
			t.Fatalf("%s: Over %v with %d legal moves", where(), st.Over(), len(legal))
		}
		if p := st.ToMove(); slices.ContainsFunc(house, func(h game.HouseSeat) bool { return h.Seat == p }) {
			t.Fatalf("%s: seat %d, which the rules play themselves, is to move", where(), p)
		}
		if st.Turn() < turn {
			t.Fatalf("%s: Turn went back from %d to %d", where(), turn, st.Turn())
		}
		turn = st.Turn()
		standing := st.Standing()
		if len(standing.Scores) != st.Players() || !st.Over() && len(standing.Winners) > 0 {
			t.Fatalf("%s: standing %+v", where(), standing)
		}

		text := st.String()
		parsed, err := r.ParseState(text)
		if err != nil {
			t.Fatalf("%s: the notation does not read back: %v", where(), err)
		}
		if parsed.String() != text || !slices.Equal(parsed.AppendLegal(nil), legal) {
			t.Fatalf("%s: read back as %s", where(), parsed.String())
		}
		c := st.Clone()
		other.CopyFrom(st)
		if c.String() != text || other.String() != text {
			t.Fatalf("%s: copies differ: %s / %s", where(), c.String(), other.String())
		}
		checkViews(t, r, st, where)
		if st.Over() {
			break
		}
		for _, m := range legal {
			back, err := st.ParseMove(st.MoveText(m))
			if err != nil || back != m {
				t.Fatalf("%s: move %d written %q reads back as %d, %v", where(), m, st.MoveText(m), back, err)
			}
		}
		if bad := illegal(legal); st.Play(bad) == nil {
			t.Fatalf("%s: illegal move %d (%s) accepted", where(), bad, st.MoveText(bad))
		} else if st.String() != text {
			t.Fatalf("%s: a refused move changed the state to %s", where(), st.String())
		}
		m := legal[rng.IntN(len(legal))]
		if _, err := json.Marshal(st.Note(m)); err != nil {
			t.Fatalf("%s: note does not encode: %v", where(), err)
		}
		if st.String() != text {
			t.Fatalf("%s: Note changed the state", where())
		}
		seat := st.ToMove()
		before := viewJSON(t, st, seat)
		rs := st.Clone()
		rs.Resample(seat, rng)
		if viewJSON(t, rs, seat) != before || !slices.Equal(rs.AppendLegal(nil), legal) {
			t.Fatalf("%s: Resample(%d) changed what the seat sees", where(), seat)
		}
		rec.Moves = append(rec.Moves, st.MoveText(m))
		if err := st.Play(m); err != nil {
			t.Fatalf("%s: legal move %s refused: %v", where(), st.MoveText(m), err)
		}
		if c.String() != text {
			t.Fatalf("%s: playing on the original changed its clone", where())
		}
	}
	replayed, err := rec.Replay(r, -1)
	if err != nil {
		t.Fatalf("%s: the record does not replay: %v", r.ID, err)
	}
	if replayed.String() != st.String() {
		t.Fatalf("%s: the record replays to %s, not %s", r.ID, replayed.String(), st.String())
	}
}

// checkViews checks that every viewer's view encodes, and that without
// private views all are the same.
func checkViews(t testing.TB, r *game.Rules, st game.State, where func() string) {
	t.Helper()
	spectator := viewJSON(t, st, game.NoSeat)
	for p := range st.Players() {
		if v := viewJSON(t, st, p); !r.PrivateViews && v != spectator {
			t.Fatalf("%s: seat %d sees %s but a spectator %s, and the views are not private", where(), p, v, spectator)
		}
	}
	if _, err := json.Marshal(st.Table()); err != nil {
		t.Fatalf("%s: table does not encode: %v", where(), err)
	}
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
