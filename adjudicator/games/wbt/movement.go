package wbt

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Movement points are counted in quarters: a highway hex costs a
// mechanized unit 0.25 MP (10.17).
const quarter = 4

func fmtMP(q int) string {
	s := fmt.Sprintf("%.2f", float64(q)/quarter)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// mech reports whether a unit moves and fights as mechanized now (2.5,
// 10.21).
func mech(u *Unit) bool { return u.c.Mobility == Mech && !u.Dismounted }

// movementFactor is a unit's movement factor this phase in quarters: the
// printed one, 4 dismounted (10.21), less 1 (non-mechanized) or 2
// (mechanized) in bad weather (5.3; the airmobile 1st AAA is not named, so
// unaffected), halved rounding down when out of supply at the start of its
// move (8.4; after the weather, as the check is made then).
func (g *game) movementFactor(u *Unit, n *supplyNet) (q int, why []string) {
	mf := u.c.Move
	if u.Dismounted {
		mf = 4
		why = append(why, "dismounted 4 (10.21)")
	}
	if g.Bad {
		switch {
		case u.c.Mobility == Airmobile:
		case mech(u):
			mf -= 2
			why = append(why, "bad weather -2 (5.3)")
		default:
			mf--
			why = append(why, "bad weather -1 (5.3)")
		}
	}
	if u.c.Side == NATO && !g.supply(u, n).OK {
		mf /= 2
		why = append(why, "out of supply, halved (8.4)")
	}
	return max(mf, 0) * quarter, why
}

// enterCost is the cost in quarters of entering next from cur, rivers
// aside, and whether it is road movement; why is set when the unit may not
// enter at all (10.7-10.20, 12.3).
func (g *game) enterCost(u *Unit, cur, next board.ID) (q int, road bool, why string) {
	if !g.grid.Contains(next) || !g.inPlay(next) {
		return 0, false, "it is neutral or off the theatre (3.2)"
	}
	if u.c.AAA {
		return quarter, false, "" // 12.3: one MP a hex over any terrain
	}
	t := g.terrain(next)
	if t == "marsh" {
		return 0, false, "marsh is unplayable (10.14)"
	}
	if u.c.Side == Serb && !g.yugoslav(next) {
		return 0, false, "Serbian units may not move out of rump-Yugoslavia (3.3)"
	}
	if link := g.sc.Map.Link(cur, next); link != "" {
		// 10.17: along the road's course, whatever the terrain
		switch {
		case !mech(u):
			return quarter, true, ""
		case link == board.Highway:
			return 1, true, ""
		default:
			return 2, true, ""
		}
	}
	m := mech(u)
	switch {
	case g.isCity(next):
		return quarter, false, "" // 10.20
	case t == "forest" && m:
		return 2 * quarter, false, "" // 10.11
	case t == "hills" && m:
		return 3 * quarter, false, "" // 10.12
	case t == "mountain" && m:
		return 0, false, "mechanized units enter mountains only by road (10.13)"
	case t == "mountain":
		return 2 * quarter, false, "" // 10.13
	}
	return quarter, false, "" // 10.10-10.12, towns by their terrain (10.20)
}

// unbridged reports an unbridged river between adjacent hexes: a river
// with no bridge or a demolished one (10.15, 10.18).
func (g *game) unbridged(a, b board.ID) bool {
	return g.sc.Map.River(a, b) && !g.bridgeIntact(board.MakePair(a, b))
}

// aaaMayEnd reports whether the 1st AAA may end its move in a hex (12.3).
func (g *game) aaaMayEnd(id board.ID) string {
	switch {
	case g.isCity(id):
		return "a city"
	case g.terrain(id) == "marsh":
		return "marsh"
	case g.terrain(id) == "mountain":
		return "a mountain hex"
	}
	for _, u := range g.unitsAt(id) {
		if u.c.Side == Serb {
			return "a hex with Serbian units"
		}
		if !u.c.AAA && stackValue(u.c) > 0 {
			return "a hex with another NATO unit (6.2: one NATO unit a hex)"
		}
	}
	return ""
}

// move carries out one move order: units (a NATO unit, or a Serbian
// stack that began the phase together) along path (10.1-10.20, 12.3).
// A move stopped partway ends where it stopped and the rest of its path is
// dropped, unless one of alts (the order's "else" paths, each starting at
// a hex of the path) starts at the stop hex and the unit is still free to
// move: then it goes on along that path with the MP it has left. A river
// stall (10.15) and a zone of control (7.3) end the unit's movement for
// the phase, so no alternative follows them.
func (g *game) move(units []*Unit, path []board.ID, alts ...[]board.ID) (used, mp int, end board.ID) {
	lead := units[0]
	side := lead.c.Side
	names := unitNames(units)
	start := lead.pos
	for _, u := range units {
		switch {
		case !u.alive():
			g.ev("10.2", "%s cannot move: it is not on the map.", u.ID)
			return 0, 0, start
		case u.pos != start:
			g.ev("10.4", "%s cannot move together: they are not in the same hex.", names)
			return 0, 0, start
		case u.Moved:
			g.ev("10.2", "%s has already moved this phase.", u.ID)
			return 0, 0, start
		case u.Fixed:
			g.ev("10.18", "%s repaired or demolished a bridge or dismounted or remounted this player turn: it may not move.", u.ID)
			return 0, 0, start
		case u.c.AAA && u.Attacked:
			g.ev("12.2", "The 1st AAA attacked this player turn: it may not also move.")
			return 0, 0, start
		}
	}
	if side == NATO && g.mandatory() {
		g.ev("9.3", "No NATO movement on a mandatory reconstitution turn: %s stays.", names)
		return 0, 0, start
	}
	if lead.c.AAA {
		alts = nil // 12.3: one flight
	}
	if side == NATO && g.discretionary() {
		alts = nil // 9.4: one hex
		if len(path) > 1 {
			g.ev("9.4", "On a discretionary reconstitution turn %s may move only one hex: it moves to %s only.", names, g.hex(path[0]))
			path = path[:1]
		}
	}
	var zoc map[board.ID]bool
	if side == Serb {
		zoc = g.zoc()
		if zoc[start] {
			g.ev("7.3", "%s began the phase in a NATO zone of control at %s: it may not move.", names, g.hex(start))
			return 0, 0, start
		}
	}
	n := g.net()
	mp = -1
	for _, u := range units {
		q, why := g.movementFactor(u, n)
		if mp < 0 || q < mp {
			mp = q // 10.6: a stack moves at its slowest unit's rate
		}
		if len(why) > 0 {
			g.ev("10.1", "%s has %s MP this phase (%s).", u.ID, fmtMP(q), strings.Join(why, ", "))
		}
	}
	if lead.c.AAA {
		if len(path) > 0 {
			if why := g.aaaMayEnd(path[len(path)-1]); why != "" {
				g.ev("12.3", "The 1st AAA may not end its move in %s (%s): it does not move.", g.hex(path[len(path)-1]), why)
				return 0, mp, start
			}
			if len(path)*quarter > mp {
				g.ev("10.3", "The 1st AAA has %s MP, not the %d a %d-hex rebasing costs: it does not move.", fmtMP(mp), len(path), len(path))
				return 0, mp, start
			}
		}
	}
	cur := start
	moved := false
	rest := path // the hexes of the path being followed not yet entered
	for {
		free := true // the stop leaves the unit free to move on (an else path)
	walk:
		for len(rest) > 0 {
			next := rest[0]
			if !g.grid.Adjacent(cur, next) {
				g.ev("10.2", "%s: %s is not next to %s; the move stops at %s.", names, g.hex(next), g.hex(cur), g.hex(cur))
				break
			}
			cost, _, why := g.enterCost(lead, cur, next)
			for _, u := range units[1:] {
				c, _, w := g.enterCost(u, cur, next)
				if w != "" && why == "" {
					why = w
				}
				cost = max(cost, c)
			}
			if why != "" {
				g.ev("10.8", "%s may not enter %s: %s; the move stops at %s.", names, g.hex(next), why, g.hex(cur))
				break
			}
			enemy := false
			for _, u := range g.unitsAt(next) {
				if u.c.Side != side {
					enemy = true
				}
			}
			if enemy && !lead.c.AAA {
				g.ev("10.7", "%s may not enter %s: enemy units are there; the move stops at %s.", names, g.hex(next), g.hex(cur))
				break
			}
			if !lead.c.AAA && !g.fits(side, units, next) {
				g.ev("6.4", "%s may not enter %s: it would be over-stacked (at any instant); the move stops at %s.", names, g.hex(next), g.hex(cur))
				break
			}
			if !lead.c.AAA && g.unbridged(cur, next) {
				var extra int
				switch {
				case lead.c.MEF:
					extra = 1
					g.ev("10.15", "The MEF pays 1 extra MP to cross the unbridged river %s/%s.", g.hex(cur), g.hex(next))
				default:
					extra = dice.Roll(g.r, 1, 6, fmt.Sprintf("WbT 10.15 river crossing, %s at %s/%s", names, g.hex(cur), g.hex(next)))[0]
				}
				cost += extra * quarter
				if used+cost > mp {
					g.ev("10.15", "%s rolls %d extra MP to cross the river %s/%s and has only %s left: it is stalled at %s for the phase.", names, extra, g.hex(cur), g.hex(next), fmtMP(mp-used), g.hex(cur))
					free = false // 10.15: "nor may it move off in any other direction"
					break walk
				}
				if !lead.c.MEF {
					g.ev("10.15", "%s crosses the unbridged river %s/%s for %d extra MP.", names, g.hex(cur), g.hex(next), extra)
				}
			}
			if used+cost > mp {
				g.ev("10.3", "%s has %s MP left, not the %s to enter %s; the move stops at %s.", names, fmtMP(mp-used), fmtMP(cost), g.hex(next), g.hex(cur))
				break
			}
			used += cost
			for _, u := range units {
				g.place(u, next)
			}
			g.Arrows = append(g.Arrows, Arrow{From: g.hex(cur), To: g.hex(next), Kind: board.Move})
			cur, moved, rest = next, true, rest[1:]
			if !lead.c.AAA {
				g.enterHex(units, next)
			}
			if side == Serb && zoc[next] {
				if len(rest) > 0 {
					g.ev("7.3", "%s enters the NATO zone of control at %s and stops.", names, g.hex(next))
				}
				free = false // 7.3: "may not move any farther that phase"
				break
			}
		}
		if len(rest) == 0 {
			break
		}
		i := -1
		if free {
			i = slices.IndexFunc(alts, func(a []board.ID) bool { return len(a) > 1 && a[0] == cur })
		}
		if i < 0 {
			g.ev("10.2", "%s stays at %s: the rest of its path (%s) is dropped.", names, g.hex(cur), g.hexList(rest))
			break
		}
		g.ev("10.2", "%s stops at %s and takes its alternative path (else): %s.", names, g.hex(cur), g.hexList(alts[i][1:]))
		rest, alts = alts[i][1:], alts[i+1:]
	}
	for _, u := range units {
		u.Moved = u.Moved || moved
	}
	if moved {
		g.ev("10.1", "%s moves %s to %s, %s of %s MP.", names, g.hex(start), g.placeName(cur), fmtMP(used), fmtMP(mp))
	}
	return used, mp, cur
}

// hexList writes hexes for an event.
func (g *game) hexList(ids []board.ID) string {
	var hs []string
	for _, id := range ids {
		hs = append(hs, g.hex(id))
	}
	return strings.Join(hs, " ")
}

// enterHex changes control of a rump-Yugoslav city a ground unit enters
// (3.4); a Serbian recapture costs NATO a MePPs-loss check (4.6). The 1st
// AAA never takes control (12.5).
func (g *game) enterHex(units []*Unit, id board.ID) {
	if !g.isCity(id) || !g.yugoslav(id) {
		return
	}
	h := g.hex(id)
	switch units[0].c.Side {
	case NATO:
		if !g.natoControls(id) {
			g.Control = append(g.Control, h)
			g.ev("3.4", "NATO takes control of %s.", g.placeName(id))
		}
	case Serb:
		if g.natoControls(id) {
			g.Control = removeString(g.Control, h)
			g.ev("3.4", "The Serbs regain control of %s.", g.placeName(id))
			g.meppsCheck("4.6", "the Serbs recaptured "+g.placeName(id))
		}
	}
}

func removeString(xs []string, x string) []string {
	out := xs[:0:0]
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

func unitNames(us []*Unit) string {
	ids := make([]string, len(us))
	for i, u := range us {
		ids[i] = u.ID
	}
	return strings.Join(ids, "+")
}
