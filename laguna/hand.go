package laguna

import (
	"time"

	"github.com/lagoon-games/lagoon/game"
)

// The time a player's hand takes at the table, which a host charges to the
// sand glass (game.HandTimer; docs/laguna.md, decision 24): a glass of 30
// seconds buys at most 60 steps, however fast they are sent.
const (
	// StepTime is a step: the raft slid one square.
	StepTime = 500 * time.Millisecond
	// PearlTime is a pearl moved: out of a hole and into another, onto an
	// island, into the volcano. A swap or a trade moves two.
	PearlTime = time.Second
	// PeekTime is a peek: the pearls lifted and set back.
	PeekTime = time.Second
)

// HandTime returns the time a hand takes to make move m: a step's, a
// pearl's for each pearl it moves, a peek's; nothing to end the turn, and
// nothing for placing the rafts and dealing the pearls, which the glass
// does not time (Untimed).
func (s *State) HandTime(m game.Move) time.Duration {
	switch {
	case m < mEnd:
		return StepTime
	case m == mPeek:
		return PeekTime
	case m >= mShift && m < mSwap, m >= mDeliver && m < mTrade:
		return PearlTime
	case m >= mSwap && m < mDeliver, m >= mTrade && m < mPut:
		return 2 * PearlTime
	}
	return 0
}
