// Package resolve is the rules calculator behind `umpire resolve`: named
// procedures of a game (odds, a combat, a weather roll...) run on inputs given
// as name=value words, with the dice given or rolled, and answered as one
// JSON object. The contract (procedure names, inputs, outputs) is
// docs/resolve.md; the games' procedures live in their packages
// under adjudicator/games and are listed here by a Game value each.
//
// A procedure draws its dice through a dice.Roller, the same interface the
// judge uses in hosted games, so the code that answers `resolve` is the code
// that adjudicates. Three rollers drive it here: Forced (the faces given with
// dice=), Fresh (crypto/rand) and the enumerator behind --distribution.
package resolve
