package bu

// Events (12.0): a card's event, written in the effect vocabulary, with
// the parameters its orders give (target, place, deploy, safe, take).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// inWhere reports whether space id is among where: a space, a region, or
// key (a Key Space of side).
func (g *game) inWhere(where []string, id string, side Side) bool {
	sp := g.space(id)
	if sp == nil {
		return false
	}
	for _, w := range where {
		switch {
		case w == id, w == sp.Region:
			return true
		case w == "key" && sp.Key && g.Control[id] == side:
			return true
		}
	}
	return len(where) == 0
}

// reduceTarget says why u may not be a target of seat's roll to reduce,
// or nil: a full-size enemy unit on the map (ruling: a reduction flips a
// full unit, as the air strike's does), where the card allows.
func (g *game) reduceTarget(seat string, e *effect, u *unit) error {
	switch {
	case u == nil:
		return lateError("no such unit")
	case u.Box != onMap || slices.Contains(g.seatSides(seat), u.Side()):
		return adjudicator.Refuse("target enemy units on the map, such as "+g.enemyExample(seat), "%s is not an enemy unit on the map", u.ID)
	case u.Reduced:
		return adjudicator.Refuse("rolls to reduce target full-size units (ruling, as 7.3.1)", "%s is already reduced", u.ID)
	case !g.inWhere(e.Where, u.Space, u.Side()):
		return adjudicator.Refuse("the card rolls for units in "+strings.Join(e.Where, ", "), "%s is at %s", u.ID, g.name(u.Space))
	}
	return nil
}

// checkPlace says why u may not be placed at space by a place effect.
func (g *game) checkPlace(e *effect, u *unit, space string) error {
	sp := g.space(space)
	switch {
	case u.Type().ID != e.Type:
		return adjudicator.Refuse("the card places "+e.Type+" units", "%s is not a %s unit", u.ID, e.Type)
	case e.From == "pool" && u.Box != pool, e.From == "eliminated" && u.Box != eliminated:
		return adjudicator.Refuse(fmt.Sprintf("the card places units from %s", map[string]string{"pool": "those not yet in play", "eliminated": "the Eliminated Units box"}[e.From]), "%s is %s", u.ID, boxName(u.Box))
	case e.From == "pool" && u.Arrives != 0 && u.Arrives > g.Turn:
		return adjudicator.Refuse("a reinforcement comes on its own turn (6.2): place a unit whose turn has come", "%s is a reinforcement of turn %d", u.ID, u.Arrives)
	case sp.Foreign() || g.Control[space] != u.Side():
		return adjudicator.Refuse("placed units go to spaces of their side", "%s is not a %s space", sp.Name, u.Side())
	case !g.inWhere(e.Where, space, u.Side()):
		return adjudicator.Refuse("the card places units in "+strings.Join(e.Where, ", "), "%s is not among them", sp.Name)
	case g.isUN(space):
		return adjudicator.Refuse("UN Safe Areas take no new units (2.5.2)", "%s is a UN Safe Area", sp.Name)
	case len(g.unitsAt(space))+1 > stackLimit:
		return adjudicator.Refuse("at most 3 units a space (2.3)", "%s is full", sp.Name)
	}
	if a, _, ok := g.supply(u.Side()).areaOf(g, space); !ok || !a.supplied() {
		return adjudicator.Refuse("placed units go to supplied spaces", "%s is unsupplied", sp.Name)
	}
	return nil
}

// checkSafe says why space may not become a UN Safe Area by e (2.5.1).
func (g *game) checkSafe(seat string, e *effect, space string) error {
	if !slices.Contains(e.Where, space) {
		return adjudicator.Refuse("the card names "+strings.Join(e.Where, ", "), "%s is not among them", g.name(space))
	}
	if !slices.Contains(g.seatSides(seat), g.Control[space]) {
		return adjudicator.Refuse("a UN Safe Area is made of a space you control (ruling)", "%s is not yours", g.name(space))
	}
	return nil
}

