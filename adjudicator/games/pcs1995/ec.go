package pcs1995

import (
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// ecModified is an Effectiveness Check's modified roll (3.0, 3.3, 6.4): -1
// for the initiative player, +1 for a G air unit in air-to-air combat.
func ecModified(roll int, initiative, gInATAC bool) int {
	if initiative {
		roll--
	}
	if gInATAC {
		roll++
	}
	return roll
}

// ecSuccess is whether a modified EC roll succeeds: equal to or less than
// the ER (3.3).
func ecSuccess(modified, er int) bool { return modified <= er }

// rollEC makes one Effectiveness Check (3.3) and returns the modified roll
// and whether it succeeded; detail, when given, says whose check it is.
func rollEC(r dice.Roller, er int, initiative, gInATAC bool, detail ...string) (int, bool) {
	_, m, ok := rollECDie(r, er, initiative, gInATAC, detail...)
	return m, ok
}

// rollECDie is RollEC with the die as rolled: an airmobile interception
// routs on a rolled 1 (6.2).
func rollECDie(r dice.Roller, er int, initiative, gInATAC bool, detail ...string) (die, modified int, ok bool) {
	die = dice.Roll(r, 1, 8, purpose("1995 3.3 effectiveness check", detail))[0]
	modified = ecModified(die, initiative, gInATAC)
	return die, modified, ecSuccess(modified, er)
}

// purpose adds a detail to a draw's purpose: "1995 3.3 effectiveness
// check: NATO US-F15 in ATAC round 1".
func purpose(base string, detail []string) string {
	if len(detail) == 0 || detail[0] == "" {
		return base
	}
	return base + ": " + strings.Join(detail, " ")
}
