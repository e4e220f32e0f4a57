package bu

// The order grammar (docs/orders-bu.md). Every line is read against a
// sandbox copy of the state as the step will find it, so that whatever can
// be known when the orders arrive is refused at once, with the line and a
// hint: a card not held, a mode the card does not allow, a unit that is not
// the seat's or has acted, a road that does not exist, a path too long, the
// stacking limit.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// order is one order line, read.
type order struct {
	Line  int
	Verb  string
	Canon string
	Units []string
	Path  []string // spaces entered, in order
	Card  string
	Mode  string
	Side  Side
	Space string
	// attack
	Groups  []group
	Combat  string
	Prep    []string
	Losses  []string
	Advance []string // all, none, UNIT or UNIT>SPACE
	// standing orders and decisions: the words after the verb, canonical
	Words []string
	Full  bool
}

// group is one attacking space of an attack: its units (none: every unit
// that may), and the adjacent friendly space they move to before
// attacking (13.4.2), "" for none.
type group struct {
	From  string
	Units []string
	To    string
}

func (gr group) String() string {
	s := gr.From
	if len(gr.Units) > 0 {
		s += ":" + strings.Join(gr.Units, "+")
	}
	if gr.To != "" {
		s += ">" + gr.To
	}
	return s
}

// verbs is B&U's order table: every order the parser accepts is of one of
// its verbs (parse checks each against it), and `help bu` mails it.
var verbs = adjudicator.Verbs{
	{Name: "losses", Form: "losses auto|ask|UNIT...", Phases: standingPhase, Rules: "13.4.6", Example: "losses auto",
		Summary: "your losses: the umpire's allocation (auto), be asked when there is a real choice (ask), or these units lose steps first"},
	{Name: "retreat", Form: "retreat ask|ignore|move SPACE... (standing); retreat UNIT SPACE [SPACE] (a retreat decision)", Phases: []string{"standing", "decision"}, Rules: "13.4.8", Example: "retreat ignore",
		Summary: "standing: be asked (the default), ignore retreats where the terrain allows (one more step), or retreat to these spaces first; in a retreat decision, one unit's path"},
	{Name: "advancing", Form: "advancing all|none|ask", Phases: standingPhase, Rules: "13.4.9", Example: "advancing all",
		Summary: "whether your attacks that do not say advance (ask, the default, asks in a follow-up step)"},
	{Name: "combat", Form: "combat CARD [at SPACE...] | combat none", Phases: standingPhase, Rules: "13.4.3", Example: "combat none",
		Summary: "play a combat card of your hand when your units (in these spaces) are attacked; none forgets every standing combat order"},
	{Name: "interrupt", Form: "interrupt CARD [on event|op|sr|rp|dp|attack|any] [by SEAT] | interrupt none", Phases: standingPhase, Rules: "8.0", Example: "interrupt none",
		Summary: "play an interrupt card of your hand when its trigger comes"},
	{Name: "strike", Form: "strike auto|UNIT...", Phases: standingPhase, Rules: "7.3, 12.1.2", Example: "strike auto",
		Summary: "the enemy units your NATO strikes and rolls to reduce aim at first (auto: the strongest full-size units)"},
	{Name: "supply", Form: "supply auto|UNIT...", Phases: standingPhase, Rules: "2.4.9", Example: "supply auto",
		Summary: "in an overfull enclave, the units kept supplied first"},
	{Name: "ties", Form: "ties croat|bosniak|auto", Phases: []string{"standing (2 players)"}, Rules: "14.6.3-14.6.5", Example: "ties croat",
		Summary: "2 players, the Bosniak-Croat player: who gets a reward or a capture on a tie"},
	{Name: "pass", Form: "pass", Phases: standingPhase, Rules: "", Example: "pass",
		Summary: "do nothing (alone on its line)"},
	{Name: "region", Form: "region REGION bosniak|croat", Phases: []string{"set-up (2 players)"}, Rules: "14.2.2", Example: "region srednja-bosna bosniak",
		Summary: "the Bosniak or Croat marker of each of the three regions"},
	{Name: "reinforce", Form: "reinforce UNIT SPACE", Phases: []string{"start of turn"}, Rules: "6.2", Example: "reinforce VRS-21 banja-luka",
		Summary: "place a reinforcement of the turn in your Key Space or next to one (reinforcements not placed are lost)"},
	{Name: "recover", Form: "recover UNIT", Phases: []string{"start of turn"}, Rules: "6.3", Example: "recover SDG-1",
		Summary: "one eliminated Foreign Unit back to the box (not deployable this turn)"},
	{Name: "restore", Form: "restore UNIT UNIT", Phases: []string{"start of turn"}, Rules: "6.3", Example: "restore SDG-2 SDG-3",
		Summary: "instead of recover: two reduced Foreign Units flipped"},
	{Name: "withdraw", Form: "withdraw UNIT", Phases: []string{"start of turn"}, Rules: "6.3", Example: "withdraw SDG-2",
		Summary: "a Foreign Unit from the map back to the box"},
	{Name: "deploy", Form: "deploy UNIT SPACE", Phases: []string{"start of turn", "action round"}, Rules: "6.3, 12.1", Example: "deploy SDG-3 loznica",
		Summary: "a Foreign Unit from the box onto the map (-1 FA a foreign army); in an event, the Foreign Units card's deployment"},
	{Name: "play", Form: "play CARD op|sr|rp|dp|event [for SIDE]", Phases: []string{"action round"}, Rules: "7.0, 14.5.3", Example: "play S13 op",
		Summary: "the card of your action round and its mode; the lines after it are the mode's orders (2 players: for the side served)"},
	{Name: "move", Form: "move UNIT[+UNIT...] SPACE...", Phases: []string{"action round"}, Rules: "13.2", Example: "move VRS-1 ugljevik",
		Summary: "Operation: a stack, and every space it enters (the start space may lead); consecutive moves from one space are one activation"},
	{Name: "attack", Form: "attack SPACE from SPACE[:UNIT+UNIT][>SPACE]... [combat CARD] [prep UNIT...] [losses UNIT...|auto|ask] [advance all|none|UNIT[>SPACE]...]", Phases: []string{"action round"}, Rules: "13.4", Example: "attack brcko from priboj",
		Summary: "Operation: attack the defending space from its attacking spaces (each activated, 1 OP), with the optional clauses in this order"},
	{Name: "entrench", Form: "entrench SPACE [UNIT]", Phases: []string{"action round"}, Rules: "13.3", Example: "entrench priboj",
		Summary: "Operation: a unit of yours there entrenches"},
	{Name: "redeploy", Form: "redeploy UNIT SPACE", Phases: []string{"action round"}, Rules: "9.1", Example: "redeploy VRS-1 bijeljina",
		Summary: "Strategic Redeployment: 1 point a unit, a path through friendly (and your Foreign) spaces"},
	{Name: "replace", Form: "replace UNIT", Phases: []string{"action round"}, Rules: "10.1", Example: "replace ARBIH-3",
		Summary: "Replacement: flip a reduced unit, 1 RP"},
	{Name: "recreate", Form: "recreate UNIT SPACE full|reduced", Phases: []string{"action round"}, Rules: "10.1", Example: "recreate ARBIH-1 tuzla full",
		Summary: "Replacement: an eliminated unit in your Key Space, 2 RP full, 1 RP reduced"},
	{Name: "target", Form: "target UNIT...", Phases: []string{"action round"}, Rules: "12.1.2", Example: "target VRS-E1 VRS-1",
		Summary: "an event's roll to reduce: the units, named before the rolls, each once"},
	{Name: "place", Form: "place UNIT SPACE", Phases: []string{"action round"}, Rules: "12.1", Example: "place HVO-13 livno",
		Summary: "an event's place effect: the unit and where"},
	{Name: "safe", Form: "safe SPACE...", Phases: []string{"action round"}, Rules: "12.1, 15.0", Example: "safe srebrenica tuzla",
		Summary: "an event's UN Safe Areas, when the card lets you choose"},
	{Name: "take", Form: "take SPACE...", Phases: []string{"action round"}, Rules: "12.1", Example: "take bugojno jablanica",
		Summary: "an event's control effect: the vacant enemy spaces taken"},
	{Name: "lose", Form: "lose UNIT...", Phases: []string{"decision"}, Rules: "13.4.6.2", Example: "lose VRS-1",
		Summary: "a losses decision: one unit id a step, one of the Maximum Fulfilment allocations the report lists"},
	{Name: "ignore", Form: "ignore", Phases: []string{"decision"}, Rules: "13.4.8.1", Example: "ignore",
		Summary: "a retreat decision: take one more step and stay, where the terrain allows"},
	{Name: "advance", Form: "advance all|none|UNIT[>SPACE]...", Phases: []string{"decision"}, Rules: "13.4.9", Example: "advance all",
		Summary: "an advance decision: who advances into the cleared space (>SPACE: an elite unit's extra space)"},
}

