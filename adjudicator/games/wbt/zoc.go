package wbt

import "github.com/umpire-pbem/umpire/adjudicator/board"

// projectsZOC reports whether a NATO unit exerts a zone of control now:
// every NATO unit but the KLA (7.1), not when out of supply (7.4), none on
// a mandatory reconstitution turn (7.4, 9.3) and only in supply on a
// discretionary one (9.4).
func (g *game) projectsZOC(u *unit, n *supplyNet) bool {
	if !u.alive() || u.c.Side != nato || u.c.KLA || g.mandatory() {
		return false
	}
	return g.supply(u, n).OK
}

// zoc lists the hexes in NATO zones of control now (7.1-7.5). Mechanized
// units' zones never extend into mountain hexes (7.2); non-mechanized,
// dismounted and airmobile zones ignore terrain (7.2, 12.9).
func (g *game) zoc() map[board.ID]bool {
	if g.still != nil && g.still.zoc != nil {
		return g.still.zoc
	}
	return g.zocOf(func(supply) bool { return true })
}

// zocOf is zoc for the NATO units whose supply keep accepts.
func (g *game) zocOf(keep func(supply) bool) map[board.ID]bool {
	n := g.net()
	out := map[board.ID]bool{}
	for _, u := range g.Units {
		if !g.projectsZOC(u, n) || !keep(g.supply(u, n)) {
			continue
		}
		mech := u.c.Mobility == Mech && !u.Dismounted
		for _, nb := range g.grid.Neighbours(u.pos) {
			if mech && g.terrain(nb) == "mountain" {
				continue
			}
			out[nb] = true
		}
	}
	return out
}
