package pcs1995

// This file runs the Action Phase (7.0): the two seats' activation queues
// interleaved in strict alternation from the initiative side, the
// overstacked-first rule, conditions, passes, and each activation (7.1-7.5,
// 3.3.1) as a piece of work that may stop for a decision.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// actionPhase runs activations until both sides are done (true) or a seat
// must be asked (false).
func (g *game) actionPhase(resume *work) bool {
	if resume != nil {
		if !g.work(resume, g.activate) {
			return false
		}
		g.after(resume)
	}
	for {
		done := func(s faction) bool { return g.Passed[seatOf(s)] || !g.hasFresh(s) }
		if done(NATO) && done(RS) {
			for _, s := range []faction{g.Initiative, other(g.Initiative)} {
				if !g.Passed[seatOf(s)] {
					g.Passed[seatOf(s)] = true
					g.ev("7.0", "%s has no fresh unit left.", s)
				}
			}
			return true
		}
		side := g.Current
		if done(side) {
			if !g.Passed[seatOf(side)] {
				g.Passed[seatOf(side)] = true
				g.ev("7.0", "%s has no fresh unit left: %s activates until it passes.", side, other(side))
			}
			g.Current = other(side)
			continue
		}
		seat := seatOf(side)
		if g.Held[seat] {
			g.Pending = &pending{Kind: phaseQueue, Seat: seat, Question: "your stop order held your queue after an enemy attack: send new activations, or nothing to go on with the queue as it is",
				Hint: hintActivation, Default: "the held queue goes on", Resume: true}
			return false
		}
		line, ok := g.nextActivation(side)
		if !ok {
			return false
		}
		w := &work{Kind: "activation", Seat: seat, Line: line}
		if !g.work(w, g.activate) {
			return false
		}
		g.after(w)
	}
}

// after hands the next activation to the other side (7.0), except after a
// successful de-escalation roll (7.5).
func (g *game) after(w *work) {
	side := sideOf(w.Seat)
	kind := strings.Fields(w.Line)[0]
	if kind != "pass" && kind != "deescalate" {
		g.Count[w.Seat]++
	}
	if kind == "deescalate" && g.deescOK {
		return
	}
	g.Current = other(side)
}

// askQueue stops the Action Phase to ask a seat for activations; the
// reason (it may quote the seat's queue) is shown to that seat only.
func (g *game) askQueue(seat, why string) {
	g.Pending = &pending{Kind: phaseQueue, Seat: seat, Question: why + ": send your next activations", Hint: hintActivation, Default: "pass"}
	g.evFor([]string{seat}, "7.0", "%s is asked for its next activations: %s.", seat, why)
}

// nextActivation takes the next activation a side can carry out from its
// queue: an activation that moves a unit out of an overstacked hex first
// (3.6, 7.0), else the first line; within a line, the first alternative
// whose conditions hold and that is legal now. It asks the seat when the
// queue is empty, a line says ask, or no alternative of a line applies.
func (g *game) nextActivation(side faction) (string, bool) {
	seat := seatOf(side)
	for {
		q := g.Queue[seat]
		idx := 0
		if over := g.overstacked(side); len(over) > 0 {
			idx = -1
			for i, l := range q {
				if alt, _ := g.pick(side, g.parseQueue(seat, l)); alt != nil && alt.Act != nil && g.movesOut(alt.Act, over) {
					idx = i
					break
				}
			}
			if idx < 0 {
				g.askQueue(seat, fmt.Sprintf("%s is overstacked: one of its units must be activated and moved out before any other (3.6, 7.0), and no line of your queue does that now", hexList(g, over)))
				return "", false
			}
			if idx > 0 {
				g.ev("3.6", "%s's queue line %d, %q, moves a unit out of the overstacked %s: it goes first (3.6, 7.0).", seat, idx+1, q[idx], hexList(g, over))
			}
		}
		if len(q) == 0 {
			g.askQueue(seat, "your activation queue is empty")
			return "", false
		}
		line := q[idx]
		g.Queue[seat] = slices.Delete(slices.Clone(q), idx, idx+1)
		alt, why := g.pick(side, g.parseQueue(seat, line))
		switch {
		case alt == nil:
			g.askQueue(seat, fmt.Sprintf("your queue line %q cannot be carried out (%s)", line, why))
			return "", false
		case alt.Skip:
			g.ev("7.0", "%s skips %q (%s).", seat, line, why)
			continue
		case alt.Act.Kind == "ask":
			g.askQueue(seat, "your queue says ask")
			return "", false
		}
		return alt.Act.String(g), true
	}
}

