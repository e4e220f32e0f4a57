package perrote

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// sneakNeed is the d6 units held off table by sneak attack need to show up
// on a turn (Sneak Attack/Forward Deployment): 6+ on the first turn, 5+ on
// the second, one less each turn after; from the sixth turn they need 1+
// and arrive without a roll.
func sneakNeed(turn int) int {
	return max(7-turn, 1)
}

// sneakArrives rolls for sneak attack units to show up (Sneak
// Attack/Forward Deployment); no die is rolled when they cannot fail.
func sneakArrives(r dice.Roller, turn int) (arrives, rolled bool) {
	return sneakArrivesFor(r, turn, "")
}

// sneakArrivesFor is SneakArrives with the unit named in the dice purpose.
func sneakArrivesFor(r dice.Roller, turn int, what string) (arrives, rolled bool) {
	need := sneakNeed(turn)
	if need <= 1 {
		return true, false
	}
	return dice.Roll(r, 1, 6, "Per Rote sneak attack arrival roll"+what)[0] >= need, true
}
