//go:build race

package bots

// raceEnabled says the race detector is on: the whole-game tests play
// fewer games, for the planner thinks on one goroutine and many times slower.
const raceEnabled = true
