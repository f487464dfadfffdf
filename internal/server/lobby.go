package server

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/lagoon-games/lagoon/internal/store"
)

// lobbyListSize bounds each of the lobby's lists.
const lobbyListSize = 50

// lobbyIdleAfter is how long a game waits for a person's move before the
// lobby lists it as idle rather than in progress: a game left by its
// person, against bots, is nothing to watch (issue 47), but its players
// still find it among their games.
const lobbyIdleAfter = 10 * time.Minute

// idle says whether a game in progress has waited lobbyIdleAfter for a
// person's move at now.
func (v *summaryView) idle(now time.Time) bool {
	person := v.ToMove >= 0 && v.ToMove < len(v.Seats) && v.Seats[v.ToMove].Kind == kindHuman
	return person && now.Sub(v.Updated) >= lobbyIdleAfter
}

// handleLobby lists the games with open seats, those being played, those
// idle (waiting long for a person's move) and those that ended last,
// newest first.
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) error {
	open, playing, idle := []summaryView{}, []summaryView{}, []summaryView{}
	current, e := s.inProgress(r)
	if e != nil {
		return e
	}
	now := time.Now()
	for _, v := range current {
		switch {
		case v.Over:
		case len(v.OpenSeats) > 0:
			open = append(open, v)
		case v.idle(now):
			idle = append(idle, v)
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
	slices.SortFunc(idle, newest)
	open, playing, idle = open[:min(len(open), lobbyListSize)], playing[:min(len(playing), lobbyListSize)], idle[:min(len(idle), lobbyListSize)]
	stored, bad, err := s.store.Finished(r.Context(), lobbyListSize)
	for _, d := range bad {
		s.markDamaged(d.ID, d.Err)
	}
	if err != nil {
		s.repeats.Error("reading finished games", "err", err)
		return errorf(http.StatusInternalServerError, "internal_error", "the finished games could not be read")
	}
	finished := []summaryView{}
	for _, sg := range stored {
		finished = append(finished, s.storedView(sg))
	}
	writeJSON(w, http.StatusOK, map[string]any{"open": open, "playing": playing, "idle": idle, "finished": finished})
	return nil
}

// inProgress returns the lobby's lines of the games in progress: those in
// memory alone, or in a cluster, those of every node, read from the store,
// the ones this node owns as they are in memory.
func (s *Server) inProgress(r *http.Request) ([]summaryView, *apiError) {
	var out []summaryView
	mine := map[string]bool{}
	for _, g := range s.active() {
		out = append(out, *g.summary.Load())
		mine[g.id] = true
	}
	if s.node == nil {
		return out, nil
	}
	stored, bad, err := s.node.leases.Playing(r.Context(), 2*lobbyListSize)
	for _, d := range bad {
		s.markDamaged(d.ID, d.Err)
	}
	if err != nil {
		s.repeats.Error("reading the games in progress", "err", err)
		return nil, errorf(http.StatusInternalServerError, "internal_error", "the games in progress could not be read")
	}
	for _, sg := range stored {
		if !mine[sg.ID] {
			out = append(out, s.storedView(sg))
		}
	}
	return out, nil
}

// storedView is the lobby's line for a game from the store, finished or
// (in a cluster) another node's: the game is not replayed for it.
func (s *Server) storedView(sg *store.Game) summaryView {
	return s.lineView(store.Line(sg))
}
