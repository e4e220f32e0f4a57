package sms1914

// This file holds supply (15): railroads and LOCs (15.0, 18), supply
// sources and their restrictions (15.1, 15.2, 5.3), tracing a supply line
// (15.3), the Supply Phase (15.4), Isolation (15.5), Extended Mode and
// Ammo provision (15.6.1, 9.4).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// operational is the side's friendly operational RR hexes (18.1.1): RR
// hexes it controls (behind its Front Line) joined to a friendly map edge
// by other such hexes.
func (g *game) operational(side side) map[board.ID]bool {
	op := map[board.ID]bool{}
	var queue []board.ID
	for id := range g.sc.rail {
		if g.controls(id, side) && g.friendlyEdge(id, side) {
			op[id] = true
			queue = append(queue, id)
		}
	}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, n := range g.nbrs(h) {
			if !op[n] && g.sc.rail[n] && g.railLink(h, n) && g.controls(n, side) {
				op[n] = true
				queue = append(queue, n)
			}
		}
	}
	return op
}

// fedKey is a corps train and whether the extended supply range counts.
type fedKey struct {
	train    *unit
	extended bool
}

// supplyCtx is what a phase's supply questions share.
type supplyCtx struct {
	side   side
	op     map[board.ID]bool
	loc    map[*unit]bool
	narrow map[board.ID]string // narrow-track hexes and the army whose LOC uses them
	fed    map[fedKey]*unit    // the depot that reaches each corps train, as found
	rr     []source            // the RR line sources
}

func (g *game) newSupply(side side) *supplyCtx {
	c := &supplyCtx{side: side, op: g.operational(side), loc: map[*unit]bool{}, narrow: map[board.ID]string{}}
	for _, u := range g.units(side) {
		if u.c.Supply() {
			c.loc[u] = g.hasLOC(c, u)
		}
	}
	return c
}

// hasLOC reports whether a supply unit has a LOC (15.0): its RR hex and
// friendly operational RR hexes to a friendly map edge, through no EZOC
// hex a friendly unit does not occupy; a Narrow-Track hex carries the LOC
// of one army at a time.
func (g *game) hasLOC(c *supplyCtx, u *unit) bool {
	if !c.op[u.pos] {
		return false
	}
	army := u.Army
	prev := map[board.ID]board.ID{u.pos: u.pos}
	queue := []board.ID{u.pos}
	ok := func(h board.ID) bool {
		if g.inEZOC(h, c.side) && !g.friendIn(h, c.side) {
			return false
		}
		if g.sc.narrow[h] {
			if a, used := c.narrow[h]; used && a != army {
				return false
			}
		}
		return true
	}
	if !ok(u.pos) && !g.friendIn(u.pos, c.side) {
		return false
	}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if g.friendlyEdge(h, c.side) {
			for x := h; ; x = prev[x] {
				if g.sc.narrow[x] {
					c.narrow[x] = army
				}
				if prev[x] == x {
					break
				}
			}
			return true
		}
		for _, n := range g.nbrs(h) {
			if _, seen := prev[n]; !seen && c.op[n] && g.railLink(h, n) && ok(n) {
				prev[n] = h
				queue = append(queue, n)
			}
		}
	}
	return false
}

// a supply source candidate.
type source struct {
	hex  board.ID
	rng  int
	unit *unit // nil for RR lines and map-edge sources
	what string
}

