package bu

// Interrupt cards (1.5.8): played by an inactive seat in the active seat's
// round, before or after its action as the card says, by the seat's
// standing interrupt orders. When two seats may interrupt, they do in the
// order of play after the active seat (ruling: the rules say nothing).

import (
	"fmt"
	"slices"
	"strings"
)

// interrupts plays the standing interrupts that answer the round's play at
// a moment: "before" its action, "after" it, or "attack" (as an attack is
// declared).
func (g *game) interrupts(moment string) {
	r := g.Round
	if r == nil || g.dry {
		return
	}
	o := g.order()
	i := slices.Index(o, r.Seat)
	for k := 1; k < len(o); k++ {
		seat := o[(i+k)%len(o)]
		for _, line := range slices.Clone(g.Standing[seat]["interrupt"]) {
			f := strings.Fields(line)
			if len(f) < 3 {
				continue
			}
			card := g.sc.Deck.Card(f[0])
			on, by := f[2], ""
			if len(f) >= 5 {
				by = f[4]
			}
			if card == nil || !slices.Contains(g.Hands[seat], card.ID) || !card.InPeriod(g.Turn) || by != "" && by != r.Seat {
				continue
			}
			if !g.interruptFits(card, on, moment) {
				continue
			}
			g.playInterrupt(seat, card)
			g.Standing[seat]["interrupt"] = slices.DeleteFunc(g.Standing[seat]["interrupt"], func(s string) bool { return s == line })
			if g.Over {
				return
			}
			if r.Cancelled && moment == "before" {
				return
			}
		}
	}
}

// interruptFits reports whether an interrupt answering on is played at this
// moment of the round.
func (g *game) interruptFits(c *card, on, moment string) bool {
	r := g.Round
	switch moment {
	case "before":
		return c.Timing == "before" && on != "attack" && (on == "any" || on == r.Mode)
	case "attack":
		return c.Timing == "before" && on == "attack"
	case "after":
		if c.Timing != "after" {
			return false
		}
		return on == "any" || on == r.Mode || on == "attack" && len(r.AttackedFrom) > 0
	}
	return false
}

// playInterrupt plays seat's interrupt card.
func (g *game) playInterrupt(seat string, c *card) {
	r := g.Round
	g.takeFromHand(seat, c.ID)
	g.ev("1.5.8", "%s interrupts with %s.", seatName(seat), g.cardName(c.ID))
	keep := false
	side := g.seatSides(seat)[0]
	for _, e := range c.Effects {
		e := e
		switch e.Kind {
		case effCancel:
			if r.Mode == "event" && !r.Cancelled {
				r.Cancelled = true
				g.ev("1.5.8", "%s's event %s is cancelled.", seatName(r.Seat), r.Card)
			}
		case effReduce:
			targets := g.pickEnemies(seat, r.For, e.Units, func(u *unit) bool { return !u.Reduced && slices.Contains(g.seatSides(r.Seat), u.Side()) })
			if len(targets) == 0 {
				continue
			}
			g.ev("12.1.2", "%s names the units before rolling: %s.", seatName(seat), unitIDs(targets))
			for _, u := range targets {
				roll, hit := rollToReduce(g.r, e.On, fmt.Sprintf("B&U 12.1.2 roll to reduce %s (interrupt %s), reduces on %d-9", u.ID, c.ID, e.On))
				if hit {
					u.Reduced = true
					g.ev("12.1.2", "%s rolls %d on %s: reduced.", c.ID, roll, u.ID)
				} else {
					g.ev("12.1.2", "%s rolls %d on %s: no effect.", c.ID, roll, u.ID)
				}
			}
		case effSW:
			for _, s := range g.sidesOf(e.Who, seat, side) {
				g.changeSW(s, e.Value, "1.5.8", "interrupt "+c.ID)
			}
		case effFA:
			for _, s := range g.sidesOf(e.Who, seat, side) {
				g.changeFA(s, e.Value, "1.5.8", "interrupt "+c.ID, seat)
			}
		case effDRM:
			keep = true
		}
	}
	g.checkVictory()
	if keep {
		r.Cards = append(r.Cards, roundCard{Card: c.ID, Seat: seat})
		g.ev("1.5.8", "%s stays in effect for %s's battles this round.", c.ID, seatName(seat))
	} else {
		g.discard(seat, c.ID)
	}
}
