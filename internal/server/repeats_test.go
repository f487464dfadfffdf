package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/internal/store"
)

// TestRepeatsSummarised: on the fake clock, a line repeated within the
// window is logged once at once and once more, with the count, when the
// window ends; a flood lasting several windows writes a line a window; a
// kind quiet for a window is logged at once again; kinds are counted
// apart; and closing logs what is held.
func TestRepeatsSummarised(t *testing.T) {
	type step struct {
		after    time.Duration // on the fake clock, since the step before
		level    slog.Level
		msg      string
		n        int // lines logged in this step, 3 ms apart, so that none falls at a window's end
		want     int // lines in the log after it
		repeated string
	}
	for _, tc := range []struct {
		name  string
		steps []step
		close bool
	}{
		{"1000 in a window", []step{
			{0, slog.LevelWarn, "NATS down", 1000, 1, ""},
			{repeatWindow, slog.LevelWarn, "", 0, 2, "repeated=999"},
			{3 * repeatWindow, slog.LevelWarn, "", 0, 2, ""},
		}, false},
		{"one alone", []step{
			{0, slog.LevelError, "disk full", 1, 1, ""},
			{3 * repeatWindow, slog.LevelError, "", 0, 1, ""},
		}, false},
		{"a flood of three windows", []step{
			{0, slog.LevelError, "disk full", 8333, 3, "repeated=3333"}, // 25 s: a line at once, then at 10 s and 20 s
			{repeatWindow, slog.LevelError, "", 0, 4, "repeated=1666"},
			{3 * repeatWindow, slog.LevelError, "", 0, 4, ""},
		}, false},
		{"quiet, then again", []step{
			{0, slog.LevelWarn, "slow body", 5, 1, ""},
			{2 * repeatWindow, slog.LevelWarn, "slow body", 1, 3, ""},
		}, false},
		{"two kinds", []step{
			{0, slog.LevelWarn, "slow body", 5, 1, ""},
			{0, slog.LevelWarn, "NATS down", 5, 2, ""},
			{0, slog.LevelError, "NATS down", 5, 3, ""},
			{repeatWindow, slog.LevelWarn, "", 0, 6, "repeated=4"},
		}, false},
		{"closed", []step{
			{0, slog.LevelError, "disk full", 7, 1, ""},
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var log lockedLog
				r := newRepeats(slog.New(slog.NewTextHandler(&log, nil)), repeatWindow)
				lines := func() []string { return strings.Split(strings.TrimSpace(log.String()), "\n") }
				for i, s := range tc.steps {
					time.Sleep(s.after)
					for range s.n {
						if s.level == slog.LevelError {
							r.Error(s.msg, "client", "192.0.2.1")
						} else {
							r.Warn(s.msg, "client", "192.0.2.1")
						}
						time.Sleep(3 * time.Millisecond)
					}
					synctest.Wait()
					got := lines()
					if len(got) != s.want {
						t.Fatalf("step %d: %d lines, want %d:\n%s", i, len(got), s.want, log.String())
					}
					if last := got[len(got)-1]; !strings.Contains(last, s.repeated) {
						t.Errorf("step %d: the last line %q, want %q in it", i, last, s.repeated)
					}
				}
				if tc.close {
					r.close()
					if got := lines(); len(got) != 2 || !strings.Contains(got[1], "repeated=6") {
						t.Errorf("closed: %q", got)
					}
					r.Error("disk full")
					r.Error("disk full")
					if got := lines(); len(got) != 4 {
						t.Errorf("after closing, each line as it comes: %q", got)
					}
				}
			})
		})
	}
}

// fullDisk is a store whose disk is full: every move it is given fails.
type fullDisk struct{ store.Store }

func (fullDisk) AppendMove(context.Context, string, int, store.Move, store.After) error {
	return fmt.Errorf("appending a move: %w", syscall.ENOSPC)
}

// TestServerSummarisesRepeats: on the fake clock, a full disk refusing 200
// moves and 200 requests for another host write a line each at once and
// one with the count when the window ends, not 400 lines; every refusal is
// answered all the same.
func TestServerSummarisesRepeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log lockedLog
		st, err := store.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		b := startBubble(t, fullDisk{st}, func(c *Config) { c.Log = slog.New(slog.NewTextHandler(&log, nil)) })
		defer b.s.Close()
		c := b.create(map[string]any{"seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
		move := b.get(c.ID).State.View.Legal[0]
		for range 200 {
			if status, body := b.do("POST", "/api/games/"+c.ID+"/moves", c.Seats[0].Token, map[string]any{"version": 0, "move": move}); status != http.StatusInternalServerError {
				t.Fatalf("a move on a full disk: %d %s", status, body)
			}
			req := httptest.NewRequest("GET", "/api/health", nil)
			req.Host = "attacker.example"
			w := httptest.NewRecorder()
			b.s.ServeHTTP(w, req)
			if w.Code != http.StatusMisdirectedRequest {
				t.Fatalf("a request for another host: %d", w.Code)
			}
			time.Sleep(time.Millisecond)
		}
		count := func(text string) (lines int, last string) {
			for line := range strings.Lines(log.String()) {
				if strings.Contains(line, text) {
					lines, last = lines+1, line
				}
			}
			return lines, last
		}
		for _, text := range []string{`msg="storing a move"`, `msg="a request for another host is refused"`} {
			if n, _ := count(text); n != 1 {
				t.Errorf("%s: %d lines within the window, want 1:\n%s", text, n, log.String())
			}
		}
		time.Sleep(repeatWindow)
		synctest.Wait()
		for _, text := range []string{`msg="storing a move"`, `msg="a request for another host is refused"`} {
			if n, last := count(text); n != 2 || !strings.Contains(last, "repeated=199") {
				t.Errorf("%s: %d lines after the window, the last %q; want 2, the last with repeated=199", text, n, last)
			}
		}
	})
}
