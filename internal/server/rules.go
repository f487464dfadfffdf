package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// handleRules lists the games, their options, time rules and bot levels.
func (s *Server) handleRules(w http.ResponseWriter, r *http.Request) {
	games := []rulesView{}
	for _, rules := range s.cfg.Games.All() {
		defaults, _ := rules.CheckOptions(nil)
		tr, _ := rules.TimeFor(usualTable(rules), defaults) // checked by the registry
		v := rulesView{ID: rules.ID, Name: rules.Name, MinPlayers: rules.MinPlayers, MaxPlayers: rules.MaxPlayers,
			Options: rules.Options, Times: rules.Times, DefaultTime: timeRequestOf(tr), Levels: s.levels(rules)}
		if v.Options == nil {
			v.Options = []game.Option{}
		}
		if v.Times == nil {
			v.Times = []game.TimeKind{}
		}
		games = append(games, v)
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games})
}

// usualTable is the player count the rules' summary speaks of: two, or
// the fewest the game seats if that is more.
func usualTable(r *game.Rules) int { return min(max(2, r.MinPlayers), r.MaxPlayers) }

// timeRequest is a time rule as a new game asks for it.
type timeRequest struct {
	Kind        string `json:"kind"`
	InitialMS   int64  `json:"initial_ms"`
	IncrementMS int64  `json:"increment_ms"`
	TurnMS      int64  `json:"turn_ms"`
	Carry       bool   `json:"carry"`
}

func (t *timeRequest) rule() game.TimeRule {
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	return game.TimeRule{Kind: game.TimeKind(t.Kind), Initial: ms(t.InitialMS), Increment: ms(t.IncrementMS), Turn: ms(t.TurnMS), Carry: t.Carry}
}

// timeRequestOf writes a time rule as a request gives it, nil for none.
func timeRequestOf(t game.TimeRule) *timeRequest {
	if t.Kind == game.NoTime || t.Kind == "" {
		return nil
	}
	return &timeRequest{Kind: string(t.Kind), InitialMS: t.Initial.Milliseconds(), IncrementMS: t.Increment.Milliseconds(),
		TurnMS: t.Turn.Milliseconds(), Carry: t.Carry}
}

// handlePreview sets a game up from a table's choices and shows what they
// give, or says what is wrong with them.
func (s *Server) handlePreview(w http.ResponseWriter, r *http.Request) error {
	rules := s.cfg.Games.Lookup(r.PathValue("game"))
	if rules == nil {
		return errorf(http.StatusNotFound, "not_found", "no game %q; the games are %s", r.PathValue("game"), strings.Join(s.cfg.Games.IDs(), ", "))
	}
	var req struct {
		Players int               `json:"players"`
		Options map[string]string `json:"options"`
	}
	if e := s.decodeBody(w, r, &req, true); e != nil {
		return e
	}
	if req.Players == 0 {
		req.Players = rules.MinPlayers
	}
	opts, err := rules.CheckOptions(req.Options)
	if err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "%s: %v", rules.Name, err)
	}
	st, err := rules.NewGame(game.Setup{Players: req.Players, Options: opts})
	if err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "%v", err)
	}
	head := stateHead{ToMove: st.ToMove(), Over: st.Over(), Standing: makeStanding(st.Standing())}
	state := withField(mustJSON(head), "view", mustJSON(st.View(game.Viewer{Seat: game.NoSeat})))
	house := rules.HouseSeats(game.Setup{Players: req.Players, Options: opts})
	if house == nil {
		house = []game.HouseSeat{}
	}
	tr, err := rules.TimeFor(req.Players, opts)
	if err != nil {
		s.log.Error("a game's default time is refused by its own rules", "game", rules.ID, "err", err)
	}
	writeJSON(w, http.StatusOK, map[string]any{"options": opts, "house": house, "time": timeRequestOf(tr), "table": st.Table(), "state": json.RawMessage(state)})
	return nil
}
