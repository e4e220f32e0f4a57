package pcs1995

// This file briefs a seat on the step open (adjudicator.Briefer): what the
// step asks and, for each of its units or decisions, the order lines it
// may send; and lists the standing orders in force
// (adjudicator.StandingOrders). Every line offered is one the parser
// accepts in the step, checked by the parser itself; the lines of an
// activation step are also ones the Action Phase carries out now (pick).

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// briefMoves and briefSMs are how many destinations a unit's regular and
// strategic moves offer, spread over the hexes it can reach (the SMs
// take the paths of the moves that SM may take); briefAirmobile
// how many empty cities an airmobile unit is offered; briefStrict how many
// lines a strict-mode activation choice holds in all.
const (
	briefMoves     = 8
	briefSMs       = 5
	briefAirmobile = 6
	briefStrict    = 40
	// briefReach caps the MP (in half MP) a move offered spends: the
	// moves stay short and Brief fast.
	briefReach = 6
)

// Brief implements adjudicator.Briefer. The set-up offers each unit's
// other legal set-up hexes near its own (12.0) and the standing orders; a
// turn's first step each arriving unit's legal entry hexes (5.0), each air
// unit's boxes (6.0), each fresh unit's activations, the de-escalation
// roll, a pass and the standing orders; an Action Phase step the
// activations the judge can carry out now (only moves out of an
// overstacked hex while there is one, 3.6); strict mode's air step the
// next placements; a decision step every answer to its question.
func (rules) Brief(state []byte, seat string) adjudicator.Brief {
	g, err := decode(state)
	if err != nil {
		return adjudicator.Brief{Asks: err.Error()}
	}
	if g.Over {
		return adjudicator.Brief{Asks: "The game is over: no orders are due."}
	}
	seats, _ := g.owing()
	if !slices.Contains(seats, seat) {
		return adjudicator.Brief{Asks: fmt.Sprintf("No orders are due from you in this step (%s).", g.label())}
	}
	b := &briefer{g: g, seat: seat, side: sideOf(seat)}
	switch g.Phase {
	case phaseSetup:
		return b.setup()
	case phaseTurn:
		return b.turn()
	case phaseQueue:
		return b.queue()
	case phaseAir:
		return b.airStep()
	case phaseDecision:
		return b.decision()
	}
	return adjudicator.Brief{Asks: g.label()}
}

// briefer builds one seat's brief.
type briefer struct {
	g    *game
	seat string
	side faction
}

// accepts reports whether the parser takes lines as a file of the seat's
// with no problem.
func (b *briefer) accepts(lines ...string) bool {
	_, problems := b.g.parseLines(b.seat, adjudicator.NumberLines(lines...))
	return len(problems) == 0
}

// keep is the lines the parser accepts, each on its own.
func (b *briefer) keep(lines []string) []string {
	return adjudicator.Keep(nil, 0, func(l string) bool { return b.accepts(l) }, lines...)
}

// about names a ground unit as the units table does.
func (b *briefer) about(u *Unit) string {
	r := b.g.unitRow(u)
	s := u.ID + " " + r.Type + " (" + r.Strength + ")"
	if u.onMap() {
		s += " at " + b.g.placeName(u.pos)
	} else {
		s += ", " + r.Where
	}
	if r.Status != "" {
		s += ", " + r.Status
	}
	return s
}

