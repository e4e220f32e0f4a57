package bu

// The action round (7.0, 7.2-7.4): the active seat checks supply, may suffer
// a NATO Air Strike, and plays one card; other seats answer with interrupts
// and combat cards from their standing orders. A round runs as a queue of
// actions that a follow-up decision step may suspend and resume.

import (
	"fmt"
	"slices"
	"strings"
)

// round is the action round being played.
type round struct {
	Seat string `json:"seat"`
	Card string `json:"card,omitempty"`
	Mode string `json:"mode,omitempty"` // op, sr, rp, dp, event
	// For is the side a 2-player Diplomatic Action or event serves.
	For Side `json:"for,omitempty"`
	// Points are the OPs, SR or RP points left (13.1.1, 9.1.1, 10.1.1).
	Points int      `json:"points,omitempty"`
	Queue  []string `json:"queue,omitempty"` // actions still to carry out, canonical
	// Acted units made an action this round (13.1.7, 9.1.5); NoOps had
	// their supply path opened this round (7.2.5).
	Acted []string `json:"acted,omitempty"`
	NoOps []string `json:"no_ops,omitempty"`
	// Captured spaces were captured this round (13.2.2); Occupied held
	// enemy units at its start (13.2.7).
	Captured []string `json:"captured,omitempty"`
	Occupied []string `json:"occupied,omitempty"`
	// Retreated units retreated this round, to the space given (13.4.8.6).
	Retreated map[string]string `json:"retreated,omitempty"`
	// Entrenched spaces were activated for entrenchment (13.3.3).
	Entrenched []string `json:"entrenched,omitempty"`
	// Cards are in effect this round: combat cards (13.4.3), the
	// offensive played as an event, interrupts' DRMs.
	Cards []roundCard `json:"cards,omitempty"`
	// RP spent in each enclave, by its first Key Space (10.1.6).
	EnclaveRP map[string]int `json:"enclave_rp,omitempty"`
	// MoveFrom is the space of the move activation in progress (13.2.5).
	MoveFrom string `json:"move_from,omitempty"`
	// AttackedFrom holds the space each attacking space attacked this
	// round (13.4.1.2: one defending space an attacking space).
	AttackedFrom map[string]string `json:"attacked_from,omitempty"`
	Battle       *attack           `json:"battle,omitempty"`
	Cancelled    bool              `json:"cancelled,omitempty"`
}

// roundCard is a card in effect for the round and who played it.
type roundCard struct {
	Card string `json:"card"`
	Seat string `json:"seat"`
	Role string `json:"role,omitempty"` // combat cards: attacker or defender
}

// pending is a decision the standing orders did not give: a follow-up step
// owed by Seats.
type pending struct {
	Kind    string   `json:"kind"` // losses, retreat, advance
	Seats   []string `json:"seats"`
	Label   string   `json:"label"`
	Default string   `json:"default"`
	// Question says what is asked, with the choices, for the report.
	Question map[string]string `json:"question,omitempty"`
}

func (g *game) acted(id string) bool { return g.Round != nil && slices.Contains(g.Round.Acted, id) }

func (g *game) act(id string) {
	if g.Round != nil && !slices.Contains(g.Round.Acted, id) {
		g.Round.Acted = append(g.Round.Acted, id)
	}
}

// friendlyAtStart reports whether space id was side's at the start of the
// round (13.2.2, 13.4.2): its now and not captured this round.
func (g *game) friendlyAtStart(side Side, id string) bool {
	sp := g.space(id)
	if sp == nil {
		return false
	}
	if sp.Foreign() {
		return usesDesignation(side, sp.Designation)
	}
	return g.friendly(side, g.Control[id]) && (g.Round == nil || !slices.Contains(g.Round.Captured, id))
}

// beginRound opens the active seat's round.
func (g *game) beginRound(seat string) {
	g.RoundID++
	g.Round = &round{Seat: seat, Retreated: map[string]string{}}
	for _, u := range g.Units {
		if u.Box == onMap && !slices.Contains(g.seatSides(seat), u.Side()) && !slices.Contains(g.Round.Occupied, u.Space) {
			g.Round.Occupied = append(g.Round.Occupied, u.Space)
		}
	}
	slices.Sort(g.Round.Occupied)
}

