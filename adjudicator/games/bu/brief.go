package bu

// The briefing (adjudicator.Briefer, adjudicator.StandingOrders): what each
// step asks of a seat and the order lines it may send, every one checked by
// the parser's own checks on the position the step will find, and the
// standing orders in force (docs/orders-bu.md, "The pre-filled order
// file").

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// maxLines is the most lines a choice of placements offers (a unit's
// reinforcement or deployment spaces).
const maxLines = 40

// Brief implements adjudicator.Briefer: the 2-player set-up's region
// markers; at the start of a turn each reinforcement's spaces, the Foreign
// Units' recovery, withdrawal and deployment; in an action round the card
// to play and how; in a decision step every legal answer; and in every step
// the standing orders the seat may change.
func (rules) Brief(state []byte, seat string) adjudicator.Brief {
	g, err := decode(state)
	if err != nil {
		return adjudicator.Brief{Asks: err.Error()}
	}
	if g.Over || !slices.Contains(g.Seats, seat) {
		return adjudicator.Brief{Asks: "Nothing to order: the game is over."}
	}
	var b adjudicator.Brief
	switch {
	case g.Phase == phaseSetup:
		b = g.briefSetup(seat)
	case g.Phase == phaseStart:
		b = g.briefStart(seat)
	case g.Phase == phaseRound && seat == g.Active:
		b = g.briefRound(state, seat)
	case g.Phase == phaseDecide && g.Pending != nil && slices.Contains(g.Pending.Seats, seat):
		b = g.briefDecision(seat)
	default:
		b.Asks = fmt.Sprintf("You owe no orders in this step (%s); you may change your standing orders.", g.label())
	}
	b.Choices = append(b.Choices, g.standingChoices(seat)...)
	return b
}

// Standing implements adjudicator.StandingOrders: the seat's standing
// orders in force, the defaults included (losses, retreat and advancing
// ask; strike and supply auto; no combat or interrupt card; ties auto for
// the Bosniak-Croat player). A combat or interrupt order whose card the
// seat no longer holds, or whose period has passed, is not in force.
func (rules) Standing(state []byte, seat string) []string {
	g, err := decode(state)
	if err != nil || !slices.Contains(g.Seats, seat) {
		return nil
	}
	return g.standingLines(seat)
}

// standingDefaults are the standing orders of a seat that gave none.
var standingDefaults = map[string]string{"losses": "ask", "retreat": "ask", "advancing": "ask", "strike": "auto", "supply": "auto", "ties": "auto"}

// standingNow is the words of seat's standing order of verb in force.
func (g *game) standingNow(seat, verb string) string {
	if w := g.Standing[seat][verb]; len(w) > 0 {
		return strings.Join(w, " ")
	}
	return standingDefaults[verb]
}

// standingCards are seat's standing combat or interrupt orders in force:
// their card held and of this period.
func (g *game) standingCards(seat, verb string) []string {
	var out []string
	for _, w := range g.Standing[seat][verb] {
		id, _, _ := strings.Cut(w, " ")
		if c := g.sc.Deck.Card(id); c != nil && slices.Contains(g.Hands[seat], id) && c.InPeriod(g.Turn) {
			out = append(out, w)
		}
	}
	return out
}

func (g *game) standingLines(seat string) []string {
	var out []string
	for _, verb := range []string{"losses", "retreat", "advancing"} {
		out = append(out, verb+" "+g.standingNow(seat, verb))
	}
	for _, verb := range []string{"combat", "interrupt"} {
		cards := g.standingCards(seat, verb)
		if len(cards) == 0 {
			out = append(out, verb+" none")
		}
		for _, w := range cards {
			out = append(out, verb+" "+w)
		}
	}
	out = append(out, "strike "+g.standingNow(seat, "strike"), "supply "+g.standingNow(seat, "supply"))
	if seat == seatBC {
		out = append(out, "ties "+g.standingNow(seat, "ties"))
	}
	return out
}

