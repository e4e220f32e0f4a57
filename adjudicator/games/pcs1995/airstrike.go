package pcs1995

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// AirstrikeResult is what a successful airstrike does to its target
// (6.1.3): a d8 of 1 or 2 routs it, anything else makes it static.
func AirstrikeResult(roll int) string {
	if roll <= 2 {
		return "routed"
	}
	return "static"
}

// RollAirstrike rolls the effect of an airstrike with at least one
// successful EC (6.1.3).
func RollAirstrike(r dice.Roller, detail ...string) string {
	return AirstrikeResult(dice.Roll(r, 1, 8, purpose("1995 6.1.3 airstrike effect", detail))[0])
}
