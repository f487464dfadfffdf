package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// This file holds the databases the store will not take as they are: one
// SQLite cannot read, and one that was emptied.

// ErrUnreadable is returned for a database that SQLite itself refuses: it
// is not a database, or its pages do not fit together ("malformed").
var ErrUnreadable = errors.New("SQLite cannot read it")

// ErrEmptied is returned by Open for a database that was emptied or lost
// while its log was kept (see checkEmptied).
var ErrEmptied = errors.New("its games are lost (a failed disk, a copy cut short, a file overwritten)")

// restoreHint says how to restore the database at path from a backup.
func restoreHint(path string) string {
	dir := filepath.Dir(path)
	return fmt.Sprintf("put the last copy taken with `lagoon backup` in an empty data directory: "+
		"mv %[1]s %[1]s.damaged && mkdir %[1]s && cp BACKUP %[2]s (moves made after that copy are lost)", dir, path)
}

// unreadable names the store's database in an error that SQLite gives for
// a database it cannot read, with the way to restore it; other errors it
// returns as they are.
func (s *SQLite) unreadable(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("%s is damaged: %w (%v). To restore its games, %s", s.path, ErrUnreadable, err, restoreHint(s.path))
	}
	return err
}

// checkEmptied refuses a database of 0 bytes, and a missing database whose
// log (lagoon.db-wal) holds writes. SQLite would take either for a new,
// empty database and the server would start without its games, the loss
// hidden behind an empty lobby. The store writes the first page of its
// database the first time it opens it, so it never leaves an empty file:
// one is what a failed disk, a copy cut short or a hand left. Removing the
// file is how to start an empty server there on purpose.
func checkEmptied(path string) error {
	info, err := os.Stat(path)
	switch {
	case err == nil && info.Size() == 0:
		return fmt.Errorf("%s is empty (0 bytes), yet lagoon writes it the first time it starts: %w. To restore them, %s. "+
			"To start an empty server there on purpose, remove %[1]s", path, ErrEmptied, restoreHint(path))
	case errors.Is(err, fs.ErrNotExist):
		if log, err := os.Stat(path + "-wal"); err == nil && log.Size() > 0 {
			return fmt.Errorf("%s is missing, and its log %[1]s-wal is there: %w. To restore them, %s. "+
				"To start an empty server there on purpose, remove %[1]s-wal", path, ErrEmptied, restoreHint(path))
		}
	}
	return nil
}
