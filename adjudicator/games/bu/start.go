package bu

// The set-up step (4.0, 14.2) and the Start of Turn Phase (6.0): the draw,
// reinforcements (6.2) and Foreign Units (6.3); the End of Turn Phase
// (8.0).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// adjudicateSetup plays the set-up step: standing orders, the 2-player
// region markers (14.2.2), the shuffle and the first draw (4.1.6, 6.1).
func (g *game) adjudicateSetup(orders map[string][]string) {
	for _, seat := range g.Seats {
		ords := g.sandboxOrders(seat, orders[seat])
		g.storeStanding(seat, ords)
		if seat != seatBC {
			continue
		}
		chosen := map[string]Side{}
		for _, o := range ords {
			if o.Verb == "region" {
				chosen[o.Space] = o.Side
			}
		}
		for _, reg := range g.sc.Map.Regions {
			if !reg.Choose2P {
				continue
			}
			side, ok := chosen[reg.ID]
			how := "the Bosniak-Croat player's choice"
			if !ok {
				side, how = g.majority(reg), "no choice given: the side controlling more of its spaces"
			}
			g.Regions[reg.ID] = side
			g.ev("14.2.2", "%s: %s region marker (%s).", reg.Name, side, how)
		}
	}
	g.ev("4.1", "The game is set up: %d Serb, %d Croat and %d Bosniak brigades; SW 30 and FA 0 for every side.", setupBrigades[serb], setupBrigades[croat], setupBrigades[bosniak])
	g.drawCards()
	g.Phase = phaseStart
}

// majority is the ally controlling more of a region's spaces, Bosniak on
// a tie.
func (g *game) majority(reg *region) Side {
	n := map[Side]int{}
	for _, i := range reg.Spaces {
		n[g.Control[g.sc.Map.Spaces[i].ID]]++
	}
	if n[croat] > n[bosniak] {
		return croat
	}
	return bosniak
}

// adjudicateStart plays the start of a turn: reinforcements (6.2), then
// Foreign Units (6.3), each in the order of play; then the first action
// round. Each seat's orders are read on its own, since nothing one seat
// places limits another's (ruling: the orders are collected together and
// carried out in the order of play).
func (g *game) adjudicateStart(orders map[string][]string) {
	all := map[string][]*order{}
	for _, seat := range g.order() {
		all[seat] = g.sandboxOrders(seat, orders[seat])
		g.storeStanding(seat, all[seat])
	}
	for _, seat := range g.order() {
		g.reinforcements(seat, all[seat], orders[seat] == nil)
	}
	for _, seat := range g.order() {
		g.foreignUnits(seat, all[seat])
		if g.Over {
			return
		}
	}
	g.Active = ""
	g.Rounds = 0
	g.ev("7.0", "The Action Phase of turn %d begins: %s.", g.Turn, orderText(g.order()))
	g.nextRound()
}

func orderText(o []string) string {
	names := make([]string, len(o))
	for i, s := range o {
		names[i] = seatName(s)
	}
	return strings.Join(names, ", then ")
}

// arriving lists seat's reinforcements of the turn.
func (g *game) arriving(seat string) []*unit {
	var out []*unit
	for _, u := range g.Units {
		if u.Box == pool && u.Arrives == g.Turn && slices.Contains(g.seatSides(seat), u.Side()) {
			out = append(out, u)
		}
	}
	return out
}

// checkReinforce says why u may not be placed at space now, or nil (6.2.3,
// 6.2.4, 2.4.9; 14.6.1: same-side spaces).
func (g *game) checkReinforce(u *unit, space string) error {
	sp := g.space(space)
	side := u.Side()
	switch {
	case u.Box != pool || u.Arrives != g.Turn:
		return adjudicator.Refuse("your reinforcements this turn: "+unitIDs(g.arriving(g.seatOf(side))), "%s is not a reinforcement of turn %d", u.ID, g.Turn)
	case sp.Foreign() || g.Control[space] != side:
		return adjudicator.Refuse(fmt.Sprintf("reinforcements go to %s spaces (6.2.3, 14.6.1)", side), "%s is not a %s space", sp.Name, side)
	case g.isUN(space):
		return adjudicator.Refuse("UN Safe Areas take no reinforcements (2.5.2, 6.2.3)", "%s is a UN Safe Area", sp.Name)
	case len(g.unitsAt(space))+1 > stackLimit:
		return adjudicator.Refuse("at most 3 units a space (6.2.3)", "%s is full", sp.Name)
	}
	near := sp.Key
	i, _ := g.sc.Map.Space(space)
	for _, n := range g.sc.Map.Graph.Neighbours(i) {
		if ns := g.sc.Map.Spaces[n]; ns.Key && g.Control[ns.ID] == side {
			near = true
		}
	}
	if !near {
		return adjudicator.Refuse("reinforcements go to your Key Spaces or the spaces next to them (6.2.3)", "%s is neither a %s Key Space nor next to one", sp.Name, side)
	}
	a, c, ok := g.supply(side).areaOf(g, space)
	if !ok || !a.supplied() {
		return adjudicator.Refuse("unsupplied areas take no reinforcements (6.2.4)", "%s is unsupplied", sp.Name)
	}
	if a.enclave() {
		placed := 0
		s := g.supply(side)
		for _, o := range g.Units {
			if o.Box == onMap && o.Placed == g.Turn && o.Side() == side {
				if _, oc, ok := s.areaOf(g, o.Space); ok && oc == c {
					placed++
				}
			}
		}
		if placed+1 > len(a.keys) {
			return adjudicator.Refuse(fmt.Sprintf("an enclave takes 1 reinforcement a Key Space: %d here (6.2.4)", len(a.keys)), "the enclave of %s is full of reinforcements this turn", sp.Name)
		}
	}
	return nil
}

