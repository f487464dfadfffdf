package web_test

// Land of Druids as players find it (issue 30): every circle drawn
// however the page was reached, every action shown with why it cannot be
// taken, the other seats' turns told in the play area, spaces and
// decisions in words, Lagoon's own rules explained where they act, the
// end of a game of teams, the Refresh step in one click, and the small
// words (turns counted as turns, "1 seed"). Each at a desktop's size and
// a phone's.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lagoon-games/lagoon/druids"
	"github.com/lagoon-games/lagoon/game"
)

// druidsScreens are the sizes each test is played at.
var druidsScreens = []struct {
	name          string
	width, height int64
}{{"desktop", desktopWidth, desktopHeight}, {"phone", 390, 844}}

// coordinates are a space written as the notation writes it: what the
// page must not show a player.
var coordinates = regexp.MustCompile(`\b\d{1,2},\d{1,2}\b`)

// TestDruidsFourCirclesFromHome: a four-player game started from the home
// page, after the page drew its two-player picture, draws the druids of
// seats 3 and 4 (issue 30 item 1).
func TestDruidsFourCirclesFromHome(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	for _, sc := range druidsScreens {
		t.Run(sc.name, func(t *testing.T) {
			p := newPage(t, "ann-"+sc.name, sc.width, sc.height)
			p.openDruidsHome(l, "Ann")
			p.waitFor(`document.querySelector('.hero-board svg .world .druid, .hero-board .world .druid')`, "the home page's picture with its druids")
			p.click(`[data-players="4"]`)
			for seat := 1; seat <= 3; seat++ {
				p.do(chromedp.SetValue(chromedp.CSS(fmt.Sprintf(`select[name=seat%d]`, seat)), "friend"))
				eval[bool](p, fmt.Sprintf(`document.querySelector('select[name=seat%d]').dispatchEvent(new Event('change'))`, seat))
			}
			p.click(`[data-action=start]`)
			p.waitGame()
			p.waitFor(`document.querySelector('.world .druid')`, "the world's druids")
			// Every token's drawing is there: each slot's symbol.
			missing := eval[[]string](p, `[...document.querySelectorAll('.world .druid use')].map(u => u.getAttribute('href')).filter(h => !document.querySelector(h))`)
			if len(missing) > 0 {
				t.Errorf("tokens drawn from nothing: %v", missing)
			}
			slots := eval[[]string](p, `[...new Set([...document.querySelectorAll('.world .druid')].map(d => d.dataset.druid[0]))].sort()`)
			if !slices.Equal(slots, []string{"1", "2", "3", "4"}) {
				t.Errorf("the world shows the druids of slots %v", slots)
			}
			p.screenshot("druids-four-" + sc.name)
		})
	}
}

// druidsMove is a move of the API's game with its note.
type druidsMove struct {
	Seat    int             `json:"seat"`
	Move    string          `json:"move"`
	Version int             `json:"version"`
	Note    druids.NoteView `json:"note"`
}

func (l *lagoon) druidsMoves(id string) []druidsMove {
	l.t.Helper()
	var g struct {
		Moves []druidsMove `json:"moves"`
	}
	l.api("GET", "/api/games/"+id, "", nil, &g)
	return g.Moves
}