// standingChoices are the standing orders seat may change in any step it
// owes: each kind's lines other than the one in force (sending that again
// would change nothing).
func (g *game) standingChoices(seat string) []adjudicator.Choice {
	var out []adjudicator.Choice
	other := func(verb, about, def string, words ...string) {
		c := adjudicator.Choice{About: fmt.Sprintf("your standing order for %s, now: %s %s", about, verb, g.standingNow(seat, verb)), Default: def}
		for _, w := range words {
			if w != g.standingNow(seat, verb) {
				c.Lines = append(c.Lines, verb+" "+w)
			}
		}
		if len(c.Lines) > 0 {
			out = append(out, c)
		}
	}
	other("losses", "losses (13.4.6)", "it stays", "auto", "ask")
	other("retreat", "retreat (13.4.8)", "it stays", "ask", "ignore", "move")
	other("advancing", "advancing (13.4.9)", "it stays", "ask", "all", "none")
	for _, verb := range []string{"combat", "interrupt"} {
		now := g.standingCards(seat, verb)
		c := adjudicator.Choice{About: fmt.Sprintf("your standing %s card (%s), now: %s %s", verb, map[string]string{"combat": "13.4.3", "interrupt": "8.0"}[verb], verb, orNone(strings.Join(now, "; "))),
			Default: "it stays"}
		for _, id := range g.Hands[seat] {
			card := g.sc.Deck.Card(id)
			switch {
			case card == nil || !card.InPeriod(g.Turn) || slices.Contains(g.Standing[seat][verb], id) && verb == "combat":
			case verb == "combat" && card.Type == typeCombat && roleAllowed(card, "defender"):
				c.Lines = append(c.Lines, "combat "+id)
			case verb == "interrupt" && card.Type == typeInterrupt && !slices.Contains(g.Standing[seat][verb], id+" on "+card.Trigger):
				c.Lines = append(c.Lines, "interrupt "+id)
			}
		}
		if len(g.Standing[seat][verb]) > 0 {
			c.Lines = append(c.Lines, verb+" none")
		}
		if len(c.Lines) > 0 {
			out = append(out, c)
		}
	}
	other("strike", "NATO strike targets (7.3, 12.1.2)", "it stays", "auto")
	other("supply", "enclave supply (2.4.9)", "it stays", "auto")
	if seat == seatBC {
		other("ties", "ties (14.6.3-14.6.5)", "it stays", "auto", "bosniak", "croat")
	}
	return out
}

// unitAbout names a unit as the units table does: id, army, values, where
// and state ("VRS-1 VRS 4-6-4 at bijeljina").
func (g *game) unitAbout(u *unit) string {
	s := fmt.Sprintf("%s %s %s", u.ID, u.Type().Army, u.Values())
	switch u.Box {
	case onMap:
		s += " at " + u.Space
	case pool:
		s += fmt.Sprintf(", a reinforcement of turn %d", u.Arrives)
	default:
		s += ", " + boxName(u.Box)
	}
	status := u.states()
	if len(status) > 0 {
		s += " (" + strings.Join(status, ", ") + ")"
	}
	return s
}

// briefSetup: the 2-player game's region markers (14.2.2).
func (g *game) briefSetup(seat string) adjudicator.Brief {
	b := adjudicator.Brief{Asks: "Set-up (4.0): set your standing orders if you like; the cards are dealt when this step is adjudicated."}
	if seat != seatBC {
		return b
	}
	b.Asks = "Set-up (4.0, 14.2.2): choose the Bosniak or Croat marker of each of the three regions, and your standing orders if you like; the cards are dealt when this step is adjudicated."
	for _, r := range g.sc.Map.Regions {
		if !r.Choose2P {
			continue
		}
		b.Choices = append(b.Choices, adjudicator.Choice{About: "the marker of the region " + r.ID + " (" + r.Name + ")",
			Lines:   []string{"region " + r.ID + " bosniak", "region " + r.ID + " croat"},
			Default: fmt.Sprintf("it goes to the ally holding more of its spaces (%s)", strings.ToLower(string(g.majority(r))))})
	}
	return b
}

// placing is a unit to put on the map at the start of a turn, a
// reinforcement (6.2) or a Foreign Unit of the box (6.3 step 3), with the
// spaces the parser's checks allow it.
type placing struct {
	u     *unit
	verb  string
	cands []string
	next  int
	encl  map[string]string // a candidate space's enclave, "" for none
	in    map[string]bool   // the enclaves it was offered
	lines []string
}

