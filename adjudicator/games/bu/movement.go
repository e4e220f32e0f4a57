package bu

// Operations (13.1) and movement (13.2): a space activated for 1 OP, its
// units moving along roads, 1 MF into a space friendly at the start of the
// round and 2 MF into any other (13.2.2), never into a space holding enemy
// units or held by them when the round began (13.2.3, 13.2.7), nor where
// they would be unsupplied; a vacated enemy space entered is captured
// (13.2.6).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// mayOperate says why a unit may not be activated for an Operation, or nil.
func (g *game) mayOperate(u *unit) error {
	switch {
	case u.Box != onMap:
		return lateError("%s is not on the map", u.ID)
	case g.acted(u.ID):
		return adjudicator.Refuse("a unit makes one action a round (13.1.7)", "%s has already acted this round", u.ID)
	case u.Supply == oos:
		return adjudicator.Refuse("Out Of Supply units may not be activated (2.4.8, 13.1.2)", "%s is Out Of Supply", u.ID)
	case g.Round != nil && slices.Contains(g.Round.NoOps, u.ID):
		return adjudicator.Refuse("units whose supply path opened this round wait for the next (7.2.5)", "%s had its supply path opened this round", u.ID)
	case !u.Type().Foreign && g.space(u.Space).Foreign():
		return adjudicator.Refuse("a domestic unit in a Foreign Space comes back only by Strategic Redeployment (13.1.8)", "%s is in a Foreign Space", u.ID)
	}
	return nil
}

// mayEnter says why unit u may not enter space id (moving, advancing or
// capturing), or nil. capture tells that entering captures the space.
func (g *game) mayEnter(u *unit, id string) error {
	sp := g.space(id)
	side := u.Side()
	t := u.Type()
	if sp.Foreign() {
		if !t.Foreign {
			return adjudicator.Refuse("domestic units move only inside BiH (1.3.2)", "%s may not enter the Foreign Space %s", u.ID, sp.Name)
		}
		if !usesDesignation(side, sp.Designation) {
			return adjudicator.Refuse(fmt.Sprintf("%s units use %s spaces (1.2.5)", side, map[bool]string{true: "YUG and KRA", false: "CRO"}[side == serb]), "%s may not enter %s (%s)", u.ID, sp.Name, sp.Designation)
		}
		return nil
	}
	if occ := g.occupant(id); occ != "" && g.enemies(side, occ) {
		return adjudicator.Refuse("a unit may not enter a space containing an enemy unit (13.2.3)", "%s holds %s units", sp.Name, occ)
	}
	if t.RegionOnly != "" && sp.Region != t.RegionOnly {
		return adjudicator.Refuse(fmt.Sprintf("%s units move only in %s (1.3.4)", t.Army, g.sc.Map.RegionByID(t.RegionOnly).Name), "%s may not enter %s", u.ID, sp.Name)
	}
	owner := g.Control[id]
	if !g.friendly(side, owner) && len(t.AttackOnly) > 0 && !slices.Contains(t.AttackOnly, owner) {
		return adjudicator.Refuse(fmt.Sprintf("%s units capture only %s spaces (1.3.4)", t.Army, sideList(t.AttackOnly)), "%s may not capture the %s space %s", u.ID, owner, sp.Name)
	}
	return nil
}

