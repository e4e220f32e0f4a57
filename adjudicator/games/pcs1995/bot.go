package pcs1995

import (
	"container/heap"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// botBatch is how many activations the bot sends in one mail before it
// lets the judge ask again: the rhythm of a player who plans a few moves
// ahead and looks at the map again.
const botBatch = 16

// Bot implements adjudicator.Bot: legal orders for the step open. It sets
// standing orders for every decision at the set-up; each turn it puts its
// fighters on patrol, its first G on an airstrike against the best enemy
// unit in contact and the rest on ground support; in the Action Phase it
// attacks with a PA where the odds look good, moves NATO towards the
// nearest enemy-held city (by SM away from the enemy, airmobile units onto
// empty enemy cities) and lets Russia/Serbia counter-attack and retake its
// cities, a batch of activations at a time.
func (rules) Bot(state []byte, seat string) ([]string, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	if g.Over {
		return nil, nil
	}
	seats, _ := g.owing()
	if !slices.Contains(seats, seat) {
		return nil, nil
	}
	side := sideOf(seat)
	switch g.Phase {
	case phaseSetup:
		return []string{
			"absorb static support retreat rout",
			"defend gs all interdict all escort all",
			"intercept all all",
			"interdict sm 1 escort none",
			"advancing lead",
		}, nil
	case phaseTurn:
		script, missions := g.botAir(side)
		queue := g.botQueue(side)
		if g.Strict {
			script, queue = script[:min(1, len(script))], queue[:1]
		}
		return slices.Concat(script, missions, queue), nil
	case phaseQueue:
		q := g.botQueue(side)
		if g.Strict {
			q = q[:1]
		}
		return q, nil
	case phaseAir:
		script, _ := g.botAir(side)
		for _, l := range script {
			if a := g.airBy[strings.Fields(l)[1]]; a != nil && a.Box == "" {
				return []string{l}, nil
			}
		}
		return nil, nil
	case phaseDecision:
		return []string{"decide " + g.Pending.Default}, nil
	}
	return nil, nil
}

// botAir is the air allocation script and the strategic bombing orders.
func (g *game) botAir(side faction) (script, missions []string) {
	var gs []*air
	for _, a := range g.Air {
		if a.c.Side != side || a.Box == boxPool || a.Box == boxEliminated {
			continue
		}
		if a.c.Type == "F" {
			script = append(script, "air "+a.ID+" patrol")
		} else {
			gs = append(gs, a)
		}
	}
	target := g.botStrikeTarget(side)
	for i, a := range gs {
		switch {
		case i == 0 && target != nil:
			script = append(script, "air "+a.ID+" airstrike")
			missions = append(missions, "airstrike "+target.ID+" with "+a.ID)
		case i == 1 && side == NATO && len(gs) >= 4:
			script = append(script, "air "+a.ID+" bombing")
			missions = append(missions, "bomb")
		default:
			script = append(script, "air "+a.ID+" gs")
		}
	}
	return script, missions
}

// botStrikeTarget is the enemy unit in contact with the best UQR.
func (g *game) botStrikeTarget(side faction) *Unit {
	var best *Unit
	for _, u := range g.Units {
		if !u.onMap() || u.side() == side || !g.nextToEnemy(u.side(), u.pos) {
			continue
		}
		if best == nil || u.c.UQR.Grade > best.c.UQR.Grade {
			best = u
		}
	}
	return best
}

// botQueue plans the next batch of activations.
func (g *game) botQueue(side faction) []string {
	var out []string
	over := g.overstacked(side)
	units := slices.Clone(g.Units)
	slices.SortStableFunc(units, func(a, b *Unit) int {
		ao, bo := slices.Contains(over, a.pos), slices.Contains(over, b.pos)
		switch {
		case ao && !bo:
			return -1
		case bo && !ao:
			return 1
		}
		return 0
	})
	seat := seatOf(side)
	if !g.Deesc[seat] && g.Count[seat] == 0 && g.Pending == nil {
		if drm, _ := deescalationDRM(g.VP, side); drm >= 2 {
			out = append(out, "deescalate else skip")
		}
	}
	claimed := map[board.ID]bool{}
	planned := 0
	for _, u := range units {
		if planned >= botBatch {
			return out
		}
		if u.side() != side || !u.fresh() {
			continue
		}
		if slices.Contains(over, u.pos) && len(g.occ[u.pos]) > 1 {
			l := g.botMove(u, claimed, true)
			if l == "" {
				if h := g.canLeave(u); h != nil {
					l = "move " + u.ID + " " + g.hex(*h)
				}
			}
			if l != "" {
				out = append(out, l+" else skip")
				planned++
				continue
			}
		}
		if l := g.botAttack(u); l != "" {
			out = append(out, l+" else skip")
			planned++
			continue
		}
		if l := g.botMove(u, claimed, false); l != "" {
			out = append(out, l+" else skip")
			planned++
		}
	}
	return append(out, "pass")
}

// botEstimate is the attacker's expected FCR lead in a combat of u from
// pos against d, with the average chit of each letter.
func (g *game) botEstimate(kind kind, u *Unit, pos board.ID, d *Unit, bid int) int {
	old := u.pos
	u.pos = pos
	defer func() { u.pos = old }()
	c := combat{Kind: kind, AttackerUQR: u.c.UQR, DefenderUQR: d.c.UQR, MP: bid}
	if u.c.Armor {
		c.Armor = attacker
	}
	if d.c.Armor {
		c.Armor = map[bool]Side{true: both, false: defender}[u.c.Armor]
	}
	c.AttackerAdjacent = g.adjacentSupport(u.side(), d.pos, u)
	c.DefenderAdjacent = g.adjacentSupport(d.side(), d.pos, d)
	c.AttackerFlanking = g.flanking(u.side(), u, d.pos)
	if g.sc.Map.Terrain[d.pos] == mountainTerrain {
		c.Terrain = mountain
	}
	if g.city(d.pos) {
		c.City = plainCity
	}
	switch {
	case g.sc.Map.River(pos, d.pos):
		c.Hexside = river
	case g.sc.Map.Ridge(pos, d.pos):
		c.Hexside = ridge
	}
	c.Naval = g.sc.naval[d.pos]
	if u.side() != NATO {
		c.NATO = defender
	}
	au, du := c.UQRs()
	att, def := c.Adjustments()
	return g.avgChit(au.Letter()) + sum(att) - g.avgChit(du.Letter()) - sum(def)
}

func (g *game) avgChit(letter string) int {
	t := 0
	for _, c := range g.sc.Chits {
		t += c.CS(false, letter) + c.CS(true, letter)
	}
	return t / (2 * len(g.sc.Chits))
}

// botAttack is a PA from where the unit stands when one looks good.
func (g *game) botAttack(u *Unit) string {
	var best *Unit
	bestScore := 0
	for _, nb := range g.grid.Neighbours(u.pos) {
		for _, d := range g.occ[nb] {
			if d.side() == u.side() {
				continue
			}
			if s := g.botEstimate(pa, u, u.pos, d, 0); best == nil || s > bestScore {
				best, bestScore = d, s
			}
		}
	}
	if best == nil || bestScore < 2 {
		return ""
	}
	var with []string
	for _, nb := range g.grid.Neighbours(best.pos) {
		for _, o := range g.occ[nb] {
			if o != u && o.side() == u.side() && o.fresh() && g.supports(o, best.pos) {
				with = append(with, o.ID)
			}
		}
	}
	line := "pa " + u.ID + " " + best.Hex
	if len(with) > 0 {
		line += " with " + strings.Join(with, ",")
	}
	return line + " advance lead"
}

// botObjective is where a unit heads: NATO the nearest city it does not
// control (Beograd last); Russia/Serbia the nearest of its home cities
// NATO holds, else the nearest NATO unit within 4 hexes; none to stay.
func (g *game) botObjective(u *Unit) (board.ID, bool) {
	side := u.side()
	var best board.ID
	bd := 1 << 20
	for _, id := range g.sc.cities {
		c := g.controller(id)
		if c == side || side == RS && g.sc.initial[id] != RS {
			continue
		}
		if d := g.grid.Distance(u.pos, id); d < bd {
			best, bd = id, d
		}
	}
	if side == RS && bd > 6 {
		bd = 1 << 20
		for _, o := range g.Units {
			if o.onMap() && o.side() != side {
				if d := g.grid.Distance(u.pos, o.pos); d <= 4 && d < bd {
					best, bd = o.pos, d
				}
			}
		}
	}
	return best, bd < 1<<20
}

// botMove moves a unit towards its objective: airmobile onto an empty
// enemy city, SM when the way is clear of the enemy, else regular
// movement, ending with an ME when the unit arrives next to an enemy it
// can beat.
func (g *game) botMove(u *Unit, claimed map[board.ID]bool, mustLeave bool) string {
	obj, ok := g.botObjective(u)
	if !ok && !mustLeave {
		return ""
	}
	if u.c.Airmobile() && u.side() == NATO && ok && len(g.occ[obj]) == 0 && g.controller(obj) == RS && !claimed[obj] && g.airmobileBar(u, obj) == "" {
		claimed[obj] = true
		return "airmobile " + u.ID + " " + g.hex(obj)
	}
	now := g.grid.Distance(u.pos, obj)
	try := func(sm bool) (string, bool) {
		mp := u.c.MA * 2
		if sm {
			mp *= 2
		}
		paths := g.reach(u, mp, sm)
		var best board.ID
		found, bd, bc := false, now, 0
		for h, r := range paths {
			if claimed[h] || h == u.pos || len(g.occ[h]) > 0 {
				continue
			}
			d := g.grid.Distance(h, obj)
			if mustLeave && !found || d < bd || d == bd && found && (r.cost < bc || r.cost == bc && cmpID(h, best) < 0) {
				best, bd, bc, found = h, d, r.cost, true
			}
		}
		if !found {
			return "", false
		}
		claimed[best] = true
		path := paths[best].path
		verb := "move"
		if sm {
			verb = "sm"
		}
		line := verb + " " + u.ID + " " + hexList(g, path)
		if !sm {
			left := u.c.MA*2 - paths[best].cost
			for _, nb := range g.grid.Neighbours(best) {
				for _, d := range g.occ[nb] {
					if d.side() != u.side() && left >= g.cost(u.c.GroundType(), best, nb)+6 && g.botEstimate(me, u, best, d, 3) >= 3 {
						return "me " + u.ID + " " + hexList(g, path) + " attack " + g.hex(nb) + " bid 3", true
					}
				}
			}
		}
		return line, true
	}
	if !g.nextToEnemy(u.side(), u.pos) {
		if l, ok := try(true); ok && !mustLeave {
			return l
		}
	}
	l, _ := try(false)
	return l
}

type reached struct {
	cost int
	path []board.ID
}

// reach lists the hexes a unit can end a move in with mp half MP, and the
// cheapest path to each (EZOC stops; SM keeps away from enemy units).
func (g *game) reach(u *Unit, mp int, sm bool) map[board.ID]reached {
	side, typ := u.side(), u.c.GroundType()
	out := map[board.ID]reached{u.pos: {}}
	pq := &hexQueue{{u.pos, 0}}
	for pq.Len() > 0 {
		cur := heap.Pop(pq).(hexCost)
		if cur.cost > out[cur.hex].cost {
			continue
		}
		if cur.hex != u.pos && !sm && g.ezoc(side, cur.hex) {
			continue
		}
		for _, nb := range g.grid.Neighbours(cur.hex) {
			c := g.cost(typ, cur.hex, nb)
			if c < 0 || g.enemyAt(side, nb) {
				continue
			}
			if sm && (g.nextToEnemy(side, nb) || g.smLimit(u, nb) != "") {
				continue
			}
			n := cur.cost + c
			if n > mp {
				continue
			}
			if old, ok := out[nb]; !ok || n < old.cost {
				out[nb] = reached{cost: n, path: append(slices.Clone(out[cur.hex].path), nb)}
				heap.Push(pq, hexCost{nb, n})
			}
		}
	}
	return out
}
