package sms1914

// This file holds the Force (1.1, 3.2): a Formation with at most two
// assigned Asset Units (and a Fort), or one or two Asset Units; asset
// assignment (5.5.1); Combat Effectiveness (6, 5.5.2); strength
// reductions (9.10) and division-equivalents (1.1).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// force is one Force in a hex.
type force struct {
	Formation *unit   // nil for an asset-only Force
	Assets    []*unit // at most two (a Fort besides)
	Fort      *unit
	Hex       board.ID
}

// Units lists the Force's units, its Formation first.
func (f *force) Units() []*unit {
	var out []*unit
	if f.Formation != nil {
		out = append(out, f.Formation)
	}
	out = append(out, f.Assets...)
	if f.Fort != nil {
		out = append(out, f.Fort)
	}
	return out
}

// Lead is the unit that names the Force: its Formation, else its first asset.
func (f *force) Lead() *unit {
	if f.Formation != nil {
		return f.Formation
	}
	if len(f.Assets) > 0 {
		return f.Assets[0]
	}
	return f.Fort
}

func (f *force) String() string {
	var ids []string
	for _, u := range f.Units() {
		ids = append(ids, u.ID)
	}
	return strings.Join(ids, "+")
}

// CEL is the Force's Combat Effectiveness Level (6.1.2): its Formation's
// Base CE less its status; an asset-only Force uses the highest Base CE
// (5.5.1(2)).
func (f *force) CEL() int {
	if f.Formation != nil {
		return f.Formation.c.BaseCE - f.Formation.CE.CELPenalty()
	}
	best := 0
	for _, u := range f.Units() {
		best = max(best, u.c.BaseCE)
	}
	return best
}

// values are a unit's current printed values: a flipped Fort is its
// infantry side (8.5), other units their side for their SRs (9.10).
func (u *unit) values() values {
	if u.c.Kind == kFort {
		if u.Flipped && len(u.c.Sides) > 1 {
			return u.c.Sides[1]
		}
		return u.c.Sides[0]
	}
	return u.c.At(u.SR)
}

// isFort reports a Fort on its front side (8.5).
func (u *unit) isFort() bool { return u.c.Kind == kFort && !u.Flipped }

// asset reports an Asset Unit; a flipped Fort is a Combat-type asset (8.5).
func (u *unit) asset() bool { return !u.c.Formation }

// combat reports a Combat unit, counting a flipped Fort (8.5).
func (u *unit) combat() bool { return u.c.Combat() || (u.c.Kind == kFort && u.Flipped) }

// quarters is the unit's size in quarter division-equivalents in one of
// its hexes: half each for a Two-Hex unit (19.1.3).
func (u *unit) quarters() int {
	q := u.c.DEQuarters()
	if u.c.Kind == kFort && u.Flipped {
		q = 2 // an infantry asset (8.5): counted as a brigade, docs/rulings.md
	}
	if u.Hex2 != "" {
		return (q + 1) / 2
	}
	return q
}

// assign makes the asset assignments just in time (5.5.1): an asset stacked
// with a Formation of its side stays with the one it was assigned to, or
// goes to the Formation with the fewest assets (best PR, then id); a
// Formation takes at most two. Assets with no Formation are unassigned.
func (g *game) assign() {
	for _, u := range g.Units {
		if !u.onMap() || !u.asset() || u.c.Kind == kFort && !u.Flipped || u.c.Supply() || u.c.Kind == kSquadron {
			if u.Assigned != "" && !u.onMap() {
				u.Assigned = ""
			}
			continue
		}
		if f := g.byID[u.Assigned]; f != nil && f.onMap() && (f.in(u.pos) || u.Hex2 != "") && g.assetsOf(f) <= 2 {
			continue
		}
		u.Assigned = ""
		var best *unit
		for _, o := range g.sideAt(u.pos, u.c.Side) {
			if !o.c.Formation || g.assetsOf(o) >= 2 {
				continue
			}
			if best == nil || g.assetsOf(o) < g.assetsOf(best) || g.assetsOf(o) == g.assetsOf(best) && o.values().PR > best.values().PR {
				best = o
			}
		}
		if best != nil {
			u.Assigned = best.ID
		}
	}
}

