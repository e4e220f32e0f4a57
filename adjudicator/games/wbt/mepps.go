package wbt

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// halvedDie is a die halved, remainders rounded up: 1-2 is 1, 3-4 is 2, 5-6
// is 3 (4.2, 4.4, 11.21).
func halvedDie(roll int) int { return (roll + 1) / 2 }

// mePPsCheck rolls a MePPs-loss check: one die halved, rounded up, is the
// MePPs NATO loses (4.4; also 4.2, 4.5, 4.6, 4.8).
func mePPsCheck(r dice.Roller, purpose string) int {
	return halvedDie(dice.Roll(r, 1, 6, purpose)[0])
}
