package bu

// Advance after attack (13.4.9) and capture by advance (13.4.10).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// advancers are the attackers that may advance into the cleared space
// (13.4.9, 13.4.9.2): those whyNoAdvance finds nothing against.
func (g *game) advancers(b *attack) []*unit {
	var out []*unit
	for _, id := range b.Attackers {
		if u := g.byID[id]; g.whyNoAdvance(b, u) == nil {
			out = append(out, u)
		}
	}
	return out
}

// whyNoAdvance says why attacking unit u may not advance into the cleared
// space, or nil: only full-strength survivors advance (13.4.9), not under
// Limited Fuel unless a card gives an advance (13.4.9.2, 1.5.5), domestic
// units not into a Foreign Space (13.4.9.2), and not where the unit may not
// enter (1.3.4).
func (g *game) whyNoAdvance(b *attack, u *unit) error {
	hint := "only full-strength attacking units advance, not under Limited Fuel, domestic units not into a Foreign Space (13.4.9, 13.4.9.2); advance none, or the units that may"
	switch {
	case u.Box != onMap:
		return adjudicator.Refuse(hint, "%s is %s", u.ID, boxName(u.Box))
	case u.Reduced:
		return adjudicator.Refuse(hint, "%s is reduced: only full-strength units advance (13.4.9)", u.ID)
	case g.limitedFuel(u.Side()) && g.advanceBonus(b.Seat) == 0:
		return adjudicator.Refuse(hint, "%s is under Limited Fuel: no advance (13.2.8, 13.4.9.2)", u.ID)
	case g.space(b.Target).Foreign() && !u.Type().Foreign:
		return adjudicator.Refuse(hint, "%s is a domestic unit: no advance into the Foreign Space %s (13.4.9.2)", u.ID, g.name(b.Target))
	}
	return g.mayEnter(u, b.Target)
}

// extraSteps reports whether unit u may advance one space more (13.4.9.1:
// elite units and cards' Advance a/a +1), the target's terrain not halting
// it (13.4.9.2).
func (g *game) extraSteps(b *attack, u *unit) bool {
	t := g.space(b.Target).Terrain
	halts := effects(t, false, true).HaltsAdvance && !g.ignoresTerrain(b.Seat, t)
	return !halts && (u.Type().Elite || g.advanceBonus(b.Seat) > 0)
}

// battleAdvance advances the attackers into the cleared space; false when
// it waits for the attacker's decision.
func (g *game) battleAdvance(b *attack) bool {
	ordered := len(b.Advance) > 0 && b.Advance[0] != "none"
	if len(g.unitsAt(b.Target)) > 0 {
		if ordered {
			g.ev("13.4.9", "The defenders hold %s: the attackers do not advance (advance %s not carried out).", g.name(b.Target), strings.Join(b.Advance, " "))
		}
		return true
	}
	elig := g.advancers(b)
	if len(elig) == 0 {
		switch {
		case b.survivors(g, b.Attackers) != nil && g.limitedFuel(g.byID[b.Attackers[0]].Side()):
			g.ev("13.2.8, 13.4.9.2", "%s is empty, but Limited Fuel keeps the attackers from advancing.", g.name(b.Target))
		case ordered:
			g.ev("13.4.9", "%s is empty, but no attacker may advance: only full-strength attacking units advance (advance %s not carried out).", g.name(b.Target), strings.Join(b.Advance, " "))
		}
		return true
	}
	seat := b.Seat
	want, decided := b.Decisions["advance:"+seat]
	if !decided {
		want = b.Advance
	}
	if len(want) == 0 {
		st := g.Standing[seat]["advancing"]
		switch {
		case len(st) > 0 && st[0] != "ask":
			want = st
		default:
			if g.dry {
				return true
			}
			g.ask(b, "advance", []string{seat})
			return false
		}
	}
	if len(want) == 1 && (want[0] == "none" || want[0] == "default") {
		g.ev("13.4.9", "The attackers do not advance into %s.", g.name(b.Target))
		return true
	}
	var movers []*unit
	extra := map[string]string{}
	if want[0] == "all" {
		movers = elig
	} else {
		for _, w := range want {
			id, to, _ := strings.Cut(w, ">")
			i := slices.IndexFunc(elig, func(u *unit) bool { return u.ID == id })
			if i < 0 {
				why := "it is not an attacking unit"
				if u := g.byID[id]; u != nil && slices.Contains(b.Attackers, id) {
					if err := g.whyNoAdvance(b, u); err != nil {
						why = err.Error()
					}
				}
				g.ev("13.4.9", "%s does not advance: %s.", id, why)
				continue
			}
			movers = append(movers, elig[i])
			if to != "" {
				extra[id] = to
			}
		}
	}
	plan := g.planAdvance(b, movers, extra)
	for _, n := range plan.notes {
		g.ev(n.rule, "%s", n.text)
	}
	movers = plan.movers
	if len(movers) == 0 {
		return true
	}
	for _, u := range movers {
		g.Arrows = append(g.Arrows, arrow{From: u.Space, To: b.Target, Kind: "advance"})
		u.Space = b.Target
	}
	g.ev("13.4.9", "%s %s into %s.", unitIDs(movers), plural(len(movers), "advances", "advance"), g.name(b.Target))
	if sp := g.space(b.Target); !sp.Foreign() && !g.friendly(movers[0].Side(), g.Control[b.Target]) {
		g.capture(b.Target, g.captureSide(movers), g.captureFA(movers), seat)
		if g.Over {
			return true
		}
	}
	for _, u := range movers {
		to, ok := plan.goOn[u.ID]
		if !ok {
			continue
		}
		g.Arrows = append(g.Arrows, arrow{From: u.Space, To: to, Kind: "advance"})
		u.Space = to
		g.ev("13.4.9.1", "%s advances one space more, into %s.", u.ID, g.name(to))
		if sp := g.space(to); !sp.Foreign() && !g.friendly(u.Side(), g.Control[to]) {
			g.capture(to, u.Side(), u.Type().CaptureFA, seat)
			if g.Over {
				return true
			}
		}
	}
	return true
}

