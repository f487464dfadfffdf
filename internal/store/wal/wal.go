// Package wal reads SQLite's write-ahead log as SQLite does on opening its
// database, and past where SQLite would stop, for the store to see, before
// SQLite reads a log, whether SQLite would drop commits of it.
//
// SQLite appends each commit to the log as frames: a page of the database
// behind a header holding the page's number, for a commit's last frame the
// size of the database after it, the log's two salts (from the log's own
// header) and a checksum that runs on from the frame before. Opening a
// database after a crash, SQLite takes the frames in order and stops at the
// first whose salts are not the log's or whose checksum fails, keeping the
// commits before it. That is how it drops a commit cut short; but it stops
// just the same at a frame damaged after it was written, and then drops,
// without a word, every commit after it. Once SQLite has read the log, the
// next checkpoint copies what it kept into the database and starts the log
// afresh, and the dropped commits are gone for good.
//
// Read tells the two apart by what follows the frame where SQLite would
// stop. A commit cut short is the log's last: SQLite writes a commit's
// frames, then syncs them, and writes the next commit's only after (the
// header of a log started afresh is synced before its first frame), so
// nothing of a later commit follows a frame torn by a crash. Damage leaves
// the frames after it as they were written: each still carries the log's
// salts and its running checksum, which, run on from the checksum the frame
// before it carries, matches its own (it is chained). A commit frame
// chained after the stop is a commit SQLite would drop. Frames left from
// before the log was started afresh carry the salts of then, and are
// never chained. The one damage this cannot see is to the last commit
// itself: nothing follows it to vouch for it, so it looks like one cut
// short.
//
// A power cut while a commit was being written (not a kill -9, which leaves
// what was written whole) may leave that commit's last frame on the disk
// and an earlier one torn: Read then counts it lost, though it was never
// acknowledged. So it counts the frames of a commit whose sync failed,
// which SQLite leaves behind the commits written over them after: a disk
// that fails a sync wants looking at in any case.
//
// The format is SQLite's (https://sqlite.org/fileformat2.html#walformat).
// The package reads bytes only, and imports no SQLite, so that it fuzzes
// quickly.
package wal

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

// The sizes of the log's header and of a frame's.
const (
	HeaderSize      = 32
	FrameHeaderSize = 24
)

const (
	// magic is the log's magic number with its low bit clear; the bit
	// set says the checksums read the bytes as big-endian words.
	magic   = 0x377f0682
	version = 3007000
)

// Scan is what Read found in a log. Its invariant: 0 <= Kept <= End,
// Chained is 0 or above End+1, and LostCommits is 0 unless Chained is not
// and Why says why SQLite stops at End. Cut at
// Offset, the log scans with the same End and Kept, and Why "".
type Scan struct {
	PageSize int    // the size of a frame's page
	End      int    // the first frame SQLite does not take, or the number of whole frames if it takes them all
	Why      string // why SQLite does not take frame End (or the header), "" if it takes every frame
	Header   bool   // SQLite reads no frame: the log's header is cut short or refused (End is 0)
	Kept     int    // the frames SQLite keeps: up to and with the last commit frame before End
	// LostCommits counts the commit frames chained after End: commits
	// that were whole on the disk, and that SQLite would drop.
	LostCommits int
	// Chained is one past the last frame chained after End, 0 if none is.
	Chained int
}

// Offset is the byte of the log from which SQLite reads nothing: the
// length to cut the log to for SQLite's reading of it to be all of it.
func (s Scan) Offset() int64 {
	if s.Header {
		return 0
	}
	return s.FrameOffset(s.End)
}

// FrameOffset is the byte of the log at which frame i begins.
func (s Scan) FrameOffset(i int) int64 {
	return HeaderSize + int64(i)*int64(FrameHeaderSize+s.PageSize)
}

