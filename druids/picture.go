package druids

import (
	"fmt"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// Picture draws the state as text, for people at a terminal (lagoon rules
// -game druids show): the world as rows of hexes, each cell "[21A D#]"
// (the site, its energy's letter, # when locked, * when its side is
// original to Lagoon), every other row shifted half a cell as the hexes
// lie; then each site's name and druids, each seat's seeds, marker,
// supply, score area and points under each energy, the bag, destiny, and
// who decides what.
func (s *State) Picture() string {
	v := s.View(game.Viewer{Seat: game.NoSeat}).(StateView)
	var b strings.Builder
	fmt.Fprintf(&b, "Lagoon: Land of Druids, %d players", len(v.Players))
	if v.AJ != nil {
		fmt.Fprintf(&b, " (seat 2 is AJ, level %s)", v.AJ.Level)
	}
	if v.Over {
		b.WriteString(", game over\n")
	} else {
		fmt.Fprintf(&b, ", turn %d: seat %d's %s step\n", v.Turn, v.Active+1, v.Step)
	}
	counts := [NumEnergies]int{}
	for _, w := range v.World {
		counts[Sites[site(w.ID)].Energy]++
	}
	destiny := v.Destiny
	if destiny == "draw" {
		destiny = "none (a draw)"
	}
	fmt.Fprintf(&b, "bag %d; sites in play E%d V%d D%d; destiny now %s\n\n", v.Bag, counts[0], counts[1], counts[2], destiny)
	b.WriteString(s.worldRows(v.World))
	b.WriteString("\n")
	for _, w := range v.World {
		pictureSite(&b, w)
	}
	b.WriteString("\n")
	pictureSeats(&b, v)
	for _, n := range v.Drawn {
		a, bs := &Sites[2*(n-1)], &Sites[2*(n-1)+1]
		fmt.Fprintf(&b, "drawn: tile %d, side A %s (%s), side B %s (%s)\n", n, a.Name, EnergyNames[a.Energy], bs.Name, EnergyNames[bs.Energy])
	}
	if v.Over {
		var w []string
		for _, p := range v.Winners {
			w = append(w, fmt.Sprint(p+1))
		}
		fmt.Fprintf(&b, "winners: seat %s\n", strings.Join(w, ", seat "))
	} else {
		fmt.Fprintf(&b, "seat %d decides (%s): %s\n", v.ToMove+1, v.Asking, strings.Join(v.Legal, ", "))
	}
	b.WriteString("key: # locked, * original to Lagoon; 1E seat 1's Eldrid, 1A an acolyte (e, a: exhausted)\n")
	return b.String()
}

// pictureSite writes a line of a site in play: its name, energy, type and
// group, whether it is locked or original to Lagoon, and its druids.
func pictureSite(b *strings.Builder, w WorldSite) {
	st := &Sites[site(w.ID)]
	fmt.Fprintf(b, "%-4s %s (%s %s, %s)", w.ID, st.Name, EnergyNames[st.Energy], SiteTypeNames[st.Type], groupNumerals[st.Group])
	if w.Locked {
		b.WriteString(", locked")
	}
	if st.Original {
		b.WriteString(", original to Lagoon")
	}
	var tokens []string
	for _, d := range w.Druids {
		slot := fmt.Sprint(d.Seat + 1)
		if d.Eldrid {
			tokens = append(tokens, slot+[2]string{"E", "e"}[b2i(d.EldridExhausted)])
		}
		for range d.AcolytesRefreshed {
			tokens = append(tokens, slot+"A")
		}
		for range d.AcolytesExhausted {
			tokens = append(tokens, slot+"a")
		}
	}
	if len(tokens) > 0 {
		b.WriteString(": " + strings.Join(tokens, " "))
	}
	b.WriteString("\n")
}

// pictureSeats writes a line of each seat (seeds, marker, supply, score
// area, forecast points), then AJ's Eldrids and tokens in a game against
// him.
func pictureSeats(b *strings.Builder, v StateView) {
	for p, pl := range v.Players {
		fmt.Fprintf(b, "seat %d: seeds E%d V%d D%d", p+1, pl.Seeds[0], pl.Seeds[1], pl.Seeds[2])
		if v.AJ == nil || p != ajSeat {
			supply := fmt.Sprintf("%d acolytes", pl.AcolytesSupply)
			if pl.EldridInSupply {
				supply = "Eldrid and " + supply
			}
			fmt.Fprintf(b, "; marker %s; supply %s", pl.Marker, supply)
		}
		unravelled := "-"
		if len(pl.Unravelled) > 0 {
			unravelled = strings.Join(pl.Unravelled, " ")
		}
		fmt.Fprintf(b, "; unravelled %s; points if E/V/D dominated %d/%d/%d\n", unravelled, pl.Forecast[0], pl.Forecast[1], pl.Forecast[2])
	}
	if v.AJ != nil {
		fmt.Fprintf(b, "AJ's Eldrids (slots 2 to 4): %s; tokens in his bag:", strings.Join(orDash(v.AJ.Eldrids[:]), " "))
		for c, n := range v.AJ.Tokens {
			if n > 0 {
				fmt.Fprintf(b, " %s %d", CircleNames[c], n)
			}
		}
		b.WriteString("\n")
	}
}

var groupNumerals = [...]string{"", "I", "II", "III"}

// worldRows draws the world's hexes: a row of cells for each r, the cell
// of q, r starting 5*(2q+r) characters in (a cell is nine wide), so that
// each row lies half a cell off the one above.
func (s *State) worldRows(world []WorldSite) string {
	if len(world) == 0 {
		return ""
	}
	minCol, maxCol, minR, maxR := 1<<30, -1<<30, 1<<30, -1<<30
	for _, w := range world {
		c := 2*w.Q + w.R
		minCol, maxCol = min(minCol, c), max(maxCol, c)
		minR, maxR = min(minR, w.R), max(maxR, w.R)
	}
	rows := make([][]byte, maxR-minR+1)
	for i := range rows {
		rows[i] = []byte(strings.Repeat(" ", 5*(maxCol-minCol)+9))
	}
	for _, w := range world {
		st := &Sites[site(w.ID)]
		mark := ""
		if w.Locked {
			mark = "#"
		}
		if st.Original {
			mark += "*"
		}
		cell := fmt.Sprintf("[%-3s %c%-2s]", w.ID, energyLetters[st.Energy], mark)
		copy(rows[w.R-minR][5*(2*w.Q+w.R-minCol):], cell)
	}
	var b strings.Builder
	for _, row := range rows {
		b.WriteString(strings.TrimRight(string(row), " ") + "\n")
	}
	return b.String()
}

func orDash(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id
		if id == "" {
			out[i] = "-"
		}
	}
	return out
}
