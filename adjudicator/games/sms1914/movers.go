package sms1914

// This file holds the special movers and movement actions: cavalry
// reaction (8.2) and retirement (8.3), Repulse (7.4), depots on the
// railroad (15.6.3), naval squadrons (25.1), the Montenegrin boxes (24.2),
// Two-Hex units (19.1), combinations (16.3, 16.4), detachments (21.1) and
// the Strategic Plan restriction (26.2).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// reactPolicy is a cavalry unit's standing reaction order: "no" (the
// default), "yes" (the umpire picks the hex) or a hex.
func (g *game) reactPolicy(u *unit) string {
	pol := "no"
	for _, l := range g.standing(u.c.Side.Seat(), "react") {
		f := strings.Fields(l)
		if len(f) == 2 && (strings.EqualFold(f[0], u.ID) || f[0] == "all") {
			pol = f[1]
			if strings.EqualFold(f[0], u.ID) {
				return pol
			}
		}
	}
	return pol
}

// cavalryReaction lets enemy cavalry react to a move (8.2): Trigger 1, an
// enemy moving next to a cavalry unit no enemy was next to; Trigger 2, an
// enemy moving from one hex next to it to another.
func (g *game) cavalryReaction(m *phaseMove, movers []*unit, from, to board.ID) {
	side := movers[0].c.Side
	for _, cav := range g.units(side.Enemy()) {
		if cav.c.Kind != kCavalry || cav.Inactive || cav.Hex2 != "" {
			continue
		}
		adjTo, adjFrom := g.grid.Adjacent(cav.pos, to), g.grid.Adjacent(cav.pos, from)
		trigger := 0
		switch {
		case adjTo && adjFrom:
			trigger = 2
		case adjTo:
			trigger = 1
			for _, n := range g.nbrs(cav.pos) {
				if n != to && g.enemyIn(n, cav.c.Side) {
					trigger = 0
				}
			}
		}
		if trigger == 0 {
			continue
		}
		pol := g.reactPolicy(cav)
		if pol == "no" {
			g.evFor(cav.c.Side, "8.2.2", "%s could react to the enemy move into %s (Trigger %d) but its standing order says not to.", cav.ID, g.hex(to), trigger)
			continue
		}
		var best board.ID
		bestScore := -1 << 30
		for _, n := range g.nbrs(cav.pos) {
			if g.enemyIn(n, cav.c.Side) || trigger == 2 && n == from {
				continue
			}
			if g.inEZOC(n, cav.c.Side) && !g.friendIn(n, cav.c.Side) {
				// only the trigger unit's ZOC may be entered (8.2.3)
				other := false
				for _, e := range g.units(side) {
					if !slices.Contains(movers, e) && g.projects(e, n) {
						other = true
					}
				}
				if other {
					continue
				}
			}
			if _, err := g.stepCost(nil, []*unit{cav}, cav.pos, n, true); err != nil {
				continue
			}
			score := g.grid.Distance(n, to)*10 - 3*countAdjEnemy(g, n, cav.c.Side)
			if g.friendIn(n, cav.c.Side) {
				score += 2
			}
			if pol == g.hex(n) {
				score += 1000
			}
			if score > bestScore {
				best, bestScore = n, score
			}
		}
		if bestScore == -1<<30 {
			g.evFor(cav.c.Side, "8.2.3", "%s cannot react: no hex it may enter.", cav.ID)
			continue
		}
		si, _ := g.stepCost(nil, []*unit{cav}, cav.pos, best, true)
		was := cav.pos
		cav.React += si.cost
		cav.PA = ""
		g.place(cav, best)
		g.arrow(was, best, "move", cav.c.Side)
		g.ev("8.2", "Cavalry reacts (Trigger %d) to the move into %s: a unit leaves %s for %s.", trigger, g.hex(to), g.hex(was), g.hex(best))
		g.evFor(cav.c.Side, "8.2.4", "%s reacts from %s to %s: its Reaction MPs Expended marker shows %d.", cav.ID, g.hex(was), g.hex(best), cav.React)
		g.geoVP([]*unit{cav}, best)
	}
}

func countAdjEnemy(g *game, id board.ID, side side) int {
	n := 0
	for _, x := range g.nbrs(id) {
		if g.enemyIn(x, side) {
			n++
		}
	}
	return n
}

