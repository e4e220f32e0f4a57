package wbt

import (
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// GreatPower reports whether a NATO nationality is one of the great powers
// (US, UK, France, Germany) of 10.18 and 11.24; nationality is a name,
// adjective or 2.4 abbreviation.
func GreatPower(nationality string) bool {
	switch strings.ToLower(nationality) {
	case "us", "usa", "united states", "american",
		"uk", "united kingdom", "britain", "british",
		"f", "fr", "france", "french",
		"gr", "ge", "germany", "german":
		return true
	}
	return false
}

// BridgeRepairModifier is the sum of the cumulative bridge repair modifiers
// (10.18): +1 for a US, UK, German or French unit, -1 if the unit is out of
// supply, -1 if it is directly across the river hexside from Serbian units.
func BridgeRepairModifier(greatPower, oos, across bool) int {
	m := 0
	if greatPower {
		m++
	}
	if oos {
		m--
	}
	if across {
		m--
	}
	return m
}

// BridgeRepaired reads the bridge repair table (10.18): a modified roll of 3
// to 7 repairs the bridge, 0 to 2 fails, and so does the -1 the modifiers can
// reach below the table.
func BridgeRepaired(modified int) bool { return modified >= 3 }

// RepairBridge rolls a NATO bridge repair attempt (10.18) and returns the
// modified roll and whether the bridge is repaired.
func RepairBridge(greatPower, oos, across bool, r dice.Roller) (modified int, repaired bool) {
	modified = dice.Roll(r, 1, 6, "WbT 10.18 bridge repair roll")[0] + BridgeRepairModifier(greatPower, oos, across)
	return modified, BridgeRepaired(modified)
}

// BridgeDemolished reads the Serbian bridge demolition table (10.19): 3-6
// demolishes, 1-2 fails.
func BridgeDemolished(roll int) bool { return roll >= 3 }

// DemolishBridge rolls a Serbian demolition attempt (10.19) and returns the
// roll and whether the bridge is down. NATO demolitions are automatic and
// take no roll (10.19).
func DemolishBridge(r dice.Roller) (roll int, demolished bool) {
	roll = dice.Roll(r, 1, 6, "WbT 10.19 Serbian bridge demolition roll")[0]
	return roll, BridgeDemolished(roll)
}
