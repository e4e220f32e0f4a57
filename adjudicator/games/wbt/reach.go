package wbt

// This file holds what a move order can reach at best, whatever the dice:
// the receipt refuses an order that can never be carried out as written
// (a hex its units may never enter, a path longer than their MPs with
// every river roll a 1, a zone of control it must stop in, a 1st AAA
// flight it may not make) instead of forecasting its stop (10.3, 10.7,
// 10.8-10.20, 6.2-6.4, 7.3, 9.3, 9.4, 12.3).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// neverCarried says why a move order can never be carried out as written,
// nil when some roll of the dice carries it out. It judges on the state at
// receipt and counts only what the file's other orders cannot change: the
// terrain, the enemy (who does not move in this phase), the units the file
// moves no earlier, each unit's movement factor (the largest the file's
// repairs, aerial supply and earlier moves could give it) and every
// unbridged river roll a 1 (none at a bridge the file repairs). A zone of
// control counts when no earlier order of the file can change it.
func (g *game) neverCarried(o moveOrder, fc *fileContext) error {
	units := o.units
	lead := units[0]
	side := lead.c.Side
	names := unitNames(units)
	switch {
	case side == nato && g.mandatory():
		return adjudicator.Refuse("NATO units stay where they are on a mandatory reconstitution turn: send no move orders", "no NATO movement on a mandatory reconstitution turn (9.3)")
	case side == nato && g.discretionary() && (len(o.path) > 1 || len(o.alts) > 0 || !g.grid.Adjacent(lead.pos, o.path[0])):
		hint := fmt.Sprintf("move %s %s: one hex, no else path", names, g.hex(o.path[0]))
		if !g.grid.Adjacent(lead.pos, o.path[0]) {
			hint = fmt.Sprintf("move %s and one hex next to %s, no else path", names, lead.Hex)
		}
		return adjudicator.Refuse(hint, "on a discretionary reconstitution turn a unit moves one hex (9.4)")
	}
	n := g.net()
	if lead.c.AAA {
		return g.neverFlown(lead, o.path, n, fc)
	}
	zoc := map[board.ID]bool{}
	if side == serb {
		zoc = g.certainZOC(fc)
		if zoc[lead.pos] {
			return adjudicator.Refuse("units that begin the phase in a NATO zone of control stay (7.3): move the others", "%s began the phase in a NATO zone of control at %s: it may not move (7.3)", names, lead.Hex)
		}
	}
	mf, used := map[*unit]int{}, map[*unit]int{}
	for _, u := range units {
		mf[u] = g.mfBound(u, n, fc)
	}
	able := slices.Clone(units) // the units that may still follow the path
	cur := lead.pos
	for k, next := range o.path {
		if g.enemyAt(side, next) {
			return adjudicator.Refuse(g.enterHint(able, cur, nil, fc), "%s may not enter %s: enemy units are there (10.7)", unitNames(able), g.hex(next))
		}
		var stuck []*unit
		barred, short := map[*unit]string{}, map[*unit]int{}
		for _, u := range able {
			c, _, why := g.enterCost(u, cur, next)
			c += g.leastExtra(u, cur, next, fc) * quarter
			switch {
			case why != "":
				barred[u] = why
			case used[u]+c > mf[u]:
				short[u] = c
			default:
				used[u] += c
				continue
			}
			stuck = append(stuck, u)
		}
		for _, u := range stuck {
			if o.mayLeave(u) && len(stuck) < len(able) {
				continue // left behind where it stands (10.6)
			}
			left := map[*unit]int{u: mf[u] - used[u]}
			hint := g.enterHint([]*unit{u}, cur, left, fc)
			if k > 0 {
				hint += "; or end the path at " + g.hex(cur) + ", the farthest " + u.ID + " reaches along it"
			}
			if len(able) > 1 && len(stuck) < len(able) {
				hint += "; or let the stack go on without " + u.ID + ": " + leaveHint(o)
			}
			if why, ok := barred[u]; ok {
				return adjudicator.Refuse(hint, "%s may not enter %s: %s", u.ID, g.hex(next), why)
			}
			return adjudicator.Refuse(hint, "%s cannot reach %s: with every river roll a 1 it has %s MP left at %s, not the %s to enter %s (10.3)", u.ID, g.hex(next), fmtMP(mf[u]-used[u]), g.hex(cur), fmtMP(short[u]), g.hex(next))
		}
		able = slices.DeleteFunc(able, func(u *unit) bool { return slices.Contains(stuck, u) })
		if stay := g.staying(side, units, next, fc); stackCount(stay)+leastStack(o, able) > stackLimit(side) {
			return adjudicator.Refuse(fmt.Sprintf("go round %s, or move %s away with an earlier move order", g.hex(next), strings.Join(unitIDList(stay), " ")),
				"%s may not enter %s: %s %s there, and %s", unitNames(able), g.hex(next), strings.Join(unitIDList(stay), ", "), verbS(len(stay), "stays", "stay"), stackRule(side))
		}
		cur = next
		if zoc[next] && k < len(o.path)-1 {
			return adjudicator.Refuse("end the path at "+g.hex(next), "%s must stop at %s, in a NATO zone of control (7.3): the path may not go on to %s", unitNames(able), g.hex(next), g.hex(o.path[k+1]))
		}
	}
	return g.neverElse(o, side)
}

