package bots

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// Only exploring draws tiles, and the game ends with the turn that empties
// the bag, so a game in which no seat explores never ends. Two rules keep
// the bots ending theirs (docs/druids.md, Bots, "Games that end"):
//
//   - A free refresh is never passed when passing leaves the turn with
//     nothing to do: at the Refresh step, where "done" would leave the
//     circle no action but to end its turn, the bot refreshes (refreshing
//     costs nothing, and an exhausted circle cannot explore).
//   - In a stalled game every bot explores whenever it is offered; at its
//     Refresh step it refreshes a druid that can explore where none that
//     is refreshed can; and where none of its druids stands on a site with
//     an empty space beside it (nowhere to explore from), it takes the
//     action that puts one there. A game stalls once its turns outrun two
//     a tile drawn from the bag by more than StallTurns. In an ordinary
//     game about one tile is drawn a turn, so it never stalls; with a seat
//     that never explores, the bot's own explores keep the game stalled
//     and empty the bag, one tile a turn of the bot's.
//
// The search's haste (Position) makes it close out a game it leads long
// before the game stalls.

// StallTurns is how many turns a game may run beyond two a tile drawn
// from the bag before it stalls.
const StallTurns = 10

// startSites is how many sites a game starts with in play (one of each
// group), none of them drawn from the bag.
const startSites = 3

// stalled reports whether the game of text (a state's notation) has
// stalled: its turns outrun two a tile drawn by more than StallTurns.
func stalled(s *druids.State, text string) bool {
	set, _ := druids.ParseSet(section(text, "set")) // the state's own, so good
	bag := len(strings.Fields(section(text, "bag")))
	if section(text, "bag") == "-" {
		bag = 0
	}
	drawn := len(set) - startSites - bag
	return s.Turn() > StallTurns+2*drawn
}

// section returns the text of the section of a state's notation that
// begins with name ("bag 2 3 19" gives "2 3 19"), "" if there is none.
func section(text, name string) string {
	for sec := range strings.SplitSeq(text, "; ") {
		if rest, ok := strings.CutPrefix(sec, name+" "); ok {
			return rest
		}
	}
	return ""
}

// explore returns the explore of legal, and true, if it offers one.
func explore(s *druids.State, legal []game.Move) (game.Move, bool) {
	return ranked(s, legal, exploreRank)
}

// ranked returns the first of legal of the prior's rank, and true; false
// if there is none.
func ranked(s *druids.State, legal []game.Move, rank int) (game.Move, bool) {
	for _, m := range legal {
		if s.PriorRank(m) == rank {
			return m, true
		}
	}
	return 0, false
}

// exploreRank and stopRank are the prior ranks of the explore and of a way
// to stop (druids.State.PriorRank).
const (
	exploreRank = 3
	stopRank    = 0
)

// idlePass returns, at the Refresh step, the "done" of legal, and true, if
// passing there would leave the seat's turn with nothing to do: the turn
// ends, or its Action step offers nothing but the end.
func idlePass(s *druids.State, legal []game.Move) (game.Move, bool) {
	pass, ok := druids.Stop(legal)
	if !ok || len(legal) < 2 {
		return 0, false
	}
	c := *s
	c.PlayLegal(pass)
	if c.Over() || c.Turn() != s.Turn() || c.ToMove() != s.ToMove() {
		return pass, true
	}
	for _, m := range c.AppendLegal(nil) {
		if c.PriorRank(m) != stopRank {
			return 0, false
		}
	}
	return pass, true
}

// closing is what the two rules decide for the seat to decide in s: the
// explore in a stalled game (ok), else the pass the seat may not make
// (idle; 0 and false if none).
type closing struct {
	move, pass game.Move
	ok, idle   bool
}

func closingOf(s *druids.State, text string, legal []game.Move) closing {
	var c closing
	if stalled(s, text) {
		if c.move, c.ok = explore(s, legal); c.ok {
			return c
		}
		if refreshStep(text) {
			if c.move, c.ok = refreshToExplore(s, legal); c.ok {
				return c
			}
		}
		if openDruids(text, s.ToMove()) == 0 {
			if c.move, c.ok = reachOpen(s, legal); c.ok {
				return c
			}
		}
	}
	if refreshStep(text) {
		c.pass, c.idle = idlePass(s, legal)
	}
	return c
}

// refreshStep reports whether the state of text is at its Refresh step,
// no action being resolved.
func refreshStep(text string) bool {
	return strings.Contains(text, "; step refresh;") && strings.Contains(text, "; stack -;")
}

