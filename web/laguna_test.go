package web_test

// Laguna's page: a game played by keyboard on a desktop's screen (placing
// the raft, loading, peeking, stepping, moving a pearl, ending the turn)
// while the other seat plays through the API and its steps appear live,
// and the other seat's page on a phone played with taps.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/server"
	"github.com/lagoon-games/lagoon/laguna"
)

// withLaguna hosts Laguna beside Blue Lagoon.
func withLaguna(c *server.Config) {
	c.Games = must(game.NewRegistry(bluelagoon.Rules, laguna.Rules))
}

// lagunaGame is a Laguna game as the API gives it.
type lagunaGame struct {
	Table laguna.TableView `json:"table"`
	Moves []struct {
		Seat int    `json:"seat"`
		Move string `json:"move"`
	} `json:"moves"`
	State struct {
		Version int  `json:"version"`
		ToMove  int  `json:"to_move"`
		Over    bool `json:"over"`
		Clocks  []struct {
			RemainingMS int  `json:"remaining_ms"`
			Running     bool `json:"running"`
		} `json:"clocks"`
		View laguna.StateView `json:"view"`
	} `json:"state"`
}

func (l *lagoon) laguna(id string) lagunaGame {
	l.t.Helper()
	var g lagunaGame
	l.api("GET", "/api/games/"+id, "", nil, &g)
	return g
}

// lagunaPlay makes a move of the seat to move through the API.
func (l *lagoon) lagunaPlay(id, token, move string) lagunaGame {
	l.t.Helper()
	g := l.laguna(id)
	if !slices.Contains(g.State.View.Legal, move) {
		l.t.Fatalf("%s is not a legal move now: %v", move, g.State.View.Legal)
	}
	l.api("POST", "/api/games/"+id+"/moves", token, map[string]any{"version": g.State.Version, "move": move}, nil)
	return l.laguna(id)
}

// firstLegal is the first legal move starting with prefix, or "".
func firstLegal(g lagunaGame, prefix string) string {
	for _, m := range g.State.View.Legal {
		if strings.HasPrefix(m, prefix) {
			return m
		}
	}
	return ""
}

// lastMove waits for the page to show version n and returns the move that
// made it, as the server has it.
func (p *page) lastMove(l *lagoon, id string, n int) string {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) >= %d`, n), fmt.Sprintf("version %d", n))
	g := l.laguna(id)
	if len(g.Moves) < n {
		p.t.Fatalf("the game has %d moves, the page shows version %d", len(g.Moves), n)
	}
	return g.Moves[n-1].Move
}

// tap taps the middle of the element sel with a finger.
func (p *page) tap(sel string) {
	p.t.Helper()
	xy := eval[[]float64](p, fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		el.scrollIntoView({block: 'center'});
		const r = el.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`, sel))
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	for _, ev := range []input.DispatchTouchEventParams{
		{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: xy[0], Y: xy[1]}}},
		{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}},
	} {
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, ev); err != nil {
			p.t.Fatalf("%s: tapping %s: %v", p.name, sel, err)
		}
	}
}

// hazardsUnder counts the reefs and arrows a raft placed by move ("place
// H d3") lies over.
func hazardsUnder(t *testing.T, rows []string, move string) int {
	t.Helper()
	f := strings.Fields(move)
	sq, err := laguna.ParseSquare(f[2])
	if err != nil || f[0] != "place" {
		t.Fatalf("the place %q: %v", move, err)
	}
	h, w := 2, 3
	if f[1] == "V" {
		h, w = 3, 2
	}
	n := 0
	for r := sq.Row(); r < sq.Row()+h; r++ {
		for c := sq.Col(); c < sq.Col()+w; c++ {
			if strings.ContainsRune("#^>v<", rune(rows[r][c])) {
				n++
			}
		}
	}
	return n
}

