package arena

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Endings is how a tournament's games ended: how many ended each way, how
// many were stopped or forfeited, and how long those played to the end
// took. It is what tells a game that ends by its rules from one a bot holds
// up: a game that stalls shows as a long tail of turns, as a rule's own way
// of ending it (Laguna's "calm"), or as games stopped at the bound.
type Endings struct {
	// By counts the games played to the end by how they ended (Game.End).
	By         map[string]int `json:"by"`
	Unfinished int            `json:"unfinished"`
	Forfeits   int            `json:"forfeits"`
	// Turns are the median, 99th percentile (nearest rank) and most turns
	// of the games played to the end; MaxMoves their most decisions.
	TurnsMedian int `json:"turns_median"`
	TurnsP99    int `json:"turns_p99"`
	TurnsMax    int `json:"turns_max"`
	MaxMoves    int `json:"max_moves"`
}

// SummariseEndings counts how the games ended.
func SummariseEndings(games []Game) Endings {
	e := Endings{By: map[string]int{}}
	var turns []int
	for _, g := range games {
		switch {
		case g.Forfeit != nil:
			e.Forfeits++
		case g.Unfinished:
			e.Unfinished++
		default:
			e.By[g.End]++
			turns = append(turns, g.Turns)
			e.MaxMoves = max(e.MaxMoves, len(g.Record.Moves))
		}
	}
	if len(turns) > 0 {
		slices.Sort(turns)
		e.TurnsMedian = turns[(len(turns)-1)/2]
		e.TurnsP99 = turns[(99*len(turns)+99)/100-1]
		e.TurnsMax = turns[len(turns)-1]
	}
	return e
}

// Write writes the endings in a line: the ways, most games first, then the
// games stopped and forfeited, and the lengths.
func (e Endings) Write(w io.Writer) error {
	ways := slices.SortedFunc(maps.Keys(e.By), func(a, b string) int {
		return cmp.Or(e.By[b]-e.By[a], strings.Compare(a, b))
	})
	var parts []string
	for _, way := range ways {
		parts = append(parts, fmt.Sprintf("%d %s", e.By[way], way))
	}
	if len(parts) == 0 {
		parts = append(parts, "none")
	}
	line := "ended: " + strings.Join(parts, ", ")
	line += fmt.Sprintf("; %d stopped unfinished, %d forfeited", e.Unfinished, e.Forfeits)
	if len(ways) > 0 {
		line += fmt.Sprintf("; turns p50 %d, p99 %d, max %d; decisions at most %d", e.TurnsMedian, e.TurnsP99, e.TurnsMax, e.MaxMoves)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}
