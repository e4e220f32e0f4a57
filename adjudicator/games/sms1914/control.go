package sms1914

// This file keeps hex control (3.4): a hex stays under the side that
// controlled it last until an army's Front Line passes over it. The Front
// Line (3.4.1) is drawn by the umpire at the end of every phase, as
// docs/rulings.md explains: the hexes its Infantry Formations occupy, the
// hexes on the straight line between two of them at most three hexes apart
// that no enemy unit occupies, and the hexes they passed through this
// phase that are in no enemy ZOC at its end. Units more than three hexes
// from every other Infantry Formation of their side (not part of the main
// concentration) take no hex. Areas of Attachment (5.1) are found from the
// army markers and boundaries.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// frontFormation reports an Infantry Formation that draws the Front Line.
func (u *unit) frontFormation() bool {
	return u.onMap() && u.c.Formation && u.c.InfantryType() && u.c.Kind != kMarsch
}

// updateControl changes control after a phase (3.4). trail are the hexes
// each Infantry Formation passed through; only those of the main
// concentration take them (3.4.1: individual units take no hex).
func (g *game) updateControl(trail map[*unit][]board.ID) {
	changed := map[side][]string{}
	take := func(id board.ID, side side) {
		if !g.playable(id) || g.controls(id, side) || g.enemyIn(id, side) {
			return
		}
		g.ctl[id] = side == ah
		changed[side] = append(changed[side], g.hex(id))
	}
	for _, side := range []side{ah, sb} {
		var front []*unit
		for _, u := range g.units(side) {
			if u.frontFormation() {
				front = append(front, u)
			}
		}
		main := func(u *unit) bool {
			for _, o := range front {
				if o != u && g.grid.Distance(o.pos, u.pos) <= 3 {
					return true
				}
			}
			return false
		}
		for _, u := range front {
			if !main(u) {
				continue
			}
			for _, h := range u.hexes() {
				take(h, side)
			}
			for _, o := range front {
				if o == u || !main(o) || g.grid.Distance(o.pos, u.pos) > 3 {
					continue
				}
				for _, h := range board.Between(g.grid.Line(u.pos, o.pos)) {
					if !g.inEZOC(h, side) || g.friendIn(h, side) {
						take(h, side)
					}
				}
			}
		}
		for _, u := range front {
			if !main(u) {
				continue
			}
			for _, h := range trail[u] {
				if !g.inEZOC(h, side) {
					take(h, side)
				}
			}
		}
	}
	for _, side := range []side{ah, sb} {
		if hs := changed[side]; len(hs) > 0 {
			slices.Sort(hs)
			g.ev("3.4", "%s now controls %s.", side, strings.Join(slices.Compact(hs), ", "))
		}
	}
	g.releaseGarrisons()
}

// releaseGarrisons frees the garrisons whose location the enemy controls
// (8.6.4), and every Serbian garrison once A-H controls Beograd (8.6.5, 23.3).
func (g *game) releaseGarrisons() {
	beograd := g.controls(g.parse("30.09"), ah)
	for _, u := range g.Units {
		if !u.onMap() || u.c.Kind != kGarrison || u.Released {
			continue
		}
		if g.controls(u.c.Home, u.c.Side.Enemy()) {
			u.Released = true
			g.evFor(u.c.Side, "8.6.4", "%s is freed from its garrison restrictions: %s is enemy controlled.", u.ID, g.placeName(u.c.Home))
		} else if u.c.Side == sb && beograd {
			u.Released = true
			g.evFor(sb, "8.6.5", "%s is freed from its garrison restrictions: Beograd is A-H controlled (23.3).", u.ID)
		}
	}
}

// areaError is why the Areas of Attachment cannot be drawn: an army's
// marker outside A-H's hexes, or boundaries that leave two markers in one
// area. A scenario's refusal names the marker's or the boundaries' line.
type areaError struct {
	Army       string
	Boundaries bool
	text       string
}

func (e *areaError) Error() string { return e.text }

