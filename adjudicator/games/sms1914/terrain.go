package sms1914

// This file answers questions about the map: terrain and elevation (3.5,
// 3.6), hexside features (3.5.2, 7.1.4, 7.1.5), roadways (7.1.7),
// railroads (18), regions (1.1, 25.2) and zones of control (3.3).

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

func (g *game) terrain(id board.ID) string {
	if !g.grid.Contains(id) {
		return ""
	}
	return g.sc.terr[g.sc.index(id)]
}

// playable reports whether a hex is in the playing area.
func (g *game) playable(id board.ID) bool { return g.grid.Contains(id) && g.sc.Map.Area[id] != "" }

// nbrs lists the playable hexes adjacent to id.
func (g *game) nbrs(id board.ID) []board.ID {
	if g.grid.Contains(id) {
		return g.sc.nbr[g.sc.index(id)]
	}
	return nil
}

// komitadjiAt reports a Komitadji marker in the hex.
func (g *game) komitadjiAt(id board.ID) bool {
	if len(g.Komitadji) == 0 {
		return false
	}
	s := g.hex(id)
	for _, k := range g.Komitadji {
		if k == s {
			return true
		}
	}
	return false
}

// elevation is a hex's elevation for combat and contours (3.6, 9.6.1): a
// Plateau takes that of its surrounding Mountain type (the highest
// mountain neighbour; Low Mountain when it has none, docs/rulings.md).
func (g *game) elevation(id board.ID) int {
	t := g.terrain(id)
	if t != "plateau" {
		return elevations[t]
	}
	e := 0
	for _, n := range g.nbrs(id) {
		if t := g.terrain(n); t == "low_mountain" || t == "high_mountain" {
			e = max(e, elevations[t])
		}
	}
	if e == 0 {
		return elevations["low_mountain"]
	}
	return e
}

// mountainous: Foothills, Drina River Canyon, Low Mountain, Plateau and
// High Mountain (3.5.3).
func (g *game) mountainous(id board.ID) bool {
	switch g.terrain(id) {
	case "foothills", "drina_canyon", "low_mountain", "high_mountain", "plateau":
		return true
	}
	return false
}

// feature is the hexside feature between adjacent hexes ("" none).
func (g *game) feature(a, b board.ID) string { return g.sc.side[board.MakePair(a, b)] }

func isSava(f string) bool  { return f == sideSava || f == sideSavaIsle || f == sideSavaBend }
func isDonau(f string) bool { return f == sideDonau || f == sideDonauIsle }

// bridged reports a bridge, or a built pontoon bridge, on the hexside (7.1.5, 21.2).
func (g *game) bridged(a, b board.ID) bool {
	p := board.MakePair(a, b)
	if g.sc.bridge[p] {
		return true
	}
	return g.pontoonAt(p) != nil
}

// pontoonAt returns the built pontoon bridge on a hexside, nil if none.
func (g *game) pontoonAt(p board.Pair) *pontoon {
	s := p.Format(board.Dotted)
	for i := range g.Pontoons {
		if g.Pontoons[i].Sides == s && g.Pontoons[i].Built {
			return &g.Pontoons[i]
		}
	}
	return nil
}

func (g *game) ferry(a, b board.ID) bool { return g.sc.ferry[board.MakePair(a, b)] }

// contours is the number of Mountain Contours crossed going from a into b,
// counted only going up into a Low or High Mountain hex (3.6.1, 7.1.3a).
func (g *game) contours(a, b board.ID) int {
	n := g.sc.contours[board.MakePair(a, b)]
	if n == 0 || g.elevation(b) <= g.elevation(a) {
		return 0
	}
	if t := g.terrain(b); t != "low_mountain" && t != "high_mountain" && t != "plateau" {
		return 0
	}
	return n
}

// road reports a roadway linking adjacent hexes (7.1.7).
func (g *game) road(a, b board.ID) bool { return g.sc.Map.Link(a, b) == board.RoadKind }

// rail reports railroad track linking adjacent hexes (18.1).
func (g *game) railLink(a, b board.ID) bool { return g.sc.rails[board.MakePair(a, b)] }

