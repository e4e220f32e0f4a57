package sms1914

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// Bot implements adjudicator.Bot: simple, legal orders for the step open.
// A-H Formations drive on their army's objectives (their Strategic Plan's
// while it binds them) or the nearest enemy; the Serbs close on the
// invader. Both attack at 3:2 or better, make the Mandated Attacks their
// plans need, recover CE out of reach of the enemy, and keep standing
// orders: cavalry reacts and retires; the Serbs ask to answer A-H attacks
// in a follow-up step.
func (rules) Bot(state []byte, seat string) ([]string, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	if g.Over || !slices.Contains(g.owing(), seat) {
		return nil, nil
	}
	side := seatSide(seat)
	g.assign()
	var out []string
	if g.standing(seat, "react") == nil {
		out = append(out, "react all yes", "retire all")
		if side == sb {
			out = append(out, "defend ask", "shells needed", "komitadji "+strings.Join(g.botKomitadji(), " "))
		} else {
			out = append(out, "defend intense if odds<=1:1")
		}
	}
	switch g.Phase {
	case phaseTurn:
		out = append(out, g.botMoves(side, false)...)
	case phaseCounter:
		out = append(out, g.botMoves(side, true)...)
	case phaseAttack, phaseCounterAttack:
		out = append(out, g.botAttacks(side)...)
	case phaseDefend, phaseCounterDefend:
		for _, a := range g.Attacks {
			out = append(out, "answer "+a.Target+" not")
		}
	case phaseInterPhase:
		out = append(out, "pass")
	}
	if len(out) == 0 {
		out = []string{"pass"}
	}
	return out, nil
}

func (g *game) botKomitadji() []string {
	var out []string
	for _, u := range g.units(sb) {
		if len(out) >= g.KomitadjiN {
			break
		}
		if !u.c.Combat() {
			continue
		}
		for _, n := range g.nbrs(u.pos) {
			if g.southOfRivers(n) && g.komitadjiOK(n, out) {
				out = append(out, g.hex(n))
				break
			}
		}
	}
	if len(out) == 0 {
		return []string{}
	}
	return out
}

// botMoves moves each Force toward its goal, within its MPs and without a
// Forced March; a reduced Formation out of the enemy's reach recovers.
func (g *game) botMoves(side side, counter bool) []string {
	var out []string
	m := g.newPhaseMove(side, counter)
	planned := map[board.ID]int{}
	for _, id := range g.sc.hexes {
		planned[id] = g.stackQuarters(id, side)
	}
	for _, u := range g.units(side) {
		if !u.c.Formation || u.Inactive || u.Task != "" || u.Hex2 != "" || !u.c.Combat() {
			continue
		}
		f := g.forceOf(u)
		units := f.Units()
		if f.Fort != nil {
			units = slices.DeleteFunc(slices.Clone(units), func(x *unit) bool { return x == f.Fort })
		}
		if g.adjacentEnemy(u.pos, side) {
			continue // hold and fight
		}
		if u.CE > statusNone && g.recoveryBar(m, u) == "" {
			out = append(out, "recover "+u.ID)
			continue
		}
		if counter {
			continue
		}
		if u.c.Kind == kGarrison || u.c.Kind == kRiver {
			continue
		}
		goal := g.botGoal(u)
		if goal == (board.ID{}) {
			continue
		}
		dest, path := g.botPath(m, units, goal, planned)
		if len(path) == 0 {
			continue
		}
		if a := g.planBound(u); a != nil && !g.closer(a.ID, u.pos, dest) {
			continue
		}
		q := 0
		for _, x := range units {
			q += x.quarters()
		}
		planned[u.pos] -= q
		planned[dest] += q
		var ids []string
		for _, x := range units {
			ids = append(ids, x.ID)
		}
		hs := make([]string, len(path))
		for i, h := range path {
			hs[i] = g.hex(h)
		}
		out = append(out, fmt.Sprintf("move %s %s", strings.Join(ids, "+"), strings.Join(hs, " ")))
	}
	return out
}

// botGoal is where a Formation heads: its plan's nearest objective while
// the plan binds it, else the nearest enemy unit.
func (g *game) botGoal(u *unit) board.ID {
	if a := g.planBound(u); a != nil {
		best, bd := board.ID{}, 999
		for _, o := range planObjectives[a.ID] {
			h := g.parse(o)
			if d := g.grid.Distance(u.pos, h); d < bd && !g.controls(h, ah) {
				best, bd = h, d
			}
		}
		if best != (board.ID{}) {
			return best
		}
	}
	best, bd := board.ID{}, 999
	for _, e := range g.units(u.c.Side.Enemy()) {
		if e.c.Kind == kSquadron {
			continue
		}
		if d := g.grid.Distance(u.pos, e.pos); d < bd {
			best, bd = e.pos, d
		}
	}
	return best
}

type botItem struct {
	id   board.ID
	cost int
}
type botQueue []*botItem

func (q botQueue) Len() int           { return len(q) }
func (q botQueue) Less(i, j int) bool { return q[i].cost < q[j].cost }
func (q botQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *botQueue) Push(x any)        { *q = append(*q, x.(*botItem)) }
func (q *botQueue) Pop() any          { o := *q; it := o[len(o)-1]; *q = o[:len(o)-1]; return it }

