package pcs1995

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// recovery is a routed unit's recovery roll result (5.3).
type recovery string

// The recovery results.
const (
	recovered   recovery = "recovered"   // re-enters like a reinforcement
	surrendered recovery = "surrendered" // removed for good; the opponent gains 1 VP
	stillRouted recovery = "routed"      // stays in the routed box
	noRoll      recovery = "none"        // Russian units never roll (5.3)
)

// nationality row of the Recovery Table (5.3.1).
type nationality string

// The recovery rows.
const (
	natoRow    nationality = "NATO"
	serbianRow nationality = "Serbian"
	russianRow nationality = "Russian"
)

// recoveryNumber is the 5.3.1 table: NATO 7, Serbian 6; Russians have none.
func recoveryNumber(n nationality) int {
	switch n {
	case natoRow:
		return 7
	case serbianRow:
		return 6
	}
	return 0
}

// recoveryResult reads a recovery roll (5.3): a 1 surrenders, the table
// number or more recovers, and a Serbian 8 may be placed in any Serbian city
// not occupied by NATO. vp is the VP change of a surrender (11.1): -1 for a
// NATO unit, +1 for a Serbian one.
func recoveryResult(n nationality, roll int) (res recovery, anySerbianCity bool, vp int) {
	switch {
	case n == russianRow:
		return noRoll, false, 0
	case roll == 1:
		if n == natoRow {
			return surrendered, false, -1
		}
		return surrendered, false, 1
	case roll >= recoveryNumber(n):
		return recovered, n == serbianRow && roll == 8, 0
	}
	return stillRouted, false, 0
}

// rollRecovery rolls for one routed unit (5.3); Russians do not roll.
func rollRecovery(r dice.Roller, n nationality, detail ...string) (recovery, bool, int) {
	if n == russianRow {
		return recoveryResult(n, 0)
	}
	return recoveryResult(n, dice.Roll(r, 1, 8, purpose("1995 5.3 recovery roll", detail))[0])
}
