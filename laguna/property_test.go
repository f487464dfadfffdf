package laguna

import (
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// playRandom plays a game of the given setup with random moves, ending a
// turn by choice only now and then so that rafts travel, and calls check
// after every move. It returns the moves played.
func playRandom(t *testing.T, setup game.Setup, check func(s *State)) []string {
	t.Helper()
	st, err := Rules.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := newRand(setup.Seed)
	var moves []string
	for !s.Over() {
		legal := s.AppendLegal(nil)
		m := legal[r.IntN(len(legal))]
		if m == End && len(legal) > 1 && r.IntN(8) != 0 {
			continue
		}
		moves = append(moves, MoveText(m))
		if err := s.Play(m); err != nil {
			t.Fatalf("legal move %s refused: %v", MoveText(m), err)
		}
		check(s)
	}
	return moves
}

// invariants checks what holds in every state: never two rafts on a square,
// rafts on water inside the board, 2 to 4 (5) pearls aboard once loaded,
// every one of the 24 pearls somewhere, an island's room.
func invariants(t *testing.T, s *State) {
	t.Helper()
	var count [NumColours]int
	for c := range NumColours {
		count[c] += int(s.volcano[c])
		for i := range NumIslands {
			count[c] += int(s.islands[i][c])
		}
	}
	var cover [NumSquares]int
	for p := range s.Players() {
		r := &s.rafts[p]
		for _, c := range r.holes {
			if c >= 0 {
				count[c]++
			}
		}
		if !r.placed() {
			continue
		}
		if !s.board.Fits(r.orient, Square(r.at)) {
			t.Fatalf("raft %d off the water: %s", p, s)
		}
		for h := range Holes {
			sq := r.square(h)
			if cover[sq]++; cover[sq] > 1 {
				t.Fatalf("two rafts on %v: %s", sq, s)
			}
		}
		n := r.aboard()
		atStart := s.board.StartIsland(r.orient, Square(r.at)) == int(s.home[p])
		if n > int(s.maxAboard) || n < MinAboard && s.phase == phPlay && s.begun[p] && !atStart {
			t.Fatalf("raft %d holds %d pearls: %s", p, n, s)
		}
	}
	for c := range NumColours {
		if count[c] != PearlsPerColour {
			t.Fatalf("%d pearls of colour %c: %s", count[c], ColourNames[c], s)
		}
	}
	for i := range NumIslands {
		if s.islandCount(i) > IslandRoom {
			t.Fatalf("island %c holds %d: %s", IslandNames[i], s.islandCount(i), s)
		}
	}
}

func TestPropertiesOfRandomGames(t *testing.T) {
	setups := []game.Setup{
		{Players: 2, Options: map[string]string{"limit": "25"}},
		{Players: 4, Options: map[string]string{"limit": "15", "board": "hard"}},
		{Players: 3, Options: map[string]string{"limit": "15", "raft": "5", "deal": "players"}},
		{Players: 2, Options: map[string]string{"limit": "25", "timer": "off", "board": "hard"}},
	}
	for i, setup := range setups {
		for seed := range uint64(4) {
			setup.Seed = seed + uint64(100*i)
			moves := playRandom(t, setup, func(s *State) { invariants(t, s) })
			// The record replays to the same end.
			opts, _ := Rules.CheckOptions(setup.Options)
			rec := game.Record{Game: "laguna", Players: setup.Players, Options: opts, Seed: setup.Seed, Moves: moves}
			if _, err := rec.Replay(Rules, -1); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestOnlyListedMovesPlay tries every move number in states of random games:
// the listed ones are accepted, every other refused with the state as it
// was.
func TestOnlyListedMovesPlay(t *testing.T) {
	n := 0
	playRandom(t, game.Setup{Players: 3, Options: map[string]string{"limit": "6"}, Seed: 5}, func(s *State) {
		if n++; n%7 != 0 || s.Over() {
			return
		}
		legal := s.AppendLegal(nil)
		text := s.String()
		for m := game.Move(-2); m < numMoves+2; m++ {
			c := *s
			err := c.Play(m)
			if slices.Contains(legal, m) != (err == nil) {
				t.Fatalf("%s: move %s listed %v, refused %v", text, MoveText(m), slices.Contains(legal, m), err)
			}
			if err != nil && c.String() != text {
				t.Fatalf("refused move %s changed the state", MoveText(m))
			}
		}
	})
}

func TestMoveNotation(t *testing.T) {
	for m := game.Move(0); m < numMoves; m++ {
		text := MoveText(m)
		if m >= mShift && m < mLoad && (m-mShift)/Holes == (m-mShift)%Holes {
			if _, err := ParseMove(text); err == nil {
				t.Errorf("%s, a pearl to its own hole, reads", text)
			}
			continue
		}
		back, err := ParseMove(text)
		if err != nil || back != m {
			t.Errorf("move %d written %q reads back as %d, %v", m, text, back, err)
		}
	}
	for _, text := range []string{"", "n", "north", "End", " end", "end ", "shift 1  2", "shift 0 1", "shift 7 1",
		"load r 3", "load R 0", "unload", "swap R 3", "deliver 7", "trade X 1 1", "trade Y 1", "put R I",
		"place D c7", "place H c07", "place H y1", "#5", "peek 1"} {
		if m, err := ParseMove(text); err == nil {
			t.Errorf("%q reads as %s", text, MoveText(m))
		}
	}
	if MoveText(-1) != "#-1" || MoveText(numMoves) != "#"+itoa(numMoves) {
		t.Error("a number that is no move")
	}
}

func itoa(n int) string { return MoveText(game.Move(n))[1:] }

func TestStateNotation(t *testing.T) {
	s, _ := newGame(3, options{Board: BoardByName("hard"), Deal: true, Limit: 9}, 1)
	mustPlay(t, s, "place H f3", "place H p3", "place V c16", "put Y A")
	text := s.String()
	back, err := ParseState(text)
	if err != nil || back.String() != text {
		t.Fatalf("%s reads back as %v, %v", text, back, err)
	}
	// A board of one's own is written in the notation.
	b := testBoard(t, map[string]byte{"j17": '#'})
	s2, _ := newGame(2, options{Board: b}, 1)
	if back, err := ParseState(s2.String()); err != nil || back.board.Line() != b.Line() {
		t.Fatalf("a state on a board of one's own: %v", err)
	}
	for _, bad := range []string{
		"",
		text + " ",
		text[:len(text)-1] + "9",                      // a pearl too many in the volcano
		replace(text, "laguna 3", "laguna 5"),         // players
		replace(text, "seat=G", "seat=B"),             // no such seat
		replace(text, "raft=4", "raft=6"),             // raft size
		replace(text, "steps=0", "steps=2"),           // steps while dealing
		replace(text, "holes=......", "holes=R....."), // pearls aboard while dealing
		replace(text, "deal seat", "play  seat"),
	} {
		if _, err := ParseState(bad); err == nil {
			t.Errorf("%q reads", bad)
		}
	}
}

func replace(s, old, new string) string {
	out := ""
	for i := 0; i < len(s); i++ {
		if len(s)-i >= len(old) && s[i:i+len(old)] == old {
			return out + new + s[i+len(old):]
		}
		out += s[i : i+1]
	}
	return s + "?"
}

func FuzzParseMove(f *testing.F) {
	for _, m := range []game.Move{0, End, Peek, Shift(1, 4), Load(2, 3), Unload(5), Swap(0, 1), Deliver(3), Trade(2, 1, 1), Put(7, 3), Place(Down, 300)} {
		f.Add(MoveText(m))
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			return
		}
		if MoveText(m) != text {
			t.Fatalf("%q reads as %d, written %q", text, m, MoveText(m))
		}
	})
}

func FuzzParseState(f *testing.F) {
	s, _ := newGame(2, options{}, 1)
	f.Add(s.String())
	_ = game.PlayText(s, "place H f3")
	f.Add(s.String())
	s4, _ := newGame(4, options{Board: BoardByName("hard"), Deal: true, MaxAboard: 5, NoTimer: true, Open: true}, 2)
	f.Add(s4.String())
	s1, _ := newGame(1, options{}, 3)
	f.Add(s1.String())
	// Red loading at island A, an exchange in progress (docs/laguna.md).
	f.Add("laguna 2 board=easy raft=4 deal=random timer=on open=off limit=0; play seat=R turns=2 played=0 moved=0 steps=0 peeked=0 exchanging=A; R H f3 holes=Y....B home=A begun=0 reef=0; Y H p3 holes=...... home=B begun=0 reef=0; islands G RGB RGB RYB RYB RYG YGB RYG; volcano 0 0 0 0")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseState(text)
		if err != nil {
			return
		}
		if s.String() != text {
			t.Fatalf("%q reads back as %q", text, s.String())
		}
		// A state read plays on without a panic.
		for _, m := range s.AppendLegal(nil) {
			c := *s
			if err := c.Play(m); err != nil {
				t.Fatalf("legal move %s refused: %v", MoveText(m), err)
			}
			c.View(game.Viewer{Seat: 0})
		}
	})
}
