package bu

import (
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// airStrikeUnits is how many full-size units a NATO Air Strike targets: 2
// (7.3.1), 3 in the 2-player game (14.5.4).
func airStrikeUnits(twoPlayer bool) int {
	if twoPlayer {
		return 3
	}
	return 2
}

// airStrikeHits reports whether a NATO Air Strike roll reduces its unit: 3
// to 9 on the d10 read 0-9 (7.3.1).
func airStrikeHits(roll int) bool { return roll >= 3 }

// airStrike rolls once for each of the units chosen before rolling (7.3.1)
// and reports, in the order chosen, which are reduced.
func airStrike(r dice.Roller, units int) []bool { return airStrikeOn(r, make([]string, units)) }

// airStrikeOn is AirStrike on named targets: each roll's purpose names its
// unit (the hosted game's strikes).
func airStrikeOn(r dice.Roller, targets []string) []bool {
	out := make([]bool, len(targets))
	for i, t := range targets {
		purpose := "B&U 7.3.1 NATO air strike roll"
		if t != "" {
			purpose += " on " + t
		}
		out[i] = airStrikeHits(r.Draw(dice.Open, spec.DiceFrom(1, 10, 0), purpose)[0])
	}
	return out
}
