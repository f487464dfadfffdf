package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// maxNameRunes bounds a seat's name.
const maxNameRunes = 32

type seatRequest struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Level string `json:"level"`
}

// seatGame gives a new game its seats as the request asks for them: the
// seats the rules play (house) whatever the request says of them, people's
// seats, open seats and bots. It returns the links of the people's seats.
func seatGame(sg *store.Game, seats []seatRequest, house []game.HouseSeat, levels []string) ([]seatLink, *apiError) {
	links := []seatLink{}
	for i, sr := range seats {
		check := checkPersonName
		if sr.Kind == kindBot {
			check = checkName
		}
		name, e := check(sr.Name)
		if e != nil {
			return nil, e
		}
		if k := slices.IndexFunc(house, func(h game.HouseSeat) bool { return h.Seat == i }); k >= 0 {
			// The rules play it, whatever the request says of it (a form
			// that offers a seat a bot or a person gets the rules' player):
			// named by them and never offered.
			sg.Seats = append(sg.Seats, store.Seat{Kind: kindHouse, Name: house[k].Name, Joined: true})
			continue
		}
		seat, e := newSeat(i, sr, name, levels)
		if e != nil {
			return nil, e
		}
		// An open seat is taken through join, which makes its token; a
		// token made now could never act for it.
		if seat.Kind == kindHuman {
			token := newToken()
			seat.TokenHash = hashToken(token)
			links = append(links, seatLinkOf(sg.ID, i, token))
		}
		sg.Seats = append(sg.Seats, seat)
	}
	return links, nil
}

// newSeat checks seat i of a new game's request, and makes it with name or
// the name it goes by without one.
func newSeat(i int, sr seatRequest, name string, levels []string) (store.Seat, *apiError) {
	seat := store.Seat{Kind: sr.Kind, Name: name}
	switch sr.Kind {
	case kindHuman, kindOpen:
		if sr.Level != "" {
			return seat, errorf(http.StatusBadRequest, "bad_request", "seat %d: only bots have a level", i)
		}
		if seat.Name == "" {
			seat.Name = fmt.Sprintf("Player %d", i+1)
		}
	case kindBot:
		if !slices.Contains(levels, sr.Level) {
			return seat, errorf(http.StatusBadRequest, "bad_request", "seat %d: bot level %q is not one of %s", i, sr.Level, strings.Join(levels, ", "))
		}
		seat.Level, seat.Joined = sr.Level, true
		if seat.Name == "" {
			seat.Name = "Bot (" + sr.Level + ")"
		}
	case kindHouse:
		return seat, errorf(http.StatusBadRequest, "bad_request", "seat %d: the rules play no seat there in this game; a seat is human, open or bot", i)
	default:
		return seat, errorf(http.StatusBadRequest, "bad_request", "seat %d: kind %q is not human, open or bot", i, sr.Kind)
	}
	return seat, nil
}

// checkName returns a seat's name cleaned of control characters and of
// the invisible characters that change the direction or shape of the text
// around them (a right-to-left override would turn the names after it
// round on every page that shows them), line and paragraph separators
// made spaces, and trimmed; or an error for a name too long, or one that
// was given and has nothing left that shows.
func checkName(name string) (string, *apiError) {
	given := name != ""
	name = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r) || r == utf8.RuneError || (unicode.Is(unicode.Cf, r) && r != zeroWidthJoiner):
			return -1
		case unicode.In(r, unicode.Zl, unicode.Zp):
			return ' '
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > maxNameRunes {
		return "", errorf(http.StatusBadRequest, "bad_request", "the name %q is longer than %d characters", name, maxNameRunes)
	}
	if given && !strings.ContainsFunc(name, players.Visible) {
		return "", errorf(http.StatusBadRequest, "bad_request", "the name %q has nothing that shows", name)
	}
	if players.StackedMarks(name) {
		return "", errorf(http.StatusBadRequest, "bad_request", "the name %q has a character with more than %d marks stacked on it", name, players.MaxStackedMarks)
	}
	return name, nil
}

// checkPersonName is checkName for a name a person gives themselves, which
// may not be one a seat of the rules or a bot carries: those end in a word
// in brackets ("AJ (Legend)", "Bot (medium)", "Ann (bot)" for a seat left
// to a bot), so a person's may not, nor in anything drawn like it
// ("Ann （bot）", "Bot ❨max❩", a mark after the bracket: players.EndsInBrackets).
func checkPersonName(name string) (string, *apiError) {
	name, e := checkName(name)
	if e == nil && players.EndsInBrackets(name) {
		return "", errorf(http.StatusBadRequest, "bad_request", "the name %q ends in brackets, as the names of bots and of the rules' own seats do", name)
	}
	return name, e
}

