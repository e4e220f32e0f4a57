package wbt

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// This file briefs the seat a step waits for (issue 31): what the phase
// asks, each unit's or decision's order lines, checked by the order parser
// itself, and the standing orders in force (docs/orders-wbt.md, "The
// pre-filled order file").

// briefMax is the most lines a choice of a unit offers.
const briefMax = 30

// Brief implements adjudicator.Briefer, phase by phase: the set-up's
// neutrals, UK 3rd and a few set-up hexes a unit; the weather phase's
// sequence, reconstitution and aerial supply; each unit's moves (a path
// to each hex it reaches, or its bridge work and dismounting); each
// attacked hex's attacks; the loss and advance decisions (every answer);
// and, in every step, the standing orders that change what is in force.
// Lines never conflict: set-up hexes and move destinations are kept apart
// and off every unit's hex, each bridge gets one worker, each attacker one
// hex.
func (rules) Brief(state []byte, seat string) adjudicator.Brief {
	g, err := decode(state)
	if err != nil {
		return adjudicator.Brief{Asks: err.Error()}
	}
	if g.Over {
		return adjudicator.Brief{}
	}
	if s, _ := g.owing(); s != seat {
		return adjudicator.Brief{Asks: fmt.Sprintf("No orders are due from %s in this step (%s): %s's are.", seat, g.label(), s)}
	}
	// the brief changes nothing: the supply net and the zones of control
	// are worked out once
	g.still = &stillPosition{}
	g.still.net = g.net()
	g.still.zoc = g.zoc()
	b := &briefer{g: g, seat: seat, side: seatSide(seat)}
	var out adjudicator.Brief
	switch g.Phase {
	case phaseSetupNATO:
		out.Asks = "Set NATO up (3.1, 3.2, 4.2, 4.8): bring neutrals in, bring in the UK 3rd Division, and move units off their demo set-up hexes."
		out.Choices = b.setupNATO()
	case phaseSetupSerb:
		out.Asks = "Set the Serbs up (3.1, 3.3): move units off their demo set-up hexes within rump-Yugoslavia."
		out.Choices = b.places()
	case phaseWeather:
		out.Asks = fmt.Sprintf("Turn %d, NATO weather and reconstitution phase (5.3, 5.4, 9.2): choose NATO's sequence and whether to reconstitute, before the weather die.", g.Turn)
		out.Choices = b.weather()
	case phaseNATOMove, phaseSerbMove:
		out.Asks = fmt.Sprintf("%s: move your units (10.1-10.21), one move order a unit; bridge work and dismounting keep a unit in place.", strings.ToUpper(g.label()[:1])+g.label()[1:])
		out.Choices = b.movement()
	case phaseNATOCombat, phaseSerbCombat:
		out.Asks = fmt.Sprintf("%s: declare your attacks (11.1-11.4), each hex attacked once and each unit in one attack; battles are fought in the order given.", strings.ToUpper(g.label()[:1])+g.label()[1:])
		out.Choices = b.combat()
	case phaseLosses:
		out.Asks = fmt.Sprintf("Battle at %s: your defenders lose %d step%s; name the unit for each step (11.9, 11.20: artillery last).", g.Pending.Hex, g.Pending.Steps, plural(g.Pending.Steps))
		out.Choices = b.losses()
	case phaseAdvance:
		out.Asks = fmt.Sprintf("Battle at %s: the hex is cleared; choose which surviving attackers advance into it (11.23).", g.Pending.Hex)
		out.Choices = b.advance()
	}
	out.Choices = append(out.Choices, b.standing()...)
	return out
}

// briefer checks a brief's candidate lines with the order parser.
type briefer struct {
	g    *game
	seat string
	side side
}

// legal reports whether the parser takes lines as a file of the seat,
// each checked against the others.
func (b *briefer) legal(lines ...string) bool {
	_, problems := b.g.parseLines(b.seat, adjudicator.NumberLines(lines...), nil)
	return len(problems) == 0
}

// keep adds each candidate the parser takes alone to lines.
func (b *briefer) keep(lines []string, cands ...string) []string {
	return adjudicator.Keep(lines, 0, func(l string) bool { return b.legal(l) }, cands...)
}

