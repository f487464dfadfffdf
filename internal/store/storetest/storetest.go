// Package storetest checks a store of games, players and sessions against
// the contract of package store: Run runs the same tests against every store (the SQLite
// store and the PostgreSQL one), so that the server may take either.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/store"
)

// Harness is a database of a store under test.
type Harness struct {
	// Open opens the store on the database, afresh or again after Close;
	// OpenErr returns Open's error instead of failing.
	Open    func(t testing.TB) store.Store
	OpenErr func(t testing.TB) (store.Store, error)
	// Exec runs a statement on the database beside the store, as a hand
	// or a failing disk would, and Query a query; their placeholders are
	// ?. Query returns the columns' names and the rows' values as the
	// database returns them (int64, string, []byte or nil).
	Exec  func(t testing.TB, query string, args ...any) error
	Query func(t testing.TB, query string, args ...any) (cols []string, rows [][]any)
	// Stride is how many bits EveryFlip steps, 1 (or 0) for every bit of
	// a game's rows, more where that is too slow.
	Stride int
	// SchemaVersion returns the schema version the database says it has,
	// and SetSchemaVersion writes it, the store being closed.
	SchemaVersion    func(t testing.TB) int
	SetSchemaVersion func(t testing.TB, version int)
}

// Run checks the stores of the databases newHarness makes, a new one for
// each test, against the contract.
func Run(t *testing.T, newHarness func(t *testing.T) Harness) {
	for _, tc := range []struct {
		name string
		test func(t *testing.T, h Harness)
	}{
		{"RoundTrip", roundTrip},
		{"WrongVersion", wrongVersion},
		{"GroupCommit", groupCommit},
		{"Closed", closed},
		{"TakeBack", takeBack},
		{"Expire", expire},
		{"Damaged", damaged},
		{"Import", importGames},
		{"Schema", schema},
		{"EveryFlip", everyFlip},
		{"PlayersRoundTrip", playersRoundTrip},
		{"PlayersRefused", playersRefused},
		{"SessionsTouchedAndEnded", sessionsTouchedAndEnded},
		{"SeatsOwned", seatsOwned},
		{"GameLines", gameLines},
		{"GameLineDamaged", gameLineDamaged},
		{"PlayersConcurrent", playersConcurrent},
		{"PlayersRenamed", playersRenamed},
		{"PlayersImported", playersImported},
		{"PasskeysRoundTrip", passkeysRoundTrip},
		{"CeremoniesTaken", ceremoniesTaken},
		{"SignedIn", signedIn},
		{"Vacations", vacations},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.test(t, newHarness(t))
		})
	}
}

// NewGame returns a game of two seats, with a clock, and no moves.
func NewGame(id string) *store.Game {
	at := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)
	return &store.Game{
		ID: id, Created: at, Updated: at, Game: "somegame", Options: map[string]string{"board": "standard", "first": "1"},
		Players: 2, Seed: 1<<63 + 5,
		Time:   &store.Time{Kind: "bank", InitialMS: 60000, IncrementMS: 1000},
		Clocks: []int64{60000, 60000},
		Seats: []store.Seat{
			{Kind: "human", Name: "Ann", TokenHash: "abc"},
			{Kind: "bot", Name: "Bot (easy)", Level: "easy", Joined: true},
		},
		Summary: store.Summary{Phase: "exploration", ToMove: 1, Scores: []int{0, 0}},
	}
}

// Play stores moves from to to of game id (which is at version from-1),
// each a second after the last; the last one's after is after, and it
// alone carries clocks (the others' are NULL).
func Play(t testing.TB, s store.Store, id string, from, to int, after store.After) {
	t.Helper()
	for v := from; v <= to; v++ {
		m := store.Move{Seat: v % 2, Move: fmt.Sprintf("S %d,3", v), At: time.UnixMilli(1_800_000_000_000 + int64(v)*1000), ByTime: v == 2}
		a := store.After{}
		if v == to {
			a, m.Clocks = after, []int64{60000 - int64(v), 59000}
		}
		if err := s.AppendMove(context.Background(), id, v, m, a); err != nil {
			t.Fatal(err)
		}
	}
}

