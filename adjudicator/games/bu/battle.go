package bu

// The attack (13.4): designation and move before attack, combat cards,
// DRMs, the two rolls (the calculator's Battle), losses under Maximum
// Fulfilment, SW for eliminations, retreat or ignoring it, advance, and
// capture. A battle is resumable: where a seat's orders do not decide its
// losses, retreat or advance, the round waits for a decision step.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// attack is an attack being resolved (the calculator's Battle is its
// calculation).
type attack struct {
	Seat      string            `json:"seat"`
	Target    string            `json:"target"`
	DefSide   Side              `json:"def_side"`
	Attackers []string          `json:"attackers"`
	From      map[string]string `json:"from"`  // the space each attacker attacks from
	Start     map[string]string `json:"start"` // the space each attacker was activated in
	Defenders []string          `json:"defenders"`
	AttCard   string            `json:"att_card,omitempty"`
	DefCard   string            `json:"def_card,omitempty"`
	Losses    []string          `json:"losses,omitempty"`  // the attack order's loss priority
	Advance   []string          `json:"advance,omitempty"` // the attack order's advance
	Stage     string            `json:"stage"`

	AttRoll, DefRoll int  `json:"-"`
	AttMod           int  `json:"att_mod"`
	DefMod           int  `json:"def_mod"`
	AttCE            int  `json:"att_ce"` // in quarters
	DefCE            int  `json:"def_ce"`
	LossToAtt        int  `json:"loss_to_att"`
	LossToDef        int  `json:"loss_to_def"`
	AttCrit          bool `json:"att_crit,omitempty"`
	DefCrit          bool `json:"def_crit,omitempty"`
	DefFirst         bool `json:"def_first,omitempty"`
	AttSteps         int  `json:"att_steps"`
	DefSteps         int  `json:"def_steps"`
	AttDone          bool `json:"att_done,omitempty"`
	DefDone          bool `json:"def_done,omitempty"`
	Retreat          int  `json:"retreat,omitempty"`
	MayIgnore        bool `json:"may_ignore,omitempty"`
	// Decisions are the answers of a decision step, by seat.
	Decisions map[string][]string `json:"decisions,omitempty"`
}

// The stages of a battle.
const (
	stageLosses  = "losses"
	stageRetreat = "retreat"
	stageAdvance = "advance"
)

func (b *attack) where(g *game) string { return "the attack on " + g.name(b.Target) }

// survivors lists the units of ids still on the map.
func (b *attack) survivors(g *game, ids []string) []string {
	var out []string
	for _, id := range ids {
		if u := g.byID[id]; u != nil && u.Box == onMap {
			out = append(out, id)
		}
	}
	return out
}

// defSeat is the defending seat.
func (b *attack) defSeat(g *game) string { return g.seatOf(b.DefSide) }

// lossUnits lists the units seat loses steps from in the battle.
func (b *attack) lossUnits(g *game, seat string) []string {
	if seat == b.Seat {
		return b.survivors(g, b.Attackers)
	}
	return b.survivors(g, b.Defenders)
}