// standingPhase are the standing orders' phases: any step the seat owes.
var standingPhase = []string{"standing"}

// Verbs implements adjudicator.Grammar.
func (rules) Verbs() adjudicator.Verbs { return verbs }

// standingVerbs are the standing orders, accepted in any step of the seat.
var standingVerbs = map[string]bool{"losses": true, "retreat": true, "advancing": true, "combat": true, "interrupt": true, "strike": true, "ties": true, "supply": true}

// lateError is a reason an order is not carried out that the receipt
// cannot meet (its own checks refuse the line first, or the points are
// counted by the parser): it shows only in "Not carried out" events.
func lateError(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

// parser reads one seat's order file for the step open, on a sandbox.
type parser struct {
	g        *game
	seat     string
	ords     []*order
	problems []adjudicator.Problem
	play     *order
	card     *card
	points   int    // OPs, SR or RP points of the card played
	used     int    // points used so far
	moveFrom string // the space of the move activation in progress
	combat   string // the combat card declared in an attack this round
	starts   int    // start-of-turn: step 1 orders seen (6.3)
	cur      int    // the line being read
	// a decision's answers so far: the line of the lose, ignore or
	// advance line, and of each unit's retreat line
	answered  int
	retreated map[string]int
}

// parse reads a seat's order lines: canonical orders and problems.
func (g *game) parse(seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	p := g.newParser(seat, lines)
	var canon []string
	for _, o := range p.ords {
		canon = append(canon, o.Canon)
	}
	return canon, p.problems
}

// sandboxOrders reads canonical orders again for adjudication, on a copy
// of the state as it is before anything of the step happened. The receipt
// read them on the same position, so none is refused; should one be, the
// seat is told in an event, never left without a word.
func (g *game) sandboxOrders(seat string, lines []string) []*order {
	if len(lines) == 0 {
		return nil
	}
	b, err := g.encode()
	var sb *game
	if err == nil {
		sb, err = decode(b)
	}
	if err != nil {
		g.evTo([]string{seat}, "7.4", "Not carried out: %s's orders (%v).", seatName(seat), err)
		return nil
	}
	var ls []adjudicator.OrderLine
	for i, l := range lines {
		ls = append(ls, adjudicator.OrderLine{Line: i + 1, Text: l})
	}
	p := sb.newParser(seat, ls)
	for _, pr := range p.problems {
		line := ""
		if pr.Line >= 1 && pr.Line <= len(lines) {
			line = lines[pr.Line-1]
		}
		g.evTo([]string{seat}, "7.4", "Not carried out: %s (%s).", line, pr.Text)
	}
	return p.ords
}

func (g *game) newParser(seat string, lines []adjudicator.OrderLine) *parser {
	g.dry = true
	p := &parser{g: g, seat: seat}
	if g.Phase == phaseRound && seat == g.Active {
		g.beginRound(seat)
		g.checkSupply(seat)
		// find the card first: the other lines depend on its mode
		for _, l := range lines {
			f := kit.Fields(l.Text)
			if len(f) > 0 && strings.ToLower(f[0]) == "play" {
				o, err := p.parsePlay(l.Line, f)
				if err != nil {
					p.problem(l.Line, err)
					continue
				}
				if p.play != nil {
					p.problem(l.Line, adjudicator.Refuse("one play line a round: keep the card you mean", "a second card: %s is already played on line %d (7.4.1)", p.play.Card, p.play.Line))
					continue
				}
				p.play = o
			}
		}
		if p.play != nil {
			// the card's bonuses (an Offensive's MF) count for the lines
			g.Round.Card, g.Round.Mode, g.Round.For = p.play.Card, p.play.Mode, p.play.Side
		}
	}
	for _, l := range lines {
		f := kit.Fields(l.Text)
		if len(f) == 0 {
			continue
		}
		verb := strings.ToLower(f[0])
		if verb == "play" && p.g.Phase == phaseRound && seat == g.Active {
			if p.play != nil && p.play.Line == l.Line {
				p.ords = append(p.ords, p.play)
			}
			continue
		}
		p.cur = l.Line
		o, err := p.line(l.Line, verb, f)
		if err == nil && o != nil {
			err = verbs.Check(o.Verb)
		}
		if err != nil {
			p.problem(l.Line, err)
			continue
		}
		if o != nil {
			o.Line = l.Line
			p.ords = append(p.ords, o)
		}
	}
	return p
}

func (p *parser) problem(line int, err error) {
	pr := adjudicator.Problem{Line: line, Text: err.Error(), Hint: "docs/orders-bu.md lists every order"}
	if r, ok := err.(*adjudicator.Refusal); ok && r.Hint != "" {
		pr.Hint = r.Hint
	}
	p.problems = append(p.problems, pr)
}

// verbsOf lists the orders of the step, for hints.
func (p *parser) verbsOf() string {
	g := p.g
	switch {
	case g.Phase == phaseSetup && p.seat == seatBC:
		return "region REGION bosniak|croat, and standing orders"
	case g.Phase == phaseStart:
		return "reinforce UNIT SPACE, recover UNIT, restore UNIT UNIT, withdraw UNIT, deploy UNIT SPACE, and standing orders"
	case g.Phase == phaseRound && p.seat == g.Active:
		return "play CARD op|sr|rp|dp|event, then move, attack, entrench, redeploy, replace, recreate or the event's lines, and standing orders"
	case g.Phase == phaseDecide && g.Pending != nil:
		return decisionHint(g.Pending.Kind)
	}
	return "standing orders (losses, retreat, advancing, combat, interrupt, strike, ties, supply)"
}

func decisionHint(kind string) string {
	switch kind {
	case "losses":
		return "lose UNIT UNIT ... (a unit once a step)"
	case "retreat":
		return "ignore, or retreat UNIT SPACE [SPACE] for each unit"
	case "advance":
		return "advance none, advance all, or advance UNIT[>SPACE] ..."
	}
	return "pass"
}

// line reads one order line.
func (p *parser) line(n int, verb string, f []string) (*order, error) {
	g := p.g
	if verb == "pass" {
		if len(f) > 1 {
			return nil, adjudicator.Refuse("pass stands alone on its line (a comment goes after #); "+p.verbsOf(), "pass takes nothing more: %q", strings.Join(f[1:], " "))
		}
		return &order{Verb: "pass", Canon: "pass"}, nil
	}
	decide := g.Phase == phaseDecide && g.Pending != nil && slices.Contains(g.Pending.Seats, p.seat)
	if decide && (verb == "lose" || verb == "ignore" || verb == "advance" ||
		verb == "retreat" && len(f) > 1 && g.Counters().Unit(unitID(f[1])) != nil) {
		return p.decision(verb, f)
	}
	if standingVerbs[verb] {
		return p.standing(verb, f)
	}
	switch {
	case g.Phase == phaseSetup && verb == "region":
		return p.region(f)
	case g.Phase == phaseStart:
		return p.start(verb, f)
	case g.Phase == phaseRound && p.seat == g.Active:
		return p.roundLine(verb, f)
	}
	h := "this step's orders are " + p.verbsOf()
	if !verbs.Has(verb) {
		h = verbs.Hint(verb, h)
	}
	return nil, adjudicator.Refuse(h, "%q is not an order of this step (%s)", strings.Join(f, " "), g.label())
}

// Counters gives the parser's game's counter list.
func (g *game) Counters() *counters { return g.sc.Counters }

// unitOf reads a unit id that must be one of seat's units.
func (p *parser) unitOf(word string) (*unit, error) {
	id := unitID(word)
	u := p.g.byID[id]
	if u == nil {
		return nil, adjudicator.Refuse(adjudicator.UnitHint(id, p.g.unitIDs(p.seat)), "there is no unit %s", id)
	}
	if !slices.Contains(p.g.seatSides(p.seat), u.Side()) {
		return nil, adjudicator.Refuse("give orders to your own units; "+adjudicator.UnitHint(id, p.g.unitIDs(p.seat)), "%s is not yours: it is %s", id, u.Side())
	}
	return u, nil
}

// onMap reads one of seat's units on the map.
func (p *parser) onMap(word string) (*unit, error) {
	u, err := p.unitOf(word)
	if err != nil {
		return nil, err
	}
	if u.Box != onMap {
		var ids []string
		for _, x := range p.g.Units {
			if x.Box == onMap && slices.Contains(p.g.seatSides(p.seat), x.Side()) {
				ids = append(ids, x.ID)
			}
		}
		return nil, adjudicator.Refuse(adjudicator.DidYouMean(u.ID, "'units GAME' lists where your units are", ids), "%s is not on the map (%s)", u.ID, boxName(u.Box))
	}
	return u, nil
}

func boxName(box string) string {
	switch box {
	case pool:
		return "not in play yet"
	case eliminated:
		return "eliminated"
	case reserve:
		return "in the Foreign Units box"
	case removed:
		return "out of the game"
	}
	return "on the map"
}

// unitIDs are the ids of seat's units, for the did-you-mean of a unit it
// has not.
func (g *game) unitIDs(seat string) []string {
	var out []string
	for _, u := range g.Units {
		if slices.Contains(g.seatSides(seat), u.Side()) {
			out = append(out, u.ID)
		}
	}
	return out
}

// unitList lists seat's units that ok admits, with where they are.
func (g *game) unitList(seat string, ok func(*unit) bool) string {
	var out []string
	for _, u := range g.Units {
		if slices.Contains(g.seatSides(seat), u.Side()) && ok(u) {
			s := u.ID
			if u.Box == onMap {
				s += " (" + u.Space + ")"
			}
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	if len(out) > 24 {
		out = append(out[:24], fmt.Sprintf("and %d more", len(out)-24))
	}
	return strings.Join(out, ", ")
}

// spaceOf reads a space name or id.
func (p *parser) spaceOf(word string) (string, error) {
	id := slug(word)
	if _, ok := p.g.sc.Map.Space(id); !ok {
		ids := make([]string, len(p.g.sc.Map.Spaces))
		for i, sp := range p.g.sc.Map.Spaces {
			ids[i] = sp.ID
		}
		return "", adjudicator.Refuse(adjudicator.DidYouMean(id, "spaces are written as their names in lower case, dashes for spaces, diacritics folded: brcko, novi-travnik, bosanski-brod", ids), "there is no space %q", word)
	}
	return id, nil
}

// neighbours lists a space's neighbours, for hints.
func (g *game) neighbours(id string) string {
	i, ok := g.sc.Map.Space(id)
	if !ok {
		return ""
	}
	var out []string
	for _, n := range g.sc.Map.Graph.Neighbours(i) {
		out = append(out, g.sc.Map.Spaces[n].ID)
	}
	return strings.Join(out, ", ")
}

// sideWord reads bosniak or croat (the 2-player choices).
func sideWord(w string) (Side, bool) {
	s, ok := parseSide(w)
	return s, ok && s != serb
}

// standing reads a standing order (docs/orders-bu.md).
func (p *parser) standing(verb string, f []string) (*order, error) {
	g := p.g
	args := f[1:]
	o := &order{Verb: verb}
	word := func(i int) string { return strings.ToLower(args[i]) }
	switch verb {
	case "losses", "supply":
		if len(args) == 1 && (word(0) == "auto" || verb == "losses" && word(0) == "ask") {
			o.Words = []string{word(0)}
			break
		}
		if len(args) == 0 {
			return nil, adjudicator.Refuse(verb+" auto, "+map[string]string{"losses": "losses ask, or losses UNIT UNIT ... (first listed loses first)", "supply": "or supply UNIT UNIT ... (kept supplied first in an enclave)"}[verb], "%s: say which units", verb)
		}
		names, err := unitNames(args, map[string]string{"losses": "losses auto, losses ask, or losses UNIT UNIT ...: ", "supply": "supply auto, or supply UNIT UNIT ...: "}[verb]+"'units GAME' mails your units' ids")
		if err != nil {
			return nil, err
		}
		for _, a := range names {
			u, err := p.unitOf(a)
			if err != nil {
				return nil, err
			}
			o.Words = append(o.Words, u.ID)
		}
	case "retreat":
		if len(args) == 0 {
			return nil, adjudicator.Refuse("retreat ask, retreat ignore, or retreat move [SPACE ...] (the spaces you prefer)", "retreat: say ask, ignore or move")
		}
		switch word(0) {
		case "ask", "ignore":
			if len(args) > 1 {
				return nil, adjudicator.Refuse("retreat "+word(0), "retreat %s takes nothing more", word(0))
			}
			o.Words = []string{word(0)}
		case "move":
			o.Words = []string{"move"}
			for _, a := range args[1:] {
				id, err := p.spaceOf(a)
				if err != nil {
					return nil, err
				}
				o.Words = append(o.Words, id)
			}
		default:
			return nil, adjudicator.Refuse("retreat ask, retreat ignore, or retreat move [SPACE ...]", "retreat %s: want ask, ignore or move", args[0])
		}
	case "advancing":
		if len(args) != 1 || !slices.Contains([]string{"all", "none", "ask"}, word(0)) {
			return nil, adjudicator.Refuse("advancing all, advancing none or advancing ask", "advancing: say all, none or ask")
		}
		o.Words = []string{word(0)}
	case "strike":
		if len(args) == 1 && word(0) == "auto" {
			o.Words = []string{"auto"}
			break
		}
		if len(args) == 0 {
			return nil, adjudicator.Refuse("strike auto, or strike UNIT UNIT ... (enemy units, first listed first)", "strike: name the enemy units to strike first")
		}
		names, err := unitNames(args, "strike auto, or strike UNIT UNIT ... (enemy units, such as "+g.enemyExample(p.seat)+")")
		if err != nil {
			return nil, err
		}
		for _, a := range names {
			u := g.byID[unitID(a)]
			if u == nil || slices.Contains(g.seatSides(p.seat), u.Side()) {
				return nil, adjudicator.Refuse("name enemy units, such as "+g.enemyExample(p.seat), "strike %s: not an enemy unit", unitID(a))
			}
			o.Words = append(o.Words, u.ID)
		}
	case "ties":
		if p.seat != seatBC {
			return nil, adjudicator.Refuse("only the Bosniak-Croat player of the 2-player game has ties to settle (14.6.3-14.6.5)", "ties: not an order of %s", p.seat)
		}
		if len(args) != 1 || !slices.Contains([]string{"bosniak", "croat", "auto"}, word(0)) {
			return nil, adjudicator.Refuse("ties bosniak, ties croat or ties auto (the side with fewer SW)", "ties: say bosniak, croat or auto")
		}
		o.Words = []string{word(0)}
	case "combat":
		if len(args) == 1 && word(0) == "none" {
			o.Words = []string{"none"}
			break
		}
		if len(args) == 0 {
			return nil, adjudicator.Refuse("combat CARD [at SPACE ...], or combat none", "combat: name a combat card")
		}
		card, err := p.heldCard(args[0], typeCombat)
		if err == nil {
			err = g.inPeriod(card)
		}
		if err != nil {
			return nil, err
		}
		if !roleAllowed(card, "defender") {
			return nil, adjudicator.Refuse("a standing combat order plays the card in defence; "+card.ID+" helps only an attacker: play it in an attack order (attack ... combat "+card.ID+")", "%s helps only an attacker (%s)", card.ID, card.Text)
		}
		o.Card, o.Words = card.ID, []string{card.ID}
		rest := args[1:]
		if len(rest) > 0 {
			if strings.ToLower(rest[0]) != "at" || len(rest) == 1 {
				return nil, adjudicator.Refuse("combat "+card.ID+" at SPACE SPACE ...", "combat %s: want at SPACE ...", card.ID)
			}
			o.Words = append(o.Words, "at")
			for _, a := range rest[1:] {
				id, err := p.spaceOf(a)
				if err != nil {
					return nil, err
				}
				o.Words = append(o.Words, id)
			}
		}
	case "interrupt":
		if len(args) == 1 && word(0) == "none" {
			o.Words = []string{"none"}
			break
		}
		if len(args) == 0 {
			return nil, adjudicator.Refuse("interrupt CARD [on event|op|sr|rp|dp|attack|any] [by SEAT], or interrupt none", "interrupt: name an interrupt card")
		}
		card, err := p.heldCard(args[0], typeInterrupt)
		if err == nil {
			err = g.inPeriod(card)
		}
		if err != nil {
			return nil, err
		}
		o.Card, o.Words = card.ID, []string{card.ID}
		on, by := card.Trigger, ""
		rest := args[1:]
		for more := adjudicator.Consuming(&rest); more(); {
			kw := strings.ToLower(rest[0])
			if len(rest) < 2 || kw != "on" && kw != "by" {
				return nil, adjudicator.Refuse("interrupt "+card.ID+" [on event|op|sr|rp|dp|attack|any] [by SEAT]", "interrupt %s: %q is not understood", card.ID, strings.Join(rest, " "))
			}
			v := strings.ToLower(rest[1])
			if kw == "on" {
				if !slices.Contains([]string{"event", "op", "sr", "rp", "dp", "attack", "any"}, v) {
					return nil, adjudicator.Refuse("on event, op, sr, rp, dp, attack or any", "interrupt %s on %s: not a kind of play", card.ID, v)
				}
				if card.Trigger != "any" && v != card.Trigger && !(card.Trigger == "op" && v == "attack") {
					return nil, adjudicator.Refuse(fmt.Sprintf("%s answers %s (%s)", card.ID, triggerName(card.Trigger), card.Text), "%s cannot answer %s", card.ID, triggerName(v))
				}
				on = v
			} else {
				seat := ""
				for _, s := range g.Seats {
					if strings.EqualFold(s, v) {
						seat = s
					}
				}
				if seat == "" || seat == p.seat {
					return nil, adjudicator.Refuse("by one of "+strings.Join(slices.DeleteFunc(slices.Clone(g.Seats), func(s string) bool { return s == p.seat }), ", "), "interrupt %s by %s: not another seat", card.ID, rest[1])
				}
				by = seat
			}
			rest = rest[2:]
		}
		o.Words = append(o.Words, "on", on)
		if by != "" {
			o.Words = append(o.Words, "by", by)
		}
	}
	o.Canon = strings.TrimSpace(verb + " " + strings.Join(o.Words, " "))
	return o, nil
}

func triggerName(t string) string {
	return map[string]string{"event": "an event", "op": "an Operation", "sr": "a Strategic Redeployment", "rp": "a Replacement",
		"dp": "a Diplomatic Action", "attack": "an attack", "any": "any play"}[t]
}

// enemyExample names an enemy unit on the map, for hints.
func (g *game) enemyExample(seat string) string {
	for _, u := range g.Units {
		if u.Box == onMap && !slices.Contains(g.seatSides(seat), u.Side()) {
			return u.ID
		}
	}
	return "VRS-1"
}

// heldCard reads a card of seat's hand, of type kind when given.
func (p *parser) heldCard(word, kind string) (*card, error) {
	g := p.g
	id := cardID(word)
	c := g.sc.Deck.Card(id)
	hand := "your hand: " + strings.Join(g.Hands[p.seat], ", ")
	if len(g.Hands[p.seat]) == 0 {
		hand = "your hand is empty"
	}
	switch {
	case c == nil:
		return nil, adjudicator.Refuse(hand, "there is no card %s", id)
	case !slices.Contains(g.Hands[p.seat], id):
		return nil, adjudicator.Refuse(hand, "you do not hold %s", id)
	case kind != "" && c.Type != kind:
		return nil, adjudicator.Refuse(fmt.Sprintf("%s is a %s card; %s", id, c.Type, hand), "%s is not a %s card", id, kind)
	}
	return c, nil
}

// roleAllowed reports whether a combat card helps in role.
func roleAllowed(c *card, role string) bool {
	for _, e := range c.Effects {
		switch e.Kind {
		case effDRM:
			if e.Role == "any" || e.Role == role {
				return true
			}
		case effAdvance, effIgnore:
			if role == "attacker" {
				return true
			}
		}
	}
	return false
}

// unitNames splits words that join units with + or , into the names
// they hold. A word of separators alone names nothing: it is refused with
// hint (the receipt would echo a bare verb, or a list that means every
// unit), as is an empty name between two separators.
func unitNames(words []string, hint string) ([]string, error) {
	var out []string
	for _, w := range words {
		parts := strings.FieldsFunc(w, func(r rune) bool { return r == '+' || r == ',' })
		if len(parts) == 0 || strings.Contains(w, "++") || strings.Contains(w, ",,") || strings.Contains(w, "+,") || strings.Contains(w, ",+") {
			return nil, adjudicator.Refuse(hint, "%q: a unit list names units between its + or , (no empty name)", w)
		}
		out = append(out, parts...)
	}
	return out, nil
}

// region reads the 2-player set-up choice of a region's marker (14.2.2).
func (p *parser) region(f []string) (*order, error) {
	g := p.g
	var choosable []string
	for _, r := range g.sc.Map.Regions {
		if r.Choose2P {
			choosable = append(choosable, r.ID)
		}
	}
	hint := "region REGION bosniak|croat, for " + strings.Join(choosable, ", ")
	if p.seat != seatBC {
		return nil, adjudicator.Refuse("only the Bosniak-Croat player chooses region markers (14.2.2)", "region: not an order of %s", p.seat)
	}
	if len(f) != 3 {
		return nil, adjudicator.Refuse(hint, "region: want a region and bosniak or croat")
	}
	reg := g.sc.Map.RegionByID(slug(f[1]))
	if reg == nil || !reg.Choose2P {
		return nil, adjudicator.Refuse(hint, "%s is not a region whose marker you choose", f[1])
	}
	side, ok := sideWord(f[2])
	if !ok {
		return nil, adjudicator.Refuse(hint, "region %s %s: want bosniak or croat", reg.ID, f[2])
	}
	return &order{Verb: "region", Space: reg.ID, Side: side, Canon: fmt.Sprintf("region %s %s", reg.ID, strings.ToLower(string(side)))}, nil
}

// decision reads a follow-up decision.
func (p *parser) decision(verb string, f []string) (*order, error) {
	g := p.g
	b := g.Round.Battle
	kind := g.Pending.Kind
	hint := decisionHint(kind)
	o := &order{Verb: verb}
	switch {
	case kind == "losses" && verb == "lose":
		if p.answered != 0 {
			return nil, adjudicator.Refuse("one lose line answers the decision, with every step on it: "+strings.Join(g.lossChoices(b, p.seat), "; "), "the losses are already answered on line %d", p.answered)
		}
		if len(f) < 2 {
			return nil, adjudicator.Refuse(hint, "lose: name the units that lose steps")
		}
		mine := b.lossUnits(g, p.seat)
		names, err := unitNames(f[1:], "lose UNIT UNIT ... (a unit once a step): "+strings.Join(mine, ", "))
		if err != nil {
			return nil, err
		}
		for _, id := range names {
			if !slices.Contains(mine, id) {
				return nil, adjudicator.Refuse("the units taking these losses are "+strings.Join(mine, ", "), "%s takes no losses in this battle", id)
			}
			o.Units = append(o.Units, id)
		}
		ids, plan := g.lossOptions(b, p.seat)
		legal := false
		for _, a := range plan.Allocations {
			legal = legal || sameSteps(allocationSteps(ids, a), o.Units)
		}
		if !legal {
			return nil, adjudicator.Refuse("write one of: "+strings.Join(g.lossChoices(b, p.seat), "; ")+" (a unit once a step)",
				"%s is not a Maximum Fulfilment allocation (13.4.6.2)", strings.Join(o.Units, " "))
		}
		p.answered = p.cur
		o.Canon = "lose " + strings.Join(o.Units, " ")
	case kind == "retreat" && verb == "ignore":
		if !b.MayIgnore {
			return nil, adjudicator.Refuse("retreat UNIT SPACE [SPACE] for each unit", "the defending space lets no one ignore the retreat (13.4.8.1: trenches, cities, mountains, swamps)")
		}
		if len(f) > 1 {
			return nil, adjudicator.Refuse("ignore, alone on its line", "ignore takes nothing more")
		}
		if p.answered != 0 || len(p.retreated) > 0 {
			return nil, adjudicator.Refuse("ignore the retreat, or retreat each unit: not both (13.4.8.1)", "the retreat is already answered on line %d", p.firstAnswer())
		}
		p.answered = p.cur
		o.Canon = "ignore"
	case kind == "retreat" && verb == "retreat":
		if len(f) < 3 || len(f) > 2+b.Retreat {
			return nil, adjudicator.Refuse(fmt.Sprintf("retreat UNIT SPACE%s", map[int]string{1: "", 2: " [SPACE]"}[b.Retreat]), "retreat: want a unit and the %d space(s) it retreats through", b.Retreat)
		}
		id := unitID(f[1])
		if !slices.Contains(b.Defenders, id) || g.byID[id].Box != onMap {
			return nil, adjudicator.Refuse("the retreating units are "+strings.Join(b.survivors(g, b.Defenders), ", "), "%s does not retreat from this battle", id)
		}
		if p.answered != 0 {
			return nil, adjudicator.Refuse("ignore the retreat, or retreat each unit: not both (13.4.8.1)", "the retreat is already answered on line %d", p.answered)
		}
		if n, ok := p.retreated[id]; ok {
			return nil, adjudicator.Refuse("one retreat line a unit, with its whole path", "%s already retreats on line %d", id, n)
		}
		u := g.byID[id]
		if u.Supply == oos {
			return nil, adjudicator.Refuse(fmt.Sprintf("Out Of Supply units do not retreat: %s takes %d %s instead (13.4.8.4); leave it out", id, oosRetreatSteps(b.Retreat), plural(b.Retreat, "step", "steps")), "%s is Out Of Supply and cannot retreat", id)
		}
		o.Units = []string{id}
		for _, a := range f[2:] {
			s, err := p.spaceOf(a)
			if err != nil {
				return nil, err
			}
			o.Path = append(o.Path, s)
		}
		if err := g.checkRetreat(b, u, o.Path); err != nil {
			return nil, err
		}
		// the unit stands where it retreats, for the lines after (13.4.8.2)
		u.Space = o.Path[len(o.Path)-1]
		if p.retreated == nil {
			p.retreated = map[string]int{}
		}
		p.retreated[id] = p.cur
		o.Canon = "retreat " + id + " " + strings.Join(o.Path, " ")
	case kind == "advance" && verb == "advance":
		if p.answered != 0 {
			return nil, adjudicator.Refuse("one advance line answers the decision: advance all, advance none, or advance UNIT[>SPACE] ... with every unit on it", "the advance is already answered on line %d", p.answered)
		}
		adv, err := p.advanceWords(b.Attackers, f[1:])
		if err != nil {
			return nil, err
		}
		if adv[0] != "none" {
			if err := g.checkAdvance(b, adv); err != nil {
				return nil, err
			}
		}
		p.answered = p.cur
		o.Advance = adv
		o.Canon = "advance " + strings.Join(adv, " ")
	default:
		return nil, adjudicator.Refuse(hint, "%q does not answer this decision (%s)", strings.Join(f, " "), g.Pending.Label)
	}
	return o, nil
}

// firstAnswer is the line of the decision's first answer.
func (p *parser) firstAnswer() int {
	first := p.answered
	for _, n := range p.retreated {
		if first == 0 || n < first {
			first = n
		}
	}
	return first
}

// advanceWords reads all, none or UNIT[>SPACE] ... among units.
func (p *parser) advanceWords(units []string, args []string) ([]string, error) {
	hint := "advance all, advance none, or advance UNIT[>SPACE] ... (SPACE: the elite's extra space, 13.4.9.1)"
	if len(args) == 0 {
		return nil, adjudicator.Refuse(hint, "advance: say who advances")
	}
	if len(args) == 1 && (strings.EqualFold(args[0], "all") || strings.EqualFold(args[0], "none")) {
		return []string{strings.ToLower(args[0])}, nil
	}
	var out []string
	seen := map[string]bool{}
	for _, a := range args {
		id, extra, _ := strings.Cut(a, ">")
		id = unitID(id)
		if !slices.Contains(units, id) {
			return nil, adjudicator.Refuse("the attacking units are "+strings.Join(units, ", "), "%s is not an attacking unit", id)
		}
		if seen[id] {
			return nil, adjudicator.Refuse("name each advancing unit once, with its extra space if it goes on: UNIT>SPACE", "advance: %s is named twice", id)
		}
		seen[id] = true
		if extra != "" {
			s, err := p.spaceOf(extra)
			if err != nil {
				return nil, err
			}
			id += ">" + s
		}
		out = append(out, id)
	}
	return out, nil
}