// briefStart: the reinforcements' spaces (6.2), the Foreign Units' step 1,
// withdrawals and deployments (6.3).
func (g *game) briefStart(seat string) adjudicator.Brief {
	b := adjudicator.Brief{Asks: fmt.Sprintf("Start of turn %d (6.2, 6.3): place your reinforcements in your Key Spaces or next to them, and recover, restore, withdraw or deploy Foreign Units (-1 FA a foreign army deployed). Reinforcements you do not place are lost, unless you send no orders at all: then the umpire places them.", g.Turn)}
	var ps []*placing
	supplies := map[Side]*supplyMap{}
	for _, u := range g.arriving(seat) {
		p := &placing{u: u, verb: "reinforce", encl: map[string]string{}, in: map[string]bool{}}
		for _, key := range []bool{true, false} {
			for _, sp := range g.sc.Map.Spaces {
				if sp.Key != key || g.checkReinforce(u, sp.ID) != nil {
					continue
				}
				p.cands = append(p.cands, sp.ID)
				if supplies[u.Side()] == nil {
					supplies[u.Side()] = g.supply(u.Side())
				}
				if a, c, ok := supplies[u.Side()].areaOf(g, sp.ID); ok && a.enclave() {
					p.encl[sp.ID] = fmt.Sprintf("%s/%d", u.Side(), c)
				}
			}
		}
		ps = append(ps, p)
	}
	for _, u := range g.Units {
		if u.Box != reserve || u.Recovered == g.Turn || !slices.Contains(g.seatSides(seat), u.Side()) {
			continue
		}
		p := &placing{u: u, verb: "deploy", encl: map[string]string{}, in: map[string]bool{}}
		for _, sp := range g.sc.Map.Spaces {
			if g.checkDeploy(u, sp.ID) == nil {
				p.cands = append(p.cands, sp.ID)
			}
		}
		ps = append(ps, p)
	}
	g.allocate(ps, supplies)
	var step1 adjudicator.Choice
	step1.About, step1.Default = "6.3 step 1: one eliminated Foreign Unit back to the box, or two reduced ones flipped", "nothing is recovered or restored"
	var reduced []*unit
	for _, u := range g.Units {
		if !u.Type().Foreign || !slices.Contains(g.seatSides(seat), u.Side()) {
			continue
		}
		if g.checkStep1("recover", []*unit{u}) == nil {
			step1.Lines = append(step1.Lines, "recover "+u.ID)
		}
		if u.Reduced && (u.Box == onMap || u.Box == reserve) {
			reduced = append(reduced, u)
		}
	}
	for i, u := range reduced {
		for _, v := range reduced[i+1:] {
			if len(step1.Lines) < maxLines && g.checkStep1("restore", []*unit{u, v}) == nil {
				step1.Lines = append(step1.Lines, "restore "+u.ID+" "+v.ID)
			}
		}
	}
	if len(step1.Lines) > 0 {
		b.Choices = append(b.Choices, step1)
	}
	withdraw := adjudicator.Choice{About: "6.3 step 2: a Foreign Unit from the map back to the Foreign Units box", Default: "none is withdrawn"}
	for _, u := range g.Units {
		if u.Box == onMap && u.Type().Foreign && slices.Contains(g.seatSides(seat), u.Side()) {
			withdraw.Lines = append(withdraw.Lines, "withdraw "+u.ID)
		}
	}
	if len(withdraw.Lines) > 0 {
		b.Choices = append(b.Choices, withdraw)
	}
	for _, p := range ps {
		if len(p.lines) == 0 {
			continue
		}
		c := adjudicator.Choice{About: g.unitAbout(p.u), Lines: p.lines}
		if p.verb == "reinforce" {
			c.About += ": place it (6.2)"
			c.Default = "it is lost if you send other orders, else the umpire places it"
		} else {
			c.About += ": deploy it (6.3 step 3)"
			c.Default = "it stays in the box"
		}
		b.Choices = append(b.Choices, c)
	}
	return b
}

// allocate gives each placing its lines, going round the units a space at
// a time, so that no two units are offered more of a space than its room
// (2.3) nor more of an enclave than its Key Spaces take this turn (6.2.4):
// any line of each, together, is legal.
func (g *game) allocate(ps []*placing, supplies map[Side]*supplyMap) {
	room := map[string]int{}
	roomOf := func(s string) int {
		if _, ok := room[s]; !ok {
			room[s] = stackLimit - len(g.unitsAt(s))
		}
		return room[s]
	}
	enclRoom := map[string]int{}
	enclOf := func(p *placing, s string) int {
		k := p.encl[s]
		if _, ok := enclRoom[k]; !ok {
			side := p.u.Side()
			a, c, _ := supplies[side].areaOf(g, s)
			placed := 0
			for _, o := range g.Units {
				if o.Box == onMap && o.Placed == g.Turn && o.Side() == side {
					if _, oc, ok := supplies[side].areaOf(g, o.Space); ok && oc == c {
						placed++
					}
				}
			}
			enclRoom[k] = len(a.keys) - placed
		}
		return enclRoom[k]
	}
	for more := true; more; {
		more = false
		for _, p := range ps {
			for p.next < len(p.cands) && len(p.lines) < maxLines {
				s := p.cands[p.next]
				p.next++
				if roomOf(s) <= 0 {
					continue
				}
				k := p.encl[s]
				if k != "" && !p.in[k] && enclOf(p, s) <= 0 {
					continue
				}
				room[s]--
				if k != "" && !p.in[k] {
					p.in[k] = true
					enclRoom[k]--
				}
				p.lines = append(p.lines, fmt.Sprintf("%s %s %s", p.verb, p.u.ID, s))
				more = true
				break
			}
		}
	}
}

