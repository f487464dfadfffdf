package web_test

import (
	"strconv"
	"testing"
)

// TestTakeBackStopsAtChance: a take-back never goes back past a move that
// showed what chance drew (issue 47, item 10), and the page says so where
// it offers take-backs: once the exploration's end has laid the
// settlement's tokens, Ann, whose last move came before it, is offered no
// take-back and told why; once she has moved again, she is offered one.
func TestTakeBackStopsAtChance(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	c, tokens := l.humansGame(5, "standard")
	ann := newPage(t, "takeback-chance", desktopWidth, desktopHeight)
	ann.navigate(l.url + c.Seats[0].Link)
	ann.waitFor(`document.querySelector('.game[data-conn=open]')`, "Ann's page")
	g := l.drive(c.ID, tokens, 0, func(g apiGame) bool { return g.State.View.Phase == "settlement" })
	ann.waitFor(`document.querySelector('.game[data-version="`+strconv.Itoa(g.State.Version)+`"]')`, "the page to see the layout")
	if eval[int](ann, `document.querySelectorAll('[data-action=takeback]').length`) != 0 || eval[int](ann, `document.querySelectorAll('[data-takeback=chance]').length`) != 1 {
		t.Error("after the layout was laid the page offers Ann a take-back, or does not say why it offers none")
	}
	ann.screenshot("takeback-chance")
	v := g.State.Version
	g = l.drive(c.ID, tokens, 0, func(g apiGame) bool { return len(g.Moves) > v && g.Moves[len(g.Moves)-1].Seat == 0 })
	ann.waitFor(`document.querySelector('[data-action=takeback]') && !document.querySelector('[data-takeback=chance]')`, "a take-back offered for a move after the layout")
	if g.State.Over {
		t.Fatal("the game ended before Ann moved in the settlement")
	}
}
