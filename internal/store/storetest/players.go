package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// This file checks the stores' players, sessions and seats held
// (docs/players.md).

// newPlayer returns a player and its first session, whose hash is made of n.
func newPlayer(id, name string, n byte) (players.Player, players.Session) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	hash := make([]byte, 32)
	hash[0], hash[31] = n, 0xff
	return players.Player{ID: id, Name: name, Guest: true, Created: at},
		players.Session{Hash: hash, Player: id, Created: at, LastSeen: at, UserAgent: "Mozilla/5.0 (" + name + ")"}
}

// playersRoundTrip: a player and its session read back as written, after
// the store is opened again; a session is found by its hash alone.
func playersRoundTrip(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	p, sess := newPlayer("p1", "Guest 1234", 1)
	if err := s.CreatePlayer(ctx, p, sess); err != nil {
		t.Fatal(err)
	}
	closeStore(t, s)
	s = h.Open(t)
	defer closeStore(t, s)
	if got, err := s.Player(ctx, "p1"); err != nil || got != p {
		t.Errorf("Player: %+v, %v; want %+v", got, err, p)
	}
	gotS, gotP, err := s.Session(ctx, sess.Hash)
	if err != nil || gotP != p || !reflect.DeepEqual(gotS, sess) {
		t.Errorf("Session: %+v of %+v, %v; want %+v of %+v", gotS, gotP, err, sess, p)
	}
	if all, err := s.Sessions(ctx, "p1"); err != nil || len(all) != 1 || !reflect.DeepEqual(all[0], sess) {
		t.Errorf("Sessions: %+v, %v; want the one", all, err)
	}
	other := append([]byte(nil), sess.Hash...)
	other[5] ^= 1
	if _, _, err := s.Session(ctx, other); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("a session of another hash: %v, want players.ErrNotFound", err)
	}
	if _, err := s.Player(ctx, "nobody"); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("a player not stored: %v, want players.ErrNotFound", err)
	}
	if all, err := s.Sessions(ctx, "nobody"); err != nil || len(all) != 0 {
		t.Errorf("the sessions of nobody: %+v, %v", all, err)
	}
}

// playersRefused: a new player whose name another has, ignoring case, or
// whose id or session hash is stored, is refused, and nothing of it is
// written.
func playersRefused(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	p, sess := newPlayer("p1", "Guest 1234", 1)
	if err := s.CreatePlayer(ctx, p, sess); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		id, as   string
		hash     byte
		want     error
		sameHash bool
	}{
		{"the same name", "p2", "Guest 1234", 2, players.ErrNameTaken, false},
		{"the name in another case", "p2", "gUEST 1234", 2, players.ErrNameTaken, false},
		{"the same id", "p1", "Guest 99", 2, players.ErrExists, false},
		{"the same session", "p2", "Guest 99", 1, players.ErrExists, true},
	} {
		q, qs := newPlayer(tc.id, tc.as, tc.hash)
		if err := s.CreatePlayer(ctx, q, qs); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if tc.id != "p1" {
			if _, err := s.Player(ctx, tc.id); !errors.Is(err, players.ErrNotFound) {
				t.Errorf("%s: the refused player was stored (%v)", tc.name, err)
			}
		}
		if !tc.sameHash {
			if _, _, err := s.Session(ctx, qs.Hash); !errors.Is(err, players.ErrNotFound) {
				t.Errorf("%s: the refused player's session was stored (%v)", tc.name, err)
			}
		}
	}
	if got, err := s.Player(ctx, "p1"); err != nil || got != p {
		t.Errorf("the first player after the refusals: %+v, %v", got, err)
	}
}

// sessionsTouchedAndEnded: touching a session writes its last seen time
// alone; an ended session is read no more, and touching it is
// players.ErrNotFound; ending it again is no error; the player's other
// sessions stay.
func sessionsTouchedAndEnded(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	p, sess := newPlayer("p1", "Ann", 1)
	if err := s.CreatePlayer(ctx, p, sess); err != nil {
		t.Fatal(err)
	}
	later := sess.LastSeen.Add(7 * time.Minute)
	if err := s.TouchSession(ctx, sess.Hash, later); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.Session(ctx, sess.Hash)
	if want := (players.Session{Hash: sess.Hash, Player: "p1", Created: sess.Created, LastSeen: later, UserAgent: sess.UserAgent}); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("touched: %+v, %v; want %+v", got, err, want)
	}
	if err := s.EndSession(ctx, sess.Hash); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Session(ctx, sess.Hash); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("an ended session: %v, want players.ErrNotFound", err)
	}
	if err := s.TouchSession(ctx, sess.Hash, later); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("touching an ended session: %v, want players.ErrNotFound", err)
	}
	if err := s.EndSession(ctx, sess.Hash); err != nil {
		t.Errorf("ending an ended session: %v", err)
	}
	if got, err := s.Player(ctx, "p1"); err != nil || got != p {
		t.Errorf("the player of the ended session: %+v, %v; want it kept", got, err)
	}
}

