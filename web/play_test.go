package web_test

// The browser tests: each plays through a part of the page as people do.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"
	"github.com/chromedp/chromedp/kb"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/server"
)

// TestWholeGameAgainstBot starts a game against a bot from the home page and
// plays it to the end by clicking legal spaces; the winner screen and the
// score sheet must say what the engine says.
func TestWholeGameAgainstBot(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	p := newPage(t, "player", desktopWidth, desktopHeight)
	p.openHome(l)
	p.waitFor(`document.querySelector('.hero-board svg')`, "the board picture")
	p.screenshot("home")
	p.do(chromedp.SendKeys(chromedp.CSS(`input[name=name]`), "Ann"))
	p.click(`[data-action=start]`)
	v := p.waitGame()
	if v.You != "0" || v.Turn != "you" || v.Version != 0 {
		t.Fatalf("a new game against a bot shows %+v, want seat 0 to move at version 0", v)
	}
	id := p.gameID()

	rng := rand.New(rand.NewPCG(1, 2))
	p.play(rng, func(v view) bool { return v.Version >= 40 })
	// The hover preview: what a placement would take.
	v = p.view()
	p.waitFor(`document.querySelector('.game[data-turn=you][data-pending=false]')`, "our turn")
	tokenSpace := eval[string](p, `(() => {
		const legal = new Set([...document.querySelectorAll('.layer-highlights .legal')].map(e => e.dataset.at));
		const t = [...document.querySelectorAll('.layer-tokens .token')].find(e => legal.has(e.dataset.at));
		return t ? t.dataset.at : [...legal][0];
	})()`)
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector('.hit[data-at="%s"]').getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2]; })()`, tokenSpace))
	p.do(chromedp.MouseEvent(chromedp.MouseMoved, xy[0], xy[1]))
	p.waitFor(`!document.querySelector('.tooltip').hidden`, "the tooltip")
	tip := eval[string](p, `document.querySelector('.tooltip').textContent`)
	if !strings.Contains(tip, "Click to place a settler") {
		t.Errorf("the tooltip over legal space %s says %q", tokenSpace, tip)
	}
	p.screenshot("game-in-progress")
	checkSheet(t, p.sheet(), stateAt(t, l, id, v.Version))

	sawSummary := false
	v = p.play(rng, func(v view) bool {
		if v.Modal == "phase" && !sawSummary {
			sawSummary = true
			p.screenshot("phase-summary")
		}
		return v.Turn == "over"
	})
	if !sawSummary {
		t.Error("the end of the exploration phase showed no summary")
	}
	p.waitFor(`document.querySelector('.winner-modal')`, "the winner screen")
	p.screenshot("winner")

	rec := l.record(id)
	g := replay(t, rec, -1)
	if !g.Over() || v.Version != len(rec.Moves) {
		t.Fatalf("the page shows the game over at version %d; the record has %d moves, over: %v", v.Version, len(rec.Moves), g.Over())
	}
	winners := eval[[]string](p, `[...document.querySelectorAll('.podium li.win')].map(li => li.dataset.seat)`)
	var want []string
	for _, w := range g.Winners() {
		want = append(want, strconv.Itoa(w))
	}
	if !slices.Equal(winners, want) {
		t.Errorf("the winner screen crowns seats %v, the engine %v", winners, want)
	}
	totals := g.Totals()
	for seat := range g.Players() {
		shown := eval[string](p, fmt.Sprintf(`document.querySelector('.podium-total[data-total="%d"]').textContent`, seat))
		if shown != strconv.Itoa(totals[seat]) {
			t.Errorf("the winner screen gives seat %d %s points, the engine %d", seat, shown, totals[seat])
		}
	}
	explanation := eval[string](p, `document.querySelector('.winner-modal .explanation').textContent`)
	if explanation == "" {
		t.Error("the winner screen does not explain the result")
	}
	p.click(".winner-modal .btn:not(.btn-primary)") // Score sheet
	p.waitFor(`!document.querySelector('.modal') && document.querySelector('.tab-panel[data-tab=scores] .sheet')`, "the score sheet")
	checkSheet(t, p.sheet(), g)
	p.screenshot("score-sheet")

	p.click(`.tab[data-tab=moves]`)
	p.screenshot("move-log")
	logged := eval[int](p, `document.querySelectorAll('.log .log-move').length`)
	if logged != len(rec.Moves) {
		t.Errorf("the move log lists %d moves, the game has %d", logged, len(rec.Moves))
	}
}

// joinAgainstBot makes a game of Ann, the page, against an easy bot with
// seed 7, opens Ann's invite link, joins, and waits for her turn.
func (p *page) joinAgainstBot(l *lagoon) created {
	p.t.Helper()
	c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seed": 7,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
	p.navigate(l.url + c.Seats[0].Link)
	p.waitGame()
	p.waitFor(`document.querySelector('.join-modal')`, "the invitation")
	p.click(".join-modal .btn-primary")
	p.waitFor(`!document.querySelector('.modal') && document.querySelector('.game[data-turn=you][data-conn=open]')`, "our turn")
	return c
}

// TestIllegalClick: a click where the piece may not go changes nothing and
// says why.
func TestIllegalClick(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	p := newPage(t, "player", desktopWidth, desktopHeight)
	c := p.joinAgainstBot(l)

	// Land that touches none of our pieces: no settler may go there.
	p.clickSpace("0,0")
	p.waitFor(`document.querySelector('.message-error.show')`, "the explanation")
	v := p.view()
	// The page says the rules' reason for the player (the refusal's
	// code not_next), not the server's message for logs.
	if want := "You can't place a settler on 0,0: land must be next to one of your pieces."; v.Message != want {
		t.Errorf("a settler on unconnected land is refused with %q, want %q", v.Message, want)
	}
	if v.Version != 0 || v.Pieces != 0 {
		t.Errorf("the refused click changed the game: %+v", v)
	}
	p.screenshot("illegal-click")

	// A village with no land next to our pieces is refused before any
	// click, with its reason.
	p.key("v")
	p.waitFor(`document.querySelector('.message.show') && document.querySelector('.message').textContent.includes('no land next to your pieces')`, "the village's reason")
	if v := p.view(); v.Piece != "settler" || v.Version != 0 || v.Pieces != 0 {
		t.Errorf("a village with nowhere to go: %+v", v)
	}
	if g := l.game(c.ID); g.State.Version != 0 {
		t.Errorf("the refused clicks made %d moves on the server", g.State.Version)
	}

	// Back to settlers, and a legal move goes through.
	p.key("s")
	p.waitFor(`document.querySelector('.piece-btn[data-piece=settler][aria-pressed=true]')`, "the settler to be chosen")
	p.clickSpace("2,4")
	p.waitFor(`Number(document.querySelector('.game').dataset.version) >= 2`, "our move and the bot's")
	if v := p.view(); v.Pieces != 2 {
		t.Errorf("after our move and the bot's the board shows %d pieces", v.Pieces)
	}

	// The legend and the rules beside the board.
	p.click(`.tab[data-tab=legend]`)
	p.waitFor(`document.querySelector('.tab-panel .legend')`, "the legend")
	p.screenshot("legend")
	p.click(`.tab[data-tab=rules]`)
	p.waitFor(`document.querySelector('.tab-panel .rules-summary')`, "the rules")
	// The tabs go by arrow keys too, one of them in the tab order.
	p.key(kb.ArrowRight)
	p.waitFor(`document.querySelector('.tab[data-tab=legend][aria-selected=true]') === document.activeElement`, "the legend's tab, by the right arrow")
	if n := eval[int](p, `document.querySelectorAll('.tab[tabindex="0"]').length`); n != 1 {
		t.Errorf("%d tabs in the tab order, want the chosen one", n)
	}
	p.key(kb.ArrowLeft)
	p.waitFor(`document.querySelector('.tab[data-tab=rules][aria-selected=true]') === document.activeElement`, "the rules' tab, by the left arrow")
	p.screenshot("rules-summary")
}

// TestKeyboardPlay: the board is played without a mouse. Tab reaches a
// legal space, the arrow keys go from one to another, Enter places the
// piece, and the focus stays on the board for the next turn.
func TestKeyboardPlay(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	p := newPage(t, "keyboard", desktopWidth, desktopHeight)
	c := p.joinAgainstBot(l)

	const onSpace = `(document.activeElement && document.activeElement.classList.contains('hit'))`
	for range 60 {
		if eval[bool](p, onSpace) {
			break
		}
		p.key(kb.Tab)
	}
	if !eval[bool](p, onSpace) {
		t.Fatal("Tab never reached the board")
	}
	legal := p.view().Legal
	at := eval[string](p, `document.activeElement.dataset.at`)
	if !slices.Contains(legal, at) || !strings.HasPrefix(eval[string](p, `document.activeElement.getAttribute('aria-label')`), "Place on "+at) {
		t.Fatalf("Tab reached space %s (%q), legal %v", at, eval[string](p, `document.activeElement.getAttribute('aria-label')`), legal)
	}
	p.key(kb.ArrowRight)
	next := eval[string](p, `document.activeElement.dataset.at`)
	if next == at || !slices.Contains(legal, next) {
		t.Errorf("the right arrow went from %s to %s; legal %v", at, next, legal)
	}
	p.key(kb.Enter)
	p.waitFor(`document.querySelector('.game[data-version="2"][data-turn=you][data-pending=false]')`, "our move and the bot's")
	if got := l.game(c.ID).Moves[0].Move; got != "S "+next {
		t.Errorf("Enter on %s made the move %s", next, got)
	}
	if !eval[bool](p, onSpace+` && document.activeElement.getAttribute('role') === 'button'`) {
		t.Errorf("after the move the focus is on %s, not on a legal space of the board", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
}

// TestRateLimitedMove: a move the server drops for coming too fast stays
// pending, and the page sends it again after a pause on the same connection
// instead of waiting forever for an answer.
func TestRateLimitedMove(t *testing.T) {
	needBrowser(t)
	// A token a million seconds, one at most: on each connection the first
	// message after the hello passes and every later one is refused.
	l := startLagoonWith(t, func(c *server.Config) { c.MessageRate, c.MessageBurst = 1e-6, 1 })
	p := newPage(t, "player", desktopWidth, desktopHeight)
	p.recordSockets()
	c := p.joinAgainstBot(l)

	p.clickSpace(p.view().Legal[0])
	p.waitFor(`document.querySelector('.game[data-version="2"][data-turn=you][data-pending=false]')`, "our move and the bot's")
	v := p.view()
	p.clickSpace(v.Legal[0])
	const movesSent = `window.testSent.map(s => ({socket: s.socket, m: JSON.parse(s.data)})).filter(s => s.m.type === 'move')`
	p.waitFor(movesSent+`.length >= 3`, "the refused move to be sent again")
	type sent struct {
		Socket int
		M      struct{ ID, Move string }
	}
	moves := eval[[]sent](p, movesSent)
	if again, first := moves[2], moves[1]; again != first {
		t.Errorf("after the refusal of %+v the page sent %+v, want the same move on the same connection", first, again)
	}
	if w := p.view(); !w.Pending || w.Version != v.Version || !strings.Contains(w.Message, "again in a moment") {
		t.Errorf("while the move waits to go again the page shows %+v", w)
	}

	// A new connection may send a message: the move goes through.
	eval[bool](p, `(window.testSockets.at(-1).close(), true)`)
	p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d`, v.Version), "the move to go through")
	want := "S " + v.Legal[0]
	if got := l.game(c.ID).Moves[v.Version]; got.Move != want || got.Seat != 0 {
		t.Errorf("the move that was refused for coming too fast is stored as %+v, want %s by seat 0", got, want)
	}
}

