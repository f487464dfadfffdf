// Package bluelagoon is an exact rules engine for Reiner Knizia's Blue Lagoon
// (2018), for 2 to 4 players, on the printed board, the alternative boards of
// the ANU COMP1110 assignment, and boards read from its text notation.
//
// A Board is an immutable hex map, shared by every game played on it. A Game
// is a position plus the seeded generator that lays out the tokens; it is a
// plain value, so copying one is a single assignment with no allocation, which
// is what search needs. Everything a bot or a tool does goes through a small
// surface:
//
//	st, err := bluelagoon.New(game.Setup{Players: 2, Seed: 7})  // the standard board
//	g := &st.Game             // the engine's game behind the contract's state
//	moves := g.LegalMoves()
//	err = g.Apply(moves[0])   // checked; ApplyLegal is the unchecked fast path
//	scores := g.Scores()      // what each player would score now
//	over := g.Over()
//
// Sets of spaces are bitsets indexed by space number, rows in order; with that
// numbering a space's six neighbours are at fixed offsets, so legal moves are
// a few word operations per 64 spaces and the engine allocates nothing while
// playing. Search gets at those sets directly: ApplyRandom plays a uniformly
// random move without listing any, and Spaces (LegalSpaces, TokenSpaces,
// LandSpaces, ...) lets a playout policy ask "which legal moves take a
// token" in a few word operations.
//
// The package does no I/O and has no mutable package state. Its games are
// set up and recorded as every game of the platform is (package game: a
// Setup, a Record of moves in text that replays to the same states); states
// and moves print in the course's notation, canonical byte for byte, and
// parse strictly.
package bluelagoon
