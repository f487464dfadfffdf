package wal

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// frame is a frame to build: its page's number, the database's size in
// pages if it ends a commit (0 if not), and the byte its page is filled
// with.
type frame struct {
	page, commit uint32
	fill         byte
}

// build writes a log as SQLite does (of pages of pageSize bytes, its
// checksums in the given byte order), with salt1 as its first salt.
// Store's TestLogDamageRefused holds Read to the logs SQLite itself
// writes; these are for the cases it cannot make.
func build(pageSize int, bigEndian bool, salt1 uint32, frames ...frame) []byte {
	hdr := make([]byte, HeaderSize, HeaderSize+len(frames)*(FrameHeaderSize+pageSize))
	m := uint32(magic)
	if bigEndian {
		m |= 1
	}
	for i, v := range []uint32{m, version, uint32(pageSize), 7, salt1, 0x5eed} {
		binary.BigEndian.PutUint32(hdr[4*i:], v)
	}
	sum := checksum(bigEndian, [2]uint32{}, hdr[:24])
	binary.BigEndian.PutUint32(hdr[24:], sum[0])
	binary.BigEndian.PutUint32(hdr[28:], sum[1])
	log := hdr
	for _, f := range frames {
		b := make([]byte, FrameHeaderSize+pageSize)
		binary.BigEndian.PutUint32(b, f.page)
		binary.BigEndian.PutUint32(b[4:], f.commit)
		copy(b[8:16], hdr[16:24])
		for i := FrameHeaderSize; i < len(b); i++ {
			b[i] = f.fill + byte(i)
		}
		sum = checksum(bigEndian, checksum(bigEndian, sum, b[:8]), b[FrameHeaderSize:])
		binary.BigEndian.PutUint32(b[16:], sum[0])
		binary.BigEndian.PutUint32(b[20:], sum[1])
		log = append(log, b...)
	}
	return log
}

