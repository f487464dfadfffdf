package bots

import (
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

// stalled reports whether the game has stalled: its turns outrun two a
// tile drawn by more than StallTurns.
func stalled(s *druids.State) bool { return s.Turn() > StallTurns+2*s.Drawn() }

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

func closingOf(s *druids.State, legal []game.Move) closing {
	var c closing
	if stalled(s) {
		if c.move, c.ok = explore(s, legal); c.ok {
			return c
		}
		if s.AtRefresh() {
			if c.move, c.ok = refreshToExplore(s, legal); c.ok {
				return c
			}
		}
		if s.OpenDruids(s.ToMove()) == 0 {
			if c.move, c.ok = reachOpen(s, legal); c.ok {
				return c
			}
		}
	}
	if s.AtRefresh() {
		c.pass, c.idle = idlePass(s, legal)
	}
	return c
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
		c := closingOf(s, s.AppendLegal(nil))
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
	if c.Over() || c.ToMove() != p || c.Turn() != s.Turn() || depth <= 1 || !c.Resolving() {
		return c.OpenDruids(p)
	}
	most := 0
	for _, next := range c.AppendLegal(nil) {
		most = max(most, openAfter(&c, next, p, depth-1))
	}
	return most
}
