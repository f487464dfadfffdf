package druids

import (
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// This file writes what the page is shown: the catalogue of sites once
// (Table), the state after every move (View), what the log says of a move
// (Note). Nothing is hidden from any seat but the bag's order, which no
// view holds.

// SiteInfo is a site of the catalogue.
type SiteInfo struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Energy   string `json:"energy"`
	Type     string `json:"type"`
	Group    int    `json:"group"`
	Kind     string `json:"kind"`
	Once     bool   `json:"once"`
	Original bool   `json:"original"`
	Effect   string `json:"effect"`
	// Cost is what the action costs, in words: the druid an invoked
	// action exhausts and what else it takes (a seed, a druid sent back
	// to the supply); for a passive action what its "may" asks; "" for
	// one that costs nothing.
	Cost string `json:"cost"`
}

// TableView is what never changes in a game: the sites' catalogue and the
// play set.
type TableView struct {
	Sites []SiteInfo `json:"sites"`
	Set   string     `json:"set"`
	Teams [][]int    `json:"teams"`
	// Circles names the circle of each druid slot: a seat's, and in a
	// game against AJ his three Eldrids' (slots 2 to 4).
	Circles []string `json:"circles"`
}

// Catalogue returns every site as the page describes it.
func Catalogue() []SiteInfo {
	out := make([]SiteInfo, NumSites)
	for i, st := range Sites {
		out[i] = SiteInfo{ID: st.ID, Name: st.Name, Energy: EnergyNames[st.Energy], Type: SiteTypeNames[st.Type],
			Group: st.Group, Kind: ActionKindNames[st.Kind], Once: st.Once, Original: st.Original, Effect: st.Effect, Cost: costText(i)}
	}
	return out
}

// costText says what site n's action costs, read from its program: the
// invoking druid exhausted, then each step that takes something before the
// effect (a seed given up, a druid exhausted or sent back to the supply).
func costText(n int) string {
	var parts []string
	switch Sites[n].Kind {
	case KindInvoke:
		parts = append(parts, "exhaust a refreshed druid of yours")
	case KindEldrid:
		parts = append(parts, "exhaust your refreshed Eldrid")
	}
	for _, o := range programs[n] {
		switch o.code {
		case oDiscard:
			parts = append(parts, "give up "+seedWords(o.seedMask()))
		case oSongSeeds:
			parts = append(parts, "give up one or two seeds")
		case oExhaust:
			if o.exhaustFilter() == exhaustEldrid {
				parts = append(parts, "exhaust your Eldrid")
			} else {
				parts = append(parts, "exhaust one of your druids")
			}
		case oExile:
			switch o.exileWho() {
			case exileInvoker:
				parts = append(parts, "the invoking druid goes back to your supply")
			case exileOwnRefreshed:
				parts = append(parts, "send a refreshed druid of yours back to your supply")
			default:
				parts = append(parts, "send one of your druids back to your supply")
			}
		}
	}
	return strings.Join(parts, "; ")
}

// seedWords names a seed of the energies of mask: "a seed" for any.
func seedWords(mask seedMask) string {
	if mask == maskAll {
		return "a seed"
	}
	var names []string
	for e := range Energy(NumEnergies) {
		if mask>>e&1 != 0 {
			names = append(names, EnergyNames[e])
		}
	}
	article := "a "
	if names[0][0] == 'E' {
		article = "an "
	}
	return article + strings.Join(names, " or ") + " seed"
}

// Table returns the catalogue and the play set.
func (s *State) Table() any {
	tv := TableView{Sites: Catalogue(), Set: rangesText(s.set), Teams: s.Teams()}
	for k := range s.circles() {
		tv.Circles = append(tv.Circles, CircleNames[seatCircle(k)])
	}
	return tv
}

// DruidsView counts a seat's druids on a site.
type DruidsView struct {
	Seat              int  `json:"seat"`
	Eldrid            bool `json:"eldrid"`
	EldridExhausted   bool `json:"eldrid_exhausted"`
	AcolytesRefreshed int  `json:"acolytes_refreshed"`
	AcolytesExhausted int  `json:"acolytes_exhausted"`
}

// WorldSite is a site in the world.
type WorldSite struct {
	ID     string       `json:"id"`
	Q      int          `json:"q"`
	R      int          `json:"r"`
	Locked bool         `json:"locked"`
	Druids []DruidsView `json:"druids"`
}

