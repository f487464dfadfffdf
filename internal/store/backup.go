package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the database of data directory dir
// to file, which must not exist yet, while a server may be using it:
// SQLite's VACUUM INTO reads the database in one transaction, so the copy
// holds every move committed before it began and nothing half written. It
// runs beside the server that owns the directory, without its lock.
// Restoring is putting the copy in an empty data directory as its
// lagoon.db. It refuses a database that Open refuses for being emptied or
// for its log (ErrLogDamaged): where no server has the directory, the
// backup is what reads the log first, and SQLite, closing the database,
// would copy what it read into it and remove the log.
func Backup(ctx context.Context, dir, file string) error {
	path := filepath.Join(dir, "lagoon.db")
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := checkEmptied(path); err != nil {
		// A copy of nothing would pass for a backup.
		return fmt.Errorf("backup: %w", err)
	}
	// A server that has the directory checked the log when it opened it,
	// and writes it now. Where none has it, the backup holds the lock while
	// it reads, so that none starts meanwhile.
	lock, err := lockDir(dir)
	if lock != nil {
		defer lock.Close()
	}
	if !errors.Is(err, errInUse) {
		if err := checkLog(path); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
	}
	if _, err := os.Stat(file); err == nil {
		return fmt.Errorf("backup: %s exists; a backup writes a new file, never over one", file)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, file); err != nil {
		os.Remove(file)
		return fmt.Errorf("backup of %s: %w", path, err)
	}
	return nil
}