// checkAttack says why an attack order cannot be carried out now, or nil;
// it returns the units of each group.
func (g *game) checkAttack(seat string, o *order) ([][]*unit, error) {
	target := g.space(o.Space)
	var def []*unit
	for _, u := range g.unitsAt(o.Space) {
		if !slices.Contains(g.seatSides(seat), u.Side()) {
			def = append(def, u)
		}
	}
	if len(def) == 0 {
		return nil, adjudicator.Refuse("a space with no enemy unit is captured by movement, not attacked (13.4.1.1)", "%s holds no enemy unit", target.Name)
	}
	defSide := def[0].Side() // never an ally: the seat's own sides are left out (14.5.5)
	ti, _ := g.sc.Map.Space(o.Space)
	var groups [][]*unit
	seen := map[string]int{}
	taken := map[string]bool{}
	for _, gr := range o.Groups {
		seen[gr.From]++
	}
	for _, gr := range o.Groups {
		if seen[gr.From] > 1 && len(gr.Units) == 0 {
			return nil, adjudicator.Refuse("when a space's units go to different spaces before the attack, name each group's units: "+gr.From+":UNIT+UNIT>SPACE", "%s is listed twice without its units", g.name(gr.From))
		}
		var units []*unit
		for _, u := range g.unitsAt(gr.From) {
			if !slices.Contains(g.seatSides(seat), u.Side()) {
				continue
			}
			if len(gr.Units) > 0 && !slices.Contains(gr.Units, u.ID) {
				continue
			}
			if len(gr.Units) == 0 && g.mayOperate(u) != nil {
				continue
			}
			if taken[u.ID] {
				return nil, adjudicator.Refuse("a unit attacks once", "%s is in two groups", u.ID)
			}
			taken[u.ID] = true
			units = append(units, u)
		}
		for _, id := range gr.Units {
			if u := g.byID[id]; u == nil || u.Box != onMap || u.Space != gr.From {
				return nil, adjudicator.Refuse("units at "+gr.From+": "+unitIDs(g.unitsAt(gr.From)), "%s is not at %s", id, g.name(gr.From))
			}
		}
		if len(units) == 0 {
			return nil, adjudicator.Refuse("an attacking space needs units that may act (not Out Of Supply, not acted this round)", "no unit at %s may attack", g.name(gr.From))
		}
		at := gr.From
		if gr.To != "" {
			fi, _ := g.sc.Map.Space(gr.From)
			mi, _ := g.sc.Map.Space(gr.To)
			if !g.sc.Map.Graph.Adjacent(fi, mi) {
				return nil, adjudicator.Refuse("moving before the attack goes to an adjacent space: "+g.neighbours(gr.From), "%s is not next to %s (13.4.2)", g.name(gr.To), g.name(gr.From))
			}
			for _, u := range units {
				if !g.friendlyAtStart(u.Side(), gr.To) {
					return nil, adjudicator.Refuse("move before attack only into spaces friendly since the start of the round (13.4.2)", "%s was not friendly at the start of the round", g.name(gr.To))
				}
				if g.space(gr.To).Foreign() && !u.Type().Foreign {
					return nil, adjudicator.Refuse("domestic units move only inside BiH (1.3.2)", "%s may not enter %s", u.ID, g.name(gr.To))
				}
			}
			at = gr.To
		}
		ai, _ := g.sc.Map.Space(at)
		if !g.sc.Map.Graph.Adjacent(ai, ti) {
			return nil, adjudicator.Refuse(fmt.Sprintf("spaces next to %s: %s", o.Space, g.neighbours(o.Space)), "%s is not next to %s (13.4.1)", g.name(at), target.Name)
		}
		if g.isUN(at) {
			return nil, adjudicator.Refuse("a UN Safe Area is no space to attack from (2.5.2)", "%s is a UN Safe Area", g.name(at))
		}
		if g.Round != nil && g.Round.AttackedFrom[at] != "" && g.Round.AttackedFrom[at] != o.Space {
			return nil, adjudicator.Refuse("each attacking space attacks one defending space (13.4.1.2)", "%s already attacked %s this round", g.name(at), g.name(g.Round.AttackedFrom[at]))
		}
		for _, u := range units {
			if err := g.mayOperate(u); err != nil {
				return nil, err
			}
			t := u.Type()
			if g.space(at).Foreign() && !t.Foreign {
				// mayOperate and the move before the attack refuse it first
				return nil, lateError("%s may not attack from %s (13.4.1.3)", u.ID, g.name(at))
			}
			if len(t.AttackOnly) > 0 && !slices.Contains(t.AttackOnly, defSide) {
				return nil, adjudicator.Refuse(fmt.Sprintf("%s units attack only %s units (1.3.4)", t.Army, sideList(t.AttackOnly)), "%s may not attack %s units", u.ID, defSide)
			}
			if t.RegionOnly != "" && target.Region != t.RegionOnly {
				return nil, adjudicator.Refuse(fmt.Sprintf("%s units attack only in %s (1.3.4)", t.Army, g.sc.Map.RegionByID(t.RegionOnly).Name), "%s may not attack %s", u.ID, target.Name)
			}
		}
		groups = append(groups, units)
	}
	return groups, nil
}

// attackedFrom notes that space at attacked target this round.
func (g *game) attackedFrom(at, target string) {
	if g.Round.AttackedFrom == nil {
		g.Round.AttackedFrom = map[string]string{}
	}
	g.Round.AttackedFrom[at] = target
}

// activations counts the spaces an attack activates: 1 OP each (13.4.1).
func activations(o *order) int {
	var from []string
	for _, gr := range o.Groups {
		if !slices.Contains(from, gr.From) {
			from = append(from, gr.From)
		}
	}
	return len(from)
}