// placeReinforcement puts u on the map at space.
func (g *game) placeReinforcement(u *unit, space string) {
	u.Box, u.Space, u.Placed = onMap, space, g.Turn
}

// reinforcements places seat's reinforcements (6.2): its orders, then the
// umpire's placement for the rest when the seat sent no orders (its Key
// Spaces with the most room, then the spaces next to them), and those that
// have no legal space are lost (6.2.3; ruling: out of the game).
func (g *game) reinforcements(seat string, ords []*order, none bool) {
	for _, o := range ords {
		if o.Verb != "reinforce" {
			continue
		}
		u := g.byID[o.Units[0]]
		if err := g.checkReinforce(u, o.Space); err != nil {
			g.ev("6.2", "Not carried out: %s (%v).", o.Canon, err)
			continue
		}
		g.placeReinforcement(u, o.Space)
		g.ev("6.2.3", "%s places %s at %s.", seatName(seat), u.ID, g.name(o.Space))
	}
	for _, u := range g.arriving(seat) {
		if none {
			if sp := g.umpirePlacement(u); sp != "" {
				g.placeReinforcement(u, sp)
				g.ev("6.2.3", "The umpire places %s's reinforcement %s at %s.", seatName(seat), u.ID, g.name(sp))
				continue
			}
		}
		u.Box = removed
		g.ev("6.2.3", "%s's reinforcement %s is not placed and is lost.", seatName(seat), u.ID)
	}
}

// umpirePlacement is where the umpire places a reinforcement: the legal
// space with the most room, Key Spaces first, by id; "" if none.
func (g *game) umpirePlacement(u *unit) string {
	best, bestRoom, bestKey := "", -1, false
	for _, sp := range g.sc.Map.Spaces {
		if g.checkReinforce(u, sp.ID) != nil {
			continue
		}
		room := stackLimit - len(g.unitsAt(sp.ID))
		if sp.Key && !bestKey || sp.Key == bestKey && room > bestRoom {
			best, bestRoom, bestKey = sp.ID, room, sp.Key
		}
	}
	return best
}

// checkStep1 says why 6.3 step 1 cannot be done, or nil: recover one
// eliminated Foreign Unit, or restore two reduced ones.
func (g *game) checkStep1(verb string, units []*unit) error {
	for _, u := range units {
		if !u.Type().Foreign {
			return adjudicator.Refuse("6.3 is for Foreign Units", "%s is not a Foreign Unit", u.ID)
		}
	}
	switch verb {
	case "recover":
		if len(units) != 1 || units[0].Box != eliminated {
			return adjudicator.Refuse("recover UNIT: one eliminated Foreign Unit back to the Foreign Units box (6.3 step 1)", "recover: want one eliminated Foreign Unit")
		}
	case "restore":
		if len(units) != 2 || units[0] == units[1] {
			return adjudicator.Refuse("restore UNIT UNIT: two reduced Foreign Units flipped to full size (6.3 step 1)", "restore: want two units")
		}
		for _, u := range units {
			if !u.Reduced || u.Box != onMap && u.Box != reserve {
				return adjudicator.Refuse("restore flips reduced Foreign Units on the map or in the Foreign Units box", "%s is not a reduced Foreign Unit in play", u.ID)
			}
		}
	}
	return nil
}

func (g *game) doStep1(verb string, units []*unit) {
	if verb == "recover" {
		u := units[0]
		u.Box, u.Reduced, u.Recovered = reserve, false, g.Turn
		return
	}
	for _, u := range units {
		u.Reduced = false
	}
}