// checkHidden compares what the page draws of the board's reefs and arrows
// with what the table shows: a square under a hole holding a pearl hides
// what is on it, unless the view says what shows through. It returns how
// many it hides.
func checkHidden(t *testing.T, p *page, g lagunaGame) int {
	t.Helper()
	hidden := map[string]bool{}
	for _, r := range g.State.View.Rafts {
		for _, h := range r.Holes {
			if h.Pearl != "" && h.Shows == "" {
				hidden[h.Square] = true
			}
		}
	}
	drawn := eval[[][]string](p, `[...document.querySelectorAll('.lg-sym')].map(e => [e.dataset.at, getComputedStyle(e).display === 'none' ? 'hidden' : 'shown'])`)
	if len(drawn) == 0 {
		t.Fatal("the board draws no reef and no arrow")
	}
	n := 0
	for _, d := range drawn {
		if want := map[bool]string{true: "hidden", false: "shown"}[hidden[d[0]]]; d[1] != want {
			t.Errorf("the symbol on %s is %s; the view says it is %s", d[0], d[1], want)
		}
		if hidden[d[0]] {
			n++
		}
	}
	holes := eval[[]string](p, `[...document.querySelectorAll('.lg-raft')].flatMap(r => [...r.querySelectorAll('.lg-hole')].map(h => r.dataset.seat + ' ' + h.dataset.square + ' ' + h.dataset.pearl + ' ' + h.dataset.shows))`)
	var want []string
	for _, r := range g.State.View.Rafts {
		for _, h := range r.Holes {
			want = append(want, fmt.Sprintf("%d %s %s %s", r.Seat, h.Square, h.Pearl, h.Shows))
		}
	}
	slices.Sort(holes)
	slices.Sort(want)
	if !slices.Equal(holes, want) {
		t.Errorf("the rafts' holes drawn are %v; the view's %v", holes, want)
	}
	return n
}

// keepingMove is a legal move of the seat to move that starts with prefix
// (a step: "") after which its turn goes on, as the engine plays it on the
// server's state.
func keepingMove(t *testing.T, l *lagoon, id string, g lagunaGame, prefix string) string {
	t.Helper()
	res, err := http.Get(l.url + "/api/games/" + id + "/state")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	st, err := laguna.ParseState(strings.TrimSpace(string(text)))
	if err != nil {
		t.Fatalf("the state of %s: %v", id, err)
	}
	for _, m := range g.State.View.Legal {
		if !strings.HasPrefix(m, prefix) || prefix == "" && len(m) != 1 {
			continue
		}
		after := *st
		if mv, err := after.ParseMove(m); err == nil && after.Play(mv) == nil && after.ToMove() == st.ToMove() {
			return m
		}
	}
	t.Fatalf("no move %q keeps the turn: %v", prefix, g.State.View.Legal)
	return ""
}

