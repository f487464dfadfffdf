package server

import (
	"encoding/json"
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// This file holds the JSON objects of docs/api.md and the messages of
// docs/protocol.md. What is a game's own (its table, views and notes) is
// encoded by the game and carried here as it is.

type seatView struct {
	Seat      int    `json:"seat"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Level     string `json:"level"`
	Joined    bool   `json:"joined"`
	Connected int    `json:"connected"`
	StandIn   bool   `json:"stand_in"`
	// AwayUntil is, in a correspondence game, when the seat's player
	// comes back from the vacation under way (its clock stopped).
	AwayUntil *time.Time `json:"away_until,omitempty"`
}

type clockView struct {
	RemainingMS int64 `json:"remaining_ms"`
	Running     bool  `json:"running"`
	// Deadline and Warned are a correspondence turn's, for the seat to
	// move only: when its time runs out, and whether 80% of it is gone.
	Deadline *time.Time `json:"deadline,omitempty"`
	Warned   bool       `json:"warned,omitempty"`
}

type standingView struct {
	Phase   string  `json:"phase"`
	Scores  []int   `json:"scores"`
	Winners []int   `json:"winners"`
	Teams   [][]int `json:"teams"`
	// MoveLimit is, when the bound on the game's length ended it, that
	// bound (Config.MaxMoves); left out otherwise.
	MoveLimit int `json:"move_limit,omitempty"`
}

func makeStanding(s game.Standing) standingView {
	v := standingView{Phase: s.Phase, Scores: s.Scores, Winners: s.Winners, Teams: s.Teams}
	if v.Scores == nil {
		v.Scores = []int{}
	}
	if len(v.Winners) == 0 {
		v.Winners = nil
	}
	return v
}

type moveView struct {
	Version int             `json:"version"`
	Seat    int             `json:"seat"`
	Move    string          `json:"move"`
	Note    json.RawMessage `json:"note"`
	// ByTime says the time rule made the move for the seat, its time
	// having run out.
	ByTime bool `json:"by_time,omitempty"`
}

// stateHead is a state but for its view, which withField adds.
type stateHead struct {
	Version  int          `json:"version"`
	ToMove   int          `json:"to_move"`
	Over     bool         `json:"over"`
	Clocks   []clockView  `json:"clocks"`
	LastMove *moveView    `json:"last_move"`
	Standing standingView `json:"standing"`
	// TakeBackFloor is the lowest version a take-back may go back to: the
	// version of the last move that showed chance, 0 before any
	// (takeback.go).
	TakeBackFloor int `json:"take_back_floor"`
}

type timeView struct {
	Kind        string `json:"kind"`
	InitialMS   int64  `json:"initial_ms"`
	IncrementMS int64  `json:"increment_ms"`
	TurnMS      int64  `json:"turn_ms"`
	Carry       bool   `json:"carry"`
	Started     bool   `json:"started"`
}

type gameView struct {
	ID         string            `json:"id"`
	Created    time.Time         `json:"created"`
	Game       string            `json:"game"`
	GameName   string            `json:"game_name"`
	Options    map[string]string `json:"options"`
	Table      json.RawMessage   `json:"table"`
	Players    int               `json:"players"`
	SeedChosen bool              `json:"seed_chosen"`
	// MaxMoves is the bound on the game's length, 0 for none.
	MaxMoves int        `json:"max_moves"`
	Time     *timeView  `json:"time"`
	Seats    []seatView `json:"seats"`
	// Moves and State are left out when nil: a view of the past has them
	// added to it, encoded (match.viewJSON).
	Moves     []*moveView     `json:"moves,omitzero"`
	TakeBacks takeBacksView   `json:"take_backs"`
	State     json.RawMessage `json:"state,omitzero"`
	You       *int            `json:"you"`
}

// takeBacksView is what a game says of take-backs.
type takeBacksView struct {
	Allowed bool             `json:"allowed"`
	Count   int              `json:"count"`
	Request *takeBackRequest `json:"request"`
}

type summarySeatView struct {
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Level  string `json:"level"`
	Joined bool   `json:"joined"`
}

type summaryView struct {
	ID       string            `json:"id"`
	Game     string            `json:"game"`
	GameName string            `json:"game_name"`
	Options  map[string]string `json:"options"`
	Players  int               `json:"players"`
	// SeedChosen marks a table whose seed its creator chose: whoever
	// knows the seed knows every draw to come.
	SeedChosen bool              `json:"seed_chosen"`
	Seats      []summarySeatView `json:"seats"`
	OpenSeats  []int             `json:"open_seats"`
	Version    int               `json:"version"`
	Phase      string            `json:"phase"`
	ToMove     int               `json:"to_move"`
	Over       bool              `json:"over"`
	Scores     []int             `json:"scores"`
	Winners    []int             `json:"winners"`
	Created    time.Time         `json:"created"`
	Updated    time.Time         `json:"updated"`
}

// rulesView is a game as GET /api/rules describes it.
type rulesView struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	MinPlayers int             `json:"min_players"`
	MaxPlayers int             `json:"max_players"`
	Options    []game.Option   `json:"options"`
	Times      []game.TimeKind `json:"times"`
	// DefaultTime is the time rule of a table of the default options
	// that asks for none in particular, null for none.
	DefaultTime *timeRequest `json:"default_time"`
	Levels      []string     `json:"levels"`
}

// The messages the server sends; see docs/protocol.md.
type (
	// moveEvent is a move event but for its state, which withField adds.
	moveEvent struct {
		Type    string          `json:"type"`
		Version int             `json:"version"`
		Seat    int             `json:"seat"`
		Move    string          `json:"move"`
		Note    json.RawMessage `json:"note"`
		// ByTime is the Move's: the time rule made the move for the seat.
		ByTime bool `json:"by_time,omitempty"`
	}
	gameOverEvent struct {
		Type     string       `json:"type"`
		Version  int          `json:"version"`
		Standing standingView `json:"standing"`
	}
	seatsEvent struct {
		Type    string      `json:"type"`
		Version int         `json:"version"`
		Seats   []seatView  `json:"seats"`
		Clocks  []clockView `json:"clocks"`
	}
	welcomeMessage struct {
		Type      string     `json:"type"`
		You       *int       `json:"you"`
		Version   int        `json:"version"`
		TakeBacks int        `json:"take_backs"`
		Resume    string     `json:"resume"`
		Seats     []seatView `json:"seats"`
	}
	// takeBackEvent is a take-back event but for its state.
	takeBackEvent struct {
		Type      string `json:"type"`
		Version   int    `json:"version"`
		From      int    `json:"from"`
		Seat      int    `json:"seat"`
		TakeBacks int    `json:"take_backs"`
	}
	takeBackRequestEvent struct {
		Type string `json:"type"`
		*takeBackRequest
	}
	takeBackAnswerEvent struct {
		Type    string `json:"type"`
		Version int    `json:"version"`
		Seat    int    `json:"seat"`
		Accept  bool   `json:"accept"`
		Waiting []int  `json:"waiting"`
	}
	takeBackEndedEvent struct {
		Type    string `json:"type"`
		Version int    `json:"version"`
		Seat    int    `json:"seat"`
		Reason  string `json:"reason"`
	}
	snapshotMessage struct {
		Type string   `json:"type"`
		Game gameView `json:"game"`
	}
	ackMessage struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		Version   int    `json:"version"`
		Duplicate bool   `json:"duplicate"`
	}
	errorMessage struct {
		Type    string          `json:"type"`
		ID      string          `json:"id,omitempty"`
		Status  int             `json:"status"`
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Refusal *game.Refusal   `json:"refusal,omitempty"`
		State   json.RawMessage `json:"state,omitempty"`
	}
	heartbeatMessage struct {
		Type    string `json:"type"`
		Version int64  `json:"version"`
	}
	pongMessage struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
)