// neverElse refuses an else path with a hex the order's units may never
// enter (10.7, 10.8-10.20) from the hex before it: enemy units, or terrain
// barring a unit the stack may not leave behind, or every unit.
func (g *game) neverElse(o moveOrder, side side) error {
	for _, alt := range o.alts {
		able := slices.Clone(o.units)
		for i, next := range alt[1:] {
			cur := alt[i]
			who, why := "", ""
			if g.enemyAt(side, next) {
				who, why = unitNames(able), "enemy units are there (10.7)"
			}
			var stuck []*unit
			for _, u := range able {
				if _, _, w := g.enterCost(u, cur, next); w != "" {
					stuck = append(stuck, u)
					if who == "" && (!o.mayLeave(u) || len(stuck) == len(able)) {
						who, why = u.ID, w
					}
				}
			}
			if who != "" {
				return adjudicator.Refuse(g.enterHint(able, cur, nil, nil), "the else path from %s: %s may not enter %s: %s", g.hex(alt[0]), who, g.hex(next), why)
			}
			able = slices.DeleteFunc(able, func(u *unit) bool { return slices.Contains(stuck, u) })
		}
	}
	return nil
}

// neverFlown refuses a 1st AAA rebasing it may not make (12.3): out of
// play, too far, or to a hex it may not end in (the other NATO units
// counted only when no earlier order moves them).
func (g *game) neverFlown(u *unit, path []board.ID, n *supplyNet, fc *fileContext) error {
	mf := g.mfBound(u, n, fc)
	dest := path[len(path)-1]
	hexes, why := g.flight(u.pos, path, mf)
	if why != "" {
		return adjudicator.Refuse(fmt.Sprintf("the 1st AAA flies at most %s hexes (1 MP a hex) over in-play hexes", fmtMP(mf)), "the 1st AAA cannot fly to %s: %s", g.hex(dest), why)
	}
	endHint := "rebase to a hex that is not a city, marsh or mountain, with no enemy unit and no other NATO unit but the KLA (12.3, 6.2)"
	switch what := g.aaaMayEnd(dest); {
	case what == "a hex with another NATO unit (6.2: one NATO unit a hex)" && len(g.staying(nato, []*unit{u}, dest, fc)) == 0:
		// the unit there moves earlier in the file, and may leave
	case what != "":
		return adjudicator.Refuse(endHint, "the 1st AAA may not end its move in %s (%s, 12.3)", g.hex(dest), what)
	}
	if hexes*quarter > mf {
		return adjudicator.Refuse(fmt.Sprintf("rebase at most %s hexes", fmtMP(mf)), "the 1st AAA has %s MP: a %d-hex flight is too far (10.3, 12.3)", fmtMP(mf), hexes)
	}
	return nil
}

