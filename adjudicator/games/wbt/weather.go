package wbt

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// badWeatherFrom is the lowest die roll that makes the weather bad (5.3): 6,
// or 5 when the previous game turn's weather was bad. It never goes lower,
// however many bad turns came before.
func badWeatherFrom(previousBad bool) int {
	if previousBad {
		return 5
	}
	return 6
}

// weather determines a game turn's weather (5.3): turns 1 and 2 are good with
// no roll; from turn 3 one die, bad at or above BadWeatherFrom. It returns
// whether the weather is bad and the roll (0 when none was made).
func weather(turn int, previousBad bool, r dice.Roller) (bad bool, roll int) {
	if turn <= 2 {
		return false, 0
	}
	roll = dice.Roll(r, 1, 6, fmt.Sprintf("WbT 5.3 weather roll, game turn %d", turn))[0]
	return roll >= badWeatherFrom(previousBad), roll
}
