package pcs1995

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// AACMA is the Advance after Combat Movement Allowance of a PA whose combat
// hex was vacated (8.4): a d8 halved, rounded down.
func AACMA(roll int) int { return roll / 2 }

// rollAACMA rolls the AACMA (8.4).
func rollAACMA(r dice.Roller, detail ...string) int {
	return AACMA(dice.Roll(r, 1, 8, purpose("1995 8.4 advance after combat movement allowance", detail))[0])
}
