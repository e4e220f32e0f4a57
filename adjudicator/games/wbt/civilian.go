package wbt

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// GameTurns is the game's full length (4.1, 4.10).
const GameTurns = 14

// CivilianCasualtyLength is the game length after a civilian casualties roll
// (13.0): the roll, less 1 when a single nationality made the attack, and the
// game lasts 15 minus that (6 leaves 9 turns, 5 leaves 10, 4 leaves 11, as
// the rule's examples count), never longer than it already was.
func CivilianCasualtyLength(roll int, singleNationality bool, length int) (modified, newLength int) {
	modified = roll
	if singleNationality {
		modified--
	}
	return modified, min(length, GameTurns+1-modified)
}

// CivilianCasualties rolls the 13.0 deduction die after a NATO land attack
// into a city rolled 6, and returns the modified roll and the new game
// length.
func CivilianCasualties(singleNationality bool, length int, r dice.Roller) (modified, newLength int) {
	roll := dice.Roll(r, 1, 6, "WbT 13.0 civilian casualties roll")[0]
	return CivilianCasualtyLength(roll, singleNationality, length)
}