func (g *game) assetsOf(f *unit) int {
	n := 0
	for _, u := range g.Units {
		if u.onMap() && u.Assigned == f.ID {
			n++
		}
	}
	return n
}

// forcesAt lists the side's Forces in a hex (1.1): each Formation there
// with its assigned assets; then the unassigned assets two by two; the
// Fort joins the first Force (or stands alone).
func (g *game) forcesAt(id board.ID, side side) []*force {
	var out []*force
	var loose []*unit
	var fort *unit
	for _, u := range g.sideAt(id, side) {
		switch {
		case u.isFort():
			fort = u
		case u.c.Formation:
			f := &force{Formation: u, Hex: id}
			for _, a := range g.Units {
				if a.onMap() && a.Assigned == u.ID && a.in(id) {
					f.Assets = append(f.Assets, a)
				}
			}
			out = append(out, f)
		case u.c.Combat() || u.c.Kind == kArtillery || u.c.Kind == kFort:
			if g.byID[u.Assigned] == nil || !g.byID[u.Assigned].in(id) {
				loose = append(loose, u)
			}
		}
	}
	for i := 0; i < len(loose); i += 2 {
		f := &force{Hex: id, Assets: loose[i:min(i+2, len(loose))]}
		out = append(out, f)
	}
	if fort != nil {
		if len(out) > 0 {
			out[0].Fort = fort
		} else {
			out = append(out, &force{Hex: id, Fort: fort})
		}
	}
	return out
}

// forceOf is the Force a unit is in (in its first hex).
func (g *game) forceOf(u *unit) *force {
	for _, f := range g.forcesAt(u.pos, u.c.Side) {
		if slices.Contains(f.Units(), u) {
			return f
		}
	}
	return &force{Assets: []*unit{u}, Hex: u.pos}
}

// corpsKey is what units must share to combine in a combat (9.2.2): the
// corps of a Formation (or of the Formation an asset is assigned to), an
// Independent unit's "stack" (its hex), and the army.
func (g *game) corpsKey(u *unit) string {
	f := u
	if !u.c.Formation {
		if a := g.byID[u.Assigned]; a != nil {
			f = a
		}
	}
	if f.c.Formation {
		if c := g.Attach[f.ID]; c != "" && c != "independent" {
			return f.Army + "/" + c
		}
	}
	return f.Army + "/independent@" + f.Hex
}

// maxed reports a unit that can take no more SRs on the map: a division
// with its -4 marker, a brigade on its back, a unit with no back (9.10.2).
func (u *unit) maxed() bool { return u.SR >= u.c.MaxSR() }

// takeSR gives one SR to a side among the Forces' units in the order of
// 9.10.2: a Formation not at its maximum; a full-strength assigned asset
// with a back; any unassigned asset (flipped, or eliminated if it cannot
// flip: 5.5.2); else an Excess SR, one stored REPL lost (9.10.4). prefer
// lists the owner's choice within a tier (the losses standing order).
func (g *game) takeSR(forces []*force, prefer []string, rule string) {
	var tier1, tier2, tier3 []*unit
	for _, f := range forces {
		for _, u := range f.Units() {
			switch {
			case u.c.Formation && !u.maxed() && u.onMap():
				tier1 = append(tier1, u)
			case u.asset() && u.Assigned != "" && u.SR == 0 && u.c.MaxSR() > 0 && u.onMap():
				tier2 = append(tier2, u)
			case u.asset() && u.Assigned == "" && u.onMap() && u.c.Kind != kSquadron:
				tier3 = append(tier3, u)
			}
		}
	}
	pick := func(us []*unit) *unit {
		if len(us) == 0 {
			return nil
		}
		for _, id := range prefer {
			for _, u := range us {
				if strings.EqualFold(u.ID, id) {
					return u
				}
			}
		}
		// the owner's default: the largest, then fewest SRs, then id
		best := us[0]
		for _, u := range us[1:] {
			if u.c.DEQuarters() > best.c.DEQuarters() || u.c.DEQuarters() == best.c.DEQuarters() && u.SR < best.SR {
				best = u
			}
		}
		return best
	}
	for _, t := range [][]*unit{tier1, tier2, tier3} {
		if u := pick(t); u != nil {
			g.reduce(u, rule)
			return
		}
	}
	if len(forces) == 0 || forces[0].Lead() == nil {
		return
	}
	live := false
	for _, f := range forces {
		for _, u := range f.Units() {
			if u.onMap() {
				live = true
			}
		}
	}
	if !live {
		return // the Force is gone: no SR left to record
	}
	side := forces[0].Lead().c.Side
	nation := forces[0].Lead().c.Nation
	g.REPL[nation]--
	g.evFor(side, "9.10.4", "An Excess SR costs a stored %s REPL (%d left; the next allotment is reduced if below zero, 16.6.1).", nation, g.REPL[nation])
}

