package wbt

import (
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// gameTurns is the game's full length (4.1, 4.10).
const gameTurns = 14

// civilianCasualtyDeduction is the game turns one civilian casualties roll
// takes off the game (13.0): the roll, less 1 when a single nationality made
// the attack, counted as the rule's examples count (6 leaves 9 of the 14
// turns, 5 leaves 10, 4 leaves 11: the modified roll less one), never
// negative.
func civilianCasualtyDeduction(modified int) int { return max(modified-1, 0) }

// civilianCasualtyLength is the game length after a civilian casualties roll
// (13.0). Deduction rolls are cumulative with earlier ones (13.0), so the
// deduction comes off the current length; the game never drops below one
// turn (the current turn is played out anyway).
func civilianCasualtyLength(roll int, singleNationality bool, length int) (modified, newLength int) {
	modified = roll
	if singleNationality {
		modified--
	}
	return modified, max(length-civilianCasualtyDeduction(modified), 1)
}

// civilianCasualties rolls the 13.0 deduction die after a NATO land attack
// into a city rolled 6, and returns the modified roll and the new game
// length; text is the roll as the reports write it (kit.Roll).
func civilianCasualties(singleNationality bool, length int, r dice.Roller) (text string, modified, newLength int) {
	roll := dice.Roll(r, 1, 6, "WbT 13.0 civilian casualties roll")[0]
	var mods kit.Modifiers
	if singleNationality {
		mods.Add(-1, "one nationality attacking", "13.0")
	}
	modified, newLength = civilianCasualtyLength(roll, singleNationality, length)
	return kit.Roll(roll, mods), modified, newLength
}