// adjudicateRound plays the active seat's action round with its orders.
func (g *game) adjudicateRound(lines []string) {
	seat := g.Active
	ords := g.sandboxOrders(seat, lines)
	g.storeStanding(seat, ords)
	g.beginRound(seat)
	g.ev("7.1", "Turn %d, action round %d: %s.", g.Turn, g.Rounds+1, seatName(seat))
	// step 1: supply (7.2)
	g.checkSupply(seat)
	if g.Over {
		return
	}
	// step 2: the NATO Air Strike on the player before, at level 2 (7.3.1)
	prev := g.preceding(seat)
	for _, side := range g.seatSides(prev) {
		if g.level(side) >= 2 && g.Sides[side].Out == "" {
			g.ev("7.3.1", "%s is at Intervention Level %d: %s performs a NATO Air Strike on its units.", side, g.level(side), seatName(seat))
			g.airStrike(seat, side, "7.3.1")
			if g.Over {
				return
			}
		}
	}
	// step 3: play a card (7.4)
	var play *order
	var actions []string
	for _, o := range ords {
		switch {
		case o.Verb == "play":
			play = o
		case !standingVerbs[o.Verb] && o.Verb != "pass":
			actions = append(actions, o.Canon)
		}
	}
	if play == nil || !slices.Contains(g.Hands[seat], play.Card) {
		play = g.defaultPlay(seat)
		actions = nil
		if play == nil {
			g.ev("7.4", "%s has no card to play.", seatName(seat))
			g.endRound()
			return
		}
		g.ev("7.4", "%s sent no card to play: the umpire plays %s for a Diplomatic Action.", seatName(seat), g.cardName(play.Card))
	}
	g.playCard(seat, play, actions)
}

// preceding is the seat before seat in the order of play, going round.
func (g *game) preceding(seat string) string {
	o := g.order()
	i := slices.Index(o, seat)
	return o[(i+len(o)-1)%len(o)]
}

// defaultPlay is the card the umpire plays for a seat without orders: its
// lowest-value card, first by id, for a Diplomatic Action.
func (g *game) defaultPlay(seat string) *order {
	hand := g.Hands[seat]
	if len(hand) == 0 {
		return nil
	}
	best := ""
	for _, id := range hand {
		c := g.sc.Deck.Card(id)
		if best == "" || c.CV < g.sc.Deck.Card(best).CV || c.CV == g.sc.Deck.Card(best).CV && id < best {
			best = id
		}
	}
	return &order{Verb: "play", Card: best, Mode: "dp", Canon: "play " + best + " dp"}
}

// playCard plays the round's card (7.4.1) with its actions.
func (g *game) playCard(seat string, play *order, actions []string) {
	card := g.sc.Deck.Card(play.Card)
	r := g.Round
	r.Card, r.Mode, r.For = card.ID, play.Mode, play.Side
	if r.For == "" {
		r.For = g.defaultSide(seat, card)
	}
	g.takeFromHand(seat, card.ID)
	g.LastMode[seat] = play.Mode
	what := map[string]string{"op": "an Operation", "sr": "Strategic Redeployment", "rp": "Replacement", "dp": "a Diplomatic Action", "event": "its event"}[play.Mode]
	g.ev("7.4.1", "%s plays %s for %s.", seatName(seat), g.cardName(card.ID), what)
	g.interrupts("before")
	if g.Over {
		return
	}
	if !r.Cancelled {
		switch play.Mode {
		case "op":
			r.Points, r.Queue = card.CV, actions
		case "sr":
			r.Points, r.Queue = card.CV, actions
		case "rp":
			r.Points, r.Queue = 2*card.CV, actions
		case "dp":
			fa := diplomacyFA(card.CV)
			g.changeFA(r.For, fa, "11.1.1", fmt.Sprintf("Diplomatic Action with a CV %d card", card.CV), seat)
			g.checkVictory()
		case "event":
			g.event(seat, card, actions)
		}
	}
	if g.Over {
		return
	}
	g.run()
}

// defaultSide is the side a card serves in the 2-player game when the
// order does not say: the side of its deck (14.5.3 lets either).
func (g *game) defaultSide(seat string, card *card) Side {
	if slices.Contains(g.seatSides(seat), card.Deck) {
		return card.Deck
	}
	return g.seatSides(seat)[0]
}

// run carries out the round's queued actions until it is done or a decision
// suspends it.
func (g *game) run() {
	for !g.Over {
		if b := g.Round.Battle; b != nil {
			if !g.resolveBattle(b) {
				return // waiting for a decision
			}
			g.Round.Battle = nil
			g.checkVictory()
			continue
		}
		if len(g.Round.Queue) == 0 {
			break
		}
		line := g.Round.Queue[0]
		g.Round.Queue = g.Round.Queue[1:]
		g.action(line)
		g.checkVictory()
	}
	if !g.Over {
		g.endRound()
	}
}

// endRound finishes the round: interrupts played after the action, the
// round's cards discarded (13.4.3), stacking checked (2.3.2), and the next
// round or the end of the turn.
func (g *game) endRound() {
	r := g.Round
	if r != nil && r.Card != "" && !r.Cancelled {
		g.interrupts("after")
		if g.Over {
			return
		}
	}
	if r != nil {
		for _, c := range r.Cards {
			if card := g.sc.Deck.Card(c.Card); card != nil && (card.Type == typeCombat || card.Type == typeInterrupt) {
				g.discard(c.Seat, c.Card)
			}
		}
		if r.Card != "" {
			if card := g.sc.Deck.Card(r.Card); card.Lasting == "" || r.Mode != "event" || r.Cancelled {
				g.discard(r.Seat, r.Card)
			}
		}
	}
	g.overstack()
	g.Round, g.Pending = nil, nil
	g.Rounds++
	g.nextRound()
}