// TestLagunaByKeyboard: a turn of Laguna played with the keyboard alone,
// the other player's turn seen live, and the other player's page on a
// phone played with taps.
func TestLagunaByKeyboard(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withLaguna)
	c := l.createGame(map[string]any{"game": "laguna", "options": map[string]string{"board": "easy"}, "seed": 5,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}},
		"time":  map[string]any{"kind": "turn", "turn_ms": 120000, "carry": true}})
	tokens := make([]string, 2)
	for _, s := range c.Seats {
		tokens[s.Seat] = s.Token
		l.api("POST", "/api/games/"+c.ID+"/join", s.Token, map[string]any{}, nil)
	}
	p := newPage(t, "keyboard", desktopWidth, desktopHeight)
	p.navigate(l.url + c.Seats[0].Link)
	p.waitGame()
	p.waitFor(`document.querySelector('.game[data-turn=you][data-conn=open] .lg-place.lg-chosen')`, "the places for the raft")
	if title := eval[string](p, `document.querySelector('.lg-board').getAttribute('aria-label')`); !strings.Contains(title, "original board") {
		t.Errorf("the board is called %q, not an original board", title)
	}

	// Placing: the place first offered lies over the fewest reefs and
	// arrows (issue 30, item 16: it sat on two); the arrows choose among
	// the places, R turns the raft, Enter puts it there.
	chosen := func() string { return eval[string](p, `document.querySelector('.lg-place.lg-chosen').dataset.move`) }
	first := chosen()
	start := l.laguna(c.ID)
	fewest := 6
	for _, m := range start.State.View.Legal {
		fewest = min(fewest, hazardsUnder(t, start.Table.Rows, m))
	}
	if n := hazardsUnder(t, start.Table.Rows, first); n != fewest {
		t.Errorf("the place first offered, %s, lies over %d reefs and arrows; one lies over %d", first, n, fewest)
	}
	p.key(kb.ArrowRight)
	second := chosen()
	if second == first || second[:7] != first[:7] {
		t.Errorf("the right arrow went from %q to %q", first, second)
	}
	p.key("r")
	turned := chosen()
	if turned[6] == second[6] {
		t.Errorf("R went from %q to %q, not the other way round", second, turned)
	}
	// On to a place over a reef or a current, for the pearls to hide.
	for _, k := range []string{kb.ArrowRight, kb.ArrowRight, kb.ArrowLeft, kb.ArrowLeft, kb.ArrowLeft, kb.ArrowLeft} {
		if hazardsUnder(t, start.Table.Rows, turned) > 0 {
			break
		}
		p.key(k)
		turned = chosen()
	}
	p.key(kb.Enter)
	if got := p.lastMove(l, c.ID, 1); got != turned {
		t.Errorf("Enter put the raft with %q; the place chosen was %q", got, turned)
	}
	g := l.lagunaPlay(c.ID, tokens[1], firstLegal(l.laguna(c.ID), "place "))

	// The first loading: a hole, then L (and the colour if the island
	// has several).
	p.waitFor(`document.querySelector('.game[data-turn=you][data-pending=false] .lg-act[data-action=load]')`, "our first turn")
	version := g.State.Version
	// A step before loading is sent all the same: the server's reason is
	// what the player reads, in the page's words.
	p.key(kb.ArrowUp)
	p.waitFor(`(document.querySelector('.message.show') || {textContent: ''}).textContent.startsWith("You can't step north: first load")`, "the refusal's words")
	load := func(hole string) {
		p.key(hole)
		p.key("l")
		version++
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) >= %d || document.querySelector('.lg-mode .lg-colour')`, version), "the load or its colours")
		if eval[bool](p, `!!document.querySelector('.lg-mode .lg-colour')`) {
			p.key(eval[string](p, `document.querySelector('.lg-mode .lg-colour').dataset.colour`))
		}
		if got := p.lastMove(l, c.ID, version); !strings.HasPrefix(got, "load ") || !strings.HasSuffix(got, " "+hole) {
			t.Errorf("hole %s and L made the move %q", hole, got)
		}
	}
	// The first pearl goes over a reef or a current where the raft lies
	// over one: its pearl hides it.
	holes := []string{"1", "2"}
	for i, h := range l.laguna(c.ID).State.View.Rafts[0].Holes {
		if n := fmt.Sprint(i + 1); strings.ContainsAny(h.Shows, "#^>v<") && n != "2" {
			holes[0] = n
		}
	}
	load(holes[0])
	load(holes[1])
	if n := checkHidden(t, p, l.laguna(c.ID)); n == 0 {
		t.Error("no reef or arrow lies under the pearls loaded; the test no longer shows that the page hides them")
	}

	// Peeking lifts the pearls: what lies under them shows, for the
	// moment.
	p.key("p")
	version++
	if got := p.lastMove(l, c.ID, version); got != "peek" {
		t.Errorf("P made the move %q", got)
	}
	g = l.laguna(c.ID)
	p.waitFor(`document.querySelectorAll('.lg-hole-btn[data-pearl]:not([data-pearl=""]):not([data-shows=""])').length === 2`, "the pearls lifted")
	checkHidden(t, p, g)
	p.screenshot("laguna-peek")

	// A step by an arrow key, then a pearl moved between holes by two
	// digits, and E ends the turn.
	step := keepingMove(t, l, c.ID, g, "")
	p.key(map[string]string{"N": kb.ArrowUp, "E": kb.ArrowRight, "S": kb.ArrowDown, "W": kb.ArrowLeft}[step])
	version++
	if got := p.lastMove(l, c.ID, version); got != step {
		t.Errorf("the arrow key for %s made the move %q", step, got)
	}
	g = l.laguna(c.ID)
	p.waitFor(fmt.Sprintf(`document.querySelector('.lg-raft[data-seat="0"]').dataset.at === %q`, g.State.View.Rafts[0].At), "the raft to move")
	checkHidden(t, p, g)
	shift := keepingMove(t, l, c.ID, g, "shift ")
	f := strings.Fields(shift)
	p.key(f[1])
	p.waitFor(fmt.Sprintf(`document.querySelector('.lg-hole-btn.selected[data-hole="%s"]')`, f[1]), "the hole picked")
	p.key(f[2])
	version++
	if got := p.lastMove(l, c.ID, version); got != shift {
		t.Errorf("the holes %s then %s made the move %q", f[1], f[2], got)
	}
	if g = l.laguna(c.ID); g.State.ToMove == 0 {
		p.key("e")
		version++
		if got := p.lastMove(l, c.ID, version); got != "end" {
			t.Errorf("E made the move %q", got)
		}
		if said := eval[string](p, `(document.querySelector('.message.show') || {textContent: ''}).textContent`); strings.Contains(said, "sand ran out") {
			t.Errorf("ending the turn with E says %q", said)
		}
	}

	// The other player's turn appears live: its loading and steps, the
	// trail of its raft, and the sand running in its glass.
	g = l.laguna(c.ID)
	p.waitFor(`document.querySelector('.lg-glass:not([hidden]).running')`, "the other player's sand running")
	share := eval[string](p, `document.querySelector('.lg-glass').dataset.share`)
	p.waitFor(fmt.Sprintf(`document.querySelector('.lg-glass').dataset.share < %s`, share), "the sand to run")
	for range 2 {
		g = l.lagunaPlay(c.ID, tokens[1], firstLegal(g, "load "))
	}
	steps := 0
	for steps < 3 && g.State.ToMove == 1 {
		next := ""
		for _, m := range g.State.View.Legal {
			if len(m) == 1 {
				next = m
				break
			}
		}
		if next == "" {
			break
		}
		g = l.lagunaPlay(c.ID, tokens[1], next)
		steps++
	}
	p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) === %d && document.querySelector('.lg-raft[data-seat="1"]').dataset.at === %q`,
		g.State.Version, g.State.View.Rafts[1].At), "the other raft's steps")
	if steps > 1 && !eval[bool](p, `!!document.querySelector('.lg-trail[data-seat="1"]')`) {
		t.Error("the other raft's steps leave no trail on the board")
	}
	checkHidden(t, p, g)
	p.screenshot("laguna-desktop")

	// The other player's page on a phone: a step and the end of the turn
	// by taps.
	if g.State.ToMove != 1 {
		return
	}
	phone := newPage(t, "phone", 390, 844)
	phone.do(chromedp.Emulate(phoneDevice))
	phone.navigate(l.url + c.Seats[1].Link)
	phone.waitGame()
	phone.waitFor(`document.querySelector('.game[data-turn=you][data-conn=open] .lg-step')`, "the phone's steps")
	phone.screenshot("laguna-phone")
	phone.tap(`.lg-hole-btn[data-hole="1"]`)
	phone.waitFor(`document.querySelector('.lg-hole-btn.selected[data-hole="1"]') && document.querySelector('.lg-raft[data-seat="1"] .lg-selected')`, "hole 1 picked by a tap")
	version = g.State.Version
	if next := firstLegal(g, ""); len(next) == 1 {
		phone.tap(fmt.Sprintf(`.lg-step[data-move=%q]`, next))
		version++
		if got := phone.lastMove(l, c.ID, version); got != next {
			t.Errorf("tapping the step %s made the move %q", next, got)
		}
		g = l.laguna(c.ID)
	}
	if g.State.ToMove == 1 {
		phone.waitFor(`document.querySelector('.game[data-pending=false] [data-action=end]')`, "the end button")
		phone.tap(`[data-action=end]`)
		if got := phone.lastMove(l, c.ID, version+1); got != "end" {
			t.Errorf("tapping End turn made the move %q", got)
		}
	}
	noSideways(t, phone, "Laguna's game on a phone")
}

