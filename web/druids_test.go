package web_test

// Lagoon: Land of Druids on the page: a whole solo game against
// AJ started from the home page in two clicks and played by clicks on the
// page's own controls, and a two-player game with an invite, one of the
// two on a phone.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/server"
)

// withDruids hosts Land of Druids beside Blue Lagoon.
func withDruids(c *server.Config) {
	c.Games = must(game.NewRegistry(bluelagoon.Rules, druids.Rules))
}

// druidsGame is what the API says of a game of Land of Druids.
type druidsGame struct {
	Seats []struct {
		Kind string `json:"kind"`
		Name string `json:"name"`
	} `json:"seats"`
	Moves []struct {
		Seat int    `json:"seat"`
		Move string `json:"move"`
	} `json:"moves"`
	State struct {
		Version  int  `json:"version"`
		Over     bool `json:"over"`
		Standing struct {
			Scores  []int `json:"scores"`
			Winners []int `json:"winners"`
		} `json:"standing"`
		View druids.StateView `json:"view"`
	} `json:"state"`
}

func (l *lagoon) druidsGame(id string) druidsGame {
	l.t.Helper()
	var g druidsGame
	l.api("GET", "/api/games/"+id, "", nil, &g)
	return g
}

// druidsTurn is what the page shows of the decision at hand.
type druidsTurn struct {
	Over    bool     `json:"over"`
	Version int      `json:"version"`
	Moves   []string `json:"moves"`  // the choices' buttons
	Menu    bool     `json:"menu"`   // the Action step's menu
	Spaces  []string `json:"spaces"` // the spaces highlighted on the world
	Sides   int      `json:"sides"`  // the drawn tile's sides shown
	// RefreshAll is how many druids the Refresh step's one button
	// refreshes (0 when the player chooses them).
	RefreshAll int `json:"refreshAll"`
}

const druidsTurnJS = `(() => {
	const g = document.querySelector('.game');
	return {
		over: g.dataset.over === 'true', version: Number(g.dataset.version),
		moves: [...document.querySelectorAll('.dr-ask [data-move]')].map(b => b.dataset.move),
		menu: !!document.querySelector('.dr-ask[data-menu]'),
		spaces: [...document.querySelectorAll('.world .space.legal')].map(s => s.dataset.space),
		sides: document.querySelectorAll('.dr-drawn .dr-side').length,
		refreshAll: Number((document.querySelector('.dr-ask [data-action=refresh-all]') || {dataset: {count: 0}}).dataset.count),
	};
})()`

// druidsWait waits for the viewer's decision or the end of the game.
func (p *page) druidsWait() druidsTurn {
	p.t.Helper()
	p.waitFor(`(() => { const g = document.querySelector('.game');
		return g.dataset.over === 'true' || g.dataset.turn === 'you' && g.dataset.pending === 'false' && document.querySelector('.dr-ask [data-move], .dr-ask [data-action=refresh-all]'); })()`, "our decision or the end")
	return eval[druidsTurn](p, druidsTurnJS)
}

