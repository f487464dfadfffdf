package laguna

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// The tests of this file build positions for the purpose on the generator's
// frame (open water, the islands and the volcano) with a few squares set,
// and check one rule each.

// testBoard returns the frame with squares set: "i16": '#'. It is not
// checked for fairness: a test board only has to hold its position.
func testBoard(t *testing.T, squares map[string]byte) *Board {
	t.Helper()
	b, err := parseLayout(edit(t, 0, 0, squares))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// position returns a game of players seats in play on b, seat 0 to move,
// every raft placed as given ("H f16 RY....": orientation, top-left square,
// holes) and every seat past its first turn. The pearls aboard are taken
// from the islands, so that every pearl stays somewhere.
func position(t *testing.T, b *Board, o options, rafts ...string) *State {
	t.Helper()
	o.Board = b
	s, err := newGame(len(rafts), o, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.phase = phPlay
	for p, text := range rafts {
		f := strings.Fields(text)
		sq, err := ParseSquare(f[1])
		if err != nil {
			t.Fatal(err)
		}
		r := &s.rafts[p]
		r.at, r.orient = int16(sq), Orient(strings.Index("HV", f[0]))
		if !b.Fits(r.orient, sq) {
			t.Fatalf("raft %s does not fit", text)
		}
		s.home[p] = int8(p)
		s.begun[p] = true
		for h := range Holes {
			c := strings.IndexByte(ColourNames, f[2][h])
			r.holes[h] = int8(c)
			if c >= 0 {
				s.takePearl(t, c)
			}
		}
	}
	if err := s.valid(); err != nil {
		t.Fatal(err)
	}
	return s
}

// takePearl takes a pearl of colour c from the last island that has one
// (island A, where the tests dock, keeps its pearls longest).
func (s *State) takePearl(t *testing.T, c int) {
	t.Helper()
	for i := NumIslands - 1; i >= 0; i-- {
		if s.islands[i][c] > 0 {
			s.islands[i][c]--
			return
		}
	}
	t.Fatalf("no pearl of colour %c left on the islands", ColourNames[c])
}

func legalTexts(s *State) []string {
	var out []string
	for _, m := range s.AppendLegal(nil) {
		out = append(out, MoveText(m))
	}
	return out
}

func mustPlay(t *testing.T, s *State, moves ...string) {
	t.Helper()
	for _, text := range moves {
		if err := game.PlayText(s, text); err != nil {
			t.Fatalf("%s: %v (legal: %v)", text, err, legalTexts(s))
		}
	}
}

func mustRefuse(t *testing.T, s *State, moves ...string) {
	t.Helper()
	for _, text := range moves {
		before := s.String()
		m, err := ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Play(m); err == nil {
			t.Fatalf("%s accepted in %s", text, before)
		}
		if s.String() != before {
			t.Fatalf("refused %s changed the state", text)
		}
	}
}

// far is a raft out of the way, in the bottom-right corner's water.
const far = "H v20 YY...."

func TestRandomDealThreeColoursAnIsland(t *testing.T) {
	for seed := range uint64(50) {
		s, err := newGame(2, options{}, seed)
		if err != nil {
			t.Fatal(err)
		}
		var per [NumColours]int
		for i := range NumIslands {
			if s.islandCount(i) != 3 {
				t.Fatalf("seed %d: island %d holds %d", seed, i, s.islandCount(i))
			}
			for c := range NumColours {
				if s.islands[i][c] > 1 {
					t.Fatalf("seed %d: island %d holds two of a colour", seed, i)
				}
				per[c] += int(s.islands[i][c])
			}
		}
		if per != [NumColours]int{6, 6, 6, 6} || s.volcano != [NumColours]uint8{} {
			t.Fatalf("seed %d: %v pearls a colour on the islands", seed, per)
		}
	}
}

func TestPlacingRafts(t *testing.T) {
	s, err := newGame(2, options{Board: Frame()}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Against island A's landing line (f3 to h3), lying across or down.
	mustRefuse(t, s, "place H f5", "place H a1", "place H e1", "N", "end", "load R 1")
	mustPlay(t, s, "place H f3")
	if s.home[0] != 0 || s.seat != 1 || s.Turn() != 1 {
		t.Fatalf("after placing: %s", s)
	}
	// The second raft may not take island A, nor lie on the first raft.
	mustRefuse(t, s, "place V h3", "place H e3")
	mustPlay(t, s, "place V c16")
	if s.home[1] != 6 || s.phase != phPlay || s.seat != 0 {
		t.Fatalf("after placing both: %s", s)
	}
	if s.rafts[1].orient != Down {
		t.Fatal("the orientation is not kept")
	}
}

func TestLoadingAtTheStart(t *testing.T) {
	s, _ := newGame(2, options{Board: Frame()}, 1)
	mustPlay(t, s, "place H f3", "place H p3")
	// Nothing but loading until two pearls are aboard.
	for _, m := range s.AppendLegal(nil) {
		if m < mLoad || m >= mUnload {
			t.Fatalf("%s legal before loading", MoveText(m))
		}
	}
	c1 := strings.Index(ColourNames, island(s, 0)[:1])
	c2 := strings.Index(ColourNames, island(s, 0)[1:2])
	mustPlay(t, s, MoveText(Load(0, c1)))
	mustRefuse(t, s, "end", "S")
	mustPlay(t, s, MoveText(Load(4, c2)))
	legal := legalTexts(s)
	if !slices.Contains(legal, "end") || !slices.Contains(legal, "S") {
		t.Fatalf("with two aboard: %v", legal)
	}
	// A third pearl may be taken, not a fourth at the start unless the raft
	// is docked (it is: no arrow on the frame) - the island has three.
	c3 := strings.Index(ColourNames, island(s, 0)[:1])
	mustPlay(t, s, MoveText(Load(2, c3)))
	if s.rafts[0].aboard() != 3 || s.islandCount(0) != 0 {
		t.Fatalf("after loading three: %s", s)
	}
	mustPlay(t, s, "S", "end")
	if !s.begun[0] || s.seat != 1 {
		t.Fatalf("after the first turn: %s", s)
	}
}

// island returns island i's pearls as letters.
func island(s *State, i int) string {
	out := ""
	for c := range NumColours {
		out += strings.Repeat(ColourNames[c:c+1], int(s.islands[i][c]))
	}
	return out
}

func TestStartLoadingIgnoresArrows(t *testing.T) {
	// An arrow under the start position does not stop the first loading,
	// but a raft docked with an arrow showing cannot load a fourth pearl.
	b := testBoard(t, map[string]byte{"g4": '>'})
	s, _ := newGame(2, options{Board: b}, 1)
	mustPlay(t, s, "place H f3", "place H p3")
	for h := range 3 {
		c := strings.Index(ColourNames, island(s, 0)[:1])
		mustPlay(t, s, MoveText(Load(h, c)))
	}
	if s.rafts[0].aboard() != 3 {
		t.Fatal("three pearls not loaded")
	}
	// The arrow at g4 (hole 5) shows: the raft is not docked.
	if s.docked(0) != -1 {
		t.Fatal("docked with an arrow showing")
	}
	if got := legalTexts(s); slices.ContainsFunc(got, func(m string) bool { return strings.HasPrefix(m, "unload") }) {
		t.Fatalf("unload legal with an arrow showing: %v", got)
	}
}

func TestStepsAreOrthogonalOnWaterAndOffRafts(t *testing.T) {
	b := testBoard(t, nil)
	s := position(t, b, options{}, "H f16 RY....", "H f18 GB....")
	legal := legalTexts(s)
	// South is the other raft; the others are open water.
	if !slices.Contains(legal, "N") || !slices.Contains(legal, "E") || !slices.Contains(legal, "W") || slices.Contains(legal, "S") {
		t.Fatalf("steps: %v", legal)
	}
	mustPlay(t, s, "N", "N")
	if Square(s.rafts[0].at).String() != "f14" || s.steps != 2 {
		t.Fatalf("after two steps north: %s", s)
	}
	// The board's edge and the land stop a raft.
	s = position(t, b, options{}, "H a1 RY....", far)
	mustRefuse(t, s, "N", "W")
	s = position(t, b, options{}, "H c1 RY....", far) // e1 is beside island A at f1
	mustRefuse(t, s, "E")
}

func TestReefShowingAfterAStepEndsTheTurn(t *testing.T) {
	b := testBoard(t, map[string]byte{"i16": '#'})
	s := position(t, b, options{}, "H f16 RY....", far)
	turn := s.Turn()
	mustPlay(t, s, "E")
	if s.seat != 1 || s.Turn() != turn+1 || !s.reefEnd[0] {
		t.Fatalf("a reef showed and the turn goes on: %s", s)
	}
	// Covered, the reef does nothing.
	s = position(t, b, options{}, "H f16 R.Y...", far)
	mustPlay(t, s, "E")
	if s.seat != 0 {
		t.Fatal("a covered reef ended the turn")
	}
}

func TestReefShowingAtTheStartMustBeCovered(t *testing.T) {
	b := testBoard(t, map[string]byte{"h16": '#'})
	s := position(t, b, options{}, "H f16 RY....", far)
	if got := s.stepDirs(0); got != 0 {
		t.Fatalf("steps with a reef showing: %04b", got)
	}
	mustRefuse(t, s, "N", "E", "S", "W")
	// Moving the pearl of hole 2 (over water) onto the reef in hole 3.
	mustPlay(t, s, "shift 2 3", "S")
	if s.seat != 0 {
		t.Fatal("the turn ended")
	}
}

func TestShiftUncoveringAReefEndsTheTurn(t *testing.T) {
	b := testBoard(t, map[string]byte{"f16": '#'})
	s := position(t, b, options{}, "H f17 RY....", far)
	mustPlay(t, s, "N", "shift 1 3")
	if s.seat != 1 || !s.reefEnd[0] {
		t.Fatalf("uncovering a reef did not end the turn: %s", s)
	}
}

// TestNoUncoveringBeforeTheFirstStep: before the raft's first step of a
// turn a pearl may be moved only where it uncovers neither a reef nor an
// arrow (the refusal says why; a peek would show it anyway); after the
// first step, anywhere, what it uncovers taking effect.
func TestNoUncoveringBeforeTheFirstStep(t *testing.T) {
	b := testBoard(t, map[string]byte{"f16": '#', "g16": '>'})
	s := position(t, b, options{}, "H f16 RYG...", far)
	for _, m := range []string{"shift 1 4", "shift 2 4"} {
		mustRefuse(t, s, m)
		mv, _ := ParseMove(m)
		if r := game.RefusalOf(s.Play(mv)); r == nil || r.Code != RefusedUncover {
			t.Fatalf("%s: %v", m, r)
		}
	}
	if got := legalTexts(s); slices.Contains(got, "shift 1 4") || !slices.Contains(got, "shift 3 4") || !slices.Contains(got, "peek") {
		t.Fatalf("legal: %v", got)
	}
	mustPlay(t, s, "peek", "shift 3 4", "S", "N", "shift 2 3")
	if got := s.stepDirs(0); got != 1<<East {
		t.Fatalf("the arrow uncovered after the first step: %04b", got)
	}
}

func TestArrowsForceTheNextStep(t *testing.T) {
	b := testBoard(t, map[string]byte{"h16": '>', "f17": 'v'})
	s := position(t, b, options{}, "H f16 RY....", far)
	if got := legalTexts(s); slices.Contains(got, "N") || slices.Contains(got, "W") || !slices.Contains(got, "E") || !slices.Contains(got, "S") {
		t.Fatalf("two arrows showing, E and S: %v", got)
	}
	// Covering an arrow before the step frees the raft from it: the pearl
	// of hole 2 (water) onto hole 3 (the > arrow) leaves only S.
	mustPlay(t, s, "shift 2 3")
	if got := s.stepDirs(0); got != 1<<South {
		t.Fatalf("after covering the east arrow: %04b", got)
	}
	// Uncovering an arrow while moving pearls (after the first step)
	// forces the next step.
	s = position(t, b, options{}, "H f15 ..RY.G", far)
	mustPlay(t, s, "S")
	if got := s.stepDirs(0); got != 0xF {
		t.Fatalf("no arrow showing: %04b", got)
	}
	mustPlay(t, s, "shift 3 1")
	if got := s.stepDirs(0); got != 1<<East {
		t.Fatalf("after uncovering the east arrow: %04b", got)
	}
	// The page is told which way the current takes the raft.
	if v := s.View(game.Viewer{Seat: 0}).(StateView); !slices.Equal(v.Forced, []string{"E"}) {
		t.Fatalf("forced %v", v.Forced)
	}
}

func TestBlockedArrows(t *testing.T) {
	b := testBoard(t, map[string]byte{"h16": '>', "f17": 'v'})
	// Another raft east of the first blocks the east arrow: south it is.
	s := position(t, b, options{}, "H f16 RY....", "V i16 RY....")
	if got := s.stepDirs(0); got != 1<<South {
		t.Fatalf("east blocked: %04b", got)
	}
	// Both arrows blocked (south by a raft too): the step is free.
	s = position(t, b, options{}, "H f16 RY....", "V i16 RY....", "H f18 RY....")
	if got := s.stepDirs(0); got != 1<<North|1<<West {
		t.Fatalf("all arrows blocked: %04b", got)
	}
	// An arrow pointing at the board's edge is blocked too.
	// (North, x19 is island D's.)
	b = testBoard(t, map[string]byte{"x20": '>'})
	s = position(t, b, options{}, "H v20 RY....", "H f16 RY....")
	if got := s.stepDirs(0); got != 1<<South|1<<West {
		t.Fatalf("arrow off the edge: %04b", got)
	}
}

func TestDockingAtAnIsland(t *testing.T) {
	b := testBoard(t, nil)
	// f3 touches island A along its landing line.
	s := position(t, b, options{}, "H f3 RY....", far)
	a := island(s, 0)
	if s.docked(0) != 0 || len(a) != 3 {
		t.Fatalf("docked at %d, island A %q", s.docked(0), a)
	}
	// Load up to four, never five.
	c := strings.Index(ColourNames, a[:1])
	mustPlay(t, s, MoveText(Load(2, c)))
	c = strings.Index(ColourNames, island(s, 0)[:1])
	mustPlay(t, s, MoveText(Load(3, c)))
	c = strings.Index(ColourNames, island(s, 0)[:1])
	mustRefuse(t, s, MoveText(Load(4, c)))
	// Unload keeps two aboard and the island's room of three.
	mustPlay(t, s, "unload 1", "unload 2")
	mustRefuse(t, s, "unload 3")
	// A swap trades a pearl for one of another colour.
	held := int(s.rafts[0].holes[2])
	for c := range NumColours {
		if c != held && s.islands[0][c] > 0 {
			mustPlay(t, s, MoveText(Swap(2, c)))
			if s.rafts[0].holes[2] != int8(c) || s.islands[0][held] == 0 {
				t.Fatal("the swap did not exchange")
			}
			break
		}
	}
	// Any edge of the raft touching the island docks it, not only the
	// landing line: e1 lies beside island A's west side.
	s = position(t, b, options{}, "V d1 RY....", far)
	if s.docked(0) != 0 {
		t.Fatal("a raft touching the island's side is not docked")
	}
	// Five pearls in the variant.
	s = position(t, b, options{MaxAboard: 5}, "H f3 RYGB..", far)
	if len(island(s, 0)) > 0 {
		c := strings.Index(ColourNames, island(s, 0)[:1])
		mustPlay(t, s, MoveText(Load(4, c)))
		if s.rafts[0].aboard() != 5 {
			t.Fatal("five pearls not aboard")
		}
	}
}

func TestDockingWithAnArrowShowing(t *testing.T) {
	b := testBoard(t, map[string]byte{"g4": '<'})
	s := position(t, b, options{}, "H f3 RY....", far)
	if s.docked(0) != -1 {
		t.Fatal("docked with an arrow showing")
	}
	for _, m := range legalTexts(s) {
		if strings.HasPrefix(m, "load") || strings.HasPrefix(m, "unload") || strings.HasPrefix(m, "swap") {
			t.Fatalf("%s legal with an arrow showing", m)
		}
	}
	// Covering the arrow docks the raft.
	mustPlay(t, s, "shift 1 5")
	if s.docked(0) != 0 {
		t.Fatal("not docked with the arrow covered")
	}
}

func TestTradingBetweenRafts(t *testing.T) {
	b := testBoard(t, map[string]byte{"f18": '#', "i17": '>'})
	// Raft R at f16 across, raft Y at f18 across below it: they touch.
	s := position(t, b, options{}, "H f16 RY.G..", "H f18 BB..G.")
	// The same hole: R's 1 (R) for Y's 1 (B).
	mustPlay(t, s, "trade Y 1 1")
	if s.rafts[0].holes[0] != 3 || s.rafts[1].holes[0] != 0 {
		t.Fatalf("after trading in hole 1: %s", s)
	}
	// Different holes: R's 2 goes to Y's 2 (taken) - refused; R's 4 (G) to
	// Y's 4 (open), Y's 5 (G) to R's 5 (open).
	mustRefuse(t, s, "trade Y 2 5", "trade Y 4 3", "trade Y 1 3")
	mustPlay(t, s, "trade Y 4 5")
	r, y := s.rafts[0].holes, s.rafts[1].holes
	if r[3] != -1 || r[4] != 2 || y[3] != 2 || y[4] != -1 {
		t.Fatalf("after trading 4 for 5: %s", s)
	}
	mustPlay(t, s, "trade Y 2 2")
	if s.rafts[0].holes[1] != 3 || s.rafts[1].holes[1] != 1 {
		t.Fatalf("after trading in hole 2: %s", s)
	}
	// A reef uncovered by an exchange has no effect (f16, under R's hole
	// 1): the turn goes on, but the raft may not move until it is covered.
	b = testBoard(t, map[string]byte{"f16": '#', "i17": '>'})
	s = position(t, b, options{}, "H f16 RY.G..", "H f18 .B..GB")
	mustPlay(t, s, "trade Y 1 5")
	if s.seat != 0 || s.rafts[1].holes[0] != 0 || s.rafts[0].holes[4] != 2 {
		t.Fatalf("after uncovering a reef by trading: %s", s)
	}
	mustRefuse(t, s, "N", "E", "S", "W")
	// An arrow showing through one's own raft forbids docking.
	s = position(t, b, options{}, "H g16 RY.G..", "H g18 BB..G.")
	if _, arrows := s.showing(0); arrows == 0 {
		t.Fatal("no arrow showing at i17")
	}
	mustRefuse(t, s, "trade Y 1 1")
	// A trade that changes nothing is not a move: the same colour in the
	// same hole.
	s = position(t, b, options{}, "H f16 RY.G..", "H f18 RB..G.")
	mustRefuse(t, s, "trade Y 1 1")
	// Rafts touching only at a corner do not touch.
	s = position(t, b, options{}, "H f16 RY.G..", "H i18 BB..G.")
	mustRefuse(t, s, "trade Y 1 1")
}

// makeRoomOnA moves one of island A's pearls to island H.
func (s *State) makeRoomOnA() {
	for c := range NumColours {
		if s.islands[0][c] > 0 {
			s.islands[0][c]--
			s.islands[7][c]++
			return
		}
	}
}

func TestExchangeUncoveringAReefDoesNotEndTheTurn(t *testing.T) {
	b := testBoard(t, map[string]byte{"f3": '#'})
	s := position(t, b, options{}, "H f3 RYG...", far)
	s.makeRoomOnA()
	mustPlay(t, s, "unload 1")
	if s.seat != 0 {
		t.Fatal("unloading at an island ended the turn")
	}
	// The reef now showing must be covered before the raft moves.
	mustRefuse(t, s, "S")
}

// TestExchangeUncoveringAnArrowKeepsTheRaftDocked: an arrow uncovered while
// exchanging with an island or a raft has no effect during the exchange
// (the raft stays docked and the exchange goes on); once the player does
// anything else, it holds the raft as any arrow showing does: no docking,
// and the next step follows it.
func TestExchangeUncoveringAnArrowKeepsTheRaftDocked(t *testing.T) {
	b := testBoard(t, map[string]byte{"f4": '<'})
	s := position(t, b, options{}, "H f3 RYGB..", far)
	s.makeRoomOnA()
	mustPlay(t, s, "unload 4") // hole 4 lies over f4's arrow
	if s.seat != 0 || s.docked(0) != 0 {
		t.Fatalf("after uncovering an arrow by unloading: docked at %d: %s", s.docked(0), s)
	}
	v := s.View(game.Viewer{Seat: 0}).(StateView)
	if v.Docked != "A" || !slices.Equal(v.Forced, []string{"W"}) {
		t.Fatalf("the view: docked %q, forced %v", v.Docked, v.Forced)
	}
	// The state says so, and reads back.
	text := s.String()
	if !strings.Contains(text, " exchanging=A;") {
		t.Fatalf("no exchange in %s", text)
	}
	if back, err := ParseState(text); err != nil || back.String() != text {
		t.Fatalf("%s reads back as %v, %v", text, back, err)
	}
	if _, err := ParseState(strings.Replace(text, "exchanging=A", "exchanging=B", 1)); err == nil {
		t.Fatal("an exchange with an island the raft does not touch reads")
	}
	// The exchange goes on: a swap, a load into the hole over the arrow and
	// an unload again.
	held := int(s.rafts[0].holes[0])
	for c := range NumColours {
		if c != held && s.islands[0][c] > 0 {
			mustPlay(t, s, MoveText(Swap(0, c)))
			break
		}
	}
	c := strings.Index(ColourNames, island(s, 0)[:1])
	mustPlay(t, s, MoveText(Load(3, c)), "unload 4")
	if s.docked(0) != 0 {
		t.Fatal("the exchange ended")
	}
	// Moving a pearl between holes ends the exchange: the arrow showing
	// undocks the raft, and the next step follows it.
	mustPlay(t, s, "shift 1 5")
	if s.docked(0) != -1 || s.stepDirs(0) != 1<<West {
		t.Fatalf("after a shift: docked at %d, steps %04b", s.docked(0), s.stepDirs(0))
	}
	for _, m := range legalTexts(s) {
		if strings.HasPrefix(m, "load") || strings.HasPrefix(m, "unload") || strings.HasPrefix(m, "swap") {
			t.Fatalf("%s legal with an arrow showing after the exchange", m)
		}
	}
	if strings.Contains(s.String(), "exchanging") {
		t.Fatal("the exchange is still written")
	}

	// With a raft: R's hole 1 lies over f16's arrow; R's pearl there goes
	// to Y's open hole 1 and Y's hole 5 to R's open hole 5.
	b = testBoard(t, map[string]byte{"f16": '>'})
	s = position(t, b, options{}, "H f16 RY.G..", "H f18 .B..GB")
	mustPlay(t, s, "trade Y 1 5")
	if s.seat != 0 || !strings.Contains(s.String(), " trading=Y;") {
		t.Fatalf("after uncovering an arrow by trading: %s", s)
	}
	mustPlay(t, s, "trade Y 2 2") // the exchange goes on: R's yellow for Y's blue
	if s.rafts[0].holes[1] != 3 || s.rafts[1].holes[1] != 1 {
		t.Fatalf("after the second trade: %s", s)
	}
	// The step that follows goes with the arrow, and ends the exchange.
	if got := s.stepDirs(0); got != 1<<East {
		t.Fatalf("after the exchange: steps %04b", got)
	}
	mustPlay(t, s, "E")
	if s.with != -1 {
		t.Fatal("a step did not end the exchange")
	}
	// An arrow showing before the exchange still forbids it.
	s = position(t, b, options{}, "H f16 .YRG..", "H f18 .B..GB")
	mustRefuse(t, s, "trade Y 2 2")
}

func TestVolcano(t *testing.T) {
	// A raft lying down at i11 (i11 to j13) touches the volcano (k11 to
	// n14) along its west side.
	b := testBoard(t, map[string]byte{"i12": '#', "i13": '<'})
	s := position(t, b, options{}, "V i11 RRRY..", far)
	if s.docked(0) != Volcano {
		t.Fatalf("not docked at the volcano: %d", s.docked(0))
	}
	// Holes down the left column: 1 i11, 2 i12 (reef), 3 i13 (arrow); the
	// right: 4 j11 (Y), 5 j12, 6 j13.
	mustRefuse(t, s, "deliver 4")
	mustPlay(t, s, "deliver 1")
	if s.volcano[0] != 1 || s.seat != 0 {
		t.Fatalf("after delivering over water: %s", s)
	}
	// Delivering the pearl over the reef: the turn ends after it.
	mustPlay(t, s, "deliver 2")
	if s.volcano[0] != 2 || s.seat != 1 || !s.reefEnd[0] {
		t.Fatalf("after delivering over a reef: %s", s)
	}
	// Two aboard: no more.
	s = position(t, b, options{}, "V i11 ..RY..", far)
	mustRefuse(t, s, "deliver 3")
	// Delivering over an arrow: the raft is no longer docked and the
	// arrow takes it.
	s = position(t, b, options{}, "V i11 RRRY..", far)
	mustPlay(t, s, "deliver 3")
	if s.docked(0) != -1 || s.stepDirs(0) != 1<<West {
		t.Fatalf("after uncovering an arrow: docked %d, steps %04b", s.docked(0), s.stepDirs(0))
	}
	mustRefuse(t, s, "deliver 1")
}

func TestWinAtOnce(t *testing.T) {
	b := testBoard(t, nil)
	for players := 2; players <= 4; players++ {
		rafts := []string{"V i11 RYG...", "H f16 YY....", "H f18 GG....", "H p16 BB...."}[:players]
		s := position(t, b, options{}, rafts...)
		// Seat 0 has delivered all but one.
		need := Target(players)
		s.volcano[0] = uint8(need - 1)
		for range need - 1 {
			s.takePearl(t, 0)
		}
		if err := s.valid(); err != nil {
			t.Fatal(err)
		}
		if st := s.Standing(); st.Winners != nil {
			t.Fatal("winners before the end")
		}
		mustPlay(t, s, "deliver 1")
		if !s.Over() || s.ToMove() != game.NoSeat {
			t.Fatalf("%d players: %d delivered and the game goes on", players, need)
		}
		if st := s.Standing(); !slices.Equal(st.Winners, []int{0}) || st.Scores[0] != need || s.Ending() != "delivered" {
			t.Fatalf("standing %+v, ending %q", st, s.Ending())
		}
		if len(s.AppendLegal(nil)) != 0 {
			t.Fatal("moves after the end")
		}
	}
}

func TestPeek(t *testing.T) {
	b := testBoard(t, map[string]byte{"f16": '#'})
	s := position(t, b, options{}, "H f16 RY....", far)
	v := s.View(game.Viewer{Seat: 1}).(StateView)
	if v.Rafts[0].Holes[0].Shows != "" || v.Rafts[0].Holes[2].Shows != "." {
		t.Fatalf("before peeking: %+v", v.Rafts[0].Holes)
	}
	mustPlay(t, s, "peek")
	mustRefuse(t, s, "peek")
	v = s.View(game.Viewer{Seat: 1}).(StateView)
	if v.Rafts[0].Holes[0].Shows != "#" || !v.Peeked {
		t.Fatalf("peeking: %+v", v.Rafts[0].Holes)
	}
	// The first step ends the peek, and no peek after it.
	mustPlay(t, s, "S")
	mustRefuse(t, s, "peek")
	if v := s.View(game.Viewer{Seat: 0}).(StateView); v.Rafts[0].Holes[0].Shows != "" {
		t.Fatal("still peeking after a step")
	}
	// The open board shows everything.
	s = position(t, b, options{Open: true}, "H f16 RY....", far)
	if v := s.View(game.Viewer{Seat: 1}).(StateView); v.Rafts[0].Holes[0].Shows != "#" {
		t.Fatal("the open board hides a square")
	}
}

func TestWithoutTheSandTimer(t *testing.T) {
	b := testBoard(t, map[string]byte{"h16": '#'})
	s := position(t, b, options{NoTimer: true}, "H f16 R.Y...", far)
	// No pearl moves without a reef ending the last turn; a peek is allowed.
	mustRefuse(t, s, "shift 1 2")
	mustPlay(t, s, "peek", "W", "E", "end", "end")
	mustRefuse(t, s, "shift 1 2")
	// A reef ends the turn: then, before the first step, pearls may move.
	s = position(t, b, options{NoTimer: true}, "H e16 RY....", far)
	mustPlay(t, s, "E") // hole 3 over h16 shows the reef
	if !s.reefEnd[0] {
		t.Fatal("no reef")
	}
	mustPlay(t, s, "end")
	mustPlay(t, s, "shift 2 3", "S")
	if s.seat != 0 {
		t.Fatal("the turn ended")
	}
	mustRefuse(t, s, "shift 1 2")
}

// TestWithoutTheSandTimerOnlyWhileAReefShows: without the timer, pearls
// move between holes to cover the reef that ended the last turn, and only
// while a reef shows: once a trade covered it, they stay.
func TestWithoutTheSandTimerOnlyWhileAReefShows(t *testing.T) {
	b := testBoard(t, map[string]byte{"h16": '#'})
	s := position(t, b, options{NoTimer: true}, "H f16 RG....", "H c16 ..Y...")
	s.reefEnd[0] = true
	mustPlay(t, s, "trade Y 1 3")
	mustRefuse(t, s, "shift 2 1")
	if r := game.RefusalOf(s.Play(Shift(1, 0))); r == nil || r.Code != RefusedPearlsStill {
		t.Fatalf("a pearl moved with no reef showing: %v", r)
	}
}

func TestTimeUp(t *testing.T) {
	s, _ := newGame(2, options{Board: Frame()}, 1)
	if _, ok := s.TimeUp(); ok {
		t.Fatal("time up while placing")
	}
	mustPlay(t, s, "place H f3", "place H p3")
	if _, ok := s.TimeUp(); ok {
		t.Fatal("time up before two pearls are aboard")
	}
	s = position(t, testBoard(t, nil), options{}, "H f16 RY....", far)
	m, ok := s.TimeUp()
	if !ok || m != End {
		t.Fatal("time up does not end the turn")
	}
	turn := s.Turn()
	mustPlay(t, s, MoveText(m))
	if s.Turn() != turn+1 || s.seat != 1 {
		t.Fatal("the turn did not end")
	}
}

func TestRoundLimit(t *testing.T) {
	s := position(t, testBoard(t, nil), options{Limit: 2}, "H f16 RY....", far)
	s.volcano[1] = 1
	s.takePearl(t, 1)
	for range 3 {
		mustPlay(t, s, "end")
	}
	if s.Over() {
		t.Fatal("over before two rounds")
	}
	mustPlay(t, s, "end")
	if st := s.Standing(); !s.Over() || !slices.Equal(st.Winners, []int{1}) || s.Ending() != "round limit" {
		t.Fatalf("after two rounds: %+v, ending %q", st, s.Ending())
	}
}

func TestPlayersDealThePearls(t *testing.T) {
	for seed := range uint64(20) {
		s, _ := newGame(3, options{Deal: true}, seed)
		mustPlay(t, s, "place H f3", "place H p3", "place V c16")
		if s.phase != phDeal {
			t.Fatal("no dealing")
		}
		r := newRand(seed)
		for s.phase == phDeal {
			legal := s.AppendLegal(nil)
			if len(legal) == 0 {
				t.Fatalf("seed %d: a dead end while dealing: %s", seed, s)
			}
			for _, m := range legal {
				if c := int(m-mPut) % NumColours; c == int(s.seat) {
					t.Fatalf("seat %d may deal its own colour", s.seat)
				}
			}
			mustPlay(t, s, MoveText(legal[r.IntN(len(legal))]))
		}
		for i := range NumIslands {
			if s.islandCount(i) != 3 {
				t.Fatalf("seed %d: island %d holds %d", seed, i, s.islandCount(i))
			}
			for c := range NumColours {
				if s.islands[i][c] > 1 {
					t.Fatalf("seed %d: two of a colour on an island", seed)
				}
			}
		}
	}
	// A seat left only its own colour to deal is passed over.
	s, _ := newGame(2, options{Deal: true}, 1)
	mustPlay(t, s, "place H f3", "place H p3")
	// Red and blue are left; H has room for both; yellow deals blue.
	s.islands = [NumIslands][NumColours]uint8{{0, 1, 1, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}, {1, 0, 1, 1}, {1, 1, 0, 1}, {1, 1, 1, 0}, {1, 1, 1, 0}, {0, 1, 0, 0}}
	s.volcano = [NumColours]uint8{1, 0, 0, 1}
	s.seat = 1
	if err := s.valid(); err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, s, "put Y H")
	mustPlay(t, s, "put B H")
	if s.seat != 1 {
		t.Fatalf("seat 0 holds only red and should be passed over, seat %d deals", s.seat)
	}
	mustPlay(t, s, "put R H")
	if s.phase != phPlay || s.seat != 0 {
		t.Fatal("play does not begin")
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }

// TestFinishedStatesReadBack: the state of a game won in the middle of a
// turn (its steps kept) and of a solo game solved in the middle of an
// exchange read back; a raft that has not begun to play lies at its island,
// and a board the checker refuses is one line of error.
func TestFinishedStatesReadBack(t *testing.T) {
	readsBack := func(s *State) {
		t.Helper()
		if back, err := ParseState(s.String()); err != nil || back.String() != s.String() {
			t.Fatalf("%s reads back as %v, %v", s, back, err)
		}
	}
	// Won after a step: the turn's steps stay in the state.
	s := position(t, testBoard(t, nil), options{}, "V h11 RYG...", far)
	s.volcano[0] = uint8(Target(2) - 1)
	for range Target(2) - 1 {
		s.takePearl(t, 0)
	}
	mustPlay(t, s, "E", "deliver 1")
	if !s.Over() || s.steps != 1 {
		t.Fatalf("not won after a step: %s", s)
	}
	readsBack(s)

	// Solved by an unload: the exchange ends with the game.
	s = position(t, testBoard(t, nil), options{}, "H f3 RYG...")
	for c := range NumColours {
		if s.islands[0][c] > 0 {
			s.islands[0][c]--
			s.islands[7][c]++
			break
		}
	}
	s.target = s.islands
	s.target[0][s.rafts[0].holes[0]]++
	mustPlay(t, s, "unload 1")
	if !s.Over() || s.Ending() != "solved" {
		t.Fatalf("not solved: ending %q", s.Ending())
	}
	readsBack(s)

	// A raft that has not ended a turn of play lies at its island.
	s, _ = newGame(2, options{Board: Frame()}, 1)
	mustPlay(t, s, "place H f3", "place H p3", "load Y 1", "load G 2", "S", "S", "end")
	text := strings.Replace(s.String(), "home=A begun=1", "home=A begun=0", 1)
	if _, err := ParseState(text); err == nil || !strings.Contains(err.Error(), "away from island A") {
		t.Fatalf("a raft that has not begun, two squares from its island: %v", err)
	}

	// A board with faults: every reason, on one line.
	rows := strings.Split(Frame().Line(), "/")
	rows[4] = "><><><><><><><><><><><><"
	text = strings.Replace(s.String(), Frame().Line(), strings.Join(rows, "/"), 1)
	_, err := ParseState(text)
	if err == nil || strings.Contains(err.Error(), "\n") || strings.Count(err.Error(), "board: ") < 2 {
		t.Fatalf("a board with faults: %q", err)
	}
}

// TestStalledGamesEnd: a game of 2 to 4 in which no pearl changes place for
// stallRounds rounds is over, shared by those who delivered the most; a
// pearl loaded starts the count again. A solo raft that can only ever end
// its turn ends the game, unsolved.
func TestStalledGamesEnd(t *testing.T) {
	b := testBoard(t, nil)
	s := position(t, b, options{}, "H f3 RY....", far)
	mustPlay(t, s, "end", "end", "load "+ColourNames[firstColour(s.islands[0]):firstColour(s.islands[0])+1]+" 3")
	for range 2*stallRounds - 1 {
		mustPlay(t, s, "end")
	}
	if s.Over() || !strings.Contains(s.String(), " calm=39") || s.Ending() != "" {
		t.Fatalf("over too soon: %s", s)
	}
	if _, err := ParseState(s.String()); err != nil {
		t.Fatal(err)
	}
	// A game of two in play after 20 calm rounds is one no game reaches:
	// the turn that made them ended it.
	for _, calm := range []string{" calm=40", " calm=41", " calm=65535"} {
		if _, err := ParseState(strings.Replace(s.String(), " calm=39", calm, 1)); err == nil || !strings.Contains(err.Error(), "calm") {
			t.Errorf("a game of two in play with%s reads: %v", calm, err)
		}
	}
	mustPlay(t, s, "end")
	if st := s.Standing(); !s.Over() || !slices.Equal(st.Winners, []int{0, 1}) || s.Ending() != "calm" {
		t.Fatalf("after %d calm rounds: %+v, ending %q", stallRounds, st, s.Ending())
	}

	b = testBoard(t, map[string]byte{"f16": '>', "g16": '>', "h16": '#'})
	s = position(t, b, options{}, "H f16 RY....")
	mustRefuse(t, s, "shift 1 3", "shift 2 3", "E")
	mustPlay(t, s, "end")
	if st := s.Standing(); !s.Over() || len(st.Winners) != 0 || s.Ending() != "stuck" {
		t.Fatalf("a stuck solo raft: %s, %+v, ending %q", s, st, s.Ending())
	}
	if _, err := ParseState(s.String()); err != nil {
		t.Fatalf("the stuck game's end reads: %v", err)
	}
	// The same raft at the start of its next turn, still in play, is a
	// state no game reaches: the turn before it ended the game.
	if _, err := ParseState(strings.Replace(s.String(), "; over seat=", "; play seat=", 1)); err == nil || !strings.Contains(err.Error(), "only end") {
		t.Errorf("a solo turn that can only end, in play: %v", err)
	}
}

func firstColour(isl [NumColours]uint8) int {
	for c, n := range isl {
		if n > 0 {
			return c
		}
	}
	return -1
}
