package pcs1995

// This file holds the air war (6.0-6.7): the air commitment, the
// strategic bombing missions (suppression, strategic bombing, airstrikes),
// air-to-air combat with its LP absorption, SAM fire and On-Call.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

func (a *air) name() string { return string(a.c.Side) + " " + a.ID }

// alive reports whether an air unit is still flying its mission.
func (a *air) alive() bool {
	return a.Box != boxSpent && a.Box != boxEliminated && a.Box != boxPool && a.Box != ""
}

func aliveOf(list []*air) []*air {
	var out []*air
	for _, a := range list {
		if a.alive() {
			out = append(out, a)
		}
	}
	return out
}

func airIDs(list []*air) string {
	if len(list) == 0 {
		return "none"
	}
	s := make([]string, len(list))
	for i, a := range list {
		s[i] = fmt.Sprintf("%s (ER %d)", a.ID, a.ER())
	}
	return strings.Join(s, ", ")
}

// ec makes an air unit's Effectiveness Check (3.3): -1 for the initiative
// side, +1 for a G in air-to-air combat (6.4).
func (g *game) ec(a *air, gInATAC bool, why string) (die int, ok bool) {
	die, _, ok = rollECDie(g.r, a.ER(), a.c.Side == g.Initiative, gInATAC, fmt.Sprintf("%s (ER %d), %s", a.name(), a.ER(), why))
	return die, ok
}

// spend puts an air unit into the Spent box (6.4.1, 6.7).
func (g *game) spend(a *air) { a.Box = boxSpent }

// damage flips an air unit and spends it, or eliminates it if it was
// already flipped (6.4.1, 6.6); an eliminated air unit is worth VP (11.1).
func (g *game) damage(a *air, rule, why string) {
	if a.Damaged {
		a.Box = boxEliminated
		if a.c.Side == NATO {
			g.gain(RS, 2, "11.1", fmt.Sprintf("%s, already damaged, is eliminated (%s)", a.name(), why))
		} else {
			g.gain(NATO, 1, "11.1", fmt.Sprintf("%s, already damaged, is eliminated (%s)", a.name(), why))
		}
		return
	}
	a.Damaged = true
	a.Box = boxSpent
	g.ev(rule, "%s is damaged (%s): flipped to its ER %d side and spent.", a.name(), why, a.ER())
}

// absorbAir absorbs LP in ATAC (6.4.1) for the owner: each unit takes at
// most one result a round, 1 LP aborting it to the Spent box, 2 LP
// damaging it (or eliminating it if already damaged). The umpire's policy
// keeps the most air power: aborts before damage, the lowest ER first,
// undamaged units damaged before damaged ones are eliminated; LP beyond
// what the units can take are lost.
func (g *game) absorbAir(units []*air, lp int, why string) {
	units = aliveOf(units)
	if lp <= 0 || len(units) == 0 {
		return
	}
	order := slices.Clone(units)
	slices.SortStableFunc(order, func(a, b *air) int {
		if a.ER() != b.ER() {
			return a.ER() - b.ER()
		}
		return strings.Compare(a.ID, b.ID)
	})
	n := len(order)
	l := min(lp, 2*n)
	twos := max(0, l-n)
	var dmg []*air
	for _, pass := range []bool{false, true} {
		for _, a := range order {
			if len(dmg) < twos && a.Damaged == pass {
				dmg = append(dmg, a)
			}
		}
	}
	ones := l - 2*twos
	var parts []string
	for _, a := range order {
		switch {
		case slices.Contains(dmg, a):
			parts = append(parts, a.ID+" 2 LP")
			g.damage(a, "6.4.1", why)
		case ones > 0:
			ones--
			parts = append(parts, a.ID+" aborts")
			g.spend(a)
		}
	}
	g.ev("6.4.1", "%s absorbs %d LP (%s): %s.", order[0].c.Side, l, why, strings.Join(parts, ", "))
}

// atacSide is one side of an air-to-air combat: its F fighting and the G
// on its mission.
type atacSide struct {
	side faction
	f, g []*air
}