// TestLagunaSoloOpenBoard: the solo puzzle shows its target island by
// island and its par, and the open board draws what lies under every
// pearl.
func TestLagunaSoloOpenBoard(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withLaguna)
	c := l.createGame(map[string]any{"game": "laguna", "options": map[string]string{"board": "hard", "open": "on", "puzzle": "2"}, "seed": 9,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}}})
	token := c.Seats[0].Token
	l.api("POST", "/api/games/"+c.ID+"/join", token, map[string]any{}, nil)
	g := l.lagunaPlay(c.ID, token, firstLegal(l.laguna(c.ID), "place "))
	for range 3 {
		g = l.lagunaPlay(c.ID, token, firstLegal(g, "load "))
	}
	v := g.State.View
	if v.Par == nil || len(v.Goal) != 8 {
		t.Fatalf("the solo game's view has par %v and goal %v", v.Par, v.Goal)
	}
	p := newPage(t, "solo", desktopWidth, desktopHeight)
	p.navigate(l.url + c.Seats[0].Link)
	p.waitGame()
	p.waitFor(`document.querySelector('.game[data-turn=you] .lg-goal')`, "the puzzle")
	if par := eval[string](p, `document.querySelector('.lg-goal .lg-par').textContent + ', ' + document.querySelector('.lg-par-line .lg-par').textContent`); par != fmt.Sprintf("par %d steps, par %d", *v.Par, *v.Par) {
		t.Errorf("the puzzle says %q; its par is %d", par, *v.Par)
	}
	goal := eval[[]string](p, `[...document.querySelectorAll('.lg-goal-row')].map(r => r.dataset.island + ' ' + [...r.querySelectorAll('.lg-goal-pearls use')].map(u => u.getAttribute('href').slice(-1)).join('') + ' ' + r.classList.contains('done'))`)
	for i, want := range v.Goal {
		done := want == v.Islands[i]
		if w := fmt.Sprintf("%c %s %v", "ABCDEFGH"[i], want, done); i >= len(goal) || goal[i] != w {
			t.Errorf("the puzzle shows %v; island %c wants %q and holds %q", goal, "ABCDEFGH"[i], want, v.Islands[i])
			break
		}
	}
	// Open board: every pearl lifted, nothing hidden.
	if n := checkHidden(t, p, g); n != 0 {
		t.Errorf("the open board hides %d squares", n)
	}
	if lifted := eval[int](p, `document.querySelectorAll('.lg-raft .lg-pearl.lg-lifted').length`); lifted != 3 {
		t.Errorf("the open board lifts %d pearls of the 3 aboard", lifted)
	}
	// The puzzle counts steps, not points (issue 30, item 16).
	if card := eval[string](p, `document.querySelector('.pcard-score').textContent`); !strings.Contains(card, "steps") || strings.Contains(card, "pts") {
		t.Errorf("the player's card counts %q", card)
	}
	p.screenshot("laguna-solo")
}

