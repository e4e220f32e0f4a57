package perrote

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// damageEffect is one line of the vehicle damage chart (Vehicle Damage).
type damageEffect struct {
	Result int
	Key    string // stunned, motive_damage, ... destroyed
	Text   string // what it does, paraphrased
	// Moves is the hexes the vehicle may still move this game as a
	// fraction of normal: 1 full, 0.5 half, 0 none (stunned vehicles lose
	// a turn instead).
	Moves float64
	// Fire says how it may fire: "normal", "every_other_turn" or "none".
	Fire string
	// CrewKilled: the crew dies (5 and 6).
	CrewKilled bool
}

// damageTable is the vehicle damage chart, results 1 to 6.
var damageTable = [6]damageEffect{
	{1, "stunned", "stunned: misses its next turn", 1, "normal", false},
	{2, "motive_damage", "motive damage: moves at half rate (one hex and fire, two and not fire)", 0.5, "normal", false},
	{3, "motive_crippled", "motive crippled: cannot move", 0, "normal", false},
	{4, "fire_control_damage", "motive crippled and fire control damaged: cannot move, fires one weapon every other turn", 0, "every_other_turn", false},
	{5, "fire_control_crippled", "motive and fire control crippled: cannot move or fire; crew and half the passengers (round up) killed", 0, "none", true},
	{6, "destroyed", "BOOM: vehicle destroyed with crew and passengers", 0, "none", true},
}

// damageResult is the chart line a modified roll reads: rolls above 6 read
// 6 (Vehicle Damage).
func damageResult(modified int) damageEffect {
	return damageTable[min(max(modified, 1), 6)-1]
}

// rollVehicleDamage rolls a d6 and adds the points the hit went over the
// wound number (Vehicle Damage); it returns the modified roll and the chart
// line.
func rollVehicleDamage(r dice.Roller, over int) (int, damageEffect) {
	return rollVehicleDamageFor(r, over, fmt.Sprintf("Per Rote vehicle damage roll, +%d", over))
}

// rollVehicleDamageFor is RollVehicleDamage with the dice purpose given.
func rollVehicleDamageFor(r dice.Roller, over int, purpose string) (int, damageEffect) {
	d := dice.Roll(r, 1, 6, purpose)[0]
	m := d + over
	return m, damageResult(m)
}

// passengersKilled is how many passengers die with the result (Vehicle
// Damage): half, rounded up, on a 5; all on a 6.
func passengersKilled(result, passengers int) int {
	switch result {
	case 5:
		return (passengers + 1) / 2
	case 6:
		return passengers
	}
	return 0
}
