package bluelagoon

import "math/bits"

// Score is one player's score for a phase, component by component (section 8
// of the rules).
type Score struct {
	Islands    int `json:"islands"`    // 20 for 8 or more islands, 10 for 7
	Links      int `json:"links"`      // 5 per island of the best connected group
	Majorities int `json:"majorities"` // island bonuses won or shared
	Resources  int `json:"resources"`  // 5, 10 or 20 per resource kind
	Set        int `json:"set"`        // 10 for one of each resource
	Statuettes int `json:"statuettes"` // 4 per statuette
	Total      int `json:"total"`
}

// maxPieces bounds the pieces one player can have on the board.
const maxPieces = 30 + VillagesPerPlayer

// Scores scores the board as it stands and the tokens held now, for each
// player; entries past Players are zero. It is what the phase would score if
// it ended now.
func (g *Game) Scores() [MaxPlayers]Score {
	var out [MaxPlayers]Score
	var count [MaxPlayers][MaxIslands]uint8
	b := g.board
	n := int(g.players)
	for p := range n {
		var pieces bitset
		for w := range b.words {
			pieces[w] = g.settlers[p][w] | g.villages[p][w]
		}
		var reached uint64
		for w := range b.words {
			for x := pieces[w]; x != 0; x &= x - 1 {
				if i := b.islandOf[w<<6+bits.TrailingZeros64(x)]; i >= 0 {
					reached |= 1 << uint(i)
					count[p][i]++
				}
			}
		}
		sc := &out[p]
		switch k := bits.OnesCount64(reached); {
		case k >= 8:
			sc.Islands = 20
		case k == 7:
			sc.Islands = 10
		}
		sc.Links = 5 * g.bestLink(&pieces)
		statuettes := int(g.held[p][Statuette])
		sc.Statuettes = 4 * statuettes
		kinds := 0
		for t := Coconut; t < Statuette; t++ {
			switch h := g.held[p][t]; {
			case h >= 4:
				sc.Resources += 20
			case h == 3:
				sc.Resources += 10
			case h == 2:
				sc.Resources += 5
			}
			if g.held[p][t] > 0 {
				kinds++
			}
		}
		if kinds == NumResources {
			sc.Set = 10
		}
	}
	for i, isl := range b.islands {
		best, tied := uint8(0), 0
		for p := range n {
			switch c := count[p][i]; {
			case c > best:
				best, tied = c, 1
			case c == best && c > 0:
				tied++
			}
		}
		if best == 0 {
			continue
		}
		share := isl.Bonus / tied
		for p := range n {
			if count[p][i] == best {
				out[p].Majorities += share
			}
		}
	}
	for p := range n {
		sc := &out[p]
		sc.Total = sc.Islands + sc.Links + sc.Majorities + sc.Resources + sc.Set + sc.Statuettes
	}
	return out
}

// bestLink returns the largest number of different islands that one
// connected group of the given pieces stands on.
//
// It labels the groups in one pass in space order with a union-find over the
// pieces: each piece is joined to its neighbours that come before it (left and
// the two above), whose ordinals are prefix popcounts of the piece set.
func (g *Game) bestLink(pieces *bitset) int {
	b := g.board
	var parent [maxPieces]int8
	var islands [maxPieces]uint64
	var prefix [maxWords]int8
	o := 0
	for w := range b.words {
		prefix[w] = int8(o)
		o += bits.OnesCount64(pieces[w])
	}
	find := func(x int8) int8 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	o = 0
	for w := range b.words {
		for x := pieces[w]; x != 0; x &= x - 1 {
			s := w<<6 + bits.TrailingZeros64(x)
			parent[o] = int8(o)
			if i := b.islandOf[s]; i >= 0 {
				islands[o] = 1 << uint(i)
			}
			root := int8(o)
			for _, t := range b.back[s] {
				if t < 0 || pieces[t>>6]&(1<<(uint(t)&63)) == 0 {
					continue
				}
				ord := prefix[t>>6] + int8(bits.OnesCount64(pieces[t>>6]&(1<<(uint(t)&63)-1)))
				if r := find(ord); r != root {
					parent[r] = root
				}
			}
			o++
		}
	}
	var group [maxPieces]uint64
	for k := range o {
		group[find(int8(k))] |= islands[k]
	}
	best := 0
	for _, m := range group[:o] {
		best = max(best, bits.OnesCount64(m))
	}
	return best
}
