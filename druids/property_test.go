package druids

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// invariants checks what must hold in every reachable state: the world is
// connected and has a haven, druids are five a circle on the board or in
// the supply and stand only on sites in play, every tile of the play set is
// in exactly one place, sites lie away from the grid's border.
func invariants(t testing.TB, s *State) {
	t.Helper()
	if err := s.check(); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	if s.aj != ajOff && s.ToMove() == ajSeat {
		t.Fatalf("AJ asked to decide: %s", s)
	}
	for p := range s.circles() {
		if s.aj != ajOff && p >= ajSeat {
			if s.acoSup[p] != 0 || s.occ[p]&^(1<<max(s.eld[p], 0)) != 0 {
				t.Fatalf("AJ's slot %d holds acolytes: %s", p, s)
			}
			continue
		}
		n := int(s.acoSup[p])
		if s.eld[p] < 0 {
			n++
		} else if s.inPlay>>s.eld[p]&1 == 0 {
			t.Fatalf("seat %d's Eldrid off the world: %s", p, s)
		}
		for tile := range NumTiles {
			c := int(s.acoR[p][tile] + s.acoE[p][tile])
			if c > 0 && s.inPlay>>tile&1 == 0 {
				t.Fatalf("seat %d's acolytes on tile %d out of play: %s", p, tile+1, s)
			}
			n += c
		}
		if s.eld[p] >= 0 {
			n++
		}
		if n != 5 {
			t.Fatalf("seat %d has %d druids: %s", p, n, s)
		}
	}
	var where int
	for tile := range NumTiles {
		if s.set>>tile&1 != 0 {
			where++
		}
		if s.loc[tile] == locPlay {
			if s.inPlay>>tile&1 == 0 || s.tileAt(int(s.cell[tile])) != tile {
				t.Fatalf("tile %d: grid and place disagree: %s", tile+1, s)
			}
			q, r := cellQR(int(s.cell[tile]))
			if q < 1 || r < 1 || q > gridW-2 || r > gridW-2 {
				t.Fatalf("tile %d on the border: %s", tile+1, s)
			}
		}
	}
	kept := *s
	s.rebuildMasks()
	if kept.occ != s.occ || kept.fresh != s.fresh || kept.tired != s.tired || kept.havenMask != s.havenMask ||
		kept.energyMask != s.energyMask || kept.faceUp != s.faceUp {
		t.Fatalf("masks kept differ from masks rebuilt: %s", s)
	}
	adj := kept.adj
	s.relink()
	if adj != s.adj {
		t.Fatalf("neighbours kept %v, from the grid %v: %s", adj, s.adj, s)
	}
	s.world()
	var locked uint32
	eachTile(s.inPlay, func(t int) {
		if !s.connectedWithout(t) {
			locked |= 1 << t
		}
	})
	if locked != s.locked {
		t.Fatalf("locked %b, by brute force %b: %s", s.locked, locked, s)
	}
	s.worldOK = false
	eachTile(s.inPlay, func(tile int) {
		if s.lockedAt(tile) != (locked>>tile&1 != 0) {
			t.Fatalf("tile %d: lockedAt says %v: %s", tile+1, s.lockedAt(tile), s)
		}
	})
	s.world()
	if bits.OnesCount32(s.set) != where {
		t.Fatalf("play set: %s", s)
	}
}

