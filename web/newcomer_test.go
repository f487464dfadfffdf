package web_test

// What a newcomer to Blue Lagoon ran into, each checked at a
// desktop's and a phone's size: skipped turns said, confirm each move,
// every move since one's own marked, seats told apart, a village's reason
// and the log in a player's words, a score sheet that fits, a phone's
// board, and the smaller things.

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// apiGame is what the driver reads of a Blue Lagoon game from the API.
type apiGame struct {
	Table struct {
		StoneCircles []string `json:"stone_circles"`
		Islands      []struct {
			Spaces []string `json:"spaces"`
		} `json:"islands"`
	} `json:"table"`
	Moves []struct {
		Seat int    `json:"seat"`
		Move string `json:"move"`
	} `json:"moves"`
	State struct {
		Version int  `json:"version"`
		ToMove  int  `json:"to_move"`
		Over    bool `json:"over"`
		View    struct {
			Phase  string   `json:"phase"`
			Legal  []string `json:"legal"`
			Pieces []struct {
				At    string `json:"at"`
				Seat  int    `json:"seat"`
				Piece string `json:"piece"`
			} `json:"pieces"`
			Tokens []struct {
				At    string `json:"at"`
				Token string `json:"token"`
			} `json:"tokens"`
		} `json:"view"`
	} `json:"state"`
}

// hexDistance is the distance between two spaces "r,c" (even rows
// indented by half a space).
func hexDistance(a, b string) int {
	cube := func(at string) (int, int, int) {
		var r, c int
		fmt.Sscanf(at, "%d,%d", &r, &c)
		x := c - (r+(r&1))/2
		return x, r, -x - r
	}
	ax, ay, az := cube(a)
	bx, by, bz := cube(b)
	return max(abs(ax-bx), abs(ay-by), abs(az-bz))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// chooseMove is a quick player's move: a resource within reach, else a
// step towards the nearest; villages only on stone circles (they go at
// the end of the exploration phase), but for the keeper, whose first
// village goes where it stays.
func chooseMove(g apiGame, keeper int) string {
	v := g.State.View
	seat := g.State.ToMove
	stone := make(map[string]bool)
	for _, at := range g.Table.StoneCircles {
		stone[at] = true
	}
	resources := make(map[string]bool)
	for _, t := range v.Tokens {
		if t.Token != "statuette" {
			resources[t.At] = true
		}
	}
	kept := false
	for _, p := range v.Pieces {
		if p.Seat == seat && p.Piece == "village" && !stone[p.At] {
			kept = true
		}
	}
	if seat == keeper && !kept && v.Phase == "exploration" {
		for _, m := range v.Legal {
			if m[0] == 'T' && !stone[m[2:]] {
				return m
			}
		}
	}
	for _, m := range v.Legal {
		if resources[m[2:]] && (m[0] == 'S' || stone[m[2:]]) {
			return m
		}
	}
	best, bestD := "", math.MaxInt
	for _, m := range v.Legal {
		if m[0] != 'S' {
			continue
		}
		d := 1000
		for at := range resources {
			d = min(d, hexDistance(m[2:], at))
		}
		if d < bestD {
			best, bestD = m, d
		}
	}
	if best != "" {
		return best
	}
	for _, m := range v.Legal {
		if stone[m[2:]] {
			return m
		}
	}
	return v.Legal[0]
}

// drive plays a game of human seats through the API, each seat's move
// chosen by chooseMove, until done says to stop or the game is over, and
// returns the game as it then is.
func (l *lagoon) drive(id string, tokens []string, keeper int, done func(apiGame) bool) apiGame {
	l.t.Helper()
	for {
		var g apiGame
		l.api("GET", "/api/games/"+id, "", nil, &g)
		if g.State.Over || done(g) {
			return g
		}
		m := chooseMove(g, keeper)
		l.api("POST", "/api/games/"+id+"/moves", tokens[g.State.ToMove], map[string]any{"version": g.State.Version, "move": m}, nil)
	}
}

// humansGame makes a game of two people on the API, both joined, and
// returns it with the seats' tokens.
func (l *lagoon) humansGame(seed int, board string) (created, []string) {
	l.t.Helper()
	c := l.createGame(map[string]any{"options": map[string]string{"board": board}, "seed": seed,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}}})
	tokens := make([]string, 2)
	for _, s := range c.Seats {
		tokens[s.Seat] = s.Token
		l.api("POST", "/api/games/"+c.ID+"/join", s.Token, map[string]any{}, nil)
	}
	return c, tokens
}

