package pcs1995

// This file resolves ground combat on the map (8.0-8.4): the combat air of
// both sides, the chits drawn from the cup, the CSA the map gives (the same
// Combat.Resolve the calculator uses), the loser's LP absorption, retreats
// and the advance after combat.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// fight is one combat being resolved.
type fight struct {
	kind   kind
	lead   *Unit
	with   []*Unit // PA supporting units
	def    *Unit
	hex    board.ID // the combat hex: the defender's
	bid    int      // ME: MP spent for the CSA
	air    combatAir
	advBy  string // PA: "", "none", "lead", "list"
	adv    []advance
	noVPat bool // the attacker may not pay LP with VP (enemy interdiction, 6.3.2)
	noVPdf bool
}

// combat resolves a fight (8.0); it reports whether the defender's hex
// was vacated.
func (g *game) combat(f *fight) bool {
	att := f.lead.side()
	def := other(att)
	what := fmt.Sprintf("%s %s on %s", f.kind, f.lead.ID, g.placeName(f.hex))
	g.Arrows = append(g.Arrows, arrow{From: f.lead.Hex, To: g.hex(f.hex), Kind: "attack"})
	// 3.6: an overstacked hex attacked keeps one unit
	var defenders []*Unit
	for _, u := range g.occ[f.hex] {
		if u.side() == def {
			defenders = append(defenders, u)
		}
	}
	if len(defenders) == 0 {
		g.ev("8.0", "%s: no enemy unit is in %s.", what, g.placeName(f.hex))
		return true
	}
	if len(defenders) > 1 {
		slices.SortStableFunc(defenders, func(a, b *Unit) int {
			if a.c.UQR.Grade != b.c.UQR.Grade {
				return b.c.UQR.Grade - a.c.UQR.Grade
			}
			return strings.Compare(a.ID, b.ID)
		})
		for _, u := range defenders[1:] {
			g.takeOff(u, removed)
		}
		g.ev("3.6", "%s is overstacked when attacked: %s eliminates %s down to one unit, keeping %s.", g.placeName(f.hex), def, unitList(defenders[1:]), defenders[0].ID)
	}
	f.def = defenders[0]
	g.ev(map[kind]string{me: "7.3", pa: "7.4"}[f.kind], "%s: %s (%s) attacks %s (%s) in %s.", f.kind, f.lead.ID, f.lead.c.UQR, f.def.ID, f.def.c.UQR, g.placeName(f.hex))
	gsAtt, gsDef := g.combatAir(f, att, def, what)
	// 8.0: chits, CSA, dice
	c := combat{Kind: f.kind, AttackerUQR: f.lead.c.UQR, DefenderUQR: f.def.c.UQR, AttackerAir: gsAtt, DefenderAir: gsDef}
	switch {
	case f.lead.c.Armor && f.def.c.Armor:
		c.Armor = both
	case f.lead.c.Armor:
		c.Armor = attacker
	case f.def.c.Armor:
		c.Armor = defender
	}
	if f.kind == me {
		c.MP = f.bid
	}
	c.AttackerAdjacent = g.adjacentSupport(att, f.hex, f.lead)
	c.DefenderAdjacent = g.adjacentSupport(def, f.hex, f.def)
	c.AttackerFlanking = g.flanking(att, f.lead, f.hex)
	m := g.sc.Map
	if m.Terrain[f.hex] == mountainTerrain {
		c.Terrain = mountain
	}
	if g.city(f.hex) {
		c.City = plainCity
		if g.capital(f.hex) {
			c.City = capital
		}
	}
	switch {
	case m.River(f.lead.pos, f.hex):
		c.Hexside = river
	case m.Ridge(f.lead.pos, f.hex):
		c.Hexside = ridge
	}
	c.Naval = g.sc.naval[f.hex]
	c.NATO = attacker
	if att != NATO {
		c.NATO = defender
	}
	c.Highway = m.Link(f.lead.pos, f.hex) == "highway"
	au, du := c.UQRs()
	ca, ab := g.drawChit(att, f.lead)
	cd, db := g.drawChit(def, f.def)
	c.AttackerChit, c.DefenderChit = ca.CS(ab, au.Letter()), cd.CS(db, du.Letter())
	ad, dd := rollCombat(g.r, what)
	o := c.Resolve(ad, dd)
	attAdj, defAdj := c.Adjustments()
	sideName := func(b bool) string { return map[bool]string{false: "front", true: "back"}[b] }
	g.ev("8.0, 8.1", "%s: %s draws chit %s (%s, %s reads %d) + CSA %+d (%s) + die %d = FCR %d; %s draws chit %s (%s, %s reads %d) + CSA %+d (%s) + die %d = FCR %d.",
		what, f.lead.ID, ca.ID, sideName(ab), au.Letter(), c.AttackerChit, o.AttackerCSA, describe(attAdj), ad, o.AttackerFCR,
		f.def.ID, cd.ID, sideName(db), du.Letter(), c.DefenderChit, o.DefenderCSA, describe(defAdj), dd, o.DefenderFCR)
	if f.kind == pa {
		f.lead.Static = true
	}
	g.stopTrigger(seatOf(def), f.hex)
	if o.Victor == none {
		g.ev("8.0", "%s: the FCR are equal: no victor, no LP.", what)
		return false
	}
	rule := "8.2.1"
	if f.kind == pa {
		rule = "8.2.2"
	}
	if o.Victor == attacker && (c.Terrain == mountain || c.City != noCity || c.Highway) {
		rule += ", 8.2.3"
	}
	g.ev(rule, "%s: the %s is the victor, CD %d; at %d:1 the %s suffers %d LP.", what, o.Victor, o.CD, o.Ratio, o.LPSide, o.LP)
	loser, noVP := def, f.noVPdf
	if o.LPSide == attacker {
		loser, noVP = att, f.noVPat
	}
	g.absorbLP(f, loser, o.LP, noVP)
	vacated := !g.enemyAt(att, f.hex)
	if f.kind == pa && vacated && f.lead.onMap() {
		g.advancePA(f)
	}
	return vacated
}

