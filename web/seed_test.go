package web_test

import (
	"fmt"
	"testing"
)

// TestChosenSeedMarked: a table made with a seed of its creator's choosing
// is marked in the lobby, in the invitation a seat's link opens, in the
// table's header for the seat and for a spectator, and in the replay's
// header, on a desktop and on a phone, before anyone has joined; a table
// dealt from a random seed is not.
func TestChosenSeedMarked(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	seats := []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "open"}}
	chosen := l.createGame(map[string]any{"seats": seats, "seed": 7})
	random := l.createGame(map[string]any{"seats": seats})
	// visible: the element is on the screen, inside its width.
	visible := func(sel string) string {
		return fmt.Sprintf(`(() => {
			const el = document.querySelector(%q);
			if (!el) return false;
			const r = el.getBoundingClientRect();
			return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= window.innerWidth;
		})()`, sel)
	}
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"desktop", desktopWidth, desktopHeight}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			p := newPage(t, "seed-"+size.name, size.width, size.height)
			p.navigate(l.url + "/")
			p.waitFor(fmt.Sprintf(`document.querySelector('.lobby-open [data-game=%q]') && document.querySelector('.lobby-open [data-game=%q]')`, chosen.ID, random.ID), "both tables in the lobby")
			p.waitFor(visible(fmt.Sprintf(`.lobby-open [data-game=%q] .chip-seed`, chosen.ID)), "the chosen seed's mark in the lobby")
			if eval[bool](p, fmt.Sprintf(`!!document.querySelector('[data-game=%q] .chip-seed')`, random.ID)) {
				t.Error("the lobby marks the table dealt from a random seed")
			}
			p.click(fmt.Sprintf(`.lobby-open [data-game=%q] [data-join]`, chosen.ID))
			p.waitFor(visible(`.join-modal .seed-warning`), "the warning in the lobby's join")
			p.screenshot("seed-lobby-join-" + size.name)

			// Ann's invitation, before she joins, in a browser of her own.
			ann := newPage(t, "seed-ann-"+size.name, size.width, size.height)
			ann.navigate(l.url + chosen.Seats[0].Link)
			ann.waitGame()
			ann.waitFor(visible(`.join-modal .seed-warning`), "the warning in the invitation")
			ann.waitFor(visible(`.status-chips .chip-seed`), "the mark in the table's header")
			ann.screenshot("seed-invite-" + size.name)

			// A spectator: the lobby's page, which took no seat.
			for i, c := range []struct {
				path string
				want bool
			}{
				{"/game/" + chosen.ID, true},
				{"/replay/" + chosen.ID, true},
				{"/game/" + random.ID, false},
			} {
				p.navigate(l.url + c.path)
				p.waitFor(`document.querySelector('.game .status-chips')`, "the header of "+c.path)
				if c.want {
					p.waitFor(visible(`.status-chips .chip-seed`), "the mark in the header of "+c.path)
					p.screenshot(fmt.Sprintf("seed-watch-%s-%d", size.name, i))
				} else if eval[bool](p, `!!document.querySelector('.chip-seed')`) {
					t.Errorf("%s: the table dealt from a random seed is marked", c.path)
				}
			}
		})
	}
}