// checkDeploy says why Foreign Unit u may not deploy at space, or nil: the
// Foreign Spaces of its designations, or its side's Key Spaces for a type
// that deploys there; in the 2-player game any allied space of those
// (14.6.1); never a UN Safe Area (2.5.2); stacking (2.3).
func (g *game) checkDeploy(u *unit, space string) error {
	sp := g.space(space)
	t := u.Type()
	ok := false
	for _, d := range t.Deploy {
		switch {
		case d == "key" && sp.Key && g.friendly(u.Side(), g.Control[space]):
			ok = true
		case sp.Foreign() && sp.Designation == d:
			ok = true
		}
	}
	switch {
	case !ok:
		return adjudicator.Refuse(fmt.Sprintf("%s units deploy into %s (6.3, the counter's \"deploys from\")", t.Army, strings.Join(t.Deploy, ", ")), "%s is not where %s deploys", sp.Name, u.ID)
	case g.isUN(space):
		return adjudicator.Refuse("no Foreign Unit deploys into a UN Safe Area (2.5.2)", "%s is a UN Safe Area", sp.Name)
	case len(g.unitsAt(space))+1 > stackLimit:
		return adjudicator.Refuse("at most 3 units a space (2.3)", "%s is full", sp.Name)
	case !sp.Foreign() && g.occupant(space) != "" && g.enemies(u.Side(), g.occupant(space)):
		return adjudicator.Refuse("Foreign Units deploy into friendly or vacant spaces (6.3)", "%s holds enemy units", sp.Name)
	}
	return nil
}

// foreignUnits carries out seat's Deploy Foreign Units steps (6.3): step 1
// (recover or restore), step 2 (withdraw), step 3 (deploy), step 4 (-1 FA a
// foreign army deployed).
func (g *game) foreignUnits(seat string, ords []*order) {
	var armies []string
	for _, step := range [][]string{{"recover", "restore"}, {"withdraw"}, {"deploy"}} {
		for _, o := range ords {
			if !slices.Contains(step, o.Verb) {
				continue
			}
			var units []*unit
			for _, id := range o.Units {
				units = append(units, g.byID[id])
			}
			switch o.Verb {
			case "recover", "restore":
				if err := g.checkStep1(o.Verb, units); err != nil {
					g.ev("6.3", "Not carried out: %s (%v).", o.Canon, err)
					continue
				}
				g.doStep1(o.Verb, units)
				g.ev("6.3", "%s %s %s (6.3 step 1).", seatName(seat), map[string]string{"recover": "returns", "restore": "flips to full size"}[o.Verb], unitIDs(units))
			case "withdraw":
				u := units[0]
				if u.Box != onMap || !u.Type().Foreign {
					g.ev("6.3", "Not carried out: %s (not a Foreign Unit on the map).", o.Canon)
					continue
				}
				g.ev("6.3", "%s returns %s from %s to the Foreign Units box (6.3 step 2).", seatName(seat), u.ID, g.name(u.Space))
				u.Box, u.Space, u.Supply = reserve, "", ""
			case "deploy":
				u := units[0]
				if u.Box != reserve || u.Recovered == g.Turn {
					g.ev("6.3", "Not carried out: %s (not in the Foreign Units box, or back this turn).", o.Canon)
					continue
				}
				if err := g.checkDeploy(u, o.Space); err != nil {
					g.ev("6.3", "Not carried out: %s (%v).", o.Canon, err)
					continue
				}
				u.Box, u.Space = onMap, o.Space
				g.ev("6.3", "%s deploys %s at %s (6.3 step 3).", seatName(seat), u.ID, g.name(o.Space))
				if !slices.Contains(armies, u.Type().Army+"/"+string(u.Side())) {
					armies = append(armies, u.Type().Army+"/"+string(u.Side()))
				}
			}
		}
	}
	for _, a := range armies {
		army, side, _ := strings.Cut(a, "/")
		g.changeFA(Side(side), -1, "6.3", army+" units deployed", seat)
		g.checkVictory()
		if g.Over {
			return
		}
	}
}

// endOfTurn is the End of Turn Phase (8.0): the turn's cards are all
// played, so the decks' keys are published; lasting cards of the turn (and
// of the period, after turns 2 and 4) end; the winner is found after the
// last turn; else the next turn starts with its draw.
func (g *game) endOfTurn() {
	g.endOfHands()
	g.Active = ""
	var kept []lasting
	for _, l := range g.Lasting {
		ends := l.Until == lastTurn || l.Until == lastPeriod && (g.Turn == 2 || g.Turn >= gameTurns)
		if ends {
			g.ev("1.5.6", "%s's lasting card %s ends.", seatName(l.Seat), g.cardName(l.Card))
			g.discard(l.Seat, l.Card)
			continue
		}
		kept = append(kept, l)
	}
	g.Lasting = kept
	g.ev("8.0", "Turn %d ends.", g.Turn)
	if g.Turn >= g.LastTurn && !g.FightToEnd {
		var all []string
		all = append(all, g.Seats...)
		g.finish(g.bestScore(all), fmt.Sprintf("the last turn (%d) has been played (8.1.1)", g.LastTurn))
		return
	}
	g.Turn++
	if g.FightToEnd && g.Turn > gameTurns {
		g.ev("15.2", "Fight To The End: turn 4 is played again (turn %d of the game).", g.Turn)
	}
	g.Phase = phaseStart
	g.ev("8.2", "Turn %d begins.", g.Turn)
	g.drawCards()
}
