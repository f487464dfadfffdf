package bluelagoon_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
)

// checkInvariants checks what must hold in every reached state.
func checkInvariants(t *rapid.T, g *bluelagoon.Game) {
	b := g.Board()
	players := g.Players()
	allowance := bluelagoon.SettlerAllowance(players)

	// No two pieces on a space: the notation lists every piece once.
	seen := map[string]bool{}
	for _, stmt := range strings.Split(g.String(), "; ") {
		if !strings.HasPrefix(stmt, "p ") {
			continue
		}
		f := strings.Fields(strings.TrimSuffix(stmt, ";"))
		for _, c := range f[8:] {
			if c == "S" || c == "T" {
				continue
			}
			if seen[c] {
				t.Fatalf("two pieces on %s:\n%s", c, g)
			}
			seen[c] = true
		}
	}

	// Pieces on the board against the allowances.
	var settlers, villages [bluelagoon.MaxPlayers]int
	for r := range b.Height() {
		for c := range bluelagoon.RowLen(b.Height(), r) {
			p, piece, ok := g.PieceAt(coord{Row: r, Col: c})
			switch {
			case !ok:
			case piece == bluelagoon.Settler:
				settlers[p]++
			default:
				villages[p]++
			}
		}
	}
	if n := settlers[0] + settlers[1] + settlers[2] + settlers[3] + villages[0] + villages[1] + villages[2] + villages[3]; n != len(seen) {
		t.Fatalf("PieceAt finds %d pieces, the notation %d", n, len(seen))
	}
	for p := range players {
		if settlers[p] > allowance || villages[p] > bluelagoon.VillagesPerPlayer {
			t.Fatalf("player %d has %d settlers and %d villages on the board", p, settlers[p], villages[p])
		}
		if g.SettlersLeft(p) != allowance-settlers[p] {
			t.Fatalf("player %d: %d settlers left with %d of %d on the board", p, g.SettlersLeft(p), settlers[p], allowance)
		}
		want := bluelagoon.VillagesPerPlayer - villages[p]
		if g.Phase() == bluelagoon.Settlement {
			want = 0
		}
		if g.VillagesLeft(p) != want {
			t.Fatalf("player %d: %d villages left with %d on the board in the %v phase", p, g.VillagesLeft(p), villages[p], g.Phase())
		}
	}

	// The 32 tokens are on the stone circles or held.
	var count [bluelagoon.NumTokenKinds]int
	for _, c := range b.StoneCircles() {
		if tok, ok := g.TokenAt(c); ok {
			if _, _, taken := g.PieceAt(c); taken {
				t.Fatalf("a token lies under the piece on %v", c)
			}
			count[tok]++
		}
	}
	for p := range players {
		for k, n := range g.Held(p) {
			count[k] += n
		}
	}
	if count != [bluelagoon.NumTokenKinds]int{6, 6, 6, 6, 8} {
		t.Fatalf("tokens on the board and held: %v, want [6 6 6 6 8]", count)
	}

	// Printing then parsing gives the same state.
	s := g.String()
	back, err := bluelagoon.ParseState(s)
	if err != nil {
		t.Fatalf("ParseState of a reached state: %v\n%s", err, s)
	}
	if back.String() != s || !slices.Equal(back.LegalMoves(), g.LegalMoves()) || back.Scores() != g.Scores() ||
		back.Current() != g.Current() || back.Phase() != g.Phase() || back.PhaseOver() != g.PhaseOver() || back.Over() != g.Over() {
		t.Fatalf("the state read back differs:\n%s\n%s", s, back)
	}
}

