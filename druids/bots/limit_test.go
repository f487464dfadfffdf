package bots

import (
	"testing"

	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// cycleState is a two-player game in which seat 1's Eldrid (refreshed)
// and an acolyte (exhausted) stand on Gruu's Refuge: each in turn may
// invoke it to refresh the other, for ever (cycleMoves).
const cycleState = "druids 2; first 0; active 0; step action; turns 0; ply 0; set 1-3,14,19,21; bag 2 3 19 21; world 1A@11,16 14A@12,16; hand -; score1 -; score2 -; seeds1 0 0 0; seeds2 0 0 0; markers - +; druids1 E@1A a@1A; druids2 E@14A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a00000000000000070000000000000007"

// cycleMoves go round cycleState's cycle once, back to where they began.
var cycleMoves = []string{"use 1A", "1E@1A", "1a@1A", "use 1A", "1A@1A", "1e@1A"}

// TestLimitTurnsStopsACycle goes round Gruu's Refuge's cycle, asking the
// limited preparation for every decision: up to TurnLimit it gives the
// search's Position; past it, where a way to stop is offered, a state
// whose one move is that way (the end of the turn); after the end, the
// next turn starts the count again.
func TestLimitTurnsStopsACycle(t *testing.T) {
	st, err := druids.ParseState(cycleState)
	if err != nil {
		t.Fatal(err)
	}
	prepare := LimitTurns(Search)
	for n := 1; ; n++ {
		pos, err := prepare(st)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := pos.(*Position); ok {
			if n > TurnLimit+len(cycleMoves) {
				t.Fatalf("decision %d of the turn is still searched", n)
			}
			if err := game.PlayText(st, cycleMoves[(n-1)%len(cycleMoves)]); err != nil {
				t.Fatalf("decision %d: %v", n, err)
			}
			continue
		}
		if n <= TurnLimit {
			t.Fatalf("decision %d of the turn is not searched", n)
		}
		legal := pos.AppendLegal(nil)
		if len(legal) != 1 || st.MoveText(legal[0]) != "end" {
			t.Fatalf("decision %d offers %d moves, the first %q; want the end alone", n, len(legal), st.MoveText(legal[0]))
		}
		if err := st.Play(legal[0]); err != nil {
			t.Fatal(err)
		}
		break
	}
	if st.Turn() != 1 {
		t.Fatalf("turn %d after the end, want 1", st.Turn())
	}
	pos, err := prepare(st)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pos.(*Position); !ok {
		t.Fatalf("the next turn's first decision gives %T, want a *Position", pos)
	}
}

// TestLimitTurnsCountsEachGame: a state of an earlier decision (another
// game, or the same game started again) starts the count again, so a bot
// that has stopped one game's turn searches the next game's.
func TestLimitTurnsCountsEachGame(t *testing.T) {
	prepare := LimitTurns(Search)
	for range 2 {
		st, err := druids.ParseState(cycleState)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= TurnLimit; n++ {
			pos, err := prepare(st)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := pos.(*Position); !ok {
				t.Fatalf("decision %d of the turn is not searched", n)
			}
			if err := game.PlayText(st, cycleMoves[(n-1)%len(cycleMoves)]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
