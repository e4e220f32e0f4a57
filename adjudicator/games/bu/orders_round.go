package bu

// The orders of an action round and of the start of a turn, read on the
// sandbox (docs/orders-bu.md).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// modes are the ways to play a card (7.4.1), with the words accepted.
var modeWords = map[string]string{"op": "op", "ops": "op", "operation": "op", "sr": "sr", "redeployment": "sr", "rp": "rp", "replacement": "rp",
	"replacements": "rp", "dp": "dp", "diplomacy": "dp", "diplomatic": "dp", "event": "event"}

// parsePlay reads "play CARD MODE [for bosniak|croat]".
func (p *parser) parsePlay(n int, f []string) (*order, error) {
	g := p.g
	hint := "play CARD op|sr|rp|dp|event; your hand: " + strings.Join(g.Hands[p.seat], ", ")
	if len(f) < 3 {
		return nil, adjudicator.Refuse(hint, "play: want a card and how it is played")
	}
	card, err := p.heldCard(f[1], "")
	if err != nil {
		return nil, err
	}
	mode, ok := modeWords[strings.ToLower(f[2])]
	if !ok {
		return nil, adjudicator.Refuse(hint, "play %s %s: a card is played for op, sr, rp, dp or event (7.4.1)", card.ID, f[2])
	}
	o := &order{Line: n, Verb: "play", Card: card.ID, Mode: mode}
	rest := f[3:]
	if len(rest) > 0 {
		side, ok := sideWord(rest[len(rest)-1])
		if p.seat != seatBC || len(rest) != 2 || strings.ToLower(rest[0]) != "for" || !ok {
			return nil, adjudicator.Refuse("only the Bosniak-Croat player says which side a card serves: play CARD MODE for bosniak|croat (14.5.3)", "play: %q is not understood", strings.Join(rest, " "))
		}
		o.Side = side
	}
	if err := g.inPeriod(card); err != nil {
		return nil, err
	}
	sides := g.seatSides(p.seat)
	switch mode {
	case "event":
		switch card.Type {
		case typeInterrupt:
			return nil, adjudicator.Refuse(fmt.Sprintf("an interrupt's event is played in another seat's round by a standing order: interrupt %s on %s; in your round play it for op, sr, rp or dp", card.ID, card.Trigger),
				"%s is an interrupt card (1.5.8)", card.ID)
		case typeCombat:
			return nil, adjudicator.Refuse(fmt.Sprintf("a combat card is played in a battle: attack SPACE from SPACE combat %s, or by the standing order combat %s; in your round play it for op, sr, rp or dp", card.ID, card.ID),
				"%s is a combat card (1.5.8)", card.ID)
		}
	case "sr":
		fuel := true
		for _, s := range sides {
			if !g.limitedFuel(s) {
				fuel = false
			}
		}
		if fuel {
			return nil, adjudicator.Refuse("at Intervention Level 1 or more there is no Strategic Redeployment (2.2.3, Limited Fuel); play the card for op, rp, dp or event", "no Strategic Redeployment under Limited Fuel")
		}
	case "rp":
		if g.LastMode[p.seat] == "rp" {
			return nil, adjudicator.Refuse("no Replacement in two consecutive action rounds of yours (10.1.4): play it for op, sr, dp or event", "you played a Replacement in your last round")
		}
	}
	o.Canon = fmt.Sprintf("play %s %s", card.ID, mode)
	if o.Side != "" {
		o.Canon += " for " + strings.ToLower(string(o.Side))
	}
	p.card = card
	p.points = g.cardPoints(card, mode)
	return o, nil
}

// inPeriod refuses a card of the other period than this turn's (1.5.2).
func (g *game) inPeriod(c *card) error {
	if c.InPeriod(g.Turn) {
		return nil
	}
	period := map[string]string{early: "an Early War card, for turns 1 and 2", late: "a Late War card, for turns 3 and 4"}[c.Period]
	return adjudicator.Refuse(fmt.Sprintf("%s is %s; this is turn %d (1.5.2)", c.ID, period, g.Turn), "%s is not played in this period", c.ID)
}

