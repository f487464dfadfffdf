package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/store"
)

// FlipGames writes three games into s, each with rows of their own kind:
// playing (its row written with its first move and a take-back, moves
// after it), finished, and onemove (one move, which its row counts).
func FlipGames(t testing.TB, s store.Store) []string {
	t.Helper()
	ctx := context.Background()
	for _, id := range []string{"playing", "finished", "onemove"} {
		if err := s.Create(ctx, NewGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	Play(t, s, "playing", 1, 5, store.After{})
	if err := s.TakeBack(ctx, "playing", 5, 3, []int64{1, 2}, []store.Reseed{{At: 3, Seed: 1<<63 + 7}}, time.UnixMilli(1_800_000_100_000)); err != nil {
		t.Fatal(err)
	}
	Play(t, s, "playing", 4, 5, store.After{})
	Play(t, s, "finished", 1, 4, store.After{Over: true, Summary: store.Summary{Phase: "end", ToMove: -1, Scores: []int{3, 4}, Winners: []int{1}}})
	Play(t, s, "onemove", 1, 1, store.After{})
	return []string{"playing", "finished", "onemove"}
}

// storedValue is one value of a game's rows: the row's key, its column
// and what it holds.
type storedValue struct {
	table string
	key   []string // the key's columns
	keys  []any    // their values
	col   string
	value any
}

// storedValues lists every value of game id's rows.
func storedValues(t testing.TB, h Harness, id string) []storedValue {
	t.Helper()
	var out []storedValue
	read := func(table string, key []string, query string) {
		cols, rows := h.Query(t, query, id)
		for _, values := range rows {
			var keys []any
			for _, k := range key {
				keys = append(keys, values[slices.Index(cols, k)])
			}
			for i, c := range cols {
				out = append(out, storedValue{table, key, keys, c, values[i]})
			}
		}
	}
	read("games", []string{"id"}, `SELECT * FROM games WHERE id = ?`)
	read("moves", []string{"game", "version"}, `SELECT * FROM moves WHERE game = ?`)
	return out
}

// flips returns the values that differ from v in one bit: every one, or
// with stride > 1 those of every stride-th bit (a stride prime to 8 still
// flips every bit of a byte, in one byte or another).
func flips(v any, stride int) []any {
	var out []any
	switch v := v.(type) {
	case int64:
		for b := 0; b < 64; b += stride {
			out = append(out, v^1<<b)
		}
	case string:
		for i := 0; i < len(v)*8; i += stride {
			c := []byte(v)
			c[i/8] ^= 1 << (i % 8)
			out = append(out, string(c))
		}
	case []byte:
		for i := 0; i < len(v)*8; i += stride {
			c := slices.Clone(v)
			c[i/8] ^= 1 << (i % 8)
			out = append(out, c)
		}
	}
	return out
}

// set writes to in place of the value of sv, its row found by keys, and
// returns the row's keys after.
func (sv storedValue) set(t testing.TB, h Harness, keys []any, to any) ([]any, error) {
	where := strings.Join(sv.key, " = ? AND ") + " = ?"
	if err := h.Exec(t, `UPDATE `+sv.table+` SET `+sv.col+` = ? WHERE `+where, append([]any{to}, keys...)...); err != nil {
		return keys, err
	}
	after := slices.Clone(keys)
	if i := slices.Index(sv.key, sv.col); i >= 0 {
		after[i] = to
	}
	return after, nil
}

// everyFlip flips, one at a time, every bit (or every Stride-th) of every
// value of a game's rows (a game in progress, a finished one, one with a
// single move), as a disk or a hand might: each flip leaves that game
// damaged to every read (Game fails, and neither InProgress nor Finished
// returns it whole), and the other games whole. A flip the database
// refuses (a key made that of another row, a foreign key broken, text that
// is not UTF-8 for PostgreSQL) is damage it cannot hold.
func everyFlip(t *testing.T, h Harness) {
	stride := max(h.Stride, 1)
	least := 3000 / stride
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	ids := FlipGames(t, s)
	others := func(id string) []string {
		o := slices.DeleteFunc(slices.Clone(ids), func(o string) bool { return o == id })
		slices.Sort(o)
		return o
	}
	// seen says whether the store sees the damage to game id, done to a
	// value of table: reading it fails, InProgress leaves it out (or lists
	// it damaged), and so does Finished, which reads no moves, unless the
	// damage is to a move: the lobby's line of a finished game comes from
	// its row. Every other game reads whole.
	seen := func(id, table string) (bool, error) {
		_, readErr := s.Game(ctx, id)
		if readErr == nil || errors.Is(readErr, store.ErrNotFound) {
			return false, readErr
		}
		active, _, err1 := s.InProgress(ctx)
		finished, _, err2 := s.Finished(ctx, 10)
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, g := range active {
			listed = append(listed, g.ID)
		}
		for _, g := range finished {
			if g.ID != id || table == "games" {
				listed = append(listed, g.ID)
			}
		}
		slices.Sort(listed)
		return slices.Equal(listed, others(id)), readErr
	}
	for _, id := range ids {
		var tried, refused int
		for _, sv := range storedValues(t, h, id) {
			for _, to := range flips(sv.value, stride) {
				keys, err := sv.set(t, h, sv.keys, to)
				if err != nil {
					refused++
					continue
				}
				tried++
				if ok, readErr := seen(id, sv.table); !ok {
					t.Errorf("%s: %s.%s %v flipped to %v went unseen: Game: %v", id, sv.table, sv.col, sv.value, to, readErr)
				}
				if _, err := sv.set(t, h, keys, sv.value); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := s.Game(ctx, id); err != nil {
			t.Fatalf("%s after its flips were undone: %v", id, err)
		}
		if tried < least {
			t.Errorf("%s: %d flips tried, %d refused by the database; want %d tried at least", id, tried, refused, least)
		}
		t.Logf("%s: %d flips tried, %d refused by the database", id, tried, refused)
	}
}

// must fails t with err, if any.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(fmt.Errorf("beside the store: %w", err))
	}
}

// ReadGames reads the games ids of s, failing t for one that does not
// read: what a migration test keeps to compare after (SameGames).
func ReadGames(t testing.TB, s store.Store, ids []string) map[string]*store.Game {
	t.Helper()
	out := map[string]*store.Game{}
	for _, id := range ids {
		g, err := s.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		out[id] = g
	}
	return out
}

// SameGames fails t for each game of want that s does not read as it is.
func SameGames(t testing.TB, s store.Store, want map[string]*store.Game) {
	t.Helper()
	for id, g := range want {
		if got, err := s.Game(context.Background(), id); err != nil || !reflect.DeepEqual(got, g) {
			t.Errorf("%s migrated: %v\n got %+v\nwant %+v", id, err, got, g)
		}
	}
}
