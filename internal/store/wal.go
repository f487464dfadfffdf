package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/lagoon-games/lagoon/internal/store/wal"
)

// This file holds the check of the write-ahead log, lagoon.db-wal, that
// the store makes before SQLite reads it (package wal says how): a log
// SQLite would read only up to a damaged frame, dropping the commits after
// it, moves the players were told were stored, is refused.

// ErrLogDamaged is returned by Open and Backup for a log that SQLite would
// read only up to a damaged frame, dropping the commits after it.
var ErrLogDamaged = errors.New("it is damaged, and SQLite would lose acknowledged moves")

// dbPageSize reads the page size of the database at path from its header,
// 4096 (SQLite's default, and the store's) if it cannot.
func dbPageSize(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 4096
	}
	defer f.Close()
	var b [2]byte
	if _, err := f.ReadAt(b[:], 16); err != nil {
		return 4096
	}
	n := int(binary.BigEndian.Uint16(b[:]))
	if n == 1 {
		n = 65536 // which two bytes cannot hold
	}
	if !wal.ValidPageSize(n) {
		return 4096
	}
	return n
}

// checkLog refuses the log of the database at path, before SQLite reads
// it, if SQLite would drop commits of it (see package wal). It
// keeps a copy of such a log beside it, since the way out is to cut the
// log, and the copy holds what an expert might still recover. A log SQLite
// takes whole, or one whose last commit is cut short, passes.
func checkLog(path string) error {
	log := path + "-wal"
	f, err := os.Open(log)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking the log %s: %w", log, err)
	}
	s, err := wal.Read(f, dbPageSize(path))
	f.Close()
	if err != nil {
		return fmt.Errorf("checking the log %s: %w", log, err)
	}
	if s.LostCommits == 0 {
		return nil
	}
	where := fmt.Sprintf("At frame %d (byte %d) %s: SQLite would stop reading the log there and drop, without a word, the %d or more commits after it", s.End+1, s.Offset(), s.Why, s.LostCommits)
	cut, before := s.Offset(), "as they were before the damage"
	if s.Header {
		where = fmt.Sprintf("The log's header is damaged (%s): SQLite would ignore the whole log and drop, without a word, the %d or more commits in it", s.Why, s.LostCommits)
	} else if past, err := checkpointedPast(path, log, s); err != nil {
		return fmt.Errorf("checking the log %s: %w", log, err)
	} else if past {
		// The database holds pages of commits after the damage, which
		// the frames before it would overlay with older ones: the
		// database alone is the one state that fits together.
		where += "; a checkpoint had copied the log into the database past the damage, so SQLite would mix pages of two moments"
		cut, before = 0, "as they were at that checkpoint, which the database holds"
	}
	kept := "no copy of the log could be kept (%v): copy it before you cut it"
	if copied, err := keepCopy(log); err != nil {
		kept = fmt.Sprintf(kept, err)
	} else {
		kept = "a copy of the log as it is now is kept in " + copied
	}
	return fmt.Errorf("%s, the log of %s: %w. %s, moves that were acknowledged. "+
		"No game was read or written; %s. To start with the games %s (the moves after it lost), cut the log: "+
		"truncate -s %d %s. Or, to restore them, %s",
		log, path, ErrLogDamaged, where, kept, before, cut, log, restoreHint(path))
}

// checkpointedPast says whether a checkpoint copied frames of the log after
// the one where SQLite stops into the database at path: whether the page of
// one of the frames chained after it is in the database as it is in the
// frame. SQLite syncs the database before it counts frames copied, so those
// before are in it too.
func checkpointedPast(path, log string, s wal.Scan) (bool, error) {
	db, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer db.Close()
	lf, err := os.Open(log)
	if err != nil {
		return false, err
	}
	defer lf.Close()
	frame := make([]byte, wal.FrameHeaderSize+s.PageSize)
	page := make([]byte, s.PageSize)
	for i := s.End + 1; i < s.Chained; i++ {
		if _, err := lf.ReadAt(frame, s.FrameOffset(i)); err != nil {
			return false, err
		}
		n := int64(binary.BigEndian.Uint32(frame))
		switch _, err := db.ReadAt(page, (n-1)*int64(s.PageSize)); {
		case errors.Is(err, io.EOF):
			// A page past the database's end: not copied.
		case err != nil:
			return false, err
		case bytes.Equal(page, frame[wal.FrameHeaderSize:]):
			return true, nil
		}
	}
	return false, nil
}

// keepCopy copies the log to log.damaged (or .damaged.2, .3 and on,
// the first name not taken by another copy) and returns its name. A copy
// of the same bytes already there is the one kept: a server refused again
// and again, as a service manager restarts it, keeps one copy.
func keepCopy(log string) (string, error) {
	want, err := fileSum(log)
	if err != nil {
		return "", err
	}
	for n := 1; ; n++ {
		name := log + ".damaged"
		if n > 1 {
			name += "." + strconv.Itoa(n)
		}
		switch got, err := fileSum(name); {
		case err == nil && got == want:
			return name, nil
		case err == nil:
			continue
		case !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
		return name, copyFile(log, name)
	}
}

// fileSum returns the SHA-256 of the file at path.
func fileSum(path string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// copyFile copies from to a new file to, which appears whole or not at
// all: it is written under a name of its own, synced, then renamed.
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	tmp, err := os.CreateTemp(filepath.Dir(to), filepath.Base(to)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = io.Copy(tmp, src)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), to)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("copying %s to %s: %w", from, to, err)
	}
	return nil
}