// cardPoints are what a card gives in a mode: OPs (13.1.1), SR points
// (9.1.1), RP (10.1.1: 2 x CV), or the event's own.
func (g *game) cardPoints(c *card, mode string) int {
	switch mode {
	case "op", "sr":
		return c.CV
	case "rp":
		return 2 * c.CV
	case "event":
		for _, e := range c.Effects {
			switch e.Kind {
			case effOP, effSR:
				if e.Value > 0 {
					return e.Value
				}
				return c.CV
			case effRP:
				if e.Value > 0 {
					return e.Value
				}
				return 2 * c.CV
			}
		}
	}
	return 0
}

// actionsOf are the action lines a card played in a mode takes.
func actionsOf(c *card, mode string) []string {
	switch mode {
	case "op":
		return []string{"move", "attack", "entrench"}
	case "sr":
		return []string{"redeploy"}
	case "rp":
		return []string{"replace", "recreate"}
	case "event":
		var out []string
		for _, e := range c.Effects {
			switch e.Kind {
			case effOP:
				out = append(out, "move", "attack", "entrench")
			case effSR:
				out = append(out, "redeploy")
			case effRP:
				out = append(out, "replace", "recreate")
			case effReduce:
				if e.When == "event" {
					out = append(out, "target")
				}
			case effPlace:
				out = append(out, "place")
			case effForeign:
				out = append(out, "deploy")
			case effUNSafe:
				if e.Count > 0 {
					out = append(out, "safe")
				}
			case effControl:
				out = append(out, "take")
			}
		}
		return out
	}
	return nil
}

// roundLine reads an action line of the active seat's round.
func (p *parser) roundLine(verb string, f []string) (*order, error) {
	g := p.g
	if p.play == nil {
		return nil, adjudicator.Refuse("start with play CARD op|sr|rp|dp|event; your hand: "+strings.Join(g.Hands[p.seat], ", "), "%s: no card is played", verb)
	}
	allowed := actionsOf(p.card, p.play.Mode)
	if !slices.Contains(allowed, verb) {
		if len(allowed) == 0 {
			return nil, adjudicator.Refuse(fmt.Sprintf("%s played for %s takes no more lines", p.card.ID, p.play.Mode), "%s: not an order of this play", verb)
		}
		return nil, adjudicator.Refuse(fmt.Sprintf("%s played for %s takes %s", p.card.ID, p.play.Mode, strings.Join(allowed, ", ")), "%s: not an order of this play", verb)
	}
	switch verb {
	case "move":
		return p.move(f)
	case "attack":
		return p.attack(f)
	case "entrench":
		return p.entrench(f)
	case "redeploy":
		return p.redeploy(f)
	case "replace", "recreate":
		return p.replace(verb, f)
	default:
		return p.eventLine(verb, f)
	}
}

// spend takes n points of the card, or says it cannot.
func (p *parser) spend(n int, what string) error {
	if p.used+n > p.points {
		return adjudicator.Refuse(fmt.Sprintf("%s played for %s gives %d %s; %d used by the lines before", p.card.ID, p.play.Mode, p.points, what, p.used), "%d %s needed, %d left", n, what, p.points-p.used)
	}
	p.used += n
	return nil
}

func (p *parser) move(f []string) (*order, error) {
	g := p.g
	hint := "move UNIT[+UNIT] SPACE SPACE ... (the spaces entered, in order)"
	var units []*unit
	var path []string
	for _, w := range f[1:] {
		if path == nil && g.byID[unitID(strings.Split(w, "+")[0])] != nil {
			names, err := unitNames([]string{w}, hint)
			if err != nil {
				return nil, err
			}
			for _, x := range names {
				u, err := p.onMap(x)
				if err != nil {
					return nil, err
				}
				units = append(units, u)
			}
			continue
		}
		s, err := p.spaceOf(w)
		if err != nil {
			return nil, err
		}
		path = append(path, s)
	}
	if len(units) == 0 || len(path) == 0 {
		return nil, adjudicator.Refuse(hint, "move: want units and the spaces they enter")
	}
	if path[0] == units[0].Space {
		path = path[1:]
	}
	if len(path) == 0 {
		return nil, adjudicator.Refuse(hint, "move: the units stay where they are")
	}
	if err := g.checkMove(p.seat, units, path); err != nil {
		return nil, err
	}
	if p.moveFrom != units[0].Space {
		if err := p.spend(1, "OPs"); err != nil {
			return nil, err
		}
		p.moveFrom = units[0].Space
	}
	ids := make([]string, len(units))
	for i, u := range units {
		ids[i] = u.ID
	}
	g.doMove(p.seat, units, path)
	return &order{Verb: "move", Units: ids, Path: path, Canon: "move " + strings.Join(ids, "+") + " " + strings.Join(path, " ")}, nil
}