func closeStore(t testing.TB, s store.Store) {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// roundTrip: a game reads back as written, moves, seats and clocks,
// after the store is opened again.
func roundTrip(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	want := NewGame("g1")
	if err := s.Create(ctx, want); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, NewGame("g1")); !errors.Is(err, store.ErrConflict) {
		t.Errorf("creating g1 twice: got %v, want ErrConflict", err)
	}
	for v, mv := range []string{"S 0,0", "S 1,1", "T 2,2"} {
		m := store.Move{Seat: v % 2, Move: mv, At: want.Created.Add(time.Duration(v+1) * time.Second), Clocks: []int64{int64(v), 7}}
		sum := store.Summary{Phase: "exploration", ToMove: (v + 1) % 2, Scores: []int{0, 0}}
		after := store.After{Summary: sum}
		if v == 1 {
			// The game's row, with the summary, is written only when a
			// move changes the seats (or ends the game).
			want.Seats[1].Name = "Bot"
			after.Seats = want.Seats
			want.Summary = sum
		}
		if err := s.AppendMove(ctx, "g1", v+1, m, after); err != nil {
			t.Fatal(err)
		}
		want.Moves = append(want.Moves, m)
		want.Updated, want.Clocks, want.Version = m.At, m.Clocks, v+1
	}
	want.Seats[0].Joined = true
	want.Clocks = []int64{5, 6}
	if err := s.UpdateSeats(ctx, "g1", 3, want.Seats, want.Clocks, want.Updated); err != nil {
		t.Fatal(err)
	}
	closeStore(t, s)

	s = h.Open(t)
	defer closeStore(t, s)
	got, err := s.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after reopening:\n got %+v\nwant %+v", got, want)
	}
	active, _, err := s.InProgress(ctx)
	if err != nil || len(active) != 1 || !reflect.DeepEqual(active[0], want) {
		t.Errorf("InProgress = %+v, %v; want the game", active, err)
	}
	// A move after the seats were written: its clocks are the game's.
	m := store.Move{Seat: 1, Move: "S 3,3", At: want.Updated.Add(time.Second), Clocks: []int64{9, 9}}
	if err := s.AppendMove(ctx, "g1", 4, m, store.After{}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 4 || !reflect.DeepEqual(got.Clocks, m.Clocks) || !got.Updated.Equal(m.At) {
		t.Errorf("after a fourth move: version %d, clocks %v, updated %v; want 4, %v, %v", got.Version, got.Clocks, got.Updated, m.Clocks, m.At)
	}
	if _, err := s.Game(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game(nope): got %v, want ErrNotFound", err)
	}
}

