package bu

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// retreatSpaces is how far the defender must retreat after a battle
// (13.4.8): 1 space when he suffered exactly 2 step losses more than the
// attacker, 2 when the difference is greater than 2, else none. Artillery
// Preparation steps are left out of defenderSteps by the caller (13.4.8).
func retreatSpaces(attackerSteps, defenderSteps int) int {
	switch d := defenderSteps - attackerSteps; {
	case d > 2:
		return 2
	case d == 2:
		return 1
	}
	return 0
}

// oosRetreatSteps is the steps an Out Of Supply unit takes instead of a
// retreat of spaces (13.4.8.4: one or two, as the retreat length; ruling
// over the "one step" of 2.4.8).
func oosRetreatSteps(spaces int) int { return spaces }

// rollToReduce rolls once for a unit chosen before rolling (12.1.2, 1.5.8
// "Roll to reduce"): the unit is reduced on a face of on or more, the d10
// read 0-9.
func rollToReduce(r dice.Roller, on int, purpose string) (roll int, reduced bool) {
	roll = r.Draw(dice.Open, spec.DiceFrom(1, 10, 0), purpose)[0]
	return roll, roll >= on
}

// The hosted game's retreat after defence (13.4.8).

// battleRetreat makes the defender retreat, or ignore the retreat, after
// battle b (13.4.8); false when it waits for the defender's decision.
func (g *game) battleRetreat(b *attack) bool {
	var def []*unit
	for _, id := range b.survivors(g, b.Defenders) {
		if u := g.byID[id]; u.Space == b.Target {
			def = append(def, u)
		}
	}
	spaces := retreatSpaces(b.AttSteps, b.DefSteps)
	if len(def) == 0 || spaces == 0 {
		return true
	}
	b.Retreat = spaces
	seat := b.defSeat(g)
	if _, told := b.Decisions["retreat-told"]; !told {
		g.ev("13.4.8", "The defender lost %d %s, the attacker %d: the defender must retreat %d %s.", b.DefSteps, plural(b.DefSteps, "step", "steps"),
			b.AttSteps, spaces, plural(spaces, "space", "spaces"))
		if b.Decisions == nil {
			b.Decisions = map[string][]string{}
		}
		b.Decisions["retreat-told"] = nil
	}
	d, decided := b.Decisions["retreat:"+seat]
	ignore := false
	plans := map[string][]string{}
	var prefs []string
	switch {
	case decided && len(d) == 1 && d[0] == "ignore":
		ignore = b.MayIgnore
	case decided && len(d) == 1 && d[0] == "default":
		ignore = b.MayIgnore
	case decided:
		var first []*unit
		for _, p := range d {
			id, path, _ := strings.Cut(p, ">")
			plans[id] = strings.Split(path, ">")
			if i := slices.IndexFunc(def, func(u *unit) bool { return u.ID == id }); i >= 0 {
				first = append(first, def[i])
			}
		}
		// the units the seat ordered retreat first, in its order, so that
		// the umpire's choice for another never takes their room
		def = append(first, slices.DeleteFunc(def, func(u *unit) bool { return plans[u.ID] != nil })...)
	default:
		pref := g.Standing[seat]["retreat"]
		switch {
		case len(pref) > 0 && pref[0] == "ignore":
			ignore = b.MayIgnore
		case len(pref) > 0 && pref[0] == "move":
			prefs = pref[1:]
		default:
			if g.retreatChoice(b, def) {
				g.ask(b, "retreat", []string{seat})
				return false
			}
		}
	}
	if ignore {
		u := g.ignoreStep(seat, def)
		g.ev("13.4.8.1", "The defenders at %s ignore the retreat: %s takes one more step.", g.name(b.Target), u.ID)
		g.takeSteps(b, []string{u.ID}, g.rewardSide(b))
		return true
	}
	for _, u := range def {
		if u.Box != onMap {
			continue
		}
		if u.Supply == oos {
			n := oosRetreatSteps(spaces)
			g.ev("13.4.8.4", "%s is Out Of Supply and cannot retreat: it takes %d %s instead.", u.ID, n, plural(n, "step", "steps"))
			steps := []string{u.ID}
			if n > 1 {
				steps = append(steps, u.ID)
			}
			if u.Reduced {
				steps = steps[:1]
			}
			g.takeSteps(b, steps, g.rewardSide(b))
			continue
		}
		path, ok := plans[u.ID]
		if ok {
			if err := g.checkRetreat(b, u, path); err != nil {
				g.ev("13.4.8.2", "%s cannot retreat as ordered (%v): the umpire chooses.", u.ID, err)
				ok = false
			}
		}
		if !ok {
			path = g.autoRetreat(b, u, prefs)
		}
		if path == nil {
			g.ev("13.4.8.5", "%s can neither retreat nor ignore the retreat: it is eliminated.", u.ID)
			g.eliminate(u, g.rewardSide(b), false)
			continue
		}
		from := u.Space
		u.Space = path[len(path)-1]
		g.Round.Retreated[u.ID] = u.Space
		g.Arrows = append(g.Arrows, arrow{From: from, To: u.Space, Kind: "retreat"})
		g.ev("13.4.8", "%s retreats from %s to %s.", u.ID, g.name(from), pathNames(g, path))
	}
	return true
}

