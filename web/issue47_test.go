package web_test

// What a newcomer met (issue 47, item 13), each at a desktop's size and a
// phone's where it matters.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lagoon-games/lagoon/internal/server"
)

// TestDruidsChoicesBesideTheWorld: in a four-player game whose three bots
// play before the player, the player's choices are in the same view as
// the world, the bots' turns folded above them to a line each, which
// opens to the turn's decisions.
func TestDruidsChoicesBesideTheWorld(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	for _, sc := range druidsScreens {
		t.Run(sc.name, func(t *testing.T) {
			bot := map[string]any{"kind": "bot", "level": "easy"}
			c := l.createGame(map[string]any{"game": "druids", "seed": 5, "options": map[string]string{"first": "1"},
				"seats": []map[string]any{{"kind": "human", "name": "Ann"}, bot, bot, bot}})
			p := newPage(t, "ann-"+sc.name, sc.width, sc.height)
			p.takeSeat(l.url + c.Seats[0].Link)
			p.druidsWait()
			p.screenshot("druids-choices-" + sc.name)
			if got := eval[int](p, `document.querySelectorAll('.dr-others .dr-other').length`); got != 3 {
				t.Errorf("%d of the bots' turns told", got)
			}
			if open := eval[int](p, `document.querySelectorAll('.dr-others .dr-other[open]').length`); open != 0 {
				t.Errorf("%d of the bots' turns unfolded", open)
			}
			// The choices begin where the page opens (the phone's under
			// its world).
			top := eval[float64](p, `window.scrollTo(0, 0), document.querySelector('.dr-ask').getBoundingClientRect().top`)
			world := eval[float64](p, `document.querySelector('.world').getBoundingClientRect().bottom`)
			if sc.name == "desktop" && top > float64(sc.height)-150 {
				t.Errorf("the choices start %.0f px down a screen of %d", top, sc.height)
			}
			if sc.name == "phone" && top > world+150 {
				t.Errorf("the choices start %.0f px down, the world ends at %.0f", top, world)
			}
			// One count: the round, which is the seat's own count of turns.
			if got := eval[[]string](p, `[document.querySelector('.chip-move').textContent, document.querySelector('.dr-turn').firstChild.textContent, document.querySelector('.dr-turnlog-head b').textContent]`); got[0] != "Round 1" || got[1] != "Round 1" || got[2] != "Your first turn" {
				t.Errorf("the counts read %q", got)
			}
			// The forecast's heads wrap between words, not inside them.
			if sc.name == "desktop" {
				if broken := eval[[]string](p, brokenWordsJS(`.dr-forecast-teams thead th`)); len(broken) > 0 {
					t.Errorf("the forecast's heads break %q", broken)
				}
			}
			// A turn unfolds to its decisions.
			p.click(`.dr-others .dr-other summary`)
			if !eval[bool](p, `document.querySelector('.dr-others .dr-other[open] li') && document.querySelector('.dr-others .dr-other[open] li').getBoundingClientRect().height > 0`) {
				t.Errorf("a bot's turn does not unfold to its decisions")
			}
		})
	}
}