// parseQueue reads a canonical queue line. A line that no longer reads
// (its unit has left the map, its path no longer starts next to the unit)
// becomes one alternative that is never legal, saying why.
func (g *game) parseQueue(seat, line string) []alt {
	p := &parser{g: g, seat: seat, side: sideOf(seat)}
	alts, err := p.parseQueueLine(strings.Fields(line))
	if err != nil {
		return []alt{{Act: &activation{Kind: "invalid", Unit: err.Error()}}}
	}
	return alts
}

// pick chooses the alternative of a line to carry out: the first whose
// conditions hold and that is legal now, or skip; nil (with the reasons)
// when none applies.
func (g *game) pick(side faction, alts []alt) (*alt, string) {
	var why []string
	for i := range alts {
		a := &alts[i]
		if a.Skip {
			return a, strings.Join(why, "; ")
		}
		if a.Act.Kind == "invalid" {
			why = append(why, a.Act.Unit)
			continue
		}
		if c, ok := g.conds(side, a.Conds); !ok {
			why = append(why, "the condition "+c.String(g)+" does not hold")
			continue
		}
		if r := g.check(side, a.Act); r != "" {
			why = append(why, r)
			continue
		}
		return a, ""
	}
	return nil, strings.Join(why, "; ")
}

// conds checks conditions; it returns the first that fails.
func (g *game) conds(side faction, cs []Cond) (Cond, bool) {
	for _, c := range cs {
		ok := false
		u := g.byID[c.Unit]
		switch c.Kind {
		case "enemy":
			ok = g.enemyAt(side, c.Hex)
		case "empty":
			ok = len(g.occ[c.Hex]) == 0
		case "friendly":
			ok = g.friendAt(side, c.Hex)
		case "mine":
			ok = g.controller(c.Hex) == side
		case "theirs":
			ok = g.controller(c.Hex) == other(side)
		case "fresh":
			ok = u != nil && u.fresh()
		case "static":
			ok = u != nil && u.onMap() && u.Static
		case "at":
			ok = u != nil && u.onMap() && u.pos == c.Hex
		case "vp":
			ok = compare(g.VP, c.Op, c.N)
		}
		if !ok {
			return c, false
		}
	}
	return Cond{}, true
}

// check says why an activation may not be carried out now ("" if it may).
func (g *game) check(side faction, a *activation) string {
	seat := seatOf(side)
	switch a.Kind {
	case "pass", "ask":
		return ""
	case "deescalate":
		if g.Deesc[seat] {
			return "the de-escalation roll was made this turn already (7.5)"
		}
		return ""
	}
	u := g.byID[a.Unit]
	switch {
	case u == nil || !u.onMap():
		return a.Unit + " is not on the map"
	case u.Static:
		return a.Unit + " is static (7.0)"
	}
	switch a.Kind {
	case "move", "sm":
		if len(a.Path) == 0 || !g.grid.Adjacent(u.pos, a.Path[0]) {
			return fmt.Sprintf("%s is at %s, not next to the path's first hex", u.ID, u.Hex)
		}
	case "me":
		s := a.Steps[0]
		if !g.grid.Adjacent(u.pos, s.Hex) {
			return fmt.Sprintf("%s is at %s, not next to %s", u.ID, u.Hex, g.hex(s.Hex))
		}
		if s.Attack && !g.enemyAt(side, s.Hex) {
			return fmt.Sprintf("no enemy unit is in %s", g.hex(s.Hex))
		}
	case "pa":
		if !g.grid.Adjacent(u.pos, a.Target) {
			return fmt.Sprintf("%s is at %s, not next to %s (7.4)", u.ID, u.Hex, g.hex(a.Target))
		}
		if !g.enemyAt(side, a.Target) {
			return fmt.Sprintf("no enemy unit is in %s", g.hex(a.Target))
		}
	case "airmobile":
		if len(g.occ[a.Target]) > 0 {
			return fmt.Sprintf("%s is not empty (3.3.1)", g.hex(a.Target))
		}
		if a.Target == u.pos {
			return "it is there already"
		}
	}
	return ""
}