// PlayerView is a seat's supply, seeds, marker and score area.
type PlayerView struct {
	Seeds          [NumEnergies]int `json:"seeds"`
	Marker         string           `json:"marker"`
	EldridInSupply bool             `json:"eldrid_in_supply"`
	AcolytesSupply int              `json:"acolytes_in_supply"`
	Unravelled     []string         `json:"unravelled"`
	// Forecast is the seat's points if each energy dominated.
	Forecast [NumEnergies]int `json:"forecast"`
}

// StateView is a state as the page draws it.
type StateView struct {
	Step    string       `json:"step"`
	Active  int          `json:"active"`
	ToMove  int          `json:"to_move"`
	Over    bool         `json:"over"`
	World   []WorldSite  `json:"world"`
	Bag     int          `json:"bag"`
	Drawn   []int        `json:"drawn"`
	Players []PlayerView `json:"players"`
	Destiny string       `json:"destiny"`
	Asking  string       `json:"asking"`
	// Resolving are the actions being resolved, the innermost last: what
	// the page highlights while a seat answers their questions.
	Resolving []ResolvingView `json:"resolving"`
	Legal     []string        `json:"legal"`
	// Offers are, at the Action step's menu, the druids that may invoke
	// each action: the page lets a player pick a druid first and then
	// offers what that druid can do.
	Offers []OfferView `json:"offers"`
	// Unavailable are, at the menu, the actions not offered and why
	// (why.go).
	Unavailable []UnavailableView `json:"unavailable"`
	// Question is the step of the action being resolved that asks
	// (the program's op: "invoke", "moveDruid", "moveIn", "lost"...), ""
	// at a step of the turn.
	Question string `json:"question,omitempty"`
	// RefreshesLeft is, in the Refresh step, how many more druids it may
	// refresh (3, 4 with Mani Temple, less those refreshed).
	RefreshesLeft int     `json:"refreshes_left,omitempty"`
	Turn          int     `json:"turn"`
	Winners       []int   `json:"winners"`
	AJ            *AJView `json:"aj,omitempty"`
}

// ResolvingView is an action being resolved: its name, whose it is, the
// druid that invoked it, the site it has chosen or explored, the energy of
// the seed given up.
type ResolvingView struct {
	Action  string `json:"action"`
	Seat    int    `json:"seat"`
	Invoker string `json:"invoker,omitempty"`
	Site    string `json:"site,omitempty"`
	Seed    string `json:"seed,omitempty"`
}

func (s *State) resolving() []ResolvingView {
	out := []ResolvingView{}
	for i := range int(s.depth) {
		f := &s.stack[i]
		r := ResolvingView{Seat: int(f.seat)}
		if int(f.prog) < NumSites {
			r.Action = Sites[f.prog].Name
		} else {
			r.Action = progNames[int(f.prog)-NumSites]
		}
		if f.inv != noDruid && s.count(f.inv) > 0 {
			r.Invoker = druidText(s, f.inv)
		}
		if f.t >= 0 {
			r.Site = s.tileLabel(int(f.t))
		}
		if f.seed >= 0 {
			r.Seed = EnergyNames[f.seed]
		}
		out = append(out, r)
	}
	return out
}

// OfferView is an action of the menu and the druids that may invoke it
// (none for ending the turn, or for an action whose first choice is not a
// druid).
type OfferView struct {
	Move     string   `json:"move"`
	Invokers []string `json:"invokers"`
}

// offers plays each choice of the Action step's menu on a copy and lists
// the druids the action then asks to choose from. Only an action still
// asking, in the same turn and before any draw, is read: what came after
// a draw or another turn would tell the bag's order.
func (s *State) offers() []OfferView {
	out := []OfferView{}
	if s.depth != 0 || s.step != stepAction || s.Over() {
		return out
	}
	var buf, next [128]game.Move
	for _, m := range s.AppendLegal(buf[:0]) {
		o := OfferView{Move: s.MoveText(m), Invokers: []string{}}
		after := *s
		if after.Play(m) == nil && after.depth > 0 && after.turns == s.turns && after.bag == s.bag && after.ToMove() == s.ToMove() {
			for _, d := range after.AppendLegal(next[:0]) {
				if d&^argMask == vDruid {
					o.Invokers = append(o.Invokers, after.MoveText(d))
				}
			}
		}
		out = append(out, o)
	}
	return out
}

