package druids

import "testing"

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