type screen struct {
	name          string
	width, height int64
	phone         bool
}

var screens = []screen{{"desktop", desktopWidth, desktopHeight, false}, {"phone", 390, 844, true}}

func (sc screen) open(t *testing.T, name string) *page {
	p := newPage(t, name+"-"+sc.name, sc.width, sc.height)
	if sc.phone {
		p.do(chromedp.Emulate(phoneDevice))
	}
	return p
}

// TestSkippedTurnsAreSaid: a player left with nowhere to place in the
// settlement phase is told so in the banner, the log, their card and the
// controls, and is not asked to play the phase.
func TestSkippedTurnsAreSaid(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	c, tokens := l.humansGame(11, "standard")
	// Ann keeps no village: in the settlement phase she has no piece to
	// place next to. Bob keeps one.
	l.drive(c.ID, tokens, 1, func(g apiGame) bool { return g.State.View.Phase == "settlement" })
	g := l.drive(c.ID, tokens, 1, func(g apiGame) bool {
		return g.State.Version > 0 && g.Moves[len(g.Moves)-1].Seat == 1 && g.State.View.Phase == "settlement"
	})
	for _, p := range g.State.View.Pieces {
		if p.Seat == 0 {
			t.Fatalf("Ann kept a piece into the settlement phase: %+v", p)
		}
	}
	for _, sc := range screens {
		p := sc.open(t, "ann")
		p.navigate(l.url + c.Seats[0].Link)
		p.waitGame()
		p.waitFor(`document.querySelector('.game[data-conn=open]')`, "the connection")
		banner := eval[string](p, `document.querySelector('.turn-banner').textContent`)
		if !strings.Contains(banner, "You have nowhere to place") || !strings.Contains(banner, "skipped") {
			t.Errorf("%s: the banner of a player with nowhere to place says %q", sc.name, banner)
		}
		if tag := eval[string](p, `(document.querySelector('.pcard[data-seat="0"] .tag-skipped') || {textContent: ''}).textContent`); tag != "skipped" {
			t.Errorf("%s: Ann's card does not say her turns are skipped (%q)", sc.name, tag)
		}
		btn := eval[[]string](p, `[...document.querySelectorAll('.piece-btn')].map(b => b.dataset.piece + ' ' + b.disabled + ' ' + b.querySelector('.piece-left').textContent)`)
		if !slices.Equal(btn, []string{"settler true nowhere to place", "village true nowhere to place"}) {
			t.Errorf("%s: the piece buttons say %q", sc.name, btn)
		}
		why := eval[string](p, `(document.querySelector('.piece-why:not([hidden])') || {textContent: ''}).textContent`)
		if !strings.Contains(why, "skipped") {
			t.Errorf("%s: no reason under the buttons (%q)", sc.name, why)
		}
		p.click(`.tab[data-tab=moves]`)
		skip := eval[string](p, `(document.querySelector('.log .log-skip') || {textContent: ''}).textContent`)
		if !strings.Contains(skip, "You have nowhere to place: your turns are skipped") {
			t.Errorf("%s: the log says %q of the skipped turns", sc.name, skip)
		}
		p.screenshot("skipped-" + sc.name)
		// The summary of the exploration phase does not ask her to play.
		p.click(`.side-actions .btn[type=button]:not(.btn-danger)`)
		p.waitFor(`document.querySelector('.phase-modal')`, "the summary")
		if next := eval[string](p, `document.querySelector('.phase-modal .btn-primary').textContent`); next == "Play the settlement phase" {
			t.Errorf("%s: a player whose turns are skipped is offered %q", sc.name, next)
		}
		p.click(`.phase-modal .btn-primary`)
	}
	// Bob, who plays on, is told Ann is skipped, and is still asked to play.
	bob := newPage(t, "bob", desktopWidth, desktopHeight)
	bob.navigate(l.url + c.Seats[1].Link)
	bob.waitGame()
	bob.click(`.tab[data-tab=moves]`)
	bob.waitFor(`document.querySelector('.log .log-skip')`, "the skip in Bob's log")
	if skip := eval[string](bob, `document.querySelector('.log .log-skip').textContent`); skip != "Ann has nowhere to place: their turns are skipped" {
		t.Errorf("Bob's log says %q", skip)
	}
}