// AJView is the solo opponent: his level, his Eldrids (circle and site, ""
// while not in play), his token bag by circle and what he did in his last
// turn, step by step.
type AJView struct {
	Level    string    `json:"level"`
	Eldrids  [3]string `json:"eldrids"`
	Circles  [3]string `json:"circles"`
	Tokens   [8]int    `json:"tokens"`
	LastTurn []string  `json:"last_turn"`
}

func (s *State) ajView() *AJView {
	if s.aj == ajOff {
		return nil
	}
	v := &AJView{Level: AJLevels[s.aj], LastTurn: s.ajSteps()}
	for k := 1; k <= 3; k++ {
		v.Circles[k-1] = CircleNames[ajCircle(k)]
		if s.eld[k] >= 0 {
			v.Eldrids[k-1] = s.tileLabel(int(s.eld[k]))
		}
	}
	for c, n := range s.tokens {
		v.Tokens[c] = int(n)
	}
	return v
}

var tokenWords = [...]string{"active: a free unravel", "supporting: a seed", "inactive: explore again", "dormant: move the explored site"}

// ajSteps says what AJ did in his last turn, a sentence a step.
func (s *State) ajSteps() []string {
	out := []string{}
	for _, ev := range s.ajEvent[:s.ajEvents] {
		a, b := int(ev.a), int(ev.b)
		var line string
		switch ev.kind {
		case evExplore:
			line = "explores " + s.tileLabel(a) + " with his " + CircleNames[ajCircle(b)] + " Eldrid"
		case evMove:
			line = "has no open space: moves his " + CircleNames[ajCircle(a)] + " Eldrid to " + s.tileLabel(b)
		case evArrive:
			line = "his " + CircleNames[ajCircle(a)] + " Eldrid arrives on the haven " + s.tileLabel(b)
		case evUnravel:
			line = "unravels " + s.tileLabel(a) + " giving up " + countWords(b, "seed")
		case evToken:
			line = "draws " + article(CircleNames[a]) + " token, " + tokenWords[b]
		case evSeed:
			line = "gains " + article(EnergyNames[a]) + " seed"
		case evShift:
			line = "moves " + s.tileLabel(a) + " next to the locked " + s.tileLabel(b)
		case evNothing:
			line = "which does nothing now"
		case evMovePlayer:
			line = "moves your druid from " + s.tileLabel(a) + " to " + s.tileLabel(b)
		}
		out = append(out, "AJ "+line)
	}
	return out
}

