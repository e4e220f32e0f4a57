package pcs1995

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// ECModified is an Effectiveness Check's modified roll (3.0, 3.3, 6.4): -1
// for the initiative player, +1 for a G air unit in air-to-air combat.
func ECModified(roll int, initiative, gInATAC bool) int {
	if initiative {
		roll--
	}
	if gInATAC {
		roll++
	}
	return roll
}

// ECSuccess is whether a modified EC roll succeeds: equal to or less than
// the ER (3.3).
func ECSuccess(modified, er int) bool { return modified <= er }

// RollEC makes one Effectiveness Check (3.3) and returns the modified roll
// and whether it succeeded.
func RollEC(r dice.Roller, er int, initiative, gInATAC bool) (int, bool) {
	m := ECModified(dice.Roll(r, 1, 8, "1995 3.3 effectiveness check")[0], initiative, gInATAC)
	return m, ECSuccess(m, er)
}
