package pcs1995

// This file holds the receipt's checks beyond each line's grammar: what
// can be known when an order file arrives and can never be carried out as
// written (a move the MA cannot pay for, a static or ridge-barred PA
// supporter, a spent air unit, a second de-escalation roll, lines after a
// pass...), the checks of the whole file (an order given twice, a mission
// whose air line was refused), and the caps that keep every order list the
// state holds bounded (docs/orders-pcs1995.md). A line whose conditions or
// whose place in the alternation could still make it legal is accepted:
// the receipt's forecast says what would happen now.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// queueLinesPerUnit caps an activation queue: a side activates each of its
// units at most once a turn (it goes static, 7.0), plus one de-escalation
// roll (7.5) and a pass, so four lines a unit leave room for three
// alternative lines for every unit of the counter list.
const queueLinesPerUnit = 4

// aacmaMax is the largest AACMA, in half MP: half a d8, rounded down (8.4).
const aacmaMax = 8

// queueCap is the most activation lines a seat's file may give: four for
// each of its side's ground units in the counter list.
func (g *game) queueCap(side faction) (lines, units int) {
	for _, c := range g.sc.Counters {
		if c.Side == side {
			units++
		}
	}
	return queueLinesPerUnit * units, units
}

// parsedLine is one line of an order file as the receipt reads it.
type parsedLine struct {
	n     int
	f     []string
	kind  string
	canon string
	alts  []alt
	err   error
}

// parseLines reads a seat's lines for the open step; problems carry the
// line number and a hint. Each line is read on its own, then the file as a
// whole is checked in the order of its lines.
func (g *game) parseLines(seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	p := &parser{g: g, seat: seat, side: sideOf(seat)}
	var ls []*parsedLine
	for n, text := range kit.Lines(lines) {
		pl := &parsedLine{n: n, f: g.normalise(text)}
		pl.kind = lineKind(pl.f)
		pl.canon, pl.alts, pl.err = p.line(pl.f)
		ls = append(ls, pl)
	}
	p.checkFile(ls)
	var out []string
	var problems []adjudicator.Problem
	for _, pl := range ls {
		if pl.err != nil {
			hint := "docs/orders-pcs1995.md lists the orders"
			if oe, ok := pl.err.(*adjudicator.Refusal); ok {
				hint = oe.Hint
			}
			problems = append(problems, adjudicator.Problem{Line: pl.n, Text: pl.err.Error(), Hint: hint})
			continue
		}
		out = append(out, pl.canon)
	}
	return out, problems
}

// checkFile checks the lines read against each other: one air line and one
// place order a unit, each standing order and answer once, a mission's air
// units put in its box by an accepted air line, one bombing line and one
// mission a G (6.1), strict mode's one activation or air placement a step,
// and in the queue: no second de-escalation roll (7.5), nothing after a
// pass (7.0), at most the queue's cap.
func (p *parser) checkFile(ls []*parsedLine) {
	g := p.g
	// the air lines first: the missions take their units from them
	airAt, refusedAir := map[string]int{}, map[string]int{}
	mayBe := map[string][]string{}
	airs := 0
	for _, pl := range ls {
		if pl.kind != "air" {
			continue
		}
		if pl.err != nil {
			if len(pl.f) > 1 {
				if _, ok := refusedAir[pl.f[1]]; !ok {
					refusedAir[pl.f[1]] = pl.n
				}
			}
			continue
		}
		f := strings.Fields(pl.canon)
		airs++
		switch n, ok := airAt[f[1]]; {
		case ok:
			pl.err = adjudicator.Refuse("give each air unit one line; an else box covers the other case", "%s already has an air line, on line %d", f[1], n)
		case g.Strict && airs > 1:
			pl.err = adjudicator.Refuse("in strict mode every air placement is its own step", "strict mode: one air placement a step")
		}
		if pl.err != nil {
			continue
		}
		airAt[f[1]] = pl.n
		mayBe[f[1]] = append(mayBe[f[1]], f[2])
		if i := slices.Index(f, "else"); i >= 0 {
			mayBe[f[1]] = append(mayBe[f[1]], f[i+1])
		} else if slices.Contains(f, "if") {
			mayBe[f[1]] = append(mayBe[f[1]], defaultBox(g.airBy[f[1]]))
		}
	}
	placed, standing := map[string]int{}, map[string]int{}
	decided, bombed := 0, 0
	flies := map[string]int{} // a G's strategic mission, by line
	acts, passAt, deescAt := 0, 0, 0
	capLines, units := g.queueCap(p.side)
	for _, pl := range ls {
		if pl.err != nil {
			continue
		}
		f := strings.Fields(pl.canon)
		switch pl.kind {
		case "place":
			if n, ok := placed[f[1]]; ok {
				pl.err = adjudicator.Refuse("give each unit one place order", "%s already has a place order, on line %d", f[1], n)
				continue
			}
			placed[f[1]] = pl.n
		case "standing":
			key := standingKey(f)
			if n, ok := standing[key]; ok {
				what := strings.ReplaceAll(key, ":", " ")
				pl.err = adjudicator.Refuse(fmt.Sprintf("a standing order stands until replaced: give %s once, as you mean it", what),
					"the standing order %s is given twice (first on line %d)", what, n)
				continue
			}
			standing[key] = pl.n
		case "decide":
			if decided > 0 {
				pl.err = adjudicator.Refuse("one answer to the question: keep the one you mean", "a second answer (the first is on line %d)", decided)
				continue
			}
			decided = pl.n
		case "mission":
			pl.err = p.checkMission(pl, f, mayBe, airAt, refusedAir, flies, &bombed)
		case "activation":
			first := acts == 0
			pl.err = p.checkQueueLine(pl, &acts, &passAt, &deescAt, capLines, units)
			if pl.err == nil && first {
				pl.err = p.nowhereBar(pl.alts)
			}
		}
	}
}