func (p *parser) attack(f []string) (*order, error) {
	g := p.g
	hint := "attack SPACE from SPACE[:UNIT+UNIT][>SPACE] ... [combat CARD] [prep UNIT ...] [losses UNIT ...|auto|ask] [advance all|none|UNIT[>SPACE] ...]"
	p.moveFrom = ""
	if len(f) < 4 || strings.ToLower(f[2]) != "from" {
		return nil, adjudicator.Refuse(hint, "attack: want the defending space, from, and the attacking spaces")
	}
	target, err := p.spaceOf(f[1])
	if err != nil {
		return nil, err
	}
	o := &order{Verb: "attack", Space: target}
	section, said := "from", 0
	empty := func() error {
		switch {
		case said > 0:
			return nil
		case section == "from":
			return adjudicator.Refuse(hint, "attack: no attacking space")
		}
		return adjudicator.Refuse(map[string]string{"combat": "combat CARD: your combat card for the battle, or leave combat out",
			"prep":    "prep UNIT ...: the defending units Artillery Preparation rolls for, or leave prep out",
			"losses":  "losses UNIT ...|auto|ask, or leave losses out (your standing losses order answers)",
			"advance": "advance all|none|UNIT[>SPACE] ..., or leave advance out (your standing advancing order answers)"}[section],
			"attack: %s says nothing", section)
	}
	for _, w := range f[3:] {
		lw := strings.ToLower(w)
		if slices.Contains([]string{"combat", "prep", "losses", "advance"}, lw) {
			if err := empty(); err != nil {
				return nil, err
			}
			section, said = lw, 0
			continue
		}
		said++
		switch section {
		case "from":
			gr := group{}
			from, to, _ := strings.Cut(w, ">")
			sp, units, _ := strings.Cut(from, ":")
			if gr.From, err = p.spaceOf(sp); err != nil {
				return nil, err
			}
			if units != "" || strings.Contains(from, ":") {
				names, err := unitNames([]string{units}, "FROM:UNIT+UNIT names the attacking units of a space: "+unitIDs(g.unitsAt(gr.From)))
				if err != nil {
					return nil, err
				}
				for _, x := range names {
					u, err := p.onMap(x)
					if err != nil {
						return nil, err
					}
					gr.Units = append(gr.Units, u.ID)
				}
			}
			if to != "" {
				if gr.To, err = p.spaceOf(to); err != nil {
					return nil, err
				}
			}
			o.Groups = append(o.Groups, gr)
		case "combat":
			if o.Combat != "" {
				return nil, adjudicator.Refuse(hint, "one combat card an attack (13.4.3)")
			}
			c, err := p.heldCard(w, typeCombat)
			if err == nil {
				err = g.inPeriod(c)
			}
			if err != nil {
				return nil, err
			}
			if !roleAllowed(c, "attacker") {
				return nil, adjudicator.Refuse(c.ID+" helps only a defender: give it as a standing order, combat "+c.ID, "%s does not help an attacker (%s)", c.ID, c.Text)
			}
			if p.combat != "" {
				return nil, adjudicator.Refuse("a combat card stays in effect for the round (13.4.3): leave this one out, "+p.combat+" already helps this attack", "%s already played a combat card this round", seatName(p.seat))
			}
			o.Combat = c.ID
		case "prep":
			r := p.card.Has(effReduce)
			if p.play.Mode != "event" || r == nil || r.When != "before_attack" {
				return nil, adjudicator.Refuse("Artillery Preparation comes with an Offensive card played as an event (1.5.8)", "prep: %s gives no Artillery Preparation", p.card.ID)
			}
			u := g.byID[unitID(w)]
			if u == nil || u.Box != onMap || u.Space != target {
				return nil, adjudicator.Refuse("name defending units at "+target+": "+unitIDs(g.unitsAt(target)), "prep %s: not a unit at %s", unitID(w), g.name(target))
			}
			if u.Reduced || slices.Contains(o.Prep, u.ID) {
				var full []*unit
				for _, d := range g.unitsAt(target) {
					if !d.Reduced {
						full = append(full, d)
					}
				}
				return nil, adjudicator.Refuse("the roll reduces a full-size unit, once a unit (12.1.2): "+unitIDs(full), "prep %s: reduced already, or named twice", u.ID)
			}
			o.Prep = append(o.Prep, u.ID)
			if len(o.Prep) > r.Units {
				return nil, adjudicator.Refuse(fmt.Sprintf("%s rolls for %d %s", p.card.ID, r.Units, plural(r.Units, "unit", "units")), "prep: too many units")
			}
		case "losses":
			lw := strings.ToLower(w)
			if lw == "auto" || lw == "ask" || len(o.Losses) > 0 && (o.Losses[0] == "auto" || o.Losses[0] == "ask") {
				if len(o.Losses) > 0 {
					return nil, adjudicator.Refuse("losses auto, losses ask, or losses UNIT ... (attacking units, first listed loses first)", "attack: losses %s: auto and ask stand alone", strings.Join(append(slices.Clone(o.Losses), w), " "))
				}
				o.Losses = []string{lw}
				continue
			}
			names, err := unitNames([]string{w}, "losses auto, losses ask, or losses UNIT ... (attacking units, first listed loses first)")
			if err != nil {
				return nil, err
			}
			for _, x := range names {
				u, err := p.onMap(x)
				if err != nil {
					return nil, err
				}
				o.Losses = append(o.Losses, u.ID)
			}
		case "advance":
			o.Advance = append(o.Advance, w)
		}
	}
	if err := empty(); err != nil {
		return nil, err
	}
	groups, err := g.checkAttack(p.seat, o)
	if err != nil {
		return nil, err
	}
	var attackers []string
	for _, gu := range groups {
		for _, u := range gu {
			attackers = append(attackers, u.ID)
		}
	}
	if len(o.Advance) > 0 {
		if o.Advance, err = p.advanceWords(attackers, o.Advance); err != nil {
			return nil, err
		}
		if err := p.attackAdvance(o, groups); err != nil {
			return nil, err
		}
	}
	for _, id := range o.Losses {
		if id != "auto" && id != "ask" && !slices.Contains(attackers, id) {
			return nil, adjudicator.Refuse("the attacking units are "+strings.Join(attackers, ", "), "losses %s: not an attacking unit", id)
		}
	}
	if err := p.spend(activations(o), "OPs"); err != nil {
		return nil, err
	}
	if o.Combat != "" {
		p.combat = o.Combat
	}
	for i, gu := range groups {
		at := o.Groups[i].From
		if o.Groups[i].To != "" {
			at = o.Groups[i].To
		}
		g.attackedFrom(at, target)
		for _, u := range gu {
			g.act(u.ID)
			u.Space = at
		}
	}
	o.Canon = attackCanon(o)
	return o, nil
}

