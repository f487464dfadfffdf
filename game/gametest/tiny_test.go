package gametest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

func TestTinyKeepsTheContract(t *testing.T) {
	Check(t, Tiny,
		game.Setup{Players: 2, Seed: 1},
		game.Setup{Players: 3, Options: map[string]string{"hand": "4", "goal": "low"}, Seed: 10},
		game.Setup{Players: 4, Options: map[string]string{"hand": "2", "teams": "pairs"}, Seed: 20},
	)
}

func TestTinyHidesHands(t *testing.T) {
	st, err := Tiny.NewGame(game.Setup{Players: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	mine := st.View(game.Viewer{Seat: 0}).(TinyView)
	theirs := st.View(game.Viewer{Seat: 1}).(TinyView)
	watcher := st.View(game.Viewer{Seat: game.NoSeat}).(TinyView)
	if len(mine.Hand) != 3 || len(theirs.Hand) != 3 || watcher.Hand != nil {
		t.Fatalf("hands: seat 0 %v, seat 1 %v, spectator %v", mine.Hand, theirs.Hand, watcher.Hand)
	}
	if len(mine.Legal) == 0 || len(theirs.Legal) != 0 || len(watcher.Legal) != 0 {
		t.Fatalf("legal: seat 0 %v, seat 1 %v, spectator %v", mine.Legal, theirs.Legal, watcher.Legal)
	}
}

// A turn is several decisions, and an odd card gives the next seat a
// decision in the middle of the turn.
func TestTinyTurns(t *testing.T) {
	st, err := Tiny.ParseState("tiny 2 3 high solo; owner 0 play; last 0; turns 0; deck 2 1 2 2 2 2 2 2 2; hand 0 1 1 0 0 0 0 0 1; hand 1 0 0 1 0 0 0 0 1; scores 0 0; rng " + rngHex(t))
	if err != nil {
		t.Fatal(err)
	}
	play := func(text string) {
		t.Helper()
		if err := game.PlayText(st, text); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	play("play 2")
	if st.ToMove() != 0 || st.Turn() != 0 {
		t.Fatalf("after an even card: to move %d, turn %d", st.ToMove(), st.Turn())
	}
	play("play 3")
	if st.ToMove() != 1 || st.Turn() != 0 {
		t.Fatalf("after an odd card: to move %d, turn %d", st.ToMove(), st.Turn())
	}
	if m, ok := st.TimeUp(); !ok || m != Leave {
		t.Fatalf("time up in a triggered choice: %v %v", m, ok)
	}
	play("take")
	if st.ToMove() != 1 || st.Turn() != 1 || st.Standing().Scores[1] != 1 || st.Standing().Scores[0] != 4 {
		t.Fatalf("after take: to move %d, turn %d, scores %v", st.ToMove(), st.Turn(), st.Standing().Scores)
	}
	if err := game.PlayText(st, "stop"); err == nil || !strings.Contains(err.Error(), "not a move now") {
		t.Fatalf("stop at the start of a turn: %v", err)
	}
}

func rngHex(t *testing.T) string {
	st, err := Tiny.NewGame(game.Setup{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := st.String()
	return s[strings.LastIndex(s, "rng ")+4:]
}

func FuzzParseTiny(f *testing.F) {
	st, _ := Tiny.NewGame(game.Setup{Players: 3, Seed: 2})
	f.Add(st.String())
	f.Add("tiny 2 3 high solo; owner 0 play")
	f.Fuzz(func(t *testing.T, text string) {
		st, err := Tiny.ParseState(text)
		if err != nil {
			return
		}
		again, err := Tiny.ParseState(st.String())
		if err != nil || again.String() != st.String() {
			t.Fatalf("%q reads as %q, which reads as %v, %v", text, st.String(), again, err)
		}
	})
}

// fatalRecorder is a testing.TB whose Fatalf records the failure and ends
// the goroutine, as testing's does, so that a test can check Check fails.
type fatalRecorder struct {
	testing.TB
	failed string
}

func (f *fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestCheckHoldsHouseSeats: Check refuses a game whose house seats are not
// seats of the game, or are ever to move.
func TestCheckHoldsHouseSeats(t *testing.T) {
	for _, c := range []struct {
		house []game.HouseSeat
		want  string
	}{
		{[]game.HouseSeat{{Seat: 1, Name: "House"}}, "which the rules play themselves, is to move"},
		{[]game.HouseSeat{{Seat: 2, Name: "House"}}, "house seats"},
		{[]game.HouseSeat{{Seat: 0}}, "house seats"},
	} {
		rules := *Tiny
		rules.House = func(game.Setup) []game.HouseSeat { return c.house }
		rec := &fatalRecorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Check(rec, &rules, game.Setup{Players: 2, Seed: 1})
		}()
		<-done
		if !strings.Contains(rec.failed, c.want) {
			t.Errorf("house %+v: Check said %q; want it to say %q", c.house, rec.failed, c.want)
		}
	}
}

// countingTiny is Tiny with a count of revelations (game.Revealer) that
// count works out from the state.
type countingTiny struct {
	*tinyState
	count func(*tinyState) int
}

func (c countingTiny) Revealed() int { return c.count(c.tinyState) }

func (c countingTiny) Clone() game.State {
	return countingTiny{c.tinyState.Clone().(*tinyState), c.count}
}

func (c countingTiny) CopyFrom(src game.State) { c.tinyState.CopyFrom(src.(countingTiny).tinyState) }

// TestCheckHoldsRevelations: Check refuses a game whose count of
// revelations misses a card drawn, or goes back, and takes Tiny with the
// cards its moves drew counted.
func TestCheckHoldsRevelations(t *testing.T) {
	for _, c := range []struct {
		name  string
		count func(*tinyState) int
		want  string // "" for no failure
	}{
		{"cards drawn", func(s *tinyState) int { return 18 - s.deckSize() - int(s.players)*int(s.hand) }, ""},
		{"nothing", func(*tinyState) int { return 0 }, "counts no revelation"},
		{"backwards", func(s *tinyState) int { return s.deckSize() }, "went back"},
	} {
		rules := *Tiny
		rules.New = func(s game.Setup) (game.State, error) {
			st, err := Tiny.New(s)
			if err != nil {
				return nil, err
			}
			return countingTiny{st.(*tinyState), c.count}, nil
		}
		rec := &fatalRecorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Check(rec, &rules, game.Setup{Players: 2, Seed: 1}, game.Setup{Players: 3, Options: map[string]string{"hand": "2"}, Seed: 5})
		}()
		<-done
		if c.want == "" && rec.failed != "" || !strings.Contains(rec.failed, c.want) {
			t.Errorf("%s: Check said %q; want %q", c.name, rec.failed, c.want)
		}
	}
}
