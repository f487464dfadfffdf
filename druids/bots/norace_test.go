//go:build !race

package bots

// raceEnabled says the race detector is on: its instrumentation allocates
// where the plain build does not, so the allocation tests do not hold.
const raceEnabled = false