// retreatChoice reports whether the defender has a real choice: ignoring
// the retreat, or more than one way for a unit.
func (g *game) retreatChoice(b *attack, def []*unit) bool {
	if b.MayIgnore {
		return true
	}
	for _, u := range def {
		if u.Supply != oos && len(g.retreatPaths(b, u)) > 1 {
			return true
		}
	}
	return false
}

// ignoreStep is the defending unit that takes the step of ignoring a
// retreat (13.4.8.1): the first of the seat's standing losses order, else a
// full-strength non-elite unit, else any, by id.
func (g *game) ignoreStep(seat string, def []*unit) *unit {
	pref := g.Standing[seat]["losses"]
	for _, id := range pref {
		for _, u := range def {
			if u.ID == id && u.Box == onMap {
				return u
			}
		}
	}
	best := def[0]
	score := func(u *unit) int { return boolInt(u.Reduced)*2 + boolInt(u.Type().Elite) }
	for _, u := range def[1:] {
		if score(u) < score(best) || score(u) == score(best) && u.ID < best.ID {
			best = u
		}
	}
	return best
}

// checkRetreat says why unit u may not retreat along path from battle b,
// or nil (13.4.8.2, 13.4.8.3). The units that have already retreated stand
// where they went: they are counted there once, as the units found there
// (13.4.8.2: the retreat ends within stacking, 2.3.1).
func (g *game) checkRetreat(b *attack, u *unit, path []string) error {
	m := g.sc.Map
	ti, _ := m.Space(b.Target)
	dist := m.Graph.Distances([]int{ti}, nil)
	hint := fmt.Sprintf("each retreat step goes further from %s, into a friendly space, ending within stacking (13.4.8.2)", b.Target)
	if len(path) == 0 || len(path) > b.Retreat {
		return adjudicator.Refuse(hint, "the retreat is %d %s", b.Retreat, plural(b.Retreat, "space", "spaces"))
	}
	at := ti
	for i, id := range path {
		n, ok := m.Space(id)
		if !ok {
			return adjudicator.Refuse(hint, "there is no space %q", id)
		}
		sp := m.Spaces[n]
		switch {
		case !m.Graph.Adjacent(at, n):
			return adjudicator.Refuse(hint, "no road joins %s and %s", m.Spaces[at].Name, sp.Name)
		case dist[n] <= dist[at]:
			return adjudicator.Refuse(hint, "%s is no further from %s", sp.Name, g.name(b.Target))
		case sp.Foreign() && (u.Side() == bosniak || !usesDesignation(u.Side(), sp.Designation)):
			return adjudicator.Refuse("Croats retreat into CRO spaces, Serbs into YUG and KRA spaces, Bosniaks into none (13.4.8.3)", "%s may not retreat into %s", u.ID, sp.Name)
		case !sp.Foreign() && !g.friendly(u.Side(), g.Control[id]):
			return adjudicator.Refuse(hint, "%s is not friendly", sp.Name)
		}
		if occ := g.occupant(id); occ != "" && g.enemies(u.Side(), occ) {
			return adjudicator.Refuse(hint, "%s holds enemy units", sp.Name)
		}
		if sp.Foreign() && i < len(path)-1 {
			return adjudicator.Refuse("a retreat into a Foreign Space stops there (13.4.8.3)", "the retreat goes on after %s", sp.Name)
		}
		at = n
	}
	last := m.Spaces[at]
	if len(path) < b.Retreat && !last.Foreign() {
		return adjudicator.Refuse(hint, "the retreat is %d spaces", b.Retreat)
	}
	if len(g.unitsAt(last.ID))+1 > stackLimit {
		return adjudicator.Refuse(hint, "%s is full (%d units, 2.3)", last.Name, stackLimit)
	}
	return nil
}

// retreatPaths lists the legal retreat paths of unit u.
func (g *game) retreatPaths(b *attack, u *unit) [][]string {
	m := g.sc.Map
	var out [][]string
	var walk func(at int, path []string)
	walk = func(at int, path []string) {
		if len(path) > 0 && g.checkRetreat(b, u, path) == nil {
			out = append(out, slices.Clone(path))
		}
		if len(path) == b.Retreat || len(path) > 0 && g.space(path[len(path)-1]).Foreign() {
			return
		}
		for _, n := range m.Graph.Neighbours(at) {
			walk(n, append(path, m.Spaces[n].ID))
		}
	}
	ti, _ := m.Space(b.Target)
	walk(ti, nil)
	return out
}

// autoRetreat chooses a retreat path for u: ending in one of prefs first,
// in its order; then in BiH rather than a Foreign Space, where supply can
// be traced, with the most room, by name.
func (g *game) autoRetreat(b *attack, u *unit, prefs []string) []string {
	paths := g.retreatPaths(b, u)
	if len(paths) == 0 {
		return nil
	}
	key := func(p []string) (int, int, int, int, string) {
		end := p[len(p)-1]
		pr := slices.Index(prefs, end)
		if pr < 0 {
			pr = len(prefs)
		}
		return pr, boolInt(g.space(end).Foreign()), boolInt(!g.traceable(u.Side(), end)), len(g.unitsAt(end)), strings.Join(p, " ")
	}
	slices.SortFunc(paths, func(x, y []string) int {
		a1, a2, a3, a4, a5 := key(x)
		b1, b2, b3, b4, b5 := key(y)
		return cmp.Or(cmp.Compare(a1, b1), cmp.Compare(a2, b2), cmp.Compare(a3, b3), cmp.Compare(a4, b4), cmp.Compare(a5, b5))
	})
	return paths[0]
}
