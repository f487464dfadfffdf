package ai

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/lagoon-games/lagoon/bluelagoon"
)

// Random plays a uniformly random legal move.
type Random struct {
	mu  sync.Mutex
	rng *rand.Rand
}

// NewRandom returns a random bot drawing from the given seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, 0x72616e646f6d))}
}

// Name returns "random".
func (*Random) Name() string { return "random" }

// Move returns a uniformly random legal move.
func (b *Random) Move(ctx context.Context, g *bluelagoon.Game) (bluelagoon.Move, error) {
	if err := ctx.Err(); err != nil {
		return bluelagoon.Move{}, err
	}
	n := g.NumLegalMoves()
	if n == 0 {
		return bluelagoon.Move{}, ErrGameOver
	}
	b.mu.Lock()
	k := b.rng.IntN(n)
	b.mu.Unlock()
	return g.LegalMove(k), nil
}