// botPath finds the reachable hex nearest the goal within the phase's MPs
// and the path to it; the Force stops where it comes next to the enemy.
func (g *game) botPath(m *phaseMove, units []*unit, goal board.ID, planned map[board.ID]int) (board.ID, []board.ID) {
	side := units[0].c.Side
	start := units[0].pos
	dist := map[board.ID]int{start: 0}
	prev := map[board.ID]board.ID{}
	q := &botQueue{{id: start}}
	best, bestD := start, g.grid.Distance(start, goal)
	q0 := 0
	for _, u := range units {
		q0 += u.quarters()
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(*botItem)
		if it.cost > dist[it.id] {
			continue
		}
		if it.id != start && g.adjacentEnemy(it.id, side) {
			continue // stop next to the enemy
		}
		for _, n := range g.nbrs(it.id) {
			si, err := g.stepCost(m, units, it.id, n, false)
			if err != nil {
				continue
			}
			c := it.cost + si.cost
			if c > m.allowance {
				continue
			}
			if old, ok := dist[n]; ok && old <= c {
				continue
			}
			dist[n] = c
			prev[n] = it.id
			heap.Push(q, &botItem{id: n, cost: c})
			if g.restricted(units[0], n) != "" || planned[n]+q0 > 14 {
				continue
			}
			if d := g.grid.Distance(n, goal); d < bestD {
				best, bestD = n, d
			}
		}
	}
	if best == start {
		return start, nil
	}
	var path []board.ID
	for h := best; h != start; h = prev[h] {
		path = append([]board.ID{h}, path...)
	}
	return best, path
}

// botAttacks declares the attacks at 3:2 or better, and those PAs force;
// the Mandated Attacks a plan needs are made Intense.
func (g *game) botAttacks(side side) []string {
	var out []string
	used := map[*unit]bool{}
	for _, id := range g.sc.hexes {
		if !g.enemyIn(id, side) {
			continue
		}
		groups := map[string][]*unit{}
		var keys []string
		for _, n := range g.nbrs(id) {
			for _, u := range g.sideAt(n, side) {
				if used[u] || g.attackBar(u, id) != "" || u.c.Kind == kArtillery {
					continue
				}
				k := g.corpsKey(u)
				if u.asset() {
					if f := g.byID[u.Assigned]; f != nil {
						k = g.corpsKey(f)
					}
				}
				if _, ok := groups[k]; !ok {
					keys = append(keys, k)
				}
				groups[k] = append(groups[k], u)
			}
		}
		if len(keys) == 0 {
			continue
		}
		slices.Sort(keys)
		bestKey := keys[0]
		for _, k := range keys {
			if len(groups[k]) > len(groups[bestKey]) {
				bestKey = k
			}
		}
		units := groups[bestKey]
		forced := false
		for _, u := range units {
			if u.PA == g.hex(id) {
				forced = true
			}
		}
		col := g.botOdds(units, id)
		s := g.sc.CRT.Scale
		threeTwo, _ := s.Find("3:2")
		if col < threeTwo && !forced {
			continue
		}
		var ids []string
		for _, u := range units {
			used[u] = true
			ids = append(ids, u.ID)
		}
		line := fmt.Sprintf("attack %s with %s advance all", g.hex(id), strings.Join(ids, "+"))
		if side == ah {
			if a := g.army(units[0].Army); a != nil && a.Plan == "active" && a.Mandated < map[string]int{"FIFTH": 5, "SIXTH": 4}[a.ID] {
				hasInf := false
				for _, u := range units {
					if u.c.Formation && u.c.InfantryType() && !u.maxed() {
						hasInf = true
					}
				}
				if hasInf {
					line += " intense mandated"
				}
			}
		}
		out = append(out, line)
	}
	return out
}

// botOdds estimates the final odds column of an attack with full Ammo.
func (g *game) botOdds(units []*unit, target board.ID) position {
	var forces []*force
	seen := map[*unit]bool{}
	for _, u := range units {
		if seen[u] {
			continue
		}
		f := g.forceOf(u)
		nf := &force{Hex: f.Hex}
		for _, x := range f.Units() {
			if slices.Contains(units, x) && !x.isFort() {
				seen[x] = true
				if x.c.Formation {
					nf.Formation = x
				} else {
					nf.Assets = append(nf.Assets, x)
				}
			}
		}
		if nf.Lead() != nil {
			forces = append(forces, nf)
		}
	}
	b := &battle{g: g, side: units[0].c.Side, target: target, attackers: forces, defenders: g.forcesAt(target, units[0].c.Side.Enemy()), ammo: map[*force]bool{}}
	for _, f := range b.attackers {
		b.ammo[f] = true
	}
	for _, f := range b.defenders {
		b.ammo[f] = true
	}
	b.strengths()
	if b.attack.Sign() <= 0 {
		return -99
	}
	return determineOdds(g.sc.CRT.Scale, b.attack, b.defense, b.shifts(), false).Final
}
