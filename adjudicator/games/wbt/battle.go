package wbt

// This file fights the battles of a combat phase on the calculator's
// functions (odds.go, combat.go, artillery.go, antitank.go): who may
// attack, every factor modifier and column shift from the map and the
// units, losses, MePPs, civilian casualties and advance after combat.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// attackOrder is a canonical attack order: "attack HEX with U1 U2
// [advance all|none|U...] [losses U...]".
type attackOrder struct {
	hex     string
	units   []string
	advance []string // nil not said (11.23: asked after the battle); ["none"]; ["all"] every survivor
	losses  []string
}

func parseAttackLine(line string) attackOrder {
	f := strings.Fields(line)
	var o attackOrder
	if len(f) > 1 {
		o.hex = f[1]
	}
	var cur *[]string
	for _, w := range f[2:] {
		switch w {
		case "with":
			cur = &o.units
		case "advance":
			cur = &o.advance
		case "losses":
			cur = &o.losses
		default:
			if cur != nil {
				*cur = append(*cur, w)
			}
		}
	}
	return o
}

func (o attackOrder) String() string {
	s := "attack " + o.hex + " with " + strings.Join(o.units, " ")
	if len(o.advance) > 0 {
		s += " advance " + strings.Join(o.advance, " ")
	}
	if len(o.losses) > 0 {
		s += " losses " + strings.Join(o.losses, " ")
	}
	return s
}

// aaaRange is the 1st AAA's range this turn: the option (10 by default,
// 12.1, 12.7), or the bad-weather die (12.8).
func (g *game) aaaRange() int {
	if g.Bad && g.BadRange > 0 {
		return g.BadRange
	}
	return g.AAARange
}

// aaaReach is the range count from the 1st AAA's base to a hex over any
// terrain and enemy units but never over neutral territory (12.6): -1 when
// it cannot be reached within limit.
func (g *game) aaaReach(from, to board.ID, limit int) int {
	if g.grid.Distance(from, to) > limit {
		return -1
	}
	dist := map[board.ID]int{from: 0}
	queue := []board.ID{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == to {
			return dist[cur]
		}
		if dist[cur] == limit {
			continue
		}
		for _, nb := range g.grid.Neighbours(cur) {
			if _, ok := dist[nb]; ok || !g.inPlay(nb) && g.area(nb) != "" {
				continue
			}
			if g.area(nb) == "" && nb != to {
				continue
			}
			dist[nb] = dist[cur] + 1
			queue = append(queue, nb)
		}
	}
	return -1
}

// direction is the direction (0-5) from hex a to its neighbour b, -1 if
// not adjacent.
func (g *game) direction(a, b board.ID) int {
	for d := range 6 {
		if g.grid.Neighbour(a, d) == b {
			return d
		}
	}
	return -1
}

// enveloping reports an enveloping attack (11.25) from attacking hexes in
// the directions dirs around the defender: two opposite hexes, three with
// one hex between each, or more than three.
func enveloping(dirs []int) bool {
	has := [6]bool{}
	n := 0
	for _, d := range dirs {
		if d >= 0 && d < 6 && !has[d] {
			has[d] = true
			n++
		}
	}
	if n > 3 {
		return true
	}
	for d := range 6 {
		if has[d] && has[(d+3)%6] {
			return true
		}
		if has[d] && has[(d+2)%6] && has[(d+4)%6] {
			return true
		}
	}
	return false
}

// combatTerrain is the defender's hex for the calculator: a city (11.13),
// else its natural terrain; a town adds one column left to its terrain
// (11.13, 11.22).
func (g *game) combatTerrain(id board.ID) (terrain, int) {
	if g.isCity(id) {
		return city, 0
	}
	t, err := parseTerrain(g.terrain(id))
	if err != nil {
		t = Clear
	}
	if g.isTown(id) {
		if t == Clear || t == forest {
			return town, 0
		}
		return t, -1
	}
	return t, 0
}

