package perrote

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// mortarNeed is the d6 a mortar needs to hit the hex it aims at (Mortars):
// 3+ with a spotter or when the mortar can see the target, 5+ fired
// indirectly without a spotter.
func mortarNeed(spotter, visible bool) int {
	if spotter || visible {
		return 3
	}
	return 5
}

// mortarHex rolls a mortar's hex hit (Mortars); on a miss a second d6 gives
// the adjacent hex it lands in: 1 the hex between the target and the mortar,
// 2 to 6 the others numbered clockwise from it. scatter is 0 on a hit.
func mortarHex(r dice.Roller, spotter, visible bool) (hit bool, scatter int) {
	return mortarHexFor(r, spotter, visible, "")
}

// mortarHexFor is MortarHex with what fires at what added to the dice
// purposes.
func mortarHexFor(r dice.Roller, spotter, visible bool, what string) (hit bool, scatter int) {
	need := mortarNeed(spotter, visible)
	if dice.Roll(r, 1, 6, "Per Rote mortar hex hit roll"+what)[0] >= need {
		return true, 0
	}
	return false, dice.Roll(r, 1, 6, "Per Rote mortar scatter"+what)[0]
}
