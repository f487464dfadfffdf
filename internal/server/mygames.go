package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

// This file is "my games" (docs/players.md): GET /api/me/games, a player's
// games, their turn first, in pages of ended games, and GET /api/me/ws,
// the same list sent again whenever it changes.

// myGamesEnded is how many ended games a page of GET /api/me/games lists.
const myGamesEnded = 50

// myGamesEvery is how often GET /api/me/ws reads its list again without
// being told of a change, and sends a heartbeat: the games of another
// node in a cluster change without a mark here, and a connection silent
// for longer may be taken for dead by the page or a proxy.
const myGamesEvery = 15 * time.Second

// myGameView is a line of GET /api/me/games: the lobby's line of the game
// and what it is to the player.
type myGameView struct {
	summaryView
	// YourSeats are the seats the player holds; YourTurn says one of them,
	// a person's, is to move; Ended says the game is over or was given up.
	YourSeats []int `json:"your_seats"`
	YourTurn  bool  `json:"your_turn"`
	Ended     bool  `json:"ended"`
}

// myGamesView is GET /api/me/games's answer. Waiting counts the games of
// Games where it is the player's turn, on a first page (they are all on
// it); More is the cursor of the next page of ended games, empty after
// the last.
type myGamesView struct {
	Player  *meView      `json:"player"`
	Games   []myGameView `json:"games"`
	Waiting int          `json:"waiting"`
	More    string       `json:"more,omitempty"`
}

// lineView is the lobby's line for a game's line in the store.
func (s *Server) lineView(l store.GameLine) summaryView {
	v := summaryView{
		ID: l.ID, Game: l.Game, GameName: l.Game, Options: l.Options, Players: l.Players, SeedChosen: l.SeedChosen, OpenSeats: []int{},
		Version: l.Version, Phase: l.Summary.Phase, ToMove: game.NoSeat, Over: l.Over, Scores: l.Summary.Scores,
		Winners: l.Summary.Winners, Created: l.Created, Updated: l.Updated,
	}
	if !l.Over {
		v.ToMove = l.Summary.ToMove
	}
	if rules := s.cfg.Games.Lookup(l.Game); rules != nil {
		v.GameName = rules.Name
	}
	for i, st := range l.Seats {
		v.Seats = append(v.Seats, summarySeatView{Seat: i, Name: st.Name, Kind: st.Kind, Level: st.Level, Joined: st.Joined || st.Kind == kindBot})
		if st.Kind == kindOpen {
			v.OpenSeats = append(v.OpenSeats, i)
		}
	}
	return v
}

// myGames reads player p's games: on the first page (before nil) those
// where it is their turn, then the others in progress, newest first,
// then the ended ones, newest first, a page of myGamesEnded after the
// cursor before. A game this node plays is as it is in memory; another
// node's as the store last heard of it, at its last move.
func (s *Server) myGames(ctx context.Context, p players.Player, before *store.Cursor) (myGamesView, error) {
	out := myGamesView{Player: &meView{ID: p.ID, Name: p.Name, Guest: p.Guest}, Games: []myGameView{}}
	playing, ended, bad, err := s.store.PlayerGames(ctx, p.ID, myGamesEnded+1, before)
	for _, d := range bad {
		s.markDamaged(d.ID, d.Err)
	}
	if err != nil {
		return out, err
	}
	for _, pg := range playing {
		v := s.lineView(pg.Line)
		s.mu.Lock()
		g := s.games[pg.Line.ID]
		s.mu.Unlock()
		if g != nil {
			v = *g.summary.Load()
		}
		line := myGameView{summaryView: v, YourSeats: pg.Seats, Ended: v.Over}
		line.YourTurn = !v.Over && slices.Contains(pg.Seats, v.ToMove) && v.ToMove < len(v.Seats) && v.Seats[v.ToMove].Kind == kindHuman
		if line.YourTurn {
			out.Waiting++
		}
		out.Games = append(out.Games, line)
	}
	// Their turn first; the order of the store (newest first) within.
	slices.SortStableFunc(out.Games, func(a, b myGameView) int {
		switch {
		case a.YourTurn == b.YourTurn:
			return 0
		case a.YourTurn:
			return -1
		}
		return 1
	})
	if len(ended) > myGamesEnded {
		last := ended[myGamesEnded-1].Line
		ended, out.More = ended[:myGamesEnded], formatCursor(store.Cursor{Updated: last.Updated, Game: last.ID})
	}
	for _, pg := range ended {
		out.Games = append(out.Games, myGameView{summaryView: s.lineView(pg.Line), YourSeats: pg.Seats, Ended: true})
	}
	return out, nil
}

// formatCursor writes a cursor as GET /api/me/games's more and before
// carry it: the time in milliseconds, a dot, the game's id.
func formatCursor(c store.Cursor) string {
	return strconv.FormatInt(c.Updated.UnixMilli(), 10) + "." + c.Game
}

