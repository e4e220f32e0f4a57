package sms1914

// This file briefs a seat on the step open (adjudicator.Briefer) and lists
// its standing orders in force (adjudicator.StandingOrders). Every line
// offered is one the parser accepts in the step, checked by the parser
// itself.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// briefAttacks caps the lines of the one attack choice.
const briefAttacks = 40

// Brief implements adjudicator.Briefer. A movement step offers each Force
// a move into each hex next to it and, in the phasing player's step, CE
// Recovery (7.1, 7.5); an attack step one attack on an enemy hex by a unit
// next to it, all under one choice (a unit and a hex attack once, 9.2); a
// defender's step the answers for each attacked hex (9.4, 9.8, 23.2); the
// Inter-Phase the REPL priorities (16.6.2). Every step offers a few
// standing orders (retire, defend, ammo, shells) but the ones in force.
func (rules) Brief(state []byte, seat string) adjudicator.Brief {
	g, err := decode(state)
	if err != nil {
		return adjudicator.Brief{Asks: err.Error()}
	}
	if g.Over {
		return adjudicator.Brief{Asks: "The game is over: no orders are due."}
	}
	if !slices.Contains(g.owing(), seat) {
		return adjudicator.Brief{Asks: fmt.Sprintf("No orders are due from you in this step (%s).", g.phaseLabel())}
	}
	b := &briefer{g: g, seat: seat, side: seatSide(seat)}
	g.assign()
	var br adjudicator.Brief
	switch g.Phase {
	case phaseTurn:
		br.Asks = fmt.Sprintf("GT %d, your Player Turn: move your Forces (7.1), each with its own line(s); Forces act in the order of the lines. Attacks are declared in the next step.", g.GT)
		br.Choices = b.moves(false)
	case phaseCounter:
		br.Asks = fmt.Sprintf("GT %d: the Counter Movement Phase (7.0): move your Forces; no Prepared Attacks.", g.GT)
		br.Choices = b.moves(true)
	case phaseAttack, phaseCounterAttack:
		br.Asks = fmt.Sprintf("GT %d: declare your attacks (9.0), in the order they are resolved; units with a PA at an enemy-held hex attack it anyway (7.3.1).", g.GT)
		br.Choices = b.attacks()
	case phaseDefend, phaseCounterDefend:
		br.Asks = fmt.Sprintf("GT %d: answer each attack on your hexes (9.4, 9.8): Intense or not, Ammo, Shells; a hex without an answer follows your standing orders.", g.GT)
		br.Choices = b.answers()
	case phaseInterPhase:
		br.Asks = "The Inter-Phase (4.3, 16.6): say which units take REPLs first; the umpire places every REPL that can be placed."
		br.Choices = b.repls()
	}
	br.Choices = append(br.Choices, b.standingChoices()...)
	return br
}

// briefer builds one seat's brief.
type briefer struct {
	g    *game
	seat string
	side side
}

// accepts reports whether the parser takes lines as a file of the seat's.
func (b *briefer) accepts(lines ...string) bool {
	_, problems := b.g.parseLines(b.seat, adjudicator.NumberLines(lines...))
	return len(problems) == 0
}

// keep is the lines the parser accepts, each on its own.
func (b *briefer) keep(lines []string) []string {
	return adjudicator.Keep(nil, 0, func(l string) bool { return b.accepts(l) }, lines...)
}

// about names a unit as the units table does.
func (b *briefer) about(u *unit) string {
	s := u.ID + " " + typeText(u) + " " + strengthText(u) + " at " + u.Hex
	if u.Hex2 != "" {
		s += "+" + u.Hex2
	}
	if st := b.g.statusText(u); st != "" {
		s += ", " + st
	}
	return s
}

// moves is a choice per Force of the seat's side: a move into each hex
// next to it, and CE Recovery outside the counter movement (7.5).
func (b *briefer) moves(counter bool) []adjudicator.Choice {
	g := b.g
	m := g.newPhaseMove(b.side, counter)
	var out []adjudicator.Choice
	used := map[*unit]bool{}
	for _, u := range g.units(b.side) {
		if used[u] || !u.c.Formation || u.Inactive || u.Task != "" || u.Hex2 != "" || !u.c.Combat() {
			continue
		}
		units := g.forceOf(u).Units()
		if slices.ContainsFunc(units, func(x *unit) bool { return used[x] }) {
			continue
		}
		var ids []string
		for _, x := range units {
			if !x.isFort() {
				ids = append(ids, x.ID)
			}
		}
		name := strings.Join(ids, "+")
		var lines []string
		if !counter && u.CE > statusNone && g.recoveryBar(m, u) == "" {
			lines = append(lines, "recover "+u.ID)
		}
		for _, n := range g.nbrs(u.pos) {
			lines = append(lines, "move "+name+" "+g.hex(n))
		}
		if lines = b.keep(lines); len(lines) == 0 {
			continue
		}
		for _, x := range units {
			used[x] = true
		}
		about := b.about(u)
		if len(ids) > 1 {
			about += ", with " + strings.Join(ids[1:], ", ")
		}
		out = append(out, adjudicator.Choice{About: about, Lines: lines, Default: "it stays"})
	}
	return out
}