// zeroWidthJoiner is the one format character a name keeps: emoji
// sequences (a family, a flag of a profession) are made with it.
const zeroWidthJoiner = '\u200d'

// handleJoin joins a seat: with a seat token, the person's own seat (which
// may rename it); without, the open seat the request names, whose token
// the answer gives.
func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request, g *match) error {
	var req struct {
		Seat *int   `json:"seat"`
		Name string `json:"name"`
	}
	if e := s.decodeBody(w, r, &req, true); e != nil {
		return e
	}
	name, e := checkPersonName(req.Name)
	if e != nil {
		return e
	}
	seat, e := viewer(r, g)
	if e != nil {
		return e
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return errShuttingDown
	}
	if seat >= 0 {
		if req.Seat != nil && *req.Seat != seat {
			return errorf(http.StatusForbidden, "bad_token", "the token is seat %d's, not seat %d's", seat, *req.Seat)
		}
		if e := g.join(r.Context(), seat, name); e != nil {
			return e
		}
		s.ownSeats(r, g.id, seat)
		writeJSON(w, http.StatusOK, map[string]any{"seat": seat, "game": g.fullView(seat)})
		return nil
	}
	link, e := g.takeOpenSeat(r.Context(), req.Seat, name)
	if e != nil {
		return e
	}
	s.ownSeats(r, g.id, link.Seat)
	writeJSON(w, http.StatusOK, map[string]any{"seat": link.Seat, "token": link.Token, "link": link.Link, "game": g.fullView(link.Seat)})
	return nil
}

// takeOpenSeat gives the open seat asked for to a person, named name if
// not "", and returns its link. g.mu is held.
func (g *match) takeOpenSeat(ctx context.Context, asked *int, name string) (seatLink, *apiError) {
	if asked == nil || *asked < 0 || *asked >= len(g.seats) {
		return seatLink{}, errorf(http.StatusBadRequest, "bad_request", "join needs the \"seat\" to take, 0 to %d, or a seat token", len(g.seats)-1)
	}
	seat := *asked
	if g.seats[seat].Kind != kindOpen || g.cur.Over() {
		return seatLink{}, errorf(http.StatusConflict, "seat_taken", "seat %d is not open", seat)
	}
	token := newToken()
	seats := slices.Clone(g.seats)
	seats[seat] = store.Seat{Kind: kindHuman, Name: seats[seat].Name, TokenHash: hashToken(token), Joined: true}
	if name != "" {
		seats[seat].Name = name
	}
	if e := g.setSeats(ctx, seats); e != nil {
		return seatLink{}, e
	}
	return seatLinkOf(g.id, seat, token), nil
}

// handleLeave leaves the request's seat to a bot of the level it asks for.
func (s *Server) handleLeave(w http.ResponseWriter, r *http.Request, g *match) error {
	seat, e := seatFor(r, g)
	if e != nil {
		return e
	}
	var req struct {
		Level string `json:"level"`
	}
	if e := s.decodeBody(w, r, &req, true); e != nil {
		return e
	}
	if req.Level == "" {
		req.Level = s.cfg.StandInLevel
	}
	if levels := s.levels(g.rules); !slices.Contains(levels, req.Level) {
		return errorf(http.StatusBadRequest, "bad_request", "bot level %q is not one of %s", req.Level, strings.Join(levels, ", "))
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return errShuttingDown
	}
	if g.cur.Over() {
		return errGameOver
	}
	if g.seats[seat].Kind != kindHuman {
		return errorf(http.StatusForbidden, "bad_token", "seat %d has been left already", seat)
	}
	seats := slices.Clone(g.seats)
	seats[seat] = store.Seat{Kind: kindBot, Name: seats[seat].Name + " (bot)", Level: req.Level, Joined: true}
	if e := g.setSeats(r.Context(), seats); e != nil {
		return e
	}
	if p := g.pending; p != nil && (p.Seat == seat || slices.Contains(p.Waiting, seat) || slices.Contains(p.Accepted, seat)) {
		g.endTakeBack("left", seat)
	}
	s.log.Info("seat left to a bot", "game", g.id, "seat", seat, "level", req.Level)
	writeJSON(w, http.StatusOK, g.fullView(-1))
	return nil
}
