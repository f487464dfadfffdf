package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/lagoon-games/lagoon/internal/corr"
	"github.com/lagoon-games/lagoon/internal/players"
)

// This file wires players' vacations (internal/corr): POST and DELETE
// /api/me/vacation, and the vacations a correspondence game's clocks
// read. A vacation stops the clocks of every correspondence game of the
// player: the deadline of a seat they hold moves by the time they are
// away within its turn (corr.Deadline).

// vacationView answers a vacation's request.
type vacationView struct {
	// Until is the end of the vacation under way, nil for none.
	Until *time.Time `json:"until"`
	// UsedDays and LeftDays are this calendar year's, in days.
	UsedDays float64 `json:"used_days"`
	LeftDays float64 `json:"left_days"`
}

// handleVacation starts (POST, {"days": n}) or ends early (DELETE) the
// request's player's vacation.
func (s *Server) handleVacation(w http.ResponseWriter, r *http.Request) error {
	if e := s.playerGuard.checkOrigin(r); e != nil {
		return e
	}
	var req struct {
		Days int `json:"days"`
	}
	if r.Method == http.MethodPost {
		if e := s.decodeBody(w, r, &req, false); e != nil {
			return e
		}
	}
	me, ok := players.FromContext(r.Context()).Player()
	if !ok {
		return errorf(http.StatusUnauthorized, "no_player", "a vacation is a player's: this request has none")
	}
	now := time.Now().UTC()
	yearStart := time.Date(now.Year(), time.January, 1, 0, 0, 0, 0, time.UTC)
	vs, err := s.store.Vacations(r.Context(), me.ID, yearStart)
	if err != nil {
		s.log.Error("reading vacations", "player", me.ID, "err", err)
		return errPlayersUnavailable
	}
	var v corr.Vacation
	if r.Method == http.MethodPost {
		v, err = corr.Plan(vs, me.ID, now, req.Days)
	} else {
		v, err = corr.Cut(vs, now)
	}
	if err != nil {
		code := "bad_vacation"
		if errors.Is(err, corr.ErrAway) || errors.Is(err, corr.ErrNotAway) {
			return errorf(http.StatusConflict, code, "%v", err)
		}
		return errorf(http.StatusBadRequest, code, "%v", err)
	}
	if err := s.store.SetVacation(r.Context(), v); err != nil {
		s.log.Error("storing a vacation", "player", me.ID, "err", err)
		return errPlayersUnavailable
	}
	s.vacationChanged(r.Context(), me.ID)
	vs, _ = s.store.Vacations(r.Context(), me.ID, yearStart)
	out := vacationView{}
	if cur, ok := corr.Current(vs, now); ok {
		until := cur.End
		out.Until = &until
	}
	used := corr.Used(vs, now.Year())
	out.UsedDays, out.LeftDays = inDays(used), inDays(max(0, corr.MaxVacation-used))
	writeJSON(w, http.StatusOK, out)
	return nil
}

// inDays returns d in days, to the hundredth.
func inDays(d time.Duration) float64 { return float64(d.Milliseconds()/864000) / 100 }

// vacationChanged has the correspondence games this node keeps of player
// read their seats' vacations again. A game another node of a cluster
// keeps reads them when its time would run out (match.timeout), so no
// seat's time is taken while its player is away.
func (s *Server) vacationChanged(ctx context.Context, player string) {
	owned, err := s.store.OwnedSeats(ctx, player)
	if err != nil {
		s.log.Error("reading a player's seats after a vacation", "player", player, "err", err)
		return
	}
	for _, o := range owned {
		s.mu.Lock()
		g := s.games[o.Game]
		s.mu.Unlock()
		if g == nil {
			continue
		}
		g.mu.Lock()
		if !g.closed && g.byPost() && !g.cur.Over() {
			g.readAway(ctx)
			g.broadcastSeats(time.Now())
			g.schedule()
		}
		g.mu.Unlock()
	}
}

// readAway reads the vacations of the players holding g's seats, those
// that end after its turn began: with g locked.
func (g *match) readAway(ctx context.Context) {
	away, err := g.s.store.SeatVacations(ctx, g.id, g.turnStart)
	if err != nil {
		// Read again at the deadline, before the time is taken as run out.
		g.s.log.Error("reading a game's vacations", "game", g.id, "err", err)
		return
	}
	g.away = away
}

// awayUntil returns when the player of seat p comes back from a vacation
// under way at now, nil if they are not away.
func (g *match) awayUntil(p int, now time.Time) *time.Time {
	if v, ok := corr.Current(g.away[p], now); ok {
		until := v.End.UTC()
		return &until
	}
	return nil
}
