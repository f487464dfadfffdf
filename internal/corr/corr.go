// Package corr holds what correspondence play (games over days) needs
// beyond the time rule itself (game.Correspondence): players' vacations,
// which stop the clocks of all their correspondence games. It is pure: no
// I/O, so that the server and both stores share its rules.
package corr

import "github.com/lagoon-games/lagoon/game"

// MaxVacation is how long a player may be away in a calendar year (UTC).
const MaxVacation = 30 * game.Day
