package bots

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/laguna"
)

// endsOnly is a seat that does the least it can: it ends its turn where it
// may, and otherwise plays the first legal move (placing its raft, loading
// the pearls a raft must carry before it may end), loading a colour nobody
// plays where it can, else its own: the least it can do is also to take no
// other player's pearl out of play. (A seat that sits for ever on another's last
// pearl makes that player win by a trade, which without the timer a raft
// of two pearls may never reach: decision 22 then ends the game.)
type endsOnly struct{}

func (endsOnly) Name() string { return "ends only" }

func (endsOnly) Move(_ context.Context, st game.State) (game.Move, error) {
	legal := st.AppendLegal(nil)
	if slices.Contains(legal, laguna.End) {
		return laguna.End, nil
	}
	mine := func(c int) bool { return c == st.ToMove() }
	for _, keep := range []func(c int) bool{func(c int) bool { return c >= st.Players() }, mine} {
		for _, m := range legal {
			if m >= mLoad && m < mUnload && keep(int(m-mLoad)%laguna.NumColours) {
				return m, nil
			}
		}
	}
	return legal[0], nil
}

// leadThenEnds plays as lead until its seat has delivered `until` pearls,
// then as endsOnly: a seat ahead that stops playing.
type leadThenEnds struct {
	lead  mover
	until int
}

func (b leadThenEnds) Name() string { return "leads, then ends only" }

func (b leadThenEnds) Move(ctx context.Context, st game.State) (game.Move, error) {
	if ls := st.(*laguna.State); ls.Delivered(ls.ToMove()) < b.until {
		return b.lead.Move(ctx, st)
	}
	return endsOnly{}.Move(ctx, st)
}

// closingRounds bounds the rounds a two-player game lasts once one seat
// only ends its turns (docs/laguna.md, Bots, "A seat that only ends its
// turns", gives the rounds these games took).
const closingRounds = 80

// TestGamesEndAgainstASeatThatOnlyEnds: every level of the planner ends a
// two-player game against a seat that only ends its turns within
// closingRounds, on both boards, with and without the timer, first and
// second, ahead (the other seat never plays) and behind (the other seat
// plays as max until it has delivered 5 of its 6 pearls, then only ends
// its turns), and never loses it. With the sand timer it wins by
// delivering all its pearls; without, a raft of two pearls on the hard
// board may take longer between pearls than decision 22's 20 rounds (each
// reef on its way costs a turn), and the game ends by that rule, the
// planner ahead.
func TestGamesEndAgainstASeatThatOnlyEnds(t *testing.T) {
	timers := []string{"on", "off"}
	if testing.Short() || raceEnabled {
		timers = timers[1:] // without the timer, where planners have stalled
	}
	most, byRule := 0, 0
	for _, level := range LevelNames() {
		for _, board := range boards() {
			for _, timer := range timers {
				for _, lead := range []string{"ahead", "behind"} {
					for first := range 2 {
						name := fmt.Sprintf("%s/%s/timer=%s/%s/seat%d", level, board, timer, lead, first+1)
						seed := uint64(3 + first)
						var other mover = endsOnly{}
						if lead == "behind" {
							other = leadThenEnds{lead: planner(t, "max", seed+100), until: laguna.Target(2) - 1}
						}
						seats := []mover{planner(t, level, seed), other}
						if first == 1 {
							seats[0], seats[1] = seats[1], seats[0]
						}
						rounds, delivered := closingGame(t, name, seats, first, board, timer, seed)
						most = max(most, rounds)
						if !delivered {
							byRule++
							if timer == "on" {
								t.Errorf("%s: with the timer, ended by decision 22, not by the planner delivering all", name)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("the most rounds a game lasted after the other seat stopped playing: %d (bound %d); %d ended by decision 22", most, closingRounds, byRule)
}

// closingGame plays the game, the planner at seat me, and fails t unless
// it ends within closingRounds of the other seat's stopping with the
// planner among its winners; it returns those rounds and whether the
// planner won by delivering all its pearls.
func closingGame(t *testing.T, name string, seats []mover, me int, board, timer string, seed uint64) (int, bool) {
	t.Helper()
	g, err := laguna.Rules.NewGame(game.Setup{Players: 2, Seed: seed, Options: map[string]string{"board": board, "timer": timer}})
	if err != nil {
		t.Fatal(err)
	}
	st := g.(*laguna.State)
	stopped := -1 // the turn from which the other seat only ends
	for !st.Over() {
		if stopped < 0 && (st.Delivered(1-me) >= laguna.Target(2)-1 || seats[1-me] == (endsOnly{})) {
			stopped = st.Turn()
		}
		if stopped >= 0 && st.Turn()-stopped > 2*closingRounds {
			t.Fatalf("%s: no end %d rounds after the other seat stopped playing, delivered %v: %s", name, closingRounds, st.Standing().Scores, st)
		}
		m, err := seats[st.ToMove()].Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Play(m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	std := st.Standing()
	if !slices.Contains(std.Winners, me) {
		t.Fatalf("%s: the planner did not win: %+v: %s", name, std, st)
	}
	delivered := len(std.Winners) == 1 && std.Scores[me] == laguna.Target(2)
	if stopped < 0 {
		stopped = 0 // the planner won before the other seat stopped
	}
	rounds := (st.Turn() - stopped + 1) / 2
	t.Logf("%s: over %d rounds after the other seat stopped playing, delivered all: %v, %v", name, rounds, delivered, std.Scores)
	return rounds, delivered
}
