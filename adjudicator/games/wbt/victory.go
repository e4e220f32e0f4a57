package wbt

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// victoryRollNeeded is the highest die roll that wins a NATO victory check
// with cities rump-Yugoslav city hexes held in overland supply (4.9): none
// (0) for 0-3, cities-3 for 4-8; 9 cities win automatically (ok false, win
// true).
func victoryRollNeeded(cities int) (highest int, roll, automatic bool) {
	switch {
	case cities >= 9:
		return 0, false, true
	case cities <= 3:
		return 0, false, false
	}
	return cities - 3, true, false
}

// victoryCheck makes the NATO victory check of the victory check phase (4.9,
// 5.5). There is none with fewer than four cities or at the end of a
// reconstitution turn of either kind (5.5); nine cities win without a roll.
// It returns the win and the roll (0 when none was made).
func victoryCheck(cities int, reconstitution bool, r dice.Roller) (win bool, roll int) {
	if reconstitution {
		return false, 0
	}
	highest, rolls, auto := victoryRollNeeded(cities)
	if !rolls {
		return auto, 0
	}
	roll = dice.Roll(r, 1, 6, "WbT 4.9 NATO victory check")[0]
	return roll <= highest, roll
}