func unitIDs(us []*unit) string {
	if len(us) == 0 {
		return "none"
	}
	ids := make([]string, len(us))
	for i, u := range us {
		ids[i] = u.ID
	}
	return strings.Join(ids, ", ")
}

// attackAction carries out an attack line: the activations (1 OP an
// attacking space), move before attack, then the battle.
func (g *game) attackAction(seat string, o *order) {
	r := g.Round
	r.MoveFrom = ""
	groups, err := g.checkAttack(seat, o)
	ops := activations(o)
	if err == nil && r.Points < ops {
		err = adjudicator.Refuse("an attack takes 1 OP for each attacking space and each group moving before it (13.1.4); fewer attacking spaces fit", "%d OPs needed, %d left", ops, r.Points)
	}
	if err != nil {
		g.ev("13.4.1", "Not carried out: %s (%v).", o.Canon, err)
		return
	}
	r.Points -= ops
	b := &attack{Seat: seat, Target: o.Space, From: map[string]string{}, Start: map[string]string{}, Losses: o.Losses, Advance: o.Advance}
	var froms []string
	for i, gr := range o.Groups {
		at := gr.From
		if gr.To != "" {
			at = gr.To
		}
		for _, u := range groups[i] {
			b.Attackers = append(b.Attackers, u.ID)
			b.From[u.ID], b.Start[u.ID] = at, gr.From
			g.act(u.ID)
			if gr.To != "" {
				u.Space = gr.To
			}
		}
		if gr.To != "" {
			g.Arrows = append(g.Arrows, arrow{From: gr.From, To: gr.To, Kind: "move"})
			g.ev("13.4.2", "%s %s from %s to %s before attacking.", unitIDs(groups[i]), plural(len(groups[i]), "moves", "move"), g.name(gr.From), g.name(gr.To))
		}
		if !slices.Contains(froms, at) {
			froms = append(froms, at)
			g.Arrows = append(g.Arrows, arrow{From: at, To: o.Space, Kind: "attack"})
		}
		g.attackedFrom(at, o.Space)
	}
	names := make([]string, len(froms))
	for i, f := range froms {
		names[i] = g.name(f)
	}
	g.ev("13.4.1", "%s activates %d %s (%d OP, %d left) and attacks %s from %s with %s.", seatName(seat), ops, plural(ops, "space", "spaces"),
		ops, r.Points, g.name(o.Space), strings.Join(names, " and "), strings.Join(b.Attackers, ", "))
	// units that retreated into the space this round are eliminated (13.4.8.6)
	for _, u := range g.unitsAt(o.Space) {
		if slices.Contains(g.seatSides(seat), u.Side()) {
			continue
		}
		b.DefSide = u.Side()
		if r.Retreated[u.ID] == o.Space {
			g.ev("13.4.8.6", "%s retreated into %s earlier this round and is eliminated without fighting.", u.ID, g.name(o.Space))
			g.eliminate(u, g.rewardSide(b), false)
			continue
		}
		b.Defenders = append(b.Defenders, u.ID)
	}
	switch {
	case o.Combat == "":
	case g.takeFromHand(seat, o.Combat):
		r.Cards = append(r.Cards, roundCard{Card: o.Combat, Seat: seat, Role: "attacker"})
		g.ev("13.4.3", "%s plays the combat card %s.", seatName(seat), g.cardName(o.Combat))
	default: // the receipt checks the hand the step finds
		g.ev("13.4.3", "Not carried out: combat %s (%s does not hold it).", o.Combat, seatName(seat))
	}
	if len(b.Defenders) == 0 {
		g.ev("13.4.1.1", "No defender is left in %s: there is no battle.", g.name(o.Space))
		return
	}
	g.interrupts("attack")
	if g.Over {
		return
	}
	if len(o.Prep) > 0 {
		g.artillery(b, o.Prep)
	}
	if len(b.survivors(g, b.Defenders)) == 0 {
		g.ev("13.4.1.1", "No defender is left in %s.", g.name(o.Space))
		b.Stage = stageAdvance
		r.Battle = b
		return
	}
	g.fight(b)
	r.Battle = b
}