// article puts "a" or "an" before a word, by its first letter.
func article(word string) string {
	if strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// View returns the state; every viewer sees the same.
func (s *State) View(v game.Viewer) any {
	sv := StateView{Step: stepNames[s.step], Active: int(s.active), ToMove: s.ToMove(), Over: s.Over(),
		World: []WorldSite{}, Drawn: []int{}, Legal: []string{}, Asking: s.asking(), Resolving: s.resolving(),
		Offers: s.offers(), Question: s.question(), Turn: int(s.turns) + 1}
	if s.depth == 0 && s.step == stepRefresh {
		sv.RefreshesLeft = s.refreshLimit(int(s.active)) - int(s.refreshes)
	}
	s.world()
	eachTile(s.inPlay, func(t int) {
		q, r := cellQR(int(s.cell[t]))
		w := WorldSite{ID: s.tileLabel(t), Q: q, R: r, Locked: s.locked>>t&1 != 0, Druids: []DruidsView{}}
		for p := range s.circles() {
			if !s.occupies(p, t) {
				continue
			}
			w.Druids = append(w.Druids, DruidsView{Seat: p, Eldrid: int(s.eld[p]) == t, EldridExhausted: int(s.eld[p]) == t && s.eldEx[p],
				AcolytesRefreshed: int(s.acoR[p][t]), AcolytesExhausted: int(s.acoE[p][t])})
		}
		sv.World = append(sv.World, w)
	})
	for t := range NumTiles {
		if s.loc[t] == locBag {
			sv.Bag++
		}
		if s.loc[t] == locHand {
			sv.Drawn = append(sv.Drawn, tileNumber(t))
		}
	}
	for p := range int(s.players) {
		pv := PlayerView{Marker: "refreshed", EldridInSupply: s.eld[p] < 0, AcolytesSupply: int(s.acoSup[p]), Unravelled: []string{}}
		if s.marker[p] {
			pv.Marker = "exhausted"
		}
		for e := range NumEnergies {
			pv.Seeds[e] = int(s.seeds[p][e])
			pv.Forecast[e] = s.Points(p, e)
		}
		eachTile(s.scoreArea(p), func(t int) { pv.Unravelled = append(pv.Unravelled, s.tileLabel(t)) })
		sv.Players = append(sv.Players, pv)
	}
	sv.AJ = s.ajView()
	if d := s.Destiny(); d.Draw {
		sv.Destiny = "draw"
	} else {
		sv.Destiny = EnergyNames[d.Energy]
	}
	if !s.Over() {
		legal := s.AppendLegal(nil)
		for _, m := range legal {
			sv.Legal = append(sv.Legal, s.MoveText(m))
		}
		sv.Unavailable = s.unavailable(legal)
	} else {
		sv.Unavailable = []UnavailableView{}
		sv.Winners = s.Winners()
	}
	return sv
}

// progNames name the programs that are not a site's.
var progNames = [...]string{"move", "summon", "explore", "unravel", "Awakening Portal", "Flaming Lotus", "Presence of Lagoon", "return to the world"}

// asking says what the seat to decide is deciding: the step, or the action
// being resolved.
func (s *State) asking() string {
	if s.depth == 0 {
		return stepNames[s.step]
	}
	prog := int(s.stack[s.depth-1].prog)
	if prog < NumSites {
		return Sites[prog].Name
	}
	return progNames[prog-NumSites]
}

// question names the step of the action being resolved that asks now:
// its op, "" when no action is being resolved.
func (s *State) question() string {
	if s.depth == 0 {
		return ""
	}
	f := &s.stack[s.depth-1]
	return programs[f.prog][f.pc].code.String()
}

// BesideView is a site next to a space, and where the space lies from
// it ("east", "north-west"...): what names a space for a player.
type BesideView struct {
	Site string `json:"site"`
	Dir  string `json:"dir"`
}

// fromSite names where a space lies from its neighbour in direction k
// (neighbour's order): the opposite of k.
var fromSite = [6]string{"west", "east", "north-west", "south-east", "south-west", "north-east"}

// beside returns the sites next to the space a move names, but the site
// being moved or placed there, in the order of the directions.
func (s *State) beside(m game.Move) []BesideView {
	if m&^argMask != vSpace {
		return nil
	}
	moving := -1
	if s.depth > 0 {
		moving = int(s.stack[s.depth-1].t)
	}
	out := []BesideView{}
	for k := range 6 {
		c := neighbour(int(m&argMask), k)
		if c < 0 {
			continue
		}
		if t := s.tileAt(c); t >= 0 && t != moving {
			out = append(out, BesideView{Site: s.tileLabel(t), Dir: fromSite[k]})
		}
	}
	return out
}

// NoteView is what the log says of a move: who made it, what it answered,
// the tiles it drew from the bag (the chance it set off), whether it ended
// the turn and the game.
type NoteView struct {
	Seat int `json:"seat"`
	// Turn counts the turns from 1: the log's headings.
	Turn     int    `json:"turn"`
	Asking   string `json:"asking"`
	Question string `json:"question,omitempty"`
	// Beside are, for a space, the sites next to it: a player names a
	// space by them.
	Beside   []BesideView `json:"beside,omitempty"`
	Drew     []int        `json:"drew,omitempty"`
	EndsTurn bool         `json:"ends_turn,omitempty"`
	EndsGame bool         `json:"ends_game,omitempty"`
	// AJ is what AJ did in the turn this move led to, step by step.
	AJ []string `json:"aj,omitempty"`
}

// Note returns the move's seat and what it answered, and what playing it
// on a copy shows: the tiles drawn and the turn or game ended.
func (s *State) Note(m game.Move) any {
	note := NoteView{Seat: s.ToMove(), Turn: int(s.turns) + 1, Asking: s.asking(), Question: s.question(), Beside: s.beside(m)}
	after := *s
	if after.Play(m) != nil {
		return note
	}
	for t := range NumTiles {
		if s.loc[t] == locBag && after.loc[t] != locBag {
			note.Drew = append(note.Drew, tileNumber(t))
		}
	}
	note.EndsTurn = after.turns != s.turns
	note.EndsGame = after.Over()
	if s.aj != ajOff && note.EndsTurn {
		note.AJ = after.ajSteps()
	}
	return note
}
