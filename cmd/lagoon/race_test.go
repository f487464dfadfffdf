//go:build race

package main

// raceEnabled says the race detector is on: the cluster test's nodes are
// built with it too, so that a race in a node fails the test.
const raceEnabled = true
