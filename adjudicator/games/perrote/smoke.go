package perrote

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// SmokeDisperses rolls for smoke at the end of the turn (Smoke Launchers):
// 1-4 it disperses, 5-6 it lasts the next turn and then disperses.
func SmokeDisperses(r dice.Roller) bool {
	return dice.Roll(r, 1, 6, "Per Rote smoke dispersal roll")[0] <= 4
}
