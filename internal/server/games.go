package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/store"
)

type createRequest struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Seats   []seatRequest     `json:"seats"`
	Seed    *uint64           `json:"seed"`
	Time    *timeRequest      `json:"time"`
	// TakeBacks allows take-backs; default true.
	TakeBacks *bool `json:"take_backs"`
}

// choices are what a new game's request chose of its rules, checked.
type choices struct {
	rules   *game.Rules
	players int
	options map[string]string // every option set
	time    game.TimeRule
}

type seatLink struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
	Link  string `json:"link"`
}

func spectateLink(id string) string { return "/game/" + id }

func seatLinkOf(id string, seat int, token string) seatLink {
	return seatLink{Seat: seat, Token: token, Link: spectateLink(id) + "#seat=" + token}
}

// handleCreate makes a game: it checks the request's choices, counts the
// game against the limits, sets the game up with its seats, stores it and
// starts it, and answers with the people's seat links.
func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) error {
	var req createRequest
	if e := s.decodeBody(w, r, &req, false); e != nil {
		return e
	}
	c, e := s.checkChoices(&req)
	if e != nil {
		return e
	}
	botsOnly := !slices.ContainsFunc(req.Seats, func(sr seatRequest) bool { return sr.Kind == kindHuman || sr.Kind == kindOpen })
	admitted, e := s.admitGame(s.clientGroup(r), botsOnly)
	if e != nil {
		s.metrics.refused.WithLabelValues(e.code).Inc()
		return e
	}
	sg, links, e := s.newStoredGame(&req, c)
	if e != nil {
		admitted(nil)
		return e
	}
	// A request that gets as far as a game has a player, whose are the
	// people's seats it makes: they hold every link (docs/players.md).
	s.ensurePlayer(w, r)
	g, e := s.startGame(r.Context(), sg, s.clientGroup(r), botsOnly, admitted)
	if e != nil {
		return e
	}
	for _, l := range links {
		s.ownSeats(r, g.id, l.Seat)
	}
	// Set going under the lock that takes the view: the answer shows the
	// game before any bot's first move.
	g.mu.Lock()
	g.schedule()
	view := g.fullView(-1)
	g.mu.Unlock()
	s.log.Info("game created", "game", g.id, "rules", c.rules.ID, "players", c.players, "client", s.clientAddr(r))
	writeJSON(w, http.StatusCreated, map[string]any{"id": g.id, "spectate": spectateLink(g.id), "seats": links, "game": view})
	return nil
}

// checkChoices checks a new game's rules, number of seats, options and
// time rule.
func (s *Server) checkChoices(req *createRequest) (choices, *apiError) {
	rules := s.cfg.Games.Default()
	if req.Game != "" {
		var err error
		if rules, err = s.cfg.Games.Get(req.Game); err != nil {
			return choices{}, errorf(http.StatusBadRequest, "bad_request", "%v", err)
		}
	}
	n := len(req.Seats)
	if n < rules.MinPlayers || n > rules.MaxPlayers {
		return choices{}, errorf(http.StatusBadRequest, "bad_request", "%d seats; a game of %s has %d to %d", n, rules.Name, rules.MinPlayers, rules.MaxPlayers)
	}
	opts, err := rules.CheckOptions(req.Options)
	if err != nil {
		return choices{}, errorf(http.StatusBadRequest, "bad_request", "%s: %v", rules.Name, err)
	}
	// No time asked for is the game's default for the table (Laguna's
	// sand timer); {"kind": "none"} is none.
	var tr game.TimeRule
	if req.Time == nil {
		tr, err = rules.TimeFor(n, opts)
	} else {
		tr, err = rules.CheckTime(req.Time.rule())
	}
	if err != nil {
		return choices{}, errorf(http.StatusBadRequest, "bad_request", "%v", err)
	}
	return choices{rules: rules, players: n, options: opts, time: tr}, nil
}

// newStoredGame sets a new game up as the store keeps it: its id and seed,
// its seats, and the clocks and summary of its first state. links are the
// seat links of the people named in the request.
func (s *Server) newStoredGame(req *createRequest, c choices) (_ *store.Game, links []seatLink, _ *apiError) {
	now := time.Now().UTC()
	sg := &store.Game{
		ID: newGameID(), Created: now, Updated: now, Game: c.rules.ID, Options: c.options, Players: c.players, Seed: rand.Uint64(),
		Time: storeTime(c.time), TakeBacksOff: req.TakeBacks != nil && !*req.TakeBacks,
	}
	if req.Seed != nil {
		sg.Seed, sg.SeedChosen = *req.Seed, true
	}
	setup := game.Setup{Players: c.players, Options: c.options, Seed: sg.Seed}
	first, err := c.rules.NewGame(setup)
	if err != nil {
		return nil, nil, errorf(http.StatusBadRequest, "bad_request", "%v", err)
	}
	links, e := seatGame(sg, req.Seats, c.rules.HouseSeats(setup), s.levels(c.rules))
	if e != nil {
		return nil, nil, e
	}
	sg.Clocks = initialClocks(sg.Time, first)
	standing := first.Standing()
	sg.Summary = store.Summary{Phase: standing.Phase, ToMove: first.ToMove(), Scores: standing.Scores, Winners: standing.Winners}
	return sg, links, nil
}