func unitList(us []*Unit) string {
	s := make([]string, len(us))
	for i, u := range us {
		s[i] = u.ID
	}
	return strings.Join(s, ", ")
}

// drawChit draws a chit from the cup for a lead unit and flips it like a
// coin (3.5); an empty cup is refilled with the chits under the units.
func (g *game) drawChit(side faction, u *Unit) (*chit, bool) {
	if len(g.Cup) == 0 {
		g.Cup, g.Drawn = g.Drawn, nil
		slices.Sort(g.Cup)
		for _, o := range g.Units {
			o.Chits = nil
		}
		g.ev("3.5", "The cup is empty: every chit under a unit goes back into it.")
	}
	i := g.r.Draw(dice.Open, spec.Chit(len(g.Cup)), fmt.Sprintf("1995 3.5 %s draws a combat chit for %s from the cup of %d", side, u.ID, len(g.Cup)))[0]
	id := g.Cup[i]
	g.Cup = slices.Delete(g.Cup, i, i+1)
	g.Drawn = append(g.Drawn, id)
	back := dice.Roll(g.r, 1, 2, fmt.Sprintf("1995 3.5 side of %s's chit %s (1 front, 2 back)", side, id))[0] == 2
	u.Chits = append(u.Chits, id+map[bool]string{false: "F", true: "B"}[back])
	return g.sc.Chit(id), back
}

// supports reports whether a unit next to the combat hex may support it:
// non-Foot units may not across a ridge hexside (9.6).
func (g *game) supports(u *Unit, hex board.ID) bool {
	return u.c.GroundType() == foot || !g.sc.Map.Ridge(u.pos, hex)
}

// adjacentSupport counts a side's units next to the combat hex, the lead
// left out (8.1.2, 9.6).
func (g *game) adjacentSupport(side faction, hex board.ID, lead *Unit) int {
	n := 0
	for _, nb := range g.grid.Neighbours(hex) {
		for _, u := range g.occ[nb] {
			if u.side() == side && u != lead && g.supports(u, hex) {
				n++
			}
		}
	}
	return n
}

