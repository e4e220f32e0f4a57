package wbt

import (
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// supply is how a NATO unit is supplied (8.2), or not.
type supply struct {
	OK bool
	// How: "1st AAA" (12.5), "aerial" (8.10), "in-country" (8.11) or
	// "traced" (8.5).
	How string
	// AlbMac reports a line traced only to Albanian or Macedonian sources
	// (8.9).
	AlbMac bool
}

// Overland reports supply over land: traced or in-country, not aerial or
// automatic (4.9, 10.21).
func (s supply) Overland() bool { return s.OK && (s.How == "traced" || s.How == "in-country") }

// supplyNet is the road and highway net that reaches a NATO supply source
// (8.5-8.7), worked out once for a position of the units.
type supplyNet struct {
	all, outside map[board.ID]bool // road hexes reaching any source / one outside Albania and Macedonia
	src, srcOut  map[board.ID]bool // active sources
	serbs        map[board.ID][]*unit
}

// blocked reports a hex no part of a supply line may enter: enemy units
// (8.6), neutral or unplayable territory (3.2, 10.14), marsh (10.14) and
// rump-Yugoslav cities NATO does not control (8.6).
func (g *game) supplyBlocked(id board.ID, serbs map[board.ID][]*unit) bool {
	if len(serbs[id]) > 0 || !g.inPlay(id) || g.terrain(id) == "marsh" {
		return true
	}
	return g.isCity(id) && g.yugoslav(id) && !g.natoControls(id)
}

// net returns the supply net for the units' positions now.
func (g *game) net() *supplyNet {
	if g.still != nil && g.still.net != nil {
		return g.still.net
	}
	o := g.occupancy()
	n := &supplyNet{all: map[board.ID]bool{}, outside: map[board.ID]bool{}, src: map[board.ID]bool{}, srcOut: map[board.ID]bool{}, serbs: o.serb}
	for _, s := range g.sc.Sources {
		// 8.7: sources of countries in the alliance (3.2)
		if !g.alliance(s) || g.supplyBlocked(s, o.serb) {
			continue
		}
		n.src[s] = true
		if a := g.area(s); a != "Albania" && a != "Macedonia" {
			n.srcOut[s] = true
		}
	}
	flood := func(seeds map[board.ID]bool, into map[board.ID]bool) {
		var queue []board.ID
		for _, id := range g.sc.Sources { // sorted: a deterministic order
			if seeds[id] {
				queue = append(queue, id)
				into[id] = true
			}
		}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			for _, nb := range g.sc.roadNbrs[cur] {
				if into[nb] || g.supplyBlocked(nb, o.serb) {
					continue
				}
				// 8.6: the road portion crosses rivers only on intact bridges
				if g.sc.Map.River(cur, nb) && !g.bridgeIntact(board.MakePair(cur, nb)) {
					continue
				}
				into[nb] = true
				queue = append(queue, nb)
			}
		}
	}
	flood(n.src, n.all)
	flood(n.srcOut, n.outside)
	return n
}

// supply works out a NATO unit's supply state now (8.2-8.11).
func (g *game) supply(u *unit, n *supplyNet) supply {
	if u.c.AAA {
		return supply{OK: true, How: "1st AAA"} // 12.5
	}
	if g.AirHex == u.Hex && g.AirTurn == g.Turn && !g.Bad {
		return supply{OK: true, How: "aerial"} // 8.10
	}
	return g.traceFrom(u.pos, u.c.MountainInf || u.Dismounted, n)
}

// traceFrom traces a supply line from a hex (8.5, 8.6, 8.11): in-country,
// or at most four hexes (the unit's own not counted) to a road hex of the
// net or to a source, entering mountains only when mountain allows it.
func (g *game) traceFrom(from board.ID, mountain bool, n *supplyNet) supply {
	if g.alliance(from) {
		return supply{OK: true, How: "in-country"} // 8.11
	}
	best := supply{}
	reach := func(id board.ID) {
		if n.all[id] || n.src[id] {
			if n.outside[id] || n.srcOut[id] {
				best = supply{OK: true, How: "traced"}
			} else if !best.OK {
				best = supply{OK: true, How: "traced", AlbMac: true}
			}
		}
	}
	reach(from)
	depth := map[board.ID]int{from: 0}
	queue := []board.ID{from}
	for len(queue) > 0 && !(best.OK && !best.AlbMac) {
		cur := queue[0]
		queue = queue[1:]
		if depth[cur] == 4 {
			continue
		}
		for _, nb := range g.grid.Neighbours(cur) {
			if _, seen := depth[nb]; seen || g.supplyBlocked(nb, n.serbs) {
				continue
			}
			if !mountain && g.terrain(nb) == "mountain" {
				continue // 8.6: mountains only for mountain infantry and dismounted units
			}
			depth[nb] = depth[cur] + 1
			reach(nb)
			queue = append(queue, nb)
		}
	}
	return best
}

// supplied is supply for one unit with a fresh net.
func (g *game) supplied(u *unit) supply { return g.supply(u, g.net()) }
