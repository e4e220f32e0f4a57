package perrote

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// smokeDisperses rolls for smoke at the end of the turn (Smoke Launchers):
// 1-4 it disperses, 5-6 it lasts the next turn and then disperses.
func smokeDisperses(r dice.Roller) bool {
	return smokeDispersesFor(r, "")
}

// smokeDispersesFor is SmokeDisperses with the smoke named in the dice
// purpose.
func smokeDispersesFor(r dice.Roller, what string) bool {
	return dice.Roll(r, 1, 6, "Per Rote smoke dispersal roll"+what)[0] <= 4
}