// flanking counts the units giving flank support (8.1.3): the enemy is
// flanked by a unit on the opposite side of the combat hex from the lead,
// or by units in three non-adjacent hexes around it (the lead may be one).
// Each qualifying unit other than the lead in such a position counts, at
// most two. Only fresh NATO and Russian units qualify; Serbian units
// qualify fresh or static.
func (g *game) flanking(side faction, lead *Unit, hex board.ID) int {
	dl := -1
	for d := 0; d < 6; d++ {
		if g.grid.Neighbour(hex, d) == lead.pos {
			dl = d
		}
	}
	if dl < 0 {
		return 0
	}
	qual := func(d int) bool {
		d = ((d % 6) + 6) % 6
		if d == dl {
			return true
		}
		nb := g.grid.Neighbour(hex, d)
		for _, u := range g.occ[nb] {
			if u.side() == side && g.supports(u, hex) && (!u.Static || u.c.Nationality == "Serbian") {
				return true
			}
		}
		return false
	}
	set := map[int]bool{}
	if qual(dl + 3) {
		set[(dl+3)%6] = true
	}
	for _, tri := range [][3]int{{0, 2, 4}, {1, 3, 5}} {
		if qual(tri[0]) && qual(tri[1]) && qual(tri[2]) {
			for _, d := range tri {
				if d != dl {
					set[d] = true
				}
			}
		}
	}
	return min(len(set), 2)
}

// combatAir commits both sides' ground support and interdiction G and
// their escorts (6.3.2, 6.5): the attacker's from its activation, then the
// defender's by its standing defend order (or a decision). It returns the
// ground support CSA of each side.
func (g *game) combatAir(f *fight, att, def faction, what string) (int, int) {
	aGS := aliveOf(g.listedAir(att, f.air.GS, boxGS, what))
	aIn := aliveOf(g.listedAir(att, f.air.Interdict, boxInterdiction, what))
	aEs := aliveOf(g.listedAir(att, f.air.Escort, boxPatrol, what))
	poolGS, poolIn, poolEs := aliveOf(g.airOf(def, boxGS)), aliveOf(g.airOf(def, boxInterdiction)), aliveOf(g.airOf(def, boxPatrol))
	var dGS, dIn, dEs []*air
	if len(poolGS)+len(poolIn)+len(poolEs) > 0 {
		v := g.decide(question{seat: seatOf(def), kind: "defend", key: "defend",
			text: fmt.Sprintf("%s attacks your %s: it commits ground support %s, interdiction %s, escorts %s. What do you commit? You have gs %s, interdiction %s, patrol %s (6.3.2, 6.5)",
				what, f.def.ID, airIDs(aGS), airIDs(aIn), airIDs(aEs), airIDs(poolGS), airIDs(poolIn), airIDs(poolEs)),
			hint: "Answer decide gs N interdict N escort N (a number, all or none each), or decide none.", def: "none"})
		dGS, dIn, dEs = pickDefend(v, poolGS, poolIn, poolEs)
	}
	if len(aGS)+len(aIn)+len(aEs)+len(dGS)+len(dIn)+len(dEs) == 0 {
		return 0, 0
	}
	g.ev("6.5, 6.3.2", "Combat air over %s: %s commits gs %s, interdiction %s, escorts %s; %s commits gs %s, interdiction %s, escorts %s.",
		g.placeName(f.hex), att, airIDs(aGS), airIDs(aIn), airIDs(aEs), def, airIDs(dGS), airIDs(dIn), airIDs(dEs))
	g.Marks = append(g.Marks, mark{Hex: g.hex(f.hex), Text: "air"})
	// ATAC occurs for the interdiction G if either side commits F (6.3.2),
	// for the ground support G only if both do (6.5): F of one side alone
	// attack only the other side's interdiction G
	aPrey, dPrey := slices.Concat(aGS, aIn), slices.Concat(dGS, dIn)
	switch {
	case len(aEs) > 0 && len(dEs) > 0:
	case len(aEs)+len(dEs) > 0:
		aPrey, dPrey = slices.Clone(aIn), slices.Clone(dIn)
		lone, prey := att, dIn
		if len(dEs) > 0 {
			lone, prey = def, aIn
		}
		what := "no ATAC"
		if len(prey) > 0 {
			what = "ATAC against the interdiction G only"
		}
		g.ev("6.5, 6.3.2", "Only %s commits F in %s: %s (interdiction G may be attacked when either side commits F, 6.3.2; ground support G only when both do, 6.5).", lone, f.name(g), what)
	}
	if len(aEs)+len(dEs) > 0 {
		g.atac(&atacSide{side: att, f: aEs, g: aPrey}, &atacSide{side: def, f: dEs, g: dPrey}, "combat air over "+g.hex(f.hex), false)
		for _, a := range append(slices.Clone(aEs), dEs...) {
			g.onCall(a, "the combat air escort of "+f.name(g))
		}
	}
	best := func(list []*air) int {
		m := 0
		for _, a := range aliveOf(list) {
			m = max(m, a.ER())
		}
		return m
	}
	gsA, gsD := best(aGS), best(dGS)
	if len(aliveOf(aIn)) > 0 {
		f.noVPdf = true
		g.ev("6.3.2", "%s's interdiction stays on mission: %s may not pay LP with VP in this combat.", att, def)
	}
	if len(aliveOf(dIn)) > 0 {
		f.noVPat = true
		g.ev("6.3.2", "%s's interdiction stays on mission: %s may not pay LP with VP in this combat.", def, att)
	}
	if gsA > 0 || gsD > 0 {
		g.ev("6.5", "Ground support CSA in %s: %s %+d, %s %+d (the highest ER of the G left on the mission).", f.name(g), att, gsA, def, gsD)
	}
	for _, a := range append(slices.Clone(aGS), aIn...) {
		g.sam(a, f.def, "combat air over "+g.hex(f.hex))
	}
	for _, a := range append(slices.Clone(dGS), dIn...) {
		g.sam(a, f.lead, "combat air over "+g.hex(f.hex))
	}
	for _, a := range slices.Concat(aGS, aIn, dGS, dIn) {
		g.onCall(a, "the combat air of "+f.name(g))
	}
	return gsA, gsD
}

