package store

import (
	"bufio"
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
)

// This file holds the check of the write-ahead log, lagoon.db-wal, that
// the store makes before SQLite reads it.
//
// SQLite appends each commit to the log as frames: a page of the database
// behind a header holding the page's number, for a commit's last frame the
// size of the database after it, the log's two salts (from the log's own
// header) and a checksum that runs on from the frame before. Opening a
// database after a crash, SQLite takes the frames in order and stops at the
// first whose salts are not the log's or whose checksum fails, keeping the
// commits before it. That is how it drops a commit cut short; but it stops
// just the same at a frame damaged after it was written, and then drops,
// without a word, every commit after it: moves the players were told were
// stored. Once SQLite has read the log, the next checkpoint copies what it
// kept into the database and starts the log afresh, and the dropped commits
// are gone for good.
//
// So the store reads the log first and tells the two apart by what follows
// the frame where SQLite would stop. A commit cut short is the log's last:
// SQLite writes a commit's frames, then syncs them, and writes the next
// commit's only after, so nothing of a later commit follows a frame torn by
// a crash. Damage leaves the frames after it as they were written: each
// still carries the log's salts and its running checksum, which, run on
// from the checksum the frame before it carries, matches its own (it is
// chained). A commit frame chained after the stop is a commit SQLite
// would drop. The one damage this cannot see is to the last commit itself:
// nothing follows it to vouch for it, so it looks like one cut short.
//
// A power cut while a commit was being written (not a kill -9, which leaves
// what was written whole) may leave that commit's last frame on the disk
// and an earlier one torn; the store then refuses the log too, and the
// way out drops only that commit, which was never acknowledged.

// ErrLogDamaged is returned by Open and Backup for a log that SQLite would
// read only up to a damaged frame, dropping the commits after it.
var ErrLogDamaged = errors.New("it is damaged, and SQLite would lose acknowledged moves")

// The format of SQLite's write-ahead log (https://sqlite.org/fileformat2.html#walformat).
const (
	walHeaderSize      = 32
	walFrameHeaderSize = 24
	// walMagic is the log's magic number with its low bit clear; the bit
	// set says the checksums read the bytes as big-endian words.
	walMagic   = 0x377f0682
	walVersion = 3007000
)

// walScan is what scanWAL found in a log. Its invariant: 0 <= kept <= end;
// why is "" exactly when SQLite takes every whole frame of the log, and
// lostCommits is 0 then.
type walScan struct {
	pageSize int    // the size of a frame's page
	end      int    // the first frame SQLite does not take, or the number of whole frames if it takes them all
	why      string // why SQLite does not take frame end, "" if it takes them all
	header   bool   // the log's header is what SQLite refuses, and with it every frame (end is 0)
	kept     int    // the frames SQLite keeps: up to and with the last commit frame before end
	// lostCommits counts the commit frames chained after end: commits
	// that were whole on the disk, and that SQLite would drop.
	lostCommits int
}

// offset is the byte of the log from which SQLite reads nothing: the
// length to cut the log to for SQLite's reading of it to be all of it.
func (s walScan) offset() int64 {
	if s.header {
		return 0
	}
	return walHeaderSize + int64(s.end)*int64(walFrameHeaderSize+s.pageSize)
}

// scanWAL reads a log as SQLite would on opening its database, and reads
// on past where SQLite would stop for the commits chained after it (see
// the file's comment). dbPageSize is the size of the database's pages,
// which serves when the log's header is damaged. Only a failure to read
// is an error: a log of any bytes has a scan.
func scanWAL(r io.Reader, dbPageSize int) (walScan, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var hdr [walHeaderSize]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			// Shorter than its header, the log is empty to SQLite, and
			// holds no frame to lose.
			return walScan{pageSize: dbPageSize}, nil
		}
		return walScan{}, err
	}
	magic := binary.BigEndian.Uint32(hdr[0:])
	bigEndian := magic&1 == 1
	s := walScan{pageSize: int(binary.BigEndian.Uint32(hdr[8:])), end: -1}
	switch {
	case magic&^1 != walMagic:
		s.why = "it is not a log's"
	case !validPageSize(s.pageSize):
		s.why = "it names no page size"
	case walChecksum(bigEndian, [2]uint32{}, hdr[:24]) != checksumAt(hdr[24:]):
		s.why = "it does not match its checksum"
	case binary.BigEndian.Uint32(hdr[4:]) != walVersion:
		s.why = "it names a version of the format that SQLite does not know"
	}
	salts := hdr[16:24]
	// orders are the byte orders a chained frame may be checked in: the
	// header's, unless the header is damaged, when its byte order may be
	// too.
	orders := []bool{bigEndian}
	if s.why != "" {
		s.header, s.end = true, 0
		orders = []bool{false, true}
		if !validPageSize(s.pageSize) {
			s.pageSize = dbPageSize
		}
	}
	frame := make([]byte, walFrameHeaderSize+s.pageSize)
	running := checksumAt(hdr[24:]) // SQLite's running checksum, up to end
	var prev [2]uint32              // the checksum the frame before carries
	chained := -1                   // the first frame of the run chained after end, -1 before it
	for i := 0; ; i++ {
		if _, err := io.ReadFull(br, frame); err != nil {
			if s.end < 0 {
				s.end = i
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				// A frame cut short is not one: SQLite reads whole frames.
				break
			}
			return walScan{}, err
		}
		commit := binary.BigEndian.Uint32(frame[4:]) != 0
		switch {
		case s.end < 0:
			if why := walFrameFails(bigEndian, running, frame, salts); why != "" {
				s.end, s.why = i, why
				break
			}
			running = checksumAt(frame[16:])
			if commit {
				s.kept = i + 1
			}
		case i == s.end:
			// A damaged header leaves its salts in doubt; the first
			// frame's are the log's as it was written.
			salts = bytes.Clone(frame[8:16])
		default:
			ok := false
			for _, order := range orders {
				ok = ok || walFrameFails(order, prev, frame, salts) == ""
			}
			if ok && (chained >= 0 || i <= s.end+2) {
				// The run may begin a frame late: the damage may be in
				// the checksum that the frame at end carries.
				if chained < 0 {
					chained = i
				}
				if commit {
					s.lostCommits++
				}
			} else if chained >= 0 || i >= s.end+2 {
				return s, nil
			}
		}
		prev = checksumAt(frame[16:])
	}
	return s, nil
}