// mayAttackFrom checks one attacker against the defender hex (11.1-11.3,
// 11.12, 11.14, 12.1-12.6); it returns why not.
func (g *game) mayAttackFrom(u *unit, side side, d board.ID) string {
	switch {
	case u == nil:
		return "there is no such unit"
	case !u.alive():
		return "it is not on the map"
	case u.c.Side != side:
		return "it is not yours"
	case u.Attacked:
		return "it has already attacked this player turn (11.3)"
	case u.Fixed:
		what, rule := u.fixedWhat()
		return "it " + what + " this player turn (" + rule + ")"
	case u.c.AntiTank:
		return "anti-tank units never attack (11.21)"
	case u.c.AAA && u.Moved:
		return "the 1st AAA moved this player turn and may not also fight (12.2)"
	}
	if u.c.AAA {
		if r := g.aaaRange(); g.aaaReach(u.pos, d, r) < 0 {
			return fmt.Sprintf("the target is not within the 1st AAA's range of %d without crossing neutral territory (12.6, 12.8)", r)
		}
		return ""
	}
	if !g.grid.Adjacent(u.pos, d) {
		return "it is not adjacent to the defender (11.1)"
	}
	if mech(u) && (g.terrain(d) == "mountain" || g.terrain(u.pos) == "mountain") && g.sc.Map.Link(u.pos, d) == "" {
		return "mechanized units attack into or out of mountains only along a road (11.12, 11.14)"
	}
	return ""
}

// czhp reports the Czech, Hungarian and Polish units of 5.4 and 10.21.
func czhp(c *counter) bool {
	switch strings.ToLower(c.Nationality) {
	case "czech", "cz", "czech republic", "hungary", "hungarian", "h", "poland", "polish", "p":
		return true
	}
	return false
}