// refreshToExplore returns, at the Refresh step, the first druid of legal
// to refresh after which the turn's Action step offers the explore, and
// true; false if passing now would already offer it, or no refresh would.
func refreshToExplore(s *druids.State, legal []game.Move) (game.Move, bool) {
	pass, ok := druids.Stop(legal)
	if !ok || offeredAfter(s, pass, exploreRank) {
		return 0, false
	}
	for _, m := range legal {
		if m != pass && offeredAfter(s, m, exploreRank) {
			return m, true
		}
	}
	return 0, false
}

// offeredAfter reports whether, after m at the Refresh step and a pass if
// the step goes on, the seat is offered a choice of the prior's rank (the
// explore, the unravel).
func offeredAfter(s *druids.State, m game.Move, rank int) bool {
	var buf [256]game.Move
	c := *s
	c.PlayLegal(m)
	if c.Over() || c.ToMove() != s.ToMove() {
		return false
	}
	legal := c.AppendLegal(buf[:0])
	if offers(&c, legal, rank) {
		return true
	}
	pass, ok := druids.Stop(legal)
	if !ok || m == pass {
		return false
	}
	c.PlayLegal(pass)
	if c.Over() || c.ToMove() != s.ToMove() {
		return false
	}
	return offers(&c, c.AppendLegal(buf[:0]), rank)
}

// offers reports whether one of legal has the prior's rank.
func offers(s *druids.State, legal []game.Move, rank int) bool {
	_, ok := ranked(s, legal, rank)
	return ok
}

// CloseGames returns prepare for a search bot that ends its games by the
// two rules above: in a stalled game, where the explore is offered, the
// state it returns offers the search the explore alone; at a Refresh step
// where passing would leave nothing to do, a Position that does not offer
// the search the pass at this decision.
func CloseGames(prepare ai.Prepare) ai.Prepare {
	return func(st game.State) (game.State, error) {
		s, err := stateOf(st)
		if err != nil {
			return nil, err
		}
		c := closingOf(s, s.String(), s.AppendLegal(nil))
		if c.ok {
			return decided{st, c.move}, nil
		}
		pos, err := prepare(st)
		if err != nil || !c.idle {
			return pos, err
		}
		if p, ok := pos.(*Position); ok {
			p.noPass, p.passPly = true, p.Ply()
		}
		return pos, nil
	}
}

// openDruids returns how many of seat p's druids, exhausted or not, stand
// on a site of the world of text (a state's notation) with an empty space
// next to it: a site it could explore from.
func openDruids(text string, p int) int {
	cells := map[string][2]int{}
	taken := map[[2]int]bool{}
	for _, f := range strings.Fields(section(text, "world")) {
		label, at, _ := strings.Cut(f, "@")
		var c [2]int
		if _, err := fmt.Sscanf(at, "%d,%d", &c[0], &c[1]); err != nil {
			return 0
		}
		cells[label], taken[c] = c, true
	}
	n := 0
	for _, f := range strings.Fields(section(text, "druids"+strconv.Itoa(p+1))) {
		count := 1
		if i := strings.IndexFunc(f, func(r rune) bool { return r < '0' || r > '9' }); i > 0 {
			count, _ = strconv.Atoi(f[:i])
		}
		_, label, _ := strings.Cut(f, "@")
		c, ok := cells[label]
		if !ok {
			continue
		}
		for _, d := range hexSteps {
			if !taken[[2]int{c[0] + d[0], c[1] + d[1]}] {
				n += count
				break
			}
		}
	}
	return n
}

// hexSteps are the six steps to a hex's neighbours, in axial coordinates.
var hexSteps = [6][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}}

// reachOpen returns the first decision of the line of the seat's
// decisions, to the end of the action under way (or of the step), that
// leaves the most of its druids on sites it could explore from, and true;
// false if no line leaves any.
func reachOpen(s *druids.State, legal []game.Move) (game.Move, bool) {
	best, most := game.Move(0), 0
	for _, m := range legal {
		if n := openAfter(s, m, s.ToMove(), reachDepth); n > most {
			best, most = m, n
		}
	}
	return best, most > 0
}

// reachDepth bounds the decisions reachOpen looks ahead: a basic move's
// are three (the action, its druid, where to).
const reachDepth = 4

// openAfter returns the most of seat p's druids on open sites that the
// seat's decisions after m, to the end of the action or step under way
// and at most depth of them, can leave.
func openAfter(s *druids.State, m game.Move, p, depth int) int {
	c := *s
	c.PlayLegal(m)
	text := c.String()
	if c.Over() || c.ToMove() != p || c.Turn() != s.Turn() || depth <= 1 || strings.Contains(text, "; stack -;") {
		return openDruids(text, p)
	}
	most := 0
	for _, next := range c.AppendLegal(nil) {
		most = max(most, openAfter(&c, next, p, depth-1))
	}
	return most
}