// attackAdvance says why an attack's advance can never be carried out as
// written, whatever the battle brings, or nil: a reduced unit stays reduced
// (13.4.9), Limited Fuel with no card's advance stops every advance
// (13.2.8, 13.4.9.2), domestic units do not advance into a Foreign Space
// (13.4.9.2), an extra space needs an elite unit or a card's Advance a/a
// (13.4.9.1), is next to the defending space, is not left by a Mountain,
// Swamp or River (13.4.9.2), is a Foreign Space only of the unit's own
// designations (1.2.5) and inside its region (1.3.4); and no space can end
// the advance with more than three of the units named (13.4.9.2, 2.3.1).
// What the battle decides (who survives at full strength, the room where
// the units go) is left to the advance itself, which says in an event why
// a unit does not advance.
func (p *parser) attackAdvance(o *order, groups [][]*unit) error {
	g := p.g
	if o.Advance[0] == "none" {
		return nil
	}
	target := g.space(o.Space)
	// the cards in force for this attack: lasting, the round's event,
	// combat cards of the round, and this attack's own (13.4.3, 1.5.5)
	bonus, ignore := g.advanceBonus(p.seat), g.ignoresTerrain(p.seat, target.Terrain)
	for _, id := range []string{o.Combat, p.combat} {
		c := g.sc.Deck.Card(id)
		if c == nil {
			continue
		}
		for _, e := range c.Effects {
			switch {
			case e.Kind == effAdvance:
				bonus = max(bonus, e.Value)
			case e.Kind == effIgnore && (len(e.Terrain) == 0 || slices.Contains(e.Terrain, target.Terrain)):
				ignore = true
			}
		}
	}
	halts := effects(target.Terrain, false, true).HaltsAdvance && !ignore
	fuel := func(u *unit) error {
		if g.limitedFuel(u.Side()) && bonus == 0 {
			return adjudicator.Refuse("at Intervention Level 1 no unit advances after an attack unless a card gives an advance (13.2.8, 13.4.9.2, 1.5.5): advance none, or leave advance out",
				"%s is under Limited Fuel: no advance (13.2.8, 13.4.9.2)", u.ID)
		}
		return nil
	}
	if o.Advance[0] == "all" {
		for _, gu := range groups {
			for _, u := range gu {
				if fuel(u) == nil {
					return nil
				}
			}
		}
		return fuel(groups[0][0])
	}
	stay, going := 0, map[string]int{}
	for _, w := range o.Advance {
		id, to, _ := strings.Cut(w, ">")
		u := g.byID[id]
		hint := "only full-strength attacking units advance, domestic units not into a Foreign Space (13.4.9, 13.4.9.2)"
		switch {
		case u.Reduced:
			return adjudicator.Refuse(hint, "%s is reduced: only full-strength units advance (13.4.9)", u.ID)
		case fuel(u) != nil:
			return fuel(u)
		case target.Foreign() && !u.Type().Foreign:
			return adjudicator.Refuse(hint, "%s is a domestic unit: no advance into the Foreign Space %s (13.4.9.2)", u.ID, target.Name)
		}
		if to == "" {
			stay++
			continue
		}
		extra := "elite units and cards with Advance a/a +1 advance one space more, not out of a Mountain, Swamp or River space (13.4.9.1, 13.4.9.2)"
		ti, _ := g.sc.Map.Space(o.Space)
		ni, _ := g.sc.Map.Space(to)
		sp := g.space(to)
		switch {
		case !u.Type().Elite && bonus == 0:
			return adjudicator.Refuse(extra, "%s has no extra advance", u.ID)
		case halts:
			return adjudicator.Refuse(extra, "%s halts the advance: no extra space (13.4.9.2)", target.Name)
		case !g.sc.Map.Graph.Adjacent(ti, ni):
			return adjudicator.Refuse("the extra space is next to "+o.Space+": "+g.neighbours(o.Space), "%s is not next to %s", sp.Name, target.Name)
		case sp.Foreign() && (!u.Type().Foreign || !usesDesignation(u.Side(), sp.Designation)):
			return adjudicator.Refuse("domestic units stay in BiH (1.3.2); Croats use CRO spaces, Serbs YUG and KRA spaces (1.2.5)", "%s may not enter the Foreign Space %s", u.ID, sp.Name)
		case u.Type().RegionOnly != "" && sp.Region != u.Type().RegionOnly:
			return adjudicator.Refuse(fmt.Sprintf("%s units move only in %s (1.3.4)", u.Type().Army, g.sc.Map.RegionByID(u.Type().RegionOnly).Name), "%s may not enter %s", u.ID, sp.Name)
		}
		going[to]++
		if going[to] > stackLimit {
			return adjudicator.Refuse(fmt.Sprintf("at most %d units end an advance in a space (13.4.9.2, 2.3.1)", stackLimit), "%d units would end the advance in %s", going[to], sp.Name)
		}
	}
	if stay > stackLimit {
		return adjudicator.Refuse(fmt.Sprintf("at most %d units end an advance in a space (13.4.9.2, 2.3.1): send some on with UNIT>SPACE (elite units, a card's Advance a/a) or leave some out", stackLimit),
			"%d units would end the advance in %s", stay, target.Name)
	}
	return nil
}

