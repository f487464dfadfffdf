package web_test

// Blue Lagoon's words at the end of a game against a bot: the bot goes by
// the page's name for it everywhere, and a count of one is singular.

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBotNamedAlikeAtTheEnd: the winner's dialog, the lobby's row and the
// replay call a bot under the server's default name what its card does
// ("White bot", never "Bot (medium)"); the cards' screen-reader words say
// "1 village", not "1 villages".
func TestBotNamedAlikeAtTheEnd(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	c := l.createGame(map[string]any{"options": map[string]string{"board": "standard"}, "seed": 3,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "medium"}}})
	ann := c.Seats[0].Token
	l.api("POST", "/api/games/"+c.ID+"/join", ann, map[string]any{}, nil)
	pages := map[string]*page{}
	for _, sc := range screens {
		p := sc.open(t, "bot-end")
		p.navigate(l.url + "/game/" + c.ID)
		p.waitGame()
		pages[sc.name] = p
	}
	end := playAgainstBot(l, c.ID, ann)
	if len(end.Winners) != 1 || end.Winners[0] != 1 {
		t.Fatalf("the bot did not win alone (winners %v): choose another seed", end.Winners)
	}
	unplural := regexp.MustCompile(`^1 .*s( left)?,$`)
	for _, sc := range screens {
		p := pages[sc.name]
		// The phases' summaries come first.
		for {
			p.waitFor(`document.querySelector('.winner-modal .explanation, .phase-modal')`, "the winner's dialog")
			if !eval[bool](p, `!!document.querySelector('.phase-modal')`) {
				break
			}
			p.click(`.phase-modal .btn-primary`)
			p.waitFor(`!document.querySelector('.phase-modal')`, "the summary to close")
		}
		card := eval[string](p, `document.querySelector('.pcard[data-seat="1"] .pcard-name').textContent`)
		said := eval[string](p, `document.querySelector('.winner-modal').textContent`)
		if strings.Contains(said, "Bot (") || !strings.Contains(eval[string](p, `document.querySelector('.winner-modal .explanation').textContent`), card+" wins") {
			t.Errorf("%s: the card says %q, the winner's dialog %q", sc.name, card, said)
		}
		for _, count := range eval[[]string](p, `[...document.querySelectorAll('.pcard .count')].map(e => e.textContent.trim())`) {
			if unplural.MatchString(count) {
				t.Errorf("%s: a card tells a screen reader %q", sc.name, count)
			}
		}
		p.screenshot("bot-end-" + sc.name)
		p.navigate(l.url + "/")
		row := `document.querySelector('.lobby-finished [data-game="` + c.ID + `"]')`
		p.waitFor(row, "the finished game's row")
		if text := eval[string](p, row+`.textContent`); strings.Contains(text, "Bot (") || !strings.Contains(text, card+" won") {
			t.Errorf("%s: the lobby's row says %q, the card %q", sc.name, text, card)
		}
		p.navigate(l.url + "/replay/" + c.ID)
		p.waitFor(`document.querySelector('.banner-sub')`, "the replay")
		if text := eval[string](p, `document.body.textContent`); strings.Contains(text, "Bot (") {
			t.Errorf("%s: the replay calls the bot by the server's name: %q", sc.name, text)
		}
	}
}

type standingSeen struct {
	Winners []int `json:"winners"`
}

// playAgainstBot plays seat 0's moves through the API (chooseMove's)
// while the bot plays seat 1, until the game is over, and says who won.
func playAgainstBot(l *lagoon, id, token string) standingSeen {
	l.t.Helper()
	for {
		var g apiGame
		l.api("GET", "/api/games/"+id, "", nil, &g)
		if g.State.Over {
			var info struct {
				State struct {
					Standing standingSeen `json:"standing"`
				} `json:"state"`
			}
			l.api("GET", "/api/games/"+id, "", nil, &info)
			return info.State.Standing
		}
		if g.State.ToMove != 0 {
			time.Sleep(20 * time.Millisecond) // the bot's turn: look again
			continue
		}
		l.api("POST", "/api/games/"+id+"/moves", token, map[string]any{"version": g.State.Version, "move": chooseMove(g, -1)}, nil)
	}
}
