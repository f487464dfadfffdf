package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// flipGames writes three games into s, each with rows of their own kind:
// playing (its row written with its first move and a take-back, moves
// after it), finished, and onemove (one move, which its row counts).
func flipGames(t *testing.T, s *SQLite) []string {
	t.Helper()
	ctx := context.Background()
	for _, id := range []string{"playing", "finished", "onemove"} {
		if err := s.Create(ctx, newGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	play := func(id string, from, to int, after After) {
		t.Helper()
		for v := from; v <= to; v++ {
			m := Move{Seat: v % 2, Move: fmt.Sprintf("S %d,3", v), At: time.UnixMilli(1_800_000_000_000 + int64(v)*1000), Clocks: []int64{60000 - int64(v), 59000}, ByTime: v == 2}
			if v < to {
				m.Clocks = nil
			}
			a := After{}
			if v == to {
				a = after
			}
			if err := s.AppendMove(ctx, id, v, m, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	play("playing", 1, 5, After{})
	if err := s.TakeBack(ctx, "playing", 5, 3, []int64{1, 2}, []Reseed{{At: 3, Seed: 1<<63 + 7}}, time.UnixMilli(1_800_000_100_000)); err != nil {
		t.Fatal(err)
	}
	play("playing", 4, 5, After{})
	play("finished", 1, 4, After{Over: true, Summary: Summary{Phase: "end", ToMove: -1, Scores: []int{3, 4}, Winners: []int{1}}})
	play("onemove", 1, 1, After{})
	return []string{"playing", "finished", "onemove"}
}

// storedValue is one value of a game's rows: the row's key, its column
// and what it holds.
type storedValue struct {
	table string
	key   []string // the key's columns
	keys  []any    // their values
	col   string
	value any
}

// storedValues lists every value of game id's rows.
func storedValues(t *testing.T, db *sql.DB, id string) []storedValue {
	t.Helper()
	var out []storedValue
	read := func(table string, key []string, query string) {
		rows, err := db.Query(query, id)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		for rows.Next() {
			values := make([]any, len(cols))
			dest := make([]any, len(cols))
			for i := range values {
				dest[i] = &values[i]
			}
			if err := rows.Scan(dest...); err != nil {
				t.Fatal(err)
			}
			var keys []any
			for _, k := range key {
				keys = append(keys, values[slices.Index(cols, k)])
			}
			for i, c := range cols {
				out = append(out, storedValue{table, key, keys, c, values[i]})
			}
		}
	}
	read("games", []string{"id"}, `SELECT * FROM games WHERE id = ?`)
	read("moves", []string{"game", "version"}, `SELECT * FROM moves WHERE game = ?`)
	return out
}

// flips returns the values that differ from v in one bit: every one, or
// with stride > 1 those of every stride-th bit (a stride prime to 8 still
// flips every bit of a byte, in one byte or another).
func flips(v any, stride int) []any {
	var out []any
	switch v := v.(type) {
	case int64:
		for b := 0; b < 64; b += stride {
			out = append(out, v^1<<b)
		}
	case string:
		for i := 0; i < len(v)*8; i += stride {
			c := []byte(v)
			c[i/8] ^= 1 << (i % 8)
			out = append(out, string(c))
		}
	case []byte:
		for i := 0; i < len(v)*8; i += stride {
			c := slices.Clone(v)
			c[i/8] ^= 1 << (i % 8)
			out = append(out, c)
		}
	}
	return out
}

// set writes to in place of the value of sv, its row found by keys, and
// returns the row's keys after.
func (sv storedValue) set(db *sql.DB, keys []any, to any) ([]any, error) {
	where := strings.Join(sv.key, " = ? AND ") + " = ?"
	if _, err := db.Exec(`UPDATE `+sv.table+` SET `+sv.col+` = ? WHERE `+where, append([]any{to}, keys...)...); err != nil {
		return keys, err
	}
	after := slices.Clone(keys)
	if i := slices.Index(sv.key, sv.col); i >= 0 {
		after[i] = to
	}
	return after, nil
}

// TestEveryFlipSeen flips, one at a time, every bit of every value of a
// game's rows (a game in progress, a finished one, one with a single
// move), as a disk or a hand might: each flip leaves that game damaged to
// every read (Game fails, and neither InProgress nor Finished returns it
// whole), and the other games whole. Some 15,000 flips take seconds; with
// -short or the race detector, every 7th bit.
func TestEveryFlipSeen(t *testing.T) {
	stride, least := 1, 3000
	if testing.Short() || raceEnabled {
		stride, least = 7, 3000/7
	}
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	defer s.Close()
	ids := flipGames(t, s)
	others := func(id string) []string {
		o := slices.DeleteFunc(slices.Clone(ids), func(o string) bool { return o == id })
		slices.Sort(o)
		return o
	}
	// The flips go through a connection of their own, which knows nothing
	// of foreign keys, as a flipped bit does not.
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "lagoon.db")+"?_pragma=busy_timeout(10000)&_pragma=synchronous(OFF)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// seen says whether the store sees the damage to game id, done to a
	// value of table: reading it fails, InProgress leaves it out (or lists
	// it damaged), and so does Finished, which reads no moves, unless the
	// damage is to a move: the lobby's line of a finished game comes from
	// its row. Every other game reads whole.
	seen := func(id, table string) (bool, error) {
		_, readErr := s.Game(ctx, id)
		if readErr == nil || errors.Is(readErr, ErrNotFound) {
			return false, readErr
		}
		active, _, err1 := s.InProgress(ctx)
		finished, _, err2 := s.Finished(ctx, 10)
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, g := range active {
			listed = append(listed, g.ID)
		}
		for _, g := range finished {
			if g.ID != id || table == "games" {
				listed = append(listed, g.ID)
			}
		}
		slices.Sort(listed)
		return slices.Equal(listed, others(id)), readErr
	}
	for _, id := range ids {
		var tried, refused int
		for _, sv := range storedValues(t, db, id) {
			for _, to := range flips(sv.value, stride) {
				keys, err := sv.set(db, sv.keys, to)
				if err != nil {
					// A flip SQLite refuses (a move's version made that
					// of another) is not one the rows can hold.
					refused++
					continue
				}
				tried++
				if ok, readErr := seen(id, sv.table); !ok {
					t.Errorf("%s: %s.%s %v flipped to %v went unseen: Game: %v", id, sv.table, sv.col, sv.value, to, readErr)
				}
				if _, err := sv.set(db, keys, sv.value); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := s.Game(ctx, id); err != nil {
			t.Fatalf("%s after its flips were undone: %v", id, err)
		}
		if tried < least || refused > tried/50 {
			t.Errorf("%s: %d flips tried, %d refused by SQLite", id, tried, refused)
		}
		t.Logf("%s: %d flips tried, %d refused by SQLite", id, tried, refused)
	}
}

// TestMigrateToChecksums opens a database written before checksums
// (testdata/v2): every game reads as it did, and now carries its
// checksums, so that a flip is seen; the database opens again as it is.
func TestMigrateToChecksums(t *testing.T) {
	ctx := context.Background()
	b, err := os.ReadFile(filepath.Join("testdata", "v2", "lagoon.db"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]*Game
	if j, err := os.ReadFile(filepath.Join("testdata", "v2", "games.json")); err != nil || json.Unmarshal(j, &want) != nil {
		t.Fatalf("games.json: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lagoon.db"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir)
	for id, w := range want {
		if got, err := s.Game(ctx, id); err != nil || !reflect.DeepEqual(got, w) {
			t.Errorf("%s migrated: %v\n got %+v\nwant %+v", id, err, got, w)
		}
	}
	var unsummed int
	if err := s.read.QueryRow(`SELECT (SELECT count(*) FROM games WHERE checksum IS NULL) + (SELECT count(*) FROM moves WHERE hash IS NULL)`).Scan(&unsummed); err != nil || unsummed != 0 {
		t.Errorf("%d rows without checksums after the migration (%v)", unsummed, err)
	}
	s.Close()

	s = open(t, dir)
	defer s.Close()
	if got, err := s.Game(ctx, "seated"); err != nil || !reflect.DeepEqual(got, want["seated"]) {
		t.Errorf("opened again: %+v, %v", got, err)
	}
	for _, q := range []string{`UPDATE moves SET move = 'S b' WHERE game = 'playing' AND version = 3`, `UPDATE games SET seats = replace(seats, 'Ann', 'Bnn') WHERE id = 'finished'`} {
		if _, err := s.write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"playing", "finished"} {
		if _, err := s.Game(ctx, id); !errors.Is(err, ErrDamaged) {
			t.Errorf("a migrated game changed outside the store: %v, want ErrDamaged", err)
		}
	}
}

// TestUnreadableNamed: a database SQLite refuses, one that is no database
// and one whose pages were overwritten ("malformed"), is named with the way
// to restore it from a backup.
func TestUnreadableNamed(t *testing.T) {
	notADB := t.TempDir()
	path := filepath.Join(notADB, "lagoon.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("these are not the pages of a database\n", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(notADB)
	if err == nil {
		s.Close()
	}
	checkNamed := func(what string, err error, path string) {
		t.Helper()
		if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "lagoon backup") {
			t.Errorf("%s: %v; want ErrUnreadable naming %s and lagoon backup", what, err, path)
		}
	}
	checkNamed("a file that is no database", err, path)

	malformed := t.TempDir()
	s = open(t, malformed)
	for i := range 40 {
		if err := s.Create(context.Background(), newGame(fmt.Sprint("g", i))); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	path = filepath.Join(malformed, "lagoon.db")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The pages after the first, the games' rows among them.
	if _, err := f.WriteAt([]byte(strings.Repeat("\xff", 3*4096)), 4096); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if s, err = Open(malformed); err == nil {
		_, _, err = s.InProgress(context.Background())
		s.Close()
	}
	checkNamed("a malformed database", err, path)
}

// TestEmptiedRefused: a lagoon.db of 0 bytes, or a missing one whose log
// is there, is not taken for a new store, nor backed up, and is left as it
// is; once it is removed, the store starts empty.
func TestEmptiedRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{"empty", map[string]string{"lagoon.db": ""}},
		{"empty beside a log", map[string]string{"lagoon.db": "", "lagoon.db-wal": "frames"}},
		{"missing beside a log", map[string]string{"lagoon.db-wal": "frames"}},
	} {
		dir := t.TempDir()
		for name, text := range tc.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		copied := filepath.Join(t.TempDir(), "copy.db")
		if err := Backup(context.Background(), dir, copied); err == nil {
			t.Errorf("%s: backed up", tc.name)
		}
		if _, err := os.Stat(copied); err == nil {
			t.Errorf("%s: a backup of nothing was written", tc.name)
		}
		s, err := Open(dir)
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, ErrEmptied) || !strings.Contains(err.Error(), filepath.Join(dir, "lagoon.db")) || !strings.Contains(err.Error(), "lagoon backup") {
			t.Errorf("%s: %v; want ErrEmptied naming the file and lagoon backup", tc.name, err)
		}
		for name, text := range tc.files {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != text {
				t.Errorf("%s: %s holds %d bytes after (%v), %d before; want it left as it was", tc.name, name, len(b), err, len(text))
			}
		}
		for name := range tc.files {
			os.Remove(filepath.Join(dir, name))
		}
		s = open(t, dir)
		s.Close()
	}
}

// TestMigrateV3: a database of schema version 3, with reseeds and moves
// made by the time rule but no checksums, opens with its games as they
// were, now with checksums.
func TestMigrateV3(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	ids := flipGames(t, s)
	want := map[string]*Game{}
	for _, id := range ids {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want[id] = g
	}
	for _, q := range []string{"ALTER TABLE games DROP COLUMN checksum", "ALTER TABLE moves DROP COLUMN hash", "ALTER TABLE moves DROP COLUMN followed", "PRAGMA user_version = 3"} {
		if _, err := s.write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = open(t, dir)
	defer s.Close()
	for _, id := range ids {
		if got, err := s.Game(ctx, id); err != nil || !reflect.DeepEqual(got, want[id]) {
			t.Errorf("%s migrated: %v\n got %+v\nwant %+v", id, err, got, want[id])
		}
	}
	if _, err := s.write.Exec(`UPDATE moves SET by_time = 0 WHERE game = 'playing' AND version = 2`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(ctx, "playing"); !errors.Is(err, ErrDamaged) {
		t.Errorf("a migrated game's move made by time, changed: %v, want ErrDamaged", err)
	}
}