func (b *briefer) setup() adjudicator.Brief {
	g := b.g
	br := adjudicator.Brief{Asks: "Set up your units (12.0): each unit may be placed in another hex of its set-up area " +
		"(one unit a hex, at most two Serbian units in each Srpska territory; a second unit placed in a hex sets up in its own hex). " +
		"Give your standing orders too: they answer the opponent's decisions inside an activation."}
	for _, u := range g.Units {
		if u.side() != b.side || !u.onMap() {
			continue
		}
		var cand []board.ID
		for _, h := range b.near(u.pos) {
			if g.setupBar(u.c, h) == "" {
				cand = append(cand, h)
			}
		}
		slices.SortFunc(cand, func(x, y board.ID) int {
			return cmp.Or(cmp.Compare(g.grid.Distance(u.pos, x), g.grid.Distance(u.pos, y)), cmpID(x, y))
		})
		var lines []string
		for _, h := range cand[:min(len(cand), 12)] {
			lines = append(lines, "place "+u.ID+" "+g.hex(h))
		}
		if lines = b.keep(lines); len(lines) > 0 {
			br.Choices = append(br.Choices, adjudicator.Choice{About: b.about(u), Lines: lines, Default: "it sets up in " + g.placeName(u.pos)})
		}
	}
	br.Choices = append(br.Choices, b.standing()...)
	return br
}

// near lists the hexes of the map one or two hexes from h.
func (b *briefer) near(h board.ID) []board.ID {
	var out []board.ID
	for _, n1 := range b.g.grid.Neighbours(h) {
		for _, n2 := range append(b.g.grid.Neighbours(n1), n1) {
			if n2 != h && !slices.Contains(out, n2) {
				out = append(out, n2)
			}
		}
	}
	return out
}

func (b *briefer) turn() adjudicator.Brief {
	g := b.g
	asks := fmt.Sprintf("Turn %d (%s has the initiative): place your arriving units (5.0), commit your air units to their boxes (6.0) "+
		"and queue your activations (7.0): the judge runs them in strict alternation with the other side's, initiative side first, "+
		"and asks you again when your queue runs out.", g.Turn, g.Initiative)
	if g.Strict {
		asks += " Strict mode: one air placement and one activation in this step."
	}
	br := adjudicator.Brief{Asks: asks}
	for _, u := range g.Units {
		if u.side() != b.side || u.Status != arriving {
			continue
		}
		var lines []string
		for _, h := range b.entryHexes(u) {
			lines = append(lines, "place "+u.ID+" "+g.hex(h))
		}
		if lines = b.keep(lines); len(lines) > 0 {
			br.Choices = append(br.Choices, adjudicator.Choice{About: b.about(u) + ", arriving", Lines: lines,
				Default: "it enters by your entry order, else at its first eligible entry hex"})
		}
	}
	var allAir []string
	for _, a := range g.Air {
		if a.c.Side != b.side || a.Box == boxPool || a.Box == boxEliminated {
			continue
		}
		lines := b.keep(b.airLines(a))
		if g.Strict {
			allAir = append(allAir, lines...)
		} else if len(lines) > 0 {
			br.Choices = append(br.Choices, adjudicator.Choice{About: b.aboutAir(a), Lines: lines, Default: "it goes to its default box, " + defaultBox(a)})
		}
	}
	if len(allAir) > 0 {
		br.Choices = append(br.Choices, adjudicator.Choice{About: "your first air placement (strict mode)", Lines: allAir,
			Default: "you are asked for each placement in turn"})
	}
	br.Choices = append(br.Choices, b.activations("this file does not activate it")...)
	br.Choices = append(br.Choices, b.standing()...)
	return br
}

func (b *briefer) queue() adjudicator.Brief {
	g := b.g
	br := adjudicator.Brief{Asks: fmt.Sprintf("Turn %d, Action Phase (7.0): %s. Send your next activations; the first runs at once.", g.Turn, g.Pending.Question)}
	def := "it is not activated now"
	if over := g.overstacked(b.side); len(over) > 0 {
		br.Asks += fmt.Sprintf(" %s is overstacked: a unit there must move out before any other activation (3.6, 7.0).", hexList(g, over))
	}
	br.Choices = b.activations(def)
	return br
}