// about names a unit as the units table does: id, type, factors, hex,
// steps, and its supply and state.
func (b *briefer) about(u *unit) string {
	s := fmt.Sprintf("%s %s (%s) at %s: %s, %d of %d steps", u.ID, u.c.Type, mobilityOf(u), u.Hex, u.c.Factors(max(u.Steps, 1)), u.Steps, u.c.MaxSteps())
	var st []string
	if u.c.Side == nato && u.alive() && !b.g.supplied(u).OK {
		st = append(st, "out of supply")
	}
	if u.Dismounted {
		st = append(st, "dismounted")
	}
	if len(st) > 0 {
		s += " (" + strings.Join(st, ", ") + ")"
	}
	return s
}

// mine are the seat's units on the map, by id.
func (b *briefer) mine() []*unit {
	var out []*unit
	for _, u := range b.g.Units {
		if u.c.Side == b.side && u.alive() {
			out = append(out, u)
		}
	}
	slices.SortFunc(out, compareID)
	return out
}

// setupNATO is NATO's set-up: the neutrals, the UK 3rd, and each unit's
// set-up hexes.
func (b *briefer) setupNATO() []adjudicator.Choice {
	var out []adjudicator.Choice
	var ns []string
	for mask := 1; mask < 1<<len(neutralsAll); mask++ {
		var set []string
		for i, n := range neutralsAll {
			if mask&(1<<i) != 0 {
				set = append(set, n)
			}
		}
		ns = append(ns, "neutrals "+strings.Join(set, " "))
	}
	out = append(out, adjudicator.Choice{About: "the neutrals NATO brings in (3.2; each costs a halved die of MePPs, 4.2)", Lines: b.keep(nil, ns...), Default: "none comes in"})
	out = append(out, adjudicator.Choice{About: "the UK 3rd Division (4.8: a MePPs-loss check)", Lines: b.keep(nil, "uk3 yes"), Default: "it stays out"})
	return append(out, b.places()...)
}

// setupPlaces is how many set-up hexes a unit is offered.
const setupPlaces = 6

// places are the seat's set-up choices: for each unit in play, the hexes
// nearest its demo hex where it may set up whatever the neutrals, none
// another unit's demo hex or another unit's offer, so that no two
// placements over-stack (3.1, 3.2, 3.3, 6.2, 6.3).
func (b *briefer) places() []adjudicator.Choice {
	taken := map[board.ID]bool{}
	for _, u := range b.g.Units {
		if u.c.Side == b.side {
			taken[u.c.Hex] = true
			if u.Hex != "" {
				taken[u.pos] = true
			}
		}
	}
	all := b.g.grid.All()
	var out []adjudicator.Choice
	for _, u := range b.mine() {
		if u.c.Needs != "" {
			continue // in play only by the file's neutrals or uk3 line
		}
		var near []board.ID
		for _, id := range all {
			if d := b.g.grid.Distance(u.pos, id); d > 0 && d <= 4 && !taken[id] && b.g.setupArea(u.c, id, []string{}) == "" {
				near = append(near, id)
			}
		}
		slices.SortStableFunc(near, func(x, y board.ID) int { return b.g.grid.Distance(u.pos, x) - b.g.grid.Distance(u.pos, y) })
		var lines []string
		for _, id := range near {
			if len(lines) == setupPlaces {
				break
			}
			if l := "place " + u.ID + " " + b.g.hex(id); b.legal(l) {
				lines = append(lines, l)
				taken[id] = true
			}
		}
		if len(lines) > 0 {
			out = append(out, adjudicator.Choice{About: b.about(u), Lines: lines, Default: "it sets up at " + u.Hex})
		}
	}
	return out
}

// weather is the weather and reconstitution phase's choices (5.3, 5.4,
// 9.2, 9.4, 8.10).
func (b *briefer) weather() []adjudicator.Choice {
	out := []adjudicator.Choice{{About: "NATO's sequence this turn (5.4: combat first shifts NATO attacks 1 right)",
		Lines:   b.keep(nil, "sequence combat-move", "sequence combat-move if good", "sequence combat-move if bad"),
		Default: "movement, then combat"}}
	if l := b.keep(nil, "reconstitute", "reconstitute if good", "reconstitute if bad"); len(l) > 0 {
		out = append(out, adjudicator.Choice{About: "a discretionary reconstitution (9.2, 9.4)", Lines: l, Default: "none"})
	}
	return append(out, b.airSupply()...)
}