// checkTake says why seat may not take control of space by a control
// effect: a vacant enemy space that is not a Key Space, next to a space of
// the seat, where the card allows (ruling).
func (g *game) checkTake(seat string, e *effect, space string) error {
	sp := g.space(space)
	side := g.seatSides(seat)[0]
	switch {
	case sp.Foreign() || g.friendly(side, g.Control[space]):
		return adjudicator.Refuse("take enemy spaces", "%s is not an enemy space", sp.Name)
	case sp.Key:
		return adjudicator.Refuse("a control effect takes no Key Space (ruling)", "%s is a Key Space", sp.Name)
	case len(g.unitsAt(space)) > 0:
		return adjudicator.Refuse("take a vacant space", "%s holds units", sp.Name)
	case !g.inWhere(e.Where, space, side):
		return adjudicator.Refuse("the card takes spaces in "+strings.Join(e.Where, ", "), "%s is not among them", sp.Name)
	}
	i, _ := g.sc.Map.Space(space)
	for _, n := range g.sc.Map.Graph.Neighbours(i) {
		if ns := g.sc.Map.Spaces[n]; !ns.Foreign() && slices.Contains(g.seatSides(seat), g.Control[ns.ID]) {
			return nil
		}
	}
	return adjudicator.Refuse("take a space next to one of yours", "%s is not next to a space of yours", sp.Name)
}

// sidesOf resolves an effect's who (self, opponent, opponents, a side)
// for seat playing for side; opponent is the active seat's side when an
// interrupt answers it, else every enemy side.
func (g *game) sidesOf(who, seat string, side Side) []Side {
	if s, ok := parseSide(who); ok {
		return []Side{s}
	}
	switch who {
	case "self":
		return []Side{side}
	case "opponent":
		if g.Round != nil && g.Round.Seat != seat {
			return []Side{g.Round.For}
		}
	}
	var out []Side
	for _, s := range sides {
		if g.enemies(side, s) && g.Sides[s].Out == "" {
			out = append(out, s)
		}
	}
	return out
}

// event carries out a card played for its event (12.1.1).
func (g *game) event(seat string, c *card, actions []string) {
	r := g.Round
	var params, queue []string
	for _, a := range actions {
		switch strings.Fields(a)[0] {
		case "target", "place", "deploy", "safe", "take":
			params = append(params, a)
		default:
			queue = append(queue, a)
		}
	}
	if c.Text != "" {
		g.ev("12.1.1", "Event %s: %s.", c.ID, strings.TrimSuffix(c.Text, "."))
	}
	if c.Lasting != "" {
		g.Lasting = append(g.Lasting, lasting{Card: c.ID, Seat: seat, Side: r.For, Until: c.Lasting, Turn: g.Turn})
		g.ev("1.5.6", "%s stays in effect for the %s.", c.ID, map[string]string{lastTurn: "turn", lastPeriod: "period", lastGame: "game"}[c.Lasting])
	}
	for _, e := range c.Effects {
		e := e
		switch e.Kind {
		case effOP, effSR, effRP:
			r.Points, r.Queue = g.cardPoints(c, "event"), queue
		case effSW:
			for _, s := range g.sidesOf(e.Who, seat, r.For) {
				g.changeSW(s, e.Value, "12.1", "event "+c.ID)
			}
		case effFA:
			for _, s := range g.sidesOf(e.Who, seat, r.For) {
				g.changeFA(s, e.Value, "12.1", "event "+c.ID, seat)
			}
		case effReduce:
			if e.When == "event" {
				g.rollToReduce(seat, c, &e, paramUnits(params, "target"))
			}
		case effPlace:
			g.placeUnits(seat, c, &e, params)
		case effForeign:
			g.foreignCard(seat, c, &e, params)
		case effUNSafe:
			g.safeAreas(seat, c, &e, params)
		case effControl:
			g.takeControl(seat, c, &e, params)
		}
		g.checkVictory()
		if g.Over {
			return
		}
	}
}