// seatsOwned: a seat recorded as a player's is theirs, in the games they
// play and those that ended, newest first, with the seats they hold; a
// seat recorded again is its new holder's alone; a seat of a game or a
// player not stored is refused.
func seatsOwned(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	for i, name := range []string{"Ann", "Bea"} {
		p, sess := newPlayer(fmt.Sprintf("p%d", i+1), name, byte(i+1))
		if err := s.CreatePlayer(ctx, p, sess); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)
	for i, id := range []string{"old", "new", "done", "gone", "theirs"} {
		g := NewGame(id)
		g.Created = at.Add(time.Duration(i) * time.Minute)
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	Play(t, s, "done", 1, 2, store.After{Over: true, Summary: store.Summary{Phase: "end", Winners: []int{0}, Scores: []int{3, 1}}})
	if err := s.Expire(ctx, "gone", at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, o := range []struct {
		game   string
		seat   int
		player string
	}{{"old", 0, "p1"}, {"old", 1, "p1"}, {"new", 1, "p1"}, {"done", 0, "p1"}, {"gone", 1, "p1"}, {"theirs", 0, "p1"}, {"theirs", 0, "p2"}} {
		if err := s.OwnSeat(ctx, o.game, o.seat, o.player, at); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ game, player string }{{"nosuch", "p1"}, {"old", "nobody"}} {
		if err := s.OwnSeat(ctx, tc.game, 0, tc.player, at); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a seat of game %s for %s: %v, want ErrNotFound", tc.game, tc.player, err)
		}
	}
	type owned struct {
		id    string
		seats []int
	}
	read := func(player string, limit int) (playing, ended []owned) {
		p, e, bad, err := s.PlayerGames(ctx, player, limit, nil)
		if err != nil || len(bad) > 0 {
			t.Fatalf("PlayerGames(%s): %v, damaged %v", player, err, bad)
		}
		for _, pg := range p {
			playing = append(playing, owned{pg.Line.ID, pg.Seats})
		}
		for _, pg := range e {
			ended = append(ended, owned{pg.Line.ID, pg.Seats})
		}
		return playing, ended
	}
	// "new" and "old" were created a minute apart and never moved: the
	// newest first. "done" ended after "gone" was given up (its moves are
	// of 2027).
	playing, ended := read("p1", 10)
	if want := []owned{{"new", []int{1}}, {"old", []int{0, 1}}}; !reflect.DeepEqual(playing, want) {
		t.Errorf("p1 plays %v, want %v", playing, want)
	}
	if want := []owned{{"done", []int{0}}, {"gone", []int{1}}}; !reflect.DeepEqual(ended, want) {
		t.Errorf("p1's ended games %v, want %v", ended, want)
	}
	if _, ended := read("p1", 1); !reflect.DeepEqual(ended, []owned{{"done", []int{0}}}) {
		t.Errorf("p1's last ended game: %v, want done", ended)
	}
	if playing, ended := read("p2", 10); !reflect.DeepEqual(playing, []owned{{"theirs", []int{0}}}) || ended != nil {
		t.Errorf("p2 plays %v and ended %v, want the seat taken over", playing, ended)
	}
	if playing, ended := read("nobody", 10); playing != nil || ended != nil {
		t.Errorf("nobody plays %v and ended %v", playing, ended)
	}
	// A game that ends, or is given up, after its seats are held moves
	// to the ended ones, by when it ended.
	for _, id := range []string{"late", "left"} {
		if err := s.Create(ctx, NewGame(id)); err != nil {
			t.Fatal(err)
		}
		if err := s.OwnSeat(ctx, id, 1, "p1", at); err != nil {
			t.Fatal(err)
		}
	}
	if playing, _ := read("p1", 10); len(playing) != 4 {
		t.Errorf("p1 plays %v, want late and left besides new and old", playing)
	}
	Play(t, s, "late", 1, 3, store.After{Over: true, Summary: store.Summary{Phase: "end", Winners: []int{1}, Scores: []int{0, 2}}})
	if err := s.Expire(ctx, "left", at.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	playing, ended = read("p1", 10)
	if want := []owned{{"new", []int{1}}, {"old", []int{0, 1}}}; !reflect.DeepEqual(playing, want) {
		t.Errorf("p1 plays %v after two games ended, want %v", playing, want)
	}
	if want := []owned{{"late", []int{1}}, {"done", []int{0}}, {"left", []int{1}}, {"gone", []int{1}}}; !reflect.DeepEqual(ended, want) {
		t.Errorf("p1's ended games %v, want %v", ended, want)
	}
	if _, ended := read("p1", 2); !reflect.DeepEqual(ended, []owned{{"late", []int{1}}, {"done", []int{0}}}) {
		t.Errorf("p1's last 2 ended games: %v", ended)
	}
}

// playersConcurrent: guests made at once, with names drawn from few, are
// each stored or refused alone: no two players share a name.
func playersConcurrent(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	var wg sync.WaitGroup
	errs := make([]error, 40)
	for i := range errs {
		wg.Go(func() {
			p, sess := newPlayer(fmt.Sprintf("p%d", i), fmt.Sprintf("Guest %d", i%8), byte(i))
			errs[i] = s.CreatePlayer(ctx, p, sess)
		})
	}
	wg.Wait()
	names := map[string]bool{}
	for i, err := range errs {
		switch {
		case errors.Is(err, players.ErrNameTaken):
		case err != nil:
			t.Errorf("player %d: %v", i, err)
		default:
			p, err := s.Player(ctx, fmt.Sprintf("p%d", i))
			if err != nil || names[p.Name] {
				t.Errorf("player %d: %+v, %v: a name stored twice", i, p, err)
			}
			names[p.Name] = true
		}
	}
	if len(names) != 8 {
		t.Errorf("%d names stored, want 8", len(names))
	}
}

// playersRenamed: a player takes a name no other has, ignoring case, and
// may change its case; a name taken, or a player not stored, is refused
// and nothing changes.
func playersRenamed(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	for i, name := range []string{"Guest 1234", "Bea"} {
		p, sess := newPlayer(fmt.Sprintf("p%d", i+1), name, byte(i+1))
		if err := s.CreatePlayer(ctx, p, sess); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		id, name string
		want     error
		now      string
	}{
		{"p1", "Ann", nil, "Ann"},
		{"p1", "ANN", nil, "ANN"},
		{"p1", "bea", players.ErrNameTaken, "ANN"},
		{"p1", "Bea", players.ErrNameTaken, "ANN"},
		{"nobody", "Cy", players.ErrNotFound, ""},
	} {
		err := s.Rename(ctx, tc.id, tc.name)
		if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%s named %q: %v, want %v", tc.id, tc.name, err, tc.want)
		}
		if tc.now == "" {
			continue
		}
		if p, err := s.Player(ctx, tc.id); err != nil || p.Name != tc.now {
			t.Errorf("%s after being named %q: %+v, %v; want %q", tc.id, tc.name, p, err, tc.now)
		}
	}
	// The name let go is free again.
	q, qs := newPlayer("p3", "Guest 1234", 3)
	if err := s.CreatePlayer(ctx, q, qs); err != nil {
		t.Errorf("a new player of the name let go: %v", err)
	}
	if _, err := s.Player(ctx, "nobody"); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("a rename made a player: %v", err)
	}
}

