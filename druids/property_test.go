package druids

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
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
	circleInvariants(t, s)
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

// circleInvariants checks each circle's druids: five a seat, on the world,
// AJ's slots holding their Eldrid only.
func circleInvariants(t testing.TB, s *State) {
	t.Helper()
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
		cfg := config{Players: 2 + g%3, Set: mustSet(sets[g%4]), Start: [3]int{-1, -1, -1}, Seed: uint64(g)}
		if g%4 == 3 {
			cfg.Players, cfg.AJ = 2, 1+g/4%5
		}
		st, err := newGame(cfg)
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
	st, err := newGame(config{Players: 3, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: 5})
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
		cfg := config{Players: 2 + int(seed%3), Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: seed}
		if seed >= 4 {
			cfg.Players, cfg.AJ = 2, int(seed)-3
		}
		st, _ := newGame(cfg)
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
		// A state read back may be played on, to the end, consistent at
		// every decision.
		if legal := s.AppendLegal(nil); len(legal) > 0 {
			if err := s.Play(legal[0]); err != nil {
				t.Fatalf("a listed move refused: %v", err)
			}
		}
		playsOn(t, s, rand.New(rand.NewPCG(uint64(len(text)), 1)))
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

// Texts that differ from a state the engine wrote by a number or a word are
// either refused or a state that plays on to the end, consistent at every
// decision: the parser must not let in registers, druids or AJ's bag that
// would later break the engine.
func TestMutatedStatesPlayOn(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var texts []string
	for seed := range uint64(8) {
		cfg := config{Players: 2 + int(seed%3), Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: seed}
		if seed%4 == 3 {
			cfg.Players, cfg.AJ = 2, 1+int(seed%5)
		}
		st, _ := newGame(cfg)
		for !st.Over() {
			texts = append(texts, st.String())
			legal := st.AppendLegal(nil)
			st.PlayLegal(legal[rng.IntN(len(legal))])
		}
	}
	mutations := 3000
	if testing.Short() {
		mutations = 300
	}
	read := 0
	for range mutations {
		fields := strings.Split(texts[rng.IntN(len(texts))], " ")
		for range 1 + rng.IntN(2) {
			k := rng.IntN(len(fields))
			if rng.IntN(2) == 0 {
				// A frame of the stack, if there is one.
				for j, w := range fields {
					if strings.Count(w, ":") == 11 {
						k = j
					}
				}
			}
			switch w := fields[k]; rng.IntN(3) {
			case 0:
				fields[k] = strconv.Itoa(rng.IntN(30) - 1)
			case 1:
				fields[k] = fields[rng.IntN(len(fields))]
			case 2:
				parts := strings.Split(w, ":")
				parts[rng.IntN(len(parts))] = strconv.Itoa(rng.IntN(30) - 1)
				fields[k] = strings.Join(parts, ":")
			}
		}
		text := strings.Join(fields, " ")
		s, err := ParseState(text)
		if err != nil {
			continue
		}
		read++
		playsOn(t, s, rng)
	}
	if read == 0 {
		t.Fatal("no mutated text was read")
	}
}

// playsOn plays s to its end at random: a choice at every decision, the
// druids where the engine's masks say, and an end within 5,000 decisions.
func playsOn(t *testing.T, s *State, rng *rand.Rand) {
	t.Helper()
	text := s.String()
	for n := 0; !s.Over(); n++ {
		legal := s.AppendLegal(nil)
		if len(legal) == 0 || n > 5000 {
			t.Fatalf("from %q: no choice (or no end) at %s", text, s)
		}
		s.PlayLegal(legal[rng.IntN(len(legal))])
		if err := s.consistent(); err != nil {
			t.Fatalf("from %q: %v at %s", text, err, s)
		}
	}
}

// Texts the checks before TestMutatedStatesPlayOn let in, each of which
// broke the engine later: a step with nothing to decide, Moon Gate's
// trigger with the Eldrid already on the board, AJ's Eldrids arrived
// without the havens that bring them.
func TestParseRefusesUnreachable(t *testing.T) {
	for _, text := range []string{
		"druids 4; first 0; active 0; step action; turns 26; ply 147; set 1-24; bag 1 3 4 5 6 7 8 11 13 15 17 19 21 22 23; world 2A@18,16 9A@16,17 10A@17,16 12A@15,17 14B@18,15 16A@16,16 18B@17,17 20B@16,18 24B@19,16; hand -; score1 -; score2 -; score3 -; score4 -; seeds1 0 0 0; seeds2 2 0 2; seeds3 1 0 1; seeds4 0 0 0; markers + - + +; druids1 e@10A a@24B; druids2 e@14B 3a@2A a@9A; druids3 e@14B A@2A 2a@10A; druids4 e@10A A@2A a@2A A@10A a@14B; used 4; unravels 0; refreshes 1; stack -; rng 7063673a0331142e91dd90fdf4087b9bcd3c7679",
		"druids 2; first 0; active 0; step action; turns 26; ply 200; set 1-24; bag 2 4 5 6 7 9 10 11 15 16 17; world 3A@14,17 8A@17,16 12B@16,16 13A@17,13 14A@15,16 18B@17,14 20B@15,17 21A@17,12 22B@14,18 23B@13,18 24A@16,15; hand -; score1 -; score2 1A 19A; seeds1 1 2 2; seeds2 1 0 0; markers + +; druids1 e@22B a@3A 2A@22B; druids2 E@supply a@3A a@14A a@20B; used 80000000000; unravels 0; refreshes 0; stack 24:0:0:0:0:-1:-1:-1:-1:0:65535:65535; rng 7063673acd978662d388a6b530ddf141d12df50d",
		"druids 2; aj acolyte arbitrary 0 0 0 1 2 2 2 3 2 5 3 4; first 0; active 0; step action; turns 24; ply 79; set 1-24; bag 4 14; world 3A@19,14 5A@17,13 7B@16,15 8A@19,13 9B@19,12 10B@16,16 12A@20,13 15A@17,14 16B@18,15 17B@18,14 20B@18,13 23B@17,15; hand -; score1 -; score2 1B 2B 6B 11B 13A 18B 19A 21A 22B 24B; seeds1 2 2 0; seeds2 2 1 4; markers + +; druids1 E@supply A@3A a@3A A@10B A@15A; druids2 e@3A; druids3 E@12A; druids4 E@9B; used 0; unravels 0; refreshes 3; stack 54:0:0:0:0:-1:-1:-1:-1:0:65535:65535; rng 7063673a2e796488192bd476a227db9928ad5700",
	} {
		if _, err := ParseState(text); err == nil {
			t.Errorf("accepted %q", text)
		}
	}
}

// Every move the notation can name that is not listed is refused, and the
// refusal leaves the state as it was: at decisions of random games on
// every player count and with AJ, each plain choice, each site's use, each
// druid on each site in play, each site and tile, each space round the
// world and each seed.
func TestRefusedMovesChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	refusedN := 0
	for g := range 6 {
		cfg := config{Players: 2 + g%3, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: uint64(100 + g)}
		if g == 5 {
			cfg.Players, cfg.AJ = 2, AJEldrid
		}
		st, err := newGame(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; !st.Over(); step++ {
			legal := legalText(st)
			if step%11 == 0 {
				before := st.String()
				for _, text := range candidateMoves(st) {
					m, err := st.ParseMove(text)
					if err != nil || slices.Contains(legal, text) {
						continue
					}
					refusedN++
					if st.Play(m) == nil {
						t.Fatalf("%s accepted, not listed in %v: %s", text, legal, before)
					}
					if st.String() != before {
						t.Fatalf("refusing %s changed the state:\n%s\n%s", text, before, st)
					}
				}
				if got := legalText(st); !slices.Equal(got, legal) {
					t.Fatalf("the refusals changed the choices %v to %v", legal, got)
				}
			}
			st.PlayLegal(st.AppendLegal(nil)[rng.IntN(len(legal))])
		}
	}
	t.Logf("%d refusals", refusedN)
	if refusedN < 10000 {
		t.Fatalf("only %d refusals tried", refusedN)
	}
}

// candidateMoves are texts of moves of every kind for state s.
func candidateMoves(s *State) []string {
	out := append([]string{}, plainMoves[:]...)
	for _, e := range "EVD" {
		out = append(out, "seed "+string(e))
	}
	for n := range NumSites {
		out = append(out, "use "+Sites[n].ID)
	}
	for tile := range NumTiles {
		out = append(out, "tile "+itoa(tile+1))
	}
	for tile := range NumTiles {
		if s.loc[tile] != locPlay && s.loc[tile] < locScore {
			continue
		}
		label := s.tileLabel(tile)
		out = append(out, label)
		if s.loc[tile] != locPlay {
			continue
		}
		for seat := range 4 {
			for _, k := range "EeAa" {
				out = append(out, itoa(seat+1)+string(k)+"@"+label)
			}
		}
		q, r := cellQR(int(s.cell[tile]))
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}, {2, 0}} {
			out = append(out, itoa(q+d[0])+","+itoa(r+d[1]))
		}
	}
	return out
}