// cavalryRetirement is the Cavalry Retirement Step (8.3): cavalry next to
// the enemy may retire one hex, not into an empty EZOC hex, recording its
// MPs as for a reaction.
func (g *game) cavalryRetirement(side side, orders []string) {
	retire := map[string]bool{}
	all := false
	for _, l := range orders {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "retire" {
			if f[1] == "all" {
				all = true
			} else {
				retire[strings.ToLower(f[1])] = true
			}
		}
	}
	for _, cav := range g.units(side) {
		if cav.c.Kind != kCavalry || !g.adjacentEnemy(cav.pos, side) || !(all || retire[strings.ToLower(cav.ID)]) {
			continue
		}
		var best board.ID
		bestScore := -1 << 30
		for _, n := range g.nbrs(cav.pos) {
			if g.enemyIn(n, side) || g.inEZOC(n, side) && !g.friendIn(n, side) {
				continue
			}
			if _, err := g.stepCost(nil, []*unit{cav}, cav.pos, n, true); err != nil {
				continue
			}
			score := -10*countAdjEnemy(g, n, side) + g.enemyDistance(n, side)
			if score > bestScore {
				best, bestScore = n, score
			}
		}
		if bestScore == -1<<30 {
			g.evFor(side, "8.3.1", "%s cannot retire: every hex is enemy held or an empty EZOC hex.", cav.ID)
			continue
		}
		si, _ := g.stepCost(nil, []*unit{cav}, cav.pos, best, true)
		was := cav.pos
		cav.React += si.cost
		cav.PA = ""
		g.place(cav, best)
		g.arrow(was, best, "move", side)
		g.ev("8.3", "Cavalry retires from %s to %s.", g.hex(was), g.hex(best))
		g.evFor(side, "8.3.2", "%s retires to %s: its MPs Expended marker shows %d.", cav.ID, g.hex(best), cav.React)
	}
}

// repulseOrder is a Repulse during movement (7.4): "repulse FORCE HEX
// [using A+B]": 1 MP, at most two units' strength.
func (g *game) repulseOrder(m *phaseMove, units []*unit, f []string) {
	t, err := g.grid.Parse(f[2])
	lead := units[0]
	if err != nil || !g.grid.Adjacent(lead.pos, t) || !g.enemyIn(t, m.side) {
		g.evFor(m.side, "7.4", "%s cannot Repulse %s: no enemy unit next to it there.", lead.ID, f[2])
		return
	}
	using := units
	for i := 3; i+1 < len(f); i++ {
		if f[i] == "using" {
			using = g.forceUnits(f[i+1])
		}
	}
	for _, u := range units {
		if u.c.Formation && u.CE >= statusCI {
			g.evFor(m.side, "7.4.2", "%s cannot Repulse: it is CI or Demoralized.", u.ID)
			return
		}
	}
	spent := 0
	for _, u := range units {
		spent = max(spent, m.spent[u])
	}
	if spent+1 > m.allowance+fmLimit(units)-m.fm[lead] {
		g.evFor(m.side, "7.4", "%s cannot Repulse: no MP left.", lead.ID)
		return
	}
	if isSava(g.feature(lead.pos, t)) && m.start[lead] != lead.pos {
		g.evFor(m.side, "7.4.7", "%s cannot Repulse across the Sava: it did not begin the phase next to %s.", lead.ID, g.hex(t))
		return
	}
	for _, u := range units {
		if m.spent[u]+1 > m.allowance {
			m.fm[u]++
		}
		m.spent[u] = spent + 1
	}
	ok := g.repulse(units, using, t, false)
	if !ok {
		m.noRepulse[lead] = true
		return
	}
	if isSava(g.feature(lead.pos, t)) && !g.enemyIn(t, m.side) {
		from := lead.pos
		for _, u := range units {
			g.place(u, t)
		}
		g.arrow(from, t, "move", m.side)
		g.ev("7.4.7", "After a Repulse across the Sava the Force moves into %s.", g.hex(t))
	}
}

