package bu

// The other actions of a round: entrenchment (13.3), Strategic
// Redeployment (9.1), Replacement (10.1), and the dispatcher of queued
// action lines.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// action carries out one queued action line of the round.
func (g *game) action(line string) {
	o := canonical(line)
	seat := g.Round.Seat
	switch o.Verb {
	case "move":
		g.moveAction(seat, o)
	case "attack":
		g.attackAction(seat, o)
	case "entrench":
		g.Round.MoveFrom = ""
		unit := ""
		if len(o.Units) > 0 {
			unit = o.Units[0]
		}
		u, err := g.checkEntrench(seat, o.Space, unit)
		if err == nil && g.Round.Points < 1 {
			err = lateError("no OP left")
		}
		if err != nil {
			g.ev("13.3", "Not carried out: %s (%v).", line, err)
			return
		}
		g.Round.Points--
		g.doEntrench(seat, o.Space, u)
	case "redeploy":
		u := g.byID[o.Units[0]]
		err := g.checkRedeploy(u, o.Space)
		if err == nil && g.Round.Points < 1 {
			err = lateError("no SR point left")
		}
		if err != nil {
			g.ev("9.1", "Not carried out: %s (%v).", line, err)
			return
		}
		g.Round.Points--
		g.doRedeploy(u, o.Space)
	case "replace":
		u := g.byID[o.Units[0]]
		cost, key, err := g.checkReplace(seat, u)
		if err == nil && g.Round.Points < cost {
			err = adjudicator.Refuse("replace costs 1 RP, recreate 1 RP reduced or 2 RP full (10.1)", "%d RP needed, %d left", cost, g.Round.Points)
		}
		if err != nil {
			g.ev("10.1", "Not carried out: %s (%v).", line, err)
			return
		}
		g.Round.Points -= cost
		g.doReplace(u, key)
	case "recreate":
		u := g.byID[o.Units[0]]
		cost, key, err := g.checkRecreate(seat, u, o.Space, o.Full)
		if err == nil && g.Round.Points < cost {
			err = adjudicator.Refuse("replace costs 1 RP, recreate 1 RP reduced or 2 RP full (10.1)", "%d RP needed, %d left", cost, g.Round.Points)
		}
		if err != nil {
			g.ev("10.1", "Not carried out: %s (%v).", line, err)
			return
		}
		g.Round.Points -= cost
		g.doRecreate(u, o.Space, o.Full, key)
	default:
		g.eventAction(seat, o)
	}
}

// checkEntrench says why seat may not entrench space with unit ("" for any
// that may), or nil; it returns the unit (13.3).
func (g *game) checkEntrench(seat, space, unit string) (*unit, error) {
	sp := g.space(space)
	switch {
	case g.Trench[space] == "complete":
		return nil, adjudicator.Refuse("a completed entrenchment is not entrenched again (13.3.5)", "%s is already entrenched", sp.Name)
	case g.Round != nil && slices.Contains(g.Round.Entrenched, space):
		return nil, adjudicator.Refuse("the second step of an entrenchment is taken in another round (13.3.4)", "%s was entrenched this round", sp.Name)
	case g.Round != nil && len(g.Round.Entrenched) >= 2:
		return nil, adjudicator.Refuse("at most 2 spaces a round (13.3.3)", "two spaces are already entrenched this round")
	case strings.HasPrefix(g.Trench[space], "progress:") && g.Trench[space] == fmt.Sprintf("progress:%d", g.RoundID):
		return nil, adjudicator.Refuse("the second step of an entrenchment is taken in another round (13.3.4)", "%s was entrenched this round", sp.Name)
	}
	for _, u := range g.unitsAt(space) {
		if !slices.Contains(g.seatSides(seat), u.Side()) || unit != "" && u.ID != unit {
			continue
		}
		if err := g.mayOperate(u); err != nil {
			if unit != "" {
				return nil, err
			}
			continue
		}
		return u, nil
	}
	return nil, adjudicator.Refuse("an entrenching space holds one of your units that may act (13.3.4)", "no unit of yours at %s may entrench", sp.Name)
}

// doEntrench places the In Progress marker, or completes the entrenchment
// (13.3.1, 13.3.2).
func (g *game) doEntrench(seat, space string, u *unit) {
	g.act(u.ID)
	if g.Round != nil {
		g.Round.Entrenched = append(g.Round.Entrenched, space)
	}
	if strings.HasPrefix(g.Trench[space], "progress:") {
		g.Trench[space] = "complete"
		g.ev("13.3.2", "%s completes the entrenchment at %s with %s (1 OP).", seatName(seat), g.name(space), u.ID)
		return
	}
	g.Trench[space] = fmt.Sprintf("progress:%d", g.RoundID)
	g.ev("13.3.1", "%s begins an entrenchment at %s with %s (1 OP): Entrenchment In Progress.", seatName(seat), g.name(space), u.ID)
}

