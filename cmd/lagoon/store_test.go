package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/postgres"
	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
	"github.com/lagoon-games/lagoon/internal/store/storetest"
)

// TestServePostgres: with -store postgres://..., lagoon serve keeps its
// games in PostgreSQL, across a restart.
func TestServePostgres(t *testing.T) {
	address := pgtest.URL(t)
	url, code := startServe(t, address)
	id, move := playOneMove(t, url)
	stopServe(t, syscall.SIGINT, code)
	url, code = startServe(t, address)
	if got := gameMoves(t, url, id); !slices.Equal(got, []string{move}) {
		t.Errorf("after a restart the game has moves %v, want [%s]", got, move)
	}
	stopServe(t, syscall.SIGTERM, code)
	if n := pgtest.QueryInt(t, address, `SELECT count(*) FROM moves`); n != 1 {
		t.Errorf("%d moves in PostgreSQL, want 1", n)
	}
}

// TestServeRefusesBadStore: an address that does not answer, or whose
// server refuses the credentials, or a database of a newer schema: lagoon
// serve says so at start, without the password, and writes nothing.
func TestServeRefusesBadStore(t *testing.T) {
	for _, tc := range []struct {
		name    string
		address func(t *testing.T) string
		want    string
		after   func(t *testing.T, address string)
	}{
		{"no answer", func(*testing.T) string {
			return "postgres://postgres:secret@127.0.0.1:1/test?sslmode=disable&connect_timeout=5"
		}, "127.0.0.1", nil},
		{"both -store and -data", nil, "-store and -data", nil},
		{"unknown role", func(t *testing.T) string {
			return strings.Replace(pgtest.URL(t), "postgres://postgres", "postgres://lagoon_no_such_role:secret", 1)
		}, "lagoon_no_such_role", nil},
		{"newer schema", func(t *testing.T) string {
			address := pgtest.URL(t)
			s, err := postgres.Open(context.Background(), address)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			pgtest.Exec(t, address, fmt.Sprintf(`UPDATE lagoon_schema SET version = %d`, store.SchemaVersion+1))
			return address
		}, "newer", func(t *testing.T, address string) {
			if v := pgtest.QueryInt(t, address, `SELECT version FROM lagoon_schema`); v != store.SchemaVersion+1 {
				t.Errorf("the schema version became %d", v)
			}
			if n := pgtest.QueryInt(t, address, `SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM leases)`); n != 0 {
				t.Errorf("%d rows written", n)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"serve", "-addr", "127.0.0.1:0", "-store", "postgres://localhost/x", "-data", t.TempDir()}
			address := ""
			if tc.address != nil {
				address = tc.address(t)
				args = []string{"serve", "-addr", "127.0.0.1:0", "-store", address}
			}
			_, errOut, status := runCmd(t, args...)
			if status == 0 || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "secret") {
				t.Errorf("exit %d, %q; want a failure that says %q, without the password", status, errOut, tc.want)
			}
			if tc.after != nil {
				tc.after(t, address)
			}
		})
	}
}

