package wbt

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// HalvedDie is a die halved, remainders rounded up: 1-2 is 1, 3-4 is 2, 5-6
// is 3 (4.2, 4.4, 11.21).
func HalvedDie(roll int) int { return (roll + 1) / 2 }

// MePPsCheck rolls a MePPs-loss check: one die halved, rounded up, is the
// MePPs NATO loses (4.4; also 4.2, 4.5, 4.6, 4.8).
func MePPsCheck(r dice.Roller, purpose string) int {
	return HalvedDie(dice.Roll(r, 1, 6, purpose)[0])
}