// name is the fight as the events name it: "ME SR-63P on 2906".
func (f *fight) name(g *game) string {
	return fmt.Sprintf("%s %s on %s", f.kind, f.lead.ID, g.hex(f.hex))
}

// pickDefend reads a defend decision ("gs N interdict N escort N" or
// "none") against the units available, the highest ER first.
func pickDefend(v string, gs, in, es []*air) (a, b, c []*air) {
	if v == "none" {
		return nil, nil, nil
	}
	q := map[string]string{}
	f := strings.Fields(v)
	for i := 0; i+1 < len(f); i += 2 {
		q[f[i]] = f[i+1]
	}
	take := func(list []*air, n string) []*air {
		l := slices.Clone(list)
		slices.SortStableFunc(l, func(x, y *air) int { return y.ER() - x.ER() })
		return l[:count(n, len(l))]
	}
	return take(gs, q["gs"]), take(in, q["interdict"]), take(es, q["escort"])
}

// stopTrigger holds a seat's queue when its stop order names the hex an
// enemy attack was made on (or any): the seat is asked before its next
// activation.
func (g *game) stopTrigger(seat string, hex board.ID) {
	v := g.decide(question{seat: seat, kind: "stop", key: "stop", def: "none", auto: true})
	if v == "none" {
		return
	}
	list := strings.Fields(strings.TrimPrefix(v, "after attack on "))
	if slices.Contains(list, "any") || slices.Contains(list, g.hex(hex)) {
		if !g.Held[seat] {
			g.ev("7.0", "%s's stop order: its queue is held after the attack on %s; it will be asked before its next activation.", seat, g.placeName(hex))
		}
		g.Held[seat] = true
	}
}

// rout sends a unit to the routed box (5.3); a Russian unit is removed
// for good instead, without counting as surrendered.
func (g *game) rout(u *Unit, rule, why string) {
	if u.c.Nationality == "Russian" {
		g.takeOff(u, removed)
		g.ev(rule+", 5.3", "%s is routed (%s): a routed Russian unit is removed from the game.", u.ID, why)
		return
	}
	g.takeOff(u, routed)
	g.ev(rule, "%s is routed (%s).", u.ID, why)
}