// atac is air-to-air combat (6.4): two rounds of F against F, each F
// checking and every success an LP to the enemy, absorbed at the end of the
// round; then the surplus F attack the other side's G for up to two rounds,
// the G checking at +1 and their LP taken off the F's. In an interception
// only the interceptors (b) attack G; in combat air the side with more F
// left does (6.3.2, 6.5). It returns b's surplus F after the F rounds.
func (g *game) atac(a, b *atacSide, what string, interceptOnly bool) int {
	for round := 1; round <= 2; round++ {
		af, bf := aliveOf(a.f), aliveOf(b.f)
		if len(af) == 0 || len(bf) == 0 {
			break
		}
		toB, toA := 0, 0
		for _, x := range af {
			if _, ok := g.ec(x, false, fmt.Sprintf("ATAC round %d, %s", round, what)); ok {
				toB++
			}
		}
		for _, x := range bf {
			if _, ok := g.ec(x, false, fmt.Sprintf("ATAC round %d, %s", round, what)); ok {
				toA++
			}
		}
		g.ev("6.4", "ATAC round %d (%s): %s F %s score %d LP, %s F %s score %d LP.", round, what, a.side, airIDs(af), toB, b.side, airIDs(bf), toA)
		g.absorbAir(af, toA, fmt.Sprintf("ATAC round %d", round))
		g.absorbAir(bf, toB, fmt.Sprintf("ATAC round %d", round))
	}
	na, nb := len(aliveOf(a.f)), len(aliveOf(b.f))
	var hunter *atacSide
	var prey *atacSide
	surplus := 0
	switch {
	case nb > na:
		hunter, prey, surplus = b, a, nb-na
	case na > nb && !interceptOnly:
		hunter, prey, surplus = a, b, na-nb
	}
	if hunter == nil || len(aliveOf(prey.g)) == 0 {
		if nb > na {
			return nb - na
		}
		return 0
	}
	fs := aliveOf(hunter.f)
	slices.SortStableFunc(fs, func(x, y *air) int { return y.ER() - x.ER() })
	fs = fs[:surplus]
	g.ev("6.4", "%s has %d more F than %s after the F rounds: %s attack the G %s.", hunter.side, surplus, prey.side, airIDs(fs), airIDs(aliveOf(prey.g)))
	for round := 1; round <= 2; round++ {
		hf, pg := aliveOf(fs), aliveOf(prey.g)
		if len(hf) == 0 || len(pg) == 0 {
			break
		}
		byF, byG := 0, 0
		for _, x := range hf {
			if _, ok := g.ec(x, false, fmt.Sprintf("ATAC F against G round %d, %s", round, what)); ok {
				byF++
			}
		}
		for _, x := range pg {
			if _, ok := g.ec(x, true, fmt.Sprintf("ATAC G against F round %d, %s", round, what)); ok {
				byG++
			}
		}
		net := byF - byG
		g.ev("6.4", "ATAC F against G round %d: %s F score %d, %s G score %d (at +1): net %d.", round, hunter.side, byF, prey.side, byG, net)
		switch {
		case net > 0:
			g.absorbAir(pg, net, fmt.Sprintf("ATAC F against G round %d", round))
		case net < 0:
			g.absorbAir(hf, -net, fmt.Sprintf("ATAC F against G round %d", round))
		}
	}
	if nb > na {
		return nb - na
	}
	return 0
}

// samTarget is what SAM fire fires from (6.6): the targeted ground unit
// (nil for a mission without one, a strategic bombing).
func (g *game) samTarget(t *Unit) samTarget {
	if t == nil || !t.onMap() {
		return samTarget{NoTarget: true}
	}
	city := g.city(t.pos)
	home := city && g.controller(t.pos) == t.side() && g.sc.initial[t.pos] == t.side()
	return samTarget{UQR: t.c.UQR, City: city, HomeCity: home}
}

// sam fires SAM at a G air unit that completed its mission (6.6).
func (g *game) sam(a *air, target *Unit, what string) { g.samAt(a, g.samTarget(target), target, what) }

// samAt fires SAM from a target as it was when the mission struck it.
func (g *game) samAt(a *air, t samTarget, target *Unit, what string) {
	if !a.alive() {
		return
	}
	rolled, roll, _, dmg := rollSAM(g.r, t, fmt.Sprintf("by %s at %s after %s", other(a.c.Side), a.ID, what))
	from := "no targeted unit"
	if !t.NoTarget {
		from = fmt.Sprintf("%s (%s) targeted", target.ID, target.c.UQR)
	}
	switch {
	case !rolled:
		g.ev("6.6", "No SAM fire at %s: %s is UQR D and not in a city its side has held from the start.", a.name(), target.ID)
	case dmg:
		g.ev("6.6", "SAM fire at %s (%s) rolls %s: hit.", a.name(), from, roll)
		g.damage(a, "6.6", "SAM fire")
	default:
		g.ev("6.6", "SAM fire at %s (%s) rolls %s: no effect.", a.name(), from, roll)
	}
}

