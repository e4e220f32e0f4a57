package bu

// The bot: simple, legal orders for any seat of a 2- or 3-seat game. It
// attacks where it is much stronger, rebuilds eliminated brigades, makes
// diplomacy when its Foreign Attitude is low, and otherwise entrenches the
// front; every order is read by the same parser as a player's, and a card
// for a Diplomatic Action is its fallback.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Bot implements adjudicator.Bot.
func (rules) Bot(state []byte, seat string) ([]string, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	if g.Over {
		return nil, nil
	}
	lines := g.botStanding(seat)
	switch g.Phase {
	case phaseSetup:
		if seat == seatBC {
			for _, r := range g.sc.Map.Regions {
				if r.Choose2P {
					lines = append(lines, fmt.Sprintf("region %s %s", r.ID, strings.ToLower(string(g.majority(r)))))
				}
			}
		}
	case phaseStart:
		lines = append(lines, g.botStart(state, seat)...)
	case phaseRound:
		if seat == g.Active {
			lines = append(lines, g.botRound(state, seat)...)
		}
	case phaseDecide:
		if g.Pending != nil && slices.Contains(g.Pending.Seats, seat) {
			lines = append(lines, g.botDecide(seat)...)
		}
	}
	return keepLegal(state, seat, lines), nil
}