// artillery is Artillery Preparation (1.5.8 "Roll to reduce before
// attack"): one roll for each defending unit named, before combat; its
// losses do not count for the retreat (13.4.8).
func (g *game) artillery(b *attack, targets []string) {
	var eff *effect
	if c := g.sc.Deck.Card(g.Round.Card); c != nil && g.Round.Mode == "event" {
		eff = c.Has(effReduce)
	}
	if eff == nil || eff.When != "before_attack" {
		g.ev("1.5.8", "No Artillery Preparation: %s gives none now (prep %s not carried out).", g.Round.Card, strings.Join(targets, " "))
		return
	}
	n := 0
	var rolled []string
	for _, id := range targets {
		u := g.byID[id]
		why := ""
		switch {
		case n >= eff.Units:
			why = fmt.Sprintf("%s rolls for %d %s", g.Round.Card, eff.Units, plural(eff.Units, "unit", "units")) // the receipt refuses it first
		case slices.Contains(rolled, id):
			why = "one roll a unit (12.1.2)" // the receipt refuses it first
		case u == nil || u.Box != onMap || u.Space != b.Target:
			why = "not a defending unit at " + g.name(b.Target)
		case u.Reduced:
			why = "reduced already"
		}
		if why != "" {
			g.ev("1.5.8, 12.1.2", "Artillery Preparation does not roll for %s (%s).", id, why)
			continue
		}
		rolled = append(rolled, id)
		n++
		roll, hit := rollToReduce(g.r, eff.On, fmt.Sprintf("B&U 1.5.8 Artillery Preparation (%s) on %s, reduces on %d-9", g.Round.Card, u.ID, eff.On))
		if hit {
			u.Reduced = true
			g.ev("1.5.8, 12.1.2", "Artillery Preparation rolls %d on %s: reduced.", roll, u.ID)
		} else {
			g.ev("1.5.8, 12.1.2", "Artillery Preparation rolls %d on %s: no effect.", roll, u.ID)
		}
	}
}

// rewardSide is the side that gains the SW for an enemy unit eliminated
// in battle b (13.4.7): the attacker's, or the defender's for attacking
// units it eliminated; in the 2-player game the side with more units
// attacking (14.6.3; defending: more units defending, ruling), the
// Bosniak-Croat player's choice on a tie.
func (g *game) rewardSide(b *attack) Side { return g.rewardFrom(b.survivorsOrAll(g, b.Attackers)) }

func (g *game) defenderReward(b *attack) Side { return g.rewardFrom(b.survivorsOrAll(g, b.Defenders)) }

func (b *attack) survivorsOrAll(g *game, ids []string) []string {
	if s := b.survivors(g, ids); len(s) > 0 {
		return s
	}
	return ids
}

func (g *game) rewardFrom(ids []string) Side {
	count := map[Side]int{}
	var first Side
	for _, id := range ids {
		s := g.byID[id].Side()
		if first == "" {
			first = s
		}
		count[s]++
	}
	if count[bosniak] > 0 && count[croat] > 0 {
		switch {
		case count[bosniak] > count[croat]:
			return bosniak
		case count[croat] > count[bosniak]:
			return croat
		}
		return g.tieSide("the SW for a unit eliminated by as many Bosniak as Croat units (14.6.3)")
	}
	return first
}

