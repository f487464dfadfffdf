package bluelagoon_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

var diffGames = flag.Int("diff.games", 0, "random games per board and player count in TestDifferential; 0 picks a default that is smaller under -short or -race (the env var LAGOON_DIFF_GAMES sets it too)")

// gamesPerConfig returns how many random games TestDifferential plays on each
// board with each player count.
func gamesPerConfig(t *testing.T) int {
	if *diffGames > 0 {
		return *diffGames
	}
	if s := os.Getenv("LAGOON_DIFF_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("LAGOON_DIFF_GAMES=%q: want a positive number", s)
		}
		return n
	}
	if testing.Short() || raceEnabled() {
		return 12
	}
	return 80
}

// raceEnabled reports whether the test binary was built with -race.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// boardText returns the notation of a built-in board from testdata, as the
// rules page gives it, without the file's final newline.
func boardText(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "boards", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatalf("testdata/boards/%s.txt does not end in a newline", name)
	}
	return string(b[:len(b)-1])
}

// engineLayout reads the tokens lying on the stone circles of g.
func engineLayout(g *bluelagoon.Game) map[coord]byte {
	out := map[coord]byte{}
	for _, c := range g.Board().StoneCircles() {
		if t, ok := g.TokenAt(c); ok {
			out[c] = t.Letter()
		}
	}
	return out
}

func toRefScore(s bluelagoon.Score) refScore {
	return refScore{s.Islands, s.Links, s.Majorities, s.Resources, s.Set, s.Statuettes, s.Total}
}

// diffRef returns a description of the first difference between the engine
// and the reference model, or "".
func diffRef(g *bluelagoon.Game, r *refGame) string {
	if s, rs := g.String(), r.String(); s != rs {
		return fmt.Sprintf("state differs:\nengine    %s\nreference %s", s, rs)
	}
	if g.Current() != r.current {
		return fmt.Sprintf("current player: engine %d, reference %d", g.Current(), r.current)
	}
	if ph := g.Phase().Letter(); ph != r.phase {
		return fmt.Sprintf("phase: engine %c, reference %c", ph, r.phase)
	}
	if g.PhaseOver() != r.over {
		return fmt.Sprintf("phase over: engine %v, reference %v", g.PhaseOver(), r.over)
	}
	if over := r.phase == 'S' && r.over; g.Over() != over {
		return fmt.Sprintf("game over: engine %v, reference %v", g.Over(), over)
	}
	rms := r.moves()
	if ms := g.LegalMoves(); !slices.Equal(ms, rms) {
		return fmt.Sprintf("legal moves of player %d:\nengine    %v\nreference %v", r.current, ms, rms)
	}
	if n := g.NumLegalMoves(); n != len(rms) {
		return fmt.Sprintf("NumLegalMoves: engine %d, reference %d", n, len(rms))
	}
	scores, rscores := g.Scores(), r.scores()
	totals := g.Totals()
	for p := range r.players {
		if s := toRefScore(scores[p]); s != rscores[p] {
			return fmt.Sprintf("score of player %d: engine %+v, reference %+v", p, s, rscores[p])
		}
		if totals[p] != r.totals[p] {
			return fmt.Sprintf("total of player %d: engine %d, reference %d", p, totals[p], r.totals[p])
		}
		if g.SettlersLeft(p) != r.settlersLeft(p) || g.VillagesLeft(p) != r.villagesLeft(p) {
			return fmt.Sprintf("pieces left to player %d: engine %d settlers %d villages, reference %d and %d",
				p, g.SettlersLeft(p), g.VillagesLeft(p), r.settlersLeft(p), r.villagesLeft(p))
		}
		if g.TokensHeld(p) != r.tokensHeld(p) {
			return fmt.Sprintf("tokens held by player %d: engine %d, reference %d", p, g.TokensHeld(p), r.tokensHeld(p))
		}
	}
	for _, ph := range []bluelagoon.Phase{bluelagoon.Exploration, bluelagoon.Settlement} {
		es, ok := g.PhaseScores(ph)
		rs, rok := r.phaseScores[ph.Letter()]
		if !ok {
			continue // a game read from notation forgets the breakdown
		}
		if !rok {
			return fmt.Sprintf("engine has a breakdown of the %v phase, the reference has not scored it", ph)
		}
		for p := range r.players {
			if s := toRefScore(es[p]); s != rs[p] {
				return fmt.Sprintf("%v phase score of player %d: engine %+v, reference %+v", ph, p, s, rs[p])
			}
		}
	}
	if w, rw := g.Winners(), r.winners(); !slices.Equal(w, rw) {
		return fmt.Sprintf("winners: engine %v, reference %v", w, rw)
	}
	return ""
}

