package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

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