// TestRead reads logs whole, cut short, damaged, and started afresh over
// an older one's frames: SQLite's stop and what it keeps, and the commits
// chained after the stop, which only damage leaves.
func TestRead(t *testing.T) {
	const ps = 512
	at := func(i int) int { return HeaderSize + i*(FrameHeaderSize+ps) }
	five := []frame{{2, 0, 1}, {3, 3, 2}, {2, 3, 3}, {4, 4, 4}, {3, 4, 5}}
	flip := func(log []byte, at int) []byte { log[at] ^= 4; return log }
	for _, tc := range []struct {
		name            string
		log             []byte
		end, kept, lost int
		header          bool
		why             string
	}{
		{"empty", nil, 0, 0, 0, true, ""},
		{"a header alone", build(ps, false, 1), 0, 0, 0, false, ""},
		{"whole", build(ps, false, 1, five...), 5, 5, 0, false, ""},
		{"whole, big-endian", build(ps, true, 1, five...), 5, 5, 0, false, ""},
		{"after the last commit", build(ps, false, 1, append(five, frame{5, 0, 6})...), 6, 5, 0, false, ""},
		{"the last frame cut short", build(ps, false, 1, five...)[:at(5)-10], 4, 4, 0, false, ""},
		{"the last commit damaged", flip(build(ps, false, 1, five...), at(4)+30), 4, 4, 0, false, "it does not match its checksum"},
		{"a frame after the last commit torn", flip(build(ps, false, 1, append(five, frame{5, 0, 6})...), at(5)+30), 5, 5, 0, false, "it does not match its checksum"},
		{"a page damaged", flip(build(ps, false, 1, five...), at(1)+30), 1, 0, 3, false, "it does not match its checksum"},
		{"a page number damaged", flip(build(ps, false, 1, five...), at(1)+3), 1, 0, 3, false, "it does not match its checksum"},
		{"a page number made 0", build(ps, false, 1, append([]frame{{0, 0, 1}}, five[1:]...)...), 0, 0, 4, false, "it names no page"},
		{"a salt damaged", flip(build(ps, false, 1, five...), at(2)+9), 2, 2, 2, false, "its salts are not the log's"},
		{"a checksum damaged", flip(build(ps, false, 1, five...), at(2)+17), 2, 2, 1, false, "it does not match its checksum"},
		{"a checksum damaged, big-endian", flip(build(ps, true, 1, five...), at(2)+17), 2, 2, 1, false, "it does not match its checksum"},
		{"the header's magic", flip(build(ps, false, 1, five...), 1), 0, 0, 4, true, "it is not a log's"},
		{"the header's byte order", func() []byte { b := build(ps, true, 1, five...); b[3] ^= 1; return b }(), 0, 0, 4, true, "it does not match its checksum"},
		{"the header's page size", flip(build(ps, false, 1, five...), 10), 0, 0, 4, true, "it names no page size"},
		{"the header's salt", flip(build(ps, false, 1, five...), 17), 0, 0, 4, true, "it does not match its checksum"},
		{"the header's version", func() []byte {
			b := build(ps, false, 1, five...)
			binary.BigEndian.PutUint32(b[4:], version+1)
			sum := checksum(false, [2]uint32{}, b[:24])
			binary.BigEndian.PutUint32(b[24:], sum[0])
			binary.BigEndian.PutUint32(b[28:], sum[1])
			return b
		}(), 0, 0, 4, true, "it names a version of the format that SQLite does not know"},
		// A log started afresh writes over the frames of the one before,
		// which are left after its own, under the salts of then.
		{"started afresh", func() []byte {
			old := build(ps, false, 1, append(five, five...)...)
			return append(build(ps, false, 2, five[:2]...), old[at(2):]...)
		}(), 2, 2, 0, false, "its salts are not the log's"},
		{"started afresh, its frames damaged", func() []byte {
			old := build(ps, false, 1, append(five, five...)...)
			return flip(append(build(ps, false, 2, five[:4]...), old[at(4):]...), at(1)+40)
		}(), 1, 0, 2, false, "it does not match its checksum"},
		{"started afresh, the old frames damaged", func() []byte {
			old := build(ps, false, 1, append(five, five...)...)
			return flip(append(build(ps, false, 2, five[:2]...), old[at(2):]...), at(4)+40)
		}(), 2, 2, 0, false, "its salts are not the log's"},
	} {
		s, err := Read(bytes.NewReader(tc.log), ps)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if s.End != tc.end || s.Kept != tc.kept || s.LostCommits != tc.lost || s.Header != tc.header || s.Why != tc.why || s.PageSize != ps {
			t.Errorf("%s: %+v; want end %d, kept %d, %d commits lost, header %v, why %q", tc.name, s, tc.end, tc.kept, tc.lost, tc.header, tc.why)
		}
	}
}

// FuzzRead: Read reads any bytes as a log without failing, within its
// scan's invariant, and the log cut at its Offset reads whole, with the
// same frames kept and nothing lost.
func FuzzRead(f *testing.F) {
	five := []frame{{2, 0, 1}, {3, 3, 2}, {2, 3, 3}, {4, 4, 4}, {3, 4, 5}}
	f.Add(build(512, false, 1, five...), false)
	f.Add(build(512, true, 1, five...), true)
	f.Add(build(512, false, 1), false)
	f.Add([]byte{}, false)
	f.Fuzz(func(t *testing.T, log []byte, large bool) {
		dbPageSize := 512
		if large {
			dbPageSize = 4096
		}
		s, err := Read(bytes.NewReader(log), dbPageSize)
		if err != nil {
			t.Fatal(err)
		}
		if s.Kept < 0 || s.Kept > s.End || (s.LostCommits > 0 && (s.Why == "" || s.Chained == 0)) || (s.Chained != 0 && s.Chained <= s.End+1) || (s.Header && s.End != 0) {
			t.Fatalf("scan %+v", s)
		}
		if s.Offset() > int64(len(log)) {
			t.Fatalf("scan %+v: cut at %d, past the log's %d bytes", s, s.Offset(), len(log))
		}
		cut, err := Read(bytes.NewReader(log[:s.Offset()]), dbPageSize)
		if err != nil || cut.Why != "" || cut.LostCommits != 0 || (!s.Header && (cut.End != s.End || cut.Kept != s.Kept)) {
			t.Fatalf("scan %+v; cut at %d, %+v (%v)", s, s.Offset(), cut, err)
		}
	})
}