// standingKey is what a standing order replaces: intercept orders by
// mission, oncall orders by air unit, the others by kind (applyStanding).
func standingKey(f []string) string {
	switch f[0] {
	case "intercept", "oncall":
		return f[0] + ":" + f[1]
	}
	return f[0]
}

// checkMission checks a strategic bombing order against the file: every
// G and escort put in the box the mission takes it from by an accepted air
// line (6.0), one bomb line (every G in the bombing box flies it, 6.1.2),
// and each G in one mission (a G flies one strategic mission a turn, 6.1).
func (p *parser) checkMission(pl *parsedLine, f []string, mayBe map[string][]string, airAt, refusedAir, flies map[string]int, bombed *int) error {
	if f[0] == "bomb" {
		if *bombed > 0 {
			return adjudicator.Refuse("one bomb line: every G in your bombing box flies it (6.1.2); list all its escorts there: bomb escort F,F", "a second bomb line (the first is on line %d)", *bombed)
		}
		*bombed = pl.n
	} else {
		for _, id := range strings.Split(f[3], ",") {
			if n, ok := flies[id]; ok {
				return adjudicator.Refuse("give each airstrike its own G: a G flies one strategic mission a turn (6.1)", "%s flies the airstrike of line %d already", id, n)
			}
		}
		for _, id := range strings.Split(f[3], ",") {
			flies[id] = pl.n
		}
	}
	if p.g.Strict { // in strict mode the units are placed in later steps
		return nil
	}
	check := func(list, box string) error {
		for _, id := range strings.Split(list, ",") {
			if slices.Contains(mayBe[id], box) {
				continue
			}
			if n, ok := airAt[id]; ok {
				return adjudicator.Refuse(fmt.Sprintf("line %d, the air line for %s, puts it elsewhere: make it air %s %s", n, id, id, box), "no air line of this file puts %s in the %s box, where this mission takes it from (6.0)", id, box)
			}
			if n, ok := refusedAir[id]; ok {
				return adjudicator.Refuse(fmt.Sprintf("line %d, the air line for %s, was refused: correct it (air %s %s)", n, id, id, box), "no air line of this file puts %s in the %s box, where this mission takes it from (6.0)", id, box)
			}
			return adjudicator.Refuse(fmt.Sprintf("add the line: air %s %s", id, box), "no air line of this file puts %s in the %s box, where this mission takes it from (6.0)", id, box)
		}
		return nil
	}
	for i := 0; i+1 < len(f); i++ {
		switch f[i] {
		case "with":
			if err := check(f[i+1], boxAirstrike); err != nil {
				return err
			}
		case "escort":
			if err := check(f[i+1], boxPatrol); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkQueueLine checks an activation line against the lines before it:
// strict mode's one activation a step, the queue's cap, nothing after a
// pass that always runs (7.0) unless the line may go first to move a unit
// out of an overstacked hex (3.6), and no de-escalation roll after one
// that always runs (7.5).
func (p *parser) checkQueueLine(pl *parsedLine, acts, passAt, deescAt *int, capLines, units int) error {
	g := p.g
	if *passAt > 0 && !p.mayGoFirst(pl.alts) {
		return adjudicator.Refuse("a pass ends your activations for the turn (7.0): put pass last, or give it a condition", "nothing runs after the pass on line %d (7.0)", *passAt)
	}
	if *deescAt > 0 && slices.ContainsFunc(pl.alts, func(a alt) bool { return a.Act != nil && a.Act.Kind == "deescalate" }) {
		return adjudicator.Refuse("one de-escalation roll a turn (7.5): leave this one out, or give the first a condition", "line %d makes this turn's de-escalation roll already (7.5)", *deescAt)
	}
	*acts++
	if g.Strict && *acts > 1 {
		return adjudicator.Refuse("in strict mode every activation is its own step: send the others when asked", "strict mode: one activation a step")
	}
	if *acts > capLines {
		return adjudicator.Refuse(fmt.Sprintf("a turn has at most one activation for each of your units (each goes static, 7.0), a de-escalation roll and a pass: send the first %d lines now and the rest when you are asked", capLines),
			"more than %d activation lines: a queue holds four for each of your %d units", capLines, units)
	}
	if len(pl.alts) == 1 && len(pl.alts[0].Conds) == 0 {
		switch pl.alts[0].Act.Kind {
		case "pass":
			*passAt = pl.n
		case "deescalate":
			*deescAt = pl.n
		}
	}
	return nil
}

// mayGoFirst reports whether a queue line may run ahead of the lines
// before it: a line that moves a unit out of an overstacked hex goes first
// (3.6, 7.0). A unit may be overstacked when it shares its hex with a unit
// of its side now, or, in a turn's first step while units of its side
// arrive, when it stands in a city (every entry hex is one, 5.0).
func (p *parser) mayGoFirst(alts []alt) bool {
	g := p.g
	arriving := slices.ContainsFunc(g.Units, func(u *Unit) bool { return u.side() == p.side && u.Status == arriving })
	for _, a := range alts {
		act := a.Act
		if act == nil || act.Unit == "" {
			continue
		}
		if act.Kind == "pa" || act.Kind == "me" && act.Steps[0].Attack {
			continue
		}
		u := g.byID[act.Unit]
		stacked := slices.ContainsFunc(g.occ[u.pos], func(o *Unit) bool { return o != u && o.side() == u.side() })
		if stacked || g.Phase == phaseTurn && arriving && g.city(u.pos) {
			return true
		}
	}
	return false
}

// receiptBar says why an alternative of a queue line can never be carried
// out as written, as far as the receipt can know: its de-escalation roll
// made already (7.5), its unit static (7.0, unless a condition guards it),
// a move or ME its MP cannot pay for (7.1, 7.2, 7.3, 9.0), a PA supporter
// static (7.4) or barred by a ridge (9.6), an advance the AACMA can never
// pay for (8.4), an air unit spent until the next Air Commitment Phase
// (6.7). An "at" condition sets where the unit starts.
func (p *parser) receiptBar(a alt) error {
	g := p.g
	act := a.Act
	if act == nil {
		return nil
	}
	if act.Kind == "deescalate" && g.Deesc[p.seat] {
		return adjudicator.Refuse("one de-escalation roll a turn (7.5): yours comes back next turn", "your de-escalation roll was made this turn already (7.5)")
	}
	if act.Unit == "" {
		return nil
	}
	from := map[string]board.ID{}
	for _, c := range a.Conds {
		if c.Kind == "at" {
			from[c.Unit] = c.Hex
		}
	}
	start := func(u *Unit) board.ID {
		if h, ok := from[u.ID]; ok {
			return h
		}
		return u.pos
	}
	u := g.byID[act.Unit]
	if u.Static && len(a.Conds) == 0 {
		return adjudicator.Refuse("a unit that is static may not be activated again this turn (7.0)", "%s is static", u.ID)
	}
	switch act.Kind {
	case "move", "sm":
		return p.moveBar(u, start(u), act)
	case "me":
		if err := p.meBar(u, start(u), act); err != nil {
			return err
		}
		for _, s := range act.Steps {
			if err := p.spentBar(s.Air.GS, s.Air.Interdict, s.Air.Escort); err != nil {
				return err
			}
		}
	case "pa":
		for _, id := range act.With {
			s := g.byID[id]
			guarded := slices.Contains(a.Conds, Cond{Kind: "fresh", Unit: id})
			if s.Static && !guarded {
				return adjudicator.Refuse("only fresh units take part in a PA (7.4): name the fresh units next to "+g.hex(act.Target)+": "+strings.Join(g.supporters(u, start, act.Target), " "), "%s is static: it may not support the PA", id)
			}
			if s.c.GroundType() != foot && g.sc.Map.Ridge(start(s), act.Target) {
				return adjudicator.Refuse("a non-Foot unit across a ridge hexside takes part in a PA only as its lead (9.6): name it as the lead of its own PA, or leave it out", "%s is across a ridge from %s: a non-Foot unit may not support the PA (9.6)", id, g.hex(act.Target))
			}
		}
		for _, ad := range act.Advance {
			if err := p.advanceBar(g.byID[ad.Unit], act.Target, ad.Path, aacmaMax); err != nil {
				return err
			}
		}
		return p.spentBar(act.Air.GS, act.Air.Interdict, act.Air.Escort)
	case "airmobile":
		return p.spentBar(act.Escort)
	}
	return nil
}

// supporters lists the fresh units of the lead's side next to the target
// that may support a PA on it (7.4, 9.6), for a hint.
func (g *game) supporters(lead *Unit, start func(*Unit) board.ID, target board.ID) []string {
	var out []string
	for _, o := range g.Units {
		if o != lead && o.side() == lead.side() && o.fresh() && g.grid.Adjacent(start(o), target) &&
			(o.c.GroundType() == foot || !g.sc.Map.Ridge(start(o), target)) {
			out = append(out, o.ID)
		}
	}
	if len(out) == 0 {
		return []string{"(none)"}
	}
	return out
}

// spentBar refuses an air unit in the Spent box in the Action Phase: it
// stays there until the next Air Commitment Phase (6.7, 6.4.1, 6.1.1).
func (p *parser) spentBar(lists ...[]string) error {
	g := p.g
	if g.Stage != stageBombing && g.Stage != stageAction {
		return nil // the air units are placed in this step
	}
	for _, list := range lists {
		for _, id := range list {
			if a := g.airBy[id]; a != nil && a.Box == boxSpent {
				return adjudicator.Refuse("your air units not spent: "+g.airBoxes(p.side), "%s is spent until the next Air Commitment Phase (6.7)", id)
			}
		}
	}
	return nil
}

// airBoxes lists a side's air units in their boxes for a hint.
func (g *game) airBoxes(side faction) string {
	var parts []string
	for _, box := range []string{boxPatrol, boxGS, boxInterdiction, boxSuppression, boxBombing, boxAirstrike} {
		var ids []string
		for _, a := range g.airOf(side, box) {
			ids = append(ids, a.ID)
		}
		if len(ids) > 0 {
			parts = append(parts, box+" "+strings.Join(ids, ","))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// moveBar refuses a move or SM whose hexes cost more MP than the unit has
// (7.1: up to its MA; 7.2: twice its MA; 9.0 the costs): the costs depend
// on the map only, so such a move can never be made as written.
func (p *parser) moveBar(u *Unit, from board.ID, a *activation) error {
	g := p.g
	mp := u.c.MA * 2
	if a.Kind == "sm" {
		mp *= 2
	}
	spent, total, fits := 0, 0, -1
	pos := from
	for i, h := range a.Path {
		total += g.cost(u.c.GroundType(), pos, h)
		if total <= mp {
			spent, fits = total, i
		}
		pos = h
	}
	if total <= mp {
		return nil
	}
	hint := fmt.Sprintf("%s cannot pay for its first hex %s: choose another way (9.0)", u.ID, g.hex(a.Path[0]))
	if fits >= 0 {
		hint = fmt.Sprintf("%s can pay for %s (%s of its %d MP): end the move there, or take a cheaper way (9.0)", u.ID, hexList(g, a.Path[:fits+1]), halves(spent), mp/2)
	}
	if a.Kind == "sm" {
		return adjudicator.Refuse(hint, "%s's SM costs %s MP: twice its MA is %d (7.2)", u.ID, halves(total), mp/2)
	}
	return adjudicator.Refuse(hint, "%s's move costs %s MP: its MA is %d (7.1)", u.ID, halves(total), mp/2)
}

// meBar refuses an ME its MP cannot pay for as written (7.3): the hexes
// entered, and for each attack the cost of entering the enemy hex plus the
// bid; an advance costs nothing (8.4).
func (p *parser) meBar(u *Unit, from board.ID, a *activation) error {
	g := p.g
	typ := u.c.GroundType()
	left := u.c.MA * 2
	pos := from
	var entered []board.ID
	for _, s := range a.Steps {
		switch {
		case s.Attack:
			hc := g.cost(typ, pos, s.Hex)
			if c := hc + 2*s.Bid; c > left {
				hint := fmt.Sprintf("%s MP are left in %s: an attack on %s costs %s and a bid of 1 to 4; leave out hexes before it, or attack from where it stands (7.3)", halves(left), g.hex(pos), g.hex(s.Hex), halves(hc))
				if most := (left - hc) / 2; most >= 1 {
					hint = fmt.Sprintf("bid at most %d: %s MP are left in %s and entering %s costs %s (7.3)", most, halves(left), g.hex(pos), g.hex(s.Hex), halves(hc))
				}
				return adjudicator.Refuse(hint, "the ME on %s costs %s MP (the hex %s + the bid %d) and %s are left (7.3)", g.hex(s.Hex), halves(c), halves(hc), s.Bid, halves(left))
			}
			left -= hc + 2*s.Bid
		case s.Advance:
			pos = s.Hex
			entered = nil
		default:
			c := g.cost(typ, pos, s.Hex)
			if c > left {
				hint := fmt.Sprintf("%s can pay for no more hexes: attack from where it stands, or take a cheaper way (9.0)", u.ID)
				if len(entered) > 0 {
					hint = fmt.Sprintf("%s can pay for %s and no further: attack from there, or take a cheaper way (9.0)", u.ID, hexList(g, entered))
				}
				return adjudicator.Refuse(hint, "entering %s costs %s MP and %s are left of %s's %d (7.3)", g.hex(s.Hex), halves(c), halves(left), u.ID, u.c.MA)
			}
			left -= c
			pos = s.Hex
			entered = append(entered, s.Hex)
		}
	}
	return nil
}

// advanceBar refuses an advance path after a PA that the AACMA (limit,
// in half MP: the AACMA rolled, or before the roll the largest, 4 MP, half
// of an 8) can never pay for (8.4): the unit enters the combat hex free,
// then pays for its path.
func (p *parser) advanceBar(u *Unit, target board.ID, path []board.ID, limit int) error {
	g := p.g
	total, spent, fits := 0, 0, -1
	pos := target
	for i, h := range path {
		total += g.cost(u.c.GroundType(), pos, h)
		if total <= limit {
			spent, fits = total, i
		}
		pos = h
	}
	if total <= limit {
		return nil
	}
	hint := fmt.Sprintf("%s cannot pay for %s with an AACMA of %d: let it stop in %s (8.4)", u.ID, g.hex(path[0]), limit/2, g.hex(target))
	if fits >= 0 {
		hint = fmt.Sprintf("with an AACMA of %d, %s can pay for %s (%s MP): end its path there (8.4)", limit/2, u.ID, hexList(g, path[:fits+1]), halves(spent))
	}
	if limit < aacmaMax {
		return adjudicator.Refuse(hint, "%s's advance costs %s MP after %s: the AACMA is %d (8.4)", u.ID, halves(total), g.hex(target), limit/2)
	}
	return adjudicator.Refuse(hint, "%s's advance costs %s MP after %s: the AACMA is at most 4 (8.4)", u.ID, halves(total), g.hex(target))
}

// nowhereBar refuses a move that can never move (docs/rulings.md, issue
// 31 (no-ops)): the first activation of a queue sent in answer to an
// Action Phase question, which is carried out at once, when its first
// alternative has no condition (so it is the one taken) and every hex of
// its path holds another friendly unit, so that 3.6 trims the whole move
// away and the unit would go static where it stands. No overstacked
// friendly hex may exist (its exit would be activated first, 7.0). A
// move later in the queue, with a condition, or sent at the start of the
// turn is accepted with its forecast: what happens before it may clear
// the way.
func (p *parser) nowhereBar(alts []alt) error {
	g := p.g
	if g.Phase != phaseQueue || len(alts) == 0 || len(alts[0].Conds) > 0 || alts[0].Skip || len(g.overstacked(p.side)) > 0 {
		return nil
	}
	act := alts[0].Act
	if act == nil || (act.Kind != "move" && act.Kind != "sm") || len(act.Path) == 0 {
		return nil
	}
	u := g.byID[act.Unit]
	mp := u.c.MA * 2
	if act.Kind == "sm" {
		mp *= 2
	}
	steps, _ := g.walk(u, u.pos, act.Path, mp, act.Kind == "sm")
	if len(steps) == 0 {
		return nil
	}
	if kept, trimmed := g.trimStack(u, steps); len(kept) > 0 || !trimmed {
		return nil
	}
	var there []string
	for _, s := range steps {
		for _, o := range g.occ[s.hex] {
			if o != u && !slices.Contains(there, o.ID) {
				there = append(there, o.ID)
			}
		}
	}
	return adjudicator.Refuse(fmt.Sprintf("end the move in a hex no friendly unit holds, or move %s away in a line above this one (3.6)", strings.Join(there, ", ")),
		"%s's move goes nowhere: %s holds every hex of it (%s), and only one unit may end a move in a hex (3.6), so %s would go static in %s", u.ID, strings.Join(there, ", "), hexList(g, act.Path), u.ID, u.Hex)
}
