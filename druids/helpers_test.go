package druids

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// pos builds a position for a test: players seats, every tile of the game
// in the play set and in the bag but those placed, every druid in its
// supply, seat 0 in its Action step with its marker refreshed. world
// places sites as "1A@16,16 14A@17,16"; druids are then set with put.
func pos(t testing.TB, players int, world string) *State {
	t.Helper()
	s := &State{players: uint8(players)}
	s.rng.Seed(7, 7)
	for tile := range NumTiles {
		s.set |= 1 << tile
		s.loc[tile] = locBag
	}
	s.bag = s.set
	for p := range MaxPlayers {
		s.eld[p] = -1
		s.acoSup[p] = 4
	}
	for _, w := range strings.Fields(world) {
		id, at, _ := strings.Cut(w, "@")
		site, err := ParseSiteID(id)
		if err != nil {
			t.Fatal(err)
		}
		var q, r int
		if _, err := fmt.Sscanf(at, "%d,%d", &q, &r); err != nil {
			t.Fatalf("cell %q: %v", at, err)
		}
		if s.inPlay>>(site/2)&1 != 0 {
			t.Fatalf("tile %d placed twice", site/2+1)
		}
		s.bag &^= 1 << (site / 2)
		s.place(site/2, site%2, cellAt(q, r))
	}
	s.step = stepAction
	return s
}

// line places sites in a row, west to east from 10,16: "1A 14A 21A".
func line(ids string) string {
	var parts []string
	for i, id := range strings.Fields(ids) {
		parts = append(parts, id+"@"+itoa(10+i)+",16")
	}
	return strings.Join(parts, " ")
}

func itoa(n int) string { return strconv.Itoa(n) }

// put sets druids on the board, written as in the notation: "1E@1A",
// "2a@14A" (seat, E/e Eldrid refreshed/exhausted, A/a acolyte).
func put(t testing.TB, s *State, druids ...string) {
	t.Helper()
	for _, text := range druids {
		m, ok := s.parseMove(text)
		if !ok || m&^argMask != vDruid {
			t.Fatalf("druid %q", text)
		}
		d := druid(m & argMask)
		if s.inPlay>>d.tile()&1 == 0 {
			t.Fatalf("druid %q: the site is not in play", text)
		}
		if !d.eldrid() {
			s.acoSup[d.seat()]--
		}
		s.put(d)
	}
}

// play plays moves by their text, failing the test on a refusal.
func play(t testing.TB, s *State, moves ...string) {
	t.Helper()
	for _, text := range moves {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatalf("%v (legal: %v)\n%s", err, legalText(s), s)
		}
		if err := s.Play(m); err != nil {
			t.Fatalf("%s: %v\n%s", text, err, s)
		}
	}
}

// refused checks that a move is not legal now.
func refused(t testing.TB, s *State, text string) {
	t.Helper()
	if slices.Contains(legalText(s), text) {
		t.Fatalf("%s is legal: %v", text, legalText(s))
	}
}

// offers checks that a move is legal now.
func offers(t testing.TB, s *State, text string) {
	t.Helper()
	if !slices.Contains(legalText(s), text) {
		t.Fatalf("%s is not legal: %v", text, legalText(s))
	}
}

// legalIs checks the whole list of legal moves.
func legalIs(t testing.TB, s *State, want ...string) {
	t.Helper()
	got := legalText(s)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("legal %v, want %v", got, want)
	}
}

func legalText(s *State) []string {
	var out []string
	for _, m := range s.AppendLegal(nil) {
		out = append(out, s.MoveText(m))
	}
	return out
}

// druidsOf writes seat p's druids as the notation does.
func druidsOf(s *State, p int) string {
	text := s.String()
	key := "; druids" + itoa(p+1) + " "
	i := strings.Index(text, key)
	rest := text[i+len(key):]
	return rest[:strings.Index(rest, ";")]
}

// tileAtLabel returns the label of the site at q,r, or "".
func siteAt(s *State, q, r int) string {
	t := s.tileAt(cellAt(q, r))
	if t < 0 {
		return ""
	}
	return s.tileLabel(t)
}

func gameViewer() game.Viewer { return game.Viewer{Seat: 0, Names: []string{"P1", "P2"}} }
