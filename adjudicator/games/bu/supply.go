package bu

// Supply (2.4, 7.2): paths through friendly spaces to Supply Sources. CRO
// spaces are the sources of Croats and Bosniaks, YUG spaces the Serbs'
// (2.4.3; Krajina spaces carry Serbian paths but are no source: ruling);
// each Key Space is a Limited Supply Source of its controller for at most 3
// units (2.4.4). Bosniaks and Croats use each other's paths (2.4.5).

import (
	"cmp"
	"slices"
)

// pathSpace reports whether side may trace supply through space i: a space
// of its own or of the side whose paths it shares (2.4.5), or a Foreign
// Space of its designations (1.2.5).
func (g *game) pathSpace(side Side, i int) bool {
	sp := g.sc.Map.Spaces[i]
	if sp.Foreign() {
		return usesDesignation(side, sp.Designation)
	}
	owner := g.Control[sp.ID]
	return owner == side || side != serb && owner != serb
}

// usesDesignation reports whether side may use Foreign Spaces of a
// designation (1.2.5): CRO for Croats and Bosniaks, KRA and YUG for Serbs.
func usesDesignation(side Side, designation string) bool {
	if side == serb {
		return designation == yug || designation == kra
	}
	return designation == cro
}

// fullSource reports whether space i is a (full) Supply Source of side (2.4.3).
func (g *game) fullSource(side Side, i int) bool {
	d := g.sc.Map.Spaces[i].Designation
	return side == serb && d == yug || side != serb && d == cro
}

// limitedSource reports whether space i is a Limited Supply Source of side:
// a Key Space it controls (2.4.4).
func (g *game) limitedSource(side Side, i int) bool {
	sp := g.sc.Map.Spaces[i]
	return sp.Key && g.Control[sp.ID] == side
}

// area is a connected group of spaces a side traces supply through.
type area struct {
	full bool  // connected to a full Supply Source
	keys []int // the side's Key Spaces in it (Limited Supply Sources)
}

// enclave reports whether the area is supplied by Key Spaces only (2.4.9).
func (a area) enclave() bool { return !a.full && len(a.keys) > 0 }

// supplied reports whether the area connects to any Supply Source.
func (a area) supplied() bool { return a.full || len(a.keys) > 0 }

// supplyMap is one side's supply at a moment.
type supplyMap struct {
	side  Side
	comp  []int  // area of each space, -1 where the side traces no path
	areas []area // by area number
	// ok holds the side's units on the map that are supplied: every unit
	// of an area with a full source, as many as its Key Spaces support in
	// an enclave.
	ok map[string]bool
}

// areaOf returns the area of space id, and whether the side traces
// supply there.
func (s *supplyMap) areaOf(g *game, id string) (area, int, bool) {
	i, ok := g.sc.Map.Space(id)
	if !ok || s.comp[i] < 0 {
		return area{}, -1, false
	}
	return s.areas[s.comp[i]], s.comp[i], true
}

// supply works out side's supply now; keep lists units the player would
// keep supplied first in an overfull enclave (2.4.9).
func (g *game) supply(side Side) *supplyMap {
	m := g.sc.Map
	s := &supplyMap{side: side, ok: map[string]bool{}}
	var n int
	s.comp, n = m.Graph.Components(func(i int) bool { return g.pathSpace(side, i) })
	s.areas = make([]area, n)
	for i, c := range s.comp {
		if c < 0 {
			continue
		}
		if g.fullSource(side, i) {
			s.areas[c].full = true
		}
		if g.limitedSource(side, i) {
			s.areas[c].keys = append(s.areas[c].keys, i)
		}
	}
	byArea := map[int][]*unit{}
	for _, u := range g.Units {
		if u.Box != onMap || u.Side() != side {
			continue
		}
		i, _ := m.Space(u.Space)
		c := s.comp[i]
		if c < 0 {
			continue
		}
		if s.areas[c].full {
			s.ok[u.ID] = true
			continue
		}
		byArea[c] = append(byArea[c], u)
	}
	for c, units := range byArea {
		a := s.areas[c]
		if len(a.keys) == 0 {
			continue
		}
		g.rankForSupply(side, a, units)
		for _, u := range units[:min(len(units), stackLimit*len(a.keys))] {
			s.ok[u.ID] = true
		}
	}
	return s
}