// idleLaguna makes a game of Laguna between Ann and Bob under a glass of
// 1.5 s whose rafts they have placed (the glass does not run while they
// do); then nobody moves: the server ends each turn of play.
func (l *lagoon) idleLaguna() created {
	l.t.Helper()
	c := l.createGame(map[string]any{"game": "laguna", "options": map[string]string{"board": "easy"}, "seed": 5,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}},
		"time":  map[string]any{"kind": "turn", "turn_ms": 1500, "carry": true}})
	for _, s := range c.Seats {
		l.api("POST", "/api/games/"+c.ID+"/join", s.Token, map[string]any{}, nil)
	}
	for g := l.laguna(c.ID); g.State.View.Phase == "place"; g = l.laguna(c.ID) {
		l.lagunaPlay(c.ID, c.Seats[g.State.ToMove].Token, g.State.View.Legal[0])
	}
	return c
}

// waitSandOut waits for the page to say the viewer's sand ran out.
func (p *page) waitSandOut() {
	p.t.Helper()
	p.waitFor(`(document.querySelector('.message.show') || {textContent: ''}).textContent === 'The sand ran out: your turn is over.'`, "the sand to run out")
}

// TestLagunaSandRunsOut: a turn the server ends when its sand has run out
// is said to its player, and not offered to be taken back.
func TestLagunaSandRunsOut(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withLaguna)
	c := l.idleLaguna()
	p := newPage(t, "slow", desktopWidth, desktopHeight)
	p.navigate(l.url + c.Seats[0].Link)
	p.waitGame()
	p.waitSandOut()
	// Nor is that turn offered to be taken back, though Ann has moves of
	// her own (her raft's placing): with no time left it would end again
	// at once (issue 47).
	if eval[bool](p, `!!document.querySelector('[data-action=takeback]')`) {
		t.Errorf("the turn the sand ended is offered to be taken back")
	}
	g := l.laguna(c.ID)
	ends := 0
	for _, m := range g.Moves {
		if m.Seat == 0 && m.Move == "end" {
			ends++
		}
	}
	if ends == 0 {
		t.Errorf("the page says the sand ran out, but the server ended no turn of Ann's: %v", g.Moves)
	}
}

