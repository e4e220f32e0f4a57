package pcs1995

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// Recovery is a routed unit's recovery roll result (5.3).
type Recovery string

// The recovery results.
const (
	Recovered   Recovery = "recovered"   // re-enters like a reinforcement
	Surrendered Recovery = "surrendered" // removed for good; the opponent gains 1 VP
	StillRouted Recovery = "routed"      // stays in the routed box
	NoRoll      Recovery = "none"        // Russian units never roll (5.3)
)

// Nationality row of the Recovery Table (5.3.1).
type Nationality string

// The recovery rows.
const (
	NATORow    Nationality = "NATO"
	SerbianRow Nationality = "Serbian"
	RussianRow Nationality = "Russian"
)

// RecoveryNumber is the 5.3.1 table: NATO 7, Serbian 6; Russians have none.
func RecoveryNumber(n Nationality) int {
	switch n {
	case NATORow:
		return 7
	case SerbianRow:
		return 6
	}
	return 0
}

// RecoveryResult reads a recovery roll (5.3): a 1 surrenders, the table
// number or more recovers, and a Serbian 8 may be placed in any Serbian city
// not occupied by NATO. vp is the VP change of a surrender (11.1): -1 for a
// NATO unit, +1 for a Serbian one.
func RecoveryResult(n Nationality, roll int) (res Recovery, anySerbianCity bool, vp int) {
	switch {
	case n == RussianRow:
		return NoRoll, false, 0
	case roll == 1:
		if n == NATORow {
			return Surrendered, false, -1
		}
		return Surrendered, false, 1
	case roll >= RecoveryNumber(n):
		return Recovered, n == SerbianRow && roll == 8, 0
	}
	return StillRouted, false, 0
}

// RollRecovery rolls for one routed unit (5.3); Russians do not roll.
func RollRecovery(r dice.Roller, n Nationality, detail ...string) (Recovery, bool, int) {
	if n == RussianRow {
		return RecoveryResult(n, 0)
	}
	return RecoveryResult(n, dice.Roll(r, 1, 8, purpose("1995 5.3 recovery roll", detail))[0])
}
