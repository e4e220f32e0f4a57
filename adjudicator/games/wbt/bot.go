package wbt

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// Bot implements adjudicator.Bot: simple, legal orders for the step open.
// NATO drives on the nearest Serbian-held city, repairs the bridges its
// units stand at and attacks at 2:1 or better; the Serbs attack at 1:2 or
// better, recapture cities within reach and demolish the bridges they hold.
func (rules) Bot(state []byte, seat string) ([]string, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	if g.Over {
		return nil, nil
	}
	if s, _ := g.owing(); s != seat {
		return nil, nil
	}
	side := seatSide(seat)
	var out []string
	switch g.Phase {
	case phaseSetupNATO:
		out = []string{"neutrals none", "uk3 no", g.lossPriority(nato)}
	case phaseSetupSerb:
		out = []string{g.lossPriority(serb)}
	case phaseWeather:
		out = []string{"sequence move-combat", "support any", "airsupply defend any", g.lossPriority(nato)}
	case phaseNATOMove, phaseSerbMove:
		out = g.botMoves(side)
	case phaseNATOCombat, phaseSerbCombat:
		out = g.botAttacks(side)
		out = append(out, g.lossPriority(side))
	case phaseLosses:
		return nil, nil
	case phaseAdvance:
		out = []string{"advance all"}
	}
	return out, nil
}

// lossPriority is a standing loss order: the weakest units first,
// artillery last (11.20).
func (g *game) lossPriority(side side) string {
	var us []*unit
	for _, u := range g.Units {
		if u.c.Side == side && u.alive() {
			us = append(us, u)
		}
	}
	if len(us) == 0 {
		return "losses none"
	}
	slices.SortStableFunc(us, func(a, b *unit) int {
		ka := a.c.AttackAt(a.Steps) + a.c.DefenseAt(a.Steps)
		kb := b.c.AttackAt(b.Steps) + b.c.DefenseAt(b.Steps)
		if a.c.Artillery != b.c.Artillery {
			if a.c.Artillery {
				return 1
			}
			return -1
		}
		if ka != kb {
			return ka - kb
		}
		return compareID(a, b)
	})
	return "losses " + strings.Join(ids(us), " ")
}

type pqItem struct {
	id   board.ID
	cost int
	seq  int
}

type pq []pqItem

func (q pq) Len() int { return len(q) }
func (q pq) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	return q[i].seq < q[j].seq
}
func (q pq) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *pq) Push(x any)   { *q = append(*q, x.(pqItem)) }
func (q *pq) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// reach finds the hexes a unit can reach with mp quarters, counting an
// unbridged river as 4 MP, and the path to each.
func (g *game) reach(u *unit, mp int, zoc map[board.ID]bool) map[board.ID][]board.ID {
	dist, prev := g.reachTree(u, mp, zoc)
	paths := map[board.ID][]board.ID{}
	for id := range dist {
		paths[id] = pathTo(u.pos, prev, id)
	}
	return paths
}

// pathTo is the path from start to id along a reach tree (prev), start
// not included.
func pathTo(start board.ID, prev map[board.ID]board.ID, id board.ID) []board.ID {
	var p []board.ID
	for cur := id; cur != start; cur = prev[cur] {
		p = append(p, cur)
	}
	slices.Reverse(p)
	return p
}

// reachTree is reach's search: the least cost of each hex the unit
// reaches (its own 0) and the hex each is entered from.
func (g *game) reachTree(u *unit, mp int, zoc map[board.ID]bool) (dist map[board.ID]int, prev map[board.ID]board.ID) {
	dist = map[board.ID]int{u.pos: 0}
	prev = map[board.ID]board.ID{}
	at := map[board.ID][]*unit{} // the live units by hex, as unitsAt finds them
	for _, o := range g.Units {
		if o.alive() {
			at[o.pos] = append(at[o.pos], o)
		}
	}
	q := &pq{{id: u.pos}}
	seq := 0
	for q.Len() > 0 {
		it := heap.Pop(q).(pqItem)
		if it.cost > dist[it.id] {
			continue
		}
		if it.id != u.pos && zoc[it.id] {
			continue // 7.3: a Serbian unit stops in a zone of control
		}
		for _, nb := range g.grid.Neighbours(it.id) {
			c, _, why := g.enterCost(u, it.id, nb)
			if why != "" {
				continue
			}
			blocked := false
			for _, o := range at[nb] {
				if o.c.Side != u.c.Side || (u.c.Side == nato && stackValue(o.c) > 0 && stackValue(u.c) > 0) {
					blocked = true
				}
			}
			if blocked || (u.c.Side == serb && !g.fits(serb, []*unit{u}, nb)) {
				continue
			}
			if !u.c.AAA && g.unbridged(it.id, nb) {
				c += 4 * quarter
			}
			nc := it.cost + c
			if nc > mp {
				continue
			}
			if old, ok := dist[nb]; !ok || nc < old {
				dist[nb] = nc
				prev[nb] = it.id
				seq++
				heap.Push(q, pqItem{id: nb, cost: nc, seq: seq})
			}
		}
	}
	return dist, prev
}