// clickAt clicks the middle of an element of the page (scrolled into
// view), or a point a fraction of its height from its top, as a person
// would.
func (p *page) clickAt(sel string, fromTop float64) {
	p.t.Helper()
	xy := eval[[]float64](p, fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		el.scrollIntoView({block: 'center', inline: 'nearest'});
		const r = el.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height * %g];
	})()`, sel, fromTop))
	p.do(chromedp.MouseClickXY(xy[0], xy[1]))
}

// druidsDecide makes one decision by a simple rule, by clicks: at the
// menu, explore (the druid picked on the world first, then the action),
// else unravel, else end the turn; otherwise yes, side A, a space, a druid
// or a site on the world, the first other choice, done last, and waits
// for the game to take it.
func (p *page) druidsDecide(t *testing.T, turn druidsTurn) {
	t.Helper()
	moves := turn.Moves
	wait := func(n int) {
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) >= %d`, turn.Version+n), "the decision to be taken")
	}
	if turn.RefreshAll > 0 {
		// The Refresh step in one click: a refresh a druid.
		p.click(`.dr-ask [data-action=refresh-all]`)
		wait(turn.RefreshAll)
		return
	}
	if turn.Menu {
		if slices.Contains(moves, "explore") {
			druid := strings.Fields(eval[string](p, `document.querySelector('.dr-action[data-move=explore]').dataset.invokers`))[0]
			p.clickAt(fmt.Sprintf(`.world .druid[data-druid=%q] .druid-ring`, druid), 0.5)
			p.waitFor(`document.querySelector('.world .druid.selected') && document.querySelectorAll('.dr-action').length >= 1`, "the druid's actions")
			if !eval[bool](p, `!!document.querySelector('.dr-action[data-move=explore]')`) {
				t.Fatalf("the druid %s picked is not offered to explore", druid)
			}
			p.click(`.dr-action[data-move=explore]`)
			// The action, then the druid picked, answer two questions.
			wait(2)
			return
		}
		for _, m := range []string{"unravel", "end"} {
			if slices.Contains(moves, m) {
				p.click(fmt.Sprintf(`.dr-action[data-move=%q]`, m))
				wait(1)
				return
			}
		}
		t.Fatalf("the menu offers %v, and neither unravel nor end", moves)
	}
	pick := ""
	for _, m := range []string{"yes", "side A"} {
		if slices.Contains(moves, m) {
			pick = m
			break
		}
	}
	if pick == "" {
		for _, m := range moves {
			if m != "done" && m != "no" {
				pick = m
				break
			}
		}
	}
	if pick == "" {
		pick = moves[0]
	}
	// A click that the page never takes (seen about once in ten games
	// under load, cause not yet found: docs/web.md) is made again once, as
	// a person would click again, and logged.
	taken := fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d || document.querySelector('.game').dataset.pending === 'true'`, turn.Version)
	for try := 0; ; try++ {
		p.druidsClick(turn, pick)
		if try == 1 || p.within(5*time.Second, taken) {
			break
		}
		t.Logf("the click on %q was not taken; clicking again", pick)
	}
	wait(1)
}

// druidsClick clicks the choice pick as druidsDecide chose it.
func (p *page) druidsClick(turn druidsTurn, pick string) {
	p.t.Helper()
	switch {
	case pick == "side A" && turn.Sides == 2:
		p.clickAt(`.dr-side[data-move="side A"]`, 0.5)
	case slices.Contains(turn.Spaces, pick):
		p.clickAt(fmt.Sprintf(`.world .space[data-space=%q]`, pick), 0.5)
	case eval[bool](p, fmt.Sprintf(`!!document.querySelector('.world .druid.legal[data-druid=%q]')`, pick)):
		// The token's ring, not its group: a count's badge widens the
		// group to the right, where the next token, drawn over it, may
		// take a click aimed at the group's middle.
		p.clickAt(fmt.Sprintf(`.world .druid[data-druid=%q] .druid-ring`, pick), 0.5)
	case eval[bool](p, fmt.Sprintf(`!!document.querySelector('.world .site.legal[data-site=%q]')`, pick)):
		// The hex's upper part, clear of the druids standing on it.
		p.clickAt(fmt.Sprintf(`.world .site[data-site=%q] .hex`, pick), 0.3)
	default:
		p.click(fmt.Sprintf(`.dr-ask [data-move=%q]`, pick))
	}
}

// openDruidsHome opens the home page, gives the player's name and picks
// Land of Druids in the new game form.
func (p *page) openDruidsHome(l *lagoon, name string) {
	p.t.Helper()
	p.openHome(l)
	p.do(chromedp.SendKeys(chromedp.CSS(`input[name=name]`), name))
	p.click(`[data-action="game-druids"]`)
	p.waitFor(`document.querySelector('[data-quick="aj-initiate"]')`, "the solo game's buttons")
}

// TestDruidsSoloAgainstAJ: from the home page, Land of Druids and "Solo
// against AJ" start a game against AJ in two clicks; it is played to the
// end by clicks: druids picked on the world and then their action, each
// action's cost, both sides of each drawn tile shown, the legal spaces
// highlighted, the locked sites marked, the bag's count and AJ's token
// bag, AJ's turns shown step by step; the winner's dialog and the cards
// follow the engine.
func TestDruidsSoloAgainstAJ(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	p := newPage(t, "ann", desktopWidth, desktopHeight)
	p.openDruidsHome(l, "Ann")
	p.screenshot("druids-home")
	p.click(`[data-quick="aj-initiate"]`)
	p.waitGame()
	id := p.gameID()
	g := l.druidsGame(id)
	if g.Seats[1].Kind != "house" || !strings.HasPrefix(g.Seats[1].Name, "AJ") || g.State.View.AJ == nil {
		t.Fatalf("the solo game's seats are %+v (AJ %+v)", g.Seats, g.State.View.AJ)
	}
	p.waitFor(`document.querySelector('.game[data-turn=you][data-conn=open]')`, "our turn")
	if got := eval[string](p, `document.querySelector('.pcard[data-seat="1"] .pcard-name').textContent`); !strings.HasPrefix(got, "AJ") {
		t.Errorf("AJ's card names %q", got)
	}
	if got := eval[string](p, `document.querySelector('.pcard[data-seat="1"] .pcard-kind').textContent`); got != "Played by the rules" {
		t.Errorf("AJ's card says %q of his seat", got)
	}
	// AJ's token bag is shown by circle: the Hare's and the Owl's four.
	if got := eval[[]string](p, `[...document.querySelectorAll('.pcard[data-seat="1"] .dr-aj-token')].map(t => t.dataset.token + ' ' + t.textContent)`); !slices.Equal(got, []string{"Hare 4", "Owl 4"}) {
		t.Errorf("AJ's token bag shows %q", got)
	}
	p.screenshot("druids-start")

	// A site picked on the world offers the actions of the druids there
	// and its card; Escape offers them all again.
	v0 := l.druidsGame(id).State.View
	haven := v0.World[0].ID
	for _, w := range v0.World {
		if len(w.Druids) > 0 {
			haven = w.ID
		}
	}
	all := eval[int](p, `document.querySelectorAll('.dr-action').length`)
	if all != len(v0.Offers) {
		t.Errorf("the menu shows %d actions, the view offers %d", all, len(v0.Offers))
	}
	// Each action shows its cost: an explore the player marker too, a
	// site's action what the catalogue says.
	costs := eval[map[string]string](p, `Object.fromEntries([...document.querySelectorAll('.dr-action')].map(b => [b.dataset.move, (b.querySelector('.dr-action-cost') || {textContent: ''}).textContent]))`)
	if c := costs["explore"]; !strings.Contains(c, "player marker") {
		t.Errorf("the explore's cost reads %q", c)
	}
	for move, c := range costs {
		id, ok := strings.CutPrefix(move, "use ")
		if !ok {
			continue
		}
		n, _ := druids.ParseSiteID(id)
		want := druids.Catalogue()[n].Cost
		if want != "" {
			want = "Cost: " + want
		}
		if c != want {
			t.Errorf("%s's cost reads %q, want %q", move, c, want)
		}
	}
	p.clickAt(fmt.Sprintf(`.world .site[data-site=%q] .hex`, haven), 0.3)
	p.waitFor(fmt.Sprintf(`document.querySelector('.world .site.selected[data-site=%q]') && document.querySelector('.dr-info [data-card=%q]')`, haven, haven), "the site picked and its card")
	if n := eval[int](p, `document.querySelectorAll('.dr-action').length`); n == 0 || !strings.Contains(eval[string](p, `document.querySelector('.dr-q-hint').textContent`), "Actions from") {
		t.Errorf("the site picked offers %d actions", n)
	}
	p.key(kb.Escape)
	p.waitFor(fmt.Sprintf(`!document.querySelector('.world .selected') && document.querySelectorAll('.dr-action').length === %d`, all), "all the actions again")

	var sawSides, sawSpaces, sawAJ, sawLocked bool
	for decisions := 0; ; decisions++ {
		turn := p.druidsWait()
		if turn.Over {
			break
		}
		if decisions > 600 {
			t.Fatal("the game does not end")
		}
		v := l.druidsGame(id).State.View
		// The buttons are the view's choices (the menu's, or those of
		// the druid picked).
		// The Refresh step in one click shows the druids' refreshes as
		// one button.
		legal := v.Legal
		if turn.RefreshAll > 0 {
			legal = slices.DeleteFunc(slices.Clone(legal), func(m string) bool { return strings.Contains(m, "@") })
		}
		if !turn.Menu && !slices.Equal(sorted(turn.Moves), sorted(legal)) {
			t.Fatalf("the buttons %v are not the view's choices %v", turn.Moves, v.Legal)
		}
		if slices.Contains(v.Legal, "side A") {
			if turn.Sides != 2 || !eval[bool](p, `!!document.querySelector('.dr-side[data-move="side B"]')`) {
				t.Errorf("a drawn tile's sides shown: %d", turn.Sides)
			}
			if !sawSides {
				p.screenshot("druids-drawn")
			}
			sawSides = true
		}
		// The locked sites are marked, and the bag's count is the view's.
		var locked []string
		for _, w := range v.World {
			if w.Locked {
				locked = append(locked, w.ID)
			}
		}
		if got := eval[[]string](p, `[...document.querySelectorAll('.world .site.locked')].filter(g => g.querySelector('.lock')).map(g => g.dataset.site)`); !slices.Equal(sorted(got), sorted(locked)) {
			t.Errorf("the sites marked locked are %v, the view's %v", got, locked)
		}
		sawLocked = sawLocked || len(locked) > 0
		if got := eval[string](p, `document.querySelector('.dr-bag').dataset.bag`); got != strconv.Itoa(v.Bag) {
			t.Errorf("the page says %s tiles in the bag, the view %d", got, v.Bag)
		}
		var tokens []string
		for c, n := range v.AJ.Tokens {
			if n > 0 {
				tokens = append(tokens, fmt.Sprintf("%s %d", druids.CircleNames[c], n))
			}
		}
		if got := eval[[]string](p, `[...document.querySelectorAll('.pcard[data-seat="1"] .dr-aj-token')].map(t => t.dataset.token + ' ' + t.textContent)`); !slices.Equal(got, tokens) {
			t.Errorf("AJ's token bag shows %q, the view %q", got, tokens)
		}
		var spaces []string
		for _, m := range v.Legal {
			if strings.Contains(m, ",") {
				spaces = append(spaces, m)
			}
		}
		if len(spaces) > 0 {
			sawSpaces = true
			if !slices.Equal(sorted(turn.Spaces), sorted(spaces)) {
				t.Errorf("the spaces highlighted are %v, the legal ones %v", turn.Spaces, spaces)
			}
		}
		if steps := v.AJ.LastTurn; len(steps) > 0 && !sawAJ && v.Step == "refresh" {
			sawAJ = true
			p.waitFor(fmt.Sprintf(`document.querySelectorAll('.dr-aj .aj-step:not(.later)').length === %d`, len(steps)), "AJ's steps shown one by one")
			shown := eval[[]string](p, `[...document.querySelectorAll('.dr-aj .aj-step')].map(li => li.textContent)`)
			if len(shown) != len(steps) || !strings.HasSuffix(steps[0], shown[0]) {
				t.Errorf("AJ's turn shown %q, his steps %q", shown, steps)
			}
			p.screenshot("druids-aj")
		}
		p.druidsDecide(t, turn)
	}
	if !sawSides || !sawSpaces || !sawAJ || !sawLocked {
		t.Errorf("the game showed drawn sides %v, spaces %v, AJ's turn %v, a locked site %v", sawSides, sawSpaces, sawAJ, sawLocked)
	}
	p.waitFor(`document.querySelector('.winner-modal')`, "the winner's dialog")
	p.screenshot("druids-over")
	end := l.druidsGame(id)
	rec := l.record(id)
	st, err := rec.Replay(druids.Rules, -1)
	if err != nil {
		t.Fatal(err)
	}
	standing := st.Standing()
	if !slices.Equal(end.State.Standing.Scores, standing.Scores) || !slices.Equal(end.State.Standing.Winners, standing.Winners) {
		t.Errorf("the server's standing %+v, the engine's replay %+v", end.State.Standing, standing)
	}
	for seat, score := range standing.Scores {
		if got := eval[string](p, fmt.Sprintf(`document.querySelector('.podium-total[data-total="%d"]').textContent`, seat)); got != strconv.Itoa(score) {
			t.Errorf("the winner's dialog gives seat %d %s points, the engine %d", seat, got, score)
		}
	}
	var want []string
	for _, w := range standing.Winners {
		want = append(want, strconv.Itoa(w))
	}
	if got := eval[[]string](p, `[...document.querySelectorAll('.podium li.win')].map(li => li.dataset.seat)`); !slices.Equal(got, want) {
		t.Errorf("the winner's dialog crowns %v, the engine %v", got, want)
	}
	// The score sheet is the destiny forecast of the end.
	p.click(`.winner-modal .btn:not(.btn-primary)`)
	p.waitFor(`!document.querySelector('.modal') && document.querySelector('.dr-forecast-table')`, "the score sheet")
	forecast := eval[[]string](p, `[...document.querySelectorAll('.dr-forecast-table tbody td')].map(td => td.textContent)`)
	var wantForecast []string
	for e := range druids.NumEnergies {
		for _, pl := range end.State.View.Players {
			wantForecast = append(wantForecast, strconv.Itoa(pl.Forecast[e]))
		}
	}
	if !slices.Equal(forecast, wantForecast) {
		t.Errorf("the forecast shows %v, the view %v", forecast, wantForecast)
	}

	// The replay draws the world of the end.
	p.navigate(l.url + "/replay/" + id)
	p.waitFor(`document.querySelector('.replay[data-shown="0"]') && document.querySelector('.world .site')`, "the replay's start")
	p.key(kb.End)
	p.waitFor(fmt.Sprintf(`document.querySelector('.replay[data-shown="%d"]')`, len(end.Moves)), "the last move")
	p.waitFor(fmt.Sprintf(`document.querySelectorAll('.world .site').length === %d`, len(end.State.View.World)), "the world of the end")
	p.screenshot("druids-replay")
}

// TestDruidsTeams: four players are two teams, shown as teams: the cards'
// tags, the forecast above the world and the score sheet's team columns;
// and a side of our own design (16B, in Floating in Paradise's start) is
// marked original to Lagoon on the world and on its card.
func TestDruidsTeams(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	human := map[string]any{"kind": "human"}
	c := l.createGame(map[string]any{"game": "druids", "seed": 5, "options": map[string]string{"start": "paradise"},
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, human, human, human}})
	p := newPage(t, "watcher", 390, 844)
	p.navigate(l.url + "/game/" + c.ID)
	p.waitGame()
	p.waitFor(`document.querySelector('.dr-forecast-table')`, "the score sheet")
	teams := eval[[]string](p, `[...document.querySelectorAll('.pcard')].map(c => c.dataset.seat + ' ' + c.querySelector('.tag-team').textContent)`)
	if want := []string{"0 team 1", "1 team 2", "2 team 1", "3 team 2"}; !slices.Equal(teams, want) {
		t.Errorf("the cards show the teams %v, want %v", teams, want)
	}
	if got := eval[[]string](p, `[...document.querySelectorAll('.dr-forecast-table thead .dr-team')].map(th => th.textContent)`); !slices.Equal(got, []string{"Team 1", "Team 2"}) {
		t.Errorf("the score sheet's team columns are %v", got)
	}
	g := l.druidsGame(c.ID)
	if g.State.View.Destiny != "draw" {
		p.waitFor(`document.querySelector('.dr-fc[data-side="0 2"]')`, "team 1's forecast")
	}
	// Floating in Paradise holds 16B, a side of our own design: marked on
	// the world and on its card.
	if got := eval[string](p, `document.querySelector('.world .site.original[data-site="16B"] [aria-label]').getAttribute('aria-label')`); !strings.Contains(got, "original to Lagoon") {
		t.Errorf("16B is said %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('.world .site.original').length`); n != 1 {
		t.Errorf("%d sites marked original, want 1 (16B)", n)
	}
	p.clickAt(`.world .site[data-site="16B"] .hex`, 0.3)
	p.waitFor(`document.querySelector('.dr-info [data-card="16B"] .tag-original')`, "16B's card, original to Lagoon")
	p.screenshot("druids-teams-phone")
}