// repulse resolves a Repulse by the Force's units (strength of using, at
// most two units) against the stack in hex t (7.4.3-7.4.5). duringRetreat
// is set for a Repulse made while retreating. It reports success.
func (g *game) repulse(units, using []*unit, t board.ID, duringRetreat bool) bool {
	side := units[0].c.Side
	if len(using) > 2 {
		using = using[:2]
	}
	af := &force{Hex: units[0].pos}
	for _, u := range using {
		if u.c.Formation {
			af.Formation = u
		} else {
			af.Assets = append(af.Assets, u)
		}
	}
	defs := g.forcesAt(t, side.Enemy())
	// a Repulse is not a combat of the Attack Phase: no Ammo is drawn, no strength halved (7.4.3)
	b := &battle{g: g, side: side, target: t, attackers: []*force{af}, defenders: defs, repulse: true, ammo: map[*force]bool{af: true}}
	for _, f := range defs {
		b.ammo[f] = true
	}
	b.strengths()
	s := g.sc.CRT.Scale
	odds := determineOdds(s, b.attack, b.defense, b.shifts(), false)
	pr := prdrm(b.maxPR(b.attackers), b.maxPR(b.defenders))
	out := repulse(g.r, g.sc.CRT, odds.Column, pr)
	txt := fmt.Sprintf("A Repulse from %s into %s at %s", units[0].Hex, g.hex(t), s.Name(odds.Column))
	switch {
	case out.Rolled:
		txt += fmt.Sprintf(": white %d%+d, black %d gives %s", out.Roll.White, pr, out.Roll.Black, out.Roll.Result.Printed)
	case out.Success:
		txt += ": automatic at 8:1"
	default:
		txt += ": below 3:1 it fails"
	}
	g.evFor(side, "7.4.3", "%s (your strength %s).", txt, decimal(b.attack))
	g.evFor(side.Enemy(), "7.4.3", "%s.", txt)
	g.arrow(units[0].pos, t, "attack", side)
	if out.Success {
		g.ev("7.4.4", "The Repulse succeeds: the stack in %s retreats 2 hexes and makes an EC at +1.", g.hex(t))
		var all []*unit
		for _, f := range defs {
			all = append(all, f.Units()...)
		}
		g.retreatUnits(all, 2, t, false, "7.4.4")
		for _, f := range defs {
			if f.Lead() == nil || !f.Lead().onMap() {
				continue
			}
			e := rollEC(g.r, f.CEL(), 1, fmt.Sprintf("7.4.4 EC of a repulsed Force from %s", g.hex(t)))
			if e.Passed {
				g.evFor(side.Enemy(), "7.4.4", "%s passes its Repulse EC: %d+1 = %d against CEL %d.", f, e.Dice, e.Total, f.CEL())
			} else {
				g.evFor(side.Enemy(), "7.4.4", "%s fails its Repulse EC: %d+1 = %d against CEL %d: one CEL reduction.", f, e.Dice, e.Total, f.CEL())
				g.reduceCE(f, 1, "7.4.4", "a failed Repulse EC")
			}
		}
		return true
	}
	f := g.forceOf(units[0])
	e := rollEC(g.r, f.CEL(), 0, fmt.Sprintf("7.4.5 EC of a Force whose Repulse failed, at %s", units[0].Hex))
	if e.Passed {
		g.evFor(side, "7.4.5", "The Repulse fails; %s passes its EC (%d against CEL %d).", f, e.Total, f.CEL())
	} else {
		g.evFor(side, "7.4.5", "The Repulse fails; %s fails its EC (%d against CEL %d): one CEL reduction.", f, e.Total, f.CEL())
		g.reduceCE(f, 1, "7.4.5", "a failed Repulse")
	}
	if !duringRetreat {
		g.evFor(side, "7.4.5", "%s moves no further this phase (it may still place a PA or begin an IP).", f)
	}
	return false
}

// offLinks are the off-map links a depot or squadron may use.
func (g *game) offLinks(river bool) []offMapLink {
	var out []offMapLink
	for _, l := range g.sc.offmap {
		if l.River == river {
			out = append(out, l)
		}
	}
	return out
}

