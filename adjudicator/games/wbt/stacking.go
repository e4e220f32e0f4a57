package wbt

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// stackValue is what a unit counts for stacking: the KLA nothing (6.2),
// the Serbian task forces three (6.3), others one.
func stackValue(c *counter) int {
	switch {
	case c.KLA:
		return 0
	case c.TaskForce:
		return 3
	}
	return 1
}

// stackLimit is the most a hex may hold of a side (6.2, 6.3).
func stackLimit(s side) int {
	if s == serb {
		return 6
	}
	return 1
}

// stackCount adds the stacking values of units.
func stackCount(us []*unit) int {
	n := 0
	for _, u := range us {
		n += stackValue(u.c)
	}
	return n
}

// fits reports whether units may be in a hex with what is there now, at
// any instant (6.4).
func (g *game) fits(side side, moving []*unit, id board.ID) bool {
	n := stackCount(moving)
	for _, u := range g.unitsAt(id) {
		if u.c.Side == side && !slices.Contains(moving, u) {
			n += stackValue(u.c)
		}
	}
	return n <= stackLimit(side)
}

// checkStacking eliminates the excess units of every over-stacked hex at
// the end of a phase, the weakest first (6.4: the owner's choice; the
// umpire chooses for him). NATO steps lost cost MePPs (4.3).
func (g *game) checkStacking() {
	o := g.occupancy()
	for _, side := range []side{nato, serb} {
		hexes := make([]board.ID, 0)
		for id := range o.own(side) {
			hexes = append(hexes, id)
		}
		board.SortIDs(hexes)
		for _, id := range hexes {
			us := o.own(side)[id]
			for stackCount(us) > stackLimit(side) {
				slices.SortFunc(us, func(a, b *unit) int {
					if d := a.c.AttackAt(a.Steps) + a.c.DefenseAt(a.Steps) - b.c.AttackAt(b.Steps) - b.c.DefenseAt(b.Steps); d != 0 {
						return d
					}
					return compareID(a, b)
				})
				var victim *unit
				for _, u := range us {
					if stackValue(u.c) > 0 {
						victim = u
						break
					}
				}
				steps := victim.Steps
				g.eliminate(victim)
				g.ev("6.4", "%s is over-stacked at the end of the phase: %s is eliminated.", g.placeName(id), victim.ID)
				if side == nato {
					g.loseMePPs(steps, "4.3", victim.ID+"'s steps lost to over-stacking")
				}
				us = slices.DeleteFunc(us, func(u *unit) bool { return u == victim })
			}
		}
	}
}

func compareID(a, b *unit) int {
	switch {
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}