func attackCanon(o *order) string {
	var b strings.Builder
	fmt.Fprintf(&b, "attack %s from", o.Space)
	for _, gr := range o.Groups {
		b.WriteString(" " + gr.String())
	}
	if o.Combat != "" {
		b.WriteString(" combat " + o.Combat)
	}
	if len(o.Prep) > 0 {
		b.WriteString(" prep " + strings.Join(o.Prep, " "))
	}
	if len(o.Losses) > 0 {
		b.WriteString(" losses " + strings.Join(o.Losses, " "))
	}
	if len(o.Advance) > 0 {
		b.WriteString(" advance " + strings.Join(o.Advance, " "))
	}
	return b.String()
}

func (p *parser) entrench(f []string) (*order, error) {
	g := p.g
	p.moveFrom = ""
	if len(f) < 2 || len(f) > 3 {
		return nil, adjudicator.Refuse("entrench SPACE [UNIT]", "entrench: want a space and, if you like, the unit")
	}
	sp, err := p.spaceOf(f[1])
	if err != nil {
		return nil, err
	}
	unit := ""
	if len(f) == 3 {
		u, err := p.onMap(f[2])
		if err != nil {
			return nil, err
		}
		unit = u.ID
	}
	u, err := g.checkEntrench(p.seat, sp, unit)
	if err != nil {
		return nil, err
	}
	if err := p.spend(1, "OPs"); err != nil {
		return nil, err
	}
	g.doEntrench(p.seat, sp, u)
	return &order{Verb: "entrench", Space: sp, Units: []string{u.ID}, Canon: "entrench " + sp + " " + u.ID}, nil
}