// TestBotsWithoutPauses: a player who chooses "Bots play without pauses"
// has the bot answer at once, where the server pauses it an hour, and the
// choice holds after a reload.
func TestBotsWithoutPauses(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, func(c *server.Config) { c.BotDelay = time.Hour })
	c := l.createGame(map[string]any{"seed": 3, "seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
	p := newPage(t, "ann", desktopWidth, desktopHeight)
	p.takeSeat(l.url + c.Seats[0].Link)
	p.waitFor(`document.querySelector('.game[data-turn=you]')`, "Ann to move")
	p.click(`[data-action=preferences]`)
	p.click(`input[name=pref-fastbots]`)
	for round := range 2 {
		v := p.view()
		p.clickSpace(v.Legal[0])
		p.waitFor(fmt.Sprintf(`document.querySelector('.game[data-turn=you]') && Number(document.querySelector('.game').dataset.version) >= %d`, v.Version+2), "the bot's answer without its pause")
		if round == 0 {
			p.navigate(l.url + "/game/" + c.ID)
			p.waitFor(`document.querySelector('.game[data-conn=open][data-turn=you]')`, "Ann's page again")
		}
	}
}

// TestMistypedInviteLink: a seat link this browser never held that leads
// to no seat says it may have been mistyped, not that the seat went to a
// bot.
func TestMistypedInviteLink(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	c := l.createGame(map[string]any{"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
	p := newPage(t, "bea", desktopWidth, desktopHeight)
	p.navigate(l.url + c.Seats[0].Link + "x")
	p.waitFor(`document.querySelector('.toast')`, "the word on the link")
	if got := eval[string](p, `document.querySelector('.toast').textContent`); !strings.Contains(got, "mistyped") || strings.Contains(got, "bot") {
		t.Errorf("a mistyped link says %q", got)
	}
}

// brokenWordsJS lists the words of the elements sel finds that the page
// breaks over two lines.
func brokenWordsJS(sel string) string {
	return fmt.Sprintf(`[...document.querySelectorAll(%q)].flatMap(el => {
		const out = [], walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		for (let n; (n = walk.nextNode());) {
			for (const m of n.data.matchAll(/\S+/g)) {
				const r = document.createRange();
				r.setStart(n, m.index);
				r.setEnd(n, m.index + m[0].length);
				if ([...r.getClientRects()].filter(x => x.width > 0).length > 1) out.push(m[0]);
			}
		}
		return out;
	})`, sel)
}

// TestLagunaPuzzleBesideTheBoard: on a phone the solo puzzle's target is
// beside the board, island by island; a step the rules do not offer is
// dimmed as Unload is; and a solved puzzle says how it stood to its par
// and keeps the best result.
func TestLagunaPuzzleBesideTheBoard(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withLaguna)
	c := l.createGame(map[string]any{"game": "laguna", "options": map[string]string{"board": "hard", "puzzle": "2"}, "seed": 9,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}}})
	token := c.Seats[0].Token
	l.api("POST", "/api/games/"+c.ID+"/join", token, map[string]any{}, nil)
	g := l.lagunaPlay(c.ID, token, firstLegal(l.laguna(c.ID), "place "))
	v := g.State.View
	p := newPage(t, "solo-phone", 390, 844)
	p.navigate(l.url + c.Seats[0].Link)
	p.waitGame()
	p.waitFor(`document.querySelector('.game[data-turn=you] .lg-par-line .lg-par-goal')`, "the puzzle's target beside the board")
	p.screenshot("laguna-puzzle-phone")
	islands := eval[[]string](p, `[...document.querySelectorAll('.lg-par-line .lg-par-island')].map(e => e.dataset.island + ' ' + e.querySelectorAll('use').length)`)
	if len(islands) != len(v.Goal) {
		t.Fatalf("the target beside the board shows %v, the goal is %v", islands, v.Goal)
	}
	for i, want := range v.Goal {
		if w := fmt.Sprintf("%c %d", "ABCDEFGH"[i], len(want)); islands[i] != w {
			t.Errorf("island %c: %q beside the board, want %q", "ABCDEFGH"[i], islands[i], w)
		}
	}
	// Between the board's bottom and the target, less than a screen.
	if gap := eval[float64](p, `document.querySelector('.lg-par-goal').getBoundingClientRect().top - document.querySelector('.lg-board, .board-wrap svg').getBoundingClientRect().bottom`); gap > 600 {
		t.Errorf("the target is %.0f px under the board", gap)
	}
	steps := eval[[]string](p, `[...document.querySelectorAll('.lg-step')].map(b => b.dataset.move + ' ' + b.classList.contains('dim'))`)
	for _, s := range steps {
		dir := s[:1]
		if dim := strings.HasSuffix(s, "true"); dim == slices.Contains(v.Legal, dir) {
			t.Errorf("step %s dimmed %v, legal %v", dir, dim, v.Legal)
		}
	}
	// The result against the par, and the best kept in this browser.
	said := evalAwait[[]string](p, `(async () => {
		localStorage.removeItem('lagoon.laguna.best');
		const laguna = (await import('/js/games/laguna/index.js')).default;
		const view = steps => ({target: 0, scores: [steps], par: 12, goal: ['YY', 'G'], islands: []});
		return [12, 14, 11, 13].map(n => laguna.result(view(n), [{name: 'Ann'}]).explanation.textContent);
	})()`)
	want := []string{
		"Solved in 12 steps: par matched (par 12).",
		"Solved in 14 steps: 2 over par (par 12). Your best at this puzzle: 12 steps.",
		"Solved in 11 steps: 1 under par (par 12). Your best yet at this puzzle (it was 12 steps).",
		"Solved in 13 steps: 1 over par (par 12). Your best at this puzzle: 11 steps.",
	}
	if !slices.Equal(said, want) {
		t.Errorf("the results read\n%q\nwant\n%q", said, want)
	}
}

// evalAwait evaluates a JavaScript expression in the page and waits for
// the promise it gives.
func evalAwait[T any](p *page, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: evaluating %s: %v", p.name, js, err)
	}
	return v
}

