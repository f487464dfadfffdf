package druids

import (
	"math/rand/v2"
	"testing"
)

// ajSeatPlays plays AJ's choice at level for the seat to decide and
// checks its text.
func ajSeatPlays(t *testing.T, s *State, level int, want string) {
	t.Helper()
	m := s.AJSeatMove(level, rand.New(rand.NewPCG(1, 2)))
	if got := s.MoveText(m); got != want {
		t.Fatalf("AJ chose %q, want %q (legal: %v)", got, want, legalText(s))
	}
	if err := s.Play(m); err != nil {
		t.Fatal(err)
	}
}

// AJ as a seat explores first, with the druid whose site has the most
// neighbours, and moves onto the new site.
func TestAJSeatExploresFirst(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A 2A"))
	put(t, s, "1E@1A", "1A@14A")
	s.seeds[0] = [NumEnergies]uint8{3, 3, 3}
	ajSeatPlays(t, s, AJInitiate, "explore")
	ajSeatPlays(t, s, AJInitiate, "1A@14A")
	if s.stack[s.depth-1].sub != 1 {
		t.Fatalf("not asked for a side: %s", s)
	}
	side := s.AJSeatMove(AJInitiate, rand.New(rand.NewPCG(1, 2)))
	play(t, s, s.MoveText(side))
	m := s.AJSeatMove(AJInitiate, rand.New(rand.NewPCG(1, 2)))
	play(t, s, s.MoveText(m))
	ajSeatPlays(t, s, AJInitiate, "yes")
}

// Once it has explored, AJ unravels, choosing the site another seat
// occupies; then he refreshes his Eldrid first.
func TestAJSeatUnravels(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A 2A"))
	put(t, s, "1E@1A", "1A@2A", "2E@2A")
	s.seeds[0] = [NumEnergies]uint8{3, 3, 3}
	s.marker[0] = true
	ajSeatPlays(t, s, AJInitiate, "unravel")
	ajSeatPlays(t, s, AJInitiate, "1A@2A")
	if s.loc[1] != locScore {
		t.Fatalf("2A not unravelled by seat 1: %s", s)
	}
	s = pos(t, 2, line("1A 14A"))
	put(t, s, "1e@1A", "1a@14A")
	s.step = stepRefresh
	ajSeatPlays(t, s, AJInitiate, "1e@1A")
	ajSeatPlays(t, s, AJInitiate, "1a@14A")
}

// With the bag nearly empty, AJ at the Adept level does not unravel the
// energy that scores him most, where at the Initiate level he does.
func TestAJSeatEndGame(t *testing.T) {
	for _, c := range []struct {
		level int
		want  string
	}{{AJInitiate, "unravel"}, {AJAdept, "summon"}} {
		s := pos(t, 2, line("1A 14A 21A 2A"))
		put(t, s, "1E@2A")
		s.seeds[0] = [NumEnergies]uint8{3, 3, 3}
		s.marker[0] = true
		s.bag &= s.bag & -s.bag // one tile left
		if s.favourite(0) != s.energyOf(1) {
			s.seeds[0][s.energyOf(1)] += 5
		}
		if s.favourite(0) != s.energyOf(1) {
			t.Fatal("2A's energy is not seat 1's favourite")
		}
		ajSeatPlays(t, s, c.level, c.want)
	}
}