// moveDepot moves a Depot along friendly operational RR hexes, 1 MP a hex
// (15.6.3), and the off-map railroad by its printed distances (15.6.3a);
// a move ending off the map records the hexes done.
func (g *game) moveDepot(m *phaseMove, u *unit, path []string) bool {
	op := g.operational(m.side)
	at := u.Hex
	progress := 0
	if u.Off != "" {
		at = u.Off
		if i := strings.Index(u.Off, ":"); i >= 0 {
			progress, _ = strconv.Atoi(u.Off[i+1:])
			at = u.Off[:i]
		}
	}
	left := m.allowance - m.spent[u]
	start := at
	if p := strings.SplitN(at, ">", 2); len(p) == 2 {
		start = fmt.Sprintf("the off-map railroad between %s and %s", p[0], p[1])
	}
	for _, t := range path {
		if t == at {
			continue
		}
		cost := 0
		onMapStep := false
		if strings.Contains(at, ">") {
			// in transit: only onward to the far end
			parts := strings.SplitN(at, ">", 2)
			if parts[1] != t {
				g.evFor(m.side, "15.6.3a", "%s is on its way to %s: it goes on there first.", u.ID, parts[1])
				return true
			}
			for _, l := range g.offLinks(false) {
				if l.From == parts[0] && l.To == parts[1] || l.To == parts[0] && l.From == parts[1] {
					cost = l.Hexes - progress
				}
			}
		} else if a, err1 := g.grid.Parse(at); err1 == nil && strings.Contains(t, ".") && !strings.Contains(at, "Z") {
			b, err := g.grid.Parse(t)
			if err != nil || !g.railLink(a, b) || !op[b] || g.enemyIn(b, m.side) || (g.inEZOC(b, m.side) && !g.combatIn(b, m.side)) {
				g.evFor(m.side, "15.6.3", "%s stops at %s: %s is not a friendly operational RR hex it can enter.", u.ID, at, t)
				return true
			}
			cost, onMapStep = 1, true
		} else {
			found := false
			for _, l := range g.offLinks(false) {
				if l.From == at && l.To == t || l.To == at && l.From == t {
					cost, found = l.Hexes, true
				}
			}
			if !found || m.side != ah {
				g.evFor(m.side, "15.6.3a", "%s stops at %s: no railroad leads to %s.", u.ID, at, t)
				return true
			}
		}
		if cost > left {
			if !onMapStep && left > 0 {
				base := at
				if strings.Contains(at, ">") {
					base = strings.SplitN(at, ">", 2)[0]
				}
				u.Off = fmt.Sprintf("%s>%s:%d", base, t, progress+left)
				g.place(u, board.ID{})
				m.spent[u] += left
				g.evFor(m.side, "15.6.3a", "%s moves off the map toward %s: %d of %d hexes done.", u.ID, t, progress+left, progress+cost)
				return true
			}
			g.evFor(m.side, "15.6.3", "%s stops at %s: %s needs %d MPs, %d left.", u.ID, at, t, cost, left)
			return true
		}
		left -= cost
		m.spent[u] += cost
		progress = 0
		at = t
		if id, err := g.grid.Parse(t); err == nil && strings.Contains(t, ".") {
			was := u.pos
			u.Off = ""
			g.place(u, id)
			if was != (board.ID{}) {
				g.arrow(was, id, "move", m.side)
			}
		} else {
			u.Off = t
			g.place(u, board.ID{})
		}
	}
	g.evFor(m.side, "15.6.3", "%s moves by rail from %s to %s.", u.ID, start, at)
	return false
}

// squadronHex reports a hex a squadron may be in: next to a Sava or Donau
// hexside (25.1.1), open at low water (25.1.3) and, with the French guns
// in Beograd, not 29.09, 29.10, 30.08 or 31.09 (25.1.4).
func (g *game) squadronHex(id board.ID) bool {
	river, donau := false, false
	for _, n := range g.nbrs(id) {
		f := g.feature(id, n)
		if isSava(f) || isDonau(f) {
			river = true
		}
		if isDonau(f) {
			donau = true
		}
	}
	if !river {
		return false
	}
	if g.lowWater() && id.Col >= 18 && !donau {
		return false
	}
	if g.French && slices.Contains([]string{"29.09", "29.10", "30.08", "31.09"}, g.hex(id)) {
		return false
	}
	return true
}

// lowWater is the Sava's low water, GT 7 to 18 (25.1.3).
func (g *game) lowWater() bool { return g.GT >= 7 && g.GT <= 18 }

// alongRiver reports a squadron's step from a to b along the river: the
// hexside between them is a river hexside, or a river hexside touches the
// vertex they share (25.1.1 movement note: 16.07-17.07, 28.08-28.09 are
// not).
func (g *game) alongRiver(a, b board.ID) bool {
	riv := func(x, y board.ID) bool {
		f := g.feature(x, y)
		return isSava(f) || isDonau(f)
	}
	if riv(a, b) {
		return true
	}
	for _, c := range g.nbrs(a) {
		if g.grid.Adjacent(c, b) && (riv(a, c) || riv(b, c)) {
			return true
		}
	}
	return false
}