// sources lists the supply sources a unit may draw Provisions (ammo false)
// or Ammo (ammo true) from (15.1, 15.2, 5.3): depots of its army with a
// LOC; Corps Trains with a LOC or in a depot's range, for their corps'
// Formations, any assets and cavalry; RR lines (range 5, Provisions only,
// Combat and Artillery units); Kalinovik 06.25 for A-H units stacked
// there; the Montenegrin map-edge symbols (range 13) for Montenegrin units.
// extended uses the supply units' Extended ranges.
func (g *game) sources(c *supplyCtx, u *unit, ammo, extended bool) []source {
	var out []source
	for _, s := range g.units(c.side) {
		if !g.mayDrawFrom(u, s) || (ammo && s.Extended && s.Ammo >= s.c.AmmoLimit) {
			continue
		}
		rng := s.c.Range
		if extended || s.Extended {
			rng = s.c.ExtRng
		}
		switch s.c.Kind {
		case kDepot:
			if c.loc[s] {
				out = append(out, source{hex: s.pos, rng: rng, unit: s, what: "depot " + s.ID})
			}
		case kTrain:
			if s.OOS {
				continue
			}
			if c.loc[s] || g.feeder(c, s, extended) != nil {
				out = append(out, source{hex: s.pos, rng: rng, unit: s, what: "corps train " + s.ID})
			}
		}
	}
	if !ammo && (u.c.Combat() || u.c.Kind == kArtillery || u.c.Kind == kFort) {
		if c.rr == nil {
			ids := make([]board.ID, 0, len(c.op))
			for id := range c.op {
				ids = append(ids, id)
			}
			board.SortIDs(ids)
			for _, id := range ids {
				c.rr = append(c.rr, source{hex: id, rng: 5, what: "RR line at " + g.hex(id)})
			}
		}
		out = append(out, c.rr...)
	}
	if u.c.Nation == "Montenegro" {
		for _, id := range g.sc.mntSupply {
			out = append(out, source{hex: id, rng: 13, what: "Montenegrin supply at " + g.hex(id)})
		}
	}
	return out
}

// mayDrawFrom reports whether the attachments let u draw supply from the
// supply unit s, whether or not s can supply now (15.2, 5.3): a depot or
// Corps Train of u's army (the Serbian forces are one army); a Corps
// Train only for its corps' Formations, assets and cavalry, and never for
// an A-H Independent Formation but cavalry (5.3.3).
func (g *game) mayDrawFrom(u, s *unit) bool {
	if !s.c.Supply() || s.c.Side != u.c.Side {
		return false
	}
	if u.c.Side == ah && s.Army != u.Army {
		return false // 5.3.1: a supply unit of another army
	}
	if s.c.Kind == kDepot {
		return true
	}
	form := u
	if !u.c.Formation {
		if f := g.byID[u.Assigned]; f != nil {
			form = f
		}
	}
	corps := ""
	for _, co := range g.sc.Corps {
		if co.Train == s.ID {
			corps = co.ID
		}
	}
	if u.c.Side == ah && form.c.Formation && g.Attach[form.ID] == "independent" && form.c.Kind != kCavalry {
		return false // 5.3.3
	}
	return form.c.Kind == kCavalry || (form == u && u.asset()) || (form.c.Formation && g.Attach[form.ID] == corps)
}

// trainFed reports whether a depot of the train's army can trace a supply
// line to it (15.1.2).
func (g *game) trainFed(c *supplyCtx, t *unit) bool { return g.feeder(c, t, false) != nil }

// feeder is the depot of the train's army with a LOC that can trace a
// supply line to it (15.1.2, 9.4.1), in Extended Mode if extended allows
// a flip; nil if none.
func (g *game) feeder(c *supplyCtx, t *unit, extended bool) *unit {
	k := fedKey{t, extended}
	if d, ok := c.fed[k]; ok {
		return d
	}
	var found *unit
	for _, d := range g.units(c.side) {
		if d.c.Kind != kDepot || !c.loc[d] || (c.side == ah && d.Army != t.Army) {
			continue
		}
		rng := d.c.Range
		if d.Extended || extended {
			rng = d.c.ExtRng
		}
		reach := g.supplyReach(t.pos, c.side, rng, t, false)
		if d2, ok := reach.at(d.pos); ok && d2 <= rng {
			found = d
			break
		}
	}
	if c.fed == nil {
		c.fed = map[fedKey]*unit{}
	}
	c.fed[k] = found
	return found
}

// reach state for the supply line search
type reachItem struct {
	id   board.ID
	mtn  int
	cost int
}