// airSupply offers aerial supply (8.10) at each hex of a NATO unit out of
// supply, when the marker may still be placed this game turn.
func (b *briefer) airSupply() []adjudicator.Choice {
	if b.side != nato {
		return nil
	}
	n := b.g.net()
	var lines []string
	for _, u := range b.mine() {
		if !b.g.supply(u, n).OK && len(lines) < briefMax {
			lines = b.keep(lines, "airsupply "+u.Hex)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return []adjudicator.Choice{{About: "aerial supply for a unit out of supply (8.10, once per good-weather game turn)", Lines: lines, Default: "no aerial supply"}}
}

// movement is a movement phase's choices: a NATO demolition, and each
// unit's moves and bridge work (10.2-10.21).
func (b *briefer) movement() []adjudicator.Choice {
	g := b.g
	var out []adjudicator.Choice
	// bridge work: one worker a bridge (10.18, 10.19: one attempt a bridge
	// a phase)
	work := map[string][]string{}
	if b.side == nato {
		var lines []string
		for _, p := range g.Intact {
			lines = b.keep(lines, "demolish "+p)
		}
		if len(lines) > 0 {
			out = append(out, adjudicator.Choice{About: "a bridge to demolish (10.19: automatic for NATO)", Lines: lines, Default: "no demolition"})
		}
	}
	for _, p := range sortedPairs(g.sc.Bridges) {
		for _, u := range g.unitsNear(b.side, p) {
			l := "demolish " + u.ID + " " + p.String()
			if b.side == nato {
				l = "repair " + u.ID + " " + p.String()
			}
			if b.legal(l) {
				work[u.ID] = append(work[u.ID], l)
				break
			}
		}
	}
	// moves: destinations kept apart and off every unit's hex; NATO paths
	// (one unit a hex at any instant, 6.2, 6.4) also off the others'
	// destinations
	claimed, passed := map[board.ID]bool{}, map[board.ID]bool{}
	for _, u := range g.Units {
		if u.c.Side == b.side && u.alive() {
			claimed[u.pos] = true
		}
	}
	var zoc, mayZOC map[board.ID]bool
	if b.side == serb {
		zoc, mayZOC = g.zoc(), b.possibleZOC()
	}
	n := g.net()
	for _, u := range b.mine() {
		lines := slices.Clone(work[u.ID])
		for _, verb := range []string{"dismount", "remount"} {
			if g.mountable(u, verb == "dismount") == "" {
				lines = b.keep(lines, verb+" "+u.ID)
			}
		}
		lines = append(lines, b.moves(u, n, zoc, mayZOC, claimed, passed)...)
		if len(lines) > 0 {
			out = append(out, adjudicator.Choice{About: b.about(u), Lines: lines, Default: "it stays"})
		}
	}
	return out
}

// moves are a unit's move orders: a path to each hex it reaches with its
// movement factor (every unbridged river counted at its worst), spread
// over the reach, the cheapest first; it claims their destinations, and for NATO the hexes
// passed. A Serbian path ends at the first hex of mayZOC: zones of control
// that earlier moves of the file may bring back by restoring a NATO unit's
// supply (7.3, 7.4).
func (b *briefer) moves(u *unit, n *supplyNet, zoc, mayZOC, claimed, passed map[board.ID]bool) []string {
	g := b.g
	if u.Fixed || u.Moved || zoc[u.pos] || (b.side == nato && g.mandatory()) {
		return nil
	}
	mp, _ := g.movementFactor(u, n)
	dist, prev := g.reachTree(u, mp, mayZOC)
	var dests []board.ID
	for id := range dist {
		if id == u.pos || claimed[id] || passed[id] || b.side == nato && g.discretionary() && prev[id] != u.pos {
			continue
		}
		free := true // NATO: no hex passed is held or another's destination
		for h := prev[id]; b.side == nato && h != u.pos; h = prev[h] {
			free = free && !claimed[h]
		}
		if free {
			dests = append(dests, id)
		}
	}
	slices.SortFunc(dests, func(x, y board.ID) int {
		if d := dist[x] - dist[y]; d != 0 {
			return d
		}
		if x.Col != y.Col {
			return x.Col - y.Col
		}
		return x.Row - y.Row
	})
	stride := max(1, (len(dests)+briefMax-1)/briefMax)
	var lines []string
	var mine []board.ID
	for i := 0; i < len(dests); i += stride {
		p := pathTo(u.pos, prev, dests[i])
		l := "move " + u.ID
		for _, h := range p {
			l += " " + g.hex(h)
		}
		if b.legal(l) {
			lines = append(lines, l)
			mine = append(mine, dests[i])
			if b.side == nato {
				for _, h := range p[:len(p)-1] {
					passed[h] = true
				}
			}
		}
	}
	for _, id := range mine {
		claimed[id] = true
	}
	return lines
}

// possibleZOC are the hexes in a NATO zone of control were every NATO
// unit in supply (7.1, 7.2, 7.4).
func (b *briefer) possibleZOC() map[board.ID]bool {
	g := b.g
	out := map[board.ID]bool{}
	if g.mandatory() {
		return out
	}
	for _, u := range g.Units {
		if !u.alive() || u.c.Side != nato || u.c.KLA {
			continue
		}
		mech := u.c.Mobility == Mech && !u.Dismounted
		for _, nb := range g.grid.Neighbours(u.pos) {
			if !(mech && g.terrain(nb) == "mountain") {
				out[nb] = true
			}
		}
	}
	return out
}

// combat is a combat phase's choices: each enemy hex some unit may
// attack, with the units given to it (each unit to one hex, 11.3), or,
// when no attack is possible, the Serbs' maximum effort (5.6).
func (b *briefer) combat() []adjudicator.Choice {
	g := b.g
	o := g.occupancy()
	var targets []board.ID
	for id := range o.enemyOf(b.side) {
		targets = append(targets, id)
	}
	board.SortIDs(targets)
	can := map[*unit][]board.ID{}
	var attackers []*unit
	for _, u := range b.mine() {
		for _, d := range targets {
			if g.mayAttackFrom(u, b.side, d) == "" && b.legal(fmt.Sprintf("attack %s with %s", g.hex(d), u.ID)) {
				can[u] = append(can[u], d)
			}
		}
		if len(can[u]) > 0 {
			attackers = append(attackers, u)
		}
	}
	// the units with the fewest targets first, each to the target with
	// the fewest attackers so far
	slices.SortStableFunc(attackers, func(x, y *unit) int { return len(can[x]) - len(can[y]) })
	given := map[board.ID][]*unit{}
	for _, u := range attackers {
		best := can[u][0]
		for _, d := range can[u][1:] {
			if len(given[d]) < len(given[best]) {
				best = d
			}
		}
		given[best] = append(given[best], u)
	}
	var out []adjudicator.Choice
	for _, d := range targets {
		us := given[d]
		if len(us) == 0 {
			continue
		}
		slices.SortFunc(us, compareID)
		all := strings.Join(ids(us), " ")
		head := "attack " + g.hex(d) + " with "
		cands := []string{head + all, head + all + " advance all", head + all + " advance none"}
		if len(us) > 1 {
			for _, u := range us {
				cands = append(cands, head+u.ID)
			}
		}
		if len(us) > 2 {
			for i := range us {
				rest := slices.Concat(us[:i:i], us[i+1:])
				cands = append(cands, head+strings.Join(ids(rest), " "))
			}
		}
		var defenders []string
		for _, e := range o.enemyOf(b.side)[d] {
			defenders = append(defenders, e.ID)
		}
		slices.Sort(defenders)
		out = append(out, adjudicator.Choice{About: fmt.Sprintf("the attack on %s (%s, %s)", g.placeName(d), strings.Join(defenders, " "), g.terrain(d)),
			Lines: b.keep(nil, cands...), Default: "it is not attacked"})
	}
	if len(out) == 0 && b.side == serb {
		if l := b.keep(nil, "maximum-effort"); len(l) > 0 {
			out = append(out, adjudicator.Choice{About: "the Serbian maximum effort (5.6: once a game, movement first this turn; the combat phase follows)", Lines: l, Default: "no maximum effort"})
		}
	}
	return out
}

// losses is the defender's loss decision: every way to name a defender
// for each step (11.9), artillery last (11.20), as the parser takes it.
func (b *briefer) losses() []adjudicator.Choice {
	g, p := b.g, b.g.Pending
	var plain, art []*unit
	for _, id := range p.Defender {
		if u := g.byID[id]; u != nil && u.alive() {
			if u.c.Artillery {
				art = append(art, u)
			} else {
				plain = append(plain, u)
			}
		}
	}
	order := slices.Concat(plain, art)
	var lines []string
	var pick func(i, left int, named []string)
	pick = func(i, left int, named []string) {
		if left == 0 {
			lines = b.keep(lines, "lose "+strings.Join(named, " "))
			return
		}
		if i == len(order) {
			return
		}
		for k := min(left, order[i].Steps); k >= 0; k-- {
			next := slices.Clone(named)
			for range k {
				next = append(next, order[i].ID)
			}
			pick(i+1, left-k, next)
		}
	}
	pick(0, p.Steps, nil)
	if len(lines) == 0 {
		return nil // no answer names every step: the umpire allocates
	}
	return []adjudicator.Choice{{About: fmt.Sprintf("the %d step%s your defenders at %s lose (%s)", p.Steps, plural(p.Steps), p.Hex, strings.Join(p.Defender, " ")),
		Lines: lines, Default: "the umpire allocates them (your losses order's units first, then by id)"}}
}

// advance is the attacker's advance decision (11.23): all, or any of the
// units that may advance; none is the default.
func (b *briefer) advance() []adjudicator.Choice {
	p := b.g.Pending
	lines := b.keep(nil, "advance all")
	us := p.Attacker
	if len(us) > 1 {
		for mask := 1; mask < 1<<len(us)-1; mask++ {
			var set []string
			for i, id := range us {
				if mask&(1<<i) != 0 {
					set = append(set, id)
				}
			}
			lines = b.keep(lines, "advance "+strings.Join(set, " "))
		}
	}
	return []adjudicator.Choice{{About: fmt.Sprintf("the units that advance into %s (%s may)", p.Hex, strings.Join(us, " ")), Lines: lines, Default: "no unit advances"}}
}

// standing offers the standing orders that would change what is in force
// (11.9, 11.23, 12.7, 8.10); the parser takes them in every step of the
// seat.
func (b *briefer) standing() []adjudicator.Choice {
	g := b.g
	var out []adjudicator.Choice
	add := func(about, def string, lines ...string) {
		if l := b.keep(nil, lines...); len(l) > 0 {
			out = append(out, adjudicator.Choice{About: about, Lines: l, Default: def})
		}
	}
	in := func(key string) string { return strings.Join(g.Standing[b.seat+":"+key], " ") }
	var lines []string
	if cur := in("losses"); cur != "" {
		lines = append(lines, "losses none")
	}
	if l := g.lossPriority(b.side); l != "losses none" && l != "losses "+in("losses") {
		lines = append(lines, l)
	}
	def := "no standing loss order: you decide in a loss decision step when there is a choice"
	if cur := in("losses"); cur != "" {
		def = "losses " + cur + " stays in force"
	}
	add("standing: how your defenders lose steps (11.9; the weakest first, artillery last, or none)", def, lines...)
	cur := in("advance")
	if cur == "" {
		cur = "ask"
	}
	var adv []string
	for _, a := range []string{"all", "none", "ask"} {
		if a != cur {
			adv = append(adv, "advancing "+a)
		}
	}
	add("standing: whether your attacks that do not say advance (11.23)", "advancing "+cur+" stays in force", adv...)
	if b.side == nato {
		add("standing: the 1st AAA's defensive support (12.7)", standingDefault("support", in("support")), changes(in("support"), "support")...)
		add("standing: aerial supply for defenders in Serbian attacks (8.10)", standingDefault("airsupply defend", in("airdefend")), changes(in("airdefend"), "airsupply defend")...)
	}
	return out
}

// changes are the lines "verb any" and "verb none" that change cur.
func changes(cur, verb string) []string {
	var out []string
	if cur != "any" {
		out = append(out, verb+" any")
	}
	if cur != "" {
		out = append(out, verb+" none")
	}
	return out
}

// standingDefault says what stays in force without a line.
func standingDefault(verb, cur string) string {
	if cur == "" {
		return "none is given"
	}
	return verb + " " + cur + " stays in force"
}

// Standing implements adjudicator.StandingOrders: the seat's standing
// orders in force, defaults included (advancing ask; no losses order, no
// support and no aerial supply for defenders when none was given).
func (rules) Standing(state []byte, seat string) []string {
	g, err := decode(state)
	if err != nil {
		return nil
	}
	in := func(key string) []string { return g.Standing[seat+":"+key] }
	out := []string{"losses none"}
	if l := in("losses"); len(l) > 0 {
		out[0] = "losses " + strings.Join(l, " ")
	}
	adv := "ask"
	if l := in("advance"); len(l) > 0 {
		adv = strings.Join(l, " ")
	}
	out = append(out, "advancing "+adv)
	if seat == seatNATO {
		for _, k := range [][2]string{{"support", "support"}, {"airdefend", "airsupply defend"}} {
			v := "none"
			if l := in(k[0]); len(l) > 0 {
				v = strings.Join(l, " ")
			}
			out = append(out, k[1]+" "+v)
		}
	}
	return out
}