// attack resolves one attack order; it returns true when the battle waits
// for the defender's loss decision (the rest of the phase is kept in
// Pending).
func (g *game) attack(side side, line string, rest []string) bool {
	o := parseAttackLine(line)
	d, err := g.grid.Parse(o.hex)
	if err != nil {
		g.ev("11.1", "Attack on %s: %v.", o.hex, err)
		return false
	}
	where := g.placeName(d)
	switch {
	case side == nato && g.mandatory():
		g.ev("9.3", "No NATO attacks on a mandatory reconstitution turn: the attack on %s is not made.", where)
		return false
	case side == nato && g.discretionary():
		g.ev("9.4", "No NATO attacks on a discretionary reconstitution turn: the attack on %s is not made.", where)
		return false
	case slices.Contains(g.AttackedHexes, o.hex):
		g.ev("11.3", "%s has already been attacked this phase: a hex is attacked once a phase.", where)
		return false
	case g.terrain(d) == "marsh":
		g.ev("11.16", "No unit may attack into the marsh at %s.", where)
		return false
	case !g.inPlay(d):
		g.ev("3.2", "No attacks into neutral territory: %s.", where)
		return false
	}
	var defenders []*unit
	for _, u := range g.unitsAt(d) {
		if u.c.Side != side {
			defenders = append(defenders, u)
		}
	}
	if len(defenders) == 0 {
		g.ev("11.1", "There are no enemy units at %s to attack.", where)
		return false
	}
	var attackers []*unit
	for _, id := range o.units {
		u := g.byID[id]
		if why := g.mayAttackFrom(u, side, d); why != "" {
			g.ev("11.1", "%s does not attack %s: %s.", id, where, why)
			continue
		}
		if !slices.Contains(attackers, u) {
			attackers = append(attackers, u)
		}
	}
	if len(attackers) == 0 {
		g.ev("11.1", "No unit can make the attack on %s.", where)
		return false
	}
	g.AttackedHexes = append(g.AttackedHexes, o.hex)
	for _, u := range attackers {
		u.Attacked = true
		from := u.Hex
		g.Arrows = append(g.Arrows, arrow{From: from, To: o.hex, Kind: board.Attack})
	}
	// 12.7: the 1st AAA's defensive support, committed after the Serbian
	// declaration.
	var support *unit
	if side == serb {
		support = g.supportFor(d, defenders)
		g.airDefend(d, defenders)
	}
	n := g.net() // 8.4: supply at the instant the battle begins
	var notes, rules []string
	note := func(rule, format string, args ...any) {
		notes = append(notes, fmt.Sprintf(format, args...))
		rules = append(rules, strings.Split(rule, ", ")...)
	}

	// attack factors (A18 order: printed, 5.4, 8.4, 11.18, 11.14, 12.8)
	attack, nonArt := 0, 0
	var artillery []*unit
	allNonMech := true
	albMac := false
	for _, u := range attackers {
		if mech(u) {
			allNonMech = false
		}
		if u.c.Artillery {
			artillery = append(artillery, u)
			continue
		}
		f := u.c.AttackAt(u.Steps)
		var why []string
		if side == nato && czhp(u.c) && g.Sequence != "combat-move" {
			f = min(f, 1)
			why = append(why, "1 on a movement/combat turn (5.4)")
		}
		if side == nato {
			s := g.supply(u, n)
			if !s.OK {
				f /= 2
				why = append(why, "out of supply, halved (8.4)")
			} else if s.AlbMac && g.area(u.pos) != "Albania" && g.area(u.pos) != "Macedonia" {
				albMac = true
			}
		}
		if !u.c.MEF && !u.c.AAA && g.sc.Map.River(u.pos, d) {
			f /= 2
			why = append(why, "across a river, halved (11.18)")
		}
		if mech(u) && g.terrain(d) == "mountain" {
			f = (f + 1) / 2
			why = append(why, "mechanized into mountains, halved up (11.14)")
		}
		if u.c.AAA && g.Bad {
			f = (f + 1) / 2
			why = append(why, "bad weather, halved up (12.8)")
		}
		attack += f
		nonArt += f
		if len(why) > 0 {
			note(rulesIn(why), "%s attacks with %d (%s)", u.ID, f, strings.Join(why, ", "))
		}
	}
	if len(artillery) > 0 {
		rolled := artilleryFactors(len(artillery), g.r)
		for i, u := range artillery {
			if g.sc.Map.River(u.pos, d) {
				rolled[i] /= 2 // 11.18, rounded down
			}
			if mech(u) && g.terrain(d) == "mountain" {
				rolled[i] = (rolled[i] + 1) / 2 // 11.14, rounded up
			}
		}
		a := artilleryTotal(rolled, nonArt)
		attack += a
		note("11.20", "the artillery rolls %s: %d factors (at most the %d non-artillery ones, 11.20)", joinInts(rolled), a, nonArt)
	}
	// defense factors
	defense := 0
	var at []*unit
	for _, u := range defenders {
		if u.c.AntiTank {
			at = append(at, u)
			continue
		}
		f := u.c.DefenseAt(u.Steps)
		var why []string
		if u.c.Side == nato && !g.supply(u, n).OK {
			f /= 2
			why = append(why, "out of supply, halved (8.4)")
		}
		if u.c.AAA {
			f = (f + 1) / 2
			why = append(why, "the 1st AAA defends at half, rounded up (12.6)")
		}
		defense += f
		if len(why) > 0 {
			note(rulesIn(why), "%s defends with %d (%s)", u.ID, f, strings.Join(why, ", "))
		}
	}
	if len(at) > 0 {
		fs := antiTankDefense(len(at), allNonMech, g.r)
		for _, f := range fs {
			defense += f
		}
		if allNonMech {
			note("11.21", "anti-tank units defend with 1 each against non-mechanized attackers (11.21)")
		} else {
			note("11.21", "anti-tank units roll %s (11.21)", joinInts(fs))
		}
	}
	if support != nil {
		f := support.c.AttackAt(support.Steps)
		if g.Bad {
			f = (f + 1) / 2
		}
		defense += f
		note("12.7", "the 1st AAA supports the defense with %d (12.7%s)", f, map[bool]string{true: ", halved in bad weather, 12.8", false: ""}[g.Bad])
	}
	// column shifts
	terr, shifts := g.combatTerrain(d)
	if shifts != 0 {
		note("11.13, 11.22", "a town in %s: one more column left (11.13, 11.22)", terr)
	}
	if side == nato && g.sc.Milosevic[d] {
		shifts--
		note("11.19", "the Milosevic Line: one column left (11.19)")
	}
	var dirs []int
	aaaWithOthers := false
	for _, u := range attackers {
		if u.c.AAA {
			aaaWithOthers = len(attackers) > 1
			if !g.grid.Adjacent(u.pos, d) {
				continue
			}
		}
		dirs = append(dirs, g.direction(d, u.pos))
	}
	if enveloping(dirs) || aaaWithOthers {
		shifts++
		if aaaWithOthers {
			note("11.25, 12.6", "the 1st AAA attacks with other units: enveloping, one column right (12.6)")
		} else {
			note("11.25", "an enveloping attack: one column right (11.25)")
		}
	}
	if albMac {
		shifts--
		note("8.9", "attackers supplied from Albania or Macedonia: one column left (8.9)")
	}
	b := battle{Side: side, Attack: attack, Defense: defense, Terrain: terr, BadWeather: g.Bad, CombatFirst: g.Sequence == "combat-move", Shifts: shifts}
	out, err := Resolve(b, g.sc.CRT, g.r)
	if err != nil {
		g.ev("11.16", "The attack on %s cannot be made: %v.", where, err)
		return false
	}
	oddsR, text := oddsRules(b, out.Raw, out.Final)
	rules = append(rules, oddsR...)
	detail := ""
	if len(notes) > 0 {
		detail = " (" + strings.Join(notes, "; ") + ")"
	}
	res := ""
	if out.Roll > 0 {
		res = fmt.Sprintf("; the die rolls %d: %s", out.Roll, out.Result)
		rules = append(rules, "11.8")
	}
	if terr == city && (out.AttackerSteps != out.Result.Attacker || out.DefenderSteps != out.Result.Defender) {
		res += fmt.Sprintf(", doubled in the city to %d/%d", out.AttackerSteps, out.DefenderSteps)
		rules = append(rules, "11.13")
	}
	g.ev(ruleList(rules), "%s attacks %s with %s%s: %s%s.", side, where, unitNames(attackers), detail, text, res)
	if out.CivilianCasualties {
		single := countNationalities(attackers) == 1
		roll, _, length := civilianCasualties(single, g.Length, g.r)
		g.ev("13.0", "A NATO attack into a city rolled 6: civilian casualties. The deduction roll is %s: the game is now %d turns long%s.", roll, length,
			map[bool]string{true: " (the current turn is played out as the last)", false: ""}[g.Turn > length])
		g.Length = length
	}
	g.takeLosses(attackers, out.AttackerSteps, o.losses, side == nato, "attacker")
	if g.Over {
		return false
	}
	survivors := slices.DeleteFunc(slices.Clone(attackers), func(u *unit) bool { return !u.alive() })
	defSeat := sideSeat(1 - side)
	if support != nil {
		defenders = append(defenders, support)
	}
	if out.DefenderSteps > 0 && lossChoice(defenders, out.DefenderSteps) && len(g.Standing[defSeat+":losses"]) == 0 {
		g.Pending = &pending{Seat: defSeat, Phase: g.Phase, Hex: o.hex, Steps: out.DefenderSteps, Battle: line, Rest: slices.Clone(rest),
			Advance: o.advance, Attacker: ids(survivors), Defender: ids(defenders)}
		g.ev("11.9", "%s must choose which of %s lose %d step%s: the battle waits for that decision.", defSeat, unitNames(defenders), out.DefenderSteps, plural(out.DefenderSteps))
		return true
	}
	g.takeLosses(defenders, out.DefenderSteps, g.Standing[defSeat+":losses"], false, "defender")
	return g.finishBattle(side, d, survivors, o.advance, rest)
}