// A refused state's error names what is wrong with it.
func TestStateErrorsNameTheFault(t *testing.T) {
	const text = "druids 2; first 0; active 0; step action; turns 0; ply 0; set 1-24; bag 2 3 4 5 6 7 8 9 10 11 12 13 15 16 17 18 19 20 22 23 24; world 1A@16,16 14A@17,16 21A@16,17; hand -; score1 -; score2 -; seeds1 0 0 0; seeds2 0 0 0; markers + +; druids1 E@1A; druids2 E@14A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a0331142e91dd90fdf4087b9bcd3c7679"
	if _, err := ParseState(text); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, want string }{
		{strings.Replace(text, "bag 2 3 ", "bag 3 ", 1), "tile 2 of the play set is nowhere"},
		{strings.Replace(text, "bag 2 3 ", "bag 1 2 3 ", 1), "tile 1 is both in the bag and elsewhere"},
		{strings.Replace(text, "score1 -", "score1", 1), `section "score1" has no value`},
		{strings.Replace(text, "score1 -", "seeds1 -", 1), `section "seeds1 -" where "score1" belongs`},
		{strings.Replace(text, "druids1 E@1A", "druids1 E@24B", 1), `druids1: "E@24B" stands on 24B, which is not in the world`},
		{strings.Replace(text, "druids2 E@14A", "druids2 E@14A X@1A", 1), `druids2: "X@1A" is not a druid`},
	} {
		_, err := ParseState(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}