// moveSquadron moves a naval squadron (25.1.1): 1 MP a hex along the
// rivers, through enemy units but not ending on them, with one hazard roll
// at the end for the Beograd hexes (25.1.2) or, from GT 19, the Russian
// mines.
func (g *game) moveSquadron(m *phaseMove, u *unit, path []string) bool {
	left := m.allowance - m.spent[u]
	hazard, mines := false, false
	beograd := []string{"29.09", "29.10", "30.08", "30.09"}
	start := u.pos
	var route []board.ID
	at := u.pos
	if u.Off != "" {
		// at an off-map base: the way back onto the map (Brod, five hexes from 08.04)
		for _, l := range g.offLinks(true) {
			if l.From == u.Off && len(path) > 0 && l.To == path[0] {
				if l.Hexes > left {
					g.evFor(m.side, "25.1.2", "%s cannot reach %s from %s this phase.", u.ID, l.To, u.Off)
					return true
				}
				left -= l.Hexes
				at = g.parse(l.To)
				u.Off = ""
				g.place(u, at)
				path = path[1:]
			}
		}
	}
	for _, t := range path {
		if len(route) == 0 && t == g.hex(at) {
			continue
		}
		if !strings.Contains(t, ".") {
			// to an off-map base
			for _, l := range g.offLinks(true) {
				if l.To == g.hex(at) && l.From == t && l.Hexes <= left {
					u.Off = t
					g.place(u, board.ID{})
					g.evFor(m.side, "25.1.2", "%s sails off the map to %s.", u.ID, t)
					return false
				}
			}
			g.evFor(m.side, "25.1.1", "%s cannot sail to %s.", u.ID, t)
			break
		}
		b, err := g.grid.Parse(t)
		if err != nil || !g.grid.Adjacent(at, b) || !g.squadronHex(b) || !g.alongRiver(at, b) {
			g.evFor(m.side, "25.1.1", "%s stops at %s: it cannot sail to %s along the river.", u.ID, g.hex(at), t)
			break
		}
		if left < 1 {
			break
		}
		left--
		m.spent[u]++
		if slices.Contains(beograd, g.hex(b)) || slices.Contains(beograd, g.hex(at)) {
			if !(g.hex(b) == "29.09" && slices.Contains([]string{"28.08", "29.08"}, g.hex(at)) || g.hex(at) == "29.09" && slices.Contains([]string{"28.08", "29.08"}, g.hex(b))) {
				hazard = true
			}
		}
		if g.GT >= 19 && (g.controls(b, sb) || g.oppositeBankSerb(b)) {
			mines = true
		}
		at = b
		route = append(route, b)
		g.pontoonsNearSquadron(b)
	}
	// it may not end on an enemy unit: back along the route
	for len(route) > 0 && g.enemyIn(at, m.side) {
		route = route[:len(route)-1]
		if len(route) > 0 {
			at = route[len(route)-1]
		} else {
			at = start
		}
	}
	if at != u.pos {
		g.place(u, at)
		g.arrow(start, at, "move", m.side, route...)
		g.ev("25.1.1", "An A-H squadron sails from %s to %s.", g.hex(start), g.hex(at))
	}
	switch {
	case hazard:
		g.squadronHit(u, "25.1.2 Beograd")
	case mines:
		g.squadronHit(u, "25.1.2 Russian Naval Mission")
	}
	return false
}

func (g *game) oppositeBankSerb(id board.ID) bool {
	for _, n := range g.nbrs(id) {
		f := g.feature(id, n)
		if (isSava(f) || isDonau(f)) && g.controls(n, sb) {
			return true
		}
	}
	return false
}

// squadronHit is the hazard roll of 25.1.2: a 6 is a hit: the squadron
// flips and refits, back on its base three GTs later; a reduced one is
// removed.
func (g *game) squadronHit(u *unit, why string) {
	d := dice.Roll(g.r, 1, 6, fmt.Sprintf("1914 SmS %s roll for a squadron at %s", why, u.Hex))[0]
	if d != 6 {
		g.ev("25.1.2", "A squadron at %s rolls %d for the %s hazard: no hit.", u.Hex, d, strings.TrimPrefix(why, "25.1.2 "))
		return
	}
	if u.SR > 0 {
		g.ev("25.1.2", "A squadron at %s rolls 6: hit again, it is removed from the game.", u.Hex)
		g.eliminate(u, "25.1.2", "a second hit")
		return
	}
	u.SR = 1
	u.Refit = g.GT + 3
	where := u.Hex
	g.place(u, board.ID{})
	u.Off = "refit"
	g.ev("25.1.2", "A squadron at %s rolls 6: hit. It flips and refits, returning on GT %d.", where, u.Refit)
}

// pontoonsNearSquadron removes Serbian pontoons next to a squadron (21.2.4).
func (g *game) pontoonsNearSquadron(id board.ID) {
	defer func() { g.ver++ }()
	var keep []pontoon
	for _, p := range g.Pontoons {
		pp, _ := g.grid.ParsePair(p.Sides)
		if p.Side == sb && (pp.A == id || pp.B == id || g.grid.Adjacent(pp.A, id) && g.grid.Adjacent(pp.B, id)) {
			g.ev("21.2.4", "An A-H squadron next to the Serbian pontoon at %s removes it.", p.Sides)
			g.PontoonN[sb]++
			continue
		}
		keep = append(keep, p)
	}
	g.Pontoons = keep
}