// botMoves moves each unit toward its goal, trying each move on the game
// so later units see earlier ones.
func (g *game) botMoves(side side) []string {
	var out []string
	if side == nato && !g.Bad && g.Recon == "" {
		for _, b := range slices.Sorted(func(yield func(string) bool) {
			for p := range g.sc.Bridges {
				if !yield(p.String()) {
					return
				}
			}
		}) {
			p, _ := g.grid.ParsePair(b)
			if g.bridgeIntact(p) {
				continue
			}
			for _, u := range g.unitsNear(nato, p) {
				if !u.Fixed && !u.Moved && !u.Attacked && !u.c.AAA {
					out = append(out, "repair "+u.ID+" "+b)
					u.Fixed = true
					break
				}
			}
		}
	}
	if side == serb {
		for _, b := range slices.Clone(g.Intact) {
			p, _ := g.grid.ParsePair(b)
			for _, u := range g.unitsNear(serb, p) {
				if !u.Fixed && !u.Attacked && !u.c.Artillery {
					out = append(out, "demolish "+u.ID+" "+b)
					u.Fixed = true
					break
				}
			}
		}
	}
	g.r = &forecastRoller{}
	for _, u := range slices.Clone(g.Units) {
		if u.c.Side != side || !u.alive() || u.Fixed || u.Moved || u.c.AAA {
			continue
		}
		var zoc map[board.ID]bool
		if side == serb {
			zoc = g.zoc()
			if zoc[u.pos] {
				continue
			}
		}
		if side == nato && g.mandatory() {
			break
		}
		mp, _ := g.movementFactor(u, g.net())
		paths := g.reach(u, mp, zoc)
		goal, ok := g.goal(u)
		if !ok {
			continue
		}
		best, bestD := u.pos, g.grid.Distance(u.pos, goal)
		for _, id := range slices.SortedFunc(func(yield func(board.ID) bool) {
			for id := range paths {
				if !yield(id) {
					return
				}
			}
		}, func(a, b board.ID) int {
			if a.Col != b.Col {
				return a.Col - b.Col
			}
			return a.Row - b.Row
		}) {
			if d := g.grid.Distance(id, goal); d < bestD && len(g.unitsAt(id)) == 0 || d < bestD && u.c.Side == serb {
				best, bestD = id, d
			}
		}
		path := paths[best]
		if side == nato && g.discretionary() && len(path) > 1 {
			path = path[:1]
		}
		if len(path) == 0 {
			continue
		}
		line := "move " + u.ID
		for _, id := range path {
			line += " " + g.hex(id)
		}
		g.move(moveOrder{units: []*unit{u}, path: path})
		out = append(out, line)
	}
	return out
}

// goal is where a unit heads: NATO the nearest city the Serbs hold; the
// Serbs a NATO-held city (or stay).
func (g *game) goal(u *unit) (board.ID, bool) {
	best, bestD := board.ID{}, 1<<30
	for _, c := range g.sc.Cities {
		mine := g.natoControls(c) == (u.c.Side == nato)
		if mine {
			continue
		}
		if d := g.grid.Distance(u.pos, c); d < bestD {
			best, bestD = c, d
		}
	}
	if u.c.Side == serb && bestD > 6 {
		return best, false
	}
	return best, bestD < 1<<30
}

// botAttacks declares attacks at good enough odds, estimated from printed
// factors.
func (g *game) botAttacks(side side) []string {
	if side == nato && g.Recon != "" {
		return nil
	}
	o := g.occupancy()
	targets := slices.SortedFunc(func(yield func(board.ID) bool) {
		for id := range o.enemyOf(side) {
			if !yield(id) {
				return
			}
		}
	}, func(a, b board.ID) int {
		if a.Col != b.Col {
			return a.Col - b.Col
		}
		return a.Row - b.Row
	})
	used := map[string]bool{}
	var out []string
	var aaa *unit
	for _, u := range g.Units {
		if u.c.AAA && u.alive() && u.c.Side == side && !u.Moved {
			aaa = u
		}
	}
	for _, d := range targets {
		if g.terrain(d) == "marsh" || !g.inPlay(d) {
			continue
		}
		var att []*unit
		total := 0
		for _, nb := range g.grid.Neighbours(d) {
			for _, u := range o.own(side)[nb] {
				if used[u.ID] || g.mayAttackFrom(u, side, d) != "" || u.c.Artillery && side == nato {
					continue
				}
				att = append(att, u)
				f := u.c.AttackAt(u.Steps)
				if u.c.Artillery {
					f = 3
				}
				if g.sc.Map.River(u.pos, d) && !u.c.MEF {
					f /= 2
				}
				total += f
			}
		}
		def := 0
		for _, e := range o.enemyOf(side)[d] {
			if e.c.AntiTank {
				def += 2
			} else {
				def += e.c.DefenseAt(e.Steps)
			}
		}
		if t, _ := g.combatTerrain(d); t == city || t == mountain {
			def *= 2
		}
		if side == nato && aaa != nil && !used[aaa.ID] && len(att) > 0 && g.mayAttackFrom(aaa, side, d) == "" && total < 3*def {
			att = append(att, aaa)
			total += aaa.c.AttackAt(aaa.Steps)
		}
		if len(att) == 0 {
			continue
		}
		ok := total >= 2*def
		if side == serb {
			ok = 2*total >= def && slices.ContainsFunc(att, func(u *unit) bool { return !u.c.Artillery })
		}
		if !ok {
			continue
		}
		line := fmt.Sprintf("attack %s with %s advance all", g.hex(d), strings.Join(ids(att), " "))
		for _, u := range att {
			used[u.ID] = true
		}
		out = append(out, line)
	}
	return out
}
