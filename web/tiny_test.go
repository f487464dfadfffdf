package web_test

// The shell names no game: Tiny, the contract's test game, which has no
// module on the page, is chosen, set up, played, watched and replayed
// through the same pages as Blue Lagoon.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
	"github.com/lagoon-games/lagoon/internal/server"
)

// withTiny hosts Tiny beside Blue Lagoon.
func withTiny(c *server.Config) {
	c.Games = must(game.NewRegistry(bluelagoon.Rules, gametest.Tiny))
}

// tinyView is what the plain module shows of Tiny's view, read back.
type tinyView struct {
	Hand    []int    `json:"hand"`
	Holding []int    `json:"holding"`
	Legal   []string `json:"legal"`
}

func (p *page) plainView() tinyView {
	p.t.Helper()
	var v tinyView
	text := eval[string](p, `document.querySelector('.plain-view').textContent`)
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		p.t.Fatalf("%s: the view shown is not the game's view: %v: %s", p.name, err, text)
	}
	return v
}

// TestGameWithoutModule: with two games on the server, the home page
// offers both; Tiny's form is built from its declared options and time
// rules; its game is played by the moves the view lists, a spectator sees
// no hand, the winner's dialog follows the standing, and the replay steps
// through it.
func TestGameWithoutModule(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withTiny)
	p := newPage(t, "player", desktopWidth, desktopHeight)
	p.openHome(l)
	p.click(`[data-action="game-tiny"]`)
	p.waitFor(`document.querySelector('input[name=hand]') && document.querySelector('select[name=goal]')`, "Tiny's options")
	if eval[bool](p, `!!document.querySelector('.board-card')`) {
		t.Error("Tiny's form shows Blue Lagoon's boards")
	}
	p.do(chromedp.SendKeys(chromedp.CSS(`input[name=name]`), "Ann"))
	p.do(chromedp.SetValue(chromedp.CSS(`select[name=seat1]`), "bot:easy"))
	eval[bool](p, `document.querySelector('select[name=seat1]').dispatchEvent(new Event('change'))`)
	p.click(`details.more summary`)
	p.do(chromedp.SetValue(chromedp.CSS(`input[name=hand]`), "2"))
	eval[bool](p, `document.querySelector('input[name=hand]').dispatchEvent(new Event('change'))`)
	clocks := eval[[]string](p, `[...document.querySelectorAll('select[name=clock] option')].map(o => o.value)`)
	if !slices.ContainsFunc(clocks, func(s string) bool { return strings.HasPrefix(s, "turn:") }) {
		t.Errorf("Tiny's clocks are %v, with no turn timer", clocks)
	}
	p.do(chromedp.SendKeys(chromedp.CSS(`input[name=seed]`), "7"))
	p.do(chromedp.SetValue(chromedp.CSS(`select[name=clock]`), "turn:60"))
	eval[bool](p, `document.querySelector('select[name=clock]').dispatchEvent(new Event('change'))`)
	p.click(`[data-action=start]`)
	v := p.waitGame()
	id := p.gameID()
	if kind := eval[string](p, `document.querySelector('.game').dataset.kind`); kind != "tiny" || v.You != "0" {
		t.Fatalf("the new game is %q, seat %q", kind, v.You)
	}
	var info struct {
		Game    string            `json:"game"`
		Options map[string]string `json:"options"`
		Time    *struct {
			Kind   string `json:"kind"`
			TurnMS int    `json:"turn_ms"`
		} `json:"time"`
	}
	l.api("GET", "/api/games/"+id, "", nil, &info)
	if info.Game != "tiny" || info.Options["hand"] != "2" || info.Time == nil || info.Time.Kind != "turn" || info.Time.TurnMS != 60000 {
		t.Errorf("the game made from the form is %+v (time %+v)", info, info.Time)
	}
	p.waitFor(`document.querySelector('.game[data-conn=open]')`, "the connection")
	// A turn timer runs for the seat deciding; the other card shows none.
	p.waitFor(`document.querySelector('.game[data-turn=you] .pcard[data-seat="0"] .pcard-clock.running')`, "the turn's clock")
	if eval[bool](p, `!!document.querySelector('.pcard[data-seat="1"] .pcard-clock')`) {
		t.Error("the seat not deciding shows a clock under a turn timer")
	}

	// A spectator sees no hand; the player sees hers.
	carl := newPage(t, "carl", desktopWidth, desktopHeight)
	carl.navigate(l.url + "/game/" + id)
	if w := carl.waitGame(); w.Turn != "watch" {
		t.Fatalf("the spectator sees %+v", w)
	}
	if hand := carl.plainView().Hand; hand != nil {
		t.Errorf("the spectator is shown a hand: %v", hand)
	}
	if hand := p.plainView().Hand; len(hand) == 0 {
		t.Error("the player is shown no hand")
	}

	// Play by the buttons of the moves the view lists, whoever decides:
	// the turn's owner or, after an odd card, the next seat.
	rng := rand.New(rand.NewPCG(11, 12))
	var played []string
	for moves := 0; ; moves++ {
		p.waitFor(`(() => { const g = document.querySelector('.game');
			return g.dataset.over === 'true' || g.dataset.turn === 'you' && g.dataset.pending === 'false' && document.querySelector('.plain-moves [data-move]'); })()`, "our move or the end")
		if eval[bool](p, `document.querySelector('.game').dataset.over === 'true'`) {
			break
		}
		if moves > 200 {
			t.Fatal("the game does not end")
		}
		legal := eval[[]string](p, `[...document.querySelectorAll('.plain-moves [data-move]')].map(b => b.dataset.move)`)
		if shown := p.plainView().Legal; !slices.Equal(shown, legal) {
			t.Fatalf("the buttons %v are not the view's moves %v", legal, shown)
		}
		version := p.view().Version
		move := legal[rng.IntN(len(legal))]
		played = append(played, move)
		p.click(fmt.Sprintf(`.plain-moves [data-move=%q]`, move))
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d`, version), "the move to be made")
	}
	if !slices.Contains(played, "take") && !slices.Contains(played, "leave") {
		t.Errorf("we made the moves %v, never a decision in the bot's turn", played)
	}
	p.waitFor(`document.querySelector('.winner-modal')`, "the winner's dialog")
	var end struct {
		Moves []json.RawMessage `json:"moves"`
		State struct {
			Standing struct {
				Scores  []int `json:"scores"`
				Winners []int `json:"winners"`
			} `json:"standing"`
		} `json:"state"`
	}
	l.api("GET", "/api/games/"+id, "", nil, &end)
	var want []string
	for _, w := range end.State.Standing.Winners {
		want = append(want, strconv.Itoa(w))
	}
	if got := eval[[]string](p, `[...document.querySelectorAll('.podium li.win')].map(li => li.dataset.seat)`); !slices.Equal(got, want) {
		t.Errorf("the winner's dialog crowns seats %v, the standing %v", got, want)
	}
	for seat, score := range end.State.Standing.Scores {
		if shown := eval[string](p, fmt.Sprintf(`document.querySelector('.podium-total[data-total="%d"]').textContent`, seat)); shown != strconv.Itoa(score) {
			t.Errorf("the winner's dialog gives seat %d %s points, the standing %d", seat, shown, score)
		}
	}
	p.screenshot("tiny-over")
	p.click(`.winner-modal .btn:not(.btn-primary)`)
	p.waitFor(`!document.querySelector('.modal')`, "the dialog to close")
	p.click(`.tab[data-tab=moves]`)
	if n := eval[int](p, `document.querySelectorAll('.log .log-move').length`); n != len(end.Moves) {
		t.Errorf("the log lists %d moves, the game has %d", n, len(end.Moves))
	}

	// The replay steps through it, the spectator's view at each step.
	p.navigate(l.url + "/replay/" + id)
	p.waitFor(`document.querySelector('.replay[data-shown="0"]')`, "the replay's start")
	p.key(kb.ArrowRight)
	p.waitFor(`document.querySelector('.replay[data-shown="1"]')`, "the first move")
	p.key(kb.End)
	p.waitFor(fmt.Sprintf(`document.querySelector('.replay[data-shown="%d"]')`, len(end.Moves)), "the last move")
	if !strings.Contains(eval[string](p, `document.querySelector('.replay-caption').textContent`), "Ann") &&
		!strings.Contains(eval[string](p, `document.querySelector('.replay-caption').textContent`), "Bot") {
		t.Errorf("the replay's caption says %q", eval[string](p, `document.querySelector('.replay-caption').textContent`))
	}
	if !eval[bool](p, `!!document.querySelector('[data-action=download]')`) {
		t.Error("the finished game's record cannot be downloaded")
	}
}

// TestTeamsWithoutModule: a game of two teams (Tiny's pairs) shows each
// seat's team, and says which team won, from the standing alone.
func TestTeamsWithoutModule(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withTiny)
	bot := map[string]any{"kind": "bot", "level": "easy"}
	c := l.createGame(map[string]any{"game": "tiny", "options": map[string]string{"teams": "pairs", "hand": "2"}, "seed": 3,
		"seats": []map[string]any{bot, bot, bot, bot}})
	p := newPage(t, "watcher", desktopWidth, desktopHeight)
	p.navigate(l.url + "/game/" + c.ID)
	p.waitGame()
	p.waitFor(`document.querySelector('.game[data-over=true]')`, "the bots to finish")
	teams := eval[[]string](p, `[...document.querySelectorAll('.pcard')].map(c => c.dataset.seat + ' ' + c.querySelector('.tag-team').textContent)`)
	if want := []string{"0 team 1", "1 team 2", "2 team 1", "3 team 2"}; !slices.Equal(teams, want) {
		t.Errorf("the cards show the teams %v, want %v", teams, want)
	}
	var end struct {
		Seats []struct {
			Name string `json:"name"`
		} `json:"seats"`
		State struct {
			Standing struct {
				Winners []int   `json:"winners"`
				Teams   [][]int `json:"teams"`
			} `json:"standing"`
		} `json:"state"`
	}
	l.api("GET", "/api/games/"+c.ID, "", nil, &end)
	// The page calls bots under the server's default name by their colour.
	colours := []string{"Red", "White", "Black", "Amber"}
	var names []string
	for _, w := range end.State.Standing.Winners {
		name := end.Seats[w].Name
		if strings.HasPrefix(name, "Bot (") {
			name = colours[w] + " bot"
		}
		names = append(names, name)
	}
	want := strings.Join(names, " and ") + " won"
	if len(names) != 2 {
		want = "Shared victory" // the two teams tied
	}
	if got := eval[string](p, `document.querySelector('.banner-title').textContent`); got != want {
		t.Errorf("the banner says %q, want %q (standing %+v)", got, want, end.State.Standing)
	}
}
