package web_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// cookies are the page's browser's cookies of the server at url.
func (p *page) cookies(url string) []*network.Cookie {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	res, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (network.GetCookiesResult, error) {
		return cdp.Call(ctx, t, network.GetCookies, network.GetCookiesParams{URLs: []string{url}})
	})
	if err != nil {
		p.t.Fatalf("%s: cookies: %v", p.name, err)
	}
	return res.Cookies
}

// setCookie gives the page's browser a cookie of the server at url.
func (p *page) setCookie(url string, c *network.Cookie) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, network.SetCookie, network.SetCookieParams{Name: c.Name, Value: c.Value, URL: url, Path: c.Path, HTTPOnly: &c.HTTPOnly})
		return err
	}))
}

// TestMyGamesLive: a first visit and a game against a bot from the home
// page; My games shows it under "your turn" while the player is to move,
// the title and the icon count it on every page, and the home page lists
// it; a second browser with the same cookie (another device of the
// player) sees the same list, and is told live of a move made in the
// first.
func TestMyGamesLive(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	p := newPage(t, "laptop", desktopWidth, desktopHeight)
	p.openHome(l)
	if eval[bool](p, `!!document.querySelector('.my-waiting:not([hidden])')`) {
		t.Error("a first visit has games waiting on it")
	}
	p.click(`[data-action=start]`)
	p.waitGame()
	id := p.gameID()
	mine := fmt.Sprintf(`document.querySelector('.my-turn [data-game="%s"]')`, id)
	p.waitFor(`document.title.startsWith('(1) ')`, "the title's count on the game's page")
	p.navigate(l.url + "/me")
	p.waitFor(mine, "the game under Your turn")
	p.waitFor(`document.title === '(1) My games · Lagoon'`, "the title's count on My games")
	p.waitFor(`document.querySelector('link[rel=icon]').dataset.count === '1' && document.querySelector('link[rel=icon]').href.startsWith('data:image/png')`, "the icon's count")
	p.navigate(l.url + "/")
	p.waitFor(fmt.Sprintf(`document.querySelector('.my-waiting:not([hidden]) [data-game="%s"]')`, id), "the game waiting on the home page")

	phone := newPage(t, "phone", 420, 860)
	for _, c := range p.cookies(l.url) {
		phone.setCookie(l.url, c)
	}
	phone.navigate(l.url + "/me")
	phone.waitFor(mine, "the same game on the other device")
	version := eval[int](phone, fmt.Sprintf(`Number(%s.dataset.version)`, mine))
	if other := eval[int](p, `document.querySelectorAll('.my-waiting [data-game]').length`); other != 1 {
		t.Errorf("the laptop shows %d games waiting, want 1", other)
	}

	// The laptop's seat moves, by its token; the phone's list follows.
	token := eval[string](p, fmt.Sprintf(`JSON.parse(localStorage.getItem('lagoon.seats'))[%q].token`, id))
	var g apiGame
	l.api("GET", "/api/games/"+id, "", nil, &g)
	l.api("POST", "/api/games/"+id+"/moves", token, map[string]any{"version": g.State.Version, "move": chooseMove(g, -1)}, nil)
	phone.waitFor(fmt.Sprintf(`[...document.querySelectorAll('[data-game="%s"]')].some(e => Number(e.dataset.version) > %d)`, id, version), "the move on the other device, live")
}

// fakeNotifications stands for the browser's notifications in the page:
// it counts the permission asked and keeps the notices shown.
const fakeNotifications = `(() => {
  window.asked = 0; window.shown = [];
  class Fake { constructor(title, opts) { window.shown.push(title + ' ' + opts.tag); } close() {} }
  Fake.permission = 'default';
  Fake.requestPermission = async () => { window.asked++; Fake.permission = 'granted'; return 'granted'; };
  window.Notification = Fake;
  return true;
})()`

// TestMyGamesNotifications: the browser's permission is asked only when
// the player turns the notices on; then a game that comes to wait on them
// is told "Your turn", by a notice tagged with the game, but not when it
// comes to wait again (the other seat moved) while the page shows that game.
func TestMyGamesNotifications(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	p := newPage(t, "laptop", desktopWidth, desktopHeight)
	p.navigate(l.url + "/me")
	p.waitFor(`document.querySelector('.my-turn')`, "My games")
	eval[bool](p, fakeNotifications)
	if asked := eval[int](p, `window.asked`); asked != 0 {
		t.Fatalf("the permission asked %d times before the switch", asked)
	}
	p.click(`[data-notify]`)
	p.waitFor(`window.asked === 1 && document.querySelector('[data-notify]').checked`, "the switch on, the permission asked once")
	created := evalAwait[created](p, `fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({seats: [{kind: 'human'}, {kind: 'open'}]})}).then(r => r.json())`)
	var bea struct {
		Token string `json:"token"`
	}
	l.api("POST", "/api/games/"+created.ID+"/join", "", map[string]any{"seat": 1, "name": "Bea"}, &bea)
	p.waitFor(fmt.Sprintf(`window.shown.includes('Your turn lagoon-%s')`, created.ID), "the notice of the new game waiting")
	// Looking at the game, its next move is not told.
	eval[bool](p, fmt.Sprintf(`history.pushState(null, '', '/game/%s'); dispatchEvent(new PopStateEvent('popstate')); true`, created.ID))
	p.waitFor(`document.visibilityState === 'visible' && document.querySelector('.game')`, "the game's page")
	move := func(token string) {
		var g apiGame
		l.api("GET", "/api/games/"+created.ID, "", nil, &g)
		l.api("POST", "/api/games/"+created.ID+"/moves", token, map[string]any{"version": g.State.Version, "move": chooseMove(g, -1)}, nil)
	}
	// The player moves, then Bea, while the player looks at the game.
	move(created.Seats[0].Token)
	p.waitFor(`!document.title.startsWith('(')`, "Bea's turn")
	move(bea.Token)
	p.waitFor(`document.title.startsWith('(1) ')`, "the player's turn again")
	if shown := eval[[]string](p, `window.shown`); len(shown) != 1 {
		t.Errorf("notices %v, want the first alone (the game came to wait again while the player looked at it)", shown)
	}
}