var ruleRef = regexp.MustCompile(`\((\d+\.\d+)\)`)

// rulesIn collects the "(n.m)" rule numbers of notes.
func rulesIn(why []string) string {
	var out []string
	for _, w := range why {
		for _, m := range ruleRef.FindAllStringSubmatch(w, -1) {
			out = append(out, m[1])
		}
	}
	return strings.Join(out, ", ")
}

// lossChoice reports whether losing steps among units leaves the owner a
// choice (11.9): more than one unit and not every step lost.
func lossChoice(units []*unit, steps int) bool {
	live, total := 0, 0
	for _, u := range units {
		if u.alive() {
			live++
			total += u.Steps
		}
	}
	return live > 1 && steps < total
}

func ids(us []*unit) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

func countNationalities(us []*unit) int {
	seen := map[string]bool{}
	for _, u := range us {
		seen[strings.ToLower(u.c.Nationality)] = true
	}
	return len(seen)
}

func ruleList(rules []string) string {
	var out []string
	for _, r := range rules {
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return strings.Join(out, ", ")
}

// takeLosses removes steps from units (11.9): in the owner's priority
// order, then the rest by id; the first step of a NATO attacking force
// with US, UK, French or German units from one of them (11.24); Serbian
// artillery only once every other unit is gone (11.20). NATO steps cost a
// MePP each (4.3). Losses beyond the units' steps are ignored.
func (g *game) takeLosses(units []*unit, steps int, priority []string, greatPowerRule bool, role string) {
	order := slices.Clone(units)
	rank := func(u *unit) int {
		if i := slices.Index(priority, u.ID); i >= 0 {
			return i
		}
		return len(priority)
	}
	slices.SortStableFunc(order, func(a, b *unit) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return compareID(a, b)
	})
	var took []string
	for k := 0; k < steps; k++ {
		var pick *unit
		gp := greatPowerRule && k == 0 && slices.ContainsFunc(order, func(u *unit) bool { return u.alive() && u.c.GreatPower() })
		nonArt := slices.ContainsFunc(order, func(u *unit) bool { return u.alive() && !u.c.Artillery })
		for _, u := range order {
			if !u.alive() || (gp && !u.c.GreatPower()) || (nonArt && u.c.Artillery) {
				continue
			}
			pick = u
			break
		}
		if pick == nil {
			break // 11.9: losses beyond the units' steps are ignored
		}
		pick.Steps--
		took = append(took, pick.ID)
		if pick.c.Side == nato {
			g.loseMePPs(1, "4.3", pick.ID+" lost a step")
		}
		if pick.Steps == 0 {
			g.eliminate(pick)
			g.ev("11.9", "%s is eliminated.", pick.ID)
		}
	}
	if len(took) > 0 {
		rule := "11.9"
		if greatPowerRule {
			rule = "11.9, 11.24"
		}
		if slices.ContainsFunc(units, func(u *unit) bool { return u.c.Artillery }) {
			rule += ", 11.20"
		}
		g.ev(rule, "The %s loses %d step%s: %s.", role, len(took), plural(len(took)), strings.Join(took, ", "))
	}
}