// srPassable reports whether a unit of side may pass space i in a
// Strategic Redeployment (9.1.4): friendly spaces; Croats also CRO spaces,
// Serbs YUG and KRA spaces; Bosniaks no Foreign Space.
func (g *game) srPassable(side Side, i int) bool {
	sp := g.sc.Map.Spaces[i]
	if sp.Foreign() {
		return side != bosniak && usesDesignation(side, sp.Designation)
	}
	return g.friendly(side, g.Control[sp.ID])
}

// checkRedeploy says why u may not redeploy to space to, or nil (9.1).
func (g *game) checkRedeploy(u *unit, to string) error {
	m := g.sc.Map
	side := u.Side()
	switch {
	case u.Box != onMap:
		return lateError("%s is not on the map", u.ID)
	case g.acted(u.ID):
		return adjudicator.Refuse("a unit makes one action a round (9.1.5)", "%s has already acted this round", u.ID)
	case u.Supply == oos:
		return adjudicator.Refuse("Out Of Supply units may not redeploy (2.4.8)", "%s is Out Of Supply", u.ID)
	case g.limitedFuel(side):
		return adjudicator.Refuse("no Strategic Redeployment under Limited Fuel (2.2.3)", "%s is at Intervention Level %d", side, g.level(side))
	case u.Space == to:
		return adjudicator.Refuse("redeploy UNIT SPACE: another space", "%s is already at %s", u.ID, g.name(to))
	}
	dest := g.space(to)
	if dest.Foreign() && (!u.Type().Foreign || !usesDesignation(side, dest.Designation)) || !dest.Foreign() && !g.friendly(side, g.Control[to]) {
		return adjudicator.Refuse("redeploy to a friendly space (9.1.1)", "%s is not friendly to %s", dest.Name, u.ID)
	}
	s := g.supply(side)
	for _, id := range []string{u.Space, to} {
		if a, _, ok := s.areaOf(g, id); !ok || !a.supplied() {
			return adjudicator.Refuse("a redeploying unit begins and ends in a supplied space (9.1.2)", "%s is not supplied", g.name(id))
		}
	}
	if n := len(g.unitsAt(to)) + 1; n > stackLimit {
		return adjudicator.Refuse("at most 3 units a space (2.3)", "%s is full", dest.Name)
	}
	from, _ := m.Space(u.Space)
	target, _ := m.Space(to)
	// a path through passable spaces; between Foreign Spaces only of one
	// designation (9.1.4: enter and exit with the same one)
	seen := map[int]bool{from: true}
	queue := []int{from}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		if at == target {
			return nil
		}
		for _, n := range m.Graph.Neighbours(at) {
			if seen[n] || !g.srPassable(side, n) {
				continue
			}
			a, b := m.Spaces[at], m.Spaces[n]
			if a.Foreign() && b.Foreign() && a.Designation != b.Designation {
				continue
			}
			seen[n] = true
			queue = append(queue, n)
		}
	}
	return adjudicator.Refuse("the path goes through friendly spaces; Croats may use CRO spaces, Serbs YUG and KRA spaces (entering and leaving by one), Bosniaks no Foreign Space (9.1.4)", "no path for %s from %s to %s", u.ID, g.name(u.Space), dest.Name)
}

func (g *game) doRedeploy(u *unit, to string) {
	g.act(u.ID)
	g.Arrows = append(g.Arrows, arrow{From: u.Space, To: to, Kind: "move"})
	if !g.dry {
		g.ev("9.1", "%s redeploys from %s to %s (1 SR point).", u.ID, g.name(u.Space), g.name(to))
	}
	u.Space = to
}

// enclaveKey says where a space's RP counts for the enclave limit: the id
// of its area's first Key Space, "" in an area with a full Supply Source;
// ok is false where the area connects to no source (10.1.6).
func (g *game) enclaveKey(side Side, space string) (key string, keys int, ok bool) {
	a, _, found := g.supply(side).areaOf(g, space)
	if !found || !a.supplied() {
		return "", 0, false
	}
	if a.full {
		return "", 0, true
	}
	return g.sc.Map.Spaces[a.keys[0]].ID, len(a.keys), true
}