// fight rolls the battle (13.4.4-13.4.6): the DRMs, the two rolls, the Loss
// Numbers.
func (g *game) fight(b *attack) {
	target := g.space(b.Target)
	defSeat := b.defSeat(g)
	att := b.survivors(g, b.Attackers)
	def := b.survivors(g, b.Defenders)
	// the defender's combat card, by its standing orders (13.4.3)
	anyOOS := slices.ContainsFunc(def, func(id string) bool { return g.byID[id].Supply == oos })
	if !slices.ContainsFunc(g.Round.Cards, func(c roundCard) bool { return c.Seat == defSeat && c.Role == "defender" }) && !anyOOS {
		if card := g.standingCombat(defSeat, b.Target); card != "" {
			g.takeFromHand(defSeat, card)
			g.Round.Cards = append(g.Round.Cards, roundCard{Card: card, Seat: defSeat, Role: "defender"})
			g.ev("13.4.3", "%s plays the combat card %s in defence of %s.", seatName(defSeat), g.cardName(card), target.Name)
		}
	}
	for _, c := range g.Round.Cards {
		switch {
		case c.Seat == b.Seat && c.Role == "attacker" && b.AttCard == "":
			b.AttCard = c.Card
		case c.Seat == defSeat && c.Role == "defender" && b.DefCard == "":
			b.DefCard = c.Card
		}
	}
	terrain := target.Terrain
	ignore := g.ignoresTerrain(b.Seat, terrain)
	bt := battle{Terrain: terrain, Trench: g.Trench[b.Target] == "complete", Turn: g.Turn}
	if ignore {
		bt.Terrain = Clear
	}
	ti, _ := g.sc.Map.Space(b.Target)
	for _, id := range att {
		fi, _ := g.sc.Map.Space(b.From[id])
		if !g.sc.Map.RiverRoad(fi, ti) {
			bt.NotAllAcross = true
		}
	}
	bt.AttackerCards = g.drm(b.Seat, "attacker", terrain)
	if !anyOOS {
		bt.DefenderCards = g.drm(defSeat, "defender", terrain)
	}
	bt.Bosniak = g.bosniakSide(b, att, def)
	for _, id := range att {
		bt.AttackerCF += g.unitCF(g.byID[id])
	}
	for _, id := range def {
		bt.DefenderCF += g.unitCF(g.byID[id])
	}
	res := bt.FightAt(g.r, b.where(g))
	b.AttRoll, b.DefRoll, b.AttMod, b.DefMod = res.AttackerRoll, res.DefenderRoll, res.AttackerModified, res.DefenderModified
	b.AttCE, b.DefCE = res.AttackerCEQuarters, res.DefenderCEQuarters
	b.LossToAtt, b.LossToDef = res.LossToAttacker, res.LossToDefender
	b.AttCrit, b.DefCrit, b.DefFirst = res.AttackerCritical, res.DefenderCritical, res.DefenderFiresFirst
	b.MayIgnore = res.Effects.MayIgnoreRetreat
	if ignore {
		b.MayIgnore = bt.Trench
	}
	ignored := ""
	if ignore {
		ignored = " (terrain ignored)"
	}
	g.ev("13.4.4", "%s: attacker CF %d, DRM %+d%s; defender CF %d, DRM %+d.", strings.ToUpper(b.where(g)[:1])+b.where(g)[1:], res.AttackerCF, res.AttackerDRM,
		ignored, res.DefenderCF, res.DefenderDRM)
	g.ev("13.4.5", "The attacker rolls %s: CE x%s; the defender rolls %s: CE x%s.", kit.Roll(res.AttackerRoll, res.AttackerMods),
		ceText(res.AttackerCEQuarters), kit.Roll(res.DefenderRoll, res.DefenderMods), ceText(res.DefenderCEQuarters))
	if b.DefFirst {
		g.ev("13.4.4.2", "Behind the river the defender fires first: the attacker takes %d first, then fires with the CF it has left.", b.LossToAtt)
	} else {
		g.ev("13.4.6", "Loss Numbers: %d to the defender, %d to the attacker.", b.LossToDef, b.LossToAtt)
	}
	if b.AttCrit {
		g.ev("13.4.6.4", "The attacker's critical hit: the defender takes at least one step.")
	}
	if b.DefCrit {
		g.ev("13.4.6.4", "The defender's critical hit: the attacker takes at least one step.")
	}
	b.Stage = stageLosses
}

// unitCF is a unit's CF in battle: halved, rounded up, Out Of Supply
// (13.4.1.4).
func (g *game) unitCF(u *unit) int {
	if u.Supply == oos {
		return halfUp(u.Values().CF)
	}
	return u.Values().CF
}

// lossUnit is the LF of a unit's side that would take the next step:
// halved, rounded up, Out Of Supply (13.4.6.3).
func (g *game) lossUnit(u *unit) lossUnit {
	full, red := u.Type().Full.LF, u.Type().Reduced.LF
	if u.Supply == oos {
		full, red = halfUp(full), halfUp(red)
	}
	return lossUnit{FullLF: full, ReducedLF: red, Full: !u.Reduced}
}

// bosniakSide says which side of a battle takes the Bosniak DRM (13.4.4.3;
// 2-player: half or more of the allies' troops engaged, 14.6.2).
func (g *game) bosniakSide(b *attack, att, def []string) who {
	count := func(ids []string) (bos, all int) {
		for _, id := range ids {
			if g.byID[id].Side() == bosniak {
				bos++
			}
		}
		return bos, len(ids)
	}
	if bos, all := count(att); bos > 0 && 2*bos >= all {
		return attacker
	}
	if bos, all := count(def); bos > 0 && 2*bos >= all {
		return defender
	}
	return nobody
}