// montenegrinMove: exit the map at an M hex for 2 MPs into the nearest
// box, enter from a box into one of its M hexes for the hex's cost (an
// EZOC may be entered, an A-H hex not), or move one box (24.2).
func (g *game) montenegrinMove(m *phaseMove, u *unit, f []string) {
	if u.c.Nation != "Montenegro" {
		g.evFor(m.side, "24.2", "%s is not Montenegrin.", u.ID)
		return
	}
	box := func(name string) *box {
		for i := range g.sc.Setup.Boxes {
			if g.sc.Setup.Boxes[i].Name == name {
				return &g.sc.Setup.Boxes[i]
			}
		}
		return nil
	}
	switch f[0] {
	case "exit":
		for _, b := range g.sc.Setup.Boxes {
			if slices.Contains(b.Exits, u.pos) && m.allowance-m.spent[u] >= 2 {
				was := u.Hex
				m.spent[u] += 2
				g.place(u, board.ID{})
				u.Box, u.Stationary = b.Name, false
				g.ev("24.4.1", "A Montenegrin unit leaves the map at %s for the %s box.", was, b.Name)
				return
			}
		}
		g.evFor(m.side, "24.4.1", "%s cannot exit: it must be in an M hex with 2 MPs left.", u.ID)
	case "enter":
		b := box(u.Box)
		t, err := g.grid.Parse(f[2])
		if b == nil || err != nil || !slices.Contains(b.Exits, t) || g.enemyIn(t, sb) {
			g.evFor(m.side, "24.4.1", "%s cannot enter at %s: it enters from its box into one of the box's M hexes not held by A-H units.", u.ID, f[2])
			return
		}
		cost := g.sc.TEC.EntryMP(g.terrain(t), g.GT)
		if cost > m.allowance-m.spent[u] {
			g.evFor(m.side, "24.4.1", "%s cannot enter at %s: it costs %d MPs.", u.ID, f[2], cost)
			return
		}
		m.spent[u] += cost
		u.Box, u.Stationary = "", false
		g.place(u, t)
		g.ev("24.4.1", "A Montenegrin unit enters the map at %s.", g.hex(t))
		g.afterStep(m, []*unit{u}, t, t)
	case "box":
		b := box(u.Box)
		if b == nil || !slices.Contains(b.Next, f[2]) || u.Moved {
			g.evFor(m.side, "24.2.2", "%s cannot move to the %s box: one box, once a movement phase, to a box next to its own.", u.ID, f[2])
			return
		}
		u.Box, u.Moved, u.Stationary = f[2], true, false
		g.evFor(m.side, "24.2.2", "%s moves to the %s box.", u.ID, f[2])
	}
}

// twoHexMove: a Force extends into a second hex, consolidates into one of
// its hexes, or wheels one half to a new hex (19.1.1, 19.1.4).
func (g *game) twoHexMove(m *phaseMove, u *unit, f []string) {
	if len(f) < 3 {
		return
	}
	t, err := g.grid.Parse(f[len(f)-1])
	fail := func(why string) { g.evFor(m.side, "19.1", "%s: %s.", u.ID, why) }
	if err != nil {
		fail("bad hex")
		return
	}
	if u.c.Kind == kArtillery || !u.c.Combat() {
		fail("only combat units enter Two-Hex status; artillery never (19.1.1)")
		return
	}
	left := m.allowance + fmLimit([]*unit{u}) - m.fm[u] - m.spent[u]
	switch f[0] {
	case "twohex":
		if u.Hex2 != "" || !g.grid.Adjacent(u.pos, t) {
			fail("it extends from one hex into an adjacent one")
			return
		}
		for _, o := range g.sideAt(t, m.side) {
			if o.Hex2 != "" {
				fail("a Two-Hex Force may not stack with another (19.1.2)")
				return
			}
		}
		si, err := g.stepCost(m, []*unit{u}, u.pos, t, false)
		cost := si.cost
		// 19.1.1: a Force that has just entered its hex from one next to t
		// went into the two hexes at once: it pays the higher cost only
		if ls, ok := m.lastStep[u]; ok && err == nil && g.grid.Adjacent(ls.from, t) {
			if s2, err2 := g.stepCost(m, []*unit{u}, ls.from, t, false); err2 == nil {
				cost = max(s2.cost-ls.cost, 0)
			}
		}
		if err != nil || cost > left {
			fail(fmt.Sprintf("it cannot enter %s", g.hex(t)))
			return
		}
		m.spent[u] += cost
		g.place(u, u.pos, t)
		g.ev("19.1.1", "A Force in %s extends into %s: Two-Hex status.", u.Hex, u.Hex2)
		g.afterStep(m, []*unit{u}, u.pos, t)
	case "consolidate":
		if u.Hex2 == "" || !u.in(t) {
			fail("a Two-Hex unit consolidates into one of its hexes")
			return
		}
		g.place(u, t)
		g.ev("19.1.1", "A Two-Hex Force consolidates into %s.", u.Hex)
	case "wheel":
		if u.Hex2 == "" || len(f) < 4 {
			fail("a Two-Hex unit wheels one half: wheel UNIT FROM TO")
			return
		}
		from, err := g.grid.Parse(f[2])
		if err != nil || !u.in(from) {
			fail("it wheels the half in one of its hexes")
			return
		}
		keep := u.pos
		if from == u.pos {
			keep = u.p2
		}
		if !g.grid.Adjacent(keep, t) || !g.grid.Adjacent(from, t) {
			fail("a wheel pivots around the other hex into a hex next to both")
			return
		}
		si, err := g.stepCost(m, []*unit{u}, from, t, false)
		if err != nil || si.cost > left {
			fail(fmt.Sprintf("it cannot enter %s", g.hex(t)))
			return
		}
		m.spent[u] += si.cost
		g.place(u, keep, t)
		g.ev("19.1.4", "A Two-Hex Force wheels from %s to %s.", g.hex(from), g.hex(t))
		g.afterStep(m, []*unit{u}, from, t)
	}
}