// TestLagunaGlassReadsNewClocks: when the server sends the clocks anew
// without a move (a seats event: a seat arriving, the page coming back
// after a restart of the server), the sand glass reads them from then on,
// as the seat's clock does; it counted them from when the state arrived,
// and read "0:00 the glass waits" while the seat's clock read 0:04 (issue
// 30, item 16).
func TestLagunaGlassReadsNewClocks(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withLaguna)
	// A glass long enough that Ann's turn lasts the whole test: the glass
	// must agree with the seat's clock in the turn during which the clocks
	// came anew. (Checked across turns, the old page passed once the sand
	// ran out, since the next turn's move brought a fresh state.)
	c := l.createGame(map[string]any{"game": "laguna", "options": map[string]string{"board": "easy"}, "seed": 5,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}},
		"time":  map[string]any{"kind": "turn", "turn_ms": 60000, "carry": true}})
	tokens := make([]string, 2)
	for _, s := range c.Seats {
		tokens[s.Seat] = s.Token
		l.api("POST", "/api/games/"+c.ID+"/join", s.Token, map[string]any{}, nil)
	}
	g := l.lagunaPlay(c.ID, tokens[0], firstLegal(l.laguna(c.ID), "place "))
	l.lagunaPlay(c.ID, tokens[1], firstLegal(g, "place "))
	p := newPage(t, "glass", desktopWidth, desktopHeight)
	p.navigate(l.url + c.Seats[0].Link)
	p.waitGame()
	p.waitFor(`document.querySelector('.game[data-conn=open] .lg-glass.running')`, "the glass running")
	version := eval[string](p, `document.querySelector('.game').dataset.version`)
	// Some sand runs while the page stays (more than the second the
	// check below forgives); then Bob's page arrives, and the server
	// tells every page the clocks: counted from when the state arrived,
	// the time that ran would be taken off twice.
	p.waitFor(`document.querySelector('.pcard-clock.running').dataset.remaining - (Date.now() - document.querySelector('.pcard-clock.running').dataset.base) < 56000`, "some sand to run")
	bob := newPage(t, "bob", desktopWidth, desktopHeight)
	bob.navigate(l.url + c.Seats[1].Link)
	bob.waitGame()
	p.waitFor(`document.querySelector('.pcard[data-seat="1"] .dot-on')`, "Bob to arrive")
	p.waitFor(`(() => {
		const seconds = t => t.split(':').reduce((m, s) => m * 60 + Number(s), 0);
		const glass = document.querySelector('.lg-glass.running .lg-glass-text b'), card = document.querySelector('.pcard-clock.running');
		return document.querySelector('.game').dataset.version === '`+version+`' &&
			glass && card && seconds(glass.textContent) > 0 && Math.abs(seconds(glass.textContent) - seconds(card.textContent)) <= 1;
	})()`, "the glass to read the seat's clock, running, in the same turn")
}

