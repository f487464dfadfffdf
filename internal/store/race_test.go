//go:build race

package store

// raceEnabled says the race detector is on: heavy tests do less.
const raceEnabled = true