// enclaveRoom checks the enclave limit of 1 RP a Key Space a round (10.1.6).
func (g *game) enclaveRoom(key string, keys, cost int) error {
	if key == "" || g.Round == nil {
		return nil
	}
	if g.Round.EnclaveRP[key]+cost > keys {
		return adjudicator.Refuse(fmt.Sprintf("an enclave takes 1 RP a Key Space a round: %d here (10.1.6)", keys), "the enclave of %s has no RP room left", g.name(key))
	}
	return nil
}

func (g *game) spendEnclave(key string, cost int) {
	if key == "" || g.Round == nil {
		return
	}
	if g.Round.EnclaveRP == nil {
		g.Round.EnclaveRP = map[string]int{}
	}
	g.Round.EnclaveRP[key] += cost
}

// checkReplace says why seat may not flip u to full strength, or nil; it
// returns the cost and the enclave (10.1.2).
func (g *game) checkReplace(seat string, u *unit) (int, string, error) {
	switch {
	case !u.Reduced:
		return 0, "", adjudicator.Refuse("replace flips a reduced unit to full strength (10.1.2)", "%s is at full strength", u.ID)
	case u.Type().Foreign:
		return 0, "", adjudicator.Refuse("Foreign Units are replaced at the start of a turn (10.1.7, 6.3)", "%s is a Foreign Unit", u.ID)
	case u.Supply == oos:
		return 0, "", adjudicator.Refuse("Out Of Supply units are not replaced (2.4.8)", "%s is Out Of Supply", u.ID)
	case g.acted(u.ID):
		return 0, "", adjudicator.Refuse("a unit makes one action a round", "%s has already acted this round", u.ID)
	}
	key, keys, ok := g.enclaveKey(u.Side(), u.Space)
	if !ok {
		return 0, "", adjudicator.Refuse("unsupplied areas get no replacements (10.1.6)", "%s is in an unsupplied area", g.name(u.Space))
	}
	return 1, key, g.enclaveRoom(key, keys, 1)
}

func (g *game) doReplace(u *unit, key string) {
	u.Reduced = false
	g.act(u.ID)
	g.spendEnclave(key, 1)
	if !g.dry {
		g.ev("10.1.2", "%s is replaced to full strength at %s (1 RP).", u.ID, g.name(u.Space))
	}
}

// checkRecreate says why seat may not recreate u at space, or nil; it
// returns the cost and the enclave (10.1.2, 10.1.5).
func (g *game) checkRecreate(seat string, u *unit, space string, full bool) (int, string, error) {
	sp := g.space(space)
	switch {
	case u.Box != eliminated:
		return 0, "", adjudicator.Refuse("recreate an eliminated unit: "+g.unitList(seat, func(u *unit) bool { return u.Box == eliminated && !u.Type().Foreign }), "%s is not in the Eliminated Units box (%s)", u.ID, boxName(u.Box))
	case u.Type().Foreign:
		return 0, "", adjudicator.Refuse("Foreign Units come back at the start of a turn (10.1.7, 6.3)", "%s is a Foreign Unit", u.ID)
	case !sp.Key || g.Control[space] != u.Side():
		return 0, "", adjudicator.Refuse(fmt.Sprintf("recreated units go to %s Key Spaces (10.1.5, 14.6.1)", u.Side()), "%s is not a %s Key Space", sp.Name, u.Side())
	case g.isUN(space):
		return 0, "", adjudicator.Refuse("UN Safe Areas take no replacements (2.5.2)", "%s is a UN Safe Area", sp.Name)
	case len(g.unitsAt(space))+1 > stackLimit:
		return 0, "", adjudicator.Refuse("at most 3 units a space (2.3, 10.1.5)", "%s is full", sp.Name)
	}
	cost := 1
	if full {
		cost = 2
	}
	key, keys, ok := g.enclaveKey(u.Side(), space)
	if !ok {
		return 0, "", adjudicator.Refuse("recreated units go to supplied spaces (10.1.5)", "%s is not supplied", sp.Name)
	}
	return cost, key, g.enclaveRoom(key, keys, cost)
}

func (g *game) doRecreate(u *unit, space string, full bool, key string) {
	u.Box, u.Space, u.Reduced, u.Supply = onMap, space, !full, ""
	g.act(u.ID)
	cost := 1
	if full {
		cost = 2
	}
	g.spendEnclave(key, cost)
	if !g.dry {
		g.ev("10.1.2", "%s is recreated %s at %s (%d RP).", u.ID, map[bool]string{true: "full-size", false: "reduced"}[full], g.name(space), cost)
	}
}