// walFrameFails says why SQLite would not take frame, a frame's header and
// page, after the checksum seed, in a log of the given salts; "" if it
// would.
func walFrameFails(bigEndian bool, seed [2]uint32, frame, salts []byte) string {
	switch {
	case !bytes.Equal(frame[8:16], salts):
		return "its salts are not the log's"
	case binary.BigEndian.Uint32(frame[0:]) == 0:
		return "it names no page"
	case walChecksum(bigEndian, walChecksum(bigEndian, seed, frame[:8]), frame[walFrameHeaderSize:]) != checksumAt(frame[16:]):
		return "it does not match its checksum"
	}
	return ""
}

// walChecksum runs SQLite's checksum of the log on from seed over b, whose
// length is a multiple of 8: two sums of its 32-bit words, taken in pairs.
func walChecksum(bigEndian bool, seed [2]uint32, b []byte) [2]uint32 {
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	s0, s1 := seed[0], seed[1]
	for ; len(b) >= 8; b = b[8:] {
		s0 += order.Uint32(b) + s1
		s1 += order.Uint32(b[4:]) + s0
	}
	return [2]uint32{s0, s1}
}

// checksumAt reads a checksum as the log stores it, two big-endian words.
func checksumAt(b []byte) [2]uint32 {
	return [2]uint32{binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:])}
}

// validPageSize says whether SQLite takes n for a page size.
func validPageSize(n int) bool {
	return n >= 512 && n <= 65536 && n&(n-1) == 0
}

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
	if !validPageSize(n) {
		return 4096
	}
	return n
}

// checkLog refuses the log of the database at path, before SQLite reads
// it, if SQLite would drop commits of it (see the file's comment). It
// keeps a copy of such a log beside it, since the way out is to cut the
// log, and the copy holds what an expert might still recover. A log SQLite
// takes whole, or one whose last commit is cut short, passes.
func checkLog(path string) error {
	wal := path + "-wal"
	f, err := os.Open(wal)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking the log %s: %w", wal, err)
	}
	s, err := scanWAL(f, dbPageSize(path))
	f.Close()
	if err != nil {
		return fmt.Errorf("checking the log %s: %w", wal, err)
	}
	if s.lostCommits == 0 {
		return nil
	}
	where := fmt.Sprintf("At frame %d (byte %d) %s: SQLite would stop reading the log there and drop, without a word, the %d or more commits after it", s.end+1, s.offset(), s.why, s.lostCommits)
	if s.header {
		where = fmt.Sprintf("The log's header is damaged (%s): SQLite would ignore the whole log and drop, without a word, the %d or more commits in it", s.why, s.lostCommits)
	}
	kept := "no copy of the log could be kept (%v): copy it before you cut it"
	if copied, err := keepCopy(wal); err != nil {
		kept = fmt.Sprintf(kept, err)
	} else {
		kept = "a copy of the log as it is now is kept in " + copied
	}
	return fmt.Errorf("%s, the log of %s: %w. %s, moves that were acknowledged. "+
		"No game was read or written; %s. To start with the games as they were before the damage (the moves of those commits lost), cut the log there: "+
		"truncate -s %d %s. Or, to restore them, %s",
		wal, path, ErrLogDamaged, where, kept, s.offset(), wal, restoreHint(path))
}

// keepCopy copies the log wal to wal.damaged (or .damaged.2, .3 and on,
// the first name not taken by another copy) and returns its name. A copy
// of the same bytes already there is the one kept: a server refused again
// and again, as a service manager restarts it, keeps one copy.
func keepCopy(wal string) (string, error) {
	want, err := fileSum(wal)
	if err != nil {
		return "", err
	}
	for n := 1; ; n++ {
		name := wal + ".damaged"
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
		return name, copyFile(wal, name)
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