// TestDruidsInvite: Ann starts a two-player game from the home page with
// a friend's seat; Bob opens the invite link on a phone, joins; Ann picks a
// druid from the keyboard; both play their first turns by clicks; each page shows the other's moves, and
// the world, the bag and the forecast agree with the server's view.
func TestDruidsInvite(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	ann := newPage(t, "ann", desktopWidth, desktopHeight)
	ann.openDruidsHome(l, "Ann")
	ann.do(chromedp.SetValue(chromedp.CSS(`select[name=seat1]`), "friend"))
	eval[bool](ann, `document.querySelector('select[name=seat1]').dispatchEvent(new Event('change'))`)
	ann.waitFor(`document.querySelector('select[name=seat1]').value === 'friend'`, "the friend's seat")
	ann.click(`[data-action=start]`)
	ann.waitGame()
	ann.waitFor(`document.querySelector('.invite-card .copy-input')`, "the invite link")
	link := eval[string](ann, `document.querySelector('.invite-card .copy-input').value`)
	id := ann.gameID()

	bob := newPage(t, "bob", 390, 844)
	bob.navigate(link)
	bob.waitGame()
	bob.waitFor(`document.querySelector('.join-modal')`, "the invitation")
	bob.do(chromedp.SendKeys(chromedp.CSS(`.join-modal input[name=name]`), "Bob"))
	bob.click(".join-modal .btn-primary")
	bob.waitFor(`!document.querySelector('.modal') && document.querySelector('.game[data-conn=open]')`, "Bob seated")
	ann.waitFor(`document.querySelector('.game[data-turn=you][data-conn=open]')`, "Ann's turn")

	// From the keyboard: a druid of the world focused and Enter picks it,
	// the focus goes to its first action, Escape drops it.
	eval[bool](ann, `(document.querySelector('.world .druid.legal').focus(), true)`)
	ann.key(kb.Enter)
	ann.waitFor(`document.querySelector('.world .druid.selected') && document.activeElement.matches('.dr-action')`, "the druid picked by the keyboard, the focus on its actions")
	ann.key(kb.Escape)
	ann.waitFor(`!document.querySelector('.world .selected')`, "the druid dropped")

	// Ann's first turn, then Bob's, each to its end: whoever the server
	// says decides answers on their own page, for a site's action may ask
	// the player whose turn it is not.
	shot := map[*page]bool{}
	for range 300 {
		v := l.druidsGame(id).State.View
		if v.Over || v.Turn > 2 {
			break
		}
		pl := []*page{ann, bob}[v.ToMove]
		turn := pl.druidsWait()
		if !shot[pl] {
			pl.screenshot("druids-invite-" + pl.name)
			shot[pl] = true
		}
		pl.druidsDecide(t, turn)
	}
	if v := l.druidsGame(id).State.View; !v.Over && v.Turn <= 2 {
		t.Fatalf("300 decisions and the first two turns are not over: turn %d", v.Turn)
	}
	g := l.druidsGame(id)
	for _, pl := range []*page{ann, bob} {
		pl.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) === %d`, g.State.Version), "the last move")
		var sites []string
		for _, w := range g.State.View.World {
			sites = append(sites, w.ID)
		}
		if got := eval[[]string](pl, `[...document.querySelectorAll('.world .site')].map(s => s.dataset.site)`); !slices.Equal(sorted(got), sorted(sites)) {
			t.Errorf("%s's world shows %v, the server's %v", pl.name, got, sites)
		}
		if got := eval[string](pl, `document.querySelector('.dr-bag').dataset.bag`); got != strconv.Itoa(g.State.View.Bag) {
			t.Errorf("%s's page says %s tiles in the bag, the server %d", pl.name, got, g.State.View.Bag)
		}
	}
	moves := eval[int](bob, `(document.querySelector('.tab[data-tab=moves]').click(), document.querySelectorAll('.log .log-move').length)`)
	if moves != len(g.Moves) {
		t.Errorf("Bob's log lists %d moves, the game has %d", moves, len(g.Moves))
	}
	if heads := eval[[]string](bob, `[...document.querySelectorAll('.log .log-phase')].map(li => li.textContent)`); len(heads) < 2 || heads[0] != "Turn 1" {
		t.Errorf("the log's headings are %q, want a heading a turn", heads)
	}
	bob.screenshot("druids-invite-phone-log")
	ann.click(`.tab[data-tab=moves]`)
	ann.screenshot("druids-invite-log")
}

func sorted(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