// Read reads a log as SQLite would on opening its database, and reads
// on past where SQLite would stop for the commits chained after it (see
// the package's comment). dbPageSize is the size of the database's pages,
// which serves when the log's header is damaged. Only a failure to read
// is an error: a log of any bytes has a scan.
func Read(r io.Reader, dbPageSize int) (Scan, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var hdr [HeaderSize]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			// Shorter than its header, the log is empty to SQLite, and
			// holds no frame to lose.
			return Scan{PageSize: dbPageSize, Header: true}, nil
		}
		return Scan{}, err
	}
	m := binary.BigEndian.Uint32(hdr[0:])
	bigEndian := m&1 == 1
	s := Scan{PageSize: int(binary.BigEndian.Uint32(hdr[8:])), End: -1}
	switch {
	case m&^1 != magic:
		s.Why = "it is not a log's"
	case !ValidPageSize(s.PageSize):
		s.Why = "it names no page size"
	case checksum(bigEndian, [2]uint32{}, hdr[:24]) != checksumAt(hdr[24:]):
		s.Why = "it does not match its checksum"
	case binary.BigEndian.Uint32(hdr[4:]) != version:
		s.Why = "it names a version of the format that SQLite does not know"
	}
	salts := hdr[16:24]
	// orders are the byte orders a chained frame may be checked in: the
	// header's, unless the header is damaged, when its byte order may be
	// too.
	orders := []bool{bigEndian}
	if s.Why != "" {
		s.Header, s.End = true, 0
		orders = []bool{false, true}
		if !ValidPageSize(s.PageSize) {
			s.PageSize = dbPageSize
		}
	}
	frame := make([]byte, FrameHeaderSize+s.PageSize)
	running := checksumAt(hdr[24:]) // SQLite's running checksum, up to end
	var prev [2]uint32              // the checksum the frame before carries
	chained := -1                   // the first frame of the run chained after end, -1 before it
	for i := 0; ; i++ {
		if _, err := io.ReadFull(br, frame); err != nil {
			if s.End < 0 {
				s.End = i
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				// A frame cut short is not one: SQLite reads whole frames.
				break
			}
			return Scan{}, err
		}
		commit := binary.BigEndian.Uint32(frame[4:]) != 0
		switch {
		case s.End < 0:
			if why := frameFails(bigEndian, running, frame, salts); why != "" {
				s.End, s.Why = i, why
				break
			}
			running = checksumAt(frame[16:])
			if commit {
				s.Kept = i + 1
			}
		case i == s.End:
			// A damaged header leaves its salts in doubt; the first
			// frame's are the log's as it was written.
			salts = bytes.Clone(frame[8:16])
		default:
			ok := false
			for _, order := range orders {
				ok = ok || frameFails(order, prev, frame, salts) == ""
			}
			if ok && (chained >= 0 || i <= s.End+2) {
				// The run may begin a frame late: the damage may be in
				// the checksum that the frame at end carries.
				if chained < 0 {
					chained = i
				}
				if commit {
					s.LostCommits++
				}
				s.Chained = i + 1
			} else if chained >= 0 || i >= s.End+2 {
				return s, nil
			}
		}
		prev = checksumAt(frame[16:])
	}
	return s, nil
}

// frameFails says why SQLite would not take frame, a frame's header and
// page, after the checksum seed, in a log of the given salts; "" if it
// would.
func frameFails(bigEndian bool, seed [2]uint32, frame, salts []byte) string {
	switch {
	case !bytes.Equal(frame[8:16], salts):
		return "its salts are not the log's"
	case binary.BigEndian.Uint32(frame[0:]) == 0:
		return "it names no page"
	case checksum(bigEndian, checksum(bigEndian, seed, frame[:8]), frame[FrameHeaderSize:]) != checksumAt(frame[16:]):
		return "it does not match its checksum"
	}
	return ""
}

// checksum runs SQLite's checksum of the log on from seed over b, whose
// length is a multiple of 8: two sums of its 32-bit words, taken in pairs.
func checksum(bigEndian bool, seed [2]uint32, b []byte) [2]uint32 {
	s0, s1 := seed[0], seed[1]
	// Two loops rather than a binary.ByteOrder: a call through the
	// interface a word would take most of the check's time.
	if bigEndian {
		for ; len(b) >= 8; b = b[8:] {
			s0 += binary.BigEndian.Uint32(b) + s1
			s1 += binary.BigEndian.Uint32(b[4:]) + s0
		}
	} else {
		for ; len(b) >= 8; b = b[8:] {
			s0 += binary.LittleEndian.Uint32(b) + s1
			s1 += binary.LittleEndian.Uint32(b[4:]) + s0
		}
	}
	return [2]uint32{s0, s1}
}

// checksumAt reads a checksum as the log stores it, two big-endian words.
func checksumAt(b []byte) [2]uint32 {
	return [2]uint32{binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:])}
}

// ValidPageSize says whether SQLite takes n for a page size.
func ValidPageSize(n int) bool {
	return n >= 512 && n <= 65536 && n&(n-1) == 0
}