func paramUnits(params []string, verb string) []string {
	var out []string
	for _, p := range params {
		f := strings.Fields(p)
		if f[0] == verb {
			out = append(out, f[1:]...)
		}
	}
	return out
}

// rollToReduce rolls once for each unit chosen before rolling (12.1.2).
func (g *game) rollToReduce(seat string, c *card, e *effect, named []string) {
	var targets []*unit
	for _, id := range named {
		u := g.byID[id]
		err := g.reduceTarget(seat, e, u)
		switch {
		case err == nil && slices.Contains(targets, u):
			err = lateError("%s is already a target: one roll a unit (12.1.2)", id) // the receipt refuses it first
		case err == nil && len(targets) >= e.Units:
			err = lateError("%s rolls for %d %s", c.ID, e.Units, plural(e.Units, "unit", "units")) // the receipt refuses it first
		}
		if err != nil {
			g.ev("12.1.2", "Not carried out: target %s (%v).", id, err)
			continue
		}
		targets = append(targets, u)
	}
	if len(targets) == 0 {
		side := g.seatSides(seat)[0]
		for _, s := range g.sidesOf("opponents", seat, side) {
			targets = append(targets, g.pickEnemies(seat, s, e.Units, func(u *unit) bool { return g.reduceTarget(seat, e, u) == nil })...)
		}
		slices.SortStableFunc(targets, func(a, b *unit) int { return b.Values().CF - a.Values().CF })
		targets = targets[:min(len(targets), e.Units)]
	}
	if len(targets) == 0 {
		g.ev("12.1.2", "%s finds no unit to roll for.", c.ID)
		return
	}
	g.ev("12.1.2", "%s names the units before rolling: %s.", seatName(seat), unitIDs(targets))
	for _, u := range targets {
		roll, hit := rollToReduce(g.r, e.On, fmt.Sprintf("B&U 12.1.2 roll to reduce %s (%s), reduces on %d-9", u.ID, c.ID, e.On))
		if hit {
			u.Reduced = true
			g.ev("12.1.2", "%s rolls %d on %s: reduced.", c.ID, roll, u.ID)
		} else {
			g.ev("12.1.2", "%s rolls %d on %s: no effect.", c.ID, roll, u.ID)
		}
	}
}

// placeUnits puts a place effect's units on the map: those the orders
// name, then the umpire's (the first of the type, in the legal space with
// most room).
func (g *game) placeUnits(seat string, c *card, e *effect, params []string) {
	n := 0
	for _, p := range params {
		f := strings.Fields(p)
		if f[0] != "place" || n >= e.Count {
			continue
		}
		u := g.byID[f[1]]
		if err := g.checkPlace(e, u, f[2]); err != nil {
			g.ev("12.1", "Not carried out: %s (%v).", p, err)
			continue
		}
		g.placeOne(u, f[2], e)
		n++
	}
	for _, u := range g.Units {
		if n >= e.Count {
			break
		}
		if u.Type().ID != e.Type || e.From == "pool" && (u.Box != pool || u.Arrives > g.Turn) || e.From == "eliminated" && u.Box != eliminated {
			continue
		}
		best, room := "", -1
		for _, sp := range g.sc.Map.Spaces {
			if g.checkPlace(e, u, sp.ID) == nil && stackLimit-len(g.unitsAt(sp.ID)) > room {
				best, room = sp.ID, stackLimit-len(g.unitsAt(sp.ID))
			}
		}
		if best == "" {
			break
		}
		g.placeOne(u, best, e)
		n++
	}
	if n < e.Count {
		g.ev("12.1", "%s: %d of %d units could be placed.", c.ID, n, e.Count)
	}
}

func (g *game) placeOne(u *unit, space string, e *effect) {
	u.Box, u.Space, u.Reduced, u.Supply, u.Arrives = onMap, space, e.State == "reduced", "", 0
	g.ev("12.1", "%s is placed %s at %s.", u.ID, map[bool]string{true: "reduced", false: "full-size"}[u.Reduced], g.name(space))
}