// reachMap is the least cost at which a source in each hex reaches the
// target (supplyReach).
type reachMap struct {
	sc   *scenario
	cost []int32
}

// at returns the cost from a source in hex id, false if none reaches.
func (r reachMap) at(id board.ID) (int, bool) {
	if !r.sc.Map.Grid.Contains(id) {
		return 0, false
	}
	c := r.cost[r.sc.index(id)]
	return int(c), c < 1<<30
}

type reachKey struct {
	target    board.ID
	side      side
	limit     int
	isolation bool
}

// supplyReach traces supply lines back from a target hex (15.3): the
// least cost at which a source in each hex reaches it, counting the hexes
// from the source (exclusive) to the target (inclusive), a Komitadji hex
// holding no A-H combat unit counting 2 for A-H (23.1.1). A line does not
// pass through enemy units or un-negated EZOC hexes (friendly occupied or
// in a friendly ZOC other than that of the target's units, 15.3.1), nor
// across Impassable hexsides or the Donau but at a bridge, ferry or
// pontoon; it may cross an unbridged Sava hexside only into the target
// (15.3.2); it passes through at most one Low Mountain hex and no High
// Mountain hex but along a Roadway (15.3.2). For Isolation (15.5) the
// target's own ZOC negates too and terrain does not limit the path.
func (g *game) supplyReach(target board.ID, side side, limit int, seeker *unit, isolation bool) reachMap {
	// the same question on the same board has the same answer
	if g.reachVer != g.ver || g.reaches == nil {
		g.reaches, g.reachVer = map[reachKey]reachMap{}, g.ver
	}
	k := reachKey{target, side, limit, isolation}
	if r, ok := g.reaches[k]; ok {
		return r
	}
	r := g.supplyReachNow(target, side, limit, isolation)
	g.reaches[k] = r
	return r
}

func (g *game) supplyReachNow(target board.ID, side side, limit int, isolation bool) reachMap {
	sc := g.sc
	friendZOC := g.zocOf(side)
	enemyZOC := g.zocOf(side.Enemy())
	own := map[board.ID]bool{}
	if !isolation {
		// the ZOC projected from the hex seeking supply does not negate (15.3.1)
		for _, u := range g.at(target) {
			if u.c.Side == side && u.c.Combat() {
				for _, n := range g.nbrs(target) {
					if g.projects(u, n) {
						own[n] = true
					}
				}
			}
		}
	}
	negated := func(h board.ID) bool {
		if !enemyZOC[h] || g.friendIn(h, side) {
			return true
		}
		if !friendZOC[h] {
			return false
		}
		if !own[h] {
			return true
		}
		// in a friendly ZOC: is it projected by a unit outside the target hex?
		for _, n := range g.nbrs(h) {
			for _, u := range g.at(n) {
				if u.c.Side == side && u.c.Combat() && !u.in(target) && g.projects(u, h) {
					return true
				}
			}
		}
		return false
	}
	reach := reachMap{sc: sc, cost: make([]int32, sc.size())}
	for i := range reach.cost {
		reach.cost[i] = 1 << 30
	}
	// best cost by hex and mountain count (0 or 1)
	best := make([]int32, 2*sc.size())
	for i := range best {
		best[i] = 1 << 30
	}
	// costs are small whole numbers: a bucket for each (Dial's algorithm)
	buckets := make([][]reachItem, limit+2)
	buckets[1] = append(buckets[1], reachItem{id: target, cost: 1})
	best[2*sc.index(target)] = 1
	blocked := make([]int8, sc.size()) // 0 unknown, 1 blocked, 2 passable
	for cost := 1; cost < len(buckets); cost++ {
		for bi := 0; bi < len(buckets[cost]); bi++ {
			it := buckets[cost][bi]
			if best[2*sc.index(it.id)+it.mtn] < int32(it.cost) {
				continue
			}
			h := it.id
			if h != target {
				// h is a hex the line passes through
				i := sc.index(h)
				if blocked[i] == 0 {
					blocked[i] = 2
					if g.enemyIn(h, side) || !negated(h) {
						blocked[i] = 1
					}
				}
				if blocked[i] == 1 {
					continue
				}
			}
			for _, n := range g.nbrs(h) {
				f := sc.side[board.MakePair(h, n)]
				if f != "" {
					if f == sideImpass {
						continue
					}
					if isDonau(f) && !g.bridged(h, n) && !g.ferry(h, n) {
						continue
					}
					if isSava(f) && !g.bridged(h, n) && h != target && !isolation {
						continue // 15.3.2: across the Sava, no further
					}
				}
				mtn := it.mtn
				if h != target && !isolation && !g.road(n, h) {
					switch g.terrain(h) {
					case "high_mountain":
						continue
					case "low_mountain":
						mtn++
						if mtn > 1 {
							continue
						}
					}
				}
				// n as the source's hex: the cost so far
				if ni := sc.index(n); int32(it.cost) < reach.cost[ni] {
					reach.cost[ni] = int32(it.cost)
				}
				step := 1
				if side == ah && g.komitadjiAt(n) && !g.combatIn(n, ah) && !g.combatIn(n, sb) {
					step = 2
				}
				nc := it.cost + step
				if nc > limit {
					continue
				}
				k := 2*sc.index(n) + mtn
				if best[k] <= int32(nc) {
					continue
				}
				best[k] = int32(nc)
				buckets[nc] = append(buckets[nc], reachItem{id: n, mtn: mtn, cost: nc})
			}
		}
	}
	if sc.Map.Area[target] != "" {
		reach.cost[sc.index(target)] = 0
	}
	return reach
}