// absorbLP has the loser of a combat absorb its LP (8.3): by its standing
// absorb order, or a decision. The options are taken in the order given
// while LP remain; any LP left rout the lead unit.
func (g *game) absorbLP(f *fight, loser faction, lp int, noVP bool) {
	if lp <= 0 {
		return
	}
	u := f.def
	isDef := loser != f.lead.side()
	if !isDef {
		u = f.lead
	}
	var support []*Unit
	if isDef {
		for _, nb := range g.grid.Neighbours(f.hex) {
			for _, o := range g.occ[nb] {
				if o.side() == loser && o.fresh() {
					support = append(support, o)
				}
			}
		}
	} else if f.kind == pa {
		for _, o := range f.with {
			if o.fresh() {
				support = append(support, o)
			}
		}
	}
	slices.SortStableFunc(support, func(a, b *Unit) int {
		if a.c.UQR.Grade != b.c.UQR.Grade {
			return a.c.UQR.Grade - b.c.UQR.Grade
		}
		return strings.Compare(a.ID, b.ID)
	})
	far := g.retreatPath(u, 3)
	near := g.retreatPath(u, 1)
	loc := !noVP && g.hasLOC(u, nil)
	var opts []string
	if isDef && u.fresh() {
		opts = append(opts, "static (1)")
	}
	if len(support) > 0 {
		opts = append(opts, fmt.Sprintf("support (%s: 1 each)", unitList(support)))
	}
	switch {
	case far != nil && u.c.UQR.Grade >= 3:
		opts = append(opts, "retreat (2-3 hexes: 2, or 1 hex: 1)")
	case near != nil:
		opts = append(opts, "retreat (1 hex: 1)")
	}
	if loc {
		opts = append(opts, "vp (1)")
	}
	opts = append(opts, "rout (all)")
	v := "rout"
	if len(opts) > 1 {
		v = g.decide(question{seat: seatOf(loser), kind: "absorb", key: "absorb",
			text: fmt.Sprintf("%s must absorb %d LP after the %s on %s (8.3). Options: %s", u.ID, lp, f.kind, g.placeName(f.hex), strings.Join(opts, ", ")),
			hint: "Answer decide OPTION... in your order (static support retreat vp rout), a retreat path may follow retreat: decide retreat 2306 2407 vp.",
			def:  "static support retreat vp rout"})
	}
	left := lp
	var done []string
	f2 := strings.Fields(v)
	// options that cannot absorb every LP before a rout listed after them
	// would be wasted: the unit routs at once instead.
	if i := slices.Index(f2, "rout"); i > 0 {
		capacity := 0
		for _, o := range f2[:i] {
			switch o {
			case "static":
				if isDef && u.fresh() {
					capacity++
				}
			case "support":
				capacity += len(support)
			case "retreat":
				switch {
				case far != nil && u.c.UQR.Grade >= 3:
					capacity += 2
				case near != nil:
					capacity++
				}
			case "vp":
				if loc {
					capacity++
				}
			}
		}
		if capacity < lp {
			g.ev("8.3", "%s's options before rout absorb only %d of the %d LP: %s is routed at once rather than spend them.", loser, capacity, lp, u.ID)
			f2 = []string{"rout"}
		}
	}
	for i := 0; i < len(f2) && left > 0; i++ {
		switch f2[i] {
		case "static":
			if isDef && u.fresh() {
				u.Static = true
				left--
				done = append(done, u.ID+" goes static (1)")
			}
		case "support":
			for _, o := range support {
				if left == 0 {
					break
				}
				if o.fresh() {
					o.Static = true
					left--
					done = append(done, o.ID+" goes static (1)")
				}
			}
		case "retreat":
			var path []board.ID
			for i+1 < len(f2) && !slices.Contains(absorbOptions, f2[i+1]) {
				i++
				if id, err := g.grid.Parse(f2[i]); err == nil {
					path = append(path, id)
				}
			}
			if len(path) > 0 {
				if why := g.retreatBar(u, path); why != "" {
					g.ev("8.3", "The retreat path %s for %s is refused (%s): the umpire picks one.", hexList(g, path), u.ID, why)
					path = nil
				}
			}
			if path == nil {
				if left >= 2 && u.c.UQR.Grade >= 3 && far != nil {
					path = far
				} else {
					path = near
				}
			}
			if path == nil || !u.onMap() {
				continue
			}
			n := 1
			if len(path) >= 2 {
				n = 2
			}
			from := u.Hex
			for _, h := range path {
				g.enter(u, h)
			}
			g.moveArrow(u, from)
			left = max(0, left-n)
			done = append(done, fmt.Sprintf("%s retreats %d hex%s to %s (%d)", u.ID, len(path), plural(len(path), "", "es"), g.placeName(u.pos), n))
			if g.ezoc(u.side(), u.pos) {
				g.ev("3.4", "%s ends its retreat in an enemy zone of control.", u.ID)
				g.rout(u, "3.4", "its retreat ended in an enemy zone of control")
				left = 0
			}
		case "vp":
			if loc && u.onMap() {
				g.gain(other(loser), 1, "8.3, 11.1", fmt.Sprintf("%s pays 1 LP with 1 VP (%s traces an LOC)", loser, u.ID))
				left--
				loc = false
				done = append(done, "1 VP (1)")
			}
		case "rout":
			if u.onMap() {
				done = append(done, u.ID+" is routed (all)")
				g.rout(u, "8.3", fmt.Sprintf("it absorbs %d LP", left))
				left = 0
			}
		}
	}
	if len(done) > 0 {
		g.ev("8.3", "%s absorbs %d LP: %s.", loser, lp, strings.Join(done, ", "))
	}
	if left > 0 && u.onMap() {
		g.rout(u, "8.3", fmt.Sprintf("%d LP are left that nothing else absorbs", left))
	}
}

