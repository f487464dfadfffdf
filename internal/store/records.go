package store

import (
	"time"
)

// This file holds what the store keeps of a game.

// Seat is a seat of a stored game.
type Seat struct {
	Kind      string `json:"kind"` // "human", "open", "bot" or "house" (the rules play it)
	Name      string `json:"name"`
	Level     string `json:"level,omitempty"`
	TokenHash string `json:"token_hash,omitempty"`
	Joined    bool   `json:"joined,omitempty"`
	StandIn   bool   `json:"stand_in,omitempty"`
}

// Time is a game's time rule: a chess clock ("bank": a bank of InitialMS a
// seat, IncrementMS more when its turn ends) or a turn timer ("turn":
// TurnMS a turn, plus what the last turn left with Carry).
type Time struct {
	Kind        string `json:"kind"`
	InitialMS   int64  `json:"initial_ms,omitempty"`
	IncrementMS int64  `json:"increment_ms,omitempty"`
	TurnMS      int64  `json:"turn_ms,omitempty"`
	Carry       bool   `json:"carry,omitempty"`
}

// Summary is what the lobby shows of a finished game without replaying it;
// it is written when the game ends. Its JSON keys are those of the first
// schema, which stored Blue Lagoon's current player and totals.
type Summary struct {
	Phase   string `json:"phase"`
	ToMove  int    `json:"current"`
	Scores  []int  `json:"totals"`
	Winners []int  `json:"winners"`
}

// Reseed is a take-back's new draw of chance: after the first At moves,
// the game's chance was drawn anew from Seed (the server's game.Reseed).
type Reseed struct {
	At   int    `json:"at"`
	Seed uint64 `json:"seed"`
}

// Move is one stored move.
type Move struct {
	Seat int
	Move string    // in the game's notation, "S 9,3"
	At   time.Time // when it was made
	// Clocks is each seat's time in milliseconds after the move (see
	// Game.Clocks), nil for a game without time.
	Clocks []int64
	// ByTime says the time rule made the move for the seat: its time ran
	// out.
	ByTime bool
}

// Game is a stored game.
type Game struct {
	ID      string
	Created time.Time
	Updated time.Time
	// Game is the game's id in the registry, "bluelagoon".
	Game string
	// Options are the game's options, every one of them set.
	Options    map[string]string
	Players    int
	Seed       uint64
	SeedChosen bool
	// Time is the game's time rule, nil for none.
	Time  *Time
	Seats []Seat
	// Clocks is each seat's time in milliseconds as last written, nil for
	// a game without time: the seats' banks, or with a turn timer what is
	// left of the turn in the entry of the seat to move.
	Clocks []int64
	// Version is the number of moves stored.
	Version int
	Over    bool
	Summary Summary
	// Moves is the game's moves, for Game and InProgress; Finished leaves
	// it nil.
	Moves []Move
	// TakeBacksOff says the table chose to allow no take-backs; TakeBacks
	// counts the take-backs made, each of which removed moves.
	TakeBacksOff bool
	TakeBacks    int
	// Expired says nobody joined or moved in the game for so long that it
	// was given up (Expire): it is no longer resumed.
	Expired bool
	// Reseeds are the game's chance drawn anew by its take-backs, in the
	// order made: replaying the moves draws what the game drew only with
	// them.
	Reseeds []Reseed
}