// foreignCard brings a Foreign Units card's units into play (1.5.8): those
// the orders deploy go on the map at once, for 1 FA; the others to the
// Foreign Units box, to be deployed at a start of turn (6.3).
func (g *game) foreignCard(seat string, c *card, e *effect, params []string) {
	deployed := map[Side]bool{}
	for _, p := range params {
		f := strings.Fields(p)
		if f[0] != "deploy" {
			continue
		}
		u := g.byID[f[1]]
		if u == nil || u.Box != pool || !slices.Contains(e.UnitIDs, u.ID) {
			g.ev("1.5.8", "Not carried out: %s (%s does not come with %s, or is in play already).", p, f[1], c.ID)
			continue
		}
		if err := g.checkDeploy(u, f[2]); err != nil {
			g.ev("1.5.8", "Not carried out: %s (%v).", p, err)
			continue
		}
		u.Box, u.Space = onMap, f[2]
		deployed[u.Side()] = true
		g.ev("1.5.8", "%s deploys %s at %s at once.", seatName(seat), u.ID, g.name(f[2]))
	}
	for _, id := range e.UnitIDs {
		if u := g.byID[id]; u.Box == pool {
			u.Box = reserve
			g.ev("1.5.8", "%s goes to the Foreign Units box.", u.ID)
		}
	}
	for _, s := range sides {
		if deployed[s] {
			g.changeFA(s, -1, "1.5.8", "Foreign Units deployed at once", seat)
		}
	}
}

// safeAreas makes UN Safe Areas (2.5.1).
func (g *game) safeAreas(seat string, c *card, e *effect, params []string) {
	spaces := e.Where
	if e.Count > 0 {
		spaces = nil
		for _, p := range params {
			if f := strings.Fields(p); f[0] == "safe" {
				spaces = append(spaces, f[1:]...)
			}
		}
	}
	n := 0
	for _, sp := range spaces {
		err := g.checkSafe(seat, e, sp)
		switch {
		case err == nil && g.isUN(sp):
			err = lateError("%s is a UN Safe Area already", g.name(sp))
		case err == nil && e.Count > 0 && n >= e.Count:
			err = lateError("%s makes %d UN Safe %s", c.ID, e.Count, plural(e.Count, "Area", "Areas")) // the receipt refuses it first
		}
		if err != nil {
			if e.Count > 0 {
				g.ev("2.5.1", "Not carried out: safe %s (%v).", sp, err)
			}
			continue
		}
		n++
		g.UN = append(g.UN, sp)
		g.ev("2.5.1", "%s becomes a UN Safe Area.", g.name(sp))
	}
}

// takeControl takes vacant spaces by a control effect (ruling: captured as
// by movement, 13.5).
func (g *game) takeControl(seat string, c *card, e *effect, params []string) {
	var spaces []string
	for _, p := range params {
		if f := strings.Fields(p); f[0] == "take" {
			spaces = append(spaces, f[1:]...)
		}
	}
	if len(spaces) == 0 {
		for _, sp := range g.sc.Map.Spaces {
			if len(spaces) < e.Count && g.checkTake(seat, e, sp.ID) == nil {
				spaces = append(spaces, sp.ID)
			}
		}
	}
	side := g.Round.For
	for _, sp := range spaces[min(len(spaces), e.Count):] {
		g.ev("12.1", "Not carried out: take %s (%s takes %d %s; the receipt refuses more).", sp, c.ID, e.Count, plural(e.Count, "space", "spaces"))
	}
	for _, sp := range spaces[:min(len(spaces), e.Count)] {
		if err := g.checkTake(seat, e, sp); err != nil {
			g.ev("12.1", "Not carried out: take %s (%v).", sp, err)
			continue
		}
		g.capture(sp, side, 1, seat)
		if g.Over {
			return
		}
	}
}

// eventAction is a queued line that is no operation: nothing left to do.
func (g *game) eventAction(seat string, o *order) {
	g.ev("12.1", "Not carried out: %s (not an action of this play).", o.Canon)
}