// reduce gives one SR to a unit: flip, then the -2 and -4 markers of a
// division (9.10.3); a unit that cannot take it is eliminated (5.5.2).
func (g *game) reduce(u *unit, rule string) {
	switch {
	case u.c.Kind == kFort && !u.Flipped:
		u.Flipped = true
		g.evFor(u.c.Side, rule, "%s takes an SR: it flips to its infantry side (8.5).", u.ID)
	case u.maxed():
		g.eliminate(u, rule, "a strength reduction it cannot take (5.5.2)")
	default:
		u.SR++
		g.evFor(u.c.Side, rule, "%s takes an SR: %s.", u.ID, srText(u))
	}
}

func srText(u *unit) string {
	sides := len(u.c.Sides) - 1
	switch {
	case u.SR == 0:
		return "full strength"
	case u.SR <= sides && u.SR == 1:
		return "reduced side"
	case u.SR <= sides:
		return fmt.Sprintf("band counter %d", u.SR-1)
	}
	return fmt.Sprintf("reduced, %d SR marker", -2*(u.SR-sides))
}

// reduceCE lowers a Force's Combat Effectiveness by n levels (6.1.3): its
// Formation's status, with reductions past D2 becoming SRs; an asset-only
// Force takes one SR per level instead, spread over its assets (5.5.2).
// It returns the status before.
func (g *game) reduceCE(f *force, n int, rule, why string) status {
	if n <= 0 {
		if f.Formation != nil {
			return f.Formation.CE
		}
		return statusNone
	}
	if f.Formation == nil {
		for i := 0; i < n; i++ {
			var live []*unit
			for _, u := range f.Assets {
				if u.onMap() {
					live = append(live, u)
				}
			}
			if f.Fort != nil && f.Fort.onMap() {
				live = append(live, f.Fort)
			}
			if len(live) == 0 {
				break
			}
			// spread: the asset with fewer SRs first
			slices.SortStableFunc(live, func(a, b *unit) int { return a.SR - b.SR })
			g.reduce(live[0], rule)
		}
		return statusNone
	}
	u := f.Formation
	before := u.CE
	after, over := before.Reduce(n)
	u.CE = after
	g.evFor(u.c.Side, rule, "%s loses %d CE level%s (%s): CE status %s, CEL %d.", u.ID, n, plural(n, "", "s"), why, statusWord(after), f.CEL())
	if after == statusCI && before < statusCI {
		g.ev(rule, "A Formation in %s is now Combat Ineffective.", u.Hex)
	}
	for i := 0; i < over; i++ {
		g.takeSR([]*force{f}, nil, "6.1.3")
	}
	return before
}

func statusWord(s status) string {
	if s == statusNone {
		return "full"
	}
	return s.String()
}

// deQuarters is the division-equivalents of the Forces in quarters.
func deQuarters(forces []*force) int {
	n := 0
	for _, f := range forces {
		for _, u := range f.Units() {
			n += u.quarters()
		}
	}
	return n
}

// stackQuarters is the side's division-equivalents in a hex for stacking
// (3.1.1): depots, squadrons, forts and artillery count nothing.
func (g *game) stackQuarters(id board.ID, side side) int {
	n := 0
	for _, u := range g.sideAt(id, side) {
		if u.c.Kind == kDepot || u.c.Kind == kSquadron {
			continue
		}
		n += u.quarters()
	}
	return n
}