// briefDecision: every legal answer of a losses, retreat or advance
// decision (13.4.6.2, 13.4.8, 13.4.9), found by the checks the parser
// makes of the answers.
func (g *game) briefDecision(seat string) adjudicator.Brief {
	p, bt := g.Pending, g.Round.Battle
	b := adjudicator.Brief{Asks: p.Question[seat]}
	switch p.Kind {
	case "losses":
		b.Choices = append(b.Choices, adjudicator.Choice{About: fmt.Sprintf("your losses at %s, each allocation of Maximum Fulfilment (13.4.6.2)", bt.Target),
			Lines: g.lossChoices(bt, seat), Default: p.Default})
	case "retreat":
		b.Choices = append(b.Choices, g.retreatChoices(bt)...)
	case "advance":
		c := adjudicator.Choice{About: fmt.Sprintf("your advance into %s (13.4.9)", bt.Target), Default: p.Default}
		answers := [][]string{{"all"}}
		for _, u := range g.advancers(bt) {
			answers = append(answers, []string{u.ID})
			if g.extraSteps(bt, u) {
				ti, _ := g.sc.Map.Space(bt.Target)
				for _, n := range g.sc.Map.Graph.Neighbours(ti) {
					answers = append(answers, []string{u.ID + ">" + g.sc.Map.Spaces[n].ID})
				}
			}
		}
		for _, a := range answers {
			if g.checkAdvance(bt, a) == nil {
				c.Lines = append(c.Lines, "advance "+strings.Join(a, " "))
			}
		}
		c.Lines = append(c.Lines, "advance none")
		b.Choices = append(b.Choices, c)
	}
	return b
}

// retreatChoices are the answers of a retreat decision: each retreating
// unit's legal paths (13.4.8.2, by the parser's checkRetreat), a choice a
// unit when any of them together is legal; else, and whenever the retreat
// may be ignored (13.4.8.1: ignore, or the units' lines, not both), one
// choice holding them all.
func (g *game) retreatChoices(bt *attack) []adjudicator.Choice {
	var units []*unit
	for _, id := range bt.survivors(g, bt.Defenders) {
		if u := g.byID[id]; u.Space == bt.Target && u.Supply != oos {
			units = append(units, u)
		}
	}
	var per []adjudicator.Choice
	ends := map[string]int{}
	for _, u := range units {
		c := adjudicator.Choice{About: fmt.Sprintf("%s, retreating %d %s", g.unitAbout(u), bt.Retreat, plural(bt.Retreat, "space", "spaces")),
			Default: "the umpire retreats it toward supply"}
		seen := map[string]bool{}
		for _, path := range g.retreatPaths(bt, u) {
			c.Lines = append(c.Lines, "retreat "+u.ID+" "+strings.Join(path, " "))
			if end := path[len(path)-1]; !seen[end] {
				seen[end] = true
				ends[end]++
			}
		}
		if len(c.Lines) > 0 {
			per = append(per, c)
		}
	}
	free := !bt.MayIgnore
	for end, n := range ends {
		if len(g.unitsAt(end))+n > stackLimit {
			free = false
		}
	}
	if free {
		return per
	}
	one := adjudicator.Choice{About: fmt.Sprintf("the retreat from %s: ", bt.Target), Default: "the umpire's choice: ignore the retreat where allowed, else retreat toward supply"}
	if bt.MayIgnore {
		one.About += "ignore it (one more step, 13.4.8.1), or "
		one.Lines = append(one.Lines, "ignore")
	}
	one.About += "one unit's path (the umpire retreats the others)"
	for _, c := range per {
		one.Lines = append(one.Lines, c.Lines...)
	}
	return []adjudicator.Choice{one}
}
