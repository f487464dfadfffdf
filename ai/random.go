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
	mu   sync.Mutex
	rng  *rand.Rand
}

// NewRandom returns a random bot drawing from the given seed.
func NewRandom(seed uint64) *Random {
	return &Random{name: "random", rng: rand.New(rand.NewPCG(seed, 0x72616e646f6d))}
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
	b.mu.Lock()
	k := b.rng.IntN(len(moves))
	b.mu.Unlock()
	return moves[k], nil
}
