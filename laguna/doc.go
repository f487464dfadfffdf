// Package laguna is the rules engine of Laguna (Bernhard Weber, Queen Games
// 2000) behind the platform's game contract: rafts of six holes carry
// pearls from eight islands to a volcano across a board of reefs and
// currents, and what lies under a raft's pearls is for the players to
// remember.
//
// A Board is immutable and shared; a State is a flat value (CopyFrom is one
// assignment). Boards are read from their text notation and checked fair
// (Check); Generate draws fair boards from a seed, and the two original
// boards, "easy" and "hard", are two such draws kept as data. Moves are
// small integers with a strict text notation, as are states. The package is
// standard library only and does no I/O. docs/laguna.md gives the rules as
// the engine reads them and every decision the rulebook leaves open.
package laguna