// rankForSupply orders an enclave's units: those the seat's standing supply
// order names first, in its order; then units in Key Spaces, elite units,
// full-strength units, those without a marker, by id (ruling: the
// umpire's choice when the player gave none).
func (g *game) rankForSupply(side Side, a area, units []*unit) {
	keep := g.Standing[g.seatOf(side)]["supply"]
	rank := func(u *unit) int {
		if i := slices.Index(keep, u.ID); i >= 0 {
			return i
		}
		return len(keep)
	}
	inKey := func(u *unit) int {
		i, _ := g.sc.Map.Space(u.Space)
		if slices.Contains(a.keys, i) {
			return 0
		}
		return 1
	}
	b2i := func(b bool) int {
		if b {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(units, func(x, y *unit) int {
		return cmp.Or(cmp.Compare(rank(x), rank(y)), cmp.Compare(inKey(x), inKey(y)), cmp.Compare(b2i(x.Type().Elite), b2i(y.Type().Elite)),
			cmp.Compare(b2i(!x.Reduced), b2i(!y.Reduced)), cmp.Compare(b2i(x.Supply == ""), b2i(y.Supply == "")), cmp.Compare(x.ID, y.ID))
	})
}

// checkSupply is step 1 of an action round (7.2, 2.4.6-2.4.8) for the
// active seat's sides: a supplied unit loses its marker; an unsupplied one
// without a marker gets Low Supply, one with Low Supply goes Out Of Supply,
// one Out Of Supply is reduced, and a reduced one Out Of Supply is
// eliminated for good (the steps of 7.2 missing from the text are rebuilt
// from its example and 2.4.6: ruling).
func (g *game) checkSupply(seat string) {
	for _, side := range g.seatSides(seat) {
		s := g.supply(side)
		for _, u := range slices.Clone(g.Units) {
			if u.Box != onMap || u.Side() != side {
				continue
			}
			where := g.name(u.Space)
			switch {
			case s.ok[u.ID]:
				if u.Supply != "" {
					g.ev("7.2", "%s at %s is in supply again: its Unsupplied marker is removed.", u.ID, where)
					u.Supply = ""
				}
			case u.Supply == "":
				u.Supply = lowSupply
				g.ev("2.4.6, 7.2", "%s at %s is unsupplied: Low Supply marker.", u.ID, where)
			case u.Supply == lowSupply:
				u.Supply = oos
				g.ev("2.4.6, 7.2", "%s at %s is still unsupplied: it is now Out Of Supply.", u.ID, where)
			case !u.Reduced:
				u.Reduced = true
				g.ev("2.4.8, 7.2", "%s at %s is still Out Of Supply: it is reduced (and stays Out Of Supply).", u.ID, where)
			default:
				g.eliminate(u, "", true)
				g.ev("2.4.8, 7.2", "%s at %s, reduced and still Out Of Supply, is permanently eliminated; %s loses 1 SW.", u.ID, where, u.Side())
			}
		}
	}
}

// reopenSupply removes at once the markers of the active side's units
// whose supply path an action opened (7.2.5); they still may not operate
// this round.
func (g *game) reopenSupply(side Side) {
	var s *supplyMap
	for _, u := range g.Units {
		if u.Box != onMap || u.Side() != side || u.Supply == "" {
			continue
		}
		if s == nil {
			s = g.supply(side)
		}
		if s.ok[u.ID] {
			u.Supply = ""
			if g.Round != nil && !slices.Contains(g.Round.NoOps, u.ID) {
				g.Round.NoOps = append(g.Round.NoOps, u.ID)
			}
			g.ev("7.2.5", "%s at %s is in supply again: its Unsupplied marker is removed, but it may not operate this round.", u.ID, g.name(u.Space))
		}
	}
}

// traceable reports whether side could trace supply from space id if it
// were its own: the space, made friendly, reaches a Supply Source (13.2.3:
// a unit may not enter a space in which it would be unsupplied).
func (g *game) traceable(side Side, id string) bool {
	target, ok := g.sc.Map.Space(id)
	if !ok {
		return false
	}
	pass := func(i int) bool { return i == target || g.pathSpace(side, i) }
	dist := g.sc.Map.Graph.Distances([]int{target}, pass)
	for i, d := range dist {
		if d < 0 {
			continue
		}
		if g.fullSource(side, i) || g.limitedSource(side, i) || i == target && g.sc.Map.Spaces[i].Key {
			return true
		}
	}
	return false
}
