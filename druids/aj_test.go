package druids

import (
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// posAJ builds a position against AJ at a level: AJ's Eldrids are set
// with put as seats 2 to 4 ("2E@1A" is his Hare Eldrid, "3E@..." his Fern,
// "4E@..." his Mushroom).
func posAJ(t *testing.T, level int, world string) *State {
	t.Helper()
	s := pos(t, 2, world)
	s.aj = uint8(level)
	for k := 1; k <= 3; k++ {
		s.acoSup[k] = 0
	}
	s.tokens[2], s.tokens[3] = 4, 4
	return s
}

func putAJ(t *testing.T, s *State, druids ...string) {
	t.Helper()
	for _, d := range druids {
		put(t, s, d)
		s.acoSup[int(d[0]-'1')] = 0
	}
}

func ajEvents(s *State) []uint8 {
	var out []uint8
	for _, ev := range s.ajEvent[:s.ajEvents] {
		out = append(out, ev.kind)
	}
	return out
}

func TestAJSetup(t *testing.T) {
	st, err := newGame(config{Players: 2, Set: mustSet("regular"), Start: [3]int{site("1A"), site("14A"), site("21A")}, Seed: 1, AJ: AJInitiate})
	if err != nil {
		t.Fatal(err)
	}
	if got := druidsOf(st, 1); got != "E@1A" {
		t.Fatalf("AJ's druids %q", got)
	}
	if got := druidsOf(st, 2); got != "E@supply" {
		t.Fatalf("AJ's second Eldrid %q", got)
	}
	if st.tokens != [8]uint8{0, 0, 4, 4, 0, 0, 0, 0} || st.ToMove() != 0 {
		t.Fatalf("%s", st)
	}
	for _, bad := range []config{{Players: 3, AJ: AJInitiate}, {Players: 2, First: 1, AJ: AJAdept}} {
		bad.Set, bad.Start = mustSet("regular"), [3]int{-1, -1, -1}
		if _, err := newGame(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// AJ explores from the site of his with the most neighbours and an open
// space, next to two sites if he can, as far as he can from the player's
// druids; his Eldrid moves onto it and he gains its seed.
func TestAJExplores(t *testing.T) {
	s := posAJ(t, AJInitiate, line("1A 14A 21A 22A"))
	onlyInBag(s, 19)
	put(t, s, "1E@22A")
	putAJ(t, s, "2E@1A", "3E@14A")
	slot, tile := s.ajExplore(-1)
	if slot != 2 || tile != 18 {
		t.Fatalf("explored %d with slot %d", tile, slot)
	}
	at := s.tileLabel(tile)
	if got := siteAt(s, 11, 15) + siteAt(s, 10, 17); got != at {
		t.Fatalf("placed not at the farthest space with two neighbours: %s", s)
	}
	if druidsOf(s, 2) != "E@"+at || s.seedsHeld(ajSeat, s.energyOf(tile)) != 1 {
		t.Fatalf("%s", s)
	}
}

// With no open space by any of his sites, AJ moves an Eldrid a hex to the
// site with the most open spaces.
func TestAJLandlocked(t *testing.T) {
	s := posAJ(t, AJInitiate, "1A@11,16 14A@12,16 21A@10,16 2A@11,17 3A@11,15 5A@12,15 6A@10,17 22A@13,16")
	putAJ(t, s, "2E@1A")
	bag := s.bag
	slot, tile := s.ajExplore(-1)
	if slot != 1 || tile != -1 || s.bag != bag {
		t.Fatalf("explored")
	}
	at := druidsOf(s, 1)
	if at == "E@1A" || at == "E@14A" {
		t.Fatalf("moved to %q", at)
	}
}

// AJ unravels the site that costs him the fewest seeds, one the player
// stands on first; its druids go exhausted to the closest haven.
func TestAJUnravels(t *testing.T) {
	s := posAJ(t, AJInitiate, line("1A 14A 21A 22A 2A"))
	put(t, s, "1E@14A", "1A@1A")
	putAJ(t, s, "2E@21A")
	s.seeds[ajSeat][Deonin] = 2
	if !s.ajUnravel(-1, 3) {
		t.Fatal("no unravel")
	}
	if s.scoreArea(ajSeat) != 1<<0 || s.seeds[ajSeat][Deonin] != 0 {
		t.Fatalf("%s", s)
	}
	wantDruids(t, s, 0, "E@14A a@2A")
	// Without the seeds he cannot.
	s = posAJ(t, AJInitiate, line("1A 14A 21A 22A 2A"))
	putAJ(t, s, "2E@21A")
	s.seeds[ajSeat][Deonin] = 1
	if s.ajUnravel(-1, 3) {
		t.Fatal("unravelled without the energy")
	}
}

// At the Acolyte level the seeds AJ gives up lie on the site and still
// score for him.
func TestAJAcolyteKeepsSpentSeeds(t *testing.T) {
	s := posAJ(t, AJAcolyte, line("1A 14A 21A 22A 2A"))
	putAJ(t, s, "2E@21A")
	s.seeds[ajSeat][Deonin] = 2
	s.ajUnravel(-1, 3)
	if s.seeds[ajSeat][Deonin] != 0 || s.seedsHeld(ajSeat, Deonin) != 2 || s.Points(ajSeat, Deonin) != 2+2 {
		t.Fatalf("%s", s)
	}
}

func TestAJTokens(t *testing.T) {
	// Supporting (the Owl, the Hare's path): a seed of the energy with the
	// fewest sites.
	s := posAJ(t, AJInitiate, line("1A 14A 21A 22A 2A"))
	putAJ(t, s, "2E@14A")
	s.tokens = [8]uint8{3: 1}
	s.ajInvoke(1, site("14A")/2)
	if s.seeds[ajSeat] != [3]uint8{0, 0, 1} || s.tokens != [8]uint8{} {
		t.Fatalf("supporting: seeds %v", s.seeds[ajSeat])
	}
	// Active (the Hare itself): a free unravel with the explored site's
	// energy (14A, Vowelon: a Deonin site).
	s = posAJ(t, AJInitiate, line("1A 14A 21A 22A 2A 3A"))
	putAJ(t, s, "2E@14A")
	s.tokens = [8]uint8{2: 1}
	if !s.ajInvoke(1, site("14A")/2) || s.scoreArea(ajSeat) != 1<<2 {
		t.Fatalf("active: %s", s)
	}
	// Inactive (the Fern, whose Eldrid is in play): he explores with it.
	s = posAJ(t, AJInitiate, line("1A 14A 21A 22A 2A"))
	onlyInBag(s, 19)
	putAJ(t, s, "2E@14A", "3E@2A")
	s.tokens = [8]uint8{4: 1}
	s.ajInvoke(1, site("14A")/2)
	if !strings.HasPrefix(druidsOf(s, 2), "E@19") {
		t.Fatalf("inactive: %s", s)
	}
	// Dormant (the Turtle): the explored site moves next to the closest
	// locked site.
	s = posAJ(t, AJInitiate, line("1A 14A 21A 22A 2A"))
	putAJ(t, s, "2E@1A", "3E@2A")
	s.tokens = [8]uint8{5: 1}
	s.ajInvoke(1, site("2A")/2) // 2A, a leaf, next to the locked 22A
	s.world()
	if s.adj[1]&(1<<21) == 0 || s.cell[1] == int16(cellAt(14, 16)) {
		t.Fatalf("dormant: %s", s)
	}
	// Without an explore, active and dormant do nothing.
	s = posAJ(t, AJInitiate, line("1A 14A 21A"))
	putAJ(t, s, "2E@14A")
	s.tokens = [8]uint8{2: 1}
	if s.ajInvoke(1, -1) || !slices.Contains(ajEvents(s), evNothing) {
		t.Fatalf("%v", ajEvents(s))
	}
}

// The first two havens explored, by either side, bring AJ's other
// Eldrids, and their paths' tokens.
func TestAJHavensBringEldrids(t *testing.T) {
	s := posAJ(t, AJInitiate, line("1A 14A 21A"))
	onlyInBag(s, 2, 3, 5)
	put(t, s, "1E@1A", "1A@1A")
	putAJ(t, s, "2E@14A")
	play(t, s, "explore", "1E@1A", "side A", "9,16", "no") // 2A, 3A or 5A: all havens
	explored := siteAt(s, 9, 16)
	if druidsOf(s, 2) != "E@"+explored || s.tokens[4] != 4 || s.tokens[5] != 4 {
		t.Fatalf("%s", s)
	}
}

// A whole turn: the player ends the turn, AJ plays his and the player is
// to move again; the log says what AJ did.
func TestAJTurn(t *testing.T) {
	st, err := newGame(config{Players: 2, Set: mustSet("regular"), Start: [3]int{site("1A"), site("14A"), site("21A")}, Seed: 3, AJ: AJLegend})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := st.ParseMove("end")
	note := st.Note(m).(NoteView)
	passTurn(t, st)
	if st.ToMove() != 0 || st.Turn() != 2 || st.ajEvents == 0 {
		t.Fatalf("%s", st)
	}
	if len(note.AJ) == 0 || !strings.HasPrefix(note.AJ[0], "AJ explores") {
		t.Fatalf("note %+v", note)
	}
	v := st.View(gameViewer()).(StateView)
	if v.AJ == nil || v.AJ.Level != "legend" || len(v.AJ.LastTurn) == 0 {
		t.Fatalf("view %+v", v.AJ)
	}
}

// At the Initiate level AJ skips the Invoke step after an unravel.
func TestAJInitiateSkipsInvokeAfterUnravel(t *testing.T) {
	for seed := range uint64(40) {
		st, _ := newGame(config{Players: 2, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: seed, AJ: AJInitiate})
		for range 12 {
			passTurn(t, st)
			ev := ajEvents(st)
			if slices.Contains(ev, evUnravel) && slices.Contains(ev, evToken) && slices.Index(ev, evUnravel) < slices.Index(ev, evToken) {
				t.Fatalf("drew a token after unravelling: %v", ev)
			}
			if st.Over() {
				break
			}
		}
	}
}

// passTurn ends the player's turn as soon as it can: done with each step,
// end at the Action step.
func passTurn(t *testing.T, s *State) {
	t.Helper()
	turn := s.Turn()
	for s.Turn() == turn && !s.Over() {
		legal := legalText(s)
		switch {
		case slices.Contains(legal, "end"):
			play(t, s, "end")
		case slices.Contains(legal, "done"):
			play(t, s, "done")
		case slices.Contains(legal, "no"):
			play(t, s, "no")
		default:
			play(t, s, legal[0])
		}
	}
}

// At the Adept level, with three tiles or fewer in the bag, AJ does not
// unravel his favourite energy, and lays it when a side has it.
func TestAJAdeptSparesHisFavourite(t *testing.T) {
	for _, level := range []int{AJInitiate, AJAdept} {
		s := posAJ(t, level, line("1A 14A 21A 22A 2A"))
		onlyInBag(s, 19, 20)
		putAJ(t, s, "2E@21A")
		s.seeds[ajSeat] = [3]uint8{5, 0, 2}
		s.ajUnravel(-1, 3)
		want := uint32(1 << 0) // 1A, for two Deonin seeds
		if level == AJAdept {
			want = 1 << 1 // 2A, for three Elemeen: Elemeen is his favourite
		}
		if s.scoreArea(ajSeat) != want {
			t.Fatalf("level %s unravelled %b", AJLevels[level], s.scoreArea(ajSeat))
		}
	}
	s := posAJ(t, AJAdept, line("14A 21A 22A"))
	onlyInBag(s, 1, 19)
	s.seeds[ajSeat] = [3]uint8{5, 0, 0}
	for range 20 {
		if s.ajSide(0) != 0 { // 1A is Elemeen, 1B Vowelon
			t.Fatal("laid the side that is not his favourite")
		}
	}
}

// At the Eldrid level, with five tiles or fewer in the bag, AJ does not
// unravel when it would lower his score.
func TestAJEldridKeepsHisScore(t *testing.T) {
	for _, level := range []int{AJInitiate, AJEldrid} {
		s := posAJ(t, level, line("1A 14A 21A 22A 2A"))
		onlyInBag(s, 19, 20)
		putAJ(t, s, "2E@21A")
		s.seeds[ajSeat] = [3]uint8{5, 0, 2}
		if did := s.ajUnravel(-1, 3); did != (level == AJInitiate) {
			t.Fatalf("level %s unravelled: %v", AJLevels[level], did)
		}
	}
}

// At the Eldrid level with Elixona or Emilaphae in play, AJ ends his turn
// moving one of the player's druids to another site the player occupies,
// one on a trove last of all.
func TestAJEldridMovesThePlayer(t *testing.T) {
	s := posAJ(t, AJEldrid, line("19B 1A 14A 8B"))
	put(t, s, "1E@14A", "1A@8B")
	putAJ(t, s, "2E@1A")
	s.ajMovesPlayer()
	wantDruids(t, s, 0, "E@8B A@8B")
	s = posAJ(t, AJAdept, line("19B 1A 14A 8B"))
	put(t, s, "1E@14A", "1A@8B")
	s.ajMovesPlayer()
	wantDruids(t, s, 0, "E@14A A@8B")
}

// AJ never decides through the contract: Awakening Portal does not ask him.
func TestAJIsNotAskedByThePortal(t *testing.T) {
	s := posAJ(t, AJInitiate, line("24B 1A 14A 2A"))
	put(t, s, "1E@2A", "1A@1A", "1a@24B")
	putAJ(t, s, "2E@24B")
	s.setExhausted(mkDruid(1, true, false, site("24B")/2), true)
	s.seeds[0][Elemeen] = 3
	play(t, s, "unravel", "1E@2A")
	if s.ToMove() != 0 {
		t.Fatalf("seat %d asked", s.ToMove()+1)
	}
	play(t, s, "1a@24B")
	if s.ToMove() != 0 || s.depth != 0 {
		t.Fatalf("%s", s)
	}
}

// Shrewd, AJ settles a tie by the play best for his position: here the
// side that makes his seeds' energy dominate.
func TestAJShrewdSide(t *testing.T) {
	s := posAJ(t, AJInitiate, line("14A 21A 22A"))
	s.ajShrewd = true
	s.seeds[ajSeat] = [3]uint8{0, 3, 0}
	for range 20 {
		if s.ajSide(0) != 1 { // 1B is Vowelon
			t.Fatal("laid the side worse for him")
		}
	}
}

// At the Acolyte level AJ lays the explored site where it unlocks the
// locked site closest to his Eldrid, if it can.
func TestAJAcolyteUnlocks(t *testing.T) {
	// 14A (11,16) is locked: 1A (10,16) hangs on it. Of the spaces next
	// to 14A only 11,15 also touches 1A and 22A, closing a ring.
	for seed := range uint64(12) {
		s := posAJ(t, AJAcolyte, "1A@10,16 14A@11,16 21A@12,16 22A@12,15")
		s.rng.Seed(seed, seed)
		onlyInBag(s, 19)
		putAJ(t, s, "2E@14A")
		if !s.isLocked(13) {
			t.Fatal("14A not locked")
		}
		s.ajExplore(-1)
		if !strings.HasPrefix(siteAt(s, 11, 15), "19") || s.isLocked(13) {
			t.Fatalf("seed %d: %s", seed, s)
		}
	}
}

// At the Adept level, with Presence of Lagoon in play AJ draws two tokens
// a turn; with Destiny Helix in play he unravels twice, each for two
// energy.
func TestAJAdeptPresenceAndHelix(t *testing.T) {
	s := posAJ(t, AJAdept, line("27B 1A 14A 21A"))
	onlyInBag(s, 19, 20, 22, 23)
	put(t, s, "1E@27B")
	putAJ(t, s, "2E@1A")
	s.tokens = [8]uint8{3: 4} // Owls: supporting, a seed each
	s.ajTurn()
	tokens := 0
	for _, ev := range ajEvents(s) {
		if ev == evToken {
			tokens++
		}
	}
	if tokens != 2 {
		t.Fatalf("%d tokens drawn: %v", tokens, s.ajSteps())
	}
	// Helix: AJ on two Deonin sites (two energy) unravels two Elemeen
	// sites, no seed given up.
	s = posAJ(t, AJAdept, line("22A 21A 18A 3A 2A 1A")) // Elemeen at both ends
	onlyInBag(s, 19, 20, 23, 24)
	putAJ(t, s, "2E@21A", "3E@18A")
	if !s.ajUnravelStep() {
		t.Fatal("no unravel")
	}
	if n := bits.OnesCount32(s.scoreArea(ajSeat)); n != 2 {
		t.Fatalf("%d sites unravelled: %v", n, s.ajSteps())
	}
}

// Drawn tokens are set aside; from the Adept level an Inactive token goes
// back to the bag, from the Eldrid level an Active one too.
func TestAJTokensBackToTheBag(t *testing.T) {
	for _, c := range []struct {
		circle int    // the token drawn
		back   string // the lowest level at which it goes back
	}{
		{2, "eldrid"}, // the Hare: the exploring Eldrid's circle, Active
		{3, ""},       // the Owl: Supporting
		{4, "adept"},  // the Fern, whose Eldrid is in play: Inactive
		{5, ""},       // the Turtle: Dormant
	} {
		for level := AJInitiate; level <= AJLegend; level++ {
			s := posAJ(t, level, line("1A 14A 21A 22A 2A"))
			onlyInBag(s, 19)
			putAJ(t, s, "2E@14A", "3E@2A")
			s.tokens = [8]uint8{}
			s.tokens[c.circle] = 1
			s.ajInvoke(1, site("14A")/2)
			want := uint8(0)
			if c.back != "" && level >= slices.Index(AJLevels[:], c.back) {
				want = 1
			}
			if s.tokens[c.circle] != want {
				t.Errorf("level %s, token of circle %d: %d in the bag, want %d", AJLevels[level], c.circle, s.tokens[c.circle], want)
			}
		}
	}
}

// At the Legend level, a turn in which AJ unravels nothing ends with a
// second explore; below it, it does not.
func TestAJLegendExploresAgain(t *testing.T) {
	for _, level := range []int{AJEldrid, AJLegend} {
		s := posAJ(t, level, line("1A 14A 21A"))
		onlyInBag(s, 19, 20, 23)
		putAJ(t, s, "2E@14A")
		s.tokens = [8]uint8{3: 1} // Supporting: a seed, no unravel
		s.ajTurn()
		explores := 0
		for _, ev := range ajEvents(s) {
			if ev == evExplore {
				explores++
			}
			if ev == evUnravel {
				t.Fatalf("level %s: AJ unravelled: %v", AJLevels[level], ajEvents(s))
			}
		}
		if want := 1 + btoi(level == AJLegend); explores != want {
			t.Errorf("level %s: %d explores, want %d (%v)", AJLevels[level], explores, want, ajEvents(s))
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The seeds AJ gives up from the Acolyte level score for him but are in
// no supply: they do not count in destiny's tie-break by seeds.
func TestAJSpentSeedsAndDestiny(t *testing.T) {
	s := posAJ(t, AJAcolyte, line("1A 14A 21A")) // one site of each energy
	s.seeds[0] = [3]uint8{0, 1, 0}
	s.ajSpent = [3]uint8{0, 0, 3}
	if d := s.Destiny(); d.Draw || d.Energy != Vowelon {
		t.Fatalf("destiny %+v, want Vowelon by the seeds in the supplies", d)
	}
	if s.Points(ajSeat, Deonin) != 3 {
		t.Fatalf("AJ's points under Deonin %d, want 3", s.Points(ajSeat, Deonin))
	}
}

// AJ lays a side arbitrarily until the player has two sites unravelled;
// then not the side whose energy would give the player the most points.
func TestAJSideAvoidsThePlayersBest(t *testing.T) {
	s := posAJ(t, AJInitiate, line("14A 21A 22A"))
	s.seeds[0] = [3]uint8{2, 0, 0}
	scoreSites(s, 0, "2B") // one site: points E4 V4 D2, still arbitrary
	var sides [2]int
	for range 40 {
		sides[s.ajSide(0)]++
	}
	if sides[0] == 0 || sides[1] == 0 {
		t.Fatalf("with one site unravelled AJ laid sides %v", sides)
	}
	scoreSites(s, 0, "5B") // E6 V4 D2: not 1A, Elemeen
	for range 40 {
		if s.ajSide(0) != 1 {
			t.Fatal("AJ laid 1A, the side of the player's best energy")
		}
	}
}

// Which site AJ unravels: the energy that costs him the fewest seeds; in a
// tie, the site energy with the most sites in play; of its sites, not a
// trove if he can.
func TestAJUnravelChoice(t *testing.T) {
	// Two Vowelon sites give him two Vowelon: one seed more unravels the
	// Deonin 21A, where the Vowelon 19B would take three Elemeen seeds.
	s := posAJ(t, AJInitiate, line("21A 2A 14A 1A 19B"))
	putAJ(t, s, "2E@2A", "3E@14A")
	s.seeds[ajSeat] = [3]uint8{3, 1, 0}
	if !s.ajUnravel(-1, 3) || s.scoreArea(ajSeat) != 1<<20 || s.seeds[ajSeat] != [3]uint8{3, 0, 0} {
		t.Fatalf("fewest seeds: %s", s)
	}
	// Three seeds either way: the energy with more sites in play goes.
	for _, c := range []struct{ world, want string }{
		{"21A 15A 2A 14A 19B", "19B"}, // Deonin 2, Vowelon 3
		{"21A 15A 3A 14A 19B", "21A"}, // Deonin 3, Vowelon 2
	} {
		s = posAJ(t, AJInitiate, line(c.world))
		putAJ(t, s, "2E@15A")
		s.seeds[ajSeat] = [3]uint8{3, 3, 0}
		if !s.ajUnravel(-1, 3) || s.scoreArea(ajSeat) != 1<<(site(c.want)/2) {
			t.Fatalf("%s: unravelled %b, want %s", c.world, s.scoreArea(ajSeat), c.want)
		}
	}
	// Of two Vowelon sites, the ally rather than the trove.
	for seed := range uint64(8) {
		s = posAJ(t, AJInitiate, line("4B 1A 2A 14A 19B"))
		s.rng.Seed(seed, seed)
		putAJ(t, s, "2E@1A")
		s.seeds[ajSeat] = [3]uint8{2, 0, 0}
		if !s.ajUnravel(-1, 3) || s.scoreArea(ajSeat) != 1<<18 {
			t.Fatalf("seed %d: unravelled %b, want 19B, not the trove 4B", seed, s.scoreArea(ajSeat))
		}
	}
}

// Supporting: a seed of the energy with the fewest sites in play; when
// energies tie for the fewest, the explored site's energy if it is one of
// them, else the first of Elemeen, Vowelon, Deonin.
func TestAJSupportingSeedTie(t *testing.T) {
	for _, c := range []struct {
		world    string
		explored string // "" when AJ did not explore
		want     [3]uint8
	}{
		{"1A 14A 21A", "14A", [3]uint8{0, 1, 0}},     // a tie of three: the explored Vowelon
		{"1A 14A 21A", "", [3]uint8{1, 0, 0}},        // no explore: Elemeen first
		{"1A 14A 21A 22A", "14A", [3]uint8{0, 1, 0}}, // Vowelon and Deonin fewest: the explored
		{"1A 14A 21A 22A", "1A", [3]uint8{0, 1, 0}},  // the explored Elemeen is not among them
	} {
		s := posAJ(t, AJInitiate, line(c.world))
		at := "2E@1A"
		if c.explored != "" {
			at = "2E@" + c.explored
		}
		putAJ(t, s, at)
		s.tokens = [8]uint8{3: 1} // the Owl: Supporting for the Hare
		explored := -1
		if c.explored != "" {
			explored = site(c.explored) / 2
		}
		s.ajInvoke(1, explored)
		if s.seeds[ajSeat] != c.want {
			t.Errorf("%s, explored %q: seeds %v, want %v", c.world, c.explored, s.seeds[ajSeat], c.want)
		}
	}
}

// A Dormant token moves the site AJ explored next to as many other sites
// as can be: the site is not its own neighbour. Here 17A, just explored
// beside 20B, has three sites around 15,18 (counting itself, four) and
// four around 17,17.
func TestAJDormantCountsOtherSites(t *testing.T) {
	const before = "druids 2; aj initiate arbitrary 1 0 0 4 2 4 4 0 0 0 0 0; first 0; active 0; step action; turns 10; ply 18; set 1-24; bag 1 2 4 7 8 9 13 14 15 17 19 21 23 24; world 5B@16,18 6A@17,18 10B@16,19 12B@16,17 16A@15,17 20B@17,16 22B@16,16; hand -; score1 -; score2 3B 11A 18A; seeds1 0 1 1; seeds2 1 0 1; markers + +; druids1 E@6A; druids2 E@16A; druids3 E@10B; druids4 E@supply; used 0; unravels 0; refreshes 0; stack -; rng 7063673a67784a104d4070df1134a1919fc790b2"
	s, err := ParseState(before)
	if err != nil {
		t.Fatal(err)
	}
	play(t, s, "end")
	if !strings.Contains(s.String(), " 17A@17,17 ") {
		t.Errorf("17A not moved to 17,17, next to four other sites: %s", s)
	}
}