// movesOut reports whether an activation moves a unit out of one of the
// overstacked hexes (3.6).
func (g *game) movesOut(a *activation, over []board.ID) bool {
	u := g.byID[a.Unit]
	if u == nil || !slices.Contains(over, u.pos) {
		return false
	}
	switch a.Kind {
	case "move", "sm", "airmobile":
		return true
	case "me":
		return !a.Steps[0].Attack
	}
	return false
}

// activate carries out one activation (7.0).
func (g *game) activate(w *work) {
	side := sideOf(w.Seat)
	g.deescOK = false
	a := g.parseQueue(w.Seat, w.Line)[0].Act
	switch a.Kind {
	case "pass":
		g.Passed[w.Seat] = true
		g.ev("7.0", "%s passes: it activates no more units this turn.", side)
		return
	case "deescalate":
		g.deescalate(side, a.Targets)
		return
	}
	u := g.byID[a.Unit]
	switch a.Kind {
	case "move":
		g.moveUnit(u, a.Path)
	case "sm":
		g.strategicMove(u, a.Path)
	case "me":
		g.meetingEngagement(u, a)
	case "pa":
		g.preparedAssault(u, a)
	case "airmobile":
		g.airmobile(u, a)
	}
	if u.onMap() {
		u.Static = true
	}
}

// deescalate is the de-escalation roll (7.5).
func (g *game) deescalate(side faction, targets []string) {
	g.Deesc[seatOf(side)] = true
	roll, _, ok := rollDeescalation(g.r, g.VP, side, string(side))
	if !ok {
		g.ev("7.5", "%s's de-escalation roll is %s: it fails, and play passes to %s.", side, roll, other(side))
		return
	}
	var t *Unit
	for _, id := range targets {
		if u := g.byID[id]; u != nil && u.fresh() && u.side() != side {
			t = u
			break
		}
	}
	if t == nil {
		for _, u := range g.Units {
			if u.fresh() && u.side() != side && (t == nil || u.c.UQR.Grade > t.c.UQR.Grade) {
				t = u
			}
		}
	}
	g.deescOK = true
	if t == nil {
		g.ev("7.5", "%s's de-escalation roll is %s: it succeeds, but no enemy unit is fresh.", side, roll)
		return
	}
	t.Static = true
	g.ev("7.5", "%s's de-escalation roll is %s: it succeeds; %s flips to static. %s may activate a unit or pass.", side, roll, t.ID, side)
}

// stopNote explains why a move stopped early.
func stopNote(why string) string {
	switch why {
	case "":
		return ""
	case "ezoc":
		return "; it stops in an enemy zone of control (3.4)"
	}
	return "; it stops: " + why
}

// moveUnit is Regular Movement (7.1).
func (g *game) moveUnit(u *Unit, path []board.ID) {
	steps, why := g.walk(u, u.pos, path, u.c.MA*2, false)
	steps, trimmed := g.trimStack(u, steps)
	from := u.Hex
	for _, s := range steps {
		g.enter(u, s.hex)
	}
	spent := u.c.MA * 2
	if len(steps) > 0 {
		spent -= steps[len(steps)-1].left
	} else {
		spent = 0
	}
	if from != u.Hex {
		g.moveArrow(u, from)
	}
	note := stopNote(why)
	if trimmed {
		note += "; it stops short of the end: only one unit may end in a hex (3.6)"
	}
	g.ev("7.1", "%s moves from %s to %s (%s of %d MP)%s.", u.ID, g.placeNameS(from), g.placeName(u.pos), halves(spent), u.c.MA, note)
}

