package wbt

// This file runs a movement phase: bridge demolitions and repairs at its
// start (10.18, 10.19), dismounting and remounting (10.21), the moves in
// the order given (10.2) and the end-of-phase checks (6.4, 10.21).

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// adjacentSerbs reports Serbian units next to a hex.
func (g *game) adjacentSerbs(id board.ID) bool {
	for _, nb := range g.grid.Neighbours(id) {
		for _, u := range g.unitsAt(nb) {
			if u.c.Side == serb {
				return true
			}
		}
	}
	return false
}

// mountable says why a NATO unit may not dismount (or remount) now, ""
// if it may (10.21): a US, UK, Croatian, French or German mechanized unit
// (never the 1st AAA), in overland supply, not next to Serbian units, that
// has not moved or attacked this player turn; dismounting must leave a
// step (ruling A11).
func (g *game) mountable(u *unit, dismount bool) string {
	switch {
	case u.c.Mobility != Mech || !(u.c.GreatPower() || strings.EqualFold(u.c.Nationality, "croatia") || strings.EqualFold(u.c.Nationality, "croatian")):
		return "only US, UK, Croatian, French and German mechanized units dismount (10.21)"
	case dismount && u.Dismounted:
		return "it is already dismounted"
	case !dismount && !u.Dismounted:
		return "it is not dismounted"
	case dismount && u.Steps/2 < 1:
		return "halving its single step would eliminate it"
	case u.Moved || u.Attacked || u.Fixed:
		return "it has moved, attacked or worked on a bridge this player turn"
	case !u.alive():
		return "it is not on the map"
	case g.adjacentSerbs(u.pos):
		return "it is next to Serbian units (10.21)"
	case !g.supplied(u).Overland():
		return "it is not in overland supply (10.21)"
	}
	return ""
}

// movementPhase carries out a movement phase's orders.
func (g *game) movementPhase(side side, orders []string) {
	var demolish, repair, mount, moves []string
	for _, o := range orders {
		o = kit.StripComment(o)
		switch strings.Fields(o)[0] {
		case "demolish":
			demolish = append(demolish, o)
		case "repair":
			repair = append(repair, o)
		case "dismount", "remount":
			mount = append(mount, o)
		case "move":
			moves = append(moves, o)
		}
	}
	tried := map[string]bool{}
	for _, o := range demolish {
		g.demolish(side, strings.Fields(o)[1:], tried)
	}
	for _, o := range repair {
		f := strings.Fields(o)
		g.repair(g.byID[f[1]], f[2], tried)
	}
	for _, o := range mount {
		f := strings.Fields(o)
		u := g.byID[f[1]]
		dis := f[0] == "dismount"
		if why := g.mountable(u, dis); why != "" {
			g.ev("10.21", "%s may not %s: %s.", u.ID, f[0], why)
			continue
		}
		u.Fixed, u.Work = true, f[0]+"s"
		if dis {
			u.Steps /= 2
			u.Dismounted = true
			g.ev("10.21", "%s dismounts: its steps are halved to %d; it is non-mechanized infantry with 4 MP and may not move or attack this player turn.", u.ID, u.Steps)
		} else {
			u.Remount = true
			g.ev("10.21", "%s remounts: its steps double at the end of the phase; it may not move or attack this player turn.", u.ID)
		}
	}
	given := map[string]bool{} // units given a move order this phase (10.2)
moves:
	for _, line := range moves {
		o := g.readMove(line)
		for _, u := range o.units {
			if given[u.ID] {
				g.ev("10.2", "%s was given its move this phase already: a unit moves once a phase; this order is not carried out.", u.ID)
				continue moves
			}
		}
		for _, u := range o.units {
			given[u.ID] = true
		}
		g.move(o)
		if g.Over {
			return
		}
	}
	for _, u := range g.Units {
		if u.Remount {
			u.Remount, u.Dismounted = false, false
			u.Steps = min(u.Steps*2, u.c.MaxSteps())
			g.ev("10.21", "%s has remounted: %d steps.", u.ID, u.Steps)
		}
	}
}