// traced finds a source among srcs reaching the hex (the first in order).
func (g *game) traced(target board.ID, side side, u *unit, srcs []source) (source, bool) {
	limit := 0
	for _, s := range srcs {
		limit = max(limit, s.rng)
	}
	if limit == 0 {
		return source{}, false
	}
	reach := g.supplyReach(target, side, limit+2, u, false)
	var best source
	found := false
	for _, s := range srcs {
		d, ok := reach.at(s.hex)
		if s.hex == target {
			d, ok = 0, true
		}
		if ok && d <= s.rng && (!found || s.unit != nil && best.unit == nil) {
			best, found = s, true
		}
	}
	return best, found
}

// inSupply reports whether a Force can draw Provisions (15.4 (3)), and from
// what; extended uses Extended ranges.
func (g *game) inSupply(c *supplyCtx, f *force, extended bool) (source, bool) {
	u := f.Lead()
	if u == nil || u.c.Kind == kSquadron || (f.Formation == nil && len(f.Assets) == 0) {
		return source{what: "a fort needs no supply (8.5.1)"}, true
	}
	if c.side == ah && f.Hex == g.parse("06.25") {
		return source{what: "Kalinovik 06.25 (15.1.4)"}, true
	}
	return g.traced(f.Hex, c.side, u, g.sources(c, u, false, extended))
}

// isolated reports Isolation (15.5): no path of 15 hexes or fewer to a
// friendly supply source through no enemy unit or un-negated EZOC, the
// unit's own ZOC negating too.
func (g *game) isolated(c *supplyCtx, f *force) bool {
	reach := g.supplyReach(f.Hex, c.side, 15, f.Lead(), true)
	for _, s := range g.units(c.side) {
		if s.c.Supply() && (c.loc[s] || s.c.Kind == kTrain) {
			if d, ok := reach.at(s.pos); ok && d <= 15 {
				return false
			}
		}
	}
	for id := range c.op {
		if d, ok := reach.at(id); ok && d <= 15 {
			return false
		}
	}
	if c.side == ah {
		if d, ok := reach.at(g.parse("06.25")); ok && d <= 15 {
			return false
		}
	}
	if f.Lead().c.Nation == "Montenegro" {
		for _, id := range g.sc.mntSupply {
			if d, ok := reach.at(id); ok && d <= 15 {
				return false
			}
		}
	}
	return true
}