// TestSpectatorSeesTheResult: a spectator who left the exploration
// phase's summary open sees the result, not that summary over it.
func TestSpectatorSeesTheResult(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, func(c *server.Config) { c.BotDelay = 40 * time.Millisecond })
	bot := map[string]any{"kind": "bot", "level": "easy"}
	c := l.createGame(map[string]any{"seed": 2, "seats": []map[string]any{bot, bot}})
	p := newPage(t, "watcher", desktopWidth, desktopHeight)
	p.navigate(l.url + "/game/" + c.ID)
	p.waitGame()
	p.waitFor(`document.querySelector('.phase-modal')`, "the exploration phase's summary")
	p.waitFor(`document.querySelector('.game[data-over=true]') && document.querySelector('.modal')`, "the end of the game")
	p.waitFor(`!document.querySelector('.phase-modal')`, "the summary to give way")
	if !eval[bool](p, `!!document.querySelector('.winner-modal')`) {
		t.Errorf("the result is not shown at the end")
	}
}

// TestTakeBackRequestSaysWhatAMoveDoes: while a take-back waits for an
// answer, the board still takes moves; the request says that a move ends
// it.
func TestTakeBackRequestSaysWhatAMoveDoes(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	c, tokens := l.humansGame(4, "standard")
	g := l.drive(c.ID, tokens, -1, func(g apiGame) bool { return g.State.Version == 1 })
	l.api("POST", "/api/games/"+c.ID+"/takeback", tokens[0], map[string]any{"version": g.State.Version}, nil)
	p := newPage(t, "bob", desktopWidth, desktopHeight)
	p.navigate(l.url + c.Seats[1].Link)
	p.waitFor(`document.querySelector('[data-action=takeback-accept]')`, "the request Bob is asked")
	if note := eval[string](p, `document.querySelector('.takeback-slot').textContent`); !strings.Contains(note, "move made before everyone has answered ends the request") {
		t.Errorf("the request says %q", note)
	}
}

// TestDruidsHomeAndForm: the home page's card of Land of Druids shows its
// picture whole, and the new game form says that four players play as
// two teams, and which seats are teammates.
func TestDruidsHomeAndForm(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	for _, sc := range druidsScreens {
		t.Run(sc.name, func(t *testing.T) {
			p := newPage(t, "ann-"+sc.name, sc.width, sc.height)
			p.navigate(l.url + "/")
			p.waitFor(`document.querySelector('.game-card[data-game=druids] .game-card-picture svg')`, "the card's picture")
			if out := eval[[]float64](p, `(() => {
				const box = document.querySelector('.game-card[data-game=druids] .game-card-picture').getBoundingClientRect();
				const pic = document.querySelector('.game-card[data-game=druids] .game-card-picture svg').getBoundingClientRect();
				return [box.top - pic.top, pic.bottom - box.bottom];
			})()`); out[0] > 1 || out[1] > 1 {
				t.Errorf("the card's picture overflows its box by %.0f px at the top and %.0f at the bottom", out[0], out[1])
			}
			p.openDruidsHome(l, "Ann")
			p.click(`[data-players="3"]`)
			if eval[bool](p, `!!document.querySelector('.seats-teams, .seat-team')`) {
				t.Errorf("three players are said to play in teams")
			}
			p.click(`[data-players="4"]`)
			p.waitFor(`document.querySelector('.seats-teams')`, "the teams said")
			if got := eval[string](p, `document.querySelector('.seats-teams').textContent`); got != "4 players play as 2 teams, teammates scoring together: Red and Black against White and Amber." {
				t.Errorf("the form says %q", got)
			}
			if got := eval[[]string](p, `[...document.querySelectorAll('.seat-row .seat-team')].map(e => e.textContent)`); !slices.Equal(got, []string{"Team 1", "Team 2", "Team 1", "Team 2"}) {
				t.Errorf("the seats' teams read %q", got)
			}
			p.screenshot("druids-form-teams-" + sc.name)
		})
	}
}