// playersImported: a player imported with its sessions reads back as it
// was, listed by PlayerIDs, its seats by OwnedSeats; an import of a player
// or a session stored, or of a name taken, is refused whole.
func playersImported(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	p, first := newPlayer("b", "Ann", 1)
	_, second := newPlayer("b", "Ann", 2)
	second.Created, second.LastSeen, second.UserAgent = first.Created.Add(time.Hour), first.Created.Add(2*time.Hour), ""
	if err := s.ImportPlayer(ctx, p, []players.Session{first, second}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Player(ctx, "b"); err != nil || got != p {
		t.Errorf("the imported player: %+v, %v", got, err)
	}
	if got, err := s.Sessions(ctx, "b"); err != nil || !reflect.DeepEqual(got, []players.Session{first, second}) {
		t.Errorf("the imported sessions: %+v, %v", got, err)
	}
	q, qs := newPlayer("a", "Bea", 3)
	for _, tc := range []struct {
		name     string
		p        players.Player
		sessions []players.Session
		want     error
	}{
		{"the same player", p, nil, players.ErrExists},
		{"a name taken", players.Player{ID: "c", Name: "ANN", Created: p.Created}, nil, players.ErrNameTaken},
		{"a session stored", q, []players.Session{qs, {Hash: first.Hash, Player: "a", Created: qs.Created, LastSeen: qs.LastSeen}}, players.ErrExists},
	} {
		if err := s.ImportPlayer(ctx, tc.p, tc.sessions); !errors.Is(err, tc.want) {
			t.Errorf("importing %s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, _, err := s.Session(ctx, qs.Hash); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("a session of a refused import was stored: %v", err)
	}
	if err := s.ImportPlayer(ctx, q, nil); err != nil {
		t.Fatal(err)
	}
	if ids, err := s.PlayerIDs(ctx); err != nil || !reflect.DeepEqual(ids, []string{"a", "b"}) {
		t.Errorf("PlayerIDs: %v, %v", ids, err)
	}
	at := time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)
	for _, id := range []string{"g1", "g2"} {
		if err := s.Create(ctx, NewGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	for i, o := range []store.OwnedSeat{{Game: "g2", Seat: 1, At: at}, {Game: "g1", Seat: 0, At: at.Add(time.Minute)}} {
		if err := s.OwnSeat(ctx, o.Game, o.Seat, "b", o.At); err != nil {
			t.Fatal(i, err)
		}
	}
	want := []store.OwnedSeat{{Game: "g1", Seat: 0, At: at.Add(time.Minute)}, {Game: "g2", Seat: 1, At: at}}
	if got, err := s.OwnedSeats(ctx, "b"); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("OwnedSeats: %+v, %v; want %+v", got, err, want)
	}
	if got, err := s.OwnedSeats(ctx, "a"); err != nil || got != nil {
		t.Errorf("the seats of a player with none: %+v, %v", got, err)
	}
}