// TestLagunaHomeClock: the home form offers Laguna's time as one choice
// (issue 30, item 16), not a Sand timer option beside a Clock: the sand
// timer first and by default, each choice's words whole in its field on a
// desktop and on a phone; a game started so gets the sand timer, one
// started with "No clock" the sand timer's rules untimed, one without the
// sand timer neither.
func TestLagunaHomeClock(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withLaguna)
	glass := map[string]any{"kind": "turn", "initial_ms": 0.0, "increment_ms": 0.0, "turn_ms": 30000.0, "carry": true}
	for _, screen := range []struct {
		name          string
		width, height int64
	}{{"desktop", desktopWidth, desktopHeight}, {"phone", 390, 844}} {
		p := newPage(t, "clock-"+screen.name, screen.width, screen.height)
		for i, tc := range []struct {
			choose, timer string
			want          any
		}{
			{"", "on", glass},
			{"none", "on", nil},
			{"off", "off", nil},
		} {
			p.openHome(l)
			p.click(`[data-action="game-laguna"]`)
			p.waitFor(`document.querySelector('select[name=sand] option[value=default]')`, "Laguna's time")
			if n := eval[int](p, `document.querySelectorAll('select[name=clock], select[name=timer]').length`); n != 0 {
				t.Errorf("%s: Laguna's form has %d more controls for its time", screen.name, n)
			}
			eval[bool](p, `document.querySelector('details.more').open = true`)
			// (The form then keeps the last choice.)
			if got := eval[string](p, `(() => { const s = document.querySelector('select[name=sand]'); return s.value + ': ' + s.options[s.selectedIndex].textContent; })()`); i == 0 && got != "default: The sand timer: 30 s a turn" {
				t.Errorf("%s: Laguna's form starts with the time %q", screen.name, got)
			}
			if w := eval[[]float64](p, `(() => {
				const s = document.querySelector('select[name=sand]'), cs = getComputedStyle(s);
				const c = document.createElement('canvas').getContext('2d');
				c.font = cs.font;
				return [Math.max(...[...s.options].map(o => c.measureText(o.textContent).width)), s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)];
			})()`); w[0] > w[1] {
				t.Errorf("%s: the time's words take %.0f px in a field of %.0f: cut", screen.name, w[0], w[1])
			}
			if tc.choose != "" {
				p.do(chromedp.SetValue(chromedp.CSS(`select[name=sand]`), tc.choose))
				eval[bool](p, `document.querySelector('select[name=sand]').dispatchEvent(new Event('change'))`)
			}
			eval[bool](p, `(document.querySelector('select[name=sand]').scrollIntoView({block: 'center'}), true)`)
			p.screenshotHere("laguna-home-time-" + screen.name)
			p.click(`[data-action=start]`)
			p.waitGame()
			var g struct {
				Time    any               `json:"time"`
				Options map[string]string `json:"options"`
			}
			l.api("GET", "/api/games/"+p.gameID(), "", nil, &g)
			if m, ok := g.Time.(map[string]any); ok {
				delete(m, "started") // whether the first turn's glass runs yet
			}
			if !reflect.DeepEqual(g.Time, tc.want) || g.Options["timer"] != tc.timer {
				t.Errorf("%s: a game started with the time %q has the time %v and timer=%s, want %v and %s", screen.name, tc.choose, g.Time, g.Options["timer"], tc.want, tc.timer)
			}
		}
	}
}

// lagunaTurnControls are the controls a turn of Laguna is played with:
// the board, the raft's holes, the steps and the actions.
var lagunaTurnControls = []string{".lg-board", ".lg-glass", ".lg-holes-box", ".lg-pad", "[data-action=load]", "[data-action=unload]", "[data-action=swap]", "[data-action=peek]", "[data-action=end]"}

// outOfView lists the controls of sels not wholly on the screen as it is
// scrolled now.
func outOfView(p *page, sels []string) []string {
	return eval[[]string](p, fmt.Sprintf(`%s.filter(sel => {
		const el = document.querySelector(sel);
		if (!el) return true;
		const r = el.getBoundingClientRect();
		const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
		return r.width === 0 || r.top < bar - 1 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth;
	})`, mustJSONString(sels)))
}

