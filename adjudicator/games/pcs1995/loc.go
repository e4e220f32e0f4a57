package pcs1995

// This file traces Lines of Communication (3.7): a path of no more than 5
// MP to a road or highway hex that leads along unbroken roads and highways
// to a supply source, blocked by enemy units and by enemy zones of control
// a friendly unit does not occupy.

import (
	"container/heap"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// sources are a side's supply sources now (3.7): for NATO the Italian
// west map edge and the port cities it controls, for Russia/Serbia
// Beograd, Novi Sad and Nis while it controls them.
func (g *game) sources(side faction) []board.ID {
	var out []board.ID
	if side == NATO {
		for id := range g.sc.westEdge {
			out = append(out, id)
		}
		for id := range g.sc.ports {
			if g.controller(id) == NATO {
				out = append(out, id)
			}
		}
	} else {
		for _, id := range g.sc.rsSources {
			if g.controller(id) == RS {
				out = append(out, id)
			}
		}
	}
	board.SortIDs(out)
	return out
}

// blocked reports whether a side's LOC may not pass through h: an enemy
// unit there, or an enemy zone of control with no friendly unit (3.4, 3.7).
func (g *game) blocked(side faction, h board.ID) bool {
	if g.enemyAt(side, h) {
		return true
	}
	return g.ezoc(side, h) && !g.friendAt(side, h)
}

// network is the set of hexes from which a side's road line reaches a
// supply source: the sources, and every road or highway hex joined to one
// by unbroken, unblocked road or highway links (3.7).
func (g *game) network(side faction) map[board.ID]bool {
	net := map[board.ID]bool{}
	var queue []board.ID
	for _, s := range g.sources(side) {
		if !g.blocked(side, s) {
			net[s] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, nb := range g.sc.roadNbrs[h] {
			if !net[nb] && !g.blocked(side, nb) {
				net[nb] = true
				queue = append(queue, nb)
			}
		}
	}
	return net
}

// hasLOC reports whether u traces an LOC (3.7): a path of no more than 5
// MP, at its own movement type's costs, to a hex of its side's network.
func (g *game) hasLOC(u *Unit, net map[board.ID]bool) bool {
	if !u.onMap() {
		return false
	}
	if net == nil {
		net = g.network(u.side())
	}
	if net[u.pos] {
		return true
	}
	side, typ := u.side(), u.c.GroundType()
	const budget = 10 // 5 MP in half MP
	best := map[board.ID]int{u.pos: 0}
	pq := &hexQueue{{u.pos, 0}}
	for pq.Len() > 0 {
		cur := heap.Pop(pq).(hexCost)
		if cur.cost > best[cur.hex] {
			continue
		}
		for _, nb := range g.grid.Neighbours(cur.hex) {
			c := g.cost(typ, cur.hex, nb)
			if c < 0 || g.blocked(side, nb) {
				continue
			}
			n := cur.cost + c
			if n > budget {
				continue
			}
			if net[nb] {
				return true
			}
			if old, ok := best[nb]; !ok || n < old {
				best[nb] = n
				heap.Push(pq, hexCost{nb, n})
			}
		}
	}
	return false
}

type hexCost struct {
	hex  board.ID
	cost int
}

type hexQueue []hexCost

func (q hexQueue) Len() int { return len(q) }
func (q hexQueue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	if q[i].hex.Col != q[j].hex.Col {
		return q[i].hex.Col < q[j].hex.Col
	}
	return q[i].hex.Row < q[j].hex.Row
}
func (q hexQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *hexQueue) Push(x any)   { *q = append(*q, x.(hexCost)) }
func (q *hexQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