// overstack eliminates units over the stacking limit at the end of an
// action (2.3.2): the rules forbid it; orders that would cause it are
// refused at receipt and moves that would are not made, so this only
// catches what nothing else did (ruling: the last units to arrive, by id).
func (g *game) overstack() {
	count := map[string][]*unit{}
	for _, u := range g.Units {
		if u.Box == onMap {
			count[u.Space] = append(count[u.Space], u)
		}
	}
	for space, units := range count {
		sp := g.space(space)
		if len(units) <= stackLimit || sp == nil {
			continue
		}
		for _, u := range units[stackLimit:] {
			g.ev("2.3.2", "%s is over the stacking limit at %s and is eliminated.", u.ID, sp.Name)
			g.eliminate(u, "", false)
		}
	}
}

// nextRound opens the next action round: the next seat in the order of
// play that holds cards, or the end of the turn when none does (5.1.1: the
// Action Phase ends when all cards have been played; ruling for the lost
// 7.1: a seat without cards is passed over).
func (g *game) nextRound() {
	if g.Over {
		return
	}
	o := g.order()
	start := 0
	if g.Active != "" {
		start = slices.Index(o, g.Active) + 1
	}
	for i := range len(o) {
		seat := o[(start+i)%len(o)]
		if len(g.Hands[seat]) > 0 {
			g.Active, g.Phase = seat, phaseRound
			return
		}
	}
	g.endOfTurn()
}

// storeStanding keeps a seat's standing orders (any step of the seat).
func (g *game) storeStanding(seat string, ords []*order) {
	for _, o := range ords {
		if !standingVerbs[o.Verb] {
			continue
		}
		st := g.Standing[seat]
		if st == nil {
			st = map[string][]string{}
			g.Standing[seat] = st
		}
		switch o.Verb {
		case "combat", "interrupt":
			if len(o.Words) == 1 && o.Words[0] == "none" {
				delete(st, o.Verb)
				continue
			}
			st[o.Verb] = append(slices.DeleteFunc(st[o.Verb], func(s string) bool { return strings.HasPrefix(s, o.Card+" ") || s == o.Card }), strings.Join(o.Words, " "))
		default:
			st[o.Verb] = o.Words
		}
	}
}

// airStrike is a NATO Air Strike by striker on side's units (7.3.1): the
// striker's standing strike order names the targets, full-size units of
// side, before the roll; without one the umpire takes the strongest. Two
// units, three in the 2-player game (14.5.4); one roll each, 3-9 reduces.
func (g *game) airStrike(striker string, side Side, rule string) {
	n := airStrikeUnits(g.TwoPlayer())
	targets := g.pickEnemies(striker, side, n, func(u *unit) bool { return !u.Reduced })
	if len(targets) == 0 {
		g.ev(rule, "%s has no full-size unit on the map: the strike finds no target.", side)
		return
	}
	ids := make([]string, len(targets))
	for i, u := range targets {
		ids[i] = u.ID
	}
	g.ev(rule, "%s names the strike's targets before rolling: %s.", seatName(striker), strings.Join(ids, ", "))
	hits := airStrikeOn(g.r, ids)
	for i, u := range targets {
		if hits[i] {
			u.Reduced = true
			g.ev(rule, "The strike reduces %s at %s.", u.ID, g.name(u.Space))
		} else {
			g.ev(rule, "The strike misses %s at %s.", u.ID, g.name(u.Space))
		}
	}
}

// pickEnemies chooses up to n units of side on the map that ok admits, as
// seat's standing strike order ranks them, then the strongest (CF, elite,
// id): the targets of air strikes and of reductions seat rolls for.
func (g *game) pickEnemies(seat string, side Side, n int, ok func(*unit) bool) []*unit {
	pref := g.Standing[seat]["strike"]
	var cands []*unit
	for _, u := range g.Units {
		if u.Box == onMap && u.Side() == side && ok(u) {
			cands = append(cands, u)
		}
	}
	rank := func(u *unit) int {
		if i := slices.Index(pref, u.ID); i >= 0 {
			return i
		}
		return len(pref)
	}
	slices.SortStableFunc(cands, func(a, b *unit) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		if d := b.Values().CF - a.Values().CF; d != 0 {
			return d
		}
		if a.Type().Elite != b.Type().Elite {
			if a.Type().Elite {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return cands[:min(n, len(cands))]
}
