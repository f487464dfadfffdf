package ai

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/lagoon-games/lagoon/game"
)

// Random plays a uniformly random legal move.
type Random struct {
	name string
	rng  *LockedRand
}

// NewRandom returns a random bot drawing from the given seed.
func NewRandom(seed uint64) *Random {
	return &Random{name: "random", rng: NewLockedRand(seed, 0x72616e646f6d)}
}

// Name returns "random" (or the level it plays).
func (b *Random) Name() string { return b.name }

// Move returns a uniformly random legal move.
func (b *Random) Move(ctx context.Context, st game.State) (game.Move, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var buf [64]game.Move
	moves := st.AppendLegal(buf[:0])
	if len(moves) == 0 {
		return 0, ErrGameOver
	}
	return moves[b.rng.IntN(len(moves))], nil
}

// LockedRand is a random generator that a bot playing several games at
// once draws from: its draws are taken one at a time.
type LockedRand struct {
	mu  sync.Mutex
	rng *rand.Rand
}

// NewLockedRand returns a generator of the PCG stream of seed and stream.
func NewLockedRand(seed, stream uint64) *LockedRand {
	return &LockedRand{rng: rand.New(rand.NewPCG(seed, stream))}
}

// IntN returns a number in [0, n).
func (r *LockedRand) IntN(n int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rng.IntN(n)
}

// Float64 returns a number in [0, 1).
func (r *LockedRand) Float64() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rng.Float64()
}

// With calls f with the generator, alone: for a draw of several numbers
// that another game's must not interleave.
func (r *LockedRand) With(f func(*rand.Rand)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(r.rng)
}