// supplyPhase is the Supply Phase of the phasing side (4.2.3, 15.4).
func (g *game) supplyPhase(side side, extend, noExtend []string) {
	g.assign()
	for _, u := range g.units(side) {
		if u.c.Supply() {
			u.Extended, u.Ammo, u.OOS = false, 0, false
		}
	}
	for _, id := range extend {
		if u := g.byID[id]; u != nil && u.onMap() && u.c.Supply() && u.c.Side == side {
			u.Extended = true
			g.evFor(side, "15.6.1", "%s flips to its Extended Mode side.", u.ID)
		}
	}
	c := g.newSupply(side)
	// (1) every Depot has a LOC, or is displaced (15.4, 15.6.2b)
	for _, u := range g.units(side) {
		if u.c.Kind == kDepot && !c.loc[u] {
			g.displaceDepot(u, "it has no LOC (15.4)")
			c.loc[u] = g.hasLOC(c, u)
		}
	}
	// (2) Corps Trains in Full Supply or with a LOC
	for _, u := range g.units(side) {
		if u.c.Kind == kTrain && !c.loc[u] && !g.trainFed(c, u) {
			// a depot may flip to its Extended Mode side to reach it (15.6.1)
			if d := g.feeder(c, u, true); d != nil && !slices.Contains(noExtend, d.ID) {
				if !d.Extended {
					d.Extended = true
					g.evFor(side, "15.6.1", "%s flips to its Extended Mode side to supply %s.", d.ID, u.ID)
				}
				continue
			}
			u.OOS = true
			g.evFor(side, "15.4", "%s in %s is Out of Supply: no LOC and no depot in range.", u.ID, u.Hex)
		}
	}
	// (3)-(5) every Force: Full Supply, Out of Supply or Isolated
	seen := map[*unit]bool{}
	var oos, iso []string
	for _, id := range g.sc.hexes {
		for _, f := range g.forcesAt(id, side) {
			lead := f.Lead()
			if lead == nil || seen[lead] || lead.isFort() && len(f.Units()) == 1 {
				continue
			}
			seen[lead] = true
			if _, ok := g.inSupply(c, f, false); ok {
				continue
			}
			// a voluntary flip to Extended Mode, unless the order forbids it (15.6.1)
			flipped := false
			for _, s := range g.sources(c, lead, false, true) {
				if s.unit == nil || s.unit.Extended || slices.Contains(noExtend, s.unit.ID) {
					continue
				}
				if _, ok := g.traced(f.Hex, side, lead, []source{s}); ok {
					s.unit.Extended, flipped = true, true
					g.evFor(side, "15.6.1", "%s flips to its Extended Mode side to supply %s.", s.unit.ID, f)
					break
				}
			}
			if flipped {
				continue
			}
			if g.isolated(c, f) {
				iso = append(iso, f.String())
				g.reduceCE(f, 3, "15.4", "Isolated in the Supply Phase")
			} else {
				oos = append(oos, f.String())
				g.reduceCE(f, 1, "15.4", "Out of Supply in the Supply Phase")
			}
		}
	}
	if len(oos)+len(iso) == 0 {
		g.evFor(side, "15.4", "Supply Phase: every %s Force is in Full Supply.", side)
	} else {
		if len(oos) > 0 {
			g.evFor(side, "15.4", "Out of Supply (CEL -1): %s.", strings.Join(oos, ", "))
		}
		if len(iso) > 0 {
			g.evFor(side, "15.5", "Isolated (CEL -3): %s.", strings.Join(iso, ", "))
		}
	}
	g.ev("15.4", "%s Supply Phase: %d Force%s Out of Supply, %d Isolated.", side, len(oos), plural(len(oos), "", "s"), len(iso))
	// 15.4 (5): the markers come off; the Corps Train marker stays for the turn
}