// mfBound is the largest movement factor a unit can have when its move
// comes, in quarters: out of supply now, a NATO unit may be resupplied by
// the file's repairs, aerial supply or earlier moves (8.4).
func (g *game) mfBound(u *unit, n *supplyNet, fc *fileContext) int {
	q, _ := g.movementFactor(u, n)
	if u.c.Side == nato && (fc.mayResupply || len(fc.movers) > 0) {
		mf, _ := g.unsuppliedMF(u)
		q = max(q, max(mf, 0)*quarter)
	}
	return q
}

// leastExtra is the least a river crossing from cur to next can add for u
// (10.15): none at an intact bridge or one the file repairs, 1 for the MEF
// and for the lowest roll.
func (g *game) leastExtra(u *unit, cur, next board.ID, fc *fileContext) int {
	if !g.unbridged(cur, next) || fc.firsts["repair "+board.MakePair(cur, next).String()] > 0 {
		return 0
	}
	return 1
}

// certainZOC lists the hexes certainly in a NATO zone of control when a
// Serbian move order's turn comes (7.1-7.5): all of them now when no
// earlier order of the file can cut a NATO unit's supply, else those of
// units whose supply no Serbian move cuts (in-country, aerial, the 1st
// AAA's).
func (g *game) certainZOC(fc *fileContext) map[board.ID]bool {
	if len(fc.movers) == 0 && !fc.demolishes() {
		return g.zoc()
	}
	return g.zocOf(func(s supply) bool { return s.How != "traced" })
}

// enemyAt reports enemy units in a hex.
func (g *game) enemyAt(side side, id board.ID) bool {
	return slices.ContainsFunc(g.unitsAt(id), func(u *unit) bool { return u.c.Side != side })
}

// staying lists the side's units in a hex that no earlier move order of
// the file takes away (the moving units aside).
func (g *game) staying(side side, moving []*unit, id board.ID, fc *fileContext) []*unit {
	var out []*unit
	for _, u := range g.unitsAt(id) {
		if u.c.Side == side && !slices.Contains(moving, u) && !fc.movers[u.ID] && stackValue(u.c) > 0 {
			out = append(out, u)
		}
	}
	return out
}

// leastStack is the least stacking value the order can bring into a hex:
// the units it may not leave behind, or its smallest unit.
func leastStack(o moveOrder, able []*unit) int {
	n, least := 0, -1
	for _, u := range able {
		if !o.mayLeave(u) {
			n += stackValue(u.c)
		}
		if least < 0 || stackValue(u.c) < least {
			least = stackValue(u.c)
		}
	}
	if n == 0 {
		return max(least, 0)
	}
	return n
}

// leaveHint says how a stack order lets a unit be left behind (10.6).
func leaveHint(o moveOrder) string {
	if len(o.leave) == 0 {
		return "drop together from the order (10.6)"
	}
	return "name it after leave, or drop the leave clause (10.6)"
}

// enterHint lists the hexes next to cur the units may all enter (10.7,
// 10.8-10.20) and, with left, afford with the MP each has left (every river
// roll a 1).
func (g *game) enterHint(units []*unit, cur board.ID, left map[*unit]int, fc *fileContext) string {
	var ok []string
	for _, nb := range g.grid.Neighbours(cur) {
		if g.enemyAt(units[0].c.Side, nb) {
			continue
		}
		if !slices.ContainsFunc(units, func(u *unit) bool {
			c, _, why := g.enterCost(u, cur, nb)
			if left != nil {
				c += g.leastExtra(u, cur, nb, fc) * quarter
				return why != "" || c > left[u]
			}
			return why != ""
		}) {
			ok = append(ok, g.hex(nb))
		}
	}
	slices.Sort(ok)
	if len(ok) == 0 {
		return fmt.Sprintf("from %s %s may enter no hex", g.hex(cur), unitNames(units))
	}
	return fmt.Sprintf("from %s %s may enter %s", g.hex(cur), unitNames(units), strings.Join(ok, " "))
}
