package druids

import (
	"math/rand/v2"
	"testing"
)

// A turn drawn by a policy that never stops of its own still ends once
// CapTurn takes over: the menu always offers the end. Two druids on Gruu's
// Refuge can refresh each other for ever, and the policy makes them.
func TestCapTurnEndsTurns(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1E@1A", "1a@1A")
	turn := s.turns
	for n := 1; s.turns == turn; n++ {
		if n > TurnCap+50 {
			t.Fatalf("a capped turn did not end: %s", s)
		}
		legal := s.AppendLegal(nil)
		m := legal[0]
		for _, l := range legal {
			if l&^argMask == vUse || l&^argMask == vDruid && m&^argMask != vUse {
				m = l
			}
		}
		s.apply(CapTurn(n, legal, m))
	}
}

// Steer lays a drawn tile on the side of the energy under which the seat
// leads most, and unravels a site of the energy under which it leads
// least; it leaves other decisions alone.
func TestSteer(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	steered := func(s *State) string {
		t.Helper()
		m, ok := s.Steer(s.AppendLegal(nil), rng)
		if !ok {
			t.Fatalf("not steered: %v", legalText(s))
		}
		return s.MoveText(m)
	}
	for _, c := range []struct {
		lead Energy // the seat's seeds of it, three
		side string
	}{{Elemeen, "side A"}, {Vowelon, "side B"}} { // 19A Elemeen, 19B Vowelon
		s := pos(t, 2, line("1A 14A 21A"))
		onlyInBag(s, 19)
		put(t, s, "1E@1A")
		s.seeds[0][c.lead] = 3
		if _, ok := s.Steer(s.AppendLegal(nil), rng); ok {
			t.Fatal("the menu steered")
		}
		play(t, s, "explore", "1E@1A")
		if got := steered(s); got != c.side {
			t.Errorf("leading under %v: %s, want %s", c.lead, got, c.side)
		}
	}
	for _, c := range []struct {
		trail  Energy // the other seat's seeds of it, five
		target string
	}{{Elemeen, "1A@21B"}, {Vowelon, "1E@14A"}} {
		s := pos(t, 2, line("21B 1A 14A")) // E, E haven, V: the ends unlocked
		put(t, s, "1E@14A", "1A@21B")
		s.seeds[0] = [NumEnergies]uint8{3, 0, 3}
		s.seeds[1][c.trail] = 5
		play(t, s, "unravel")
		legalIs(t, s, "1E@14A", "1A@21B")
		if got := steered(s); got != c.target {
			t.Errorf("trailing under %v: %s, want %s", c.trail, got, c.target)
		}
	}
}

// A hasty seat explores once and ends its turn, and refreshes a druid
// rather than stop.
func TestHasty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := pos(t, 2, line("1A 14A 21A"))
	put(t, s, "1E@1A", "1A@21A")
	hasty := func() string { return s.MoveText(s.Hasty(s.AppendLegal(nil), rng)) }
	if got := hasty(); got != "explore" {
		t.Fatalf("the menu: %s", got)
	}
	play(t, s, "explore", "1E@1A", "side A", "10,15", "no")
	if got := hasty(); got != "end" {
		t.Fatalf("after the explore: %s (legal %v)", got, legalText(s))
	}
	play(t, s, "move", "1A@21A", "14A") // no druid refreshed: the turn ends
	// The other seat's turn hastily, then seat 1's Refresh step.
	for s.ToMove() != 0 || s.step != stepRefresh {
		s.apply(s.Hasty(s.AppendLegal(nil), rng))
	}
	if got := hasty(); got == "done" {
		t.Fatalf("the Refresh step: done (legal %v)", legalText(s))
	}
}

// Gather moves a druid onto a site it could unravel there rather than onto
// one it could not, and leaves other decisions alone.
func TestGather(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		seeds Energy // the seat's seeds of it, three
		to    string
	}{{Elemeen, "14A"}, {Deonin, "21B"}} { // Elemeen unravels Vowelon (14A), Deonin Elemeen (21B)
		s := pos(t, 2, line("21B 1A 14A")) // E, E haven, V: the ends unlocked
		put(t, s, "1E@1A")
		s.seeds[0][c.seeds] = 3
		if _, ok := s.Gather(s.AppendLegal(nil), rng); ok {
			t.Fatal("the menu gathered")
		}
		play(t, s, "move", "1E@1A")
		legalIs(t, s, "21B", "14A")
		m, ok := s.Gather(s.AppendLegal(nil), rng)
		if !ok || s.MoveText(m) != c.to {
			t.Errorf("seeds of %v: %s (%v), want %s", c.seeds, s.MoveText(m), ok, c.to)
		}
	}
}