// checkMoves checks that the legal moves are exactly the placements Check
// accepts, and that Apply takes each of them.
func checkMoves(t *rapid.T, g *bluelagoon.Game) {
	legal := g.LegalMoves()
	if len(legal) != g.NumLegalMoves() {
		t.Fatalf("LegalMoves has %d moves, NumLegalMoves says %d", len(legal), g.NumLegalMoves())
	}
	if !slices.IsSortedFunc(legal, func(a, b move) int {
		if c := compareCoords(a.At, b.At); c != 0 {
			return c
		}
		return int(a.Piece) - int(b.Piece)
	}) {
		t.Fatalf("legal moves are not sorted: %v", legal)
	}
	for k, m := range legal {
		if lm := g.LegalMove(k); lm != m {
			t.Fatalf("LegalMove(%d) = %v, LegalMoves()[%d] = %v", k, lm, k, m)
		}
	}
	b := g.Board()
	before := g.String()
	i := 0
	for r := -1; r <= b.Height(); r++ {
		for c := -1; c <= b.Height(); c++ {
			for _, piece := range []bluelagoon.Piece{bluelagoon.Settler, bluelagoon.Village} {
				m := move{Piece: piece, At: coord{Row: r, Col: c}}
				isLegal := i < len(legal) && legal[i] == m
				if isLegal {
					i++
				}
				err := g.Check(m)
				if (err == nil) != isLegal {
					t.Fatalf("Check(%v) = %v, but listed as legal: %v", m, err, isLegal)
				}
				if isLegal {
					cp := *g
					if err := cp.Apply(m); err != nil {
						t.Fatalf("Apply(%v) of a listed move: %v", m, err)
					}
				}
			}
		}
	}
	if i != len(legal) {
		t.Fatalf("legal moves off the board or out of order: %v", legal[i:])
	}
	if g.String() != before {
		t.Fatal("Check or Apply on a copy changed the game")
	}
}

func TestProperties(t *testing.T) {
	// Under -short or the race detector the games stop after some moves;
	// the properties checked are the same.
	maxMoves := 1 << 30
	if testing.Short() || raceEnabled() {
		maxMoves = 40
	}
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(bluelagoon.BoardNames()).Draw(t, "board")
		b, err := bluelagoon.BoardByName(name)
		if err != nil {
			t.Fatal(err)
		}
		players := rapid.IntRange(2, 4).Draw(t, "players")
		first := rapid.IntRange(0, players-1).Draw(t, "first")
		rec := game.Record{Game: bluelagoon.Rules.ID, Players: players, Seed: rapid.Uint64().Draw(t, "seed"),
			Options: map[string]string{"board": name, "first": strconv.Itoa(first)}}
		g := newGame(t, b, players, rec.Seed, first)
		var states []string
		for !g.Over() && len(rec.Moves) < maxMoves {
			checkInvariants(t, g)
			n := g.NumLegalMoves()
			if n == 0 {
				t.Fatalf("no legal move in a game that is not over:\n%s", g)
			}
			if len(rec.Moves)%16 == 0 {
				checkMoves(t, g)
			}
			m := g.LegalMove(rapid.IntRange(0, n-1).Draw(t, "move"))

			// Copies are independent, and Apply and ApplyLegal agree.
			before := g.String()
			cp, cl := *g, g.Clone()
			if err := cp.Apply(m); err != nil {
				t.Fatalf("Apply(%v): %v", m, err)
			}
			if g.String() != before || cl.String() != before {
				t.Fatal("playing on a copy changed the original")
			}
			g.ApplyLegal(m)
			if g.String() != cp.String() {
				t.Fatalf("Apply and ApplyLegal of %v differ:\n%s\n%s", m, &cp, g)
			}
			rec.Moves = append(rec.Moves, m.String())
			states = append(states, g.String())
		}
		checkInvariants(t, g)
		checkMoves(t, g)

		// Replaying the record, also through JSON, gives the same states.
		if len(rec.Moves) == 0 {
			return
		}
		replayed, err := rec.Replay(bluelagoon.Rules, -1)
		if err != nil || replayed.String() != g.String() {
			t.Fatalf("replay: %v\n%s\nwant\n%s", err, replayed, g)
		}
		k := rapid.IntRange(1, len(rec.Moves)).Draw(t, "replay prefix")
		if part, err := rec.Replay(bluelagoon.Rules, k); err != nil || part.String() != states[k-1] {
			t.Fatalf("Replay(%d): %v, a different state", k, err)
		}
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var back game.Record
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", data, err)
		}
		st, err := back.Replay(bluelagoon.Rules, -1)
		if err != nil {
			t.Fatalf("replay from JSON %s: %v", data, err)
		}
		again := bluelagoon.GameOf(st)
		if again.String() != g.String() || !slices.Equal(again.Winners(), g.Winners()) || again.Totals() != g.Totals() {
			t.Fatalf("replay from JSON %s: another game", data)
		}
	})
}
