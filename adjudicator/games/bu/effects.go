package bu

// Effects in force: the card played this round as an event (an Offensive's
// bonuses), combat cards and interrupts played this round (13.4.3), and
// lasting cards (1.5.6). Cards take precedence over the rules (1.5.5).

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// effects lists the effects of kind in force for seat's units now.
func (g *game) effects(seat, kind string) []effect {
	var out []effect
	add := func(id string, role string) {
		c := g.sc.Deck.Card(id)
		if c == nil {
			return
		}
		for _, e := range c.Effects {
			if e.Kind != kind {
				continue
			}
			if role != "" && e.Kind == effDRM && e.Role != "any" && e.Role != role {
				continue
			}
			out = append(out, e)
		}
	}
	for _, l := range g.Lasting {
		if l.Seat == seat {
			add(l.Card, "")
		}
	}
	if r := g.Round; r != nil {
		if r.Seat == seat && r.Mode == "event" && !r.Cancelled {
			if c := g.sc.Deck.Card(r.Card); c != nil && c.Lasting == "" && (c.Type == typeOffensive || c.Has(effOP) != nil) {
				add(r.Card, "")
			}
		}
		for _, rc := range r.Cards {
			if rc.Seat == seat {
				add(rc.Card, rc.Role)
			}
		}
	}
	return out
}

// limitedFuel reports whether side's units suffer Limited Fuel (2.2.3,
// 13.2.8): Intervention Level 1 or more, and no card lifting it (1.5.5).
func (g *game) limitedFuel(side Side) bool {
	return g.level(side) >= 1 && len(g.effects(g.seatOf(side), effFuel)) == 0
}

// mf is a unit's Movement Factor now (1.3.5): Limited Fuel -1 (13.2.8),
// cards' MF bonuses.
func (g *game) mf(u *unit) int {
	mf := u.Values().MF
	if g.limitedFuel(u.Side()) {
		mf--
	}
	for _, e := range g.effects(g.seatOf(u.Side()), effMF) {
		mf += e.Value
	}
	return max(mf, 0)
}

// advanceBonus is the extra advance spaces cards give seat's attack
// (13.4.9.1, 1.5.5): the best one in force.
func (g *game) advanceBonus(seat string) int {
	best := 0
	for _, e := range g.effects(seat, effAdvance) {
		best = max(best, e.Value)
	}
	return best
}

// ignoresTerrain reports whether seat's attack on terrain t ignores it.
func (g *game) ignoresTerrain(seat string, t terrain) bool {
	for _, e := range g.effects(seat, effIgnore) {
		if len(e.Terrain) == 0 || slices.Contains(e.Terrain, t) {
			return true
		}
	}
	return false
}

// drm is the DRMs cards give seat in role on terrain t (13.4.4), one a
// card effect.
func (g *game) drm(seat, role string, t terrain) kit.Modifiers {
	var mods kit.Modifiers
	add := func(id string, rc string) {
		c := g.sc.Deck.Card(id)
		if c == nil {
			return
		}
		for _, e := range c.Effects {
			if e.Kind != effDRM || e.Role != "any" && e.Role != role || len(e.Terrain) > 0 && !slices.Contains(e.Terrain, t) {
				continue
			}
			if rc != "" && rc != role {
				continue
			}
			mods.Add(e.Value, "card "+c.ID, "13.4.4")
		}
	}
	for _, l := range g.Lasting {
		if l.Seat == seat {
			add(l.Card, "")
		}
	}
	if r := g.Round; r != nil {
		if r.Seat == seat && r.Mode == "event" && !r.Cancelled {
			if c := g.sc.Deck.Card(r.Card); c != nil && c.Lasting == "" && c.Type == typeOffensive {
				add(r.Card, "")
			}
		}
		for _, rc := range r.Cards {
			if rc.Seat == seat {
				add(rc.Card, rc.Role)
			}
		}
	}
	return mods
}