// TestLobbyKeepsItsRows: the home page polls the lobby; while nothing
// changes it keeps its rows, so that a click on a row's button is never lost
// to a redraw, and only brings the times ago up to date. A change is shown.
func TestLobbyKeepsItsRows(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	humans := []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}
	c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seats": humans})
	p := newPage(t, "visitor", desktopWidth, desktopHeight)
	p.navigate(l.url + "/")
	row := fmt.Sprintf(`document.querySelector('.lobby-game[data-game="%s"]')`, c.ID)
	p.waitFor(row, "the game in the lobby")
	eval[bool](p, `(() => { const r = `+row+`; r.dataset.mark = 'kept'; r.querySelector('[data-updated]').textContent = 'stale'; return true; })()`)
	p.waitFor(row+`.querySelector('[data-updated]').textContent !== 'stale'`, "the lobby to be polled again")
	if !eval[bool](p, row+`.dataset.mark === 'kept'`) {
		t.Error("the lobby was drawn again although nothing had changed")
	}
	// A change is drawn, and the button that had the focus has it again.
	p.do(chromedp.Focus(fmt.Sprintf(`[data-watch="%s"]`, c.ID)))
	other := l.createGame(map[string]any{"options": map[string]string{"board": "sides"}, "seats": humans})
	p.waitFor(fmt.Sprintf(`document.querySelector('.lobby-game[data-game="%s"]')`, other.ID), "the new game in the lobby")
	if !eval[bool](p, fmt.Sprintf(`document.activeElement.matches('[data-watch="%s"]') && !document.activeElement.closest('[data-mark]')`, c.ID)) {
		t.Errorf("after the lobby was drawn again the focus is on %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}

	// A dialog opened from a row, closed after the lobby was drawn again,
	// gives the focus to the row's button as it is now.
	open := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "open"}}})
	join := fmt.Sprintf(`[data-join="%s"]`, open.ID)
	p.waitFor(`document.querySelector('`+join+`')`, "the open seat in the lobby")
	p.click(join)
	p.waitFor(`document.querySelector('.join-modal')`, "the join dialog")
	third := l.createGame(map[string]any{"options": map[string]string{"board": "wheels"}, "seats": humans})
	p.waitFor(fmt.Sprintf(`document.querySelector('.lobby-game[data-game="%s"]')`, third.ID), "the lobby drawn again")
	p.click(`.join-modal .modal-actions .btn:not(.btn-primary)`)
	p.waitFor(`!document.querySelector('.modal')`, "the dialog to close")
	if !eval[bool](p, `document.activeElement.matches('`+join+`')`) {
		t.Errorf("after the dialog the focus is on %s, want the row's Join button", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
}

// openHome opens the home page and waits for its new game form.
func (p *page) openHome(l *lagoon) {
	p.t.Helper()
	p.navigate(l.url + "/")
	p.waitFor(`document.querySelector('select[name=seat1] option[value="bot:easy"]')`, "the new game form")
}

// startWithFriend starts a game from the home page as name, with a friend
// in the second seat, and returns the friend's invite link.
func (p *page) startWithFriend(l *lagoon, name string) string {
	p.t.Helper()
	p.openHome(l)
	p.do(chromedp.SendKeys(chromedp.CSS(`input[name=name]`), name))
	p.do(chromedp.SetValue(chromedp.CSS(`select[name=seat1]`), "friend"))
	eval[bool](p, `document.querySelector('select[name=seat1]').dispatchEvent(new Event('change'))`)
	p.waitFor(`document.querySelector('select[name=seat1]').value === 'friend'`, "the friend seat")
	p.click(`[data-action=start]`)
	p.waitGame()
	p.waitFor(`document.querySelector('.invite-card .copy-input')`, "the invite link")
	return eval[string](p, `document.querySelector('.invite-card .copy-input').value`)
}

// TestNewGameFormKeepsFocus: a change in the new game form draws it again;
// the control that was changed keeps the focus, so that it can be used from
// the keyboard, and what was typed stays.
func TestNewGameFormKeepsFocus(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	p := newPage(t, "keyboard", desktopWidth, desktopHeight)
	p.openHome(l)
	p.do(chromedp.SendKeys(chromedp.CSS(`input[name=name]`), "Zoe"))
	before := eval[string](p, `document.querySelector('select[name=seat1]').value`)
	p.do(chromedp.Focus(`select[name=seat1]`))
	p.key(kb.ArrowDown)
	p.waitFor(fmt.Sprintf(`document.querySelector('select[name=seat1]').value !== %q`, before), "the seat to change")
	if !eval[bool](p, `document.activeElement.name === 'seat1'`) {
		t.Errorf("after a seat changed with the keyboard the focus is on %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	p.click(`[data-players="3"]`)
	p.waitFor(`document.querySelector('select[name=seat2]')`, "a third seat")
	if !eval[bool](p, `document.activeElement.dataset.players === '3'`) {
		t.Errorf("after choosing 3 players the focus is on %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	if got := eval[string](p, `document.querySelector('input[name=name]').value`); got != "Zoe" {
		t.Errorf("the name typed is now %q", got)
	}

	// A bad seed, folded away: starting shows the field, marked, with the
	// focus in it, and starts nothing.
	p.click(`details.more summary`)
	p.do(chromedp.SendKeys(chromedp.CSS(`input[name=seed]`), "seven"))
	p.click(`details.more summary`)
	p.click(`[data-action=start]`)
	p.waitFor(`document.activeElement.name === 'seed'`, "the focus in the seed field")
	if !eval[bool](p, `document.querySelector('details.more').open && document.activeElement.getAttribute('aria-invalid') === 'true'`) {
		t.Error("the bad seed's field is not shown and marked")
	}
	if eval[bool](p, `!!document.querySelector('.game')`) {
		t.Error("a game started with a bad seed")
	}
}

// TestInviteAndWatch: the creator invites a friend, who opens the link in
// another browser and plays; a third person watches and cannot move.
func TestInviteAndWatch(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	ann := newPage(t, "ann", desktopWidth, desktopHeight)
	link := ann.startWithFriend(l, "Ann")
	if !strings.HasPrefix(link, l.url+"/game/") || !strings.Contains(link, "#seat=") {
		t.Fatalf("the invite link is %q", link)
	}
	if v := ann.view(); v.Turn != "you" {
		t.Fatalf("Ann, seat 0, sees %+v", v)
	}
	ann.screenshot("invite")
	id := ann.gameID()

	bea := newPage(t, "bea", desktopWidth, desktopHeight)
	bea.navigate(link)
	bea.waitFor(`document.querySelector('.join-modal input')`, "the invitation")
	// While Bea has not said who she is, her page only watches: her seat
	// is not joined, so no clock starts while she types her name.
	bea.waitFor(`document.querySelector('.game[data-conn=open]')`, "the connection")
	if s := l.game(id).Seats[1]; s.Joined {
		t.Errorf("seat 1 is joined while Bea is asked her name: %+v", s)
	}
	bea.do(chromedp.SendKeys(chromedp.CSS(`.join-modal input`), "Bea"))
	bea.click(".join-modal .btn-primary")
	bea.waitFor(`!document.querySelector('.modal') && document.querySelector('.game[data-you="1"][data-conn=open]')`, "Bea in her seat")
	ann.waitFor(`!document.querySelector('.invite-card') && [...document.querySelectorAll('.pcard-name')].some(e => e.textContent === 'Bea')`, "Ann to see Bea join")

	carl := newPage(t, "carl", desktopWidth, desktopHeight)
	carl.navigate(l.url + "/game/" + id)
	if v := carl.waitGame(); v.Turn != "watch" || v.You != "" {
		t.Fatalf("the spectator sees %+v", v)
	}
	if eval[bool](carl, `!document.querySelector('.piece-toggle').hidden`) {
		t.Error("the spectator is offered pieces to place")
	}

	// Bea clicks while it is Ann's turn: nothing happens, and she is told.
	bea.clickSpace("2,4")
	bea.waitFor(`document.querySelector('.message-error.show')`, "the explanation")
	if v := bea.view(); !strings.Contains(v.Message, "Not your turn") || v.Version != 0 {
		t.Errorf("Bea clicking out of turn: %+v", v)
	}

	rng := rand.New(rand.NewPCG(3, 4))
	for turn := range 12 {
		mover, other := ann, bea
		if turn%2 == 1 {
			mover, other = bea, ann
		}
		v := mover.view()
		mover.play(rng, func(w view) bool { return w.Version > v.Version })
		other.waitFor(fmt.Sprintf(`document.querySelector('.game').dataset.version === '%d'`, v.Version+1), "the move to arrive")
		carl.waitFor(fmt.Sprintf(`document.querySelector('.game').dataset.version === '%d'`, v.Version+1), "the spectator to see the move")
	}
	annPieces, _ := ann.boardPosition()
	carlPieces, _ := carl.boardPosition()
	if !slices.Equal(annPieces, carlPieces) || len(annPieces) != 12 {
		t.Errorf("Ann sees %v, the spectator %v", annPieces, carlPieces)
	}

	// The spectator clicks a space where the player to move could go.
	v := carl.view()
	legal := eval[[]string](ann, `[...document.querySelectorAll('.layer-highlights .legal')].map(e => e.dataset.at)`)
	carl.clickSpace(legal[0])
	carl.waitFor(`document.querySelector('.message.show')`, "the explanation")
	if w := carl.view(); !strings.Contains(w.Message, "watching") || w.Version != v.Version || w.Pieces != v.Pieces {
		t.Errorf("the spectator's click: %+v", w)
	}
	if g := l.game(id); g.State.Version != v.Version {
		t.Errorf("the server is at version %d after the spectator's click, was %d", g.State.Version, v.Version)
	}
	carl.screenshot("spectator")

	// A dialog keeps the keyboard in it, and gives the focus back to what
	// opened it when it closes.
	ann.click(`.side-actions .btn-danger`)
	ann.waitFor(`document.activeElement && document.activeElement.matches('.modal .btn-primary')`, "the dialog to take the focus")
	for range 5 {
		ann.key(kb.Tab)
		if !eval[bool](ann, `!!document.activeElement.closest('.modal')`) {
			t.Fatalf("Tab left the dialog for %s", eval[string](ann, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
	ann.click(`.modal .modal-actions .btn:not(.btn-primary)`)
	ann.waitFor(`!document.querySelector('.modal')`, "the dialog to close")
	if !eval[bool](ann, `document.activeElement.matches('.side-actions .btn-danger')`) {
		t.Errorf("after the dialog the focus is on %s, want the button that opened it", eval[string](ann, `document.activeElement.outerHTML.slice(0, 80)`))
	}
}

// TestTwoSeatsInOneBrowser: the creator opens the friend's invite link in
// another tab of the same browser to play both sides; each tab keeps its
// own seat across reloads, and neither seat's token is lost.
func TestTwoSeatsInOneBrowser(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	ann := newPage(t, "ann", desktopWidth, desktopHeight)
	link := ann.startWithFriend(l, "Ann")
	id := ann.gameID()

	// The browser created the game, so the seat is taken without asking
	// for a name.
	bea := ann.newTab("bea")
	bea.navigate(link)
	bea.waitFor(`!document.querySelector('.modal') && document.querySelector('.game[data-you="1"][data-conn=open]')`, "the second seat taken")

	for _, tab := range []struct {
		p   *page
		url string
		you string
	}{{ann, l.url + "/game/" + id, "0"}, {bea, l.url + "/game/" + id, "1"}} {
		// Opened again without the token in the address (from the lobby,
		// or a bookmark), each tab finds its own seat.
		tab.p.navigate(tab.url)
		if v := tab.p.waitGame(); v.You != tab.you {
			t.Errorf("%s's tab opened again shows seat %q, want %s", tab.p.name, v.You, tab.you)
		}
	}
	ann.do(chromedp.Reload())
	if v := ann.waitGame(); v.You != "0" {
		t.Fatalf("Ann's tab reloaded shows seat %q, want 0", v.You)
	}
	ann.clickSpace(ann.view().Legal[0])
	bea.waitFor(`document.querySelector('.game[data-version="1"][data-turn=you]')`, "Ann's move, and Bea's turn")

	// Seat 0 is handed to a bot from a third tab: Ann's first tab, on the
	// same seat, becomes a spectator's and says why.
	token := eval[string](ann, fmt.Sprintf(`JSON.parse(localStorage.getItem('lagoon.seats'))[%q].tokens['0']`, id))
	third := ann.newTab("third")
	third.navigate(l.url + "/game/" + id + "#seat=" + token)
	third.waitFor(`document.querySelector('.game[data-you="0"][data-conn=open]')`, "seat 0 in a third tab")
	third.click(`.btn-danger`)
	third.waitFor(`document.querySelector('.modal .btn-primary')`, "the question")
	third.click(`.modal .btn-primary`)
	ann.waitFor(`document.querySelector('.game[data-turn=watch][data-conn=open]')`, "Ann's first tab to watch")
	if !eval[bool](ann, `[...document.querySelectorAll('.toast')].some(e => e.textContent.includes('handed to a bot'))`) {
		t.Error("Ann's first tab does not say that her seat went to a bot")
	}
	if eval[bool](ann, `!document.querySelector('.piece-toggle').hidden`) {
		t.Error("the tab whose seat went to a bot still offers pieces to place")
	}
	// Seat 1's token is still there, and Bea's tab still plays it; Ann's
	// first tab, whose seat is gone, watches on a reload (it does not take
	// seat 1 too).
	bea.do(chromedp.Reload())
	if v := bea.waitGame(); v.You != "1" {
		t.Errorf("Bea's tab reloaded after seat 0 was handed over shows seat %q, want 1", v.You)
	}
	ann.do(chromedp.Reload())
	if v := ann.waitGame(); v.You != "" || v.Turn != "watch" {
		t.Errorf("Ann's first tab reloaded after its seat was handed over shows %+v, want a spectator's page", v)
	}
}

// TestReloadAndRestart: a reload in the middle of a game, and then the
// server going down and coming back, and the game carries on from where it
// was with no action from the player.
func TestReloadAndRestart(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	p := newPage(t, "player", desktopWidth, desktopHeight)
	p.openHome(l)
	p.click(`[data-action=start]`)
	p.waitGame()
	id := p.gameID()
	rng := rand.New(rand.NewPCG(5, 6))
	before := p.play(rng, func(v view) bool { return v.Version >= 10 && v.Turn == "you" && !v.Pending })
	piecesBefore, tokensBefore := p.boardPosition()

	p.do(chromedp.Reload())
	v := p.waitGame()
	p.waitFor(`document.querySelector('.game[data-conn=open]')`, "the connection")
	v = p.view()
	if v.Version != before.Version || v.Turn != "you" || v.You != "0" {
		t.Fatalf("after a reload the page shows %+v, before it %+v", v, before)
	}
	if pieces, tokens := p.boardPosition(); !slices.Equal(pieces, piecesBefore) || !slices.Equal(tokens, tokensBefore) {
		t.Errorf("after a reload the board shows %v %v, before %v %v", pieces, tokens, piecesBefore, tokensBefore)
	}
	v = p.play(rng, func(w view) bool { return w.Version >= before.Version+6 && w.Turn == "you" && !w.Pending })

	// The server goes down; the page says so and keeps the move made
	// meanwhile until the server is back.
	l.stop()
	p.waitFor(`document.querySelector('.game[data-conn=reconnecting]')`, "the page to see the connection drop")
	p.screenshot("reconnecting")
	move := v.Legal[0]
	p.clickSpace(move)
	p.waitFor(`document.querySelector('.game[data-pending=true]')`, "the move to wait")
	l.restart()
	p.waitFor(`document.querySelector('.game[data-conn=open]')`, "the page to reconnect")
	p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) >= %d`, v.Version+2), "the waiting move and the bot's answer")
	g := l.game(id)
	want := "S " + move
	if v.Piece == "village" {
		want = "T " + move
	}
	if got := g.Moves[v.Version]; got.Move != want || got.Seat != 0 {
		t.Errorf("the move made while the server was down is %+v, want %s by seat 0", got, want)
	}
	v = p.play(rng, func(w view) bool { return w.Version >= v.Version+6 && w.Turn == "you" && !w.Pending })
	if g := l.game(id); g.State.Version != v.Version {
		t.Errorf("the server is at version %d, the page at %d", g.State.Version, v.Version)
	}
	pieces, tokens := p.boardPosition()
	wantPieces, wantTokens := enginePosition(stateAt(t, l, id, v.Version))
	if !slices.Equal(pieces, wantPieces) || !slices.Equal(tokens, wantTokens) {
		t.Errorf("the board shows %v %v, the engine %v %v", pieces, tokens, wantPieces, wantTokens)
	}

	// The home page lists the game among the player's own, and leads back
	// to it.
	p.click(`.brand`)
	p.waitFor(fmt.Sprintf(`document.querySelector('.lobby-yours [data-game="%s"] a')`, id), "the game among ours")
	p.click(fmt.Sprintf(`.lobby-yours [data-game="%s"] a`, id))
	if w := p.waitGame(); w.Version != v.Version || w.You != "0" {
		t.Errorf("back from the lobby the page shows %+v, before %+v", w, v)
	}
}

// TestPhaseEndAcrossReconnects: the events of a phase's end follow the
// move that ends it. A spectator whose connection drops between the two, or
// who is away across them and comes back by a snapshot (more than 50 moves
// missed), still sees the exploration phase's summary and the winner.
func TestPhaseEndAcrossReconnects(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	humans := []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}}
	c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seed": 5, "seats": humans})
	watch := func(name string) *page {
		p := newPage(t, name, desktopWidth, desktopHeight)
		p.recordSockets()
		p.navigate(l.url + "/game/" + c.ID)
		p.waitGame()
		p.waitFor(`document.querySelector('.game[data-conn=open]')`, "the connection")
		return p
	}
	away, dropped := watch("away"), watch("dropped")
	// dropped's connection closes as the move that ends a phase arrives,
	// before the events that follow it.
	dropAfter := func(cond string) {
		eval[bool](dropped, `(window.testOnMessage = (ws, m) => {
			if (m.type === 'move' && `+cond+`) { window.testOnMessage = null; ws.close(); }
		}, true)`)
	}
	dropAfter(`m.state.standing.phase === 'settlement'`)
	eval[bool](away, `(window.testHold = true, window.testSockets.at(-1).close(), true)`)
	away.waitFor(`document.querySelector('.game[data-conn=reconnecting]')`, "the page to see the connection drop")

	// Both players move through the API.
	rng := rand.New(rand.NewPCG(7, 8))
	version := 0
	moveUntil := func(done func(*bluelagoon.Game) bool) {
		t.Helper()
		for {
			g := stateAt(t, l, c.ID, version)
			if done(g) {
				return
			}
			moves := g.LegalMoves()
			m := moves[rng.IntN(len(moves))]
			l.api("POST", "/api/games/"+c.ID+"/moves", c.Seats[g.Current()].Token,
				map[string]any{"version": version, "move": m.String()}, nil)
			version++
		}
	}
	moveUntil(func(g *bluelagoon.Game) bool { return g.Phase() == bluelagoon.Settlement && version > 55 })

	dropped.waitFor(fmt.Sprintf(`document.querySelector('.game[data-conn=open][data-version="%d"]')`, version), "the dropped page to come back up to date")
	dropped.waitFor(`document.querySelector('.phase-modal')`, "the summary on the page whose connection dropped")
	eval[bool](away, `(window.testHold = false, window.dispatchEvent(new Event('online')), true)`)
	away.waitFor(fmt.Sprintf(`document.querySelector('.game[data-conn=open][data-version="%d"]')`, version), "the page away to come back up to date")
	away.waitFor(`document.querySelector('.phase-modal')`, "the summary on the page back by a snapshot")
	if v := away.view(); v.Phase != "settlement" || v.Turn != "watch" {
		t.Errorf("after the snapshot the page shows %+v", v)
	}
	away.screenshot("snapshot-phase-end")

	dropped.click(".phase-modal .btn-primary")
	dropAfter(`m.state.over`)
	moveUntil((*bluelagoon.Game).Over)
	dropped.waitFor(`document.querySelector('.winner-modal')`, "the winner on the page whose connection dropped")
}

// TestReplay steps through a finished game with the buttons, the keys and
// the slider, and checks the position and the score sheet at each step.
func TestReplay(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seed": 11,
		"seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}}})
	deadline := time.Now().Add(time.Minute)
	for !l.game(c.ID).State.Over {
		if time.Now().After(deadline) {
			t.Fatal("the bots did not finish their game")
		}
		time.Sleep(50 * time.Millisecond)
	}
	rec := l.record(c.ID)
	last := len(rec.Moves)

	p := newPage(t, "viewer", desktopWidth, desktopHeight)
	p.navigate(l.url + "/replay/" + c.ID)
	check := func(step int) {
		t.Helper()
		p.waitFor(fmt.Sprintf(`document.querySelector('.replay[data-shown="%d"]')`, step), fmt.Sprintf("step %d", step))
		// Let the pieces of the step before fade out.
		p.waitFor(`!document.querySelector('.piece.leave, .token.taken')`, "the animation")
		g := replay(t, rec, step)
		pieces, tokens := p.boardPosition()
		wantPieces, wantTokens := enginePosition(g)
		if !slices.Equal(pieces, wantPieces) {
			t.Errorf("step %d: the board shows pieces %v, the engine %v", step, pieces, wantPieces)
		}
		if !slices.Equal(tokens, wantTokens) {
			t.Errorf("step %d: the board shows tokens %v, the engine %v", step, tokens, wantTokens)
		}
		checkSheet(t, p.sheet(), g)
	}
	check(0)
	p.key(kb.ArrowRight)
	p.key(kb.ArrowRight)
	p.key(kb.ArrowRight)
	check(3)
	p.click(`[data-action=next]`)
	check(4)
	p.click(`[data-action=prev]`)
	check(3)
	mid := last / 2
	p.do(chromedp.SetValue(chromedp.CSS(`.slider`), strconv.Itoa(mid)))
	eval[bool](p, `document.querySelector('.slider').dispatchEvent(new Event('input'))`)
	check(mid)
	p.screenshot("replay")
	// Across the end of the exploration phase.
	end := 0
	for i := range rec.Moves {
		if g := replay(t, rec, i+1); g.Phase() == bluelagoon.Settlement {
			end = i + 1
			break
		}
	}
	p.do(chromedp.SetValue(chromedp.CSS(`.slider`), strconv.Itoa(end-1)))
	eval[bool](p, `document.querySelector('.slider').dispatchEvent(new Event('input'))`)
	check(end - 1)
	p.key(kb.ArrowRight)
	check(end)
	p.key(kb.End)
	check(last)
	p.key(kb.Home)
	check(0)

	// A position asked for while the server is down: the caption says so,
	// and the position comes when the server is back.
	l.stop()
	p.key(kb.ArrowRight)
	p.key(kb.ArrowRight)
	p.key(kb.ArrowRight)
	p.key(kb.ArrowRight)
	p.key(kb.ArrowRight)
	p.waitFor(`document.querySelector('.replay-caption').textContent.includes('not answering')`, "the caption to say the server is not answering")
	l.restart()
	check(5)
	if text := eval[string](p, `document.querySelector('.replay-caption').textContent`); strings.Contains(text, "not answering") {
		t.Errorf("the caption still says %q with the server back", text)
	}

	// The record to download is the game's.
	href := eval[string](p, `document.querySelector('[data-action=download]').href`)
	res, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got game.Record
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
		t.Fatalf("the record at %s: %v", href, err)
	}
	if got.Seed != rec.Seed || !slices.Equal(got.Moves, rec.Moves) {
		t.Errorf("the record downloaded differs from the game's")
	}
}

// TestPagesAndPhone looks at the main screens on a phone-sized screen
// (nothing may stick out sideways), the rules page, the lobby, watching a
// game from the lobby and taking an open seat there.
func TestPagesAndPhone(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seed": 3,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
	phone := newPage(t, "phone", 390, 844)
	phone.do(chromedp.Emulate(phoneDevice))
	phone.openHome(l)
	noSideways(t, phone, "home")
	phone.screenshot("phone-home")

	phone.navigate(l.url + c.Seats[0].Link)
	phone.waitGame()
	phone.waitFor(`document.querySelector('.join-modal')`, "the invitation")
	phone.click(".join-modal .btn-primary")
	rng := rand.New(rand.NewPCG(7, 8))
	phone.play(rng, func(v view) bool { return v.Version >= 16 && v.Turn == "you" && !v.Pending })
	// A finger's first tap on a legal space previews the piece there; the
	// second places it.
	v := phone.view()
	at := v.Legal[len(v.Legal)/2]
	const previewing = `(document.querySelector('.tooltip:not([hidden]) .tip-action') || {textContent: ''}).textContent.startsWith('Tap again')`
	for _, step := range []string{"the first tap's preview", "the preview again after the piece button was pressed"} {
		phone.tapSpace(at)
		phone.waitFor(previewing, step)
		if w := phone.view(); w.Version != v.Version || w.Pending {
			t.Fatalf("%s: a tap on %s made a move: %+v", step, at, w)
		}
		if step == "the first tap's preview" {
			// Anything else touched ends the preview: the next tap
			// previews again rather than places unseen.
			phone.click(`.piece-btn[data-piece=settler]`)
			phone.waitFor(`!`+previewing, "the preview to end")
		}
	}
	phone.tapSpace(at)
	phone.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d`, v.Version), "the second tap's move")
	if got := l.game(c.ID).Moves[v.Version]; got.Move[2:] != at || got.Seat != 0 {
		t.Errorf("two taps on %s made the move %+v", at, got)
	}
	noSideways(t, phone, "game")
	phone.screenshot("phone-game")

	phone.navigate(l.url + "/rules/bluelagoon")
	phone.waitFor(`document.querySelector('.rules-page')`, "the rules")
	noSideways(t, phone, "rules")

	desk := newPage(t, "desktop", desktopWidth, desktopHeight)
	desk.navigate(l.url + "/rules/bluelagoon")
	desk.waitFor(`document.querySelector('.rules-page .legend')`, "the rules")
	desk.screenshot("rules")
	desk.navigate(l.url + "/")
	desk.waitFor(`document.querySelector('.lobby-playing .lobby-game')`, "the game in the lobby")
	desk.screenshot("lobby")
	desk.click(`.lobby-playing [data-watch]`)
	if v := desk.waitGame(); v.Turn != "watch" {
		t.Errorf("watching from the lobby shows %+v", v)
	}
	// A page changed in place takes the focus to its content, as a page
	// loaded does, and names itself.
	if id := eval[string](desk, `document.activeElement.id`); id != "app" {
		t.Errorf("after following a link in the page the focus is on %q, want the page's content", id)
	}

	// An open seat, taken from the lobby.
	open := l.createGame(map[string]any{"options": map[string]string{"board": "sides"},
		"seats": []map[string]any{{"kind": "bot", "level": "easy"}, {"kind": "open"}}})
	desk.click(`.brand`)
	desk.waitFor(fmt.Sprintf(`document.querySelector('.lobby-open [data-join="%s"]')`, open.ID), "the open seat in the lobby")
	desk.click(fmt.Sprintf(`.lobby-open [data-join="%s"]`, open.ID))
	desk.waitFor(`document.querySelector('.join-modal input')`, "the name to join with")
	desk.do(chromedp.SendKeys(chromedp.CSS(`.join-modal input`), "Dan"))
	desk.click(".join-modal .btn-primary")
	v = desk.waitGame()
	if v.You != "1" || desk.gameID() != open.ID {
		t.Fatalf("after joining the open seat the page shows %+v", v)
	}
	desk.waitFor(`[...document.querySelectorAll('.pcard.is-you .pcard-name')].some(e => e.textContent === 'Dan')`, "Dan in his seat")
	rng = rand.New(rand.NewPCG(9, 10))
	desk.play(rng, func(v view) bool { return v.Version >= 6 })
	desk.screenshot("small-board")
}

// phoneDevice is a phone-sized screen with touch.
var phoneDevice = device.Info{
	Name: "phone", Width: 390, Height: 844, Scale: 3, Mobile: true, Touch: true,
	UserAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36",
}

func noSideways(t *testing.T, p *page, what string) {
	t.Helper()
	if w := eval[[]int](p, `[document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
		t.Errorf("%s on a phone is %d pixels wide for a %d pixel screen", what, w[0], w[1])
	}
}
