package druids

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/game"
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

// RefreshUnravels answers as playing the choice out on a copy does, at
// every Refresh step of random games, solo and of seats: the choice, done
// after it if the seat still decides without the unravel offered (not
// after done itself), and the unravel offered at the decision reached. A
// done that ends the turn plays AJ's whole turn to the seat's next one.
func TestRefreshUnravels(t *testing.T) {
	played := func(s *State, m game.Move) bool {
		c := *s
		c.apply(m)
		for passed := false; ; passed = true {
			if c.Over() || c.ToMove() != s.ToMove() {
				return false
			}
			legal := c.AppendLegal(nil)
			if slices.Contains(legal, mUnravel) {
				return true
			}
			pass, ok := Stop(legal)
			if !ok || passed || pass == m {
				return false
			}
			c.apply(pass)
		}
	}
	// answered counts the answers by kind: a refresh, done with a druid
	// refreshed, and done with none, offered or not.
	var answered [3][2]int
	unknown := 0
	rng := rand.New(rand.NewPCG(7, 8))
	for seed := range uint64(120) {
		cfg := config{Players: 2 + int(seed%3), Set: mustSet("all"), Start: [3]int{-1, -1, -1}, Seed: seed}
		if seed%2 == 0 {
			cfg.Players, cfg.AJ = 2, AJInitiate+int(seed/2)%AJLegend
		}
		st, err := newGame(cfg)
		if err != nil {
			t.Fatalf("game %d: %v", seed, err)
		}
		playRandom(t, st, rng, func(s *State) {
			if !s.AtRefresh() {
				return
			}
			for _, m := range s.AppendLegal(nil) {
				got, ok := s.RefreshUnravels(m)
				if !ok {
					unknown++
					continue
				}
				if want := played(s, m); got != want {
					t.Fatalf("game %d, choice %s: RefreshUnravels %v, played out %v\n%s", seed, s.MoveText(m), got, want, s)
				}
				kind := 0
				if m == mDone {
					kind = 1
					if s.fresh[s.active] == 0 {
						kind = 2
					}
				}
				answered[kind][b2i(got)]++
			}
		})
	}
	t.Logf("answers (refresh, done with a druid refreshed, done with none; not offered, offered): %v, unknown %d", answered, unknown)
	for kind, a := range answered[:2] {
		if a[0] == 0 || a[1] == 0 {
			t.Errorf("kind %d of answer not compared both ways: %v", kind, a)
		}
	}
	if answered[2][0] == 0 {
		t.Errorf("no done with no druid refreshed compared: %v", answered[2])
	}
}

// A site laid in a free cell next to the world unlocks a locked site
// where worldParts says it does, as a copy of the state with the site
// placed has it, in random solo games (AJ asks it of the cells he may
// explore, for the locked sites nearest his Eldrid).
func TestWorldPartsUnlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	compared, unlocked := 0, 0
	for seed := range uint64(30) {
		st, err := newGame(config{Players: 2, Set: mustSet("all"), Start: [3]int{-1, -1, -1}, Seed: seed, AJ: AJLegend})
		if err != nil {
			t.Fatalf("game %d: %v", seed, err)
		}
		playRandom(t, st, rng, func(s *State) {
			if s.bag == 0 || s.Ply()%5 != 0 {
				return
			}
			s.world()
			dummy := bits.TrailingZeros32(s.bag)
			for c := range numCells {
				q, r := cellQR(c)
				if s.grid[c] != 0 || q == 0 || q == gridW-1 || r == 0 || r == gridW-1 {
					continue
				}
				next := false
				for _, off := range neighbourOffsets {
					next = next || s.grid[c+off] != 0
				}
				if !next {
					continue
				}
				after := *s
				after.place(dummy, 0, c)
				after.world()
				// Each locked site alone, and all of them.
				for _, near := range append(bitsOf(s.locked), s.locked) {
					got, ok := s.partsWithout(near).unlockedBy(s, c)
					if !ok {
						t.Fatalf("game %d: cell %d,%d inside the grid not answered", seed, q, r)
					}
					if want := after.locked&near != near; got != want {
						t.Fatalf("game %d, sites %b, a site at %d,%d: unlocks %v, placed %v (locked after %b)\n%s", seed, near, q, r, got, want, after.locked, s)
					}
					compared++
					unlocked += b2i(got)
				}
			}
		})
	}
	t.Logf("%d cells and sites compared, %d unlocked", compared, unlocked)
	if unlocked == 0 || unlocked == compared {
		t.Errorf("compared %d, unlocked %d: want both answers", compared, unlocked)
	}
}

// bitsOf returns each bit of m alone.
func bitsOf(m uint32) []uint32 {
	var out []uint32
	for ; m != 0; m &= m - 1 {
		out = append(out, m&-m)
	}
	return out
}