// A policy picks the next move among the legal ones. Besides uniform play,
// the policies steer games into the rarer corners of the rules: no villages
// at all (the settlement phase is over at once), villages first, and a race
// for the tokens (the phases end by collection).
type policy struct {
	name string
	pick func(r *rand.Rand, g *bluelagoon.Game, moves []move) int
}

func preferring(keep func(g *bluelagoon.Game, m move) bool) func(*rand.Rand, *bluelagoon.Game, []move) int {
	return func(r *rand.Rand, g *bluelagoon.Game, moves []move) int {
		var idx []int
		for i, m := range moves {
			if keep(g, m) {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return r.IntN(len(moves))
		}
		return idx[r.IntN(len(idx))]
	}
}

var policies = []policy{
	{"uniform", func(r *rand.Rand, _ *bluelagoon.Game, moves []move) int { return r.IntN(len(moves)) }},
	{"no-villages", preferring(func(_ *bluelagoon.Game, m move) bool { return m.Piece == bluelagoon.Settler })},
	{"villages-first", preferring(func(_ *bluelagoon.Game, m move) bool { return m.Piece == bluelagoon.Village })},
	{"tokens-first", preferring(func(g *bluelagoon.Game, m move) bool { _, ok := g.TokenAt(m.At); return ok })},
	{"land-first", preferring(func(g *bluelagoon.Game, m move) bool { return g.Board().IslandAt(m.At) >= 0 })},
	{"collector", collect},
}

// collect races for the resources with settlers only: it picks a settler
// move closest to a resource still on the board. Games played so end the
// exploration phase by collection, often with no village placed, so that
// the settlement phase is over at once.
func collect(r *rand.Rand, g *bluelagoon.Game, moves []move) int {
	b := g.Board()
	dist := map[coord]int{}
	var queue []coord
	for _, c := range b.StoneCircles() {
		if t, ok := g.TokenAt(c); ok && t.IsResource() {
			dist[c] = 0
			queue = append(queue, c)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, n := range b.Neighbours(c) {
			if _, ok := dist[n]; !ok {
				dist[n] = dist[c] + 1
				queue = append(queue, n)
			}
		}
	}
	best, bestDist := -1, 0
	ties := 0
	for i, m := range moves {
		if m.Piece != bluelagoon.Settler {
			continue
		}
		d, ok := dist[m.At]
		if !ok {
			d = 1 << 20
		}
		switch {
		case best < 0 || d < bestDist:
			best, bestDist, ties = i, d, 1
		case d == bestDist:
			ties++
			if r.IntN(ties) == 0 {
				best = i
			}
		}
	}
	if best < 0 {
		return r.IntN(len(moves))
	}
	return best
}

// TestDifferential plays random games on every built-in board with 2, 3 and
// 4 players and compares the engine with the reference model after every
// move: legal moves, scores, state, player to move, phase and game over.
// The settlement phase's token layout is the one chance event; the reference
// takes it from the engine right after the transition.
func TestDifferential(t *testing.T) {
	games := gamesPerConfig(t)
	for _, name := range bluelagoon.BoardNames() {
		text := boardText(t, name)
		for players := 2; players <= 4; players++ {
			t.Run(fmt.Sprintf("%s/%dp", name, players), func(t *testing.T) {
				t.Parallel()
				b, err := bluelagoon.BoardByName(name)
				if err != nil {
					t.Fatal(err)
				}
				stats := map[string]int{}
				for i := range games {
					seed := uint64(i)*1_000_003 + uint64(players)
					pol := policies[i%len(policies)]
					playDifferential(t, b, text, players, seed, pol, stats)
					if t.Failed() {
						t.Fatalf("game %d (seed %d, policy %s) failed", i, seed, pol.name)
					}
				}
				// The games must reach the corners they are meant to test;
				// in the default run they do on every board and count.
				if games >= 50 {
					for _, k := range []string{"settlement started", "game over", "skip", "immediate end", "ended by collection", "ended with no moves"} {
						// On sides the stone circles are most of the land:
						// there the exploration phase always ends by collection.
						if stats[k] == 0 && !(k == "ended with no moves" && name == "sides") {
							t.Errorf("no game reached %q: %v", k, stats)
						}
					}
				}
				t.Logf("%d games: %v", games, stats)
			})
		}
	}
}

func playDifferential(t *testing.T, b *bluelagoon.Board, text string, players int, seed uint64, pol policy, stats map[string]int) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	g := newGame(t, b, players, seed, int(seed%uint64(players)))
	ref := newRefGameFrom(text, players, g.Current(), engineLayout(g))
	if d := diffRef(g, ref); d != "" {
		t.Fatalf("initial state: %s", d)
	}
	var moves []move
	for turn := 0; !g.Over(); turn++ {
		if turn > 4*30*2+10 {
			t.Fatalf("game does not end:\n%s", g)
		}
		moves = g.AppendLegalMoves(moves[:0])
		if len(moves) == 0 {
			t.Fatalf("no legal move in a game that is not over:\n%s", g)
		}
		for k, m := range moves {
			if lm := g.LegalMove(k); lm != m {
				t.Fatalf("LegalMove(%d) = %v, LegalMoves()[%d] = %v\n%s", k, lm, k, m, g)
			}
		}
		// RandomMove and ApplyRandom draw one number k from the generator
		// and take the k-th move, settler moves first, then village moves.
		var bySettlersFirst []move
		for _, piece := range []bluelagoon.Piece{bluelagoon.Settler, bluelagoon.Village} {
			for _, m := range moves {
				if m.Piece == piece {
					bySettlersFirst = append(bySettlersFirst, m)
				}
			}
		}
		src := rand.NewPCG(seed, uint64(turn))
		want := bySettlersFirst[rand.New(src).IntN(len(moves))]
		src.Seed(seed, uint64(turn))
		if rm := g.RandomMove(rand.New(src)); rm != want {
			t.Fatalf("RandomMove = %v, want %v\n%s", rm, want, g)
		}
		src.Seed(seed, uint64(turn))
		played := *g
		if am := played.ApplyRandom(rand.New(src)); am != want {
			t.Fatalf("ApplyRandom = %v, want %v\n%s", am, want, g)
		}
		applied := *g
		applied.ApplyLegal(want)
		if played != applied {
			t.Fatalf("ApplyRandom and ApplyLegal(%v) give different games\n%s", want, g)
		}
		k := pol.pick(r, g, moves)
		m := moves[k]
		// A few other placements: Check accepts exactly the reference's
		// legal moves.
		for range 4 {
			h := g.Board().Height()
			row := r.IntN(h + 1)
			probe := move{Piece: bluelagoon.Piece(r.IntN(2)), At: coord{Row: row, Col: r.IntN(h + 1)}}
			if err := g.Check(probe); (err == nil) != ref.legal(ref.current, probe) {
				t.Fatalf("Check(%v) = %v, reference legal = %v\n%s", probe, err, ref.legal(ref.current, probe), g)
			}
		}
		before := g.Current()
		phase := g.Phase()
		collected := 0
		for p := range players {
			h := g.Held(p)
			collected += h[bluelagoon.Coconut] + h[bluelagoon.Bamboo] + h[bluelagoon.Water] + h[bluelagoon.PreciousStone]
		}
		if tok, ok := g.TokenAt(m.At); ok && tok.IsResource() {
			collected++
		}
		if turn%2 == 0 {
			if err := g.Apply(m); err != nil {
				t.Fatalf("Apply(%v) of a listed move: %v\n%s", m, err, g)
			}
		} else {
			g.ApplyLegal(m)
		}
		ref.apply(m, func() map[coord]byte {
			layout := engineLayout(g)
			checkLayout(t, g, layout)
			return layout
		})
		if d := diffRef(g, ref); d != "" {
			t.Fatalf("after move %d %v by player %d: %s", turn+1, m, before, d)
		}
		switch {
		case phase == bluelagoon.Exploration && g.Phase() == bluelagoon.Settlement:
			stats["settlement started"]++
			if g.Over() {
				stats["immediate end"]++
			}
			if collected == 24 {
				stats["ended by collection"]++
			} else {
				stats["ended with no moves"]++
			}
		case phase == bluelagoon.Settlement && g.Over() && collected == 24:
			stats["game ended by collection"]++
		case g.Phase() == phase && !g.Over() && g.Current() != (before+1)%players:
			stats["skip"]++
		}
		// Now and then carry on from the printed state, read back: a
		// parsed game must play on exactly like the original.
		if r.IntN(40) == 0 {
			p, err := bluelagoon.ParseState(g.String())
			if err != nil {
				t.Fatalf("ParseState of a reached state: %v\n%s", err, g)
			}
			p.Reseed(r.Uint64())
			g = p
			if d := diffRef(g, ref); d != "" {
				t.Fatalf("after reading back the state: %s", d)
			}
		}
	}
	stats["game over"]++
}

// checkLayout checks a fresh token layout: every stone circle holds a token,
// 6 of each resource and 8 statuettes, and nobody holds anything.
func checkLayout(t *testing.T, g *bluelagoon.Game, layout map[coord]byte) {
	t.Helper()
	count := map[byte]int{}
	for _, k := range layout {
		count[k]++
	}
	want := map[byte]int{'C': 6, 'B': 6, 'W': 6, 'P': 6, 'S': 8}
	if len(layout) != 32 || !mapsEqual(count, want) {
		t.Fatalf("settlement layout has %d tokens %v, want one on each of 32 circles %v", len(layout), count, want)
	}
	for p := range g.Players() {
		if n := g.TokensHeld(p); n != 0 {
			t.Fatalf("player %d holds %d tokens after the reshuffle", p, n)
		}
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestRandomPositions compares the engine with the reference model on
// positions that random play rarely reaches: pieces strewn over the board at
// random densities, up to every piece of every player, with tokens held in
// random shares. Both read the same notation; legal moves, scores, the state
// and the end of the phase must agree, and the next move must too.
func TestRandomPositions(t *testing.T) {
	n := 2000
	if testing.Short() || raceEnabled() {
		n = 200
	}
	r := rand.New(rand.NewPCG(8, 8))
	for i := range n {
		name := bluelagoon.BoardNames()[i%5]
		players := 2 + i%3
		phase := byte("ES"[i/3%2])
		b, _ := bluelagoon.BoardByName(name)
		allowance := bluelagoon.SettlerAllowance(players)
		density := r.Float64()
		type spec struct{ settlers, villages []string }
		specs := make([]spec, players)
		for row := range b.Height() {
			for col := range bluelagoon.RowLen(b.Height(), row) {
				c := coord{Row: row, Col: col}
				if r.Float64() > density {
					continue
				}
				p := r.IntN(players)
				land := b.IslandAt(c) >= 0
				village := land && r.IntN(4) == 0 && !(phase == 'S' && b.IsStoneCircle(c))
				switch {
				case village && len(specs[p].villages) < bluelagoon.VillagesPerPlayer:
					specs[p].villages = append(specs[p].villages, c.String())
				case len(specs[p].settlers) < allowance:
					specs[p].settlers = append(specs[p].settlers, c.String())
				}
			}
		}
		pieces := make([]string, players)
		for p, s := range specs {
			pieces[p] = strings.Join(slices.Concat([]string{"S"}, s.settlers, []string{"T"}, s.villages), " ")
		}
		// Tokens: each one held by a random player or left on a free circle.
		free := 0
		for _, c := range b.StoneCircles() {
			if !slices.ContainsFunc(specs, func(s spec) bool {
				return slices.Contains(s.settlers, c.String()) || slices.Contains(s.villages, c.String())
			}) {
				free++
			}
		}
		held := make([][5]int, players)
		left := 0
		for k, supply := range []int{6, 6, 6, 6, 8} {
			for range supply {
				if left < free && r.IntN(3) == 0 {
					left++
					continue
				}
				held[r.IntN(players)][k]++
			}
		}
		scores := make([]int, players)
		if phase == 'S' {
			for p := range scores {
				scores[p] = r.IntN(150)
			}
		}
		ps := pos{board: name, players: players, current: r.IntN(players), phase: phase, pieces: pieces, held: held, scores: scores}
		state := ps.state(t)
		// Play never gives the turn to a player who cannot move while others
		// can, and such a state is refused; name the next seat that can.
		if ref := newRefGame(state); !ref.canMove(ps.current) && ref.resourcesCollected() < 24 && ref.anyoneCanMove() {
			_, err := bluelagoon.ParseState(state)
			if err == nil || !strings.Contains(err.Error(), "no legal placement") {
				t.Fatalf("a state whose player to move cannot move was not refused as such: %v\n%s", err, state)
			}
			ps.current = ref.nextMover(ps.current)
			state = ps.state(t)
		}
		g, err := bluelagoon.ParseState(state)
		if err != nil {
			t.Fatalf("ParseState: %v\n%s", err, state)
		}
		ref := newRefGame(state)
		if d := diffRef(g, ref); d != "" {
			t.Fatalf("position %d: %s", i, d)
		}
		if moves := g.LegalMoves(); len(moves) > 0 {
			m := moves[r.IntN(len(moves))]
			g.ApplyLegal(m)
			ref.apply(m, func() map[coord]byte { return engineLayout(g) })
			if d := diffRef(g, ref); d != "" {
				t.Fatalf("position %d after %v: %s\n%s", i, m, d, state)
			}
		}
	}
}