// aoas finds every A-H army's Area of Attachment (5.1.1): the hexes A-H
// controls or occupies, joined across hexsides that are not a boundary,
// Sava or Donau hexside, and holding the army's marker; an area holding no
// marker belongs to the army whose marker is nearest. It fails when two
// markers share an area: the boundaries do not separate them.
func (g *game) aoas(boundaries []string, markers map[string]string) (map[board.ID]string, error) {
	cut := map[board.Pair]bool{}
	for _, b := range boundaries {
		p, err := g.grid.ParsePair(b)
		if err != nil {
			return nil, err
		}
		cut[p] = true
	}
	in := func(id board.ID) bool { return g.controls(id, ah) || g.friendIn(id, ah) }
	comp := map[board.ID]int{}
	var comps [][]board.ID
	for _, id := range g.sc.hexes {
		if !in(id) {
			continue
		}
		if _, ok := comp[id]; ok {
			continue
		}
		n := len(comps)
		comp[id] = n
		var list []board.ID
		queue := []board.ID{id}
		for len(queue) > 0 {
			h := queue[0]
			queue = queue[1:]
			list = append(list, h)
			for _, x := range g.nbrs(h) {
				f := g.feature(h, x)
				if _, ok := comp[x]; ok || !in(x) || cut[board.MakePair(h, x)] || isSava(f) || isDonau(f) {
					continue
				}
				comp[x] = n
				queue = append(queue, x)
			}
		}
		comps = append(comps, list)
	}
	owner := make([]string, len(comps))
	var armies []string
	for a := range markers {
		armies = append(armies, a)
	}
	slices.Sort(armies)
	for _, a := range armies {
		m, err := g.grid.Parse(markers[a])
		if err != nil {
			return nil, err
		}
		n, ok := comp[m]
		if !ok {
			return nil, &areaError{Army: a, text: fmt.Sprintf("army %s's marker %s is not in a hex A-H controls or occupies (5.1.1)", a, markers[a])}
		}
		if owner[n] != "" {
			return nil, &areaError{Army: a, Boundaries: true, text: fmt.Sprintf("the boundaries do not separate %s and %s: their markers %s and %s share one area (5.1.1)", owner[n], a, markers[owner[n]], markers[a])}
		}
		owner[n] = a
	}
	out := map[board.ID]string{}
	for n, list := range comps {
		a := owner[n]
		if a == "" {
			best := 999
			for _, x := range armies {
				m, _ := g.grid.Parse(markers[x])
				for _, h := range list {
					if d := g.grid.Distance(m, h); d < best || d == best && x < a {
						best, a = d, x
					}
				}
			}
		}
		for _, h := range list {
			out[h] = a
		}
	}
	return out, nil
}

// markers are the armies' marker hexes.
func (g *game) markers() map[string]string {
	m := map[string]string{}
	for _, a := range g.Armies {
		m[a.ID] = a.Marker
	}
	return m
}

// attachArmies attaches every A-H unit to the army of the area it is in
// (5.1.2; a unit outside every area keeps its army), every corps to the
// army holding its Corps Train (5.1.3), and checks 5.2.2: a Formation
// whose corps is another army's is Independent this turn.
func (g *game) attachArmies() {
	area, err := g.aoas(g.Boundaries, g.markers())
	if err != nil {
		g.ev("5.1.1", "The Areas of Attachment cannot be drawn (%v): the attachments stay as they were.", err)
		return
	}
	for _, u := range g.units(ah) {
		if a := area[u.pos]; a != "" {
			u.Army = a
		}
		if u.c.Army != "" && g.army(u.c.Army) != nil {
			u.Army = u.c.Army // 5.4
		}
	}
	if g.CorpsArmy == nil {
		g.CorpsArmy = map[string]string{}
	}
	for _, co := range g.sc.Corps {
		if co.Side != ah {
			continue
		}
		if t := g.byID[co.Train]; t != nil && t.onMap() {
			g.CorpsArmy[co.ID] = t.Army
		}
	}
	for _, u := range g.units(ah) {
		if !u.c.Formation {
			continue
		}
		c := g.Attach[u.ID]
		if c == "" || c == "independent" {
			continue
		}
		if ca := g.CorpsArmy[c]; ca != "" && ca != u.Army {
			g.evFor(ah, "5.2.2", "%s is in %s's area but its corps %s is %s's: it fights as an Independent Formation this turn.", u.ID, u.Army, c, ca)
		}
	}
}

// trainsIn counts the Corps Trains in each army's area (5.1.3).
func (g *game) trainsIn(area map[board.ID]string) map[string]int {
	n := map[string]int{}
	for _, u := range g.units(ah) {
		if u.c.Kind == kTrain {
			n[area[u.pos]]++
		}
	}
	return n
}