// parseCursor reads a cursor that formatCursor wrote.
func parseCursor(text string) (store.Cursor, error) {
	ms, id, ok := strings.Cut(text, ".")
	if !ok {
		return store.Cursor{}, errors.New("no dot between the time and the game")
	}
	at, err := strconv.ParseInt(ms, 10, 64)
	if err != nil || at < 0 || strconv.FormatInt(at, 10) != ms {
		return store.Cursor{}, fmt.Errorf("the time %q is not milliseconds", ms)
	}
	if !validID(id) {
		return store.Cursor{}, fmt.Errorf("%q is not a game's id", id)
	}
	return store.Cursor{Updated: time.UnixMilli(at).UTC(), Game: id}, nil
}

// validID says id has the form of a game's id.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// etag is the entity tag of an answer's body.
func etag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// handleMyGames lists the request's player's games (myGames), a page of
// ended ones after the cursor before if asked; a request without a player
// has none, and makes none. A page the client has (If-None-Match) is
// answered 304, so that a page that asks again costs no body.
func (s *Server) handleMyGames(w http.ResponseWriter, r *http.Request) error {
	var before *store.Cursor
	if text := r.URL.Query().Get("before"); text != "" {
		c, err := parseCursor(text)
		if err != nil {
			return errorf(http.StatusBadRequest, "bad_request", "before: %v (give the more of the page before)", err)
		}
		before = &c
	}
	p, ok := players.FromContext(r.Context()).Player()
	if !ok {
		writeJSON(w, http.StatusOK, myGamesView{Games: []myGameView{}})
		return nil
	}
	out, err := s.myGames(r.Context(), p, before)
	if err != nil {
		s.log.Error("reading a player's games", "player", p.ID, "err", err)
		return errorf(http.StatusInternalServerError, "internal_error", "the player's games could not be read")
	}
	body := mustJSON(out)
	tag := etag(body)
	w.Header().Set("ETag", tag)
	for _, t := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if strings.TrimSpace(t) == tag {
			w.WriteHeader(http.StatusNotModified)
			return nil
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
	return nil
}

// myGamesMessage is what GET /api/me/ws sends: the first page of the
// player's games ("games") whenever it changed, or a heartbeat.
type myGamesMessage struct {
	Type string `json:"type"`
	*myGamesView
}

// handleMyGamesSocket sends the request's player their games' first page
// at once and again whenever it changes: a game of theirs changes on this
// node (a move, a seat, its end), or a seat becomes theirs here; without
// a mark it reads the list again every myGamesEvery (the games other
// nodes play). It reads nothing from the client but its close.
func (s *Server) handleMyGamesSocket(w http.ResponseWriter, r *http.Request) error {
	if !sameOrigin(r) {
		return errorf(http.StatusForbidden, "cross_origin", "WebSocket connections from other sites are not accepted")
	}
	p, ok := players.FromContext(r.Context()).Player()
	if !ok {
		return errorf(http.StatusUnauthorized, "no_player", "the request has no player (GET /api/me makes one)")
	}
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.log.Debug("websocket upgrade refused", "path", r.URL.Path, "err", err)
		return nil
	}
	ctx := ws.CloseRead(context.Background())
	tick := time.NewTicker(myGamesEvery)
	defer tick.Stop()
	send := func(m myGamesMessage) bool {
		wctx, cancel := context.WithTimeout(ctx, writeTimeout)
		defer cancel()
		return ws.Write(wctx, websocket.MessageText, mustJSON(m)) == nil
	}
	// The watch of the games last sent is made before the list is read
	// again, so that a change while it is read is not lost.
	keys := []string{players.PlayerKey(p.ID)}
	changed, stop := s.changes.Watch(keys...)
	defer func() { stop() }()
	last := ""
	for {
		out, err := s.myGames(ctx, p, nil)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Error("reading a player's games", "player", p.ID, "err", err)
				ws.Close(websocket.StatusInternalError, "the player's games could not be read")
			}
			return nil
		}
		if tag := etag(mustJSON(out)); tag != last {
			if !send(myGamesMessage{Type: "games", myGamesView: &out}) {
				return nil
			}
			last = tag
		}
		now := []string{players.PlayerKey(p.ID)}
		for _, g := range out.Games {
			if !g.Ended {
				now = append(now, players.GameKey(g.ID))
			}
		}
		if !slices.Equal(now, keys) {
			// The new watch first, then the old one's mark, if it came
			// meanwhile: the list is read again at once.
			next, stopNext := s.changes.Watch(now...)
			pending := false
			select {
			case <-changed:
				pending = true
			default:
			}
			stop()
			keys, changed, stop = now, next, stopNext
			if pending {
				continue
			}
		}
		select {
		case <-changed:
		case <-tick.C:
			if !send(myGamesMessage{Type: "heartbeat"}) {
				return nil
			}
		case <-ctx.Done():
			return nil
		case <-s.stop:
			ws.Close(statusGoingAway, "the server is shutting down")
			return nil
		}
	}
}