// pressHere taps (with a finger when touch, else clicks) the middle of
// the element sel where it is on the screen, without scrolling to it: it
// must be there.
func (p *page) pressHere(sel string, touch bool) {
	p.t.Helper()
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.top, r.bottom]; })()`, sel))
	if xy[2] < 0 || xy[3] > eval[float64](p, `innerHeight`) {
		p.t.Fatalf("%s: %s is off the screen (top %v, bottom %v)", p.name, sel, xy[2], xy[3])
	}
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	if !touch {
		if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
			p.t.Fatalf("%s: clicking %s: %v", p.name, sel, err)
		}
		return
	}
	for _, ev := range []input.DispatchTouchEventParams{
		{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: xy[0], Y: xy[1]}}},
		{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}},
	} {
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, ev); err != nil {
			p.t.Fatalf("%s: tapping %s: %v", p.name, sel, err)
		}
	}
}

// screenshotHere saves the screen as it is scrolled now, as a test
// artifact.
func (p *page) screenshotHere(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Errorf("%s: screenshot %s: %v", p.name, name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(artifactDir, name+".png"), buf, 0o644); err != nil {
		p.t.Error(err)
	}
}

// TestLagunaControlsBesideTheBoard: on a phone (390 by 844) and on a
// desktop (1400 by 900) the board and every control of a turn are on the
// screen together when the player's turn begins, and playing a turn with
// them (a hole, Load, a step, End) never scrolls the board away; a phone
// speaks of taps, not keys (issue 30, item 15).
func TestLagunaControlsBesideTheBoard(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withLaguna)
	for _, screen := range []struct {
		name          string
		width, height int64
		phone         bool
	}{
		{"laguna-controls-phone", 390, 844, true},
		{"laguna-controls-desktop", desktopWidth, desktopHeight, false},
	} {
		c := l.createGame(map[string]any{"game": "laguna", "options": map[string]string{"board": "easy"}, "seed": 5,
			"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}},
			"time":  map[string]any{"kind": "turn", "turn_ms": 600000, "carry": true}})
		tokens := make([]string, 2)
		for _, s := range c.Seats {
			tokens[s.Seat] = s.Token
			l.api("POST", "/api/games/"+c.ID+"/join", s.Token, map[string]any{}, nil)
		}
		g := l.lagunaPlay(c.ID, tokens[0], firstLegal(l.laguna(c.ID), "place "))
		g = l.lagunaPlay(c.ID, tokens[1], firstLegal(g, "place "))
		p := newPage(t, screen.name, screen.width, screen.height)
		if screen.phone {
			p.do(chromedp.Emulate(phoneDevice))
		}
		p.navigate(l.url + c.Seats[0].Link)
		p.waitGame()
		p.waitFor(`document.querySelector('.game[data-turn=you][data-conn=open] .lg-pad')`, "Ann's first turn")
		inView := func(when string) {
			t.Helper()
			// (A smooth scroll takes a moment: the page must be still.)
			var out []string
			was := -1.0
			for range 50 {
				y := eval[float64](p, `scrollY`)
				if out = outOfView(p, lagunaTurnControls); len(out) == 0 && y == was {
					return
				}
				was = y
				time.Sleep(100 * time.Millisecond)
			}
			p.screenshotHere(screen.name + "-out-of-view")
			t.Fatalf("%s: %s, %v are off the screen", screen.name, when, out)
		}
		inView("as the turn begins")
		scrolled := eval[float64](p, `scrollY`)
		hint := eval[string](p, `document.querySelector('.lg-hint-line').textContent + ' ' + document.querySelector('.turn-banner').textContent`)
		if touch := strings.Contains(hint, "tap"); touch != screen.phone || screen.phone && strings.Contains(strings.ToLower(hint), "key") {
			t.Errorf("%s: the hints say %q", screen.name, hint)
		}
		p.screenshotHere(screen.name + "-load")

		// The first pearls loaded by a hole and Load, a step by the pad,
		// the end of the turn: all where they were, the board with them.
		version := g.State.Version
		for _, hole := range []string{"1", "2"} {
			p.pressHere(fmt.Sprintf(`.lg-hole-btn[data-hole=%q]`, hole), screen.phone)
			p.pressHere(`[data-action=load]`, screen.phone)
			if eval[bool](p, `!!document.querySelector('.lg-mode .lg-colour')`) {
				p.pressHere(`.lg-mode .lg-colour`, screen.phone)
			}
			version++
			if got := p.lastMove(l, c.ID, version); !strings.HasPrefix(got, "load ") {
				t.Errorf("%s: hole %s and Load made %q", screen.name, hole, got)
			}
		}
		g = l.laguna(c.ID)
		step := keepingMove(t, l, c.ID, g, "")
		p.waitFor(`document.querySelector('.game[data-pending=false]')`, "the load made")
		inView("after loading")
		p.screenshotHere(screen.name + "-sail")
		p.pressHere(fmt.Sprintf(`.lg-step[data-move=%q]`, step), screen.phone)
		version++
		if got := p.lastMove(l, c.ID, version); got != step {
			t.Errorf("%s: tapping the step %s made %q", screen.name, step, got)
		}
		p.waitFor(`document.querySelector('.game[data-pending=false]')`, "the step made")
		inView("after a step")
		p.pressHere(`[data-action=end]`, screen.phone)
		if got := p.lastMove(l, c.ID, version+1); got != "end" {
			t.Errorf("%s: tapping End turn made %q", screen.name, got)
		}
		if now := eval[float64](p, `scrollY`); now != scrolled {
			t.Errorf("%s: playing the turn scrolled the page from %v to %v", screen.name, scrolled, now)
		}
		noSideways(t, p, screen.name)
	}
}

func mustJSONString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