// TestRandomGamesKeepInvariants plays random games on every play set and
// player count, checking the invariants after every move, that every listed
// move is accepted and that the notation reads back.
func TestRandomGamesKeepInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sets := []string{"beginner", "regular", "advanced", "all"}
	games := 80 * stressFactor
	if testing.Short() {
		games = 12
	}
	for g := range games {
		cfg := Config{Players: 2 + g%3, Set: mustSet(sets[g%4]), Start: [3]int{-1, -1, -1}, Seed: uint64(g)}
		if g%4 == 3 {
			cfg.Players, cfg.AJ = 2, 1+g/4%5
		}
		st, err := NewState(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var buf [256]game.Move
		for step := 0; !st.Over(); step++ {
			invariants(t, st)
			if step%7 == 0 {
				back, err := ParseState(st.String())
				if err != nil || back.String() != st.String() {
					t.Fatalf("notation: %v\n%s", err, st)
				}
			}
			legal := st.AppendLegal(buf[:0])
			m := legal[rng.IntN(len(legal))]
			if err := st.Play(m); err != nil {
				t.Fatalf("listed move %s refused: %v\n%s", st.MoveText(m), err, st)
			}
		}
		invariants(t, st)
	}
}

// A state read back must be exactly as written: a changed space, a
// reordered list or a bad number is refused.
func TestStateNotationIsStrict(t *testing.T) {
	st, err := NewState(Config{Players: 3, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	text := st.String()
	if _, err := ParseState(text); err != nil {
		t.Fatal(err)
	}
	bad := []string{
		strings.Replace(text, "; ", ";  ", 1),
		strings.Replace(text, "druids 3", "druids 5", 1),
		strings.Replace(text, "step action", "step dance", 1),
		strings.Replace(text, "turns 0", "turns 00", 1),
		strings.Replace(text, "markers + + +", "markers + +", 1),
		strings.Replace(text, "seeds1 0 0 0", "seeds1 0 0", 1),
		text + "; extra",
		strings.Replace(text, "E@", "e@", 1) + "x",
		"",
		"druids",
	}
	for _, b := range bad {
		if _, err := ParseState(b); err == nil {
			t.Errorf("accepted %q", b)
		}
	}
}

func TestMoveNotation(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1E@1A")
	for _, text := range []string{"done", "yes", "no", "end", "eldrid", "acolyte", "side A", "side B", "move", "summon",
		"explore", "unravel", "use 14A", "use 27B", "1E@1A", "2a@14A", "4A@1A", "1A", "14A", "tile 5", "16,15", "0,31", "seed E", "seed D"} {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if back := s.MoveText(m); back != text {
			t.Errorf("%q reads back as %q", text, back)
		}
	}
	for _, text := range []string{"", "Done", "use 28A", "use 14", "1E@14B", "14B", "tile 1", "5E@1A", "1X@1A", "32,1", "1,-1", "seed X", "01A", "tile 05", " yes", "16, 15"} {
		if m, err := s.ParseMove(text); err == nil {
			t.Errorf("%q accepted as %d", text, m)
		}
	}
}

func FuzzParseState(f *testing.F) {
	for seed := range uint64(6) {
		cfg := Config{Players: 2 + int(seed%3), Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: seed}
		if seed >= 4 {
			cfg.Players, cfg.AJ = 2, int(seed)-3
		}
		st, _ := NewState(cfg)
		f.Add(st.String())
		rng := rand.New(rand.NewPCG(seed, 1))
		for range 40 {
			legal := st.AppendLegal(nil)
			st.PlayLegal(legal[rng.IntN(len(legal))])
		}
		f.Add(st.String())
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseState(text)
		if err != nil {
			return
		}
		if s.String() != text {
			t.Fatalf("reads back as %q", s.String())
		}
		// A state read back may be played on.
		if legal := s.AppendLegal(nil); len(legal) > 0 {
			if err := s.Play(legal[0]); err != nil {
				t.Fatalf("a listed move refused: %v", err)
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, m := range []string{"done", "use 14A", "1E@1A", "14A", "tile 5", "16,15", "seed E"} {
		f.Add(m)
	}
	s := pos(f, 2, line("1A 14A 21A"))
	f.Fuzz(func(t *testing.T, text string) {
		m, err := s.ParseMove(text)
		if err != nil {
			return
		}
		if back := s.MoveText(m); back != text {
			t.Fatalf("%q reads back as %q", text, back)
		}
	})
}

// stressFactor multiplies the random games of the property test; raise it
// for a longer hunt.
var stressFactor = 1