// onCall is the On-Call check after a mission (6.7): a success keeps the
// unit available, in the box its owner's oncall order names (by default an
// F goes to patrol, a G stays in ground support or interdiction, else goes
// to ground support); a failure spends it.
func (g *game) onCall(a *air, what string) {
	if !a.alive() {
		return
	}
	if _, ok := g.ec(a, false, "On-Call after "+what); !ok {
		g.spend(a)
		g.ev("6.7", "%s fails its On-Call check after %s: spent until the next Air Commitment Phase.", a.name(), what)
		return
	}
	def := boxPatrol
	if a.c.Type == "G" {
		def = boxGS
		if a.Box == boxInterdiction || a.Box == boxGS {
			def = a.Box
		}
	}
	box := g.decide(question{seat: seatOf(a.c.Side), kind: "oncall", key: "oncall:" + a.ID, def: def, auto: true})
	if box == "stay" || boxFits(a, box) != nil {
		box = a.Box
	}
	g.ev("6.7", "%s passes its On-Call check after %s and goes to the %s box.", a.name(), what, box)
	a.Box = box
}

// unplaced lists a side's air units not yet in a box this Air Commitment
// Phase.
func (g *game) unplaced(side faction) []*air {
	var out []*air
	for _, a := range g.Air {
		if a.c.Side == side && a.Box == "" {
			out = append(out, a)
		}
	}
	return out
}

// allocate is the Air Commitment Phase's placement (6.0): every air unit
// leaves its box, then the sides place one unit at a time, the initiative
// side first, each from its allocation script. A line's condition reads
// what the other side has placed so far. A side whose script has run out
// places its other units in their default boxes (F patrol, G ground
// support); in strict mode it is asked for each.
func (g *game) allocate() bool {
	if g.AirNext == "" {
		for _, a := range g.Air {
			if a.Box != boxPool && a.Box != boxEliminated {
				a.Box, a.Flown = "", false
			}
		}
		g.AirNext = g.Initiative
		g.ev("6.0", "Air Commitment Phase: every air unit leaves its box; %s places first.", g.Initiative)
	}
	for {
		side := g.AirNext
		if len(g.unplaced(side)) == 0 {
			side = other(side)
			if len(g.unplaced(side)) == 0 {
				break
			}
		}
		seat := seatOf(side)
		for {
			if len(g.Script[seat]) == 0 {
				if g.Strict {
					left := g.unplaced(side)
					g.Pending = &pending{Kind: phaseAir, Seat: seat, Question: fmt.Sprintf("your next air placement (6.0): %s to place; %s has placed %s",
						airIDs(left), other(side), g.placedText(other(side))), Hint: hintAir, Default: left[0].ID + " to its default box"}
					g.AirNext = side
					return false
				}
				a := g.unplaced(side)[0]
				a.Box = defaultBox(a)
				g.ev("6.0", "%s places %s in the %s box (no air line for it: its default box).", side, a.ID, a.Box)
				break
			}
			line := g.Script[seat][0]
			g.Script[seat] = g.Script[seat][1:]
			if g.placeAir(side, line) {
				break
			}
		}
		g.AirNext = other(side)
	}
	g.AirNext = ""
	for _, side := range []faction{g.Initiative, other(g.Initiative)} {
		g.ev("6.0", "%s air: %s.", side, g.placedText(side))
	}
	return true
}

func defaultBox(a *air) string {
	if a.c.Type == "F" {
		return boxPatrol
	}
	return boxGS
}

// placeAir carries out one line of an allocation script; false when the
// line places nothing (the unit is placed already or not in play).
func (g *game) placeAir(side faction, line string) bool {
	f := strings.Fields(line)
	a := g.airBy[f[1]]
	if a == nil || a.Box != "" {
		why := "it is not in play"
		if a != nil && a.Box != "" {
			why = "it is in the " + a.Box + " box already"
		}
		g.ev("6.0", "%s's line %q places nothing: %s.", side, line, why)
		return false
	}
	box := f[2]
	rest := f[3:]
	if len(rest) > 0 && rest[0] == "if" {
		var conds []string
		rest = rest[1:]
		for len(rest) > 0 && rest[0] != "else" {
			conds = append(conds, strings.Join(rest[:4], " "))
			rest = rest[4:]
			if len(rest) > 0 && rest[0] == "and" {
				rest = rest[1:]
			}
		}
		holds := true
		for _, c := range conds {
			cf := strings.Fields(c)
			n, _ := strconv.Atoi(cf[3])
			have := len(g.airOf(other(side), cf[1]))
			if !compare(have, cf[2], n) {
				holds = false
			}
		}
		if !holds {
			if len(rest) == 2 && rest[0] == "else" {
				box = rest[1]
			} else {
				box = defaultBox(a)
			}
			g.ev("6.0", "%s's condition %q does not hold (%s has placed %s): %s goes to %s.", side, strings.Join(conds, " and "), other(side), g.placedText(other(side)), a.ID, box)
		}
	}
	a.Box = box
	return true
}

