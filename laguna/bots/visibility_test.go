package bots

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

var movedField = regexp.MustCompile(`moved=\d+`)

// twinUnder returns a state that looks the same to the seat to move as s
// but whose board differs on square sq (water and reef swapped, an arrow
// made water), or nil when no such board passes the checker.
func twinUnder(t *testing.T, s *laguna.State, sq laguna.Square) *laguna.State {
	t.Helper()
	rows := strings.Split(strings.TrimSuffix(s.Board().String(), "\n"), "\n")
	row := []byte(rows[sq.Row()])
	switch c := row[sq.Col()]; {
	case c >= 'a' && c <= 'h':
		return nil // a landing line's square: the twin would move the line
	case c == '.':
		row[sq.Col()] = '#'
	default:
		row[sq.Col()] = '.'
	}
	rows[sq.Row()] = string(row)
	b, err := laguna.ParseBoard(strings.Join(rows, "\n"))
	if err != nil {
		return nil
	}
	text := strings.Replace(s.String(), "board="+s.Board().Name()+" ", "board="+b.Line()+" ", 1)
	twin, err := laguna.ParseState(text)
	if err != nil {
		t.Fatalf("twin state: %v", err)
	}
	return twin
}

// TestSameViewSameMove: the planner never reads what its seat cannot see.
// Two states that look the same to the seat to move give the same move:
// states differing in what no view shows (the count of steps of the game),
// and, for the levels that forget, states whose boards differ on a square
// under the raft's pearls that the bot does not remember (when the legal
// moves are the same: before the first step of a turn they tell which
// pearls lie on a reef or an arrow, as a peek would).
func TestSameViewSameMove(t *testing.T) {
	for _, level := range LevelNames() {
		twins, boardTwins := 0, 0
		for seed := uint64(1); seed <= 3 && boardTwins < 8; seed++ {
			me := planner(t, level, seed)
			st, err := laguna.Rules.NewGame(game.Setup{Players: 2, Options: map[string]string{"board": "easy", "limit": "60"}, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			opp := randomBot{rand.New(rand.NewPCG(seed, 5))}
			for n := 0; !st.Over(); n++ {
				ls := st.(*laguna.State)
				var m game.Move
				if st.ToMove() == 0 {
					same := func(twin *laguna.State) bool {
						if fmt.Sprint(ls.AppendLegal(nil)) != fmt.Sprint(twin.AppendLegal(nil)) {
							return false
						}
						a, errA := planner(t, level, seed).Move(context.Background(), ls)
						b, errB := planner(t, level, seed).Move(context.Background(), twin)
						if errA != nil || errB != nil || a != b {
							t.Fatalf("%s: %s in\n%s\nbut %s in\n%s", level, ls.MoveText(a), ls, ls.MoveText(b), twin)
						}
						return true
					}
					if n%5 == 0 {
						twin, err := laguna.ParseState(movedField.ReplaceAllString(ls.String(), fmt.Sprintf("moved=%d", n*3+11)))
						if err == nil {
							same(twin)
							twins++
						}
					}
					if _, _, hidden, err := viewWorld(ls, 0); err == nil && n%3 == 0 && boardTwins < 8 {
						w, _, _, _ := viewWorld(ls, 0)
						r := &w.rafts[0]
						for h := range laguna.Holes {
							sq := laguna.HoleSquare(r.o, r.at, h)
							if hidden[0]>>h&1 == 0 || me.remembers(sq) {
								continue
							}
							if twin := twinUnder(t, ls, sq); twin != nil && same(twin) {
								boardTwins++
								break
							}
						}
					}
					m, err = me.Move(context.Background(), st)
				} else {
					m, err = opp.Move(context.Background(), st)
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := st.Play(m); err != nil {
					t.Fatal(err)
				}
			}
		}
		t.Logf("%s: %d twins by hidden counts, %d by squares it forgot", level, twins, boardTwins)
		if twins == 0 || level != "max" && boardTwins == 0 {
			t.Errorf("%s: too few twins tried", level)
		}
	}
}