// TestDruidsReplayOnAPhone: on a phone the replay of a game without
// phases shows no empty phase chip, and says which move it shows of how
// many.
func TestDruidsReplayOnAPhone(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	c := l.createGame(map[string]any{"game": "druids", "seed": 11, "options": map[string]string{"first": "1"},
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
	l.api("POST", "/api/games/"+c.ID+"/join", c.Seats[0].Token, map[string]any{}, nil)
	p := newPage(t, "phone", 390, 844)
	p.waitFor("true", "the page")
	for len(l.druidsMoves(c.ID)) == 0 || l.druidsGame(c.ID).State.View.Active != 0 {
		time.Sleep(50 * time.Millisecond)
	}
	p.navigate(l.url + "/replay/" + c.ID)
	p.waitFor(`document.querySelector('.replay .chip-move') && /^Move \d+ of \d+$/.test(document.querySelector('.replay .chip-move').textContent)`, "the replay's count")
	got := eval[[]float64](p, `['.replay .chip-phase', '.replay .chip-move'].map(s => document.querySelector(s).getBoundingClientRect().width)`)
	if got[0] != 0 {
		t.Errorf("the replay shows a phase chip %.0f px wide with %q", got[0], eval[string](p, `document.querySelector('.replay .chip-phase').textContent`))
	}
	if got[1] == 0 {
		t.Errorf("the replay does not show which move of how many")
	}
	p.screenshot("druids-replay-phone")
}

// TestDruidsCrowdedSiteKeepsItsName: the druids of four seats on one site
// (the haven, at the start of a four-player game) leave its name and
// number to be read, clear of them and of its energy's symbol.
func TestDruidsCrowdedSiteKeepsItsName(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	person := func(name string) map[string]any { return map[string]any{"kind": "human", "name": name} }
	c := l.createGame(map[string]any{"game": "druids", "seed": 5,
		"seats": []map[string]any{person("Ann"), person("Bea"), person("Cal"), person("Dee")}})
	for _, sc := range druidsScreens {
		t.Run(sc.name, func(t *testing.T) {
			p := newPage(t, "ann-"+sc.name, sc.width, sc.height)
			p.navigate(l.url + "/game/" + c.ID)
			p.waitFor(`document.querySelectorAll('.world .druid').length >= 8`, "the druids on the world")
			p.screenshot("druids-crowded-" + sc.name)
			covered := eval[[]string](p, `(() => {
				const out = [];
				const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
				for (const site of document.querySelectorAll('.world .site')) {
					const bodies = [...site.querySelectorAll('.druid .druid-body, .druid .count, [data-hit=site] > use')].map(e => e.getBoundingClientRect());
					for (const text of site.querySelectorAll('.site-name, .site-id')) {
						const r = text.getBoundingClientRect();
						if (bodies.some(b => meet(r, b))) out.push(site.dataset.site + ': ' + text.textContent);
					}
				}
				return out;
			})()`)
			if len(covered) > 0 {
				t.Errorf("druids cover %q", covered)
			}
		})
	}
}

// TestPhoneBoardZoom: on a phone Blue Lagoon's spaces are smaller than a
// fingertip; zoomed in, each is 44 px across or more, the board scrolls in
// its own box (the page does not scroll sideways), and two taps place.
func TestPhoneBoardZoom(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	c := l.createGame(map[string]any{"seed": 3, "seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
	l.api("POST", "/api/games/"+c.ID+"/join", c.Seats[0].Token, map[string]any{}, nil)
	p := newPage(t, "phone", 390, 844)
	p.navigate(l.url + c.Seats[0].Link)
	p.waitFor(`document.querySelector('.game[data-conn=open][data-turn=you] .board .legal')`, "Ann to move")
	size := `(() => { const r = document.querySelector('.board .hit[data-at="' + document.querySelector('.layer-highlights .legal').dataset.at + '"]').getBoundingClientRect(); return [r.width, r.height]; })()`
	before := eval[[]float64](p, size)
	p.click(`[data-action=zoom]`)
	after := eval[[]float64](p, size)
	if after[0] < 44 || after[1] < 44 {
		t.Errorf("a space is %.0fx%.0f px zoomed in (%.0fx%.0f before), under a fingertip's 44", after[0], after[1], before[0], before[1])
	}
	if sideways := eval[bool](p, `document.documentElement.scrollWidth > window.innerWidth`); sideways {
		t.Errorf("the page scrolls sideways with the board zoomed in")
	}
	p.screenshot("bluelagoon-zoomed-phone")
	v := p.view()
	at := v.Legal[0]
	p.tapSpace(at)
	p.tapSpace(at)
	p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d`, v.Version), "the move placed by two taps")
}

// takeSeat opens a seat's invite link and joins it from the invitation.
func (p *page) takeSeat(link string) {
	p.t.Helper()
	p.navigate(link)
	p.waitGame()
	p.waitFor(`document.querySelector('.join-modal')`, "the invitation")
	p.click(".join-modal .btn-primary")
	p.waitFor(`!document.querySelector('.modal') && document.querySelector('.game[data-conn=open]')`, "the seat taken")
}