// displaceDepot picks a depot up and places it on a friendly operational
// RR hex with a LOC, flipped to Extended (15.4 (1), 15.6.2b): the owner's
// displace order's hex if it qualifies, else the nearest such hex.
func (g *game) displaceDepot(u *unit, why string) {
	side := u.c.Side
	c := &supplyCtx{side: side, op: g.operational(side), loc: map[*unit]bool{}, narrow: map[board.ID]string{}}
	var cands []board.ID
	for id := range c.op {
		if g.enemyIn(id, side) || g.inEZOC(id, side) && !g.combatIn(id, side) {
			continue
		}
		cands = append(cands, id)
	}
	board.SortIDs(cands)
	want := ""
	for _, l := range g.standing(side.Seat(), "displace") {
		if f := strings.Fields(l); len(f) == 2 && strings.EqualFold(f[0], u.ID) {
			want = f[1]
		}
	}
	from := u.pos
	slices.SortStableFunc(cands, func(a, b board.ID) int {
		if g.hex(a) == want {
			return -1
		}
		if g.hex(b) == want {
			return 1
		}
		return g.grid.Distance(from, a) - g.grid.Distance(from, b)
	})
	for _, id := range cands {
		g.place(u, id)
		if g.hasLOC(c, u) {
			u.Extended = true
			g.evFor(side, "15.6.2b", "%s is displaced from %s to %s and flipped to Extended Mode: %s.", u.ID, g.hex(from), g.hex(id), why)
			g.evFor(side.Enemy(), "15.6.2b", "An enemy supply unit leaves %s.", g.hex(from))
			return
		}
	}
	g.place(u, from)
	g.evFor(side, "15.6.2b", "%s cannot be displaced: no friendly operational RR hex has a LOC; it stays in %s.", u.ID, g.hex(from))
}

// provideAmmo gives a Force one Ammo increment for a combat if it wants
// one and a source reaches it (9.4.1): its army's depot or its corps'
// train (fed by the depot when the train has no LOC), flipping a supply
// unit to Extended Mode if that is what reaches, and recording the
// increment on Extended units (9.4.2). It says from what.
func (g *game) provideAmmo(c *supplyCtx, f *force) (string, bool) {
	lead := f.Lead()
	if lead == nil {
		return "", false
	}
	if c.side == ah && f.Hex == g.parse("06.25") {
		return "Kalinovik 06.25", true
	}
	for _, ext := range []bool{false, true} {
		srcs := g.sources(c, lead, true, ext)
		s, ok := g.traced(f.Hex, c.side, lead, srcs)
		if !ok {
			continue
		}
		if s.unit == nil {
			return s.what, true
		}
		if ext && !s.unit.Extended && s.rng > s.unit.c.Range {
			s.unit.Extended = true
			g.evFor(c.side, "15.6.1", "%s flips to its Extended Mode side to provide Ammo.", s.unit.ID)
		}
		if s.unit.c.Kind == kTrain && !c.loc[s.unit] {
			if d := g.feeder(c, s.unit, false); d == nil {
				if d = g.feeder(c, s.unit, true); d != nil && !d.Extended {
					d.Extended = true
					g.evFor(c.side, "15.6.1", "%s flips to its Extended Mode side to reach %s.", d.ID, s.unit.ID)
				}
			}
		}
		g.recordAmmo(c, s.unit)
		return s.what, true
	}
	return "", false
}

// recordAmmo records an increment on an Extended supply unit, and on the
// depot that feeds a train with no LOC (9.4.2).
func (g *game) recordAmmo(c *supplyCtx, s *unit) {
	if s.Extended {
		s.Ammo++
		if s.Ammo >= s.c.AmmoLimit {
			g.evFor(c.side, "9.4.2", "%s has provided its limit of %d Ammo this GT: No More Ammo.", s.ID, s.c.AmmoLimit)
		}
	}
	if s.c.Kind == kTrain && !c.loc[s] {
		if d := g.feeder(c, s, true); d != nil && d.Extended {
			d.Ammo++
		}
	}
}

func (s source) String() string { return fmt.Sprintf("%s (range %d)", s.what, s.rng) }
