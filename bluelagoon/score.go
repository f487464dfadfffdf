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

// Scores scores the board as it stands and the tokens held now, for each
// player; entries past Players are zero. It is what the phase would score if
// it ended now.
func (g *Game) Scores() [MaxPlayers]Score {
	var out [MaxPlayers]Score
	var count [MaxPlayers][MaxIslands]uint8
	b := g.board
	n := int(g.players)
	for p := range n {
		reached := 0
		for i := range b.islands {
			c := 0
			for w := b.span[i][0]; w < b.span[i][1]; w++ {
				c += bits.OnesCount64(g.own[p][w] & b.island[i][w])
			}
			count[p][i] = uint8(c)
			if c > 0 {
				reached++
			}
		}
		sc := &out[p]
		switch {
		case reached >= 8:
			sc.Islands = 20
		case reached == 7:
			sc.Islands = 10
		}
		sc.Links = 5 * int(g.links[p].best)
		sc.Statuettes = 4 * int(g.held[p][Statuette])
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

// maxPieces bounds the pieces one player has on the board in a phase: 30
// settlers and 5 villages.
const maxPieces = 30 + VillagesPerPlayer

// linkForest tracks the connected groups of one player's pieces as they are
// placed, for the links score: a union-find over the pieces in the order they
// were placed, with the islands each group stands on kept at its root. Groups
// only ever merge within a phase, so the best group so far is the best group.
type linkForest struct {
	parent  [maxPieces]int8
	islands [maxPieces]uint64
	n       uint8 // pieces in the forest
	best    uint8 // most islands of one group
}

func (f *linkForest) find(x int8) int8 {
	for f.parent[x] != x {
		f.parent[x] = f.parent[f.parent[x]]
		x = f.parent[x]
	}
	return x
}

// link adds player p's piece just placed on space s to p's groups, joining
// the groups of p's pieces next to it. The new piece joins the first group it
// touches, and further groups are hung under that group's root, so trees stay
// shallow.
func (g *Game) link(p, s int) {
	b := g.board
	f := &g.links[p]
	o := int8(f.n)
	f.n++
	f.parent[o] = o
	f.islands[o] = b.islandBit[s]
	g.slot[s] = o
	root := o
	adj := &b.adj[s]
	for k, a := range adj.bits {
		w := adj.word + k
		for x := a & g.own[p][w]; x != 0; x &= x - 1 {
			r := f.find(g.slot[w<<6+bits.TrailingZeros64(x)])
			switch {
			case r == root:
			case root == o:
				f.parent[o] = r
				f.islands[r] |= f.islands[o]
				root = r
			default:
				f.parent[r] = root
				f.islands[root] |= f.islands[r]
			}
		}
	}
	f.best = max(f.best, uint8(bits.OnesCount64(f.islands[root])))
}

// A ScoreSheet is what each player would score if the current phase ended
// now, component by component, one number a player: the answer of lagoon
// rules score, in the form the course's tools read.
type ScoreSheet struct {
	Islands    []int `json:"islands"`
	Links      []int `json:"links"`
	Majorities []int `json:"majorities"`
	Resources  []int `json:"resources"`
	Set        []int `json:"set"`
	Statuettes []int `json:"statuettes"`
	Total      []int `json:"total"`
}

// ScoreSheet returns the game's score sheet (Scores by component).
func (g *Game) ScoreSheet() any {
	var c ScoreSheet
	scores := g.Scores()
	for _, s := range scores[:g.Players()] {
		c.Islands = append(c.Islands, s.Islands)
		c.Links = append(c.Links, s.Links)
		c.Majorities = append(c.Majorities, s.Majorities)
		c.Resources = append(c.Resources, s.Resources)
		c.Set = append(c.Set, s.Set)
		c.Statuettes = append(c.Statuettes, s.Statuettes)
		c.Total = append(c.Total, s.Total)
	}
	return c
}