// wrongVersion: a move is never stored twice, out of order, after the
// game's end or into a game not stored.
func wrongVersion(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	if err := s.Create(ctx, NewGame("g")); err != nil {
		t.Fatal(err)
	}
	m := store.Move{Seat: 1, Move: "S 0,0", At: time.Now()}
	if err := s.AppendMove(ctx, "g", 1, m, store.After{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id      string
		version int
	}{{"g", 1}, {"g", 3}, {"g", 0}, {"other", 1}} {
		if err := s.AppendMove(ctx, tc.id, tc.version, m, store.After{}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("AppendMove(%s, %d): got %v, want ErrConflict", tc.id, tc.version, err)
		}
	}
	if err := s.AppendMove(ctx, "g", 2, m, store.After{Over: true, Summary: store.Summary{Winners: []int{0}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "g", 3, m, store.After{}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a move after the game is over: got %v, want ErrConflict", err)
	}
	g, err := s.Game(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != 2 || !g.Over {
		t.Errorf("game has %d moves, over %v; want 2 moves, over", len(g.Moves), g.Over)
	}
	if err := s.UpdateSeats(ctx, "other", 0, nil, nil, time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateSeats(other): got %v, want ErrNotFound", err)
	}
}

// groupCommit: writes from many goroutines, committed in shared
// transactions, all land and are there once the store is opened again;
// a failing write (the same move twice) does not take the others of its
// batch with it.
func groupCommit(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	const games, moves = 20, 10
	for i := range games {
		if err := s.Create(ctx, NewGame(fmt.Sprint("g", i))); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, games*moves*2)
	for i := range games {
		wg.Go(func() {
			id := fmt.Sprint("g", i)
			for v := 1; v <= moves; v++ {
				m := store.Move{Seat: v % 2, Move: "S 0,0", At: time.Now()}
				errs <- s.AppendMove(ctx, id, v, m, store.After{Over: v == moves})
				if err := s.AppendMove(ctx, id, v, m, store.After{}); !errors.Is(err, store.ErrConflict) {
					errs <- fmt.Errorf("%s: move %d stored twice: %v", id, v, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	closeStore(t, s)
	s = h.Open(t)
	defer closeStore(t, s)
	fin, _, err := s.Finished(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(fin) != games {
		t.Errorf("%d finished games, want %d", len(fin), games)
	}
	for _, g := range fin {
		full, err := s.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(full.Moves) != moves {
			t.Errorf("%s has %d moves, want %d", g.ID, len(full.Moves), moves)
		}
	}
}

// closed: a write after Close fails with ErrClosed.
func closed(t *testing.T, h Harness) {
	s := h.Open(t)
	closeStore(t, s)
	if err := s.Create(context.Background(), NewGame("g")); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Create after Close: got %v, want ErrClosed", err)
	}
}

// takeBack: taking back removes the moves after a version, stores the
// clocks as they were then and the reseeds, and counts the take-back; a
// take-back from a version the game is not at is refused, and the game
// goes on from the version it went back to.
func takeBack(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	g := NewGame("g1")
	g.TakeBacksOff = true
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	for v, mv := range []string{"S 0,0", "S 1,1", "T 2,2", "S 3,3"} {
		m := store.Move{Seat: v % 2, Move: mv, At: g.Created.Add(time.Duration(v+1) * time.Second), Clocks: []int64{int64(v), 7}, ByTime: v == 1}
		if err := s.AppendMove(ctx, "g1", v+1, m, store.After{}); err != nil {
			t.Fatal(err)
		}
	}
	at := g.Created.Add(time.Minute)
	for _, tc := range []struct{ from, to int }{{3, 1}, {4, 5}, {4, -1}} {
		if err := s.TakeBack(ctx, "g1", tc.from, tc.to, []int64{0, 7}, nil, at); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a take-back from version %d to %d of a game at 4: %v, want ErrConflict", tc.from, tc.to, err)
		}
	}
	if err := s.TakeBack(ctx, "g1", 4, 2, []int64{1, 7}, []store.Reseed{{At: 2, Seed: 1 << 63}}, at); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "g1", 3, store.Move{Seat: 0, Move: "S 9,9", At: at}, store.After{}); err != nil {
		t.Fatal(err)
	}
	reseeds := []store.Reseed{{At: 2, Seed: 1 << 63}, {At: 2, Seed: 1<<64 - 1}}
	if err := s.TakeBack(ctx, "g1", 3, 2, []int64{1, 7}, reseeds, at); err != nil {
		t.Fatal(err)
	}
	closeStore(t, s)
	s = h.Open(t)
	defer closeStore(t, s)
	got, err := s.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || len(got.Moves) != 2 || got.Moves[1].Move != "S 1,1" || got.Moves[0].ByTime || !got.Moves[1].ByTime || !reflect.DeepEqual(got.Clocks, []int64{1, 7}) ||
		got.TakeBacks != 2 || !got.TakeBacksOff || !got.Updated.Equal(at) || !reflect.DeepEqual(got.Reseeds, reseeds) {
		t.Errorf("after two take-backs to version 2: version %d, moves %+v, clocks %v, take-backs %d (off %v), updated %v, reseeds %v",
			got.Version, got.Moves, got.Clocks, got.TakeBacks, got.TakeBacksOff, got.Updated, got.Reseeds)
	}
	if games, _, err := s.InProgress(ctx); err != nil || len(games) != 1 || len(games[0].Moves) != 2 || !reflect.DeepEqual(games[0].Reseeds, reseeds) {
		t.Errorf("in progress after the take-backs: %v, %v", games, err)
	}
}

// expire: an expired game is no longer in progress nor finished, and
// reads as expired; a finished game, or one not stored, is left as it is.
func expire(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	for _, id := range []string{"idle", "done", "playing"} {
		if err := s.Create(ctx, NewGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	Play(t, s, "idle", 1, 2, store.After{})
	Play(t, s, "done", 1, 2, store.After{Over: true, Summary: store.Summary{Phase: "end", Winners: []int{1}, Scores: []int{1, 2}}})
	at := time.UnixMilli(1_900_000_000_000).UTC()
	for _, id := range []string{"idle", "done", "nope"} {
		if err := s.Expire(ctx, id, at); err != nil {
			t.Errorf("Expire(%s): %v", id, err)
		}
	}
	for _, tc := range []struct {
		id      string
		expired bool
	}{{"idle", true}, {"done", false}, {"playing", false}} {
		g, err := s.Game(ctx, tc.id)
		if err != nil || g.Expired != tc.expired {
			t.Errorf("%s after the expiry: %+v, %v; want expired %v", tc.id, g, err, tc.expired)
		}
	}
	active, _, err := s.InProgress(ctx)
	if err != nil || len(active) != 1 || active[0].ID != "playing" {
		t.Errorf("in progress: %v, %v; want playing alone", active, err)
	}
	fin, _, err := s.Finished(ctx, 10)
	if err != nil || len(fin) != 1 || fin[0].ID != "done" {
		t.Errorf("finished: %v, %v; want done alone", fin, err)
	}
}

// damaged: a game whose rows something other than the store changed reads
// as damaged and is left out of the lists, apart; the others read whole.
func damaged(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	for i, tc := range []struct {
		name, game string
		change     string
		finished   bool // the change is to what Finished reads
	}{
		{"a move's text", "playing", `UPDATE moves SET move = 'S 9,9' WHERE game = ? AND version = 2`, false},
		{"a move gone", "playing", `DELETE FROM moves WHERE game = ? AND version = 3`, false},
		{"a finished game's move", "finished", `UPDATE moves SET clocks = '[1,2]' WHERE game = ? AND version = 4`, false},
		{"the row's seats", "playing", `UPDATE games SET seats = replace(seats, 'Ann', 'Bnn') WHERE id = ?`, false},
		{"a finished row's summary", "finished", `UPDATE games SET summary = replace(summary, 'end', 'enD') WHERE id = ?`, true},
		{"a finished row's seed", "finished", `UPDATE games SET seed = seed + 1 WHERE id = ?`, true},
	} {
		// Each case has games of its own, told apart by their ids'
		// prefix: the lists hold the games of earlier cases too.
		prefix := fmt.Sprintf("c%d-", i)
		for _, id := range []string{"finished", "other", "playing"} {
			if err := s.Create(ctx, NewGame(prefix+id)); err != nil {
				t.Fatal(err)
			}
			Play(t, s, prefix+id, 1, 4, store.After{Over: id == "finished", Summary: store.Summary{Phase: "end", Winners: []int{1}, Scores: []int{1, 2}}})
		}
		mine := func(games []*store.Game, bad []store.Damaged) (ids, damaged []string) {
			for _, g := range games {
				if strings.HasPrefix(g.ID, prefix) {
					ids = append(ids, strings.TrimPrefix(g.ID, prefix))
				}
			}
			for _, d := range bad {
				if strings.HasPrefix(d.ID, prefix) && errors.Is(d.Err, store.ErrDamaged) {
					damaged = append(damaged, strings.TrimPrefix(d.ID, prefix))
				}
			}
			return ids, damaged
		}
		must(t, h.Exec(t, tc.change, prefix+tc.game))
		if _, err := s.Game(ctx, prefix+tc.game); !errors.Is(err, store.ErrDamaged) {
			t.Errorf("%s: Game: %v, want ErrDamaged", tc.name, err)
		}
		active, bad, err := s.InProgress(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantActive, wantBad := []string{"other", "playing"}, []string(nil)
		if tc.game == "playing" {
			wantActive, wantBad = []string{"other"}, []string{"playing"}
		}
		if ids, damaged := mine(active, bad); !slices.Equal(ids, wantActive) || !slices.Equal(damaged, wantBad) {
			t.Errorf("%s: in progress %v, damaged %v; want %v and %v", tc.name, ids, damaged, wantActive, wantBad)
		}
		fin, bad, err := s.Finished(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		wantFin, wantBad := []string{"finished"}, []string(nil)
		if tc.finished {
			wantFin, wantBad = nil, []string{"finished"}
		}
		if ids, damaged := mine(fin, bad); !slices.Equal(ids, wantFin) || !slices.Equal(damaged, wantBad) {
			t.Errorf("%s: finished %v, damaged %v; want %v and %v", tc.name, ids, damaged, wantFin, wantBad)
		}
		if _, err := s.Game(ctx, prefix+"other"); err != nil {
			t.Errorf("%s: the game beside: %v", tc.name, err)
		}
	}
}

// importGames: a game read from a store imports whole under another id,
// and reads back equal; a second import of the same id is refused. IDs
// lists every game, whatever its state.
func importGames(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	for _, id := range []string{"a", "fresh", "over"} {
		if err := s.Create(ctx, NewGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	Play(t, s, "a", 1, 5, store.After{})
	if err := s.TakeBack(ctx, "a", 5, 3, []int64{1, 2}, []store.Reseed{{At: 3, Seed: 1<<63 + 7}}, time.UnixMilli(1_800_000_100_000)); err != nil {
		t.Fatal(err)
	}
	Play(t, s, "a", 4, 6, store.After{})
	Play(t, s, "over", 1, 3, store.After{Over: true, Summary: store.Summary{Phase: "end", ToMove: -1, Scores: []int{3, 4}, Winners: []int{1}}})
	if err := s.Expire(ctx, "fresh", time.UnixMilli(1_900_000_000_000)); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "fresh", "over"} {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		g.ID = "copy-" + id
		if err := s.Import(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.Import(ctx, g); !errors.Is(err, store.ErrConflict) {
			t.Errorf("%s imported twice: %v, want ErrConflict", g.ID, err)
		}
		got, err := s.Game(ctx, g.ID)
		if err != nil || !reflect.DeepEqual(got, g) {
			t.Errorf("%s imported:\n got %+v, %v\nwant %+v", g.ID, got, err, g)
		}
	}
	// The copy goes on as the game would.
	Play(t, s, "copy-a", 7, 7, store.After{})
	closeStore(t, s)
	s = h.Open(t)
	defer closeStore(t, s)
	ids, err := s.IDs(ctx)
	if want := []string{"a", "copy-a", "copy-fresh", "copy-over", "fresh", "over"}; err != nil || !slices.Equal(ids, want) {
		t.Errorf("IDs: %v, %v; want %v", ids, err, want)
	}
	if g, err := s.Game(ctx, "copy-a"); err != nil || g.Version != 7 {
		t.Errorf("the copy after a move: %+v, %v", g, err)
	}
}

// schema: a new database is of the current schema; one of a newer schema
// is refused at open, with an error that says so, and left as it was.
func schema(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	if err := s.Create(ctx, NewGame("g")); err != nil {
		t.Fatal(err)
	}
	closeStore(t, s)
	if v := h.SchemaVersion(t); v != store.SchemaVersion {
		t.Errorf("a new database's schema version %d, want %d", v, store.SchemaVersion)
	}
	h.SetSchemaVersion(t, store.SchemaVersion+1)
	if s, err := h.OpenErr(t); err == nil || !strings.Contains(err.Error(), "newer") {
		if s != nil {
			s.Close()
		}
		t.Errorf("a database of a newer schema: %v, want it refused", err)
	}
	if v := h.SchemaVersion(t); v != store.SchemaVersion+1 {
		t.Errorf("refused, the database's schema version became %d", v)
	}
	h.SetSchemaVersion(t, store.SchemaVersion)
	s = h.Open(t)
	defer closeStore(t, s)
	if g, err := s.Game(ctx, "g"); err != nil || g.ID != "g" {
		t.Errorf("the game after the refusal: %+v, %v", g, err)
	}
}