// demolish carries out a demolition: NATO's are automatic, at the start of
// its good-weather player turns, or next to its units in bad weather, never
// on reconstitution turns; the Serbs roll for a unit next to the bridge,
// which may not move or attack this player turn (10.19). One attempt per
// bridge per phase.
func (g *game) demolish(side side, args []string, tried map[string]bool) {
	var u *unit
	if side == serb {
		u, args = g.byID[args[0]], args[1:]
	}
	p, err := g.grid.ParsePair(args[0])
	if err != nil {
		return
	}
	name := p.String()
	switch {
	case !g.bridgeIntact(p):
		g.ev("10.19", "The bridge %s is already down.", name)
		return
	case tried[name]:
		g.ev("10.19", "One demolition attempt per bridge per phase: %s.", name)
		return
	}
	tried[name] = true
	if side == nato {
		near := len(g.unitsNear(nato, p)) > 0
		switch {
		case g.Recon != "":
			g.ev("10.19", "No NATO bridge demolitions on reconstitution turns: %s stands.", name)
			return
		case g.Bad && !near:
			g.ev("10.19", "In bad weather NATO demolishes only bridges next to its units: %s stands.", name)
			return
		}
		g.Intact = removeString(g.Intact, name)
		g.ev("10.19", "NATO demolishes the bridge %s.", name)
		return
	}
	switch {
	case u == nil || !u.alive() || (u.pos != p.A && u.pos != p.B):
		g.ev("10.19", "No Serbian unit next to the bridge %s can demolish it.", name)
		return
	case u.Moved || u.Attacked:
		g.ev("10.19", "%s has moved or attacked this player turn and may not demolish %s.", u.ID, name)
		return
	}
	u.Fixed, u.Work = true, "demolishes "+name
	roll, ok := demolishBridge(g.r)
	if ok {
		g.Intact = removeString(g.Intact, name)
		g.ev("10.19", "%s rolls %d: the bridge %s is demolished.", u.ID, roll, name)
	} else {
		g.ev("10.19", "%s rolls %d: the demolition of %s fails.", u.ID, roll, name)
	}
}

// unitsNear lists a side's live units in either hex of a hexside.
func (g *game) unitsNear(side side, p board.Pair) []*unit {
	var out []*unit
	for _, id := range []board.ID{p.A, p.B} {
		for _, u := range g.unitsAt(id) {
			if u.c.Side == side {
				out = append(out, u)
			}
		}
	}
	return out
}

// repair makes a NATO bridge repair attempt (10.18): good weather only,
// never on reconstitution turns, by a unit next to the bridge that then
// may not move or attack this player turn; one attempt a bridge a phase.
func (g *game) repair(u *unit, bridge string, tried map[string]bool) {
	p, err := g.grid.ParsePair(bridge)
	if err != nil {
		return
	}
	name := p.String()
	switch {
	case g.Bad:
		g.ev("10.18", "No bridge repair in bad weather (5.3): %s stays down.", name)
		return
	case g.Recon != "":
		g.ev("10.18", "No bridge repair on reconstitution turns: %s stays down.", name)
		return
	case g.bridgeIntact(p):
		g.ev("10.18", "The bridge %s is intact already.", name)
		return
	case tried[name]:
		g.ev("10.18", "One repair attempt per bridge per phase: %s.", name)
		return
	case !u.alive() || (u.pos != p.A && u.pos != p.B):
		g.ev("10.18", "%s is not next to the bridge %s.", u.ID, name)
		return
	case u.Moved || u.Attacked || u.Fixed:
		g.ev("10.18", "%s has moved, attacked or dismounted this player turn and may not repair %s.", u.ID, name)
		return
	}
	tried[name] = true
	u.Fixed, u.Work = true, "repairs "+name
	other := p.A
	if u.pos == p.A {
		other = p.B
	}
	across := false
	for _, e := range g.unitsAt(other) {
		if e.c.Side == serb {
			across = true
		}
	}
	oos := !g.supplied(u).OK
	mod, ok := repairBridge(u.c.GreatPower(), oos, across, g.r)
	var why []string
	if u.c.GreatPower() {
		why = append(why, "+1 great power")
	}
	if oos {
		why = append(why, "-1 out of supply")
	}
	if across {
		why = append(why, "-1 Serbs across the river")
	}
	detail := ""
	if len(why) > 0 {
		detail = " (" + strings.Join(why, ", ") + ")"
	}
	if ok {
		g.Intact = append(g.Intact, name)
		g.ev("10.18", "%s repairs the bridge %s: modified roll %d%s.", u.ID, name, mod, detail)
	} else {
		g.ev("10.18", "%s fails to repair the bridge %s: modified roll %d%s.", u.ID, name, mod, detail)
	}
}

// fmtList is a helper for events.
func fmtList(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return fmt.Sprint(strings.Join(xs, ", "))
}
