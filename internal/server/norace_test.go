//go:build !race

package server

// raceEnabled says the race detector is on: heavy tests do less.
const raceEnabled = false