// strategicMove is SM (7.2): double MA, never next to an enemy unit, not
// beyond the furthest friendly unit in enemy territory, and open to
// interdiction (6.3.1).
func (g *game) strategicMove(u *Unit, path []board.ID) {
	steps, why := g.walk(u, u.pos, path, u.c.MA*4, true)
	from := u.Hex
	halted := ""
	enemy := other(u.side())
	offered := false
	var moved []step
	for _, s := range steps {
		g.enter(u, s.hex)
		moved = append(moved, s)
		if offered || len(g.occ[s.hex]) > 1 || len(aliveOf(g.airOf(enemy, boxInterdiction))) == 0 {
			continue
		}
		offered = true
		if g.interdictSM(u, path, s.hex) {
			halted = g.hex(s.hex)
			break
		}
	}
	trimmed := false
	if halted == "" {
		var kept []step
		kept, trimmed = g.trimStack(u, moved)
		if trimmed {
			if len(kept) > 0 {
				g.place(u, kept[len(kept)-1].hex)
			} else {
				g.place(u, mustParse(g, from))
			}
		}
	}
	if from != u.Hex {
		g.moveArrow(u, from)
	}
	note := stopNote(why)
	if halted != "" {
		note = "; the interdiction halts it there (6.3.1)"
	}
	if trimmed {
		note += "; it stops short of the end: only one unit may end in a hex (3.6)"
	}
	g.ev("7.2", "%s uses SM from %s to %s (%d MP)%s.", u.ID, g.placeNameS(from), g.placeName(u.pos), u.c.MA*2, note)
}

func mustParse(g *game, hex string) board.ID {
	id, _ := g.grid.Parse(hex)
	return id
}

