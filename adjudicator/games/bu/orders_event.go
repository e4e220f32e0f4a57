package bu

// The lines of an event (12.0), read on the sandbox: target, place, deploy,
// safe, take (docs/orders-bu.md).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// eventLine reads an event's parameter line on the sandbox.
func (p *parser) eventLine(verb string, f []string) (*order, error) {
	g := p.g
	c := p.card
	switch verb {
	case "target":
		e := c.Has(effReduce)
		hint := fmt.Sprintf("target UNIT ...: up to %d full-size enemy %s (12.1.2)", e.Units, plural(e.Units, "unit", "units"))
		o := &order{Verb: verb}
		names, err := unitNames(f[1:], hint)
		if err != nil {
			return nil, err
		}
		before := p.named("target")
		for _, w := range names {
			u := g.byID[unitID(w)]
			if err := g.reduceTarget(p.seat, e, u); err != nil {
				if u == nil {
					return nil, adjudicator.Refuse(hint, "there is no unit %s", unitID(w))
				}
				return nil, err
			}
			if slices.Contains(before, u.ID) || slices.Contains(o.Units, u.ID) {
				return nil, adjudicator.Refuse("the card rolls ONLY ONCE for each unit chosen (12.1.2): name each unit once", "%s is already a target", u.ID)
			}
			o.Units = append(o.Units, u.ID)
		}
		if len(o.Units) == 0 || len(before)+len(o.Units) > e.Units {
			if len(before) > 0 {
				hint += fmt.Sprintf("; the lines before name %s", strings.Join(before, " "))
			}
			return nil, adjudicator.Refuse(hint, "target: name 1 to %d units", e.Units)
		}
		o.Canon = "target " + strings.Join(o.Units, " ")
		return o, nil
	case "place":
		e := c.Has(effPlace)
		if len(f) != 3 {
			return nil, adjudicator.Refuse("place UNIT SPACE", "place: want a unit and a space")
		}
		u, err := p.unitOf(f[1])
		if err != nil {
			return nil, err
		}
		sp, err := p.spaceOf(f[2])
		if err != nil {
			return nil, err
		}
		if err := g.checkPlace(e, u, sp); err != nil {
			return nil, err
		}
		if n := countVerb(p.ords, "place"); n >= e.Count {
			return nil, adjudicator.Refuse(fmt.Sprintf("%s places %d %s", c.ID, e.Count, plural(e.Count, "unit", "units")), "place: too many units")
		}
		u.Box, u.Space = onMap, sp
		return &order{Verb: verb, Units: []string{u.ID}, Space: sp, Canon: "place " + u.ID + " " + sp}, nil
	case "deploy":
		e := c.Has(effForeign)
		if len(f) != 3 {
			return nil, adjudicator.Refuse("deploy UNIT SPACE (the others go to the Foreign Units box)", "deploy: want a unit and a space")
		}
		u, err := p.unitOf(f[1])
		if err != nil {
			return nil, err
		}
		if !slices.Contains(e.UnitIDs, u.ID) || u.Box != pool {
			return nil, adjudicator.Refuse(c.ID+" brings "+strings.Join(e.UnitIDs, ", "), "%s does not come with %s", u.ID, c.ID)
		}
		sp, err := p.spaceOf(f[2])
		if err != nil {
			return nil, err
		}
		if err := g.checkDeploy(u, sp); err != nil {
			return nil, err
		}
		u.Box, u.Space = onMap, sp
		return &order{Verb: verb, Units: []string{u.ID}, Space: sp, Canon: "deploy " + u.ID + " " + sp}, nil
	case "safe", "take":
		kind := map[string]string{"safe": effUNSafe, "take": effControl}[verb]
		e := c.Has(kind)
		o := &order{Verb: verb}
		before := p.named(verb)
		for _, w := range f[1:] {
			sp, err := p.spaceOf(w)
			if err != nil {
				return nil, err
			}
			if slices.Contains(before, sp) || slices.Contains(o.Path, sp) {
				return nil, adjudicator.Refuse(fmt.Sprintf("%s %s: each space once, up to %d among %s", verb, c.ID, e.Count, strings.Join(e.Where, ", ")), "%s is named twice", g.name(sp))
			}
			var cerr error
			if verb == "safe" {
				cerr = g.checkSafe(p.seat, e, sp)
			} else {
				cerr = g.checkTake(p.seat, e, sp)
			}
			if cerr != nil {
				return nil, cerr
			}
			o.Path = append(o.Path, sp)
		}
		if len(o.Path) == 0 || len(before)+len(o.Path) > e.Count {
			hint := fmt.Sprintf("%s %s: up to %d spaces among %s", verb, c.ID, e.Count, strings.Join(e.Where, ", "))
			if len(before) > 0 {
				hint += fmt.Sprintf("; the lines before name %s", strings.Join(before, " "))
			}
			return nil, adjudicator.Refuse(hint, "%s: name 1 to %d spaces", verb, e.Count)
		}
		o.Canon = verb + " " + strings.Join(o.Path, " ")
		return o, nil
	}
	return nil, lateError("%s: not an event order", verb) // roundLine lets only the card's lines through
}

func countVerb(ords []*order, verb string) int {
	n := 0
	for _, o := range ords {
		if o.Verb == verb {
			n++
		}
	}
	return n
}

// named lists the units or spaces the event lines of verb before this one
// name.
func (p *parser) named(verb string) []string {
	var out []string
	for _, o := range p.ords {
		if o.Verb == verb {
			out = append(out, o.Units...)
			out = append(out, o.Path...)
		}
	}
	return out
}
