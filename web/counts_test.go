package web_test

// Counts read right: "1 pearl aboard", "2 pearls aboard". The game modules'
// words are checked where they are made, the modules imported into a page
// of the running site and given views, rather than by playing games to the
// one pearl or step each count needs.

import (
	"context"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
)

// countWords is what the words of one count read, for a count of 1 and 2.
type countWords struct {
	What string `json:"what"`
	One  string `json:"one"`
	Two  string `json:"two"`
}

// TestCountsReadRight: Laguna's pearls aboard (a card's screen-reader
// words), steps (the solo result, its explanation, the card's unit and the
// puzzle's par) and Druids' seeds of an energy (a card's screen-reader
// words) are singular for 1 and plural for 2.
func TestCountsReadRight(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	p := newPage(t, "counts", desktopWidth, desktopHeight)
	p.navigate(l.url + "/")
	p.waitFor(`document.readyState === 'complete'`, "the page")
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]countWords](`(async () => {
		const laguna = (await import('/js/games/laguna/index.js')).default;
		const {puzzleBox} = await import('/js/games/laguna/table.js');
		const druids = (await import('/js/games/druids/index.js')).default;
		const text = x => (Array.isArray(x) ? x : [x]).filter(e => e).map(e => e.textContent).join(' ').replace(/\s+/g, ' ').trim();
		const pearls = n => Array.from({length: 6}, (_, i) => ({pearl: i < n ? 'Y' : ''}));
		const aboard = n => text(laguna.seatCard({rafts: [{holes: pearls(n)}], target: 6, scores: [0]}, 0));
		const solo = n => ({target: 0, scores: [n], par: n});
		const result = n => laguna.result(solo(n), [{name: 'Ann'}]);
		const seeds = n => text(druids.seatCard({players: [{seeds: [n, 0, 0], marker: 'ready', acolytes_in_supply: 0, unravelled: []}]}, 0));
		const both = (what, f) => ({what, one: f(1), two: f(2)});
		return [
			both('Laguna, a card: pearls aboard', aboard),
			both('Laguna, the solo result', n => text(result(n).detail(0))),
			both('Laguna, the solo explanation', n => text(result(n).explanation)),
			both('Laguna, a card\'s unit', n => n + ' ' + laguna.scoreUnit(solo(n), true, n)),
			both('Laguna, the puzzle\'s par', n => text(puzzleBox({par: n, goal: [], islands: []}, 0))),
			both('Druids, a card: seeds', seeds),
		];
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ what, one, two string }{
		{"Laguna, a card: pearls aboard", "1 pearl aboard,", "2 pearls aboard,"},
		{"Laguna, the solo result", "1 step", "2 steps"},
		{"Laguna, the solo explanation", "Solved in 1 step: par matched (par 1).", "Solved in 2 steps: par matched (par 2)."},
		{"Laguna, a card's unit", "1 step", "2 steps"},
		{"Laguna, the puzzle's par", "par 1 step", "par 2 steps"},
		{"Druids, a card: seeds", "1 Elemeen seed,", "2 Elemeen seeds,"},
	}
	if len(got) != len(cases) {
		t.Fatalf("the page answered %d counts, want %d: %+v", len(got), len(cases), got)
	}
	for i, c := range cases {
		g := got[i]
		// The words, not the start of longer ones ("1 step" is in "1 steps").
		if !readsAs(g.One, c.one) || !readsAs(g.Two, c.two) {
			t.Errorf("%s: reads %q and %q, want %q and %q in them", c.what, g.One, g.Two, c.one, c.two)
		}
	}
}

// readsAs reports whether text holds words as whole words.
func readsAs(text, words string) bool {
	return regexp.MustCompile(regexp.QuoteMeta(words) + `($|[^a-z])`).MatchString(text)
}