func (b *briefer) airStep() adjudicator.Brief {
	g := b.g
	var lines []string
	for _, a := range g.unplaced(b.side) {
		lines = append(lines, b.airLines(a)...)
	}
	br := adjudicator.Brief{Asks: fmt.Sprintf("Turn %d, Air Commitment (6.0, strict mode): place your next air unit. The other side has placed so far: %s.", g.Turn, g.placedText(other(b.side)))}
	if lines = b.keep(lines); len(lines) > 0 {
		br.Choices = append(br.Choices, adjudicator.Choice{About: "your next air placement", Lines: lines, Default: g.Pending.Default})
	}
	return br
}

// airLines places an air unit in each box of its type but its default
// box, where it goes without a line (6.0).
func (b *briefer) airLines(a *air) []string {
	var out []string
	for _, box := range map[string][]string{"F": fBoxes, "G": gBoxes}[a.c.Type] {
		if box != defaultBox(a) {
			out = append(out, "air "+a.ID+" "+box)
		}
	}
	return out
}

// aboutAir names an air unit with its rating and box.
func (b *briefer) aboutAir(a *air) string {
	s := fmt.Sprintf("%s %s air (%s, ER %d), in %s", a.ID, a.c.Type, a.c.Nationality, a.ER(), orNone(a.Box))
	if a.Damaged {
		s += ", damaged"
	}
	return s
}

// entryHexes lists the hexes an arriving unit may enter at (5.0, 5.3):
// its eligible entry hexes and the hexes next to them, and for a Serbian
// unit recovered on an 8 the Serbian cities.
func (b *briefer) entryHexes(u *Unit) []board.ID {
	g := b.g
	var out []board.ID
	add := func(h board.ID) {
		if !slices.Contains(out, h) && g.entryBar(u, h, nil) == "" {
			out = append(out, h)
		}
	}
	for _, e := range g.entryHexesOf(u) {
		add(e)
		for _, nb := range g.grid.Neighbours(e) {
			add(nb)
		}
	}
	if u.Anywhere {
		for _, c := range g.sc.cities {
			add(c)
		}
	}
	return out[:min(len(out), 30)]
}

