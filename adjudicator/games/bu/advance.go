package bu

// Advance after attack (13.4.9) and capture by advance (13.4.10).

import (
	"slices"
	"strings"
)

// advancers are the attackers that may advance into the cleared space:
// full-strength survivors (13.4.9), not under Limited Fuel unless a card
// gives an advance (13.4.9.2, 1.5.5), domestic units not into a Foreign
// Space.
func (g *game) advancers(b *Attack) []*Unit {
	var out []*Unit
	target := g.space(b.Target)
	for _, id := range b.survivors(g, b.Attackers) {
		u := g.byID[id]
		if u.Reduced || g.limitedFuel(u.Side()) && g.advanceBonus(b.Seat) == 0 {
			continue
		}
		if target.Foreign() && !u.Type().Foreign {
			continue
		}
		if g.mayEnter(u, b.Target) != nil {
			continue
		}
		out = append(out, u)
	}
	return out
}

// extraSteps reports whether unit u may advance one space more (13.4.9.1:
// elite units and cards' Advance a/a +1), the target's terrain not halting
// it (13.4.9.2).
func (g *game) extraSteps(b *Attack, u *Unit) bool {
	t := g.space(b.Target).Terrain
	halts := Effects(t, false, true).HaltsAdvance && !g.ignoresTerrain(b.Seat, t)
	return !halts && (u.Type().Elite || g.advanceBonus(b.Seat) > 0)
}

// battleAdvance advances the attackers into the cleared space; false when
// it waits for the attacker's decision.
func (g *game) battleAdvance(b *Attack) bool {
	if len(g.unitsAt(b.Target)) > 0 {
		return true // the defenders held (13.4.9)
	}
	elig := g.advancers(b)
	if len(elig) == 0 {
		if b.survivors(g, b.Attackers) != nil && g.limitedFuel(g.byID[b.Attackers[0]].Side()) {
			g.ev("13.2.8, 13.4.9.2", "%s is empty, but Limited Fuel keeps the attackers from advancing.", g.name(b.Target))
		}
		return true
	}
	seat := b.Seat
	want, decided := b.Decisions["advance:"+seat]
	if !decided {
		want = b.Advance
	}
	if len(want) == 0 {
		st := g.Standing[seat]["advancing"]
		switch {
		case len(st) > 0 && st[0] != "ask":
			want = st
		default:
			if g.dry {
				return true
			}
			g.ask(b, "advance", []string{seat})
			return false
		}
	}
	if len(want) == 1 && (want[0] == "none" || want[0] == "default") {
		g.ev("13.4.9", "The attackers do not advance into %s.", g.name(b.Target))
		return true
	}
	var movers []*Unit
	extra := map[string]string{}
	if want[0] == "all" {
		movers = elig
	} else {
		for _, w := range want {
			id, to, _ := strings.Cut(w, ">")
			i := slices.IndexFunc(elig, func(u *Unit) bool { return u.ID == id })
			if i < 0 {
				g.ev("13.4.9", "%s may not advance (reduced, Limited Fuel, or not an attacker left).", id)
				continue
			}
			movers = append(movers, elig[i])
			if to != "" {
				extra[id] = to
			}
		}
	}
	if len(movers) > StackLimit {
		movers = movers[:StackLimit]
	}
	if len(movers) == 0 {
		return true
	}
	for _, u := range movers {
		g.Arrows = append(g.Arrows, Arrow{From: u.Space, To: b.Target, Kind: "advance"})
		u.Space = b.Target
	}
	g.ev("13.4.9", "%s %s into %s.", unitIDs(movers), plural(len(movers), "advances", "advance"), g.name(b.Target))
	if sp := g.space(b.Target); !sp.Foreign() && !g.friendly(movers[0].Side(), g.Control[b.Target]) {
		g.capture(b.Target, g.captureSide(movers), g.captureFA(movers), seat)
		if g.Over {
			return true
		}
	}
	for _, u := range movers {
		to, ok := extra[u.ID]
		if !ok {
			continue
		}
		if err := g.checkExtraAdvance(b, u, to); err != nil {
			g.ev("13.4.9.1", "%s does not advance further to %s (%v).", u.ID, g.name(to), err)
			continue
		}
		g.Arrows = append(g.Arrows, Arrow{From: u.Space, To: to, Kind: "advance"})
		u.Space = to
		g.ev("13.4.9.1", "%s advances one space more, into %s.", u.ID, g.name(to))
		if sp := g.space(to); !sp.Foreign() && !g.friendly(u.Side(), g.Control[to]) {
			g.capture(to, u.Side(), u.Type().CaptureFA, seat)
			if g.Over {
				return true
			}
		}
	}
	return true
}

// checkExtraAdvance says why u may not advance one space more into to, or
// nil (13.4.9.1, 13.4.9.2).
func (g *game) checkExtraAdvance(b *Attack, u *Unit, to string) error {
	if !g.extraSteps(b, u) {
		return refuse("elite units and cards with Advance a/a +1 advance one space more, not out of a Mountain, Swamp or River space (13.4.9)", "%s has no extra advance", u.ID)
	}
	ti, _ := g.sc.Map.Space(b.Target)
	ni, ok := g.sc.Map.Space(to)
	if !ok || !g.sc.Map.Graph.Adjacent(ti, ni) {
		return refuse("the extra space is next to "+b.Target+": "+g.neighbours(b.Target), "%s is not next to %s", g.name(to), g.name(b.Target))
	}
	if err := g.mayEnter(u, to); err != nil {
		return err
	}
	if n := len(g.unitsAt(to)) + 1; n > StackLimit {
		return refuse("at most 3 units a space at the end of an advance (13.4.9.2)", "%s is full", g.name(to))
	}
	return nil
}
