package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
)

// This file holds the checksums that let a read see any change to a
// game's rows that the store did not write.
//
// A game's row carries in its checksum column a sum of every other column
// of the row, written with the row. Its moves form a chain: each move's
// hash sums the hash of the move before it (none for the first) and every
// column of its own row, so the last hash answers for all the moves. A
// chain cannot tell that its end went missing (the last move's row could
// leave the game, its game column changed), so each move also says whether
// another follows it (followed), which the next move sets, and a game's
// first move writes the game's row, whose version counts at least it: a
// game reads as many moves as its rows promise, or is damaged.
//
// The sums are of the values as SQLite returns them (an INTEGER as an
// int64, TEXT as a string, a BLOB as bytes, NULL), each with its type, so
// that what the store writes and what it reads back sum the same, and a
// value that changed its type does not.

// ErrDamaged is returned for a game whose stored rows do not match their
// checksums, or do not fit together: something other than the store
// changed them, a flipped bit on the disk or a hand in the database.
var ErrDamaged = errors.New("changed outside the store")

// sumSize is the length of a checksum: the first 16 bytes of a SHA-256,
// enough that a damaged row matches its sum by chance once in 2^128.
const sumSize = 16

// sum returns the checksum of values. They are what the store writes or
// reads: nil, int64, string or []byte.
func sum(values ...any) []byte {
	h := sha256.New()
	for _, v := range values {
		writeValue(h, v)
	}
	return h.Sum(nil)[:sumSize]
}

// writeValue writes v to h with its type and, for text and bytes, its
// length, so that no two lists of values write the same bytes.
func writeValue(h hash.Hash, v any) {
	var b [binary.MaxVarintLen64 + 1]byte
	switch v := v.(type) {
	case nil:
		h.Write([]byte{'n'})
	case int64:
		b[0] = 'i'
		h.Write(binary.BigEndian.AppendUint64(b[:1], uint64(v)))
	case string:
		b[0] = 's'
		h.Write(binary.AppendUvarint(b[:1], uint64(len(v))))
		h.Write([]byte(v))
	case []byte:
		b[0] = 'b'
		h.Write(binary.AppendUvarint(b[:1], uint64(len(v))))
		h.Write(v)
	default:
		// A REAL, or a type no column holds: its text stands for it, with
		// a type of its own, so that it sums unlike any value the store
		// writes.
		b[0] = '?'
		h.Write(b[:1])
		fmt.Fprintf(h, "%T %v", v, v)
	}
}

// checkSum fails with ErrDamaged unless stored is the checksum want of
// what.
func checkSum(stored any, want []byte, what string) error {
	if b, ok := stored.([]byte); !ok || !bytes.Equal(b, want) {
		return fmt.Errorf("%s does not match its checksum: %w", what, ErrDamaged)
	}
	return nil
}

// boolInt returns a bool as the store writes it, an INTEGER 0 or 1.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