func hexList(g *game, ids []board.ID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = g.hex(id)
	}
	return strings.Join(s, " ")
}

// retreatBar says why a retreat path is not allowed ("" if it is): each
// hex next to the one before, on land, free of enemy units, through enemy
// zones of control only where a friendly unit is, ending in an empty hex
// (3.4, 3.6, 8.3, 8.4); 2 or 3 hexes only for UQR A and B.
func (g *game) retreatBar(u *Unit, path []board.ID) string {
	side := u.side()
	if len(path) > 3 {
		return "a retreat is 1 to 3 hexes"
	}
	if len(path) >= 2 && u.c.UQR.Grade < 3 {
		return "only UQR A or B units retreat 2-3 hexes"
	}
	pos := u.pos
	seen := map[board.ID]bool{pos: true}
	for i, h := range path {
		switch {
		case !g.grid.Adjacent(pos, h):
			return g.hex(h) + " is not next to " + g.hex(pos)
		case !g.sc.Land(h):
			return g.hex(h) + " is not land"
		case g.enemyAt(side, h):
			return "an enemy unit holds " + g.hex(h)
		case seen[h]:
			return "the path goes back on itself"
		case i < len(path)-1 && g.ezoc(side, h) && !g.friendAt(side, h):
			return g.hex(h) + " is in an enemy zone of control without a friendly unit"
		case i == len(path)-1 && slices.ContainsFunc(g.occ[h], func(o *Unit) bool { return o != u }):
			return "another unit is in " + g.hex(h)
		}
		seen[h] = true
		pos = h
	}
	return ""
}

// retreatPath picks the umpire's retreat path of n hexes (3: the best of
// 2 or 3) towards a supply source and away from enemy units (8.4): never
// ending in an enemy zone of control; nil if there is none.
func (g *game) retreatPath(u *Unit, n int) []board.ID {
	if !u.onMap() {
		return nil
	}
	side := u.side()
	srcs := g.sources(side)
	var enemies []board.ID
	for _, o := range g.Units {
		if o.onMap() && o.side() != side {
			enemies = append(enemies, o.pos)
		}
	}
	score := func(h board.ID) (int, int) {
		away := 1 << 20
		for _, e := range enemies {
			away = min(away, g.grid.Distance(h, e))
		}
		to := 1 << 20
		for _, s := range srcs {
			to = min(to, g.grid.Distance(h, s))
		}
		return away, to
	}
	var best []board.ID
	bestAway, bestTo := -1, 0
	var try func(path []board.ID, pos board.ID, want int)
	try = func(path []board.ID, pos board.ID, want int) {
		if len(path) == want {
			if g.retreatBar(u, path) != "" || g.ezoc(side, path[len(path)-1]) {
				return
			}
			a, t := score(path[len(path)-1])
			if a > bestAway || a == bestAway && t < bestTo || a == bestAway && t == bestTo && len(path) > len(best) {
				best, bestAway, bestTo = slices.Clone(path), a, t
			}
			return
		}
		for _, nb := range g.grid.Neighbours(pos) {
			if !g.sc.Land(nb) || g.enemyAt(side, nb) || nb == u.pos || slices.Contains(path, nb) {
				continue
			}
			try(append(path, nb), nb, want)
		}
	}
	if n == 1 {
		try(nil, u.pos, 1)
	} else {
		try(nil, u.pos, 2)
		try(nil, u.pos, 3)
	}
	return best
}

