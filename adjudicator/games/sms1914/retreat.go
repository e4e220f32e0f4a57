package sms1914

// This file carries out retreats (11.1): the path (the greatest distance
// from the combat hex, then the fewest EZOCs, then inside the army's Area
// of Attachment, then toward a supply unit, 11.1.1, 11.1.1a; a garrison
// within its range first, 8.6.3; where these leave a choice, the fewest
// costly crossings, then the owner's retreat toward hex), the costs of
// EZOCs and hexsides (11.1.3, 11.1.4), a Repulse to clear a blocked way
// (7.4, 11.1.5 play note), being unable to retreat (11.1.5) and the
// surrender of isolated Demoralized Forces (11.1.6).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// retreatPath is a candidate path and its score.
type retreatPath struct {
	hexes   []board.ID
	dist    int
	ezoc    int
	outside int // hexes outside the army's area
	supply  int // distance to the nearest supply unit at the end
	pref    int // distance to the owner's preferred hex
	cross   int // impassable or unbridged Sava hexsides crossed
	beyond  int // hexes a garrison ends beyond its range (8.6.3)
	blocked board.ID
}

// better orders retreat paths: the full length, a garrison within its
// range (8.6.3), then 11.1.1's priorities with 11.1.1a's one exception
// (EZOCs before the area and the supply unit); only then the player's own
// choices, which the priorities leave open: the fewest crossings that cost
// an SR and a CEL (11.1.4), then the retreat toward hex.
func (p retreatPath) better(q retreatPath) bool {
	switch {
	case len(p.hexes) != len(q.hexes):
		return len(p.hexes) > len(q.hexes)
	case p.beyond != q.beyond:
		return p.beyond < q.beyond
	case p.dist != q.dist:
		return p.dist > q.dist
	case p.ezoc != q.ezoc:
		return p.ezoc < q.ezoc
	case p.outside != q.outside:
		return p.outside < q.outside
	case p.supply != q.supply:
		return p.supply < q.supply
	case p.cross != q.cross:
		return p.cross < q.cross
	}
	return p.pref < q.pref
}

// retreatTo finds the best path of up to n hexes for a stack of side
// from its hex, away from the combat hex.
func (g *game) retreatTo(units []*unit, n int, combat board.ID) retreatPath {
	side := units[0].c.Side
	start := units[0].pos
	army := units[0].Army
	var area map[board.ID]string
	if side == ah {
		area, _ = g.aoas(g.Boundaries, g.markers())
	}
	prefHex := board.ID{}
	for _, l := range g.standing(side.Seat(), "retreat") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "toward" {
			prefHex = g.parse(f[1])
		}
	}
	// 11.1.1 (3): the supply units the stack may draw Provisions from
	// (15.2), by its first Combat unit: its Formation where it has one
	lead := units[0]
	for _, u := range units {
		if u.combat() {
			lead = u
			break
		}
	}
	var supplies []board.ID
	for _, u := range g.units(side) {
		if u.onMap() && g.mayDrawFrom(lead, u) {
			supplies = append(supplies, u.pos)
		}
	}
	// 8.6.3: a garrison in the stack tries to stay within its range
	var garrison *unit
	for _, u := range units {
		if u.c.Kind == kGarrison && !u.Released {
			garrison = u
		}
	}
	best := retreatPath{}
	var walk func(at board.ID, path []board.ID, seen map[board.ID]bool, ez, out, cross int)
	walk = func(at board.ID, path []board.ID, seen map[board.ID]bool, ez, out, cross int) {
		p := retreatPath{hexes: slices.Clone(path), dist: g.grid.Distance(at, combat), ezoc: ez, outside: out, cross: cross, supply: 99, pref: 0}
		for _, s := range supplies {
			p.supply = min(p.supply, g.grid.Distance(at, s))
		}
		if prefHex != (board.ID{}) {
			p.pref = g.grid.Distance(at, prefHex)
		}
		if garrison != nil {
			p.beyond = max(0, g.grid.Distance(at, garrison.c.Home)-garrison.c.Garrison)
		}
		if best.hexes == nil && len(path) == 0 || p.better(best) {
			best = p
		}
		if len(path) == n {
			return
		}
		for _, x := range g.nbrs(at) {
			if seen[x] || x == combat {
				continue
			}
			if g.enemyIn(x, side) {
				continue
			}
			if g.terrain(x) == "impassable" {
				continue
			}
			f := g.feature(at, x)
			c := cross
			switch {
			case isDonau(f):
				if board.MakePair(at, x) != board.MakePair(g.parse("23.03"), g.parse("23.04")) || side == sb {
					continue // 11.1: no retreat over the Donau but at 23.03/23.04
				}
			case f == sideImpass, isSava(f) && !g.bridged(at, x):
				c++
			}
			e := ez
			if g.inEZOC(x, side) && !g.friendIn(x, side) {
				e++
			}
			o := out
			if area != nil && area[x] != army {
				o++
			}
			seen[x] = true
			walk(x, append(path, x), seen, e, o, c)
			delete(seen, x)
		}
	}
	walk(start, nil, map[board.ID]bool{start: true}, 0, 0, 0)
	return best
}