func sideList(sides []Side) string {
	parts := make([]string, len(sides))
	for i, s := range sides {
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
}

// checkMove says why units may not move from their space along path (the
// spaces entered, in order), or nil; it gives the MF each spends.
func (g *game) checkMove(seat string, units []*unit, path []string) error {
	if len(units) == 0 || len(path) == 0 {
		return lateError("a move needs units and the spaces they enter") // the parser refuses it first
	}
	from := units[0].Space
	for _, u := range units {
		if err := g.mayOperate(u); err != nil {
			return err
		}
		if u.Space != from {
			return adjudicator.Refuse("a stack moving together starts in one space (13.2.4)", "%s is at %s, not %s", u.ID, g.name(u.Space), g.name(from))
		}
	}
	for _, u := range units {
		mf, spent := g.mf(u), 0
		at := from
		for _, next := range path {
			a, _ := g.sc.Map.Space(at)
			b, _ := g.sc.Map.Space(next)
			if !g.sc.Map.Graph.Adjacent(a, b) {
				return adjudicator.Refuse(fmt.Sprintf("roads from %s lead to %s", at, g.neighbours(at)), "no road joins %s and %s (1.2.7)", g.name(at), g.name(next))
			}
			if g.Round != nil && slices.Contains(g.Round.Occupied, next) && !g.space(next).Foreign() {
				return adjudicator.Refuse("a unit may not enter a space held by an enemy unit at the start of the round, even once it is cleared (13.2.7)", "%s was occupied by the enemy when the round began", g.name(next))
			}
			if err := g.mayEnter(u, next); err != nil {
				return err
			}
			if !g.traceable(u.Side(), next) {
				return adjudicator.Refuse("a unit may not enter a space in which it would be unsupplied (13.2.3)", "%s would be unsupplied at %s", u.ID, g.name(next))
			}
			cost := 2
			if g.friendlyAtStart(u.Side(), next) {
				cost = 1
			}
			spent += cost
			if spent > mf {
				return adjudicator.Refuse(fmt.Sprintf("%s has %d MF: 1 into a space friendly at the start of the round, 2 into any other (13.2.2)%s", u.ID, mf, fuelNote(g, u)),
					"%s runs out of MF entering %s (%d of %d)", u.ID, g.name(next), spent, mf)
			}
			at = next
		}
	}
	end := path[len(path)-1]
	if n := len(g.unitsAt(end)) + len(units); n > stackLimit {
		return adjudicator.Refuse(fmt.Sprintf("at most %d units a space at the end of an action (2.3)", stackLimit), "%s would hold %d units", g.name(end), n)
	}
	return nil
}

func fuelNote(g *game, u *unit) string {
	if g.limitedFuel(u.Side()) {
		return "; Limited Fuel takes 1 (13.2.8)"
	}
	return ""
}

// doMove moves units along path, capturing vacated enemy spaces entered
// (13.2.6, 13.5.1).
func (g *game) doMove(seat string, units []*unit, path []string) {
	from := units[0].Space
	ids := make([]string, len(units))
	for i, u := range units {
		ids[i] = u.ID
		g.act(u.ID)
	}
	at := from
	for _, next := range path {
		for _, u := range units {
			u.Space = next
		}
		g.Arrows = append(g.Arrows, arrow{From: at, To: next, Kind: "move"})
		at = next
		if sp := g.space(next); !sp.Foreign() && !g.friendly(units[0].Side(), g.Control[next]) {
			g.capture(next, g.captureSide(units), g.captureFA(units), seat)
			if g.Over {
				return
			}
		}
	}
	if !g.dry {
		g.ev("13.2", "%s %s from %s to %s.", strings.Join(ids, ", "), plural(len(ids), "moves", "move"), g.name(from), pathNames(g, path))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func pathNames(g *game, path []string) string {
	names := make([]string, len(path))
	for i, p := range path {
		names[i] = g.name(p)
	}
	return strings.Join(names, " - ")
}

// captureSide is the side that captures a space the units enter: theirs;
// in the 2-player game the side with more units entering, the
// Bosniak-Croat player's choice on a tie (14.6.4).
func (g *game) captureSide(units []*unit) Side {
	count := map[Side]int{}
	for _, u := range units {
		count[u.Side()]++
	}
	if count[bosniak] > 0 && count[croat] > 0 {
		switch {
		case count[bosniak] > count[croat]:
			return bosniak
		case count[croat] > count[bosniak]:
			return croat
		}
		if g.dry {
			return bosniak
		}
		return g.tieSide("control of a space entered by as many Bosniak as Croat units (14.6.4)")
	}
	return units[0].Side()
}

// captureFA is the FA a Key Space costs the units capturing it: 1, or 0
// when every one is of a type that loses none (NOZB, 1.3.4).
func (g *game) captureFA(units []*unit) int {
	fa := 0
	for _, u := range units {
		fa = max(fa, u.Type().CaptureFA)
	}
	return fa
}

// moveAction carries out a move line of the round: a new activation (1
// OP) unless it continues the move activation of the same space (13.2.5).
func (g *game) moveAction(seat string, o *order) {
	r := g.Round
	var units []*unit
	for _, id := range o.Units {
		units = append(units, g.byID[id])
	}
	if err := g.checkMove(seat, units, o.Path); err != nil {
		g.ev("13.2", "Not carried out: %s (%v).", o.Canon, err)
		return
	}
	if r.MoveFrom != units[0].Space {
		if r.Points < 1 {
			g.ev("13.1.3", "Not carried out: %s (no OP left).", o.Canon)
			return
		}
		r.Points--
		r.MoveFrom = units[0].Space
		g.ev("13.2.1", "%s activates %s for movement (1 OP, %d left).", seatName(seat), g.name(units[0].Space), r.Points)
	}
	g.doMove(seat, units, o.Path)
}