// copyFixture writes games of every kind into the store at address: in
// progress with a take-back, finished, expired, and without moves. It
// returns them as they read.
func copyFixture(t *testing.T, address string) map[string]*store.Game {
	t.Helper()
	ctx := context.Background()
	s, err := openStore(ctx, address)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"playing", "finished", "expired", "fresh"} {
		if err := s.Create(ctx, storetest.NewGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	storetest.Play(t, s, "playing", 1, 5, store.After{})
	if err := s.TakeBack(ctx, "playing", 5, 3, []int64{1, 2}, []store.Reseed{{At: 3, Seed: 1<<63 + 7}}, time.UnixMilli(1_800_000_100_000)); err != nil {
		t.Fatal(err)
	}
	storetest.Play(t, s, "playing", 4, 6, store.After{})
	storetest.Play(t, s, "finished", 1, 4, store.After{Over: true, Summary: store.Summary{Phase: "end", ToMove: -1, Scores: []int{3, 4}, Winners: []int{1}}})
	storetest.Play(t, s, "expired", 1, 2, store.After{})
	if err := s.Expire(ctx, "expired", time.UnixMilli(1_900_000_000_000)); err != nil {
		t.Fatal(err)
	}
	at := time.UnixMilli(1_800_000_000_000).UTC()
	for i, name := range []string{"Ann", "Guest 1234"} {
		p := players.Player{ID: fmt.Sprint("p", i), Name: name, Guest: i == 1, Created: at}
		hash := make([]byte, 32)
		hash[0] = byte(i)
		if err := s.CreatePlayer(ctx, p, players.Session{Hash: hash, Player: p.ID, Created: at, LastSeen: at.Add(time.Hour), UserAgent: "Firefox"}); err != nil {
			t.Fatal(err)
		}
		for seat, game := range []string{"playing", "finished"} {
			if err := s.OwnSeat(ctx, game, (seat+i)%2, p.ID, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	return readAll(t, s)
}

// storedPlayer is a player as a store keeps it, with its sessions and seats.
type storedPlayer struct {
	players.Player
	Sessions []players.Session
	Seats    []store.OwnedSeat
}

// readPlayers reads every player of s.
func readPlayers(t *testing.T, s store.Store) []storedPlayer {
	t.Helper()
	ctx := context.Background()
	ids, err := s.PlayerIDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []storedPlayer
	for _, id := range ids {
		var sp storedPlayer
		if sp.Player, err = s.Player(ctx, id); err != nil {
			t.Fatal(err)
		}
		if sp.Sessions, err = s.Sessions(ctx, id); err != nil {
			t.Fatal(err)
		}
		if sp.Seats, err = s.OwnedSeats(ctx, id); err != nil {
			t.Fatal(err)
		}
		out = append(out, sp)
	}
	return out
}

// readAll reads every game of s.
func readAll(t *testing.T, s store.Store) map[string]*store.Game {
	t.Helper()
	ctx := context.Background()
	ids, err := s.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]*store.Game{}
	for _, id := range ids {
		if games[id], err = s.Game(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	return games
}

// TestStoreCopy: lagoon store copy copies every game from a data directory
// into another store (another data directory, or PostgreSQL) and from
// there into a third, each game as it was; run again, it copies nothing
// more; it never overwrites a different game of the same id, nor copies a
// damaged one, and copies the others all the same.
func TestStoreCopy(t *testing.T) {
	for _, tc := range []struct {
		name string
		mid  func(t *testing.T) string
	}{
		{"through a data directory", func(t *testing.T) string { return t.TempDir() }},
		{"through PostgreSQL", func(t *testing.T) string { return pgtest.URL(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, mid, dst := t.TempDir(), tc.mid(t), t.TempDir()
			want := copyFixture(t, src)
			s, err := openStore(context.Background(), src)
			if err != nil {
				t.Fatal(err)
			}
			wantPlayers := readPlayers(t, s)
			s.Close()
			for _, step := range []struct {
				from, to, out, players string
			}{
				{src, mid, "copied 4 games", "copied 2 players"},
				{src, mid, "copied 0 games", "copied 0 players"},
				{mid, dst, "copied 4 games", "copied 2 players"},
			} {
				out, errOut, status := runCmd(t, "store", "copy", "-from", step.from, "-to", step.to)
				if status != 0 || !strings.Contains(out, step.out) || !strings.Contains(out, step.players) {
					t.Fatalf("copy %s to %s: exit %d, %q, %q; want %q and %q", step.from, step.to, status, out, errOut, step.out, step.players)
				}
			}
			s, err = openStore(context.Background(), dst)
			if err != nil {
				t.Fatal(err)
			}
			if got := readAll(t, s); !reflect.DeepEqual(got, want) {
				t.Errorf("the games copied twice:\n got %v\nwant %v", got, want)
			}
			if got := readPlayers(t, s); len(got) != 2 || !reflect.DeepEqual(got, wantPlayers) {
				t.Errorf("the players copied twice:\n got %+v\nwant %+v", got, wantPlayers)
			}
			s.Close()

			// A target with a different game of the id playing, and a
			// source whose finished game was changed outside the store.
			other := t.TempDir()
			s, err = openStore(context.Background(), other)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Create(context.Background(), storetest.NewGame("playing")); err != nil {
				t.Fatal(err)
			}
			s.Close()
			db, err := sql.Open("sqlite", "file:"+filepath.Join(dst, "lagoon.db"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`UPDATE moves SET move = 'S 9,9' WHERE game = 'finished' AND version = 2`); err != nil {
				t.Fatal(err)
			}
			db.Close()
			out, errOut, status := runCmd(t, "store", "copy", "-from", dst, "-to", other)
			if status != 1 || !strings.Contains(out, "copied 2 games") || !strings.Contains(errOut, "game playing: the target has a different game") ||
				!strings.Contains(errOut, "changed outside the store") {
				t.Errorf("copy onto a different game, from a damaged one: exit %d, %q, %q", status, out, errOut)
			}
			s, err = openStore(context.Background(), other)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got := readAll(t, s)
			if len(got) != 3 || got["playing"].Version != 0 || !reflect.DeepEqual(got["expired"], want["expired"]) {
				t.Errorf("the target after: %v; want its own game playing, and expired and fresh copied", got)
			}
			// The players are copied, without their seats of the games
			// left: the target's own playing, and the damaged finished.
			for _, p := range readPlayers(t, s) {
				if len(p.Seats) != 0 || len(p.Sessions) != 1 {
					t.Errorf("player %+v in the target: want its session and no seat", p)
				}
			}
		})
	}
}
