package druids

import (
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

func TestPlaySets(t *testing.T) {
	for name, want := range map[string]int{"beginner": 21, "regular": 24, "advanced": 24, "all": 27, "1-6,10-15": 12} {
		set, err := ParseSet(name)
		if err != nil || len(set) != want {
			t.Errorf("%s: %d tiles, %v; want %d", name, len(set), err, want)
		}
	}
	adv, _ := ParseSet("advanced")
	if slices.Contains(adv, 7) || slices.Contains(adv, 9) || !slices.Contains(adv, 27) {
		t.Errorf("advanced: %v", adv)
	}
	for _, bad := range []string{"1-5", "0-24", "1-28", "1-3,3", "x", "", "1-2"} {
		if _, err := ParseSet(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestStarts(t *testing.T) {
	for name, want := range Starts {
		start, err := ParseStart(name)
		if err != nil {
			t.Fatal(err)
		}
		set, _ := ParseSet("all")
		st, err := newGame(config{Players: 3, Set: set, Start: start, Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var ids []string
		eachTile(st.inPlay, func(t int) { ids = append(ids, st.tileLabel(t)) })
		if strings.Join(ids, " ") != want {
			t.Errorf("%s: world %v, want %s", name, ids, want)
		}
	}
	for _, bad := range []string{"1A 2A 21A", "1A 14A 14B", "1A 14A", "14A 21A 18B", "1A 14A 22B"} {
		start, err := ParseStart(bad)
		if err == nil {
			err = checkStart(start, 1<<NumTiles-1)
		}
		if err == nil {
			t.Errorf("start %q accepted", bad)
		}
	}
	set, _ := ParseSet("beginner")
	if _, err := newGame(config{Players: 2, Set: set, Start: [3]int{site("1A"), site("14A"), site("22A")}}); err == nil {
		t.Error("a start with a tile out of the play set accepted")
	}
}

// The starting tiles touch pairwise; each circle sets its Eldrid and an
// acolyte on the haven, refreshed; the other tiles are in the bag.
func TestSetup(t *testing.T) {
	for seed := range uint64(300) {
		names := []string{"beginner", "regular", "advanced", "all"}
		set, _ := ParseSet(names[seed%4])
		players := 2 + int(seed%3)
		st, err := newGame(config{Players: players, Set: set, Start: [3]int{-1, -1, -1}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if bits.OnesCount32(st.inPlay) != 3 || bits.OnesCount32(st.bag) != len(set)-3 {
			t.Fatalf("seed %d: %s", seed, st)
		}
		havens := 0
		var energies [NumEnergies]int
		eachTile(st.inPlay, func(t int) {
			if bits.OnesCount32(st.adjacent(t)) != 2 {
				t2 := st.tileLabel(t)
				panic(t2)
			}
			if Sites[st.siteIn(t)].Type == Haven {
				havens++
			}
			energies[st.energyOf(t)]++
		})
		if havens != 1 || energies != [NumEnergies]int{1, 1, 1} {
			t.Fatalf("seed %d: %s", seed, st)
		}
		h := bits.TrailingZeros32(st.havens())
		for p := range players {
			if got := druidsOf(st, p); got != "E@"+st.tileLabel(h)+" A@"+st.tileLabel(h) {
				t.Fatalf("seat %d druids %q", p, got)
			}
		}
		if st.ToMove() != 0 || st.step != stepAction {
			t.Fatalf("the first turn is not at its Action step: %s", st)
		}
	}
}

func TestBasicMoveIsOneHex(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	put(t, s, "1E@1A", "1A@21A")
	play(t, s, "move")
	legalIs(t, s, "1E@1A", "1A@21A")
	play(t, s, "1E@1A")
	legalIs(t, s, "14A")
	play(t, s, "14A")
	if got := druidsOf(s, 0); got != "e@14A A@21A" {
		t.Fatalf("druids %q", got)
	}
}

func TestSummon(t *testing.T) {
	s := pos(t, 2, line("1A 14A 2A"))
	put(t, s, "1E@14A", "1A@14A")
	play(t, s, "summon", "1A@14A")
	legalIs(t, s, "1A", "2A") // the Eldrid is on the board: an acolyte comes
	play(t, s, "2A")
	if got := druidsOf(s, 0); got != "E@14A a@2A a@14A" {
		t.Fatalf("druids %q", got)
	}
	s = pos(t, 2, line("1A 14A 2A"))
	put(t, s, "1A@14A")
	play(t, s, "summon", "1A@14A")
	legalIs(t, s, "eldrid", "acolyte")
	play(t, s, "eldrid", "1A")
	if got := druidsOf(s, 0); got != "e@1A a@14A" {
		t.Fatalf("druids %q", got)
	}
}

// onlyInBag leaves in the bag only the given tiles (numbers); the others
// leave the play set.
func onlyInBag(s *State, tiles ...int) {
	for t := range NumTiles {
		if s.loc[t] == locBag && !slices.Contains(tiles, t+1) {
			s.loc[t] = locOut
			s.set &^= 1 << t
			s.bag &^= 1 << t
		}
	}
}

func TestExplore(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	onlyInBag(s, 19, 20)
	put(t, s, "1E@1A", "1A@21A")
	play(t, s, "explore")
	legalIs(t, s, "1E@1A", "1A@21A")
	play(t, s, "1E@1A")
	if !s.marker[0] {
		t.Fatal("the marker is not exhausted")
	}
	legalIs(t, s, "side A", "side B")
	play(t, s, "side A")
	// The five empty spaces around 1A at 10,16.
	legalIs(t, s, "9,16", "10,15", "11,15", "9,17", "10,17")
	play(t, s, "10,15")
	drawn := siteAt(s, 10, 15)
	if drawn != "19A" && drawn != "20A" {
		t.Fatalf("explored %q", drawn)
	}
	if e := Sites[site(drawn)].Energy; s.seeds[0][e] != 1 {
		t.Fatalf("seeds %v", s.seeds[0])
	}
	legalIs(t, s, "yes", "no")
	play(t, s, "yes")
	if got := druidsOf(s, 0); got != "e@"+drawn+" A@21A" {
		t.Fatalf("druids %q", got)
	}
	refused(t, s, "explore") // the marker is exhausted: once a turn
}

// A druid whose site has no empty neighbour cannot explore.
func TestExploreNeedsASpace(t *testing.T) {
	// 1A at 11,16 surrounded by six sites.
	s := pos(t, 2, "1A@11,16 14A@12,16 21A@10,16 2A@11,17 3A@11,15 5A@12,15 6A@10,17")
	put(t, s, "1E@1A")
	refused(t, s, "explore")
	put(t, s, "1A@14A")
	play(t, s, "explore")
	legalIs(t, s, "1A@14A")
}

// With no refreshed druid left after an action, the Action step ends.
func TestActionStepEndsWithoutRefreshedDruid(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	put(t, s, "1E@1A", "2E@21A")
	play(t, s, "move", "1E@1A", "14A")
	if s.active != 1 || s.Turn() != 1 {
		t.Fatalf("the turn did not pass: %s", s)
	}
}

func TestRefreshStep(t *testing.T) {
	for _, mani := range []bool{false, true} {
		world := line("1A 14A 21A")
		if mani {
			world = line("1A 14A 21A 19A")
		}
		s := pos(t, 2, world)
		put(t, s, "1e@1A", "1a@14A", "1a@14A", "1a@21A", "2E@1A")
		if mani {
			put(t, s, "1a@19A")
		}
		s.marker[0] = true
		s.step = stepBegin
		s.advance()
		if s.step != stepRefresh || s.marker[0] {
			t.Fatalf("not at the Refresh step with the marker refreshed: %s", s)
		}
		play(t, s, "1e@1A", "1a@14A", "1a@14A")
		if !mani {
			if s.step != stepAction {
				t.Fatalf("a fourth refresh offered: %v", legalText(s))
			}
			continue
		}
		play(t, s, "1a@21A")
		if s.step != stepAction || druidsOf(s, 0) != "E@1A 2A@14A a@19A A@21A" {
			t.Fatalf("Mani Temple: %s", druidsOf(s, 0))
		}
	}
}

func TestRefreshMayStopEarly(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1e@1A", "1a@14A")
	s.step = stepBegin
	s.advance()
	play(t, s, "1a@14A", "done")
	if s.step != stepAction || druidsOf(s, 0) != "e@1A A@14A" {
		t.Fatalf("%s", s)
	}
}

// Unravelling a Vowelon site takes three Elemeen: one from each Elemeen
// site the circle occupies, seeds only for what is missing.
func TestUnravelEnergyAndSteps(t *testing.T) {
	world := line("21B 1A 14A") // E, E haven, V (a leaf: unlocked)
	s := pos(t, 2, world)
	put(t, s, "1E@14A", "1A@1A", "1A@21B", "2A@14A")
	refused(t, s, "unravel") // two Elemeen, no seed
	s.seeds[0][Elemeen] = 2
	play(t, s, "unravel")
	legalIs(t, s, "1E@14A")
	play(t, s, "1E@14A")
	if s.seeds[0][Elemeen] != 1 {
		t.Fatalf("paid %d seeds, want 1", 2-s.seeds[0][Elemeen])
	}
	if got := druidsOf(s, 0); got != "E@supply A@1A A@21B" {
		t.Fatalf("seat 1: %q", got)
	}
	if got := druidsOf(s, 1); got != "E@supply a@1A" { // exhausted, moved to the only haven
		t.Fatalf("seat 2: %q", got)
	}
	if s.scoreArea(0) != 1<<13 || s.inPlay>>13&1 != 0 {
		t.Fatalf("14A not in the score area: %s", s)
	}
}

func TestUnravelDruidsGoToHavensOfChoice(t *testing.T) {
	s := pos(t, 2, line("2A 1A 14A 21B")) // 21B (E) is a leaf; Deonin threatens it
	put(t, s, "1E@21B", "1A@14A", "2A@21B", "2E@21B")
	s.seeds[0][Deonin] = 3
	play(t, s, "unravel", "1E@21B")
	if s.ToMove() != 0 {
		t.Fatal("the unraveller does not place the druids")
	}
	legalIs(t, s, "1A", "2A")
	play(t, s, "2A", "1A") // seat 2's Eldrid, then its acolyte
	if got := druidsOf(s, 1); got != "e@2A a@1A" {
		t.Fatalf("seat 2: %q", got)
	}
	if s.seeds[0][Deonin] != 0 {
		t.Fatalf("seeds %v", s.seeds[0])
	}
}

func TestLockedAndSoleHavenCannotBeUnravelled(t *testing.T) {
	s := pos(t, 2, line("14A 21B 1A")) // 21B in the middle: locked
	put(t, s, "1E@21B", "1A@14A")
	s.seeds[0][Deonin] = 3
	if !s.isLocked(site("21B") / 2) {
		t.Fatal("21B not locked")
	}
	refused(t, s, "unravel")
	s = pos(t, 2, line("1A 14A")) // 1A a leaf but the only haven
	put(t, s, "1E@1A")
	s.seeds[0][Deonin] = 3
	refused(t, s, "unravel")
	s = pos(t, 2, line("1A 14A 2A")) // two havens: 1A may go
	put(t, s, "1E@1A")
	s.seeds[0][Deonin] = 3
	offers(t, s, "unravel")
}

func TestLockedSites(t *testing.T) {
	// A ring of six around an empty centre: none locked; a line: the
	// middle ones.
	s := pos(t, 2, "1A@11,15 14A@12,15 21A@12,16 2A@11,17 3A@10,17 5A@10,16")
	if s.isLocked(0) || s.locked != 0 {
		t.Fatalf("ring: locked %b", s.locked)
	}
	s = pos(t, 2, line("1A 14A 21A 2A"))
	s.world()
	if s.locked != 1<<13|1<<20 {
		t.Fatalf("line: locked %b", s.locked)
	}
}

func TestAncientAddsEnergyOnceATurn(t *testing.T) {
	// 19B (Vowelon, a leaf) needs three Elemeen: 7A gives one, and once a
	// turn one more; a seed makes the third.
	s := pos(t, 2, line("1A 7A 14A 19B"))
	put(t, s, "1E@19B", "1A@7A", "1A@14A")
	s.seeds[0][Elemeen] = 1
	play(t, s, "unravel", "1E@19B")
	legalIs(t, s, "yes") // without the Ancient the seeds are short
	play(t, s, "yes")
	if s.seeds[0][Elemeen] != 0 || s.scoreArea(0) != 1<<18 {
		t.Fatalf("%s", s)
	}
	// Once a turn: a second Vowelon now takes two seeds.
	s.seeds[0][Elemeen] = 1
	refused(t, s, "unravel")
	s.seeds[0][Elemeen] = 2
	play(t, s, "unravel", "1A@14A")
	if s.seeds[0][Elemeen] != 0 {
		t.Fatalf("seeds %v", s.seeds[0])
	}
	// With seeds enough, using the Ancient is a choice.
	s = pos(t, 2, line("1A 7A 14A 19B"))
	put(t, s, "1E@19B", "1A@7A")
	s.seeds[0][Elemeen] = 2
	play(t, s, "unravel", "1E@19B")
	legalIs(t, s, "yes", "no")
	play(t, s, "no")
	if s.seeds[0][Elemeen] != 0 || s.isUsed(site("7A")) {
		t.Fatalf("%s", s)
	}
}

func TestHotSpringKeepsTheUnraveller(t *testing.T) {
	s := pos(t, 2, line("4A 1A 14A"))
	put(t, s, "1E@14A", "1A@4A", "1A@1A")
	s.seeds[0][Elemeen] = 1
	play(t, s, "unravel", "1E@14A")
	legalIs(t, s, "no", "4A", "1A")
	play(t, s, "4A")
	if got := druidsOf(s, 0); got != "e@4A A@1A A@4A" {
		t.Fatalf("druids %q", got)
	}
}

func TestAwakeningPortalInOrderFromTheLeft(t *testing.T) {
	s := pos(t, 3, line("24B 1A 14A 2A"))
	put(t, s, "1E@2A", "1A@1A", "1a@24B", "2a@24B", "3a@24B", "3a@1A", "2a@1A")
	s.seeds[0][Vowelon] = 3 // 2A is Vowelon: three Elemeen... 2A needs Elemeen
	s.seeds[0][Elemeen] = 3
	play(t, s, "unravel", "1E@2A")
	if s.ToMove() != 1 {
		t.Fatalf("seat 2 decides first, not %d", s.ToMove()+1)
	}
	legalIs(t, s, "2a@1A", "2a@24B", "done")
	play(t, s, "2a@1A")
	if s.ToMove() != 2 {
		t.Fatalf("then seat 3, not %d", s.ToMove()+1)
	}
	play(t, s, "done")
	if s.ToMove() != 0 {
		t.Fatalf("then seat 1, not %d", s.ToMove()+1)
	}
	play(t, s, "1a@24B")
	if got := druidsOf(s, 0); got != "E@supply A@1A A@24B" {
		t.Fatalf("seat 1: %q", got)
	}
	// Only the first unravel of a turn.
	s.seeds[0][Elemeen] = 3
	if s.unravels != 1 {
		t.Fatalf("unravels %d", s.unravels)
	}
}

func TestDestinyHelixNeedsNoEnergy(t *testing.T) {
	s := pos(t, 2, line("18A 1A 14A"))
	put(t, s, "1E@14A", "1A@18A")
	play(t, s, "use 18A", "1E@14A")
	if s.scoreArea(0) != 1<<13 {
		t.Fatalf("%s", s)
	}
	refused(t, s, "use 18A")
}

// The game ends after the turn in which the last tile was explored.
func TestGameEndsAfterTheLastExploreTurn(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	onlyInBag(s, 19)
	put(t, s, "1E@1A", "1A@21A", "2E@1A")
	play(t, s, "explore", "1E@1A", "side A", "10,15", "no")
	if s.Over() || s.ToMove() != 0 {
		t.Fatal("the game ended before the turn did")
	}
	play(t, s, "end")
	if !s.Over() || s.ToMove() != game.NoSeat || len(s.AppendLegal(nil)) != 0 {
		t.Fatalf("not over: %s", s)
	}
}

func TestDestiny(t *testing.T) {
	cases := []struct {
		world string
		seeds [NumEnergies]uint8
		want  string
	}{
		{line("1A 14A 21A 22A"), [3]uint8{}, "Elemeen"},          // E 2
		{line("1A 14A 21A 22A 2A"), [3]uint8{}, "Elemeen"},       // E=V: Elemeen threatens Vowelon
		{line("1A 14A 21A 2A 22A 3A 15A"), [3]uint8{}, "Deonin"}, // E 2, V 2, D 3
		{line("14A 21A 2A 3A"), [3]uint8{}, "Vowelon"},           // V=D: Vowelon threatens Deonin
		{line("1A 21A 22A 3A"), [3]uint8{}, "Deonin"},            // E=D: Deonin threatens Elemeen
		{line("1A 14A 21A"), [3]uint8{0, 0, 1}, "Deonin"},        // all tied: seeds
		{line("1A 14A 21A"), [3]uint8{1, 1, 0}, "Elemeen"},       // seeds tied E=V: swirl
		{line("1A 14A 21A"), [3]uint8{2, 2, 2}, "draw"},
	}
	for _, c := range cases {
		s := pos(t, 2, c.world)
		s.seeds[1] = c.seeds
		d := s.Destiny()
		got := "draw"
		if !d.Draw {
			got = EnergyNames[d.Energy]
		}
		if got != c.want {
			t.Errorf("%s seeds %v: %s, want %s", c.world, c.seeds, got, c.want)
		}
	}
}

// scoreSites sets sites into seat p's score area.
func scoreSites(s *State, p int, ids ...string) {
	for _, id := range ids {
		n := site(id)
		t := n / 2
		s.bag &^= 1 << t
		s.loc[t] = uint8(locScore + p)
		s.side[t] = uint8(n % 2)
	}
}

// The rulebook's scoring example: Vowelon dominates; Colette scores 17 and
// Steve 7; had Elemeen dominated, Steve would have won 15 to 9.
func TestScoringExample(t *testing.T) {
	s := pos(t, 2, line("14A 16B 17A"))
	s.seeds[0] = [3]uint8{3, 5, 0}
	scoreSites(s, 0, "1A", "3B", "4A", "2B", "5B", "6A") // three Elemeen, three Deonin
	s.seeds[1] = [3]uint8{3, 1, 0}
	scoreSites(s, 1, "7B", "10B", "13B", "8B", "11B", "15A") // three Vowelon, three Deonin
	if d := s.Destiny(); d.Draw || d.Energy != Vowelon {
		t.Fatalf("destiny %+v", d)
	}
	if got := s.Standing().Scores; !slices.Equal(got, []int{17, 7}) {
		t.Fatalf("scores %v, want 17 7", got)
	}
	if s.Points(0, Elemeen) != 9 || s.Points(1, Elemeen) != 15 {
		t.Fatalf("under Elemeen %d and %d, want 9 and 15", s.Points(0, Elemeen), s.Points(1, Elemeen))
	}
	s.step = stepOver
	if w := s.Standing().Winners; !slices.Equal(w, []int{0}) {
		t.Fatalf("winners %v", w)
	}
}

func TestPlayerTieBreak(t *testing.T) {
	s := pos(t, 2, line("1A 21B 14A")) // Elemeen dominates
	s.seeds[0] = [3]uint8{2, 0, 0}
	scoreSites(s, 0, "8B")             // 2 + 2 = 4; tie-break 2 - 0
	scoreSites(s, 1, "2B", "3B", "5B") // 2 + 0 + 2 = 4; tie-break 0 - 1
	s.step = stepOver
	if sc := s.Standing().Scores; !slices.Equal(sc, []int{4, 4}) {
		t.Fatalf("scores %v", sc)
	}
	if w := s.Winners(); !slices.Equal(w, []int{0}) {
		t.Fatalf("winners %v", w)
	}
}

func TestSharedVictoryAndDraw(t *testing.T) {
	s := pos(t, 2, line("1A 21B 14A"))
	s.seeds[0] = [3]uint8{1, 0, 0}
	s.seeds[1] = [3]uint8{1, 0, 0}
	s.step = stepOver
	if w := s.Winners(); !slices.Equal(w, []int{0, 1}) {
		t.Fatalf("winners %v", w)
	}
	s = pos(t, 3, line("1A 14A 21A"))
	s.seeds[0] = [3]uint8{1, 1, 1}
	s.step = stepOver
	if w := s.Winners(); !slices.Equal(w, []int{0, 1, 2}) {
		t.Fatalf("a draw's winners %v", w)
	}
}

func TestTeamsScoreTogether(t *testing.T) {
	s := pos(t, 4, line("1A 21B 14A"))
	s.seeds[0] = [3]uint8{3, 0, 0}
	s.seeds[1] = [3]uint8{4, 0, 0}
	s.seeds[2] = [3]uint8{2, 0, 0}
	s.seeds[3] = [3]uint8{0, 0, 0}
	s.step = stepOver
	st := s.Standing()
	if !slices.Equal(st.Winners, []int{0, 2}) || len(st.Teams) != 2 {
		t.Fatalf("standing %+v", st)
	}
}

// A circle with no druid on the board sets one on a haven at its Refresh
// step (our rule: see docs/druids.md), and may refresh it at once.
func TestLostCircleReturns(t *testing.T) {
	s := pos(t, 2, line("1A 14A 2A"))
	put(t, s, "2E@1A")
	s.step = stepBegin
	s.advance()
	if s.ToMove() != 0 || s.asking() != "return to the world" {
		t.Fatalf("%s asks %q", s, s.asking())
	}
	legalIs(t, s, "1A", "2A")
	play(t, s, "2A")
	legalIs(t, s, "1e@2A", "done")
	play(t, s, "1e@2A")
	wantDruids(t, s, 0, "E@2A")
	if s.step != stepAction {
		t.Fatalf("step %s", stepNames[s.step])
	}
}

// A site placed on the grid's border shifts the world back to the middle,
// neighbours kept.
func TestWorldRecentres(t *testing.T) {
	s := pos(t, 2, "1A@30,16 14A@29,16")
	onlyInBag(s, 19)
	put(t, s, "1E@1A")
	play(t, s, "explore", "1E@1A", "side A", "31,16")
	s.world()
	if bits.OnesCount32(s.inPlay) != 3 || s.adj[0] != 1<<13|1<<18 {
		t.Fatalf("%s", s)
	}
	eachTile(s.inPlay, func(tile int) {
		q, r := cellQR(int(s.cell[tile]))
		if q < 8 || q > 24 || r != 15 {
			t.Fatalf("not recentred: %s", s)
		}
	})
	invariants(t, s)
}

// Chaos Manifold puts a tile back: the game goes on until the bag empties
// again.
func TestChaosManifoldDelaysTheEnd(t *testing.T) {
	s := pos(t, 2, line("26B 1A 14A 21A"))
	onlyInBag(s, 19)
	put(t, s, "1E@26B", "1A@1A")
	play(t, s, "use 26B", "1E@26B", "21A", "side A", "9,16", "end")
	if s.Over() || s.bag == 0 {
		t.Fatalf("over with a tile in the bag: %s", s)
	}
}

// Four players are two teams seated alternately: turns go from team to
// team.
func TestFourPlayersAlternateTeams(t *testing.T) {
	st, err := newGame(config{Players: 4, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	teams := st.Teams()
	if len(teams) != 2 || !slices.Equal(teams[0], []int{0, 2}) || !slices.Equal(teams[1], []int{1, 3}) {
		t.Fatalf("teams %v", teams)
	}
	for want := 1; want <= 3; want++ {
		play(t, st, "end")
		if st.ToMove() != want {
			t.Fatalf("seat %d after an ended turn, want %d", st.ToMove(), want)
		}
	}
}

func TestNoteTellsTheDraw(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	onlyInBag(s, 19)
	put(t, s, "1E@1A", "2E@1A")
	play(t, s, "explore")
	m, _ := s.ParseMove("1E@1A")
	note := s.Note(m).(NoteView)
	if !slices.Equal(note.Drew, []int{19}) || note.EndsTurn || note.Seat != 0 {
		t.Fatalf("note %+v", note)
	}
	if s.bag == 0 {
		t.Fatal("Note changed the state")
	}
	play(t, s, "1E@1A", "side A", "9,16")
	m, _ = s.ParseMove("no")
	if note := s.Note(m).(NoteView); !note.EndsTurn || !note.EndsGame {
		t.Fatalf("note %+v", note)
	}
}

// The view names the action being resolved, its invoker and its site.
func TestViewResolving(t *testing.T) {
	s := pos(t, 2, line("6A 14A 21A"))
	put(t, s, "1E@6A", "2a@21A")
	play(t, s, "use 6A", "1E@6A")
	v := s.View(gameViewer()).(StateView)
	if len(v.Resolving) != 1 || v.Resolving[0].Action != "Neilym's Hermitage" || v.Resolving[0].Invoker != "1e@6A" || v.Resolving[0].Site != "6A" {
		t.Fatalf("resolving %+v", v.Resolving)
	}
	if !slices.Equal(v.Legal, []string{"21A"}) || v.ToMove != 0 || v.Bag != 24 {
		t.Fatalf("view %+v", v)
	}
}

// A circle shares the magic of every site it occupies: a site's invoked
// action may be invoked by any refreshed druid of the circle on the board,
// while a druid of the circle, refreshed or exhausted, stands on the site;
// an Eldrid invoke by the Eldrid wherever it stands, an acolyte on the site
// sharing it. A site only another circle occupies offers nothing.
func TestSiteMagicIsShared(t *testing.T) {
	// 2A (invoke) and 14A (Eldrid invoke) held by exhausted acolytes; the
	// refreshed Eldrid on 21A; 6A held by seat 2 only.
	s := pos(t, 2, line("2A 14A 21A 6A"))
	put(t, s, "1a@2A", "1a@14A", "1E@21A", "2A@6A")
	legalIs(t, s, "move", "summon", "explore", "use 2A", "use 14A", "end")
	play(t, s, "use 14A")
	legalIs(t, s, "1E@21A")
	play(t, s, "1E@21A", "6A")
	wantDruids(t, s, 0, "e@6A a@2A a@14A")
	// Seat 1's druids are all exhausted now: its Action step is over.
	if s.active != 1 {
		t.Fatalf("the turn did not pass: %s", s)
	}

	s = pos(t, 2, line("2A 14A 21A"))
	put(t, s, "1a@2A", "1A@21A")
	play(t, s, "use 2A")
	legalIs(t, s, "1A@21A") // the only refreshed druid, away from the site
	play(t, s, "1A@21A")
	legalIs(t, s, "1a@2A", "1a@21A") // either state may be the target
}

// Each site the circle occupies gives one energy, however many of its
// druids stand there and whether they are refreshed or exhausted; seeds
// make up only the shortfall.
func TestEnergyOncePerSite(t *testing.T) {
	s := pos(t, 2, line("21B 1A 14A")) // E, E haven, V (a leaf)
	put(t, s, "1E@14A", "1a@1A", "1a@1A", "1a@21B")
	refused(t, s, "unravel") // two Elemeen sites: two energy, not three
	s.seeds[0][Elemeen] = 3
	play(t, s, "unravel", "1E@14A")
	if s.seeds[0][Elemeen] != 2 || s.scoreArea(0) != 1<<13 {
		t.Fatalf("paid %d seeds, want 1: %s", 3-s.seeds[0][Elemeen], s)
	}
}

// A locked site may not be moved but may be swapped.
func TestLockedSiteMaySwap(t *testing.T) {
	s := pos(t, 2, line("6A 14A 21A 2A")) // 14A and 21A locked
	put(t, s, "1E@14A", "1a@6A", "2a@2A")
	if !s.isLocked(site("14A") / 2) {
		t.Fatal("14A not locked")
	}
	play(t, s, "use 6A", "1E@14A") // the invoking druid's site: 14A
	legalIs(t, s, "6A", "2A")
	play(t, s, "2A")
	wantSite(t, s, 13, 16, "14A")
	wantSite(t, s, 11, 16, "2A")
	wantDruids(t, s, 0, "e@14A a@6A")
	wantDruids(t, s, 1, "E@supply a@2A")
}

// Four players: a team's points and its tie-break are its members' added.
func TestTeamTieBreak(t *testing.T) {
	s := pos(t, 4, line("1A 21B 14A")) // Elemeen dominates
	s.seeds[0] = [3]uint8{1, 0, 0}
	s.seeds[2] = [3]uint8{1, 0, 0} // team 1: 2 points, tie-break 2
	scoreSites(s, 1, "2B")         // team 2: 2 points, tie-break 0
	s.step = stepOver
	if w := s.Winners(); !slices.Equal(w, []int{0, 2}) {
		t.Fatalf("winners %v", w)
	}
	scoreSites(s, 3, "5B") // team 2: 4 points
	if w := s.Winners(); !slices.Equal(w, []int{1, 3}) {
		t.Fatalf("winners %v", w)
	}
	s.seeds[0] = [3]uint8{3, 0, 0} // 4 each, tie-break 4 against 0
	if w := s.Winners(); !slices.Equal(w, []int{0, 2}) {
		t.Fatalf("winners %v", w)
	}
	s.seeds[1] = [3]uint8{4, 0, 0} // 8 each, tie-break 4 each: shared
	scoreSites(s, 2, "8B", "11B")
	if w := s.Winners(); !slices.Equal(w, []int{0, 1, 2, 3}) {
		t.Fatalf("winners %v", w)
	}
	scoreSites(s, 0, "4A") // an Elemeen site: no points, 1 off the tie-break
	if w := s.Winners(); !slices.Equal(w, []int{1, 3}) {
		t.Fatalf("winners %v", w)
	}
}

// The Begin step offers every timely site of the circle that may act now,
// in any order, each once, or done.
func TestTimelySitesInAnyOrder(t *testing.T) {
	s := pos(t, 2, line("13A 26A 1A 2A")) // Moon Gate, Drifting Ferry
	put(t, s, "1A@13A", "1a@26A")
	s.step = stepBegin
	s.advance()
	legalIs(t, s, "use 13A", "use 26A", "done")
	play(t, s, "use 26A", "1a@26A", "1A")
	legalIs(t, s, "use 13A", "done") // the Ferry has acted this step
	play(t, s, "use 13A", "2A")
	wantDruids(t, s, 0, "E@2A a@1A A@13A")
	if s.step != stepRefresh {
		t.Fatalf("step %s, want the Refresh step", stepNames[s.step])
	}
}

// Only the basic explore spends the player marker and lets the invoking
// druid move onto the new site: Roots of Creation's does neither.
func TestOnlyTheBasicExploreMovesIn(t *testing.T) {
	s := pos(t, 2, line("3A 14A 21A"))
	onlyInBag(s, 19, 20)
	put(t, s, "1E@3A", "1A@21A")
	play(t, s, "use 3A", "1E@3A", "side A", "13,16")
	if s.marker[0] || s.step != stepAction {
		t.Fatalf("marker spent %v, step %s", s.marker[0], stepNames[s.step])
	}
	offers(t, s, "explore") // the menu again: no "move in?" asked
	wantDruids(t, s, 0, "e@3A A@21A")
}