// standingCombat is the combat card a seat's standing orders play in
// defence of space, "" for none.
func (g *game) standingCombat(seat, space string) string {
	for _, line := range g.Standing[seat]["combat"] {
		f := strings.Fields(line)
		if len(f) == 0 || !slices.Contains(g.Hands[seat], f[0]) {
			continue
		}
		if len(f) > 2 && f[1] == "at" && !slices.Contains(f[2:], space) {
			continue
		}
		if c := g.sc.Deck.Card(f[0]); c != nil && roleAllowed(c, "defender") && c.InPeriod(g.Turn) {
			return f[0]
		}
	}
	return ""
}

// resolveBattle carries a battle on from its stage; false when it waits
// for a decision.
func (g *game) resolveBattle(b *attack) bool {
	for {
		switch b.Stage {
		case stageLosses:
			if !g.battleLosses(b) {
				return false
			}
			b.Stage = stageRetreat
		case stageRetreat:
			if !g.battleRetreat(b) {
				return false
			}
			b.Stage = stageAdvance
		case stageAdvance:
			if !g.battleAdvance(b) {
				return false
			}
			return true
		default:
			return true
		}
		if g.Over {
			return true
		}
	}
}

// battleLosses takes both sides' losses (13.4.6), the defender's first
// behind a river (13.4.4.2).
func (g *game) battleLosses(b *attack) bool {
	defSeat := b.defSeat(g)
	var ask []string
	if b.DefFirst {
		if !b.AttDone {
			alloc, ok := g.allocation(b, b.Seat, b.LossToAtt, b.DefCrit)
			if !ok {
				g.ask(b, "losses", []string{b.Seat})
				return false
			}
			b.AttSteps = g.takeSteps(b, alloc, g.defenderReward(b))
			b.AttDone = true
			// the attacker fires with what it has left
			cf := 0
			for _, id := range b.survivors(g, b.Attackers) {
				cf += g.unitCF(g.byID[id])
			}
			b.LossToDef = lossNumber(b.AttCE, cf)
			g.ev("13.4.4.2", "The attacker fires with CF %d left: Loss Number %d to the defender.", cf, b.LossToDef)
		}
		if !b.DefDone {
			alloc, ok := g.allocation(b, defSeat, b.LossToDef, b.AttCrit)
			if !ok {
				g.ask(b, "losses", []string{defSeat})
				return false
			}
			b.DefSteps = g.takeSteps(b, alloc, g.rewardSide(b))
			b.DefDone = true
		}
		return true
	}
	attAlloc, attOK := g.allocation(b, b.Seat, b.LossToAtt, b.DefCrit)
	defAlloc, defOK := g.allocation(b, defSeat, b.LossToDef, b.AttCrit)
	if !b.AttDone && !attOK {
		ask = append(ask, b.Seat)
	}
	if !b.DefDone && !defOK {
		ask = append(ask, defSeat)
	}
	if len(ask) > 0 {
		g.ask(b, "losses", ask)
		return false
	}
	// both sides' losses are taken together
	if !b.DefDone {
		b.DefSteps = g.takeSteps(b, defAlloc, g.rewardSide(b))
		b.DefDone = true
	}
	if !b.AttDone {
		b.AttSteps = g.takeSteps(b, attAlloc, g.defenderReward(b))
		b.AttDone = true
	}
	return true
}

// lossOptions are the units seat loses steps from in battle b and the
// Maximum Fulfilment plan of its Loss Number (13.4.6.2).
func (g *game) lossOptions(b *attack, seat string) ([]string, lossPlan) {
	loss, crit := b.LossToDef, b.AttCrit
	if seat == b.Seat {
		loss, crit = b.LossToAtt, b.DefCrit
	}
	ids := b.lossUnits(g, seat)
	units := make([]lossUnit, len(ids))
	for i, id := range ids {
		units[i] = g.lossUnit(g.byID[id])
	}
	return ids, allocateLosses(loss, units, crit)
}

// allocationSteps lists an allocation as one unit id a step.
func allocationSteps(ids []string, a []int) []string {
	var out []string
	for i, k := range a {
		for range k {
			out = append(out, ids[i])
		}
	}
	return out
}