func (p *parser) redeploy(f []string) (*order, error) {
	g := p.g
	if len(f) != 3 {
		return nil, adjudicator.Refuse("redeploy UNIT SPACE", "redeploy: want a unit and where it goes")
	}
	u, err := p.onMap(f[1])
	if err != nil {
		return nil, err
	}
	to, err := p.spaceOf(f[2])
	if err != nil {
		return nil, err
	}
	if err := g.checkRedeploy(u, to); err != nil {
		return nil, err
	}
	if err := p.spend(1, "SR points"); err != nil {
		return nil, err
	}
	g.doRedeploy(u, to)
	return &order{Verb: "redeploy", Units: []string{u.ID}, Space: to, Canon: "redeploy " + u.ID + " " + to}, nil
}

func (p *parser) replace(verb string, f []string) (*order, error) {
	g := p.g
	if verb == "replace" {
		if len(f) != 2 {
			return nil, adjudicator.Refuse("replace UNIT (a reduced unit on the map, 1 RP)", "replace: want one unit")
		}
		u, err := p.onMap(f[1])
		if err != nil {
			return nil, err
		}
		cost, key, err := g.checkReplace(p.seat, u)
		if err != nil {
			return nil, err
		}
		if err := p.spend(cost, "RP"); err != nil {
			return nil, err
		}
		g.doReplace(u, key)
		return &order{Verb: "replace", Units: []string{u.ID}, Canon: "replace " + u.ID}, nil
	}
	if len(f) < 3 || len(f) > 4 {
		return nil, adjudicator.Refuse("recreate UNIT SPACE [full|reduced] (an eliminated unit in a friendly supplied Key Space: 1 RP reduced, 2 RP full)", "recreate: want a unit and a Key Space")
	}
	u, err := p.unitOf(f[1])
	if err != nil {
		return nil, err
	}
	sp, err := p.spaceOf(f[2])
	if err != nil {
		return nil, err
	}
	full := false
	if len(f) == 4 {
		switch strings.ToLower(f[3]) {
		case "full":
			full = true
		case "reduced":
		default:
			return nil, adjudicator.Refuse("recreate UNIT SPACE full, or reduced", "recreate: %q is neither full nor reduced", f[3])
		}
	}
	cost, key, err := g.checkRecreate(p.seat, u, sp, full)
	if err != nil {
		return nil, err
	}
	if err := p.spend(cost, "RP"); err != nil {
		return nil, err
	}
	g.doRecreate(u, sp, full, key)
	state := map[bool]string{true: "full", false: "reduced"}[full]
	return &order{Verb: "recreate", Units: []string{u.ID}, Space: sp, Full: full, Canon: fmt.Sprintf("recreate %s %s %s", u.ID, sp, state)}, nil
}