// TestConfirmEachMove: with the preference on, a click proposes a move
// that Confirm (or a second click) sends and Cancel drops; the preference
// is remembered.
func TestConfirmEachMove(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	for _, sc := range screens {
		p := sc.open(t, "confirm")
		p.joinAgainstBot(l)
		p.click(`[data-action=preferences]`)
		p.click(`input[name=pref-confirm]`)
		v := p.view()
		at := v.Legal[len(v.Legal)/2]
		place := func() { p.placeOn(at, sc.phone) }
		place()
		p.waitFor(`document.querySelector('.confirm-bar:not([hidden])')`, "the move to confirm")
		if w := p.view(); w.Version != v.Version || w.Pending {
			t.Fatalf("%s: a click with confirm on made the move: %+v", sc.name, w)
		}
		if n := eval[int](p, fmt.Sprintf(`document.querySelectorAll('.layer-proposal .proposal[data-at="%s"]').length`, at)); n != 1 {
			t.Errorf("%s: the proposed piece is not drawn on %s", sc.name, at)
		}
		p.screenshot("confirm-" + sc.name)
		p.click(`.confirm-bar [data-action=cancel]`)
		p.waitFor(`document.querySelector('.confirm-bar[hidden]') && !document.querySelector('.layer-proposal .proposal')`, "the move dropped")
		place()
		p.click(`.confirm-bar [data-action=confirm]`)
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d`, v.Version), "the confirmed move")
		if got := l.game(p.gameID()).Moves[v.Version]; got.Move[2:] != at {
			t.Errorf("%s: confirming made the move %+v, want on %s", sc.name, got, at)
		}
		p.navigate(l.url + "/game/" + p.gameID())
		p.waitGame()
		if !eval[bool](p, `document.querySelector('input[name=pref-confirm]').checked`) {
			t.Errorf("%s: the preference to confirm each move is forgotten on reload", sc.name)
		}
	}
}

// TestMovesSinceMineAreMarked: with three bots, every move since the
// player's own is marked and numbered; the optional sound of "your turn"
// is off until chosen.
func TestMovesSinceMineAreMarked(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	bot := map[string]any{"kind": "bot", "level": "easy"}
	for _, sc := range screens {
		c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seed": 4,
			"seats": []map[string]any{{"kind": "human", "name": "Ann"}, bot, bot, bot}})
		p := sc.open(t, "marks")
		p.navigate(l.url + c.Seats[0].Link)
		p.waitGame()
		p.waitFor(`document.querySelector('.join-modal')`, "the invitation")
		p.click(".join-modal .btn-primary")
		p.waitFor(`!document.querySelector('.modal') && document.querySelector('.game[data-turn=you][data-conn=open]')`, "our turn")
		eval[bool](p, `(window.sounds = 0, window.addEventListener('lagoon-sound', () => window.sounds++), true)`)
		for round := range 2 {
			v := p.view()
			p.placeOn(v.Legal[len(v.Legal)/2], sc.phone)
			p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) >= %d && document.querySelector('.game[data-turn=you][data-pending=false]')`, v.Version+4), "the bots' three moves")
			marks := eval[[]string](p, `[...document.querySelectorAll('.layer-marks .recent-move')].map(e => e.dataset.n + ' ' + e.dataset.at)`)
			g := l.game(c.ID)
			var want []string
			for i, m := range g.Moves[len(g.Moves)-3:] {
				want = append(want, fmt.Sprintf("%d %s", i+1, m.Move[2:]))
			}
			if !slices.Equal(marks, want) {
				t.Errorf("%s: after the bots' moves the board marks %q, want %q", sc.name, marks, want)
			}
			if n := eval[int](p, `document.querySelectorAll('.layer-marks .recent-no').length`); n != 3 {
				t.Errorf("%s: %d moves are numbered, want 3", sc.name, n)
			}
			sounds := eval[int](p, `window.sounds`)
			if round == 0 {
				p.screenshot("recent-moves-" + sc.name)
				if sounds != 0 {
					t.Errorf("%s: a sound was played with the preference off", sc.name)
				}
				p.click(`[data-action=preferences]`)
				p.click(`input[name=pref-sound]`)
				eval[bool](p, `(window.sounds = 0, true)`)
			} else if sounds != 1 {
				t.Errorf("%s: %d sounds for one turn of ours with the sound on", sc.name, sounds)
			}
		}
	}
}