// retreatUnits retreats a stack n hexes from the combat at combat (11.1).
// A Depot in it is displaced (11.1.2, 15.6.2b), a Fort flips and retreats
// (8.5.2). attacker: the attacker's own retreats (no Repulse against the
// defender's hex).
func (g *game) retreatUnits(units []*unit, n int, combat board.ID, attacker bool, rule string) {
	var stack []*unit
	for _, u := range units {
		if !u.onMap() {
			continue
		}
		if u.c.Kind == kDepot {
			g.displaceDepot(u, "its stack retreats (11.1.2)")
			continue
		}
		if u.c.Kind == kSquadron {
			continue
		}
		if u.isFort() {
			u.Flipped = true
			g.evFor(u.c.Side, "8.5.2", "%s flips to its infantry side and retreats with its Force.", u.ID)
		}
		stack = append(stack, u)
	}
	if len(stack) == 0 {
		return
	}
	side := stack[0].c.Side
	// the stack's Forces, for the CE losses
	forceSet := map[*unit]*force{}
	var forces []*force
	for _, u := range stack {
		f := g.forceOf(u)
		if l := f.Lead(); l != nil && forceSet[l] == nil {
			forceSet[l] = f
			forces = append(forces, f)
		}
	}
	from := stack[0].pos
	for _, u := range stack {
		if u.Hex2 != "" {
			// a Two-Hex unit retreats whole: the other half consolidates into the last hex (19.1.7)
			g.place(u, u.pos)
		}
	}
	wasDemoralized := map[*force]bool{}
	isolated := map[*force]bool{}
	c := g.newSupply(side)
	for _, f := range forces {
		if f.Formation != nil {
			wasDemoralized[f] = f.Formation.CE.Demoralized()
			if f.Formation.CE >= statusMinus1 {
				isolated[f] = g.isolated(c, f)
			}
		}
	}
	path := g.retreatTo(stack, n, combat)
	// 11.1.6: an isolated Force that is or becomes Demoralized surrenders
	// if it cannot retreat or must enter an un-negated EZOC
	for _, f := range forces {
		if !isolated[f] || f.Formation == nil {
			continue
		}
		willBe := f.Formation.CE.Demoralized() || int(f.Formation.CE)+path.ezoc+path.cross >= int(statusD1)
		if willBe && (len(path.hexes) < n || path.ezoc > 0) {
			for _, u := range f.Units() {
				g.eliminate(u, "11.1.6", "an Isolated Demoralized Force unable to retreat, or forced into an EZOC, surrenders")
			}
		}
	}
	var live []*unit
	for _, u := range stack {
		if u.onMap() {
			live = append(live, u)
		}
	}
	stack = live
	if len(stack) == 0 {
		return
	}
	at := from
	moved := 0
	var via []board.ID // the hexes it retreated through
	step := func(h board.ID) {
		fside := g.feature(at, h)
		for _, u := range stack {
			g.place(u, h)
			u.PA, u.Task, u.TaskMP = "", "", 0
			u.Retreated = true
		}
		if fside == sideImpass || isSava(fside) && !g.bridged(at, h) {
			for _, f := range forces {
				if f.Lead() != nil && f.Lead().onMap() {
					g.evFor(side, "11.1.4", "%s retreats across %s/%s: an SR and a CEL reduction.", f, g.hex(at), g.hex(h))
					g.takeSR([]*force{f}, g.lossPrefs(side), "11.1.4")
					g.reduceCE(f, 1, "11.1.4", "retreating across an impassable or unbridged Sava hexside")
				}
			}
		}
		if g.inEZOC(h, side) && onlyThese(g, h, stack) {
			for _, f := range forces {
				if f.Lead() != nil && f.Lead().onMap() {
					g.reduceCE(f, 1, "11.1.3", "retreating into an EZOC at "+g.hex(h))
				}
			}
		}
		g.geoVP(stack, h)
		g.pontoonsOccupied(h, side)
		at = h
		moved++
		via = append(via, h)
	}
	// a Repulse to clear a blocked way, once per retreating stack, made
	// from the first hex of the way next to the blocking enemy (7.4,
	// 7.4.1, 11.1.5 play note)
	tried := slices.ContainsFunc(stack, func(u *unit) bool { return g.retreatRepulsed[u] })
	if len(path.hexes) < n && !attacker && g.retreatRepulsed != nil && !tried && g.repulseInRetreat(side) {
		// the Repulse is made from the end of the best way, against the
		// weakest enemy stack next to it that lies further from the combat
		k := len(path.hexes)
		end := from
		if k > 0 {
			end = path.hexes[k-1]
		}
		path.blocked = g.repulseTarget(side, end, combat)
		if path.blocked == (board.ID{}) {
			k = -1
		}
		var users []*unit
		for _, u := range forces[0].Units() {
			if u.combat() && len(users) < 2 {
				users = append(users, u)
			}
		}
		if k >= 0 && len(users) > 0 && (forces[0].Formation == nil || forces[0].Formation.CE < statusCI) {
			for _, h := range path.hexes[:k] {
				step(h)
			}
			rest := path.hexes[k:]
			for _, u := range stack {
				g.retreatRepulsed[u] = true
			}
			g.ev("7.4", "A retreating stack in %s tries to Repulse the enemy in %s.", g.hex(at), g.hex(path.blocked))
			if forces[0].Lead().onMap() && g.repulse(forces[0].Units(), users, path.blocked, true) {
				rest = g.retreatTo(stack, n-moved, combat).hexes
			}
			path.hexes = rest
		}
	}
	for _, h := range path.hexes {
		if len(stack) == 0 || !stack[0].onMap() {
			break
		}
		step(h)
	}
	for _, u := range stack {
		u.Retreated = true
	}
	if moved > 0 {
		g.arrow(from, at, "retreat", side, via...)
	}
	short := n - moved
	g.ev(rule, "%s's stack in %s retreats %d hex%s%s.", side, g.hex(from), moved, plural(moved, "", "es"), retreatEnd(g, at, from))
	if short > 0 {
		for _, f := range forces {
			if f.Lead() == nil || !f.Lead().onMap() {
				continue
			}
			g.evFor(side, "11.1.5", "%s cannot retreat %d hex%s: a CEL reduction and an SR for each.", f, short, plural(short, "", "es"))
			for i := 0; i < short; i++ {
				g.reduceCE(f, 1, "11.1.5", "unable to retreat")
				g.takeSR([]*force{f}, g.lossPrefs(side), "11.1.5")
			}
		}
	}
	for _, f := range forces {
		if f.Formation != nil && f.Formation.onMap() && !wasDemoralized[f] && f.Formation.CE.Demoralized() {
			g.evFor(side, "11.1.3", "%s is now Demoralized.", f.Formation.ID)
		}
	}
	g.zocEffects(side)
	g.supplyUnitsInEZOC(side)
	g.zocEffects(side.Enemy())
	g.supplyUnitsInEZOC(side.Enemy())
}