// finishBattle makes the MePPs checks of a battle (4.4, 4.5) and the
// advance after combat (11.23). An attack order that did not say whether
// to advance takes the attacker's standing "advancing" order; without one
// (or with "advancing ask") the battle waits for the attacker's advance
// decision when a survivor may advance: finishBattle then returns true
// with the rest of the phase's attacks kept in Pending.
func (g *game) finishBattle(side side, d board.ID, survivors []*unit, advance []string, rest []string) bool {
	cleared := true
	for _, u := range g.unitsAt(d) {
		if u.c.Side != side {
			cleared = false
		}
	}
	switch {
	case side == serb && len(survivors) > 0:
		g.meppsCheck("4.4", "a Serbian attack on "+g.placeName(d)+" with survivors")
	case side == nato && !cleared:
		g.meppsCheck("4.5", "a NATO attack on "+g.placeName(d)+" failed to clear the hex")
	}
	if g.Over || !cleared {
		return false
	}
	seat := sideSeat(side)
	if len(advance) == 0 {
		advance = g.Standing[seat+":advance"]
		if len(advance) > 0 && advance[0] != "ask" {
			g.ev("11.23", "The attack order did not say whether to advance into %s: %s's standing order is to advance %s.", g.placeName(d), seat, advance[0])
		}
	}
	if len(advance) == 0 || advance[0] == "ask" {
		var may []string
		for _, u := range survivors {
			if why := g.mayAdvance(side, u, d, nil); why == "" {
				may = append(may, u.ID)
			}
		}
		if len(may) == 0 {
			return false
		}
		g.Pending = &pending{Kind: "advance", Seat: seat, Phase: g.Phase, Hex: g.hex(d), Rest: slices.Clone(rest), Attacker: may}
		g.ev("11.23", "%s is cleared: %s must decide now whether %s advance%s into it; the combat phase waits for that decision.",
			g.placeName(d), seat, strings.Join(may, ", "), map[bool]string{true: "s", false: ""}[len(may) == 1])
		return true
	}
	g.advanceInto(side, d, survivors, advance)
	return false
}

