package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBackupUnderLoad takes backups while games are written move by move,
// then opens each copy as a new data directory's database, as a restore
// does: every move acknowledged before a backup began is in its copy, each
// game's moves are whole (1 to its version, no gap), and the copy opens as
// a store of this schema. A backup never writes over a file.
func TestBackupUnderLoad(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	defer s.Close()
	const games = 8
	for i := range games {
		if err := s.Create(ctx, newGame(fmt.Sprint("g", i))); err != nil {
			t.Fatal(err)
		}
	}
	var acked [games]atomic.Int64 // the last version each game's writer was told is stored
	stop := make(chan struct{})
	var writers sync.WaitGroup
	for i := range games {
		writers.Go(func() {
			for v := 1; ; v++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := s.AppendMove(ctx, fmt.Sprint("g", i), v, Move{Seat: v % 2, Move: "S 0,0", At: time.Now()}, After{}); err != nil {
					t.Error(err)
					return
				}
				acked[i].Store(int64(v))
			}
		})
	}
	for k := range 3 {
		time.Sleep(20 * time.Millisecond)
		var before [games]int64
		for i := range games {
			before[i] = acked[i].Load()
		}
		file := filepath.Join(t.TempDir(), "lagoon.db")
		if err := Backup(ctx, dir, file); err != nil {
			t.Fatalf("backup %d: %v", k, err)
		}
		if err := Backup(ctx, dir, file); err == nil || !strings.Contains(err.Error(), "exists") {
			t.Errorf("a backup over an existing file: %v", err)
		}
		restored := open(t, filepath.Dir(file))
		for i := range games {
			g, err := restored.Game(ctx, fmt.Sprint("g", i))
			if err != nil {
				t.Fatalf("backup %d: %v", k, err)
			}
			if int64(g.Version) < before[i] || len(g.Moves) != g.Version {
				t.Errorf("backup %d: game %d has version %d and %d moves; %d were acknowledged before it began", k, i, g.Version, len(g.Moves), before[i])
			}
		}
		if err := restored.Close(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	writers.Wait()
	if acked[0].Load() == 0 {
		t.Fatal("no move was written while the backups were taken: the test shows nothing")
	}
}