// TestDruidsTellsWhy: against a bot that plays first, the page tells the
// bot's turn in the play area; the chip and the turn's heading count
// turns; the four basic actions are always shown, those that cannot be
// taken with the view's reason, and a site's card says whether its action
// and its unravel can be taken; spaces and decisions are said in words;
// the next Refresh step is one click (issue 30 items 2, 3, 4, 7, 8).
func TestDruidsTellsWhy(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	for _, sc := range druidsScreens {
		t.Run(sc.name, func(t *testing.T) {
			c := l.createGame(map[string]any{"game": "druids", "seed": 11, "options": map[string]string{"first": "1"},
				"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
			p := newPage(t, "ann-"+sc.name, sc.width, sc.height)
			p.takeSeat(l.url + c.Seats[0].Link)
			turn := p.druidsWait()

			// The bot's turn, told where Ann plays.
			var botMoves int
			for _, m := range l.druidsMoves(c.ID) {
				if m.Note.Turn == 1 {
					botMoves++
				}
			}
			if !eval[bool](p, `!!document.querySelector('.dr-others .dr-other[data-seat="1"]')`) {
				t.Errorf("the bot's turn is not told in the play area")
			}
			if got := eval[int](p, `document.querySelectorAll('.dr-others .dr-other[data-seat="1"] li').length`); got != min(botMoves, 10) {
				t.Errorf("the bot's turn shows %d decisions, it made %d", got, botMoves)
			}
			if text := eval[string](p, `(document.querySelector('.dr-others') || {textContent: ''}).textContent`); coordinates.MatchString(text) {
				t.Errorf("the bot's turn names a space by coordinates: %q", text)
			}
			// Rounds, not decisions: the game's second turn is Ann's first, in round 1.
			if got := eval[string](p, `document.querySelector('.chip-move').textContent`); got != "Round 1" {
				t.Errorf("the status bar counts %q", got)
			}
			if got := eval[string](p, `document.querySelector('.dr-turnlog-head b').textContent`); got != "Your first turn" {
				t.Errorf("the turn's heading is %q", got)
			}

			// The menu: the four basic actions, each offered or with why.
			v := l.druidsGame(c.ID).State.View
			if !turn.Menu {
				t.Fatalf("Ann's first decision is not the menu: %v", turn.Moves)
			}
			for _, basic := range []string{"move", "summon", "explore", "unravel"} {
				offered := slices.Contains(v.Legal, basic)
				sel := fmt.Sprintf(`.dr-ask .dr-action[data-move=%q]`, basic)
				if !offered {
					sel = fmt.Sprintf(`.dr-ask [data-unavailable=%q] .dr-action-why`, basic)
				}
				got := eval[string](p, fmt.Sprintf(`(document.querySelector(%q) || {textContent: 'missing'}).textContent`, sel))
				i := slices.IndexFunc(v.Unavailable, func(u druids.UnavailableView) bool { return u.Move == basic && u.Site == "" })
				switch {
				case offered && got == "missing":
					t.Errorf("%s is offered and not shown", basic)
				case !offered && (i < 0 || got != "Not now: "+v.Unavailable[i].Reason):
					t.Errorf("%s is not offered and reads %q (the view: %+v)", basic, got, v.Unavailable)
				}
			}
			// The starting haven, picked: its action and its unravel on the
			// card, the unravel with why (the only haven).
			haven := ""
			for _, w := range v.World {
				if slices.ContainsFunc(w.Druids, func(d druids.DruidsView) bool { return d.Seat == 0 }) {
					haven = w.ID
				}
			}
			p.clickAt(fmt.Sprintf(`.world .site[data-site=%q] .hex`, haven), 0.3)
			p.waitFor(fmt.Sprintf(`document.querySelector('.world .site.selected[data-site=%q]') && document.querySelector('.dr-info [data-card=%q]')`, haven, haven), "the haven picked and its card")
			if got := eval[string](p, `(document.querySelector('.dr-card-now [data-now=unravel]') || {textContent: ''}).textContent`); !strings.Contains(got, "the only haven") {
				t.Errorf("the haven's card says of its unravel %q", got)
			}
			if n := eval[int](p, `document.querySelectorAll('.dr-ask .dr-action[data-move], .dr-ask [data-unavailable]').length`); n < 4 {
				t.Errorf("the haven picked shows %d actions", n)
			}
			p.screenshot("druids-why-" + sc.name)
			p.click(`[data-action=unpick]`)
			p.waitFor(`!document.querySelector('.world .selected')`, "all the actions again")

			// Ann's turn: explore (its space said in words), one move, end.
			explored, moved := false, false
			for range 60 {
				g := l.druidsGame(c.ID)
				if g.State.View.ToMove != 0 || g.State.View.Turn != 2 {
					break
				}
				turn := p.druidsWait()
				switch {
				case turn.Menu && !explored && slices.Contains(turn.Moves, "explore"):
					explored = true
					p.druidsDecide(t, turn)
				case turn.Menu && !moved && slices.Contains(turn.Moves, "move"):
					moved = true
					p.click(`.dr-action[data-move=move]`)
					p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d`, turn.Version), "the move chosen")
				case turn.Menu:
					p.click(`.dr-action[data-move=end]`)
					p.waitFor(fmt.Sprintf(`Number(document.querySelector('.game').dataset.version) > %d`, turn.Version), "the turn ended")
				default:
					if len(turn.Spaces) > 0 {
						words := eval[[]string](p, `[...document.querySelectorAll('.dr-ask [data-kind=space]')].map(b => b.textContent)`)
						labels := eval[[]string](p, `[...document.querySelectorAll('.world .space')].map(s => s.getAttribute('aria-label'))`)
						for _, w := range append(words, labels...) {
							if coordinates.MatchString(w) || !strings.Contains(w, " of ") {
								t.Errorf("a space is said %q", w)
							}
						}
						p.screenshot("druids-spaces-" + sc.name)
					}
					p.druidsDecide(t, turn)
				}
			}
			// The log says every decision as a sentence, no coordinates,
			// no "Explore: yes".
			eval[bool](p, `(document.querySelector('.tab[data-tab=moves]').click(), true)`)
			p.waitFor(`document.querySelector('.log .log-move')`, "the log")
			for _, line := range eval[[]string](p, `[...document.querySelectorAll('.log .log-text')].map(li => li.textContent)`) {
				if coordinates.MatchString(line) || strings.Contains(line, ": yes") || strings.Contains(line, ": no") {
					t.Errorf("the log says %q", line)
				}
			}

			// Ann's next Refresh step: her exhausted druids in one click.
			p.waitFor(`document.querySelector('.game[data-turn=you][data-pending=false]') && document.querySelector('.dr-ask [data-move], .dr-ask [data-action]')`, "Ann's second turn")
			v = l.druidsGame(c.ID).State.View
			if v.Step != "refresh" {
				t.Fatalf("Ann's second turn begins at %s (legal %v)", v.Step, v.Legal)
			}
			if got := eval[string](p, `document.querySelector('.dr-turnlog-head b').textContent`); got != "Your second turn" {
				t.Errorf("the turn's heading is %q", got)
			}
			p.screenshot("druids-refresh-" + sc.name)
			before := l.druidsGame(c.ID).State.Version
			p.click(`[data-action=refresh-all]`)
			p.waitFor(`document.querySelector('.dr-ask[data-menu]')`, "the menu after the refresh")
			after := l.druidsGame(c.ID)
			for _, w := range after.State.View.World {
				for _, d := range w.Druids {
					if d.Seat == 0 && (d.AcolytesExhausted > 0 || d.EldridExhausted) {
						t.Errorf("after Refresh all, %s still holds an exhausted druid of Ann's", w.ID)
					}
				}
			}
			if n := after.State.Version - before; n < 1 {
				t.Errorf("Refresh all made %d moves", n)
			}
		})
	}
}

// druidsReach plays random moves on the engine from a game's setup until
// the view's decision satisfies reached, and returns the moves.
func druidsReach(t *testing.T, players int, seed uint64, reached func(druids.StateView) bool) []string {
	t.Helper()
	rules := druids.Rules
	st, err := rules.NewGame(game.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	var moves []string
	for range 3000 {
		v := st.View(game.Viewer{}).(druids.StateView)
		if st.Over() {
			return nil
		}
		if reached(v) {
			return moves
		}
		m := v.Legal[rng.IntN(len(v.Legal))]
		mv, err := st.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Play(mv); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
	}
	return nil
}

// druidsPlay sends moves to a game of human seats through the API, each
// by the seat to decide.
func (l *lagoon) druidsPlay(id string, tokens []string, moves []string) {
	l.t.Helper()
	g := l.druidsGame(id)
	version, toMove := g.State.Version, g.State.View.ToMove
	for _, m := range moves {
		var res struct {
			Version int `json:"version"`
			State   struct {
				View json.RawMessage `json:"view"`
			} `json:"state"`
		}
		l.api("POST", "/api/games/"+id+"/moves", tokens[toMove], map[string]any{"version": version, "move": m}, &res)
		var v druids.StateView
		if err := json.Unmarshal(res.State.View, &v); err != nil {
			l.t.Fatal(err)
		}
		version, toMove = res.Version, v.ToMove
	}
}

// TestDruidsLagoonRules: a circle left with no druid on the board is told
// why it sets one on a haven, a rule of Lagoon's own; the rules page holds
// the rules, Lagoon's own among them, and sends nobody to a file (issue 30
// items 5 and 8).
func TestDruidsLagoonRules(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	var seed uint64
	var moves []string
	for seed = 1; moves == nil; seed++ {
		if seed > 100 {
			t.Fatal("no random game of 100 leaves a circle with no druid on the board")
		}
		moves = druidsReach(t, 2, seed, func(v druids.StateView) bool { return v.Question == "lost" })
	}
	seed--
	human := map[string]any{"kind": "human"}
	c := l.createGame(map[string]any{"game": "druids", "seed": seed, "seats": []map[string]any{human, human}})
	l.druidsPlay(c.ID, []string{c.Seats[0].Token, c.Seats[1].Token}, moves)
	v := l.druidsGame(c.ID).State.View
	if v.Question != "lost" {
		t.Fatalf("the server's game asks %q after the moves", v.Question)
	}
	for _, sc := range druidsScreens {
		t.Run(sc.name, func(t *testing.T) {
			p := newPage(t, "lost-"+sc.name, sc.width, sc.height)
			p.navigate(l.url + c.Seats[v.ToMove].Link)
			p.waitGame()
			p.druidsWait()
			if got := eval[string](p, `(document.querySelector('.dr-house[data-house=lost]') || {textContent: ''}).textContent`); !strings.Contains(got, "no druid on the board") || !strings.Contains(got, "Lagoon's rule") {
				t.Errorf("the lost circle's prompt explains %q", got)
			}
			if got := eval[string](p, `document.querySelector('.turn-banner').textContent`); !strings.Contains(got, "no druid on the board") {
				t.Errorf("the banner says %q", got)
			}
			p.screenshot("druids-lost-" + sc.name)

			p.navigate(l.url + "/rules/druids")
			p.waitFor(`document.querySelector('.rules-page [data-rules=house] li')`, "Lagoon's own rules on the rules page")
			if text := eval[string](p, `document.querySelector('.rules-page').textContent`); strings.Contains(text, "docs/") {
				t.Errorf("the rules page sends players to a file: %q", text)
			}
			p.screenshot("druids-rules-" + sc.name)
		})
	}
}

// TestDruidsTeamsEnd: a game of four played to its end shows the teams,
// their pooled seeds and sites and the team totals; the destiny forecast
// keeps its team columns inside its column at 1400 px (issue 30 item 6).
func TestDruidsTeamsEnd(t *testing.T) {
	needBrowser(t)
	l := startLagoonWith(t, withDruids)
	// The whole game: the moves of a random game to its end.
	var moves []string
	st, err := druids.Rules.NewGame(game.Setup{Players: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 2))
	for !st.Over() {
		legal := st.AppendLegal(nil)
		m := legal[rng.IntN(len(legal))]
		moves = append(moves, st.MoveText(m))
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	c := l.createGame(map[string]any{"game": "druids", "seed": 3, "seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"}, {"kind": "human", "name": "Di"}}})
	var tokens []string
	for _, s := range c.Seats {
		tokens = append(tokens, s.Token)
	}
	// The pages watch the last move end the game.
	l.druidsPlay(c.ID, tokens, moves[:len(moves)-1])
	var pages []*page
	for _, sc := range druidsScreens {
		p := newPage(t, "ann-"+sc.name, sc.width, sc.height)
		p.navigate(l.url + c.Seats[0].Link)
		p.waitGame()
		p.waitFor(`document.querySelector('.game[data-conn=open]')`, "the game open")
		pages = append(pages, p)
	}
	l.druidsPlay(c.ID, tokens, moves[len(moves)-1:])
	end := l.druidsGame(c.ID)
	if !end.State.Over {
		t.Fatal("the game is not over")
	}
	for i, sc := range druidsScreens {
		p := pages[i]
		t.Run(sc.name, func(t *testing.T) {
			p.t = t
			p.waitFor(`document.querySelector('.winner-modal .dr-team-result')`, "the teams at the end")
			for k, team := range [][]int{{0, 2}, {1, 3}} {
				total, seeds, sites := 0, 0, 0
				for _, s := range team {
					total += end.State.Standing.Scores[s]
					for _, n := range end.State.View.Players[s].Seeds {
						seeds += n
					}
					sites += len(end.State.View.Players[s].Unravelled)
				}
				got := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('.dr-team-result tr[data-team="%d"] td')].map(td => td.textContent)`, k))
				if len(got) != 5 {
					t.Errorf("team %d's row shows %v", k+1, got)
					continue
				}
				shownSeeds := 0
				for _, s := range got[:3] {
					var n int
					fmt.Sscan(s, &n)
					shownSeeds += n
				}
				if shownSeeds != seeds || got[3] != fmt.Sprint(sites) || got[4] != fmt.Sprint(total) {
					t.Errorf("team %d shows %v, want %d seeds, %d sites, %d points", k+1, got, seeds, sites, total)
				}
			}
			p.screenshot("druids-teams-end-" + sc.name)
			p.click(`.winner-modal .btn:not(.btn-primary)`)
			p.waitFor(`!document.querySelector('.modal') && document.querySelector('.dr-forecast-table')`, "the score sheet")
			// The forecast's last column is inside the panel that holds it.
			over := eval[float64](p, `(() => {
				const th = [...document.querySelectorAll('.dr-forecast-table thead th')].pop();
				const box = document.querySelector('.tab-panel').getBoundingClientRect();
				return th.getBoundingClientRect().right - box.right; })()`)
			if over > 0.5 {
				t.Errorf("the forecast's Team 2 column overflows its panel by %.0f px", over)
			}
			p.screenshot("druids-teams-sheet-" + sc.name)
		})
	}
}