// repulseTarget is the enemy stack next to at, further than at from the
// combat hex, with the least defence strength (the nearest to the combat
// hex first when equal); none when there is no such stack.
func (g *game) repulseTarget(side side, at, combat board.ID) board.ID {
	best, bestDS := board.ID{}, 1<<30
	for _, h := range g.nbrs(at) {
		if !g.enemyIn(h, side) || g.grid.Distance(h, combat) <= g.grid.Distance(at, combat) {
			continue
		}
		ds := 0
		for _, u := range g.sideAt(h, side.Enemy()) {
			ds += u.values().DS
		}
		if ds < bestDS {
			best, bestDS = h, ds
		}
	}
	return best
}

// onlyThese: the hex holds no friendly units but the retreating stack (so
// nothing there negates the EZOC, 11.1.3).
func onlyThese(g *game, h board.ID, stack []*unit) bool {
	for _, u := range g.sideAt(h, stack[0].c.Side) {
		if !slices.Contains(stack, u) && u.c.Kind != kSquadron {
			return false
		}
	}
	return true
}

func retreatEnd(g *game, at, from board.ID) string {
	if at == from {
		return ""
	}
	return " to " + g.hex(at)
}

// repulseInRetreat is the side's standing order on Repulses during a
// retreat: yes unless "repulse no".
func (g *game) repulseInRetreat(side side) bool {
	for _, l := range g.standing(side.Seat(), "repulse") {
		if l == "no" {
			return false
		}
	}
	return true
}

func (p retreatPath) String() string { return fmt.Sprintf("%v", p.hexes) }
