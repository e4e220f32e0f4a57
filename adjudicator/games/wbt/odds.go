package wbt

import (
	"fmt"
	"strconv"
)

// side is the attacking side of a battle: the player whose player turn it is
// (11.1).
type side int

// The two sides.
const (
	nato side = iota
	serb
)

func (s side) String() string {
	if s == serb {
		return "Serb"
	}
	return "NATO"
}

// ratio is combat odds counted in steps from 1:1 on the column scale: 2:1 is
// +1, 3:1 is +2, 1:2 is -1, 1:3 is -2. Unbounded is +1 for odds with no finite
// ratio above (a defense of 0) and -1 for odds with none below (an attack of
// 0); Steps is then meaningless.
type ratio struct {
	Steps     int
	Unbounded int
}

// odds computes the odds of attack against defense factors: high odds are the
// quotient rounded down to n:1 (11.5), poor odds are the inverse quotient
// rounded up to 1:n (11.6), and equal totals are 1:1 (11.6 note). A zero on one
// side only has no finite ratio (see docs/rulings.md).
func odds(attack, defense int) ratio {
	switch {
	case attack == defense:
		return ratio{}
	case defense == 0:
		return ratio{Unbounded: 1}
	case attack == 0:
		return ratio{Unbounded: -1}
	case attack > defense:
		return ratio{Steps: attack/defense - 1}
	default:
		return ratio{Steps: -((defense + attack - 1) / attack) + 1}
	}
}

// String writes the odds as "3:1" or "1:3"; unbounded odds are "" (no ratio).
func (r ratio) String() string {
	if r.Unbounded != 0 {
		return ""
	}
	if r.Steps >= 0 {
		return strconv.Itoa(r.Steps+1) + ":1"
	}
	return "1:" + strconv.Itoa(1-r.Steps)
}

// columnNames are the two CRT heading rows' column names (11.7): the NATO row runs 1:4 to
// 6:1 and the Serb row 1:3 to 7:1, one column per whole ratio, so the same
// printed column is one ratio step higher for the Serbs.
var columnNames = [2][]string{
	nato: {"1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"},
	serb: {"1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1"},
}

// columns is the number of CRT columns (11.7).
const columns = 9

// lowest is the Steps of a side's leftmost CRT column (11.7): 1:4 for NATO,
// 1:3 for the Serbs.
func lowest(s side) int {
	if s == serb {
		return -2
	}
	return -3
}

// highest is the Steps of a side's rightmost CRT column (11.7): 6:1 for
// NATO, 7:1 for the Serbs.
func highest(s side) int { return lowest(s) + columns - 1 }

// ColumnNames returns the heading row of side's CRT, left to right (11.7).
func ColumnNames(s side) []string { return append([]string(nil), columnNames[s]...) }

// automatic is an automatic combat result (11.7), or None when the battle is
// rolled on the CRT.
type automatic int

// The automatic results of 11.7.
const (
	none             automatic = iota
	attackerRepulsed           // 3/0: odds at or below the leftmost column
	defenderRouted             // 0/6: odds beyond the rightmost column
)

// Result returns the automatic result as a CRT cell.
func (a automatic) Result() (result, bool) {
	switch a {
	case attackerRepulsed:
		return result{3, 0}, true
	case defenderRouted:
		return result{0, 6}, true
	}
	return result{}, false
}

// final is the final odds of a battle after column shifts (11.7, 11.22).
type final struct {
	Side side
	// Odds are the final odds: a CRT column when Automatic is None, otherwise
	// odds off the table (or on the automatic leftmost column).
	Odds      ratio
	Automatic automatic
	// Adjusted reports that the raw odds lay beyond the table and were
	// shifted from the table's end column instead (11.7).
	Adjusted bool
}

// finalOdds applies the net column shift (+ rightward) to side's raw odds
// (11.7, 11.22). Shifts from odds beyond the CRT start at the table's end
// column, not at the raw odds (11.7); with no net shift the raw odds stand.
// Odds at or below the leftmost column (1:4 NATO, 1:3 Serbs) are an automatic
// 3/0, odds beyond the rightmost (6:1 NATO, 7:1 Serbs) an automatic 0/6
// (11.7).
func finalOdds(s side, raw ratio, shift int) final {
	f := final{Side: s, Odds: raw}
	if shift != 0 {
		lo, hi := lowest(s), highest(s)
		steps := raw.Steps
		switch {
		case raw.Unbounded > 0 || (raw.Unbounded == 0 && steps > hi):
			steps, f.Adjusted = hi, true
		case raw.Unbounded < 0 || steps < lo:
			steps, f.Adjusted = lo, true
		}
		f.Odds = ratio{Steps: steps + shift}
	}
	switch {
	case f.Odds.Unbounded > 0 || (f.Odds.Unbounded == 0 && f.Odds.Steps > highest(s)):
		f.Automatic = defenderRouted
	case f.Odds.Unbounded < 0 || f.Odds.Steps <= lowest(s):
		f.Automatic = attackerRepulsed
	}
	return f
}

// Column returns the index (0 leftmost) of the CRT column the final odds fall
// on, and false when they are off the table.
func (f final) Column() (int, bool) {
	if f.Odds.Unbounded != 0 {
		return 0, false
	}
	i := f.Odds.Steps - lowest(f.Side)
	return i, i >= 0 && i < columns
}

// String writes the final odds ("3:1"), "" when unbounded.
func (f final) String() string { return f.Odds.String() }

// terrain is the natural or man-made terrain of the defender's hex that
// matters to combat (11.11-11.17).
type terrain int

// The terrains of the defender's hex.
const (
	Clear terrain = iota
	forest
	hills
	mountain
	city
	town
	marsh
)

var terrainNames = []string{"clear", "forest", "hills", "mountain", "city", "town", "marsh"}

func (t terrain) String() string { return terrainNames[t] }

// parseTerrain reads a terrain name.
func parseTerrain(s string) (terrain, error) {
	for i, n := range terrainNames {
		if n == s {
			return terrain(i), nil
		}
	}
	return 0, fmt.Errorf("unknown terrain %q", s)
}

// errMarsh is the attack into a marsh hex no unit may make (10.14, 11.16).
var errMarsh = fmt.Errorf("no unit may attack into a marsh hex (10.14, 11.16)")

// terrainShift is the column shift the defender's terrain gives (+ rightward):
// city 2 left (11.13), town 1 left (11.13), mountain 2 left (11.14), hills 1
// left (11.15), clear and forest none (11.17). Marsh cannot be attacked
// (11.16).
func terrainShift(t terrain) (int, error) {
	switch t {
	case city, mountain:
		return -2, nil
	case town, hills:
		return -1, nil
	case marsh:
		return 0, errMarsh
	}
	return 0, nil
}

// weatherShift is the bad-weather shift: one column left on every NATO attack,
// none on Serb attacks (5.3).
func weatherShift(s side, bad bool) int {
	if s == nato && bad {
		return -1
	}
	return 0
}

// sequenceShift is the shift of NATO's chosen sequence: one column right on
// every NATO attack in a combat/movement player turn (5.4). The Serb sequence
// gives no shift.
func sequenceShift(s side, combatFirst bool) int {
	if s == nato && combatFirst {
		return 1
	}
	return 0
}
