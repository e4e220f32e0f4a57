package pcs1995

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// airstrikeResult is what a successful airstrike does to its target
// (6.1.3): a d8 of 1 or 2 routs it, anything else makes it static.
func airstrikeResult(roll int) string {
	if roll <= 2 {
		return "routed"
	}
	return "static"
}

// rollAirstrike rolls the effect of an airstrike with at least one
// successful EC (6.1.3).
func rollAirstrike(r dice.Roller, detail ...string) string {
	return airstrikeResult(dice.Roll(r, 1, 8, purpose("1995 6.1.3 airstrike effect", detail))[0])
}
