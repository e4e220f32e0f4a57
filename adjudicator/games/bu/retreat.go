package bu

// RetreatSpaces is how far the defender must retreat after a battle
// (13.4.8): 1 space when he suffered exactly 2 step losses more than the
// attacker, 2 when the difference is greater than 2, else none. Artillery
// Preparation steps are left out of defenderSteps by the caller (13.4.8).
func RetreatSpaces(attackerSteps, defenderSteps int) int {
	switch d := defenderSteps - attackerSteps; {
	case d > 2:
		return 2
	case d == 2:
		return 1
	}
	return 0
}

// OOSRetreatSteps is the steps an Out Of Supply unit takes instead of a
// retreat of spaces (13.4.8.4: one or two, as the retreat length; ruling
// over the "one step" of 2.4.8).
func OOSRetreatSteps(spaces int) int { return spaces }
