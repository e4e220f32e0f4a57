package wbt

import (
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// greatPower reports whether a NATO nationality is one of the great powers
// (US, UK, France, Germany) of 10.18 and 11.24; nationality is a name,
// adjective or 2.4 abbreviation.
func greatPower(nationality string) bool {
	switch strings.ToLower(nationality) {
	case "us", "usa", "united states", "american",
		"uk", "united kingdom", "britain", "british",
		"f", "fr", "france", "french",
		"gr", "ge", "germany", "german":
		return true
	}
	return false
}

// bridgeRepairModifier is the sum of the cumulative bridge repair modifiers
// (10.18): +1 for a US, UK, German or French unit, -1 if the unit is out of
// supply, -1 if it is directly across the river hexside from Serbian units.
func bridgeRepairModifier(greatPower, oos, across bool) int {
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

// bridgeRepaired reads the bridge repair table (10.18): a modified roll of 3
// to 7 repairs the bridge, 0 to 2 fails, and so does the -1 the modifiers can
// reach below the table.
func bridgeRepaired(modified int) bool { return modified >= 3 }

// repairBridge rolls a NATO bridge repair attempt (10.18) and returns the
// modified roll and whether the bridge is repaired.
func repairBridge(greatPower, oos, across bool, r dice.Roller) (modified int, repaired bool) {
	modified = dice.Roll(r, 1, 6, "WbT 10.18 bridge repair roll")[0] + bridgeRepairModifier(greatPower, oos, across)
	return modified, bridgeRepaired(modified)
}

// bridgeDemolished reads the Serbian bridge demolition table (10.19): 3-6
// demolishes, 1-2 fails.
func bridgeDemolished(roll int) bool { return roll >= 3 }

// demolishBridge rolls a Serbian demolition attempt (10.19) and returns the
// roll and whether the bridge is down. NATO demolitions are automatic and
// take no roll (10.19).
func demolishBridge(r dice.Roller) (roll int, demolished bool) {
	roll = dice.Roll(r, 1, 6, "WbT 10.19 Serbian bridge demolition roll")[0]
	return roll, bridgeDemolished(roll)
}

// The hints of the bridge refusals (10.18, 10.19): which bridges and units
// would do.

// bridgesNear lists the bridges next to the side's units that keep
// accepts (intact or not), sorted, each with its state: "0304/0305 (down)".
func (g *game) bridgesNear(side side, keep func(intact bool) bool) []string {
	var out []string
	for p := range g.sc.Bridges {
		if keep(g.bridgeIntact(p)) && len(g.unitsNear(side, p)) > 0 {
			out = append(out, p.String()+" ("+map[bool]string{true: "standing", false: "down"}[g.bridgeIntact(p)]+")")
		}
	}
	slices.Sort(out)
	return out
}

// bridgeWorkers lists the side's units next to bridge p that may still
// work on it this player turn: not moved, not attacked, not working on a
// bridge or (dis)mounting now or earlier in the file (10.18, 10.19, 10.21).
func (g *game) bridgeWorkers(side side, p board.Pair, fc *fileContext) []string {
	var out []string
	for _, u := range g.unitsNear(side, p) {
		if u.Moved || u.Attacked || u.Fixed || (fc != nil && fc.fixed[u.ID] != "" && fc.firsts["fix "+u.ID] != fc.line) {
			continue
		}
		out = append(out, u.ID)
	}
	slices.Sort(out)
	return out
}

// workersHint says which units may make the attempt on bridge p (verb
// "repair" or "demolish"), or that none may this player turn.
func (g *game) workersHint(side side, p board.Pair, verb string, fc *fileContext) string {
	if ws := g.bridgeWorkers(side, p, fc); len(ws) > 0 {
		return "the units next to " + p.String() + " that may " + verb + " it: " + strings.Join(ws, " ")
	}
	return "none of your units next to " + p.String() + " may " + verb + " it this player turn (a unit that moved, attacked or works on a bridge may not)"
}

// nearHint answers a unit named for a bridge it is not next to: the units
// that are, and the bridges it is next to (10.18, 10.19).
func (g *game) nearHint(u *unit, p board.Pair, verb string, fc *fileContext) string {
	hint := g.workersHint(u.c.Side, p, verb, fc)
	var mine []string
	for q := range g.sc.Bridges {
		if q.A == u.pos || q.B == u.pos {
			mine = append(mine, q.String())
		}
	}
	slices.Sort(mine)
	if len(mine) > 0 {
		hint += "; " + u.ID + " is next to " + strings.Join(mine, " ")
	}
	return hint + "; a unit is next to a bridge from one of its two hexes"
}

// bridgeHint answers a hexside that is no bridge: the bridges next to the
// seat's units, or one of the map's.
func (g *game) bridgeHint(side side) string {
	if near := g.bridgesNear(side, func(bool) bool { return true }); len(near) > 0 {
		return "a bridge is written as its two hexes; the bridges next to your units are " + strings.Join(near, ", ")
	}
	var all []string
	for p := range g.sc.Bridges {
		all = append(all, p.String())
	}
	slices.Sort(all)
	if len(all) == 0 {
		return "a bridge is written as its two hexes, such as 1900/2000; this map has none"
	}
	return "a bridge is written as its two hexes, such as " + all[0] + "; none is next to your units"
}