// attacks is one choice of attacks: each enemy hex next to the seat's
// units attacked by one unit that may attack it (9.2).
func (b *briefer) attacks() []adjudicator.Choice {
	g := b.g
	var lines []string
	for _, id := range g.sc.hexes {
		if !g.enemyIn(id, b.side) {
			continue
		}
		for _, n := range g.nbrs(id) {
			for _, u := range g.sideAt(n, b.side) {
				if len(lines) < briefAttacks && g.attackBar(u, id) == "" {
					lines = append(lines, "attack "+g.hex(id)+" with "+u.ID+" advance all")
				}
			}
		}
	}
	if lines = b.keep(lines); len(lines) == 0 {
		return nil
	}
	return []adjudicator.Choice{{About: "an attack (9.2: a hex and a unit attack once a phase)", Lines: lines,
		Default: "only the attacks Prepared Attacks make mandatory"}}
}

// answers is a choice per attacked hex of the seat's: Intense or not,
// without Ammo, and for the Serbs with Shells (9.4, 9.8, 23.2).
func (b *briefer) answers() []adjudicator.Choice {
	g := b.g
	var out []adjudicator.Choice
	seen := map[string]bool{}
	for _, a := range g.Attacks {
		if seen[a.Target] {
			continue
		}
		seen[a.Target] = true
		h := a.Target
		lines := []string{"answer " + h + " intense", "answer " + h + " not", "answer " + h + " not noammo", "answer " + h + " intense noammo"}
		if b.side == sb {
			lines = append(lines, "answer "+h+" intense shells yes", "answer "+h+" not shells no")
		}
		if lines = b.keep(lines); len(lines) > 0 {
			// the attackers are not named: fog of war may hide them
			out = append(out, adjudicator.Choice{About: "the attack on " + h, Lines: lines,
				Default: "your standing defence orders answer"})
		}
	}
	return out
}

// repls is the REPL priority: the seat's Formations, one each.
func (b *briefer) repls() []adjudicator.Choice {
	var lines []string
	for _, u := range b.g.units(b.side) {
		if u.c.Formation && len(lines) < 20 {
			lines = append(lines, "repl "+u.ID)
		}
	}
	if lines = b.keep(lines); len(lines) == 0 {
		return nil
	}
	return []adjudicator.Choice{{About: "the unit that takes REPLs first (16.6.2), standing", Lines: lines, Default: "the umpire places the REPLs"}}
}

// standingOffered are the standing orders every brief offers, by kind.
var standingOffered = []struct {
	kind, about string
	serb        bool
	lines       []string
}{
	{"retire", "cavalry next to the enemy in the Finishing Phase (8.3), standing", false, []string{"retire all", "retire none"}},
	{"defend", "how you answer attacks on you (9.8), standing", false, []string{"defend ask", "defend auto", "defend intense", "defend not"}},
	{"ammo", "Ammo when defending (9.4), standing", false, []string{"ammo yes", "ammo no"}},
	{"shells", "Serbian Shells for a defence (23.2), standing", true, []string{"shells needed", "shells yes", "shells no"}},
}

// standingChoices offers each standing order but the line in force.
func (b *briefer) standingChoices() []adjudicator.Choice {
	now := b.inForce()
	var out []adjudicator.Choice
	for _, s := range standingOffered {
		if s.serb && b.side != sb {
			continue
		}
		var lines []string
		for _, l := range s.lines {
			if !slices.Contains(now, l) {
				lines = append(lines, l)
			}
		}
		if lines = b.keep(lines); len(lines) > 0 {
			out = append(out, adjudicator.Choice{About: s.about, Lines: lines, Default: "the order in force stays"})
		}
	}
	return out
}

// standingDefaults are the lines in force for a kind the seat gave no
// order of (docs/orders-sms1914.md): no retiring, Not Intense, Ammo,
// Repulse, and the Serbs' Shells when needed.
var standingDefaults = map[string]string{"retire": "retire none", "defend": "defend not", "ammo": "ammo yes", "repulse": "repulse yes", "shells": "shells needed"}

// inForce lists the seat's standing orders in force, kind by kind, the
// defaults of the kinds it gave none of; defend auto unless it keeps
// defend ask.
func (b *briefer) inForce() []string {
	var out []string
	for _, k := range standingKinds {
		lines := b.g.standing(b.seat, k)
		if k == "defend" && !slices.Contains(lines, "ask") {
			out = append(out, "defend auto")
		}
		if k == "defend" && !slices.ContainsFunc(lines, func(l string) bool { return l != "ask" }) {
			lines = append(lines, "not")
		}
		if len(lines) == 0 {
			if d, ok := standingDefaults[k]; ok && (k != "shells" || b.side == sb) {
				out = append(out, d)
			}
			continue
		}
		for _, l := range lines {
			out = append(out, k+" "+l)
		}
	}
	return out
}

// Standing implements adjudicator.StandingOrders: the seat's standing
// orders in force, in the order of their kinds, with the defaults (retire
// none, defend auto, defend not, ammo yes, repulse yes, and for the Serbs
// shells needed) of the kinds it gave none of.
func (rules) Standing(state []byte, seat string) []string {
	g, err := decode(state)
	if err != nil || (seat != seatSerb && seat != seatAH) {
		return nil
	}
	return (&briefer{g: g, seat: seat, side: seatSide(seat)}).inForce()
}