// area is a hex's country or region.
func (g *game) area(id board.ID) string { return g.sc.Map.Area[id] }

// inSerbia reports a Serbia or partial Serbia hex (7.5.1).
func (g *game) inSerbia(id board.ID) bool { return g.area(id) == "Serbia" || g.sc.partial[id] }

// homeSide is the side whose country a hex lies in.
func (g *game) homeSide(id board.ID) side {
	if slices.Contains(serbAreas, g.area(id)) {
		return sb
	}
	return ah
}

// southOfRivers reports a hex south of the Sava/Donau line: Serbia,
// Montenegro or Bosnia (23.1, 27.2).
func (g *game) southOfRivers(id board.ID) bool {
	switch g.area(id) {
	case "Serbia", "Montenegro", "Bosnia":
		return true
	}
	return false
}

// zocBlocked: ZOCs do not cross Sava, Donau or Impassable Mountain
// hexsides (3.3.1); nor do attacks across the Donau or impassable
// hexsides (9.2.3) and retreats (11.1) have their own rules.
func zocBlocked(f string) bool { return isSava(f) || isDonau(f) || f == sideImpass }

// mapEdge reports a hex on the edge of the playing area.
func (g *game) mapEdge(id board.ID) bool {
	return len(g.grid.Neighbours(id)) < 6 || len(g.nbrs(id)) < len(g.grid.Neighbours(id))
}

// friendlyEdge reports a friendly map edge hex (1.1): a map edge inside
// the side's country; for A-H also the on-map ends of the off-map railroad
// (15.6.3a).
func (g *game) friendlyEdge(id board.ID, side side) bool {
	if g.homeSide(id) != side || !g.playable(id) {
		return false
	}
	if side == ah {
		for _, l := range g.sc.offmap {
			if !l.River && (l.From == g.hex(id) || l.To == g.hex(id)) {
				return true
			}
		}
	}
	return g.mapEdge(id)
}

// zocOf is every hex in the ZOC of the side's Combat units (3.3): the
// six hexes around each (eight around a Two-Hex unit, 19), not across
// Sava, Donau or impassable hexsides (3.3.1). Inactive units project a ZOC
// (1.1).
func (g *game) zocOf(side side) map[board.ID]bool {
	if g.zocVer[side] == g.ver && g.zoc[side] != nil {
		return g.zoc[side]
	}
	z := map[board.ID]bool{}
	for _, u := range g.Units {
		if !u.onMap() || u.c.Side != side || !u.c.Combat() {
			continue
		}
		for _, h := range u.hexes() {
			for _, n := range g.nbrs(h) {
				if !zocBlocked(g.feature(h, n)) && !u.in(n) {
					z[n] = true
				}
			}
		}
	}
	g.zoc[side], g.zocVer[side] = z, g.ver
	return z
}

// projects reports whether a unit projects a ZOC into the hex.
func (g *game) projects(u *unit, id board.ID) bool {
	if !u.onMap() || !u.c.Combat() || u.in(id) {
		return false
	}
	for _, h := range u.hexes() {
		if g.grid.Adjacent(h, id) && !zocBlocked(g.feature(h, id)) {
			return true
		}
	}
	return false
}

// inEZOC reports whether the hex is in a ZOC of the side's enemy.
func (g *game) inEZOC(id board.ID, side side) bool { return g.zocOf(side.Enemy())[id] }

// adjacentEnemy reports whether an enemy unit (not a squadron) is next to
// the hex.
func (g *game) adjacentEnemy(id board.ID, side side) bool {
	for _, n := range g.nbrs(id) {
		if g.enemyIn(n, side) {
			return true
		}
	}
	return false
}

// enemyDistance is the distance from the hex to the nearest enemy unit
// on the map (99 when none).
func (g *game) enemyDistance(id board.ID, side side) int {
	d := 99
	for _, u := range g.Units {
		if u.onMap() && u.c.Side != side && u.c.Kind != kSquadron {
			for _, h := range u.hexes() {
				d = min(d, g.grid.Distance(id, h))
			}
		}
	}
	return d
}

// controls reports whether the side controls the hex (3.4).
func (g *game) controls(id board.ID, side side) bool { return g.ctl[id] == (side == ah) }