// keepLegal drops the lines the parser refuses (none should be).
func keepLegal(state []byte, seat string, lines []string) []string {
	var ls []adjudicator.OrderLine
	for i, l := range lines {
		ls = append(ls, adjudicator.OrderLine{Line: i + 1, Text: l})
	}
	_, problems := Game.ParseOrders(state, seat, ls)
	bad := map[int]bool{}
	for _, p := range problems {
		bad[p.Line] = true
	}
	var out []string
	for i, l := range lines {
		if !bad[i+1] {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		out = []string{"pass"}
	}
	return out
}

// botStanding are the bot's standing orders: the umpire's choices for
// losses, retreats toward supply, advances, the strongest targets, and
// every combat and interrupt card of its hand.
func (g *game) botStanding(seat string) []string {
	losses := "losses auto"
	if seat == seatBosniak {
		// the Bosniak bot answers its loss decisions in follow-up steps,
		// and the Croat its retreats, so that games between bots have them
		losses = "losses ask"
	}
	retreat := "retreat move"
	if seat == seatCroat {
		retreat = "retreat ask"
	}
	lines := []string{losses, retreat, "advancing all", "strike auto", "supply auto"}
	if seat == seatBC {
		lines = append(lines, "ties auto")
	}
	for _, id := range g.Hands[seat] {
		c := g.sc.Deck.Card(id)
		switch {
		case c.Type == typeCombat && roleAllowed(c, "defender"):
			lines = append(lines, "combat "+id)
		case c.Type == typeInterrupt:
			lines = append(lines, "interrupt "+id)
		}
	}
	return lines
}

// botStart places the reinforcements and keeps the Foreign Units box for
// later (deploying costs Foreign Attitude).
func (g *game) botStart(state []byte, seat string) []string {
	sb, err := decode(state)
	if err != nil {
		return nil
	}
	var lines []string
	for _, u := range sb.arriving(seat) {
		if sp := sb.umpirePlacement(u); sp != "" {
			sb.placeReinforcement(u, sp)
			lines = append(lines, fmt.Sprintf("reinforce %s %s", u.ID, sp))
		}
	}
	for _, u := range sb.Units {
		if u.Box != reserve || u.Recovered == sb.Turn || !slices.Contains(sb.seatSides(seat), u.Side()) || sb.level(u.Side()) > 0 || sb.Sides[u.Side()].FA < 0 {
			continue
		}
		for _, sp := range sb.sc.Map.Spaces {
			if sb.checkDeploy(u, sp.ID) == nil {
				u.Box, u.Space = onMap, sp.ID
				lines = append(lines, fmt.Sprintf("deploy %s %s", u.ID, sp.ID))
				break
			}
		}
	}
	return lines
}

// botRound chooses the round's card and what it does.
func (g *game) botRound(state []byte, seat string) []string {
	hand := g.Hands[seat]
	if len(hand) == 0 {
		return nil
	}
	playable := func(mode string) []*card {
		var out []*card
		for _, id := range hand {
			c := g.sc.Deck.Card(id)
			if mode == "event" && (c.Type == typeCombat || c.Type == typeInterrupt) {
				continue
			}
			out = append(out, c)
		}
		slices.SortFunc(out, func(a, b *card) int { return b.CV - a.CV })
		return out
	}
	// hold combat and interrupt cards for the other seats' rounds while
	// there is anything else to play
	operations := playable("op")
	var ordinary []*card
	for _, c := range operations {
		if c.Type != typeCombat && c.Type != typeInterrupt {
			ordinary = append(ordinary, c)
		}
	}
	if len(ordinary) > 0 {
		operations = ordinary
	}
	// an offensive card's event, or an Operation, for attacks
	if attacks := g.botAttacks(state, seat, 4); len(attacks) > 0 {
		for _, c := range playable("event") {
			if c.Type == typeOffensive {
				n := g.cardPoints(c, "event")
				return append([]string{fmt.Sprintf("play %s event", c.ID)}, g.botAttacks(state, seat, n)...)
			}
		}
		c := operations[0]
		return append([]string{fmt.Sprintf("play %s op", c.ID)}, g.botAttacks(state, seat, c.CV)...)
	}
	// replacements for eliminated brigades
	if g.LastMode[seat] != "rp" {
		if lines := g.botReplace(state, seat, operations[0]); len(lines) > 1 {
			return lines
		}
	}
	// diplomacy when Foreign Attitude is low
	for _, side := range g.seatSides(seat) {
		if g.Sides[side].FA < 0 {
			return []string{fmt.Sprintf("play %s dp", operations[len(operations)-1].ID) + forSide(seat, side)}
		}
	}
	// an event that needs no choices
	for _, c := range playable("event") {
		if c.Type == typeOther && c.Has(effOP) == nil && c.Has(effSR) == nil && c.Has(effRP) == nil && g.botLikes(seat, c) {
			return []string{fmt.Sprintf("play %s event", c.ID)}
		}
	}
	// entrench the front
	c := operations[len(operations)-1]
	lines := []string{fmt.Sprintf("play %s op", c.ID)}
	n := 0
	for _, sp := range g.sc.Map.Spaces {
		if n >= min(2, c.CV) || g.Trench[sp.ID] == "complete" || !g.botFront(seat, sp.ID) {
			continue
		}
		if _, err := g.checkEntrench(seat, sp.ID, ""); err == nil {
			lines = append(lines, "entrench "+sp.ID)
			n++
		}
	}
	if n == 0 {
		return []string{fmt.Sprintf("play %s dp", c.ID)}
	}
	return lines
}

func forSide(seat string, side Side) string {
	if seat == seatBC {
		return " for " + strings.ToLower(string(side))
	}
	return ""
}

// botLikes reports whether an event helps the bot's seat: no SW or FA
// loss of its own.
func (g *game) botLikes(seat string, c *card) bool {
	for _, e := range c.Effects {
		if (e.Kind == effSW || e.Kind == effFA) && e.Value < 0 {
			for _, s := range g.sidesOf(e.Who, seat, g.seatSides(seat)[0]) {
				if slices.Contains(g.seatSides(seat), s) {
					return false
				}
			}
		}
		if e.Kind == effForeign || e.Kind == effUNSafe && g.Turn > 2 {
			return false
		}
	}
	return true
}

// botFront reports whether space is seat's and next to an enemy space.
func (g *game) botFront(seat, space string) bool {
	sp := g.space(space)
	if sp.Foreign() || !slices.Contains(g.seatSides(seat), g.Control[space]) {
		return false
	}
	i, _ := g.sc.Map.Space(space)
	for _, n := range g.sc.Map.Graph.Neighbours(i) {
		ns := g.sc.Map.Spaces[n]
		if !ns.Foreign() && g.enemies(g.seatSides(seat)[0], g.Control[ns.ID]) {
			return true
		}
	}
	return false
}

// botAttacks are attack orders worth making with at most ops OPs: on enemy
// stacks the bot's adjacent units outnumber in CF by half again.
func (g *game) botAttacks(state []byte, seat string, ops int) []string {
	sb, err := decode(state)
	if err != nil {
		return nil
	}
	sb.dry = true
	sb.beginRound(seat)
	sb.checkSupply(seat)
	var lines []string
	used := 0
	for _, sp := range sb.sc.Map.Spaces {
		def := sb.unitsAt(sp.ID)
		if len(def) == 0 || slices.Contains(sb.seatSides(seat), def[0].Side()) || !sb.enemies(sb.seatSides(seat)[0], def[0].Side()) {
			continue
		}
		defCF := 0
		for _, u := range def {
			defCF += sb.unitCF(u)
		}
		i, _ := sb.sc.Map.Space(sp.ID)
		var groups []group
		attCF := 0
		for _, n := range sb.sc.Map.Graph.Neighbours(i) {
			from := sb.sc.Map.Spaces[n].ID
			var ids []string
			for _, u := range sb.unitsAt(from) {
				if slices.Contains(sb.seatSides(seat), u.Side()) && sb.mayOperate(u) == nil {
					ids = append(ids, u.ID)
					attCF += sb.unitCF(u)
				}
			}
			if len(ids) > 0 && used+len(groups) < ops {
				groups = append(groups, group{From: from})
			}
		}
		if len(groups) == 0 || 2*attCF < 3*defCF+2*modifier(sp.Terrain) {
			continue
		}
		o := &order{Verb: "attack", Space: sp.ID, Groups: groups}
		if _, err := sb.checkAttack(seat, o); err != nil {
			continue
		}
		o.Losses = []string{"auto"}
		o.Advance = []string{"all"}
		line := attackCanon(o)
		lines = append(lines, line)
		used += len(groups)
		for _, gr := range groups {
			for _, u := range sb.unitsAt(gr.From) {
				sb.act(u.ID)
			}
		}
		if used >= ops {
			break
		}
	}
	return lines
}

// modifier is a rough weight of the defending terrain for the bot.
func modifier(t terrain) int {
	switch t {
	case city, river:
		return 4
	case mountain, swamp:
		return 2
	}
	return 0
}

// botReplace plays a card for Replacement when brigades can be recreated.
func (g *game) botReplace(state []byte, seat string, c *card) []string {
	sb, err := decode(state)
	if err != nil {
		return nil
	}
	sb.dry = true
	sb.beginRound(seat)
	lines := []string{fmt.Sprintf("play %s rp", c.ID)}
	points := 2 * c.CV
	for _, u := range sb.Units {
		if points < 2 || u.Box != eliminated || u.Type().Foreign || !slices.Contains(sb.seatSides(seat), u.Side()) {
			continue
		}
		for _, sp := range sb.sc.Map.Spaces {
			if cost, key, err := sb.checkRecreate(seat, u, sp.ID, true); err == nil && cost <= points {
				sb.doRecreate(u, sp.ID, true, key)
				lines = append(lines, fmt.Sprintf("recreate %s %s full", u.ID, sp.ID))
				points -= cost
				break
			}
		}
	}
	return lines
}

// botDecide answers a decision step: the last allocation listed, ignoring
// retreats where allowed, advancing with everyone.
func (g *game) botDecide(seat string) []string {
	switch g.Pending.Kind {
	case "losses":
		if choices := g.lossChoices(g.Round.Battle, seat); len(choices) > 0 {
			return []string{choices[len(choices)-1]}
		}
	case "retreat":
		if g.Round.Battle != nil && g.Round.Battle.MayIgnore {
			return []string{"ignore"}
		}
	case "advance":
		return []string{"advance all"}
	}
	return nil
}
