package server

import (
	"net/http"
	"slices"
	"strings"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/store"
)

// lobbyListSize bounds each of the lobby's lists.
const lobbyListSize = 50

// handleLobby lists the games with open seats, those being played and
// those that ended last, newest first.
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) error {
	open, playing := []summaryView{}, []summaryView{}
	for _, g := range s.active() {
		v := *g.summary.Load()
		switch {
		case v.Over:
		case len(v.OpenSeats) > 0:
			open = append(open, v)
		default:
			playing = append(playing, v)
		}
	}
	newest := func(a, b summaryView) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	}
	slices.SortFunc(open, newest)
	slices.SortFunc(playing, newest)
	open, playing = open[:min(len(open), lobbyListSize)], playing[:min(len(playing), lobbyListSize)]
	stored, bad, err := s.store.Finished(r.Context(), lobbyListSize)
	for _, d := range bad {
		s.markDamaged(d.ID, d.Err)
	}
	if err != nil {
		s.log.Error("reading finished games", "err", err)
		return errorf(http.StatusInternalServerError, "internal_error", "the finished games could not be read")
	}
	finished := []summaryView{}
	for _, sg := range stored {
		finished = append(finished, s.finishedView(sg))
	}
	writeJSON(w, http.StatusOK, map[string]any{"open": open, "playing": playing, "finished": finished})
	return nil
}

// finishedView is the lobby's line for a finished game, from the store:
// the game is not replayed for it.
func (s *Server) finishedView(sg *store.Game) summaryView {
	v := summaryView{
		ID: sg.ID, Game: sg.Game, GameName: sg.Game, Options: sg.Options, Players: sg.Players, SeedChosen: sg.SeedChosen, OpenSeats: []int{},
		Version: sg.Version, Phase: sg.Summary.Phase, ToMove: game.NoSeat, Over: true, Scores: sg.Summary.Scores,
		Winners: sg.Summary.Winners, Created: sg.Created, Updated: sg.Updated,
	}
	if rules := s.cfg.Games.Lookup(sg.Game); rules != nil {
		v.GameName = rules.Name
	}
	for i, st := range sg.Seats {
		v.Seats = append(v.Seats, summarySeatView{Seat: i, Name: st.Name, Kind: st.Kind, Level: st.Level, Joined: st.Joined || st.Kind == kindBot})
	}
	return v
}