// planObjectives are the Strategic Plan Operational Objectives (26.1.2),
// the primary one last.
var planObjectives = map[string][]string{
	"FIFTH": {"26.11", "25.18", "23.16"},
	"SIXTH": {"16.28", "22.21", "22.29", "19.28"},
}

// planPrimary is each plan's primary objective (26.1.2).
var planPrimary = map[string]string{"FIFTH": "23.16", "SIXTH": "19.28"}

// planBound reports an infantry Formation bound by its army's Strategic
// Plan (26.2): not CI or Demoralized.
func (g *game) planBound(u *unit) *armyState {
	if u.c.Side != ah || !u.c.Formation || !u.c.InfantryType() || u.CE >= statusCI {
		return nil
	}
	a := g.army(u.Army)
	if a == nil || a.Plan == "" || a.Lifted {
		return nil
	}
	return a
}

// closer reports whether to is at least one hex closer than from to one
// of the army's objectives (26.2.1).
func (g *game) closer(army string, from, to board.ID) bool {
	for _, o := range planObjectives[army] {
		h := g.parse(o)
		if g.grid.Distance(to, h) < g.grid.Distance(from, h) {
			return true
		}
	}
	return false
}

// planCheck notes a bound Formation that moved and did not end closer to
// an objective (26.2.1): orders are refused at receipt for this, so it
// happens only when a move was stopped short.
func (g *game) planCheck(m *phaseMove, units []*unit, from board.ID) {
	for _, u := range units {
		a := g.planBound(u)
		if a == nil || !u.onMap() || u.pos == from {
			continue
		}
		if !g.closer(a.ID, from, u.pos) {
			g.evFor(m.side, "26.2.1", "%s was stopped short and ends no closer to a %s objective than it began: the Strategic Plan is not kept this phase.", u.ID, a.ID)
		}
	}
}

