package wbt

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// antiTankDefense rolls the defense factor of each Serbian anti-tank unit in a
// battle (11.21): one die each, halved, rounded up (1 to 3); but a factor of 1
// each with no roll when every attacking NATO unit is heliborne,
// non-mechanized or dismounted (allNonMech).
func antiTankDefense(units int, allNonMech bool, r dice.Roller) []int {
	out := make([]int, units)
	for i := range out {
		if allNonMech {
			out[i] = 1
			continue
		}
		out[i] = halvedDie(dice.Roll(r, 1, 6, "WbT 11.21 anti-tank defense roll")[0])
	}
	return out
}