// allocation is the steps seat takes from its units in battle b for a
// Loss Number (13.4.6.2, 13.4.6.4): its decision, its orders' priority, the
// only choice there is; false when it must be asked.
func (g *game) allocation(b *attack, seat string, loss int, critical bool) ([]string, bool) {
	ids := b.lossUnits(g, seat)
	units := make([]lossUnit, len(ids))
	for i, id := range ids {
		units[i] = g.lossUnit(g.byID[id])
	}
	plan := allocateLosses(loss, units, critical)
	if len(ids) == 0 || len(plan.Allocations) == 0 {
		return nil, true
	}
	toSteps := func(a []int) []string {
		var out []string
		for i, k := range a {
			for range k {
				out = append(out, ids[i])
			}
		}
		return out
	}
	if d, ok := b.Decisions["losses:"+seat]; ok && !slices.Equal(d, []string{"default"}) {
		for _, a := range plan.Allocations {
			if sameSteps(toSteps(a), d) {
				return toSteps(a), true
			}
		}
		g.ev("13.4.6.2", "%s's loss decision (%s) is not a maximum-fulfilment allocation: the umpire allocates.", seatName(seat), strings.Join(d, " "))
		return toSteps(g.rankAllocations(plan, ids, nil)), true
	}
	if _, ok := b.Decisions["losses:"+seat]; ok {
		return toSteps(g.rankAllocations(plan, ids, nil)), true
	}
	if distinct := g.distinctAllocations(plan, ids); distinct <= 1 {
		return toSteps(plan.Allocations[0]), true
	}
	pref := g.Standing[seat]["losses"]
	if seat == b.Seat && len(b.Losses) > 0 {
		pref = b.Losses
	}
	if len(pref) == 0 || pref[0] == "ask" {
		if g.dry {
			return toSteps(plan.Allocations[0]), true
		}
		return nil, false
	}
	if pref[0] == "auto" {
		pref = nil
	}
	return toSteps(g.rankAllocations(plan, ids, pref)), true
}

