package wbt

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// quarter is a movement point: MPs are counted in quarters, since a highway hex costs a
// mechanized unit 0.25 MP (10.17).
const quarter = 4

func fmtMP(q int) string {
	s := fmt.Sprintf("%.2f", float64(q)/quarter)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// mech reports whether a unit moves and fights as mechanized now (2.5,
// 10.21).
func mech(u *unit) bool { return u.c.Mobility == Mech && !u.Dismounted }

// movementFactor is a unit's movement factor this phase in quarters: the
// printed one, 4 dismounted (10.21), less 1 (non-mechanized) or 2
// (mechanized) in bad weather (5.3; the airmobile 1st AAA is not named, so
// unaffected), halved rounding down when out of supply at the start of its
// move (8.4; after the weather, as the check is made then).
func (g *game) movementFactor(u *unit, n *supplyNet) (q int, why []string) {
	mf, why := g.unsuppliedMF(u)
	if u.c.Side == nato && !g.supply(u, n).OK {
		mf /= 2
		why = append(why, "out of supply, halved (8.4)")
	}
	return max(mf, 0) * quarter, why
}

// unsuppliedMF is a unit's movement factor this phase before the 8.4
// halving, in whole MP: the printed one, 4 dismounted (10.21), less the bad
// weather's (5.3).
func (g *game) unsuppliedMF(u *unit) (mf int, why []string) {
	mf = u.c.Move
	if u.Dismounted {
		mf = 4
		why = append(why, "dismounted 4 (10.21)")
	}
	if g.Bad {
		switch {
		case u.c.Mobility == airmobile:
		case mech(u):
			mf -= 2
			why = append(why, "bad weather -2 (5.3)")
		default:
			mf--
			why = append(why, "bad weather -1 (5.3)")
		}
	}
	return mf, why
}

// enterCost is the cost in quarters of entering next from cur, rivers
// aside, and whether it is road movement; why is set when the unit may not
// enter at all (10.7-10.20, 12.3).
func (g *game) enterCost(u *unit, cur, next board.ID) (q int, road bool, why string) {
	if !g.grid.Contains(next) || !g.inPlay(next) {
		return 0, false, "it is neutral or off the theatre (3.2)"
	}
	if u.c.AAA {
		return quarter, false, "" // 12.3: one MP a hex over any terrain
	}
	t := g.terrain(next)
	if t == "marsh" {
		return 0, false, "marsh is unplayable (10.14)"
	}
	if u.c.Side == serb && !g.yugoslav(next) {
		return 0, false, "Serbian units may not move out of rump-Yugoslavia (3.3)"
	}
	if link := g.sc.Map.Link(cur, next); link != "" {
		// 10.17: along the road's course, whatever the terrain
		switch {
		case !mech(u):
			return quarter, true, ""
		case link == board.Highway:
			return 1, true, ""
		default:
			return 2, true, ""
		}
	}
	m := mech(u)
	switch {
	case g.isCity(next):
		return quarter, false, "" // 10.20
	case t == "forest" && m:
		return 2 * quarter, false, "" // 10.11
	case t == "hills" && m:
		return 3 * quarter, false, "" // 10.12
	case t == "mountain" && m:
		return 0, false, "mechanized units enter mountains only by road (10.13)"
	case t == "mountain":
		return 2 * quarter, false, "" // 10.13
	}
	return quarter, false, "" // 10.10-10.12, towns by their terrain (10.20)
}

// unbridged reports an unbridged river between adjacent hexes: a river
// with no bridge or a demolished one (10.15, 10.18).
func (g *game) unbridged(a, b board.ID) bool {
	return g.sc.Map.River(a, b) && !g.bridgeIntact(board.MakePair(a, b))
}

// aaaMayEnd reports whether the 1st AAA may end its move in a hex (12.3).
func (g *game) aaaMayEnd(id board.ID) string {
	switch {
	case g.isCity(id):
		return "a city"
	case g.terrain(id) == "marsh":
		return "marsh"
	case g.terrain(id) == "mountain":
		return "a mountain hex"
	}
	for _, u := range g.unitsAt(id) {
		if u.c.Side == serb {
			return "a hex with Serbian units"
		}
		if !u.c.AAA && stackValue(u.c) > 0 {
			return "a hex with another NATO unit (6.2: one NATO unit a hex)"
		}
	}
	return ""
}

// moveOrder is a move order as a movement phase carries it out: a NATO
// unit, or a Serbian stack that began the phase together (10.4), its path,
// its "else" paths, and which units of a stack may be left behind.
type moveOrder struct {
	units []*unit
	path  []board.ID
	alts  [][]board.ID
	// leave names the only units of the stack that may be left behind
	// (10.5, 10.6); nil: any of them; empty (the order's "together"):
	// none, the stack stops as one.
	leave []string
}

// mayLeave reports whether a stack may go on without u when u cannot
// follow its path (10.6: "the Serbian player may leave them behind").
func (o moveOrder) mayLeave(u *unit) bool {
	return len(o.units) > 1 && (o.leave == nil || slices.Contains(o.leave, u.ID))
}

// moveResult is how a move order ended.
type moveResult struct {
	end      board.ID       // where the stack (what is left of it) ended
	used, mf map[string]int // each unit's movement points spent and its factor, in quarters
	left     []string       // the units left behind (10.6), with where: "S-2 at 0506"
	// completed says the order's own path was walked to its end (by what is
	// left of a stack), not cut short or replaced by an else path.
	completed bool
}

// move carries out one move order (10.1-10.20, 12.3). Each unit pays its
// own terrain costs from its own movement factor (10.1, 10.2: MPs are not
// given from one unit to another; 10.11-10.13: costs by the unit's type);
// a Serbian stack moves together only as far as every unit in it can go
// (10.6: it "must use the movement factor of the slowest unit") and makes
// one river roll (10.15). A unit of the stack that cannot follow the path
// (its MPs exhausted, the river roll more than it has left, terrain it may
// not enter) is left behind where it stands and the others go on (10.6:
// "the Serbian player may leave them behind to continue moving with the
// faster units"; 10.5), unless the order keeps the stack together.
//
// A move stopped partway ends where it stopped and the rest of its path is
// dropped, unless one of the order's "else" paths (each starting at a hex
// of the path) starts at the stop hex and the units are still free to
// move: then they go on along that path with the MP they have left. A
// river stall (10.15) and a zone of control (7.3) end the movement for the
// phase, so no alternative follows them.
func (g *game) move(o moveOrder) moveResult {
	units := o.units
	lead := units[0]
	side := lead.c.Side
	names := unitNames(units)
	start := lead.pos
	res := moveResult{end: start, used: map[string]int{}, mf: map[string]int{}}
	for _, u := range units {
		switch {
		case !u.alive():
			g.ev("10.2", "%s cannot move: it is not on the map.", u.ID)
			return res
		case u.pos != start:
			g.ev("10.4", "%s cannot move together: they are not in the same hex.", names)
			return res
		case u.Moved:
			g.ev("10.2", "%s has already moved this phase.", u.ID)
			return res
		case u.Fixed:
			what, rule := u.fixedWhat()
			g.ev(rule, "%s %s this player turn: it may not move.", u.ID, what)
			return res
		case u.c.AAA && u.Attacked:
			g.ev("12.2", "The 1st AAA attacked this player turn: it may not also move.")
			return res
		}
	}
	if side == nato && g.mandatory() {
		g.ev("9.3", "No NATO movement on a mandatory reconstitution turn: %s stays.", names)
		return res
	}
	path, alts := o.path, o.alts
	if side == nato && g.discretionary() {
		alts = nil // 9.4: one hex
		if len(path) > 1 {
			g.ev("9.4", "On a discretionary reconstitution turn %s may move only one hex: it moves to %s only.", names, g.hex(path[0]))
			path = path[:1]
		}
	}
	var zoc map[board.ID]bool
	if side == serb {
		zoc = g.zoc()
		if zoc[start] {
			g.ev("7.3", "%s began the phase in a NATO zone of control at %s: it may not move.", names, g.hex(start))
			return res
		}
	}
	n := g.net()
	for _, u := range units {
		q, why := g.movementFactor(u, n)
		res.mf[u.ID] = q
		if len(why) > 0 {
			g.ev("10.1", "%s has %s MP this phase (%s).", u.ID, fmtMP(q), strings.Join(why, ", "))
		}
	}
	if lead.c.AAA {
		return g.rebase(lead, path, res)
	}
	cur := start
	moving := slices.Clone(units) // the units still moving together
	entered := map[string]bool{}
	rest := path   // the hexes of the path being followed not yet entered
	onPath := true // following the order's own path, not an else path
	// leaveBehind drops the units that cannot follow when the stack may go
	// on without every one of them; it reports whether it did.
	leaveBehind := func(stuck []*unit, why func(*unit) string, rule string) bool {
		if len(stuck) == 0 || len(stuck) == len(moving) {
			return false
		}
		for _, u := range stuck {
			if !o.mayLeave(u) {
				return false
			}
		}
		moving = slices.DeleteFunc(moving, func(u *unit) bool { return slices.Contains(stuck, u) })
		for _, u := range stuck {
			res.left = append(res.left, u.ID+" at "+g.hex(cur))
			g.ev(rule, "%s %s: it is left behind at %s, and %s goes on without it.", u.ID, why(u), g.hex(cur), unitNames(moving))
		}
		return true
	}
	for {
		free := true // the stop leaves the units free to move on (an else path)
	walk:
		for len(rest) > 0 {
			next := rest[0]
			group := unitNames(moving)
			if !g.grid.Adjacent(cur, next) {
				g.ev("10.2", "%s: %s is not next to %s; the move stops at %s.", group, g.hex(next), g.hex(cur), g.hex(cur))
				break
			}
			// 10.8-10.20: what each unit pays to enter, or why it may not
			cost := map[*unit]int{}
			why := map[*unit]string{}
			var barred []*unit
			for _, u := range moving {
				c, _, w := g.enterCost(u, cur, next)
				cost[u] = c
				if w != "" {
					why[u] = w
					barred = append(barred, u)
				}
			}
			if !leaveBehind(barred, func(u *unit) string { return "may not enter " + g.hex(next) + " (" + why[u] + ")" }, "10.5, 10.8") && len(barred) > 0 {
				w := why[barred[0]]
				if len(moving) > 1 {
					w = barred[0].ID + ": " + w
				}
				g.ev("10.8", "%s may not enter %s: %s; the move stops at %s.", group, g.hex(next), w, g.hex(cur))
				break
			}
			group = unitNames(moving)
			enemy := false
			for _, u := range g.unitsAt(next) {
				if u.c.Side != side {
					enemy = true
				}
			}
			if enemy {
				g.ev("10.7", "%s may not enter %s: enemy units are there; the move stops at %s.", group, g.hex(next), g.hex(cur))
				break
			}
			if !g.fits(side, moving, next) {
				g.ev("6.4", "%s may not enter %s: it would be over-stacked (at any instant); the move stops at %s.", group, g.hex(next), g.hex(cur))
				break
			}
			extra := 0
			river := g.unbridged(cur, next)
			if river {
				switch {
				case lead.c.MEF:
					extra = 1
					g.ev("10.15", "The MEF pays 1 extra MP to cross the unbridged river %s/%s.", g.hex(cur), g.hex(next))
				default:
					// 10.15: one roll per Serbian stack, one per NATO unit
					extra = dice.Roll(g.r, 1, 6, fmt.Sprintf("WbT 10.15 river crossing, %s at %s/%s", group, g.hex(cur), g.hex(next)))[0]
				}
			}
			var short []*unit // the units whose MPs do not cover the cost (10.3, 10.15)
			for _, u := range moving {
				if res.used[u.ID]+cost[u]+extra*quarter > res.mf[u.ID] {
					short = append(short, u)
				}
			}
			left := func(u *unit) string { return fmtMP(res.mf[u.ID] - res.used[u.ID]) }
			if river {
				dropped := leaveBehind(short, func(u *unit) string {
					return fmt.Sprintf("has only %s MP left, not the %s the river crossing %s/%s costs with the roll of %d, and is stalled for the phase (10.15)", left(u), fmtMP(cost[u]+extra*quarter), g.hex(cur), g.hex(next), extra)
				}, "10.6, 10.15")
				if !dropped && len(short) > 0 {
					if len(moving) == 1 {
						g.ev("10.15", "%s rolls %d extra MP to cross the river %s/%s and has only %s left: it is stalled at %s for the phase.", group, extra, g.hex(cur), g.hex(next), left(moving[0]), g.hex(cur))
					} else {
						g.ev("10.15", "%s roll %d extra MP to cross the river %s/%s; %s has only %s left: the stack is stalled at %s for the phase.", group, extra, g.hex(cur), g.hex(next), short[0].ID, left(short[0]), g.hex(cur))
					}
					free = false // 10.15: "nor may it move off in any other direction"
					break walk
				}
				group = unitNames(moving)
				if !lead.c.MEF {
					g.ev("10.15", "%s crosses the unbridged river %s/%s for %d extra MP.", group, g.hex(cur), g.hex(next), extra)
				}
			} else if !leaveBehind(short, func(u *unit) string {
				return fmt.Sprintf("has %s MP left, not the %s to enter %s (10.3)", left(u), fmtMP(cost[u]), g.hex(next))
			}, "10.6") && len(short) > 0 {
				u := short[0]
				if len(moving) == 1 {
					g.ev("10.3", "%s has %s MP left, not the %s to enter %s; the move stops at %s.", group, left(u), fmtMP(cost[u]), g.hex(next), g.hex(cur))
				} else {
					g.ev("10.3", "%s: %s has %s MP left, not the %s to enter %s; the move stops at %s.", group, u.ID, left(u), fmtMP(cost[u]), g.hex(next), g.hex(cur))
				}
				break
			}
			for _, u := range moving {
				res.used[u.ID] += cost[u] + extra*quarter
				g.place(u, next)
				entered[u.ID] = true
			}
			g.Arrows = append(g.Arrows, arrow{From: g.hex(cur), To: g.hex(next), Kind: board.Move})
			cur, rest = next, rest[1:]
			g.enterHex(moving, next)
			if side == serb && zoc[next] {
				if len(rest) > 0 {
					g.ev("7.3", "%s enters the NATO zone of control at %s and stops.", unitNames(moving), g.hex(next))
				}
				free = false // 7.3: "may not move any farther that phase"
				break
			}
		}
		if len(rest) == 0 {
			break
		}
		i := -1
		if free {
			i = slices.IndexFunc(alts, func(a []board.ID) bool { return len(a) > 1 && a[0] == cur })
		}
		if i < 0 {
			g.ev("10.2", "%s stays at %s: the rest of its path (%s) is dropped.", unitNames(moving), g.hex(cur), g.hexList(rest))
			break
		}
		g.ev("10.2", "%s stops at %s and takes its alternative path (else): %s.", unitNames(moving), g.hex(cur), g.hexList(alts[i][1:]))
		rest, alts, onPath = alts[i][1:], alts[i+1:], false
	}
	for _, u := range units {
		u.Moved = u.Moved || entered[u.ID]
	}
	res.end, res.completed = cur, onPath && len(rest) == 0
	if entered[moving[0].ID] {
		g.ev("10.1", "%s %s %s to %s, %s.", unitNames(moving), verbS(len(moving), "moves", "move"), g.hex(start), g.placeName(cur), res.spent(moving))
	}
	return res
}

// spent says the MPs units spent of their factors: "2 of 8 MP", or for a
// stack "S-1 4.5 of 6 MP, S-2 4 of 4 MP".
func (r moveResult) spent(units []*unit) string {
	var out []string
	for _, u := range units {
		s := fmtMP(r.used[u.ID]) + " of " + fmtMP(r.mf[u.ID]) + " MP"
		if len(units) > 1 {
			s = u.ID + " " + s
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// verbS picks a verb's singular or plural form.
func verbS(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// rebase flies the 1st AAA (12.3): one MP a hex over any terrain, river
// and unit, never over neutral territory (3.2), to a hex it may end in; a
// path of one hex not next to it is the shortest flight there over in-play
// hexes. It flies the whole way or stays.
func (g *game) rebase(u *unit, path []board.ID, res moveResult) moveResult {
	start, mp := u.pos, res.mf[u.ID]
	if len(path) == 0 {
		return res
	}
	dest := path[len(path)-1]
	hexes, why := g.flight(start, path, mp)
	switch {
	case why != "":
		g.ev("12.3", "The 1st AAA cannot fly to %s: %s; it does not move.", g.hex(dest), why)
		return res
	case g.aaaMayEnd(dest) != "":
		g.ev("12.3", "The 1st AAA may not end its move in %s (%s): it does not move.", g.hex(dest), g.aaaMayEnd(dest))
		return res
	case hexes*quarter > mp:
		g.ev("10.3", "The 1st AAA has %s MP, not the %d a %d-hex rebasing costs: it does not move.", fmtMP(mp), hexes, hexes)
		return res
	case hexes > 1 && g.discretionary():
		g.ev("9.4", "On a discretionary reconstitution turn the 1st AAA may rebase only one hex: it does not fly the %d to %s.", hexes, g.hex(dest))
		return res
	}
	g.place(u, dest)
	u.Moved = true
	g.Arrows = append(g.Arrows, arrow{From: g.hex(start), To: g.hex(dest), Kind: board.Move})
	res.used[u.ID], res.end, res.completed = hexes*quarter, dest, true
	g.ev("10.1", "%s moves %s to %s, %s.", u.ID, g.hex(start), g.placeName(dest), res.spent([]*unit{u}))
	return res
}

// flight counts the hexes of the 1st AAA's flight along path (12.3), or
// says why it cannot fly it: a hex out of play (3.2), or a lone destination
// out of reach of its MP over in-play hexes.
func (g *game) flight(start board.ID, path []board.ID, mp int) (int, string) {
	if len(path) == 1 && !g.grid.Adjacent(start, path[0]) {
		if !g.grid.Contains(path[0]) || !g.inPlay(path[0]) {
			return 0, g.hex(path[0]) + " is neutral or off the theatre (3.2)"
		}
		n := g.aaaReach(start, path[0], mp/quarter)
		if n < 0 {
			return 0, fmt.Sprintf("it is more than %s MP away over in-play hexes (3.2, 12.3)", fmtMP(mp))
		}
		return n, ""
	}
	for _, id := range path {
		if !g.grid.Contains(id) || !g.inPlay(id) {
			return 0, g.hex(id) + " is neutral or off the theatre (3.2)"
		}
	}
	return len(path), ""
}

// hexList writes hexes for an event.
func (g *game) hexList(ids []board.ID) string {
	var hs []string
	for _, id := range ids {
		hs = append(hs, g.hex(id))
	}
	return strings.Join(hs, " ")
}

// enterHex changes control of a rump-Yugoslav city a ground unit enters
// (3.4); a Serbian recapture costs NATO a MePPs-loss check (4.6). The 1st
// AAA never takes control (12.5).
func (g *game) enterHex(units []*unit, id board.ID) {
	if !g.isCity(id) || !g.yugoslav(id) {
		return
	}
	h := g.hex(id)
	switch units[0].c.Side {
	case nato:
		if !g.natoControls(id) {
			g.Control = append(g.Control, h)
			g.ev("3.4", "NATO takes control of %s.", g.placeName(id))
		}
	case serb:
		if g.natoControls(id) {
			g.Control = removeString(g.Control, h)
			g.ev("3.4", "The Serbs regain control of %s.", g.placeName(id))
			g.meppsCheck("4.6", "the Serbs recaptured "+g.placeName(id))
		}
	}
}

func removeString(xs []string, x string) []string {
	out := xs[:0:0]
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

func unitNames(us []*unit) string {
	ids := make([]string, len(us))
	for i, u := range us {
		ids[i] = u.ID
	}
	return strings.Join(ids, "+")
}