// startGame stores a new game and makes it the server's: its owner is
// loaded and kept among the games, for the caller to set going. It ends the
// game's admission (admitGame's done) either way.
func (s *Server) startGame(ctx context.Context, sg *store.Game, creator string, botsOnly bool, admitted func(register func())) (*match, *apiError) {
	var epoch int64
	var asked time.Time
	if s.node != nil {
		// The node that makes a game owns it: the lease first, so that
		// the game is never in the store without an owner but its
		// creator's death.
		var err error
		asked = time.Now()
		if epoch, err = s.node.acquire(ctx, sg.ID); err != nil {
			admitted(nil)
			s.repeats.Error("taking a new game's lease", "game", sg.ID, "err", err)
			return nil, errorf(http.StatusInternalServerError, "internal_error", "the game could not be stored")
		}
		ctx = store.WithEpoch(ctx, sg.ID, s.node.name, epoch)
	}
	if err := s.store.Create(ctx, sg); err != nil {
		admitted(nil)
		s.repeats.Error("storing a new game", "err", err)
		return nil, errorf(http.StatusInternalServerError, "internal_error", "the game could not be stored")
	}
	g, err := s.loadGame(sg)
	if err != nil {
		admitted(nil)
		s.log.Error("a new game", "game", sg.ID, "err", err)
		return nil, errorf(http.StatusInternalServerError, "internal_error", "the game could not be set up")
	}
	g.creator, g.botsOnly = creator, botsOnly
	g.epoch, g.renewed = epoch, asked
	admitted(func() {
		s.mu.Lock()
		if s.closing {
			g.closed = true
		}
		s.games[g.id] = g
		s.mu.Unlock()
	})
	if s.node != nil {
		// The other nodes count it now rather than at the next
		// heartbeat: their limits are passed by less (docs/cluster.md).
		s.node.conn.Beat()
	}
	return g, nil
}

// handleGame answers with the game as the request's seat sees it, at the
// version ?at= asks for.
func (s *Server) handleGame(w http.ResponseWriter, r *http.Request, g *match) error {
	you, e := viewer(r, g)
	if e != nil {
		return e
	}
	at, e := versionParam(r, g)
	if e != nil {
		return e
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(g.viewJSON(at, you))
	return nil
}

// handleState answers with the state at a version in the game's notation.
func (s *Server) handleState(w http.ResponseWriter, r *http.Request, g *match) error {
	at, e := versionParam(r, g)
	if e != nil {
		return e
	}
	g.mu.Lock()
	if at < 0 {
		at = len(g.moves)
	}
	// A notation that is not public holds what seats may not see (hands,
	// a bag's order, the generator): it is shown once nothing is secret.
	secret := !g.rules.PublicNotation && g.cur.Secret()
	var past rerun
	if !secret {
		past = g.replayTo(at)
	}
	g.mu.Unlock()
	if secret {
		return errSeedSecret
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, past.position().String()+"\n")
	return nil
}

// handleRecord answers with the game's record, once its seed decides
// nothing secret.
func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request, g *match) error {
	g.mu.Lock()
	secret := g.cur.Secret()
	rec := game.Record{Game: g.rules.ID, Players: g.setup.Players, Options: g.setup.Options, Seed: g.setup.Seed, Moves: make([]string, len(g.moves)),
		Reseeds: slices.Clone(g.reseeds)}
	for i, mi := range g.moves {
		rec.Moves[i] = mi.text
	}
	g.mu.Unlock()
	if secret {
		return errSeedSecret
	}
	b, err := json.Marshal(rec)
	if err != nil {
		s.log.Error("encoding a record", "game", g.id, "err", err)
		return errorf(http.StatusInternalServerError, "internal_error", "the record could not be written")
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="lagoon-%s.json"`, g.id))
	w.Write(b)
	return nil
}

// errSeedSecret withholds what holds the seed while it still decides what
// some seat cannot see.
var errSeedSecret = errorf(http.StatusForbidden, "seed_secret", "the record is withheld while its seed still decides something a seat cannot see, such as a layout or a deck still to come")
