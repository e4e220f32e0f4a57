package wbt

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// artilleryFactors rolls one die per Serbian artillery unit in a battle: each
// is that unit's attack factor for the battle (11.20).
func artilleryFactors(units int, r dice.Roller) []int {
	out := make([]int, units)
	for i := range out {
		out[i] = dice.Roll(r, 1, 6, "WbT 11.20 artillery attack factor")[0]
	}
	return out
}

// artilleryTotal adds rolled artillery factors, capped at the non-artillery
// factors in the battle: the Serbs may never add more artillery factors than
// non-artillery ones (11.20 note).
func artilleryTotal(factors []int, nonArtillery int) int {
	total := 0
	for _, f := range factors {
		total += f
	}
	return min(total, max(nonArtillery, 0))
}
