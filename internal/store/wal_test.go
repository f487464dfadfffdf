package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/store/wal"
)

// killed returns a data directory as a kill -9 of a server leaves it when
// moves came after the last checkpoint, and the one before it: it writes
// to each of games games first moves moves, one commit each, then copies
// the log into the database, then then more; lagoon.db holds the first
// moves and lagoon.db-wal, started afresh, the others, followed by what is
// left of the first moves' frames after them. It returns the moves each
// game was told were stored, by id.
func killed(t testing.TB, games, first, then int) (dir string, acked map[string]int) {
	t.Helper()
	ctx := context.Background()
	src := t.TempDir()
	s := open(t, src)
	for i := range games {
		if err := s.Create(ctx, newGame(fmt.Sprint("g", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil { // the log copied in and removed
		t.Fatal(err)
	}
	s = open(t, src)
	defer s.Close()
	reader, err := sql.Open("sqlite", "file:"+filepath.Join(src, "lagoon.db")+"?_pragma=query_only(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	// hold begins a read on the database alone, while all of the log is
	// in it: every checkpoint waits for it, so that the moves written
	// after stay in the log, as they would if the kill came before the
	// next checkpoint.
	hold := func() *sql.Tx {
		tx, err := reader.Begin()
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := tx.QueryRow("SELECT count(*) FROM games").Scan(&n); err != nil || n != games {
			t.Fatalf("%d games read, %v", n, err)
		}
		return tx
	}
	acked = map[string]int{}
	at := time.Date(2026, 12, 7, 23, 0, 0, 0, time.UTC)
	write := func(moves int) {
		for range moves {
			for i := range games {
				id := fmt.Sprint("g", i)
				v := acked[id] + 1
				if err := s.AppendMove(ctx, id, v, Move{Seat: v % 2, Move: fmt.Sprintf("S %d,%d", v, i), At: at}, After{}); err != nil {
					t.Fatal(err)
				}
				acked[id] = v
			}
		}
	}
	tx := hold()
	write(first)
	tx.Rollback()
	var busy, frames, copied int
	if err := s.checkpoint.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil || busy != 0 || copied != frames {
		t.Fatalf("checkpoint: %d of %d frames copied (busy %d, %v)", copied, frames, busy, err)
	}
	tx = hold()
	defer tx.Rollback()
	write(then) // the log starts afresh
	dir = t.TempDir()
	for _, name := range []string{"lagoon.db", "lagoon.db-wal"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, acked
}

// killedFiles returns the database and the log of killed's directory.
func killedFiles(t testing.TB, games, first, then int) (db, log []byte, acked map[string]int) {
	t.Helper()
	dir, acked := killed(t, games, first, then)
	db, err := os.ReadFile(filepath.Join(dir, "lagoon.db"))
	if err == nil {
		log, err = os.ReadFile(filepath.Join(dir, "lagoon.db-wal"))
	}
	if err != nil {
		t.Fatal(err)
	}
	return db, log, acked
}

// walFrames returns the page size of a log, the number of its whole
// frames, and of those that carry the log's salts from its start (the
// frames of the log since it was last started afresh).
func walFrames(t testing.TB, log []byte) (pageSize, frames, current int) {
	t.Helper()
	pageSize = int(binary.BigEndian.Uint32(log[8:]))
	if !wal.ValidPageSize(pageSize) {
		t.Fatalf("the log's page size %d", pageSize)
	}
	frames = (len(log) - wal.HeaderSize) / (wal.FrameHeaderSize + pageSize)
	for current < frames && bytes.Equal(log[wal.HeaderSize+current*(wal.FrameHeaderSize+pageSize)+8:][:8], log[16:24]) {
		current++
	}
	return pageSize, frames, current
}

// checkMoves fails unless every game of acked reads, undamaged, with
// moves for the versions from 1 to at least the acked one's less short.
func checkMoves(t *testing.T, what string, s *SQLite, acked map[string]int, short int) {
	t.Helper()
	for id, v := range acked {
		g, err := s.Game(context.Background(), id)
		if err != nil {
			t.Errorf("%s: game %s: %v", what, id, err)
			continue
		}
		if g.Version < v-short || len(g.Moves) != g.Version {
			t.Errorf("%s: game %s at version %d with %d moves; %d were acknowledged", what, id, g.Version, len(g.Moves), v)
		}
	}
}

// TestLogDamageRefused: a log damaged in a frame that commits follow, in
// its page, its salts or its checksum, or in the log's header, is refused
// before SQLite reads it, with the damage and the way out named, a copy of
// the log kept and the files left as they were, and so is a backup of it;
// the way out opens. A log whose last frames are cut short, whose last
// commit is damaged (which cannot be told from it), or whose frames left
// from before it started afresh are damaged, opens with the moves it
// holds.
func TestLogDamageRefused(t *testing.T) {
	const games, first, then = 4, 20, 10
	db, log, acked := killedFiles(t, games, first, then)
	pageSize, frames, cur := walFrames(t, log)
	if cur < games*then || frames < cur+games*(first-then) {
		t.Fatalf("the log holds %d frames, %d since it started afresh, for %d and %d commits: the moves were copied out of it", frames, cur, games*first, games*then)
	}
	frameAt := func(i int) int { return wal.HeaderSize + i*(wal.FrameHeaderSize+pageSize) }
	flip := func(at int) func([]byte) []byte {
		return func(b []byte) []byte { b[at] ^= 0x10; return b }
	}
	// torn makes frame cur, one left from before, one of the log's, not
	// a commit and not matching its checksum: a frame cut short.
	torn := func(cut int) func([]byte) []byte {
		return func(b []byte) []byte {
			f := b[frameAt(cur):frameAt(cur+1)]
			copy(f, b[frameAt(cur-1):frameAt(cur)])
			binary.BigEndian.PutUint32(f[4:], 0)
			f[wal.FrameHeaderSize+50] ^= 1
			return b[:frameAt(cur+1)-cut]
		}
	}
	mid := cur / 2
	for _, tc := range []struct {
		name   string
		change func([]byte) []byte
		refuse bool
		short  int // moves a game may lack when opened
	}{
		{"as it is", func(b []byte) []byte { return b }, false, 0},
		{"a middle frame's page", flip(frameAt(mid) + wal.FrameHeaderSize + 100), true, 0},
		{"a middle frame's page number", flip(frameAt(mid) + 3), true, 0},
		{"a middle frame's salt", flip(frameAt(mid) + 9), true, 0},
		{"a middle frame's checksum", flip(frameAt(mid) + 17), true, 0},
		{"the first frame", flip(frameAt(0) + wal.FrameHeaderSize + 7), true, 0},
		{"the header's salt", flip(17), true, 0},
		{"the header's checksum", flip(25), true, 0},
		{"the header's byte order", flip(3), true, 0},
		{"the last frame cut short", func(b []byte) []byte { return b[:frameAt(cur)-pageSize/2] }, false, 1},
		{"a frame after the last commit cut short", torn(100), false, 0},
		{"a frame after the last commit torn", torn(0), false, 0},
		// Damage to the last commit looks as a commit cut short does:
		// SQLite drops it, and nothing follows it to say otherwise.
		{"the last commit", flip(frameAt(cur-1) + wal.FrameHeaderSize + 100), false, 1},
		{"a frame from before the log started afresh", flip(frameAt(cur+2) + wal.FrameHeaderSize + 100), false, 0},
	} {
		openDamaged(t, tc.name, db, tc.change(bytes.Clone(log)), acked, tc.refuse, tc.short, then)
	}
}

// TestLogDamageCheckpointed: a log damaged where a checkpoint had copied it
// into the database past the damage is refused, and the way out is the
// database alone, which holds every move; cut where SQLite stops, the
// frames before the damage would overlay pages of the moves after it with
// older ones.
func TestLogDamageCheckpointed(t *testing.T) {
	const games, moves = 4, 20
	db, log, acked := killedFiles(t, games, moves, 0)
	pageSize, frames, _ := walFrames(t, log)
	frameAt := func(i int) int { return wal.HeaderSize + i*(wal.FrameHeaderSize+pageSize) }
	for _, tc := range []struct {
		name string
		at   int
	}{
		{"a middle frame's page", frameAt(frames/2) + wal.FrameHeaderSize + 100},
		{"the first frame's page", frameAt(0) + wal.FrameHeaderSize + 7},
		{"a frame's checksum", frameAt(frames/3) + 17},
		{"the header's salt", 17},
	} {
		damaged := bytes.Clone(log)
		damaged[tc.at] ^= 0x10
		openDamaged(t, tc.name, db, damaged, acked, true, 0, 0)
	}
}

// openDamaged opens a data directory of the database db and the log
// damaged, which Open refuses or not as refuse says: opened, it holds
// every move of acked but for short; refused, it is named with the way
// out, the files are left as they were with a copy of the log, which one
// more refusal does not copy again, a backup is refused too, and the way
// out opens with every move of acked but for cutShort.
func openDamaged(t *testing.T, name string, db, damaged []byte, acked map[string]int, refuse bool, short, cutShort int) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "lagoon.db")
	if err := os.WriteFile(path, db, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"-wal", damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if !refuse {
		if err != nil {
			t.Errorf("%s: %v; want it opened", name, err)
			return
		}
		checkMoves(t, name, s, acked, short)
		s.Close()
		return
	}
	if err == nil {
		checkMoves(t, name+", opened", s, acked, 0)
		s.Close()
		t.Errorf("%s: opened; want it refused", name)
		return
	}
	if !errors.Is(err, ErrLogDamaged) || !strings.Contains(err.Error(), path+"-wal") || !strings.Contains(err.Error(), "lagoon backup") {
		t.Errorf("%s: %v; want ErrLogDamaged naming the log and lagoon backup", name, err)
	}
	for file, want := range map[string][]byte{"lagoon.db": db, "lagoon.db-wal": damaged, "lagoon.db-wal.damaged": damaged} {
		if got, err := os.ReadFile(filepath.Join(dir, file)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %s holds %d bytes (%v); want the %d of the damaged log's directory", name, file, len(got), err, len(want))
		}
	}
	// Refused again, it keeps the one copy.
	if _, again := Open(dir); !errors.Is(again, ErrLogDamaged) {
		t.Errorf("%s: opened a second time: %v", name, again)
	}
	if copies, _ := filepath.Glob(path + "-wal.*"); len(copies) != 1 {
		t.Errorf("%s: copies %v after two refusals; want one", name, copies)
	}
	// A backup reads the log as SQLite does: it is refused too.
	if err := Backup(context.Background(), dir, filepath.Join(t.TempDir(), "copy.db")); !errors.Is(err, ErrLogDamaged) {
		t.Errorf("%s: backed up: %v", name, err)
	}

	// The way out, as the message says it.
	cut := regexp.MustCompile(`truncate -s (\d+) (\S+)\.`).FindStringSubmatch(err.Error())
	if cut == nil || cut[2] != path+"-wal" {
		t.Errorf("%s: no way out in %q", name, err)
		return
	}
	size, _ := strconv.ParseInt(cut[1], 10, 64)
	if err := os.Truncate(path+"-wal", size); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Errorf("%s: the log cut as the message says: %v", name, err)
		return
	}
	checkMoves(t, name+", cut", s, acked, cutShort)
	s.Close()
}

// BenchmarkCheckLog measures what the check of the log adds to Open, on a
// log of some 1,000 frames of 4 KiB written by the store, about as long as
// the store lets its log grow before it starts it afresh (restartFrames).
func BenchmarkCheckLog(b *testing.B) {
	dir, _ := killed(b, 8, 104, 0)
	path := filepath.Join(dir, "lagoon.db")
	log, err := os.ReadFile(path + "-wal")
	if err != nil {
		b.Fatal(err)
	}
	_, frames, _ := walFrames(b, log)
	b.Logf("a log of %d frames, %d bytes", frames, len(log))
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		if err := checkLog(path); err != nil {
			b.Fatal(err)
		}
	}
}