// TestSeatsToldApart: bots of one level get distinct short names, and the
// score sheet's headers show them whole at 3 and 4 players.
func TestSeatsToldApart(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	bot := map[string]any{"kind": "bot", "level": "medium"}
	for _, n := range []int{3, 4} {
		seats := []map[string]any{{"kind": "human", "name": "Annabelle Lee"}}
		for len(seats) < n {
			seats = append(seats, bot)
		}
		c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seats": seats})
		for _, sc := range screens {
			p := sc.open(t, fmt.Sprintf("names%d", n))
			p.navigate(l.url + "/game/" + c.ID)
			p.waitGame()
			names := eval[[]string](p, `[...document.querySelectorAll('.pcard-name')].map(e => e.textContent)`)
			if len(names) != n || len(slices.Compact(slices.Sorted(slices.Values(names)))) != n {
				t.Errorf("%d players, %s: the seats are named %q", n, sc.name, names)
			}
			for _, name := range names[1:] {
				if strings.HasPrefix(name, "Bot (") || len(name) > 12 {
					t.Errorf("%d players, %s: a bot is named %q, not a short name of its own", n, sc.name, name)
				}
			}
			cut := eval[[]string](p, `[...document.querySelectorAll('.sheet-name')].filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1).map(e => e.textContent)`)
			if len(cut) > 0 {
				t.Errorf("%d players, %s: the score sheet cuts the names %q", n, sc.name, cut)
			}
			p.screenshot(fmt.Sprintf("names-%d-%s", n, sc.name))
		}
	}
}

// TestVillageReasonAndLogWords: a village that cannot go anywhere says
// why before it is clicked, and the log describes moves by their island
// and what they took.
func TestVillageReasonAndLogWords(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	for _, sc := range screens {
		p := sc.open(t, "words")
		p.joinAgainstBot(l)
		village := eval[[]string](p, `(() => { const b = document.querySelector('.piece-btn[data-piece=village]');
			return [String(b.disabled), b.querySelector('.piece-left').textContent]; })()`)
		if !slices.Equal(village, []string{"true", "no land next to your pieces yet"}) {
			t.Errorf("%s: before any piece, the village button shows %q", sc.name, village)
		}
		rngPlay(p, 6)
		p.click(`.tab[data-tab=moves]`)
		lines := eval[[]string](p, `[...document.querySelectorAll('.log .log-move .log-text')].map(e => e.textContent)`)
		said := regexp.MustCompile(`^(Ann|White bot) (settler|village) (on the island of \d+|at sea)(, took (a coconut|bamboo|water|a precious stone|a statuette))?$`)
		for _, line := range lines {
			if !said.MatchString(line) {
				t.Errorf("%s: the log says %q", sc.name, line)
			}
		}
		if len(lines) < 6 {
			t.Errorf("%s: the log has %d moves", sc.name, len(lines))
		}
		p.screenshot("log-words-" + sc.name)
	}
}

// rngPlay plays the page's seat until the game reaches version n.
func rngPlay(p *page, n int) {
	p.t.Helper()
	for {
		v := p.view()
		if v.Version >= n {
			return
		}
		if v.Turn == "you" && !v.Pending && len(v.Legal) > 0 && v.Modal == "" {
			at := v.Legal[0]
			if len(v.Tokens) > 0 {
				at = v.Tokens[0]
			}
			p.clickSpace(at)
			p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d`, v.Version), "the move")
			continue
		}
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d || document.querySelector('.game[data-turn=you][data-pending=false]')`, v.Version), "the game to go on")
	}
}

