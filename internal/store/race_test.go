//go:build race

package store_test

// raceEnabled says the race detector is on: heavy tests do less.
const raceEnabled = true