// activations is a choice per fresh unit with its activations, the
// de-escalation roll and the pass. In an Action Phase step only the lines
// the judge carries out now are offered, and while the side is
// overstacked only moves out of the stack (3.6, 7.0); in strict mode every
// line is in one choice (one activation a step).
func (b *briefer) activations(def string) []adjudicator.Choice {
	g := b.g
	now := g.Phase == phaseQueue
	over := g.overstacked(b.side)
	runs := func(line string) bool {
		if !now {
			return true
		}
		alts := g.parseQueue(b.seat, line)
		a, _ := g.pick(b.side, alts)
		if a == nil || a.Act == nil {
			return false
		}
		return len(over) == 0 || g.movesOut(a.Act, over)
	}
	var out []adjudicator.Choice
	var strict []string
	for _, u := range g.Units {
		if u.side() != b.side || !u.fresh() {
			continue
		}
		if now && len(over) > 0 && !slices.Contains(over, u.pos) {
			continue
		}
		var lines []string
		for _, l := range b.unitLines(u) {
			if runs(l) && b.accepts(l) {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			continue
		}
		if g.Strict {
			strict = append(strict, lines[:min(len(lines), 2)]...)
			continue
		}
		out = append(out, adjudicator.Choice{About: b.about(u), Lines: lines, Default: def})
	}
	free := !now || len(over) == 0
	var end []string
	if free && !g.Deesc[b.seat] {
		end = append(end, "deescalate")
	}
	if free {
		end = append(end, "pass")
	}
	if g.Strict {
		strict = append(strict[:min(len(strict), briefStrict)], end...)
		if strict = b.keep(strict); len(strict) > 0 {
			out = append(out, adjudicator.Choice{About: "your next activation (strict mode)", Lines: strict, Default: b.endDefault()})
		}
		return out
	}
	if free && !g.Deesc[b.seat] && b.accepts("deescalate") {
		out = append(out, adjudicator.Choice{About: "the de-escalation roll (7.5), once a turn", Lines: []string{"deescalate"}, Default: "you do not roll"})
	}
	if free {
		out = append(out, adjudicator.Choice{About: "the end of your activations (7.0)", Lines: []string{"pass"}, Default: b.endDefault()})
	}
	return out
}

// endDefault says what happens when the seat's queue runs out.
func (b *briefer) endDefault() string {
	if b.g.Phase == phaseQueue {
		if b.g.Pending.Resume {
			return "your held queue goes on"
		}
		return "a file without activations passes for the rest of the turn; with some, you are asked again when they run out"
	}
	return "you are asked again when your queue runs out"
}

// unitLines are a fresh unit's candidate activations from where it
// stands: a PA and an ME on each enemy hex next to it (7.3, 7.4), regular
// moves (7.1) and, away from the enemy, strategic moves (7.2) to hexes
// spread over its reach, and an airmobile unit's moves to empty cities
// (3.3.1). The caller keeps those the parser accepts.
func (b *briefer) unitLines(u *Unit) []string {
	g := b.g
	var out []string
	for _, nb := range g.grid.Neighbours(u.pos) {
		if !g.enemyAt(b.side, nb) {
			continue
		}
		out = append(out, "pa "+u.ID+" "+g.hex(nb))
		if sup := g.supporters(u, func(o *Unit) board.ID { return o.pos }, nb); sup[0] != "(none)" {
			out = append(out, "pa "+u.ID+" "+g.hex(nb)+" with "+strings.Join(sup, ","))
		}
		for bid := 4; bid >= 1; bid-- {
			if l := fmt.Sprintf("me %s attack %s bid %d", u.ID, g.hex(nb), bid); b.accepts(l) {
				out = append(out, l)
				break
			}
		}
	}
	if u.c.Airmobile() {
		var cities []board.ID
		for _, c := range g.sc.cities {
			if c != u.pos && len(g.occ[c]) == 0 && g.airmobileBar(u, c) == "" {
				cities = append(cities, c)
			}
		}
		slices.SortFunc(cities, func(x, y board.ID) int {
			return cmp.Or(cmp.Compare(g.grid.Distance(u.pos, x), g.grid.Distance(u.pos, y)), cmpID(x, y))
		})
		for _, c := range cities[:min(len(cities), briefAirmobile)] {
			out = append(out, "airmobile "+u.ID+" "+g.hex(c))
		}
	}
	moves := b.moves(u)
	out = append(out, moves...)
	if !g.nextToEnemy(b.side, u.pos) {
		n := 0
		for _, l := range moves {
			if n < briefSMs && b.smLegal(u, l) {
				out = append(out, "sm"+strings.TrimPrefix(l, "move"))
				n++
			}
		}
	}
	return out
}

// moves are up to briefMoves moves of u to empty hexes it can reach with
// at most briefReach half MP, farthest first and spread over the compass,
// each with its cheapest path.
func (b *briefer) moves(u *Unit) []string {
	g := b.g
	n := briefMoves
	paths := g.reach(u, min(u.c.MA*2, briefReach), false)
	var dest []board.ID
	for h := range paths {
		if h != u.pos && len(g.occ[h]) == 0 {
			dest = append(dest, h)
		}
	}
	slices.SortFunc(dest, func(x, y board.ID) int {
		return cmp.Or(cmp.Compare(g.grid.Distance(u.pos, y), g.grid.Distance(u.pos, x)), cmpID(x, y))
	})
	// one destination per first hex of the path first, then the rest
	var picked []board.ID
	first := map[board.ID]bool{}
	for _, h := range dest {
		if f := paths[h].path[0]; !first[f] && len(picked) < n {
			first[f] = true
			picked = append(picked, h)
		}
	}
	for _, h := range dest {
		if len(picked) >= n {
			break
		}
		if !slices.Contains(picked, h) {
			picked = append(picked, h)
		}
	}
	var out []string
	for _, h := range picked {
		out = append(out, "move "+u.ID+" "+hexList(g, paths[h].path))
	}
	return out
}

// smLegal reports whether the path of a move line may be taken as an SM
// (7.2): no hex of it next to an enemy unit or beyond the SM limit.
func (b *briefer) smLegal(u *Unit, line string) bool {
	for _, h := range strings.Fields(line)[2:] {
		id, err := b.g.grid.Parse(h)
		if err != nil || b.g.nextToEnemy(b.side, id) || b.g.smLimit(u, id) != "" {
			return false
		}
	}
	return true
}

// standingChoices are the standing orders a brief offers (docs/orders-
// pcs1995.md), each kind a choice; the order in force is left out.
var standingChoices = []struct {
	key, about string
	lines      []string
}{
	{"absorb", "how your units absorb LP (8.3), standing", []string{
		"absorb static support retreat vp rout", "absorb retreat static support vp rout", "absorb vp static support retreat rout",
		"absorb support static retreat vp rout", "absorb rout", "absorb ask"}},
	{"defend", "the air you commit when your unit is attacked (6.3.2, 6.5), standing", []string{
		"defend gs all interdict all escort all", "defend gs all interdict none escort none", "defend gs 1 interdict none escort 1",
		"defend none", "defend ask"}},
	{"intercept:all", "your patrol F intercepting enemy missions (6.2), standing", []string{
		"intercept all all", "intercept all 1", "intercept all none", "intercept all ask"}},
	{"interdict", "your interdiction G against enemy SM (6.3.1), standing", []string{
		"interdict sm 1 escort none", "interdict sm all escort all", "interdict sm none", "interdict ask"}},
	{"advancing", "who advances after your PA when its line does not say (8.4), standing", []string{
		"advancing lead", "advancing none", "advancing ask"}},
	{"stop", "holding your queue after an enemy attack (7.0), standing", []string{
		"stop after attack on any", "stop none"}},
}

// standing is a choice per kind of standing order offered.
func (b *briefer) standing() []adjudicator.Choice {
	var out []adjudicator.Choice
	for _, sc := range standingChoices {
		now := b.inForce(sc.key)
		var lines []string
		for _, l := range sc.lines {
			if l != now {
				lines = append(lines, l)
			}
		}
		if lines = b.keep(lines); len(lines) > 0 {
			out = append(out, adjudicator.Choice{About: sc.about, Lines: lines, Default: "it stays: " + now})
		}
	}
	return out
}

// inForce is the line of the standing order under key in force for the
// seat, its default (ask, or stop none) when it gave none.
func (b *briefer) inForce(key string) string {
	verb, sub, _ := strings.Cut(key, ":")
	v, ok := b.g.Standing[b.seat][key]
	if !ok {
		v = "ask"
		if verb == "stop" {
			v = "none"
		}
	}
	if sub != "" {
		return verb + " " + sub + " " + v
	}
	return verb + " " + v
}

// Standing implements adjudicator.StandingOrders: the seat's standing
// orders, each kind in the order of docs/orders-pcs1995.md; a decision
// without one is asked ("ask"), stop defaults to none, and entry,
// italians and oncall orders are shown when given.
func (rules) Standing(state []byte, seat string) []string {
	g, err := decode(state)
	if err != nil || (seat != seatNATO && seat != seatRS) {
		return nil
	}
	b := &briefer{g: g, seat: seat, side: sideOf(seat)}
	var out []string
	for _, sc := range standingChoices[:4] {
		out = append(out, b.inForce(sc.key))
	}
	st := g.Standing[seat]
	keys := make([]string, 0, len(st))
	for k := range st {
		if strings.HasPrefix(k, "intercept:") && k != "intercept:all" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, b.inForce(k))
	}
	out = append(out, b.inForce("advancing"))
	for _, k := range []string{"entry", "italians"} {
		if v, ok := st[k]; ok {
			out = append(out, k+" "+v)
		}
	}
	keys = keys[:0]
	for k := range st {
		if strings.HasPrefix(k, "oncall:") {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, b.inForce(k))
	}
	return append(out, b.inForce("stop"))
}