// checkAdvance says why the advance decision adv (all, or UNIT[>SPACE]
// ...) cannot be carried out as written in battle b, or nil: every unit
// named may advance (13.4.9), and the plan leaves none behind (13.4.9.1,
// 13.4.9.2).
func (g *game) checkAdvance(b *attack, adv []string) error {
	var movers []*unit
	extra := map[string]string{}
	if adv[0] == "all" {
		movers = g.advancers(b)
	} else {
		for _, w := range adv {
			id, to, _ := strings.Cut(w, ">")
			u := g.byID[id]
			if err := g.whyNoAdvance(b, u); err != nil {
				return err
			}
			movers = append(movers, u)
			if to != "" {
				extra[id] = to
			}
		}
	}
	if plan := g.planAdvance(b, movers, extra); len(plan.notes) > 0 {
		return plan.notes[0].err
	}
	return nil
}

// advancePlan is an advance worked out before any unit moves: the units
// that enter the cleared space, the extra space of those that go on, and
// why the others do not advance as ordered.
type advancePlan struct {
	movers []*unit
	goOn   map[string]string
	notes  []advanceNote
}

// advanceNote is an ordered advance that is not carried out, and why.
type advanceNote struct {
	rule, text string
	err        error
}

// planAdvance works out the advance of movers into battle b's cleared
// space, extra giving a unit's extra space (13.4.9.1). The units may pass
// through the cleared space overstacked, but every space ends the advance
// within stacking (13.4.9.2, 2.3.1): those going on count where they go,
// with the units already there and the others going there before them
// (their own starting space is left, so a unit may go back into it); the
// units staying beyond three, the last ordered first, do not advance.
func (g *game) planAdvance(b *attack, movers []*unit, extra map[string]string) advancePlan {
	movers = slices.Clone(movers)
	var notes []advanceNote
	for {
		from := make([]string, len(movers))
		for i, u := range movers {
			from[i], u.Space = u.Space, b.Target
		}
		plan := advancePlan{goOn: map[string]string{}}
		arriving := map[string]int{}
		var stay []*unit
		for _, u := range movers {
			to, ok := extra[u.ID]
			if !ok {
				stay = append(stay, u)
				continue
			}
			if err := g.checkExtraAdvance(b, u, to, arriving[to]); err != nil {
				plan.notes = append(plan.notes, advanceNote{rule: "13.4.9.1", text: fmt.Sprintf("%s does not advance further to %s (%v).", u.ID, g.name(to), err), err: err})
				stay = append(stay, u)
				continue
			}
			arriving[to]++
			plan.goOn[u.ID] = to
		}
		for i, u := range movers {
			u.Space = from[i]
		}
		if len(stay) <= stackLimit {
			plan.movers, plan.notes = movers, append(notes, plan.notes...)
			return plan
		}
		// the last units ordered to stay do not advance; plan again
		// without them, standing where they are
		out := stay[stackLimit:]
		err := adjudicator.Refuse(fmt.Sprintf("at most %d units end an advance in a space (13.4.9.2, 2.3.1): send some on with UNIT>SPACE (elite units, a card's Advance a/a) or leave some out", stackLimit),
			"%d units would end the advance in %s", len(stay), g.name(b.Target))
		for _, u := range out {
			notes = append(notes, advanceNote{rule: "13.4.9.2", text: fmt.Sprintf("%s does not advance: %s would hold %d units at the end of the advance (2.3.1).", u.ID, g.name(b.Target), len(stay)), err: err})
		}
		movers = slices.DeleteFunc(movers, func(u *unit) bool { return slices.Contains(out, u) })
	}
}

// checkExtraAdvance says why u may not advance one space more into to, or
// nil (13.4.9.1, 13.4.9.2); arriving units of the same advance go there
// before it.
func (g *game) checkExtraAdvance(b *attack, u *unit, to string, arriving int) error {
	if !g.extraSteps(b, u) {
		return adjudicator.Refuse("elite units and cards with Advance a/a +1 advance one space more, not out of a Mountain, Swamp or River space (13.4.9)", "%s has no extra advance", u.ID)
	}
	ti, _ := g.sc.Map.Space(b.Target)
	ni, ok := g.sc.Map.Space(to)
	if !ok || !g.sc.Map.Graph.Adjacent(ti, ni) {
		return adjudicator.Refuse("the extra space is next to "+b.Target+": "+g.neighbours(b.Target), "%s is not next to %s", g.name(to), g.name(b.Target))
	}
	if err := g.mayEnter(u, to); err != nil {
		return err
	}
	if n := len(g.unitsAt(to)) + arriving + 1; n > stackLimit {
		return adjudicator.Refuse("at most 3 units a space at the end of an advance (13.4.9.2)", "%s is full", g.name(to))
	}
	return nil
}
