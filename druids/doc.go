// Package druids is the rules engine of Lagoon: Land of Druids (David
// Chott, 3 Hares Games 2014) behind the platform's contract (package game).
//
// Druid circles explore a world of hex sites that grows as sites are
// explored and shrinks as they are unravelled; each site is aligned with
// one of three energies, and the energy with the most sites in play at the
// end is Lagoon's destiny, which decides what each player's seeds and
// unravelled sites are worth. Two to four players (four as two teams), or
// one against AJ, the rulebook's scripted opponent.
//
// Rules (a game.Rules) sets games up from options (the play set, the
// starting sites, AJ's level, the first seat). A State is a flat value: a
// turn is many small decisions (a step's timely sites, the druids to
// refresh, the action, then its invoker, target, side, space, seed...),
// each a game.Move; every action, basic or of a site, is a program of such
// steps (program.go, ops.go). Sites is the catalogue of the 54 sites with
// their effects in the project's own words; eight sides are designs of our
// own. docs/druids.md records how the engine reads the rulebook.
//
// The package is standard library only and does no I/O.
package druids