// start reads an order of the start of the turn (6.2, 6.3).
func (p *parser) start(verb string, f []string) (*order, error) {
	g := p.g
	switch verb {
	case "reinforce":
		if len(f) != 3 {
			return nil, adjudicator.Refuse("reinforce UNIT SPACE", "reinforce: want a unit and a space")
		}
		u, err := p.unitOf(f[1])
		if err != nil {
			return nil, err
		}
		sp, err := p.spaceOf(f[2])
		if err != nil {
			return nil, err
		}
		if err := g.checkReinforce(u, sp); err != nil {
			return nil, err
		}
		g.placeReinforcement(u, sp)
		return &order{Verb: verb, Units: []string{u.ID}, Space: sp, Canon: "reinforce " + u.ID + " " + sp}, nil
	case "recover", "restore":
		p.starts++
		if p.starts > 1 {
			return nil, adjudicator.Refuse("6.3 step 1 is one eliminated Foreign Unit back, or two reduced ones flipped: one line", "%s: step 1 is already ordered", verb)
		}
		names, err := unitNames(f[1:], map[string]string{"recover": "recover UNIT (one eliminated Foreign Unit)", "restore": "restore UNIT UNIT (two reduced Foreign Units)"}[verb])
		if err != nil {
			return nil, err
		}
		var units []*unit
		for _, w := range names {
			u, err := p.unitOf(w)
			if err != nil {
				return nil, err
			}
			units = append(units, u)
		}
		if err := g.checkStep1(verb, units); err != nil {
			return nil, err
		}
		g.doStep1(verb, units)
		return &order{Verb: verb, Units: unitIDList(units), Canon: verb + " " + strings.Join(unitIDList(units), " ")}, nil
	case "withdraw":
		if len(f) != 2 {
			return nil, adjudicator.Refuse("withdraw UNIT (a Foreign Unit on the map back to the Foreign Units box)", "withdraw: want one unit")
		}
		u, err := p.onMap(f[1])
		if err != nil {
			return nil, err
		}
		if !u.Type().Foreign {
			return nil, adjudicator.Refuse("only Foreign Units go back to the Foreign Units box (6.3)", "%s is not a Foreign Unit", u.ID)
		}
		u.Box, u.Space, u.Supply = reserve, "", ""
		return &order{Verb: verb, Units: []string{u.ID}, Canon: "withdraw " + u.ID}, nil
	case "deploy":
		if len(f) != 3 {
			return nil, adjudicator.Refuse("deploy UNIT SPACE", "deploy: want a unit and a space")
		}
		u, err := p.unitOf(f[1])
		if err != nil {
			return nil, err
		}
		sp, err := p.spaceOf(f[2])
		if err != nil {
			return nil, err
		}
		if u.Box != reserve {
			return nil, adjudicator.Refuse("deploy Foreign Units from the Foreign Units box: "+g.unitList(p.seat, func(u *unit) bool { return u.Box == reserve }), "%s is not in the Foreign Units box (%s)", u.ID, boxName(u.Box))
		}
		if u.Recovered == g.Turn {
			return nil, adjudicator.Refuse("a unit returned from elimination this turn deploys next turn (6.3 step 3)", "%s came back this turn", u.ID)
		}
		if err := g.checkDeploy(u, sp); err != nil {
			return nil, err
		}
		u.Box, u.Space = onMap, sp
		return &order{Verb: verb, Units: []string{u.ID}, Space: sp, Canon: "deploy " + u.ID + " " + sp}, nil
	}
	return nil, adjudicator.Refuse("this step's orders are "+p.verbsOf(), "%q is not an order of the start of the turn", strings.Join(f, " "))
}

func unitIDList(us []*unit) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

// canonical reads a canonical action line again (no checks).
func canonical(line string) *order {
	f := strings.Fields(line)
	if len(f) == 0 {
		return &order{}
	}
	o := &order{Verb: f[0], Canon: line}
	args := f[1:]
	switch o.Verb {
	case "move":
		o.Units = strings.Split(args[0], "+")
		o.Path = args[1:]
	case "attack":
		o.Space = args[0]
		section := "from"
		for _, w := range args[2:] {
			if slices.Contains([]string{"combat", "prep", "losses", "advance"}, w) {
				section = w
				continue
			}
			switch section {
			case "from":
				gr := group{}
				from, to, _ := strings.Cut(w, ">")
				sp, units, _ := strings.Cut(from, ":")
				gr.From, gr.To = sp, to
				if units != "" {
					gr.Units = strings.Split(units, "+")
				}
				o.Groups = append(o.Groups, gr)
			case "combat":
				o.Combat = w
			case "prep":
				o.Prep = append(o.Prep, w)
			case "losses":
				o.Losses = append(o.Losses, w)
			case "advance":
				o.Advance = append(o.Advance, w)
			}
		}
	case "entrench":
		o.Space = args[0]
		o.Units = args[1:]
	case "redeploy", "deploy", "place", "reinforce":
		o.Units, o.Space = args[:1], args[1]
	case "replace", "recover", "restore", "withdraw":
		o.Units = args
	case "recreate":
		o.Units, o.Space, o.Full = args[:1], args[1], args[2] == "full"
	case "target":
		o.Units = args
	case "safe", "take":
		o.Path = args
	}
	return o
}