// combine makes a combination (16.3, 16.4) at the end of a friendly
// movement phase when its units are stacked or adjacent (then in Two-Hex
// status): the new unit keeps their SRs and takes the average CE status
// of the departing Formations, rounded down.
func (g *game) combine(side side, into string) {
	var cb *combo
	for i := range g.sc.Setup.Combos {
		if strings.EqualFold(g.sc.Setup.Combos[i].Into, into) {
			cb = &g.sc.Setup.Combos[i]
		}
	}
	if cb == nil {
		return
	}
	var from []*unit
	for _, id := range cb.From {
		u := g.byID[id]
		if u == nil || !u.onMap() || u.c.Side != side {
			g.evFor(side, "16.3", "%s cannot be formed: %s is not on the map.", cb.Into, id)
			return
		}
		from = append(from, u)
	}
	for _, u := range from[1:] {
		if u.pos != from[0].pos && !g.grid.Adjacent(u.pos, from[0].pos) {
			g.evFor(side, "16.3", "%s cannot be formed: its units are neither stacked nor adjacent.", cb.Into)
			return
		}
	}
	n := g.byID[cb.Into]
	sr, ce, forms := 0, 0, 0
	for _, u := range from {
		sr += u.SR
		if u.c.Formation {
			ce += int(u.CE)
			forms++
		}
	}
	hex2 := board.ID{}
	for _, u := range from[1:] {
		if u.pos != from[0].pos {
			hex2 = u.pos
		}
	}
	pos := from[0].pos
	attach := g.Attach[from[0].ID]
	for _, u := range from {
		if u != n {
			u.Out, u.Assigned, u.PA = true, "", ""
			g.place(u, board.ID{})
		}
	}
	n.Out, n.Gone = false, false
	n.SR = min(sr, n.c.MaxSR())
	if forms > 0 {
		n.CE = status(ce / forms)
	}
	if n.c.Corps != "" {
		attach = n.c.Corps
	}
	if attach != "" && n.c.Formation {
		g.Attach[n.ID] = attach
	}
	n.Army = from[0].Army
	g.place(n, pos, hex2)
	// the enemy sees counters exchanged in the hex, not which nor their
	// strength (3.1.5, 3.1.6)
	g.evFor(n.c.Side, "16.3", "%s is formed in %s from %s (SRs %d, CE status %s).", n.ID, n.Hex, strings.Join(cb.From, " + "), n.SR, statusWord(n.CE))
	g.evCount(n.c.Side.Enemy(), "16.3", n.Hex, func(k int) string {
		if k == 1 {
			return fmt.Sprintf("Units in %s combine into one Formation.", n.Hex)
		}
		return fmt.Sprintf("Units in %s combine into %d Formations.", n.Hex, k)
	})
}

// reverseCombo splits a 16.4 Formation at the start of a friendly
// movement phase: its units each take its CE status; its SRs go to the
// first as far as it can take them, then the next.
func (g *game) reverseCombo(side side, into string) {
	var cb *combo
	for i := range g.sc.Setup.Combos {
		if strings.EqualFold(g.sc.Setup.Combos[i].Into, into) && g.sc.Setup.Combos[i].Reverse {
			cb = &g.sc.Setup.Combos[i]
		}
	}
	n := g.byID[into]
	if cb == nil || n == nil || !n.onMap() || n.c.Side != side {
		g.evFor(side, "16.4", "%s cannot be split (16.4 lists the Formations that can).", into)
		return
	}
	sr := n.SR
	pos, pos2 := n.pos, n.p2
	n.Out, n.Assigned = true, ""
	g.place(n, board.ID{})
	for i, id := range cb.From {
		u := g.byID[id]
		u.Out, u.Gone = false, false
		u.CE = n.CE
		take := min(sr, u.c.MaxSR())
		u.SR, sr = take, sr-take
		g.Attach[u.ID] = g.Attach[n.ID]
		if u.c.Corps != "" {
			g.Attach[u.ID] = u.c.Corps
		}
		u.Army = n.Army
		h := pos
		if i == 1 && pos2 != (board.ID{}) {
			h = pos2
		}
		g.place(u, h)
	}
	g.evFor(side, "16.4", "%s splits into %s in %s.", into, strings.Join(cb.From, " and "), g.hex(pos))
	g.evCount(side.Enemy(), "16.4", g.hex(pos), func(k int) string {
		if k == 1 {
			return fmt.Sprintf("A Formation in %s splits into %d units.", g.hex(pos), len(cb.From))
		}
		return fmt.Sprintf("%d Formations in %s split.", k, g.hex(pos))
	})
}

// integrate brings a detachment back into its parent when they are
// stacked at the end of a friendly movement phase (21.1): the parent loses
// the SR marker the detachment stood for and takes the detachment's SRs.
func (g *game) integrate(side side, id string) {
	d := g.unitByID(id)
	if d == nil || !d.onMap() || d.c.Side != side {
		return
	}
	parent := g.byID[g.sc.Setup.Detachments[d.ID]]
	if parent == nil || !parent.onMap() || !parent.in(d.pos) {
		g.evFor(side, "21.1", "%s is not stacked with its parent: no integration.", d.ID)
		return
	}
	parent.SR = max(0, parent.SR-1) + d.SR
	parent.SR = min(parent.SR, parent.c.MaxSR())
	d.Out = true
	g.place(d, board.ID{})
	g.evFor(side, "21.1", "%s rejoins %s (its SRs %d).", d.ID, parent.ID, parent.SR)
}

// lossPrefs is the side's standing SR order (9.10.2 within a tier).
func (g *game) lossPrefs(side side) []string {
	var out []string
	for _, l := range g.standing(side.Seat(), "losses") {
		out = append(out, strings.Fields(l)...)
	}
	return out
}