// TestScoreSheetFits: at 1280x900 the score sheet does not scroll in a
// box of its own, with 2, 3 and 4 players; its note is shown whole.
func TestScoreSheetFits(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	bot := map[string]any{"kind": "bot", "level": "easy"}
	for n := 2; n <= 4; n++ {
		seats := []map[string]any{{"kind": "human", "name": "Ann"}}
		for len(seats) < n {
			seats = append(seats, bot)
		}
		c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seats": seats})
		p := newPage(t, fmt.Sprintf("sheet%d", n), 1280, 900)
		p.navigate(l.url + "/game/" + c.ID)
		p.waitGame()
		p.waitFor(`document.querySelector('.tab-panel .sheet-note')`, "the score sheet")
		box := eval[[]float64](p, `(() => { const panel = document.querySelector('.tab-panel'), note = document.querySelector('.sheet-note');
			const pr = panel.getBoundingClientRect(), nr = note.getBoundingClientRect();
			return [panel.scrollHeight, panel.clientHeight, nr.bottom, pr.bottom]; })()`)
		if box[0] > box[1]+1 {
			t.Errorf("%d players: the score sheet scrolls in its box (%v of %v pixels)", n, box[0], box[1])
		}
		if box[2] > box[3] {
			t.Errorf("%d players: the sheet's note is cut (its bottom at %v, the box's at %v)", n, box[2], box[3])
		}
		p.screenshot(fmt.Sprintf("sheet-%d-1280", n))
	}
}