// interdictSM is SM interdiction (6.3.1): the other side may interdict
// with G from its interdiction box where the moving unit is (not in an
// overstacked hex); the mover may intercept; if any G is left and one
// passes its EC, the unit halts there. It reports whether it halted.
func (g *game) interdictSM(u *Unit, path []board.ID, at board.ID) bool {
	side, enemy := u.side(), other(u.side())
	pool := aliveOf(g.airOf(enemy, boxInterdiction))
	patrol := aliveOf(g.airOf(enemy, boxPatrol))
	v := g.decide(question{seat: seatOf(enemy), kind: "interdict", key: "interdict",
		text: fmt.Sprintf("%s uses SM along %s and is now in %s: interdict it here (6.3.1)? Your interdiction box has %s, your patrol %s",
			u.ID, hexList(g, path), g.placeName(at), airIDs(pool), airIDs(patrol)),
		hint: "Answer decide sm N escort N (a number, all or none), or decide sm none.", def: "sm none"})
	q := map[string]string{}
	f := strings.Fields(v)
	for i := 0; i+1 < len(f); i += 2 {
		q[f[i]] = f[i+1]
	}
	n := count(q["sm"], len(pool))
	if n == 0 {
		return false
	}
	best := func(list []*air, k int) []*air {
		l := slices.Clone(list)
		slices.SortStableFunc(l, func(x, y *air) int { return y.ER() - x.ER() })
		return l[:k]
	}
	gs := best(pool, n)
	escorts := best(patrol, count(q["escort"], len(patrol)))
	what := fmt.Sprintf("interdiction of %s's SM at %s", u.ID, g.hex(at))
	g.ev("6.3.1", "%s interdicts %s's SM at %s with %s, escorted by %s.", enemy, u.ID, g.placeName(at), airIDs(gs), airIDs(escorts))
	g.Marks = append(g.Marks, mark{Hex: g.hex(at), Text: "interdiction"})
	interceptors := g.intercept(side, "interdiction", fmt.Sprintf("%s interdicts your %s's SM with %d G and %d escorts", enemy, u.ID, len(gs), len(escorts)))
	if len(interceptors) > 0 {
		g.atac(&atacSide{side: enemy, f: escorts, g: gs}, &atacSide{side: side, f: interceptors}, what, true)
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
	halted := hits > 0
	switch {
	case len(flying) == 0:
		g.ev("6.3.1", "No interdicting G is left: %s moves on.", u.ID)
	case halted:
		g.ev("6.3.1", "The interdiction succeeds (%d of %d EC): %s ends its activation in %s, static.", hits, len(flying), u.ID, g.placeName(at))
	default:
		g.ev("6.3.1", "The interdiction fails (no EC passes): %s moves on.", u.ID)
	}
	for _, a := range flying {
		g.sam(a, u, what)
	}
	for _, a := range flying {
		g.onCall(a, what)
	}
	return halted
}

// meetingEngagement is an ME (7.3): movement and attacks paying the enemy
// hex's cost plus the bid, advances into vacated hexes, as many as the MP
// allow.
func (g *game) meetingEngagement(u *Unit, a *activation) {
	side := u.side()
	mp := u.c.MA * 2
	from := u.Hex
	stopped := false
	var lastHex board.ID
	lastVacated := false
	var moved []step
	end := ""
	for _, s := range a.Steps {
		if !u.onMap() {
			break
		}
		switch {
		case s.Attack:
			if !g.grid.Adjacent(u.pos, s.Hex) || !g.enemyAt(side, s.Hex) {
				end = fmt.Sprintf("no enemy unit is next to it in %s", g.hex(s.Hex))
			} else if c := g.cost(u.c.GroundType(), u.pos, s.Hex) + 2*s.Bid; c > mp {
				end = fmt.Sprintf("the ME on %s costs %s MP (the hex %s + the bid %d) and %s are left (7.3)", g.hex(s.Hex), halves(c), halves(c-2*s.Bid), s.Bid, halves(mp))
			} else {
				mp -= c
				pos := u.pos
				g.ev("7.3", "%s spends %s MP for an ME on %s (bid %d MP: CSA %+d).", u.ID, halves(c), g.placeName(s.Hex), s.Bid, mecsa(s.Bid))
				lastVacated = g.combat(&fight{kind: me, lead: u, hex: s.Hex, bid: s.Bid, air: s.Air})
				lastHex = s.Hex
				moved = nil
				if !u.onMap() || u.pos != pos {
					end = "it left its hex absorbing losses"
				}
			}
		case s.Advance:
			if !lastVacated || len(g.occ[lastHex]) > 0 {
				end = fmt.Sprintf("%s is not vacated, so it does not advance", g.hex(lastHex))
			} else {
				g.enter(u, lastHex)
				g.ev("8.4", "%s advances into %s at no MP cost; %s MP left.", u.ID, g.placeName(lastHex), halves(mp))
				stopped = g.ezoc(side, u.pos)
				moved = nil
			}
		default:
			if stopped {
				end = "it is stopped in an enemy zone of control (3.4)"
				break
			}
			steps, why := g.walk(u, u.pos, []board.ID{s.Hex}, mp, false)
			if len(steps) == 0 {
				end = why
				break
			}
			g.enter(u, s.Hex)
			mp = steps[0].left
			moved = append(moved, steps[0])
			stopped = why == "ezoc"
		}
		if end != "" {
			break
		}
	}
	if u.onMap() && len(moved) > 0 {
		before := u.Hex
		kept, trimmed := g.trimStack(u, moved)
		if trimmed {
			if len(kept) > 0 {
				g.place(u, kept[len(kept)-1].hex)
			} else {
				g.place(u, mustParse(g, from))
			}
			g.ev("3.6", "%s may not end on another unit in %s: it stops in %s.", u.ID, before, g.placeName(u.pos))
		}
	}
	if u.onMap() && from != u.Hex {
		g.moveArrow(u, from)
	}
	if end != "" {
		g.ev("7.3", "%s's ME ends: %s.", u.ID, end)
	}
	if u.onMap() {
		g.ev("7.3", "%s ends its ME in %s, static.", u.ID, g.placeName(u.pos))
	}
}

// preparedAssault is a PA (7.4).
func (g *game) preparedAssault(u *Unit, a *activation) {
	side := u.side()
	var with []*Unit
	for _, id := range a.With {
		s := g.byID[id]
		switch {
		case s == nil || !s.onMap() || s.side() != side:
			g.ev("7.4", "%s does not support the PA of %s on %s: it is not on the map.", id, u.ID, g.hex(a.Target))
		case s.Static:
			g.ev("7.4", "%s does not support the PA of %s on %s: it is static (only fresh units take part, 7.4).", id, u.ID, g.hex(a.Target))
		case !g.grid.Adjacent(s.pos, a.Target):
			g.ev("7.4", "%s does not support the PA of %s on %s: it is not next to it.", id, u.ID, g.hex(a.Target))
		case !g.supports(s, a.Target):
			g.ev("9.6", "%s does not support the PA of %s on %s: a non-Foot unit across a ridge hexside takes part only as the lead (9.6).", id, u.ID, g.hex(a.Target))
		default:
			with = append(with, s)
		}
	}
	g.combat(&fight{kind: pa, lead: u, with: with, hex: a.Target, air: a.Air, advBy: a.AdvanceBy, adv: a.Advance})
}

// airmobile is airmobile movement (3.3.1): straight to an empty hex, open
// to one interception on the way (6.2) and to SAM fire landing on an
// enemy-controlled city (6.6).
func (g *game) airmobile(u *Unit, a *activation) {
	side, enemy := u.side(), other(u.side())
	from := u.Hex
	// the path: the via hexes, then a straight line to the destination
	line := slices.Clone(a.Via)
	last := u.pos
	if len(line) > 0 {
		last = line[len(line)-1]
	}
	if last != a.Target {
		line = append(line, g.grid.Line(last, a.Target)[1:]...)
	}
	escorts := aliveOf(g.listedAir(side, a.Escort, boxPatrol, "airmobile escort"))
	g.ev("3.3.1", "%s flies airmobile from %s to %s over %s, escorted by %s.", u.ID, g.placeName(u.pos), g.placeName(a.Target), hexList(g, line), airIDs(escorts))
	land := a.Target
	interceptors := g.intercept(enemy, "airmobile", fmt.Sprintf("%s flies airmobile from %s to %s over %s with %d escort%s", u.ID, from, g.hex(a.Target), hexList(g, line), len(escorts), plural(len(escorts), "", "s")))
	routed := false
	if len(interceptors) > 0 {
		at := a.Target
		for _, h := range line {
			if len(g.occ[h]) == 0 && g.sc.Land(h) {
				at = h
				break
			}
		}
		what := fmt.Sprintf("interception of %s at %s", u.ID, g.hex(at))
		g.Marks = append(g.Marks, mark{Hex: g.hex(at), Text: "interception"})
		surplus := g.atac(&atacSide{side: side, f: escorts}, &atacSide{side: enemy, f: interceptors}, what, true)
		if surplus > 0 {
			rollers := aliveOf(interceptors)
			slices.SortStableFunc(rollers, func(x, y *air) int { return y.ER() - x.ER() })
			rollers = rollers[:min(surplus, len(rollers))]
			one, hits := false, 0
			for _, x := range rollers {
				die, ok := g.ec(x, false, what)
				one = one || die == 1
				if ok {
					hits++
				}
			}
			switch {
			case one:
				routed = true
				g.ev("6.2", "An interceptor rolls a 1: %s is routed.", u.ID)
			case hits > 0:
				land = at
				g.ev("6.2", "%d interceptor EC succeed: %s halts in %s and becomes static.", hits, u.ID, g.placeName(at))
			default:
				g.ev("6.2", "No interceptor EC succeeds: %s flies on.", u.ID)
			}
		} else {
			g.ev("6.2", "The escorts keep the interceptors off %s.", u.ID)
		}
		for _, x := range interceptors {
			g.onCall(x, "interception")
		}
	}
	for _, x := range escorts {
		g.onCall(x, "airmobile escort")
	}
	if routed {
		g.rout(u, "6.2", "intercepted")
		return
	}
	if g.city(land) && g.controller(land) == enemy {
		t := samTarget{AirmobileLanding: true}
		_, roll, _, hit := rollSAM(g.r, t, fmt.Sprintf("by %s at %s landing on %s", enemy, u.ID, g.hex(land)))
		if hit {
			g.ev("3.3.1, 6.6", "SAM fire at %s landing on the enemy city %s rolls %s: it is routed.", u.ID, g.placeName(land), roll)
			g.rout(u, "6.6", "SAM fire on landing")
			return
		}
		g.ev("3.3.1, 6.6", "SAM fire at %s landing on the enemy city %s rolls %s: no effect.", u.ID, g.placeName(land), roll)
	}
	g.enter(u, land)
	delete(g.trail, u.ID)
	g.Arrows = append(g.Arrows, arrow{From: from, To: u.Hex, Kind: board.AirMove})
	g.ev("3.3.1", "%s lands in %s and becomes static.", u.ID, g.placeName(land))
}
