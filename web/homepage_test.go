package web_test

// The home page presents the games as equals, and the header's rules are
// an index of them.

import (
	"path/filepath"
	"testing"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/server"
	"github.com/lagoon-games/lagoon/laguna"
)

// withAllGames hosts the three games, as cmd/lagoon does.
func withAllGames(c *server.Config) {
	c.Games = must(game.NewRegistry(bluelagoon.Rules, druids.Rules, laguna.Rules))
}

// TestHomeGamesAlike: the home page lists every game alike (what it is,
// players, playing time, solo mode, a picture); the game selector cuts no game's tab;
// each game keeps its own player count; the header's "Rules" leads to an
// index of the games' rules. With -update its desktop picture becomes
// the README's.
func TestHomeGamesAlike(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withAllGames)
	for _, sc := range screens {
		p := sc.open(t, "home-games")
		p.navigate(l.url + "/")
		p.waitFor(`document.querySelectorAll('.game-card .game-card-picture svg').length === 3`, "the three games' pictures")
		cards := eval[[]string](p, `[...document.querySelectorAll('.game-card')].map(c => c.dataset.game + ': ' +
			[...c.querySelectorAll('dt')].map(d => d.textContent).join(','))`)
		want := []string{"bluelagoon: Players,Time,Solo", "druids: Players,Time,Solo", "laguna: Players,Time,Solo"}
		if len(cards) != len(want) {
			t.Fatalf("%s: the home page's games are %q, want %q", sc.name, cards, want)
		}
		for i := range want {
			if cards[i] != want[i] {
				t.Errorf("%s: a game's card says %q, want %q", sc.name, cards[i], want[i])
			}
		}
		shot := p.screenshot("home-games-" + sc.name)
		if *update && !sc.phone {
			copyFile(t, shot, filepath.Join("..", "docs", "screenshot.png"))
		}

		p.waitFor(`document.querySelector('[data-action=game-laguna]')`, "the game selector")
		cut := eval[[]string](p, `(() => { const form = document.querySelector('.newgame').getBoundingClientRect();
			return [...document.querySelectorAll('[data-action^=game-]')].filter(b => { const r = b.getBoundingClientRect(), s = b.parentElement.getBoundingClientRect();
				return r.right > s.right + 0.5 || r.right > form.right + 0.5 || b.scrollWidth > b.clientWidth + 1; }).map(b => b.textContent); })()`)
		if len(cut) > 0 {
			t.Errorf("%s: the game selector cuts %q", sc.name, cut)
		}

		players := func() string {
			return eval[string](p, `(document.querySelector('[data-players].on') || {dataset: {}}).dataset.players || ''`)
		}
		p.click(`[data-action=game-druids]`)
		p.waitFor(`document.querySelector('[data-action=game-druids].on')`, "Druids chosen")
		p.click(`[data-players="4"]`)
		p.waitFor(`document.querySelector('[data-players="4"].on')`, "four players")
		// Laguna, never set up in this browser, starts at two.
		p.click(`[data-action=game-laguna]`)
		p.waitFor(`document.querySelector('[data-action=game-laguna].on')`, "Laguna chosen")
		if got := players(); got != "2" {
			t.Errorf("%s: Laguna after a 4-player Druids has %s players chosen, want its own 2", sc.name, got)
		}
		p.click(`[data-action=game-bluelagoon]`)
		p.waitFor(`document.querySelector('[data-action=game-bluelagoon].on')`, "Blue Lagoon chosen")
		if got := players(); got != "2" {
			t.Errorf("%s: Blue Lagoon after a 4-player Druids has %s players chosen, want its own 2", sc.name, got)
		}
		p.click(`[data-action=game-druids]`)
		p.waitFor(`document.querySelector('[data-action=game-druids].on')`, "Druids again")
		if got := players(); got != "4" {
			t.Errorf("%s: Druids comes back with %s players, want the 4 chosen for it", sc.name, got)
		}

		p.navigate(l.url + "/rules")
		p.waitFor(`document.querySelector('.rules-index')`, "the rules' index")
		games := eval[[]string](p, `[...document.querySelectorAll('.rules-index a[data-rules]')].map(a => a.getAttribute('href'))`)
		if len(games) != 3 {
			t.Errorf("%s: the header's rules list %q, want the three games' pages", sc.name, games)
		}
		p.screenshot("rules-index-" + sc.name)
	}
}

// TestSoloOneWay: a game alone is a "1" among the players in Land of
// Druids as in Laguna; Druids' "1" starts a game against AJ.
func TestSoloOneWay(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withAllGames)
	for _, sc := range screens {
		p := sc.open(t, "solo-one-way")
		p.navigate(l.url + "/")
		for _, g := range []string{"laguna", "druids"} {
			p.waitFor(`document.querySelector('[data-action=game-`+g+`]')`, "the game selector")
			p.click(`[data-action=game-` + g + `]`)
			p.waitFor(`document.querySelector('[data-action=game-`+g+`].on')`, g+" chosen")
			if !eval[bool](p, `!!document.querySelector('[data-players="1"]')`) {
				t.Errorf("%s: %s offers no 1 among the players", sc.name, g)
			}
		}
		p.click(`[data-players="1"]`)
		p.waitFor(`document.querySelector('[data-players="1"].on')`, "a game of one")
		p.screenshot("druids-alone-" + sc.name)
		p.click(`[data-action=start]`)
		p.waitGame()
		id := p.gameID()
		g := l.druidsGame(id)
		if len(g.Seats) != 2 || g.Seats[1].Kind != "house" {
			t.Errorf("%s: Druids' 1 made the seats %+v, want you and AJ", sc.name, g.Seats)
		}
	}
}
