//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDir takes the data directory for this process: two servers on one
// database would both own its games. The lock goes with the process, however
// it ends, so a crash leaves nothing to clean up.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, "lagoon.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is %w (it holds %s)", dir, errInUse, path)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return f, nil
}