// advancePA is the advance after a PA that vacated the combat hex (8.4):
// the AACMA is half a d8; each advancing unit enters the combat hex free,
// then moves along its path with the AACMA. Supporting units that advance
// go static; the others stay fresh in place.
func (g *game) advancePA(f *fight) {
	by, list := f.advBy, f.adv
	seat := seatOf(f.lead.side())
	if by == "" {
		// a standing advancing order decides before the roll; without one
		// the seat is asked once the AACMA is known
		by = g.decide(question{seat: seat, kind: "advancing", key: "advancing", def: "ask", auto: true})
		if by == "ask" {
			by = ""
		}
	}
	if by == "none" {
		g.ev("8.4", "%s is vacated; no unit advances.", g.placeName(f.hex))
		return
	}
	aacma := rollAACMA(g.r, fmt.Sprintf("%s's PA on %s", f.lead.side(), g.hex(f.hex)))
	g.ev("8.4", "%s is vacated: the AACMA is %d.", g.placeName(f.hex), aacma)
	if by == "" {
		v := g.decide(question{seat: seat, kind: "advance", key: "advancing",
			text: fmt.Sprintf("%s is vacated after your PA and the AACMA is %d: who advances? Lead %s, supporting %s (8.4)", g.placeName(f.hex), aacma, f.lead.ID, unitList(f.with)),
			hint: "Answer decide none, decide lead, or decide UNIT>HEX>HEX,UNIT (each enters the combat hex, then its path).",
			def:  "none"})
		by = v
		if v != "none" && v != "lead" {
			by, list = "list", parseAdvanceList(g, v)
		}
	}
	switch by {
	case "none":
		g.ev("8.4", "No unit advances into %s.", g.placeName(f.hex))
		return
	case "lead":
		list = []advance{{Unit: f.lead.ID}}
	}
	for _, ad := range list {
		u := g.byID[ad.Unit]
		if u == nil || !u.onMap() || u != f.lead && (!slices.Contains(f.with, u) || u.Static) || !g.grid.Adjacent(u.pos, f.hex) {
			g.ev("8.4", "%s may not advance: only the lead and fresh supporting units next to %s do.", ad.Unit, g.hex(f.hex))
			continue
		}
		if slices.ContainsFunc(g.occ[f.hex], func(o *Unit) bool { return o != u }) && len(ad.Path) == 0 {
			g.ev("8.4", "%s does not advance: %s is taken, and it has no path on.", u.ID, g.hex(f.hex))
			continue
		}
		from := u.Hex
		// entering the combat hex is movement: in an enemy zone of
		// control the unit stops there, as an ME's advance does (3.4);
		// a city it enters becomes its side's, which no enemy ZOC enters
		var steps []step
		why := ""
		if stop := !g.city(f.hex) && g.ezoc(u.side(), f.hex); stop && len(ad.Path) > 0 {
			why = "ezoc-entry"
		} else {
			steps, why = g.walk(u, f.hex, ad.Path, aacma*2, false)
		}
		steps = append([]step{{hex: f.hex, left: aacma * 2}}, steps...)
		steps, trimmed := g.trimStack(u, steps)
		if len(steps) == 0 {
			g.ev("8.4", "%s does not advance: every hex of its advance is taken (3.6).", u.ID)
			continue
		}
		for _, s := range steps {
			g.enter(u, s.hex)
		}
		u.Static = true
		g.moveArrow(u, from)
		note := ""
		switch {
		case trimmed:
			note = " (it stops short: only one unit may end in a hex, 3.6)"
		case why == "ezoc":
			note = " (an enemy zone of control stops it, 3.4)"
		case why == "ezoc-entry":
			note = " (the combat hex is in an enemy zone of control: it stops there, 3.4)"
		case why != "":
			note = " (" + why + ")"
		}
		g.ev("8.4", "%s advances into %s and ends in %s%s; it is static.", u.ID, g.hex(f.hex), g.placeName(u.pos), note)
	}
}

func parseAdvanceList(g *game, v string) []advance {
	var out []advance
	for _, part := range strings.Split(v, ",") {
		f := strings.Split(part, ">")
		ad := advance{Unit: f[0]}
		for _, h := range f[1:] {
			if id, err := g.grid.Parse(h); err == nil {
				ad.Path = append(ad.Path, id)
			}
		}
		out = append(out, ad)
	}
	return out
}