func compare(have int, op string, n int) bool {
	switch op {
	case ">=":
		return have >= n
	case "<=":
		return have <= n
	case "<":
		return have < n
	case ">":
		return have > n
	}
	return have == n
}

// placedText lists how many air units a side has in each box.
func (g *game) placedText(side faction) string {
	var parts []string
	for _, b := range append(slices.Clone(boxes), boxSpent) {
		if n := len(g.airOf(side, b)); n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", b, n))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// planMissions lists the strategic bombing missions (6.1): the initiative
// side's suppression, strategic bombing and airstrikes in that order, then
// the other side's.
func (g *game) planMissions() []string {
	var plan []string
	for _, side := range []faction{g.Initiative, other(g.Initiative)} {
		seat := seatOf(side)
		if len(g.airOf(side, boxSuppression)) > 0 {
			plan = append(plan, seat+" suppression")
		}
		bomb := seat + " bombing"
		for _, m := range g.Missions[seat] {
			if strings.HasPrefix(m, "bomb escort ") {
				bomb += " escort " + strings.TrimPrefix(m, "bomb escort ")
			}
		}
		if len(g.airOf(side, boxBombing)) > 0 {
			plan = append(plan, bomb)
		}
		for _, m := range g.Missions[seat] {
			if strings.HasPrefix(m, "airstrike ") {
				plan = append(plan, seat+" "+m)
			}
		}
		if n := len(g.airOf(side, boxAirstrike)); n > 0 && !slices.ContainsFunc(g.Missions[seat], func(m string) bool { return strings.HasPrefix(m, "airstrike ") }) {
			g.ev("6.1.3", "%s has %d G in the airstrike box and no airstrike order: they fly no mission.", side, n)
		}
	}
	g.Missions = map[string][]string{}
	return plan
}

// bombing flies the strategic bombing missions (6.1), each a piece of work.
func (g *game) bombing(resume *work) bool {
	if resume != nil && !g.work(resume, g.mission) {
		return false
	}
	for len(g.Plan) > 0 {
		line := g.Plan[0]
		g.Plan = g.Plan[1:]
		f := strings.Fields(line)
		if !g.work(&work{Kind: "mission", Seat: f[0], Line: line}, g.mission) {
			return false
		}
	}
	return true
}

// listedAir picks the listed air units of a side that are in box and may
// fly; the others are named in an event.
func (g *game) listedAir(side faction, ids []string, box, what string) []*air {
	var missing []string
	var list []*air
	for _, id := range ids {
		a := g.airBy[id]
		if a != nil && a.c.Side == side && a.Box == box && !(a.Flown && isStrategic(box)) {
			list = append(list, a)
		} else if id != "" {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		g.ev("6.0", "%s: %s %s not available in the %s box for %s.", side, strings.Join(missing, ", "), plural(len(missing), "is", "are"), box, what)
	}
	return list
}

func isStrategic(box string) bool {
	return box == boxSuppression || box == boxBombing || box == boxAirstrike
}

// intercept asks the side whose air space a mission flies in how many of
// its patrol F intercept (6.2), and returns them (the highest ER first).
func (g *game) intercept(side faction, kind, what string) []*air {
	pool := aliveOf(g.airOf(side, boxPatrol))
	if len(pool) == 0 {
		return nil
	}
	v := g.decide(question{seat: seatOf(side), kind: "intercept", key: "intercept:" + kind,
		text: fmt.Sprintf("%s. Intercept with how many of your patrol F (%s)? (6.2, 6.4)", what, airIDs(pool)),
		hint: "Answer decide N, decide all or decide none.", def: "none"})
	n := count(v, len(pool))
	slices.SortStableFunc(pool, func(x, y *air) int { return y.ER() - x.ER() })
	out := pool[:n]
	if n > 0 {
		g.ev("6.2", "%s intercepts with %s.", side, airIDs(out))
	} else {
		g.ev("6.2", "%s does not intercept.", side)
	}
	return out
}

// mission flies one strategic bombing mission (6.1.1-6.1.3).
func (g *game) mission(w *work) {
	f := strings.Fields(w.Line)
	side := sideOf(f[0])
	enemy := other(side)
	switch f[1] {
	case "suppression":
		fs := g.airOf(side, boxSuppression)
		hits := 0
		for _, a := range fs {
			if _, ok := g.ec(a, false, "suppression"); ok {
				hits++
			}
			a.Flown = true
		}
		victims := aliveOf(g.airOf(enemy, boxPatrol))
		slices.SortStableFunc(victims, func(x, y *air) int { return x.ER() - y.ER() })
		victims = victims[:min(hits, len(victims))]
		for _, v := range victims {
			g.spend(v)
		}
		g.ev("6.1.1", "%s suppression with %s: %d success%s; %s puts %s into the Spent box.", side, airIDs(fs), hits, plural(hits, "", "es"), enemy, airIDs(victims))
		for _, a := range fs {
			g.onCall(a, "suppression")
		}
	case "bombing", "airstrike":
		var target *Unit
		box := boxBombing
		what := "strategic bombing"
		rule := "6.1.2"
		var gs []*air
		var escortIDs []string
		if f[1] == "airstrike" {
			box, rule = boxAirstrike, "6.1.3"
			target = g.byID[f[2]]
			gs = g.listedAir(side, strings.Split(f[4], ","), box, "the airstrike")
			if len(f) > 6 {
				escortIDs = strings.Split(f[6], ",")
			}
			if target == nil || !target.onMap() {
				g.ev(rule, "%s's airstrike on %s is called off: the target is no longer on the map.", side, f[2])
				return
			}
			what = fmt.Sprintf("airstrike on %s at %s", target.ID, g.placeName(target.pos))
		} else {
			for _, a := range g.airOf(side, box) {
				if !a.Flown {
					gs = append(gs, a)
				}
			}
			if len(f) > 3 {
				escortIDs = strings.Split(f[3], ",")
			}
		}
		if len(gs) == 0 {
			g.ev(rule, "%s's %s has no G to fly.", side, what)
			return
		}
		escorts := g.listedAir(side, escortIDs, boxPatrol, what)
		for _, a := range gs {
			a.Flown = true
		}
		g.ev(rule, "%s flies the %s with %s, escorted by %s.", side, what, airIDs(gs), airIDs(escorts))
		if target != nil {
			g.Marks = append(g.Marks, mark{Hex: target.Hex, Text: "airstrike"})
		}
		interceptors := g.intercept(enemy, f[1], fmt.Sprintf("%s flies the %s with %d G and %d escort%s", side, what, len(gs), len(escorts), plural(len(escorts), "", "s")))
		if len(interceptors) > 0 {
			g.atac(&atacSide{side: side, f: escorts, g: gs}, &atacSide{side: enemy, f: interceptors}, what, true)
			for _, a := range interceptors {
				g.onCall(a, "interception")
			}
		}
		for _, a := range escorts {
			g.onCall(a, "escort")
		}
		flying := aliveOf(gs)
		hits := 0
		for _, a := range flying {
			if _, ok := g.ec(a, false, what); ok {
				hits++
			}
		}
		samFrom := g.samTarget(target)
		switch {
		case len(flying) == 0:
			g.ev(rule, "No G of the %s is left in flight.", what)
		case hits == 0:
			g.ev(rule, "The %s fails: no G passes its EC.", what)
		case target == nil:
			g.gain(side, 1, "6.1.2", fmt.Sprintf("%s's strategic bombing succeeds (%d of %d EC)", side, hits, len(flying)))
		default:
			res := rollAirstrike(g.r, fmt.Sprintf("%s on %s", side, target.ID))
			if res == "routed" {
				g.ev(rule, "The airstrike hits (%d of %d EC) and the effect roll routs %s.", hits, len(flying), target.ID)
				g.rout(target, rule, "airstrike")
			} else {
				g.ev(rule, "The airstrike hits (%d of %d EC): %s becomes static.", hits, len(flying), target.ID)
				target.Static = true
			}
		}
		for _, a := range flying {
			g.samAt(a, samFrom, target, what)
		}
		for _, a := range flying {
			g.onCall(a, what)
		}
	}
}