// decision lists every answer to the question open (6.2, 6.3.1, 6.5, 8.3,
// 8.4), as the parser accepts it.
func (b *briefer) decision() adjudicator.Brief {
	g := b.g
	p := g.Pending
	br := adjudicator.Brief{Asks: p.Question + ". " + p.Hint}
	lines := b.keep(b.answers())
	if len(lines) == 0 {
		lines = b.keep([]string{"decide " + p.Default})
	}
	br.Choices = []adjudicator.Choice{{About: "your answer to the " + p.Decide + " question", Lines: lines, Default: "the default answer applies: " + p.Default}}
	return br
}

// quantities are the distinct answers to "how many of n": none, each
// number up to n-1, all.
func quantities(n int) []string {
	out := []string{"none"}
	for i := 1; i < n; i++ {
		out = append(out, fmt.Sprint(i))
	}
	if n > 0 {
		out = append(out, "all")
	}
	return out
}

// answers are the candidate answers to the question open.
func (b *briefer) answers() []string {
	g := b.g
	p := g.Pending
	var out []string
	switch p.Decide {
	case "intercept":
		for _, q := range quantities(len(aliveOf(g.airOf(b.side, boxPatrol)))) {
			out = append(out, "decide "+q)
		}
	case "defend":
		gs, in, es := quantities(len(aliveOf(g.airOf(b.side, boxGS)))), quantities(len(aliveOf(g.airOf(b.side, boxInterdiction)))), quantities(len(aliveOf(g.airOf(b.side, boxPatrol))))
		if len(gs)*len(in)*len(es) > briefStrict {
			in, es = short(in), short(es)
		}
		out = append(out, "decide none")
		for _, x := range gs {
			for _, y := range in {
				for _, z := range es {
					if x != "none" || y != "none" || z != "none" {
						out = append(out, "decide gs "+x+" interdict "+y+" escort "+z)
					}
				}
			}
		}
	case "interdict":
		out = append(out, "decide sm none")
		for _, x := range quantities(len(aliveOf(g.airOf(b.side, boxInterdiction))))[1:] {
			for _, z := range quantities(len(aliveOf(g.airOf(b.side, boxPatrol)))) {
				out = append(out, "decide sm "+x+" escort "+z)
			}
		}
	case "absorb":
		_, opts, _ := strings.Cut(p.Question, "Options: ")
		var have []string
		for _, o := range absorbOptions[:4] {
			if strings.Contains(opts, o+" (") {
				have = append(have, o)
			}
		}
		for _, perm := range permutations(have) {
			out = append(out, "decide "+strings.Join(append(perm, "rout"), " "))
		}
		out = append(out, "decide rout")
	case "advance":
		out = append(out, "decide none", "decide lead")
		if w := p.Work; w != nil {
			f := strings.Fields(w.Line)
			if len(f) >= 3 && f[0] == "pa" {
				var who []string
				if i := slices.Index(f, "with"); i >= 0 && i+1 < len(f) {
					who = strings.Split(f[i+1], ",")
				}
				for _, id := range who {
					out = append(out, "decide "+id)
				}
				if target, err := g.grid.Parse(f[2]); err == nil {
					for _, nb := range g.grid.Neighbours(target) {
						out = append(out, "decide "+f[1]+">"+g.hex(nb))
					}
				}
			}
		}
	}
	return out
}

// short keeps none and all of a list of quantities.
func short(qs []string) []string {
	if len(qs) <= 2 {
		return qs
	}
	return []string{"none", "all"}
}

// permutations lists every order of xs.
func permutations(xs []string) [][]string {
	if len(xs) <= 1 {
		return [][]string{slices.Clone(xs)}
	}
	var out [][]string
	for i, x := range xs {
		rest := slices.Concat(xs[:i:i], xs[i+1:])
		for _, p := range permutations(rest) {
			out = append(out, append([]string{x}, p...))
		}
	}
	return out
}