func sameSteps(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// unitClass says which units are alike for losses: same type, side,
// strength, space and supply.
func (g *game) unitClass(id string) string {
	u := g.byID[id]
	return fmt.Sprintf("%s/%v/%s/%s", u.Type().ID, u.Reduced, u.Space, u.Supply)
}

// distinctAllocations counts the allocations that differ by more than
// which of two alike units takes a step.
func (g *game) distinctAllocations(plan lossPlan, ids []string) int {
	seen := map[string]bool{}
	for _, a := range plan.Allocations {
		var sig []string
		for i, k := range a {
			if k > 0 {
				sig = append(sig, fmt.Sprintf("%s:%d", g.unitClass(ids[i]), k))
			}
		}
		slices.Sort(sig)
		seen[strings.Join(sig, ",")] = true
	}
	return len(seen)
}

// rankAllocations picks the allocation that puts steps on the units pref
// lists first, in its order; then the umpire's choice: fewer units
// eliminated, non-elite before elite, Out Of Supply first, by id.
func (g *game) rankAllocations(plan lossPlan, ids []string, pref []string) []int {
	order := slices.Clone(ids)
	rank := func(id string) int {
		if i := slices.Index(pref, id); i >= 0 {
			return i
		}
		return len(pref)
	}
	slices.SortStableFunc(order, func(a, b string) int {
		ua, ub := g.byID[a], g.byID[b]
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(boolInt(ua.Type().Elite), boolInt(ub.Type().Elite)),
			cmp.Compare(boolInt(ua.Supply != oos), boolInt(ub.Supply != oos)), cmp.Compare(a, b))
	})
	idx := map[string]int{}
	for i, id := range ids {
		idx[id] = i
	}
	elims := func(a []int) int {
		n := 0
		for i, k := range a {
			if k >= 2 || k == 1 && g.byID[ids[i]].Reduced {
				n++
			}
		}
		return n
	}
	best := plan.Allocations[0]
	better := func(a, b []int) bool {
		if len(pref) == 0 {
			if ea, eb := elims(a), elims(b); ea != eb {
				return ea < eb
			}
		}
		for _, id := range order {
			if a[idx[id]] != b[idx[id]] {
				return a[idx[id]] > b[idx[id]]
			}
		}
		return false
	}
	for _, a := range plan.Allocations[1:] {
		if better(a, best) {
			best = a
		}
	}
	return best
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// takeSteps applies steps (one unit id a step) and returns how many were
// taken; by gains the SW for eliminations (13.4.7).
func (g *game) takeSteps(b *attack, steps []string, by Side) int {
	if len(steps) == 0 {
		return 0
	}
	count := map[string]int{}
	for _, id := range steps {
		count[id]++
	}
	var parts []string
	var dead []*unit
	for _, id := range slices.Sorted(mapKeys(count)) {
		u := g.byID[id]
		if count[id] == 1 && !u.Reduced {
			u.Reduced = true
			parts = append(parts, id+" reduced")
			continue
		}
		parts = append(parts, id+" eliminated")
		dead = append(dead, u)
	}
	who := "The defender"
	if slices.Contains(b.Attackers, steps[0]) {
		who = "The attacker"
	}
	g.ev("13.4.6.1", "%s loses %d %s: %s.", who, len(steps), plural(len(steps), "step", "steps"), strings.Join(parts, ", "))
	for _, u := range dead {
		g.eliminate(u, by, false)
	}
	return len(steps)
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// lossChoices are seat's legal loss decisions in battle b, as orders.
func (g *game) lossChoices(b *attack, seat string) []string {
	ids, plan := g.lossOptions(b, seat)
	var opts []string
	for _, a := range plan.Allocations {
		opts = append(opts, "lose "+strings.Join(allocationSteps(ids, a), " "))
	}
	return opts
}

// ask suspends the round for a decision step.
func (g *game) ask(b *attack, kind string, seats []string) {
	p := &pending{Kind: kind, Seats: seats, Question: map[string]string{}}
	switch kind {
	case "losses":
		p.Label = "loss decision at " + g.name(b.Target)
		p.Default = "the umpire's allocation: fewest units eliminated, non-elite units first"
		for _, s := range seats {
			p.Question[s] = fmt.Sprintf("Loss Number %d at %s: choose one of: %s (13.4.6.2).", map[bool]int{true: b.LossToAtt, false: b.LossToDef}[s == b.Seat],
				g.name(b.Target), strings.Join(g.lossChoices(b, s), "; "))
		}
	case "retreat":
		p.Label = "retreat decision at " + g.name(b.Target)
		p.Default = "the umpire's choice: ignore the retreat where allowed, else retreat toward supply"
		p.Question[seats[0]] = fmt.Sprintf("Retreat %d %s from %s (13.4.8): write ignore%s, or retreat UNIT SPACE... for each unit.", b.Retreat, plural(b.Retreat, "space", "spaces"),
			g.name(b.Target), map[bool]string{true: " (13.4.8.1: one more step from any defending unit)", false: " (not allowed here)"}[b.MayIgnore])
	case "advance":
		p.Label = "advance decision at " + g.name(b.Target)
		p.Default = "no advance (13.4.9.1: advancing is optional)"
		p.Question[seats[0]] = fmt.Sprintf("%s is empty: advance all, advance none, or advance UNIT[>SPACE] ... (13.4.9).", g.name(b.Target))
	}
	g.Pending = p
	g.Phase = phaseDecide
	for _, s := range seats {
		g.evTo([]string{s}, "13.4", "Your decision is needed: %s", p.Question[s])
	}
	g.ev("13.4", "The round waits for %s: %s.", strings.Join(seats, " and "), p.Label)
}

// adjudicateDecision applies a decision step's answers and resumes.
func (g *game) adjudicateDecision(orders map[string][]string) {
	p := g.Pending
	b := g.Round.Battle
	if b.Decisions == nil {
		b.Decisions = map[string][]string{}
	}
	for _, seat := range p.Seats {
		ords := g.sandboxOrders(seat, orders[seat])
		g.storeStanding(seat, ords)
		var ans []string
		for _, o := range ords {
			switch o.Verb {
			case "lose":
				ans = append(ans, o.Units...)
			case "ignore":
				ans = []string{"ignore"}
			case "retreat":
				if len(o.Units) > 0 {
					ans = append(ans, o.Units[0]+">"+strings.Join(o.Path, ">"))
				}
			case "advance":
				ans = append(ans, o.Advance...)
			}
		}
		if len(ans) == 0 {
			g.ev("13.4", "%s sent no decision: %s.", seatName(seat), p.Default)
			ans = []string{"default"}
		}
		b.Decisions[p.Kind+":"+seat] = ans
	}
	g.Pending = nil
	g.Phase = phaseRound
	g.run()
}
