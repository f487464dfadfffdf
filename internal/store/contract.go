package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lagoon-games/lagoon/internal/corr"
	"github.com/lagoon-games/lagoon/internal/players"
)

// This file holds the contract between the server and a store of games,
// which the SQLite store (this package) and the PostgreSQL store
// (store/postgres) keep, and which store/storetest checks.

// Store keeps games. Its methods are safe for concurrent use. A write
// returns once it is durable, or with the reason it is not; it is written
// whole or not at all, and one caller's failing write fails no other's.
type Store interface {
	// Create stores a new game with no moves; ErrConflict if a game of
	// its id is stored.
	Create(ctx context.Context, g *Game) error
	// AppendMove stores the move that takes game id from version-1 to
	// version, with the metadata after it; ErrConflict unless the game is
	// at version-1 and not over.
	AppendMove(ctx context.Context, id string, version int, m Move, after After) error
	// TakeBack removes the moves of game id after version to, the game
	// being at version from and not over (else ErrConflict), stores the
	// clocks as they were at version to and the game's reseeds, and counts
	// the take-back.
	TakeBack(ctx context.Context, id string, from, to int, clocks []int64, reseeds []Reseed, at time.Time) error
	// UpdateSeats stores a game's seats and clocks, which change without
	// a move; version is the number of moves the game has. ErrNotFound
	// for a game not stored.
	UpdateSeats(ctx context.Context, id string, version int, seats []Seat, clocks []int64, at time.Time) error
	// Expire marks game id, not over, as given up: it is no longer
	// resumed. A game not stored, or over, is left as it is.
	Expire(ctx context.Context, id string, at time.Time) error
	// Game reads game id with its moves: ErrNotFound, or ErrDamaged for
	// a game whose rows do not match their checksums.
	Game(ctx context.Context, id string) (*Game, error)
	// InProgress reads every game that is neither over nor expired, with
	// its moves, and apart those that are damaged.
	InProgress(ctx context.Context) (games []*Game, damaged []Damaged, _ error)
	// Finished reads the limit games that ended last, newest first,
	// without their moves, and apart those among them that are damaged.
	Finished(ctx context.Context, limit int) (games []*Game, damaged []Damaged, _ error)
	// IDs returns the id of every stored game, in order, whatever its
	// state: over, expired or damaged.
	IDs(ctx context.Context) ([]string, error)
	// OwnSeat records player as the holder of seat of game id, in place
	// of any holder before: ErrNotFound for a game or a player not
	// stored.
	OwnSeat(ctx context.Context, id string, seat int, player string, at time.Time) error
	// PlayerGames reads the lines of the games in which player holds a
	// seat (GameLine), each with the seats the player holds: playing,
	// those neither over nor expired, newest first, read only when before
	// is nil; ended, the limit that ended last (over or expired) after
	// the cursor before (nil: from the newest), newest first; and apart
	// those among them whose lines are damaged.
	PlayerGames(ctx context.Context, player string, limit int, before *Cursor) (playing, ended []PlayerGame, damaged []Damaged, _ error)
	// OwnedSeats reads every seat player holds, by game and seat.
	OwnedSeats(ctx context.Context, player string) ([]OwnedSeat, error)
	// Players and sessions (docs/players.md).
	players.Store
	// Passkeys and WebAuthn ceremonies (docs/players.md).
	players.PasskeyStore
	// Players' vacations (docs/players.md).
	corr.Store
	// Import stores g, a whole game with its moves as Game read it from
	// another store, in one write, with the same checksums as there;
	// ErrConflict if a game of its id is stored.
	Import(ctx context.Context, g *Game) error
	// Close finishes the writes under way and closes the store; writes
	// after it fail with ErrClosed.
	Close() error
}

// PlayerGame is a game's line with the seats a player holds in it, in
// order, never empty.
type PlayerGame struct {
	Line  GameLine
	Seats []int
}

// OwnedSeat is a seat a player holds, since At.
type OwnedSeat struct {
	Game string
	Seat int
	At   time.Time
}

// ErrNotFound is returned for a game that is not in the store.
var ErrNotFound = errors.New("no such game")

// ErrConflict is returned when a write does not follow the stored game: a
// move whose version is not the next one, or a game id that exists already.
var ErrConflict = errors.New("write conflicts with the stored game")

// ErrClosed is returned by writes after Close.
var ErrClosed = errors.New("store is closed")

// ErrFenced is returned for a write made with an epoch (WithEpoch) that is
// no longer its game's lease's: the lease expired, or another node holds
// it. Nothing of the write is stored.
var ErrFenced = errors.New("the writer's lease on the game is lost (fenced)")

// Fence is a write's claim to hold the lease on Game: Node holds it at
// Epoch.
type Fence struct {
	Game  string
	Node  string
	Epoch int64
}

type fenceKey struct{}

// WithEpoch returns ctx carrying a fence: a store that keeps leases (the
// PostgreSQL store) writes game only if, in the transaction that writes,
// the lease on game is node's at epoch and not expired, and otherwise
// refuses the write with ErrFenced; a write of another game with that ctx
// is refused too. The SQLite store keeps no leases and refuses every
// fenced write: a fence it cannot check is not one to ignore. Without a
// fence, stores write unfenced, as one node alone does.
func WithEpoch(ctx context.Context, game, node string, epoch int64) context.Context {
	return context.WithValue(ctx, fenceKey{}, Fence{Game: game, Node: node, Epoch: epoch})
}

// FenceOf returns the fence ctx carries, if any (WithEpoch).
func FenceOf(ctx context.Context) (Fence, bool) {
	f, ok := ctx.Value(fenceKey{}).(Fence)
	return f, ok
}

// CheckFenceGame fails with ErrFenced if ctx carries a fence for another
// game than id: a store checks the lease of the game it writes.
func CheckFenceGame(ctx context.Context, id string) (Fence, bool, error) {
	f, ok := FenceOf(ctx)
	if ok && f.Game != id {
		return f, ok, fmt.Errorf("a write of game %s under the lease of game %s: %w", id, f.Game, ErrFenced)
	}
	return f, ok, nil
}