// TestTakeBack: against a bot, a player takes back their last move at
// once; among people the others are asked, and may refuse or accept.
func TestTakeBack(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	for _, sc := range screens {
		p := sc.open(t, "takeback")
		c := p.joinAgainstBot(l)
		if n := eval[int](p, `document.querySelectorAll('[data-action=takeback]').length`); n != 0 {
			t.Errorf("%s: a take-back is offered before any move", sc.name)
		}
		v := p.view()
		p.placeOn(v.Legal[len(v.Legal)/2], sc.phone)
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) >= %d && document.querySelector('.game[data-turn=you][data-pending=false]')`, v.Version+2), "the bot's reply")
		p.screenshot("takeback-offered-" + sc.name)
		p.click(`[data-action=takeback]`)
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) === %d && document.querySelector('.game[data-turn=you]')`, v.Version), "the move taken back")
		if g := l.game(c.ID); g.State.Version != v.Version || len(g.Moves) != v.Version {
			t.Errorf("%s: after the take-back the server is at version %d with %d moves, want %d", sc.name, g.State.Version, len(g.Moves), v.Version)
		}
		if pieces, _ := p.boardPosition(); len(pieces) != 0 {
			t.Errorf("%s: the board still shows %q after the take-back", sc.name, pieces)
		}
		// The game goes on, and a reload resumes it where it is.
		v = p.view()
		p.placeOn(v.Legal[0], sc.phone)
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) >= %d && document.querySelector('.game[data-turn=you][data-pending=false]')`, v.Version+2), "the game to go on")
		p.navigate(l.url + "/game/" + c.ID)
		w := p.waitGame()
		if g := l.game(c.ID); w.Version != g.State.Version {
			t.Errorf("%s: after a reload the page shows version %d, the server %d", sc.name, w.Version, g.State.Version)
		}
	}

	// Among people: Bob is asked, refuses, then accepts.
	c, _ := l.humansGame(5, "standard")
	ann := newPage(t, "ann", desktopWidth, desktopHeight)
	bob := newPage(t, "bob", desktopWidth, desktopHeight)
	ann.navigate(l.url + c.Seats[0].Link)
	bob.navigate(l.url + c.Seats[1].Link)
	ann.waitFor(`document.querySelector('.game[data-turn=you][data-conn=open]')`, "Ann's turn")
	bob.waitFor(`document.querySelector('.game[data-conn=open]')`, "Bob's page")
	v := ann.view()
	ann.clickSpace(v.Legal[0])
	ann.waitFor(`document.querySelector('.game[data-version="1"]') && document.querySelector('[data-action=takeback]')`, "Ann's move")
	if label := eval[string](ann, `document.querySelector('[data-action=takeback]').textContent`); label != "Ask to take back my last move" {
		t.Errorf("among people the take-back button says %q", label)
	}
	for _, answer := range []string{"refuse", "accept"} {
		ann.click(`[data-action=takeback]`)
		bob.waitFor(`document.querySelector('[data-action=takeback-accept]')`, "Bob to be asked")
		ann.waitFor(`document.querySelector('[data-action=takeback-withdraw]')`, "Ann to wait for Bob")
		if answer == "refuse" {
			bob.screenshot("takeback-asked")
		}
		bob.click(`[data-action=takeback-` + answer + `]`)
		if answer == "refuse" {
			ann.waitFor(`document.querySelector('.message.show') && document.querySelector('.message.show').textContent.includes('refused') && document.querySelector('[data-action=takeback]')`, "Ann to hear of the refusal")
			if v := ann.view(); v.Version != 1 {
				t.Errorf("a refused take-back left Ann at version %d", v.Version)
			}
		}
	}
	for _, p := range []*page{ann, bob} {
		p.waitFor(`document.querySelector('.game[data-version="0"]') && !document.querySelector('.takeback-slot [data-action^=takeback-]')`, "the move taken back")
	}
	if g := l.game(c.ID); g.State.Version != 0 {
		t.Errorf("after Bob accepted the server is at version %d", g.State.Version)
	}

	// A game started without take-backs offers none.
	p := newPage(t, "strict", desktopWidth, desktopHeight)
	p.openHome(l)
	p.click(`details.more summary`)
	p.click(`input[name=take_backs]`)
	p.click(`[data-action=start]`)
	v = p.waitGame()
	p.placeOn(v.Legal[len(v.Legal)/2], false)
	p.waitFor(`Number(document.querySelector('.game').dataset.version) >= 2 && document.querySelector('.game[data-turn=you][data-pending=false]')`, "the bot's reply")
	if n := eval[int](p, `document.querySelectorAll('[data-action=takeback]').length`); n != 0 {
		t.Error("a game started without take-backs offers one")
	}
	var tb struct {
		TakeBacks struct {
			Allowed bool `json:"allowed"`
		} `json:"take_backs"`
	}
	l.api("GET", "/api/games/"+p.gameID(), "", nil, &tb)
	if tb.TakeBacks.Allowed {
		t.Error("the home form's take-backs unchecked made a game that allows them")
	}
}

// placeOn places the chosen piece on a space: a click, or two taps.
func (p *page) placeOn(at string, touch bool) {
	p.t.Helper()
	if !touch {
		p.clickSpace(at)
		return
	}
	p.tapSpace(at)
	p.tapSpace(at)
}

// contrastJS returns the lowest contrast ratio among the elements a
// selector finds: each one's text colour, faded by its own and its
// ancestors' opacity, over the background of the card it is on.
const contrastJS = `((sel) => {
	const rgb = c => c.match(/[\d.]+/g).map(Number);
	const lum = ([r, g, b]) => {
		const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
	};
	let worst = 99;
	for (const el of document.querySelectorAll(sel)) {
		let alpha = 1, bg = null;
		for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
			const cs = getComputedStyle(e);
			alpha *= Number(cs.opacity);
			if (!bg && !cs.backgroundColor.endsWith(', 0)') && cs.backgroundColor !== 'transparent') bg = rgb(cs.backgroundColor);
		}
		bg = bg || [255, 255, 255];
		const fg = rgb(getComputedStyle(el).color);
		const a = alpha * (fg.length > 3 ? fg[3] : 1);
		const mixed = [0, 1, 2].map(i => fg[i] * a + bg[i] * (1 - a));
		const [l1, l2] = [lum(mixed), lum(bg)].sort((x, y) => y - x);
		worst = Math.min(worst, (l1 + 0.05) / (l2 + 0.05));
	}
	return worst;
})`

// TestSmallerThings: the home page's dropdowns show their whole text, its
// picture follows the board chosen and its seats are remembered; a bot has
// no clock; zero counts and "+ 0 now" are readable; a refused click leaves
// no outline inside the board.
func TestSmallerThings(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	for _, sc := range screens {
		p := sc.open(t, "small")
		p.openHome(l)
		p.click(`.more summary`)
		cut := eval[[]string](p, `[...document.querySelectorAll('.newgame select')].filter(s => {
			const span = document.createElement('span');
			const cs = getComputedStyle(s);
			span.style.font = cs.font;
			span.style.whiteSpace = 'pre';
			span.textContent = s.options[s.selectedIndex].textContent;
			document.body.append(span);
			const need = span.getBoundingClientRect().width + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
			span.remove();
			return need > s.clientWidth + 0.5;
		}).map(s => s.name + ': ' + s.options[s.selectedIndex].textContent)`)
		// The longest choices, chosen.
		p.do(chromedp.SetValue(chromedp.CSS(`select[name=clock]`), "bank:30+30"))
		cut = append(cut, eval[[]string](p, `(() => { const s = document.querySelector('select[name=clock]');
			const span = document.createElement('span'); span.style.font = getComputedStyle(s).font; span.style.whiteSpace = 'pre';
			span.textContent = s.options[s.selectedIndex].textContent; document.body.append(span);
			const w = span.getBoundingClientRect().width; span.remove();
			return w + 41 > s.clientWidth ? ['clock: ' + span.textContent] : []; })()`)...)
		if len(cut) > 0 {
			t.Errorf("%s: the dropdowns cut %q", sc.name, cut)
		}
		p.screenshot("home-form-" + sc.name)

		// The picture follows the board; the seats are remembered.
		if !sc.phone {
			p.waitFor(`document.querySelector('.hero-board svg')`, "the picture")
			before := eval[string](p, `document.querySelector('.hero-board svg').getAttribute('viewBox')`)
			p.click(`.board-card input[value=space_invaders]`)
			p.waitFor(fmt.Sprintf(`document.querySelector('.hero-board svg') && document.querySelector('.hero-board svg').getAttribute('viewBox') !== %q`, before), "the picture of the board chosen")
			p.screenshot("home-board-chosen")
		}
		p.click(`[data-players="3"]`)
		p.do(chromedp.SetValue(chromedp.CSS(`select[name=seat1]`), "bot:hard"))
		eval[bool](p, `document.querySelector('select[name=seat1]').dispatchEvent(new Event('change'))`)
		p.do(chromedp.SetValue(chromedp.CSS(`select[name=seat2]`), "friend"))
		eval[bool](p, `document.querySelector('select[name=seat2]').dispatchEvent(new Event('change'))`)
		p.openHome(l)
		seats := eval[[]string](p, `[...document.querySelectorAll('.seat-select')].map(s => s.value)`)
		if !slices.Equal(seats, []string{"you", "bot:hard", "friend"}) {
			t.Errorf("%s: after a reload the seats are %q", sc.name, seats)
		}
		if !sc.phone {
			if board := eval[string](p, `(document.querySelector('.board-card input:checked') || {}).value`); board != "space_invaders" {
				t.Errorf("after a reload the board chosen is %q", board)
			}
		}
	}

	// A game with a clock against a bot.
	c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seed": 7,
		"time":  map[string]any{"kind": "bank", "initial_ms": 300000, "increment_ms": 5000},
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
	for _, sc := range screens {
		p := sc.open(t, "clock")
		p.navigate(l.url + c.Seats[0].Link)
		p.waitGame()
		if !sc.phone { // the phone's page comes to a seat already joined
			p.waitFor(`document.querySelector('.join-modal')`, "the invitation")
			p.click(".join-modal .btn-primary")
		}
		p.waitFor(`!document.querySelector('.modal') && document.querySelector('.game[data-turn=you][data-conn=open]')`, "our turn")
		clocks := eval[[]string](p, `[...document.querySelectorAll('.pcard')].filter(c => c.querySelector('.pcard-clock')).map(c => c.dataset.seat)`)
		if !slices.Equal(clocks, []string{"0"}) {
			t.Errorf("%s: the cards with a clock are %q, want Ann's alone", sc.name, clocks)
		}
		for _, sel := range []string{".pcard .count.zero b", ".pcard-live"} {
			if r := eval[float64](p, contrastJS+`(`+fmt.Sprintf("%q", sel)+`)`); r < 4.5 {
				t.Errorf("%s: %s has a contrast of %.2f:1, below 4.5:1", sc.name, sel, r)
			}
		}
		// A refused click: no outline is drawn inside the board.
		p.placeOn("0,0", false)
		p.waitFor(`document.querySelector('.message-error.show')`, "the refusal")
		outline := eval[string](p, `(() => { const a = document.activeElement; if (!a || !document.querySelector('.board-wrap').contains(a)) return '';
			const cs = getComputedStyle(a); return cs.outlineStyle === 'none' || cs.outlineWidth === '0px' ? '' : a.outerHTML.slice(0, 120) + ' ' + cs.outlineStyle + ' ' + cs.outlineWidth; })()`)
		if outline != "" {
			t.Errorf("%s: after a refused click the board holds an outline: %s", sc.name, outline)
		}
		p.screenshot("refused-click-" + sc.name)
	}
}

// TestGameEnd: the player's last tap ends the game on a phone: no tip is
// left on the board, no empty band under it; the banner names the points'
// owners and LIVE goes; a spectator is not asked to play the settlement
// phase.
func TestGameEnd(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	// A rehearsal tells how the game goes, and who moves last.
	rehearsal, tokens := l.humansGame(21, "standard")
	end := l.drive(rehearsal.ID, tokens, 1, func(apiGame) bool { return false })
	if !end.State.Over {
		t.Fatal("the rehearsal did not end")
	}
	last := end.Moves[len(end.Moves)-1]
	for _, sc := range screens {
		// The same game but for its last move, made without asking again.
		c, tokens := l.humansGame(21, "standard")
		for i, m := range end.Moves[:len(end.Moves)-1] {
			l.api("POST", "/api/games/"+c.ID+"/moves", tokens[m.Seat], map[string]any{"version": i, "move": m.Move}, nil)
		}
		watcher := sc.open(t, "watcher")
		watcher.navigate(l.url + "/game/" + c.ID)
		watcher.waitGame()
		watcher.click(`.side-actions .btn[type=button]`)
		watcher.waitFor(`document.querySelector('.phase-modal')`, "the summary")
		if next := eval[string](watcher, `document.querySelector('.phase-modal .btn-primary').textContent`); next == "Play the settlement phase" {
			t.Errorf("%s: a spectator is offered %q", sc.name, next)
		}
		watcher.click(`.phase-modal .btn-primary`)

		p := sc.open(t, "last")
		p.navigate(l.url + c.Seats[last.Seat].Link)
		p.waitFor(`document.querySelector('.game[data-turn=you][data-conn=open]')`, "the last turn")
		emptyBand := func(when string) {
			if !sc.phone { // a desktop's board has the side column beside it
				return
			}
			gap := eval[float64](p, emptyBandJS)
			if gap > 30 {
				t.Errorf("%s, %s: %.0f pixels of nothing under the board", sc.name, when, gap)
			}
		}
		emptyBand("the last turn")
		p.placeOn(last.Move[2:], sc.phone)
		p.waitFor(`document.querySelector('.winner-modal')`, "the end")
		p.click(`.winner-modal .modal-x`)
		p.waitFor(`!document.querySelector('.modal')`, "the dialog to close")
		// (A mouse still over a space shows what is there.)
		if sc.phone && eval[bool](p, `!document.querySelector('.tooltip').hidden`) {
			t.Errorf("%s: a tip stays on the board after the game ended: %q", sc.name, eval[string](p, `document.querySelector('.tooltip').textContent`))
		}
		if eval[bool](p, `getComputedStyle(document.querySelector('.conn')).display !== 'none'`) {
			t.Errorf("%s: the connection's badge stays beside GAME OVER", sc.name)
		}
		sub := eval[string](p, `document.querySelector('.banner-sub').textContent`)
		for _, name := range []string{"Ann", "Bob"} {
			who := name
			if last.Seat == map[string]int{"Ann": 0, "Bob": 1}[name] {
				who = "You"
			}
			if !strings.Contains(sub, who+" ") {
				t.Errorf("%s: the final banner says %q, without %s", sc.name, sub, who)
			}
		}
		emptyBand("the game over")
		p.screenshot("game-end-" + sc.name)
	}
}

// emptyBandJS measures the space under the board and what is drawn under
// it (the controls that show something) before the next part of the page.
const emptyBandJS = `(() => {
	let bottom = document.querySelector('.board').getBoundingClientRect().bottom;
	for (const e of document.querySelectorAll('.controls > *')) {
		const r = e.getBoundingClientRect();
		if (r.height > 0 && e.textContent.trim() && getComputedStyle(e).opacity !== '0') bottom = Math.max(bottom, r.bottom);
	}
	const next = [...document.querySelectorAll('.invites-slot > *, .tabs')].map(e => e.getBoundingClientRect()).filter(r => r.height > 0 && r.top >= bottom - 1).map(r => r.top);
	return Math.min(...next) - bottom;
})()`