// mayAdvance says why a surviving attacker may not advance into the
// cleared hex d alongside the units already moving, "" if it may (11.23,
// 12.4, 3.3, 10.13, 6.2, 6.3).
func (g *game) mayAdvance(side side, u *unit, d board.ID, movers []*unit) string {
	switch {
	case u.c.AAA:
		return "the 1st AAA never advances after combat (12.4)"
	case !g.grid.Adjacent(u.pos, d):
		return "it is not adjacent to the cleared hex (11.23)"
	case side == serb && !g.yugoslav(d):
		return "Serbian units may not advance out of rump-Yugoslavia (3.3)"
	case mech(u) && g.terrain(d) == "mountain" && g.sc.Map.Link(u.pos, d) == "":
		return "a mechanized unit may not advance into the mountains off the road (10.13, 11.23)"
	case !g.fits(side, append(slices.Clone(movers), u), d):
		return g.hex(d) + " would be over-stacked (6.2, 6.3, 11.23)"
	}
	return ""
}

// advanceInto moves the chosen survivors into the cleared hex (11.23).
func (g *game) advanceInto(side side, d board.ID, survivors []*unit, advance []string) {
	if len(advance) == 0 || advance[0] == "none" {
		return
	}
	var movers []*unit
	for _, u := range survivors {
		if advance[0] != "all" && !slices.Contains(advance, u.ID) {
			continue
		}
		if why := g.mayAdvance(side, u, d, movers); why != "" {
			if advance[0] != "all" || strings.Contains(why, "3.3") || strings.Contains(why, "10.13") {
				g.ev(rulesIn([]string{why}), "%s does not advance into %s: %s.", u.ID, g.hex(d), why)
			}
			continue
		}
		movers = append(movers, u)
	}
	for _, u := range movers {
		g.Arrows = append(g.Arrows, arrow{From: u.Hex, To: g.hex(d), Kind: board.Move})
		g.place(u, d)
	}
	if len(movers) > 0 {
		g.ev("11.23", "%s advance%s into %s.", unitNames(movers), map[bool]string{true: "s", false: ""}[len(movers) == 1], g.placeName(d))
		g.enterHex(movers, d)
	}
}

// supportFor finds the 1st AAA's defensive support for a Serbian attack on
// hex d, if NATO's standing orders commit it and it may give it (12.7).
func (g *game) supportFor(d board.ID, defenders []*unit) *unit {
	st := g.Standing[seatNATO+":support"]
	if len(st) == 0 || g.SupportUsed {
		return nil
	}
	if st[0] != "any" && !slices.Contains(st, g.hex(d)) {
		return nil
	}
	for _, u := range g.Units {
		if !u.alive() || !u.c.AAA || slices.Contains(defenders, u) {
			continue
		}
		if u.Moved || u.Attacked || u.Fixed {
			g.ev("12.7", "The 1st AAA moved or attacked this game turn: it cannot support %s.", g.hex(d))
			return nil
		}
		for _, nb := range g.grid.Neighbours(u.pos) {
			for _, e := range g.unitsAt(nb) {
				if e.c.Side == serb {
					g.ev("12.7", "Serbian units are next to the 1st AAA: it cannot support %s.", g.hex(d))
					return nil
				}
			}
		}
		if g.aaaReach(u.pos, d, g.aaaRange()) < 0 {
			continue
		}
		g.SupportUsed = true
		g.ev("12.7", "NATO commits the 1st AAA to support the defense of %s.", g.placeName(d))
		return u
	}
	return nil
}
