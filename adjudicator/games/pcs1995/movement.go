package pcs1995

// This file holds movement (7.1, 7.2, 9.0-9.8), zones of control (3.4) and
// stacking (3.6). MP are counted in half MP, so that roads and highways
// (1/2 MP) are whole numbers.

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// cost is the MP a unit of movement type typ pays to enter hex to from
// the adjacent hex from, in half MP (9.1-9.8), on map m: 1/2 MP along
// consecutive road or highway hexes, else the terrain of the hex entered
// (clear 1; mountain 3 Motorized, 2 Mechanized, Foot 2 into the first
// mountain hex and 1 from mountain to mountain), plus the hexside (river +1
// Foot and Mechanized, +2 Motorized; ridge +1 Foot, +2 Mechanized, +3
// Motorized). Road movement does not cancel the hexside cost (rulings).
func cost(m *board.Map, typ string, from, to board.ID) int {
	c := 2
	switch {
	case m.Link(from, to) != "":
		c = 1
	case m.Terrain[to] == mountainTerrain:
		switch typ {
		case motor:
			c = 6
		case mech:
			c = 4
		default:
			c = 4
			if m.Terrain[from] == mountainTerrain {
				c = 2
			}
		}
	}
	if m.River(from, to) {
		c += 2
		if typ == motor {
			c += 2
		}
	}
	if m.Ridge(from, to) {
		switch typ {
		case motor:
			c += 6
		case mech:
			c += 4
		default:
			c += 2
		}
	}
	return c
}

// cost is Cost on the game's map, -1 where units may not go (sea, off the
// theatre).
func (g *game) cost(typ string, from, to board.ID) int {
	if !g.sc.Land(to) {
		return -1
	}
	return cost(g.sc.Map, typ, from, to)
}

// halves prints half MP: "3", "3 1/2".
func halves(n int) string {
	if n%2 == 0 {
		return fmt.Sprint(n / 2)
	}
	if n < 2 {
		return "1/2"
	}
	return fmt.Sprintf("%d 1/2", n/2)
}

// ezoc reports whether the hex is in an enemy zone of control for side
// (3.4): a unit of the other side next to it projects one, except across a
// ridge hexside and into a city the side controls (a city controlled by the
// projecting unit's enemy).
func (g *game) ezoc(side faction, h board.ID) bool {
	if g.city(h) && g.controller(h) == side {
		return false
	}
	for _, nb := range g.grid.Neighbours(h) {
		if g.enemyAt(side, nb) && !g.sc.Map.Ridge(nb, h) {
			return true
		}
	}
	return false
}

// nextToEnemy reports whether a unit of the other side stands next to h
// (7.2).
func (g *game) nextToEnemy(side faction, h board.ID) bool {
	for _, nb := range g.grid.Neighbours(h) {
		if g.enemyAt(side, nb) {
			return true
		}
	}
	return false
}

// smLimit says why a side's SM may not enter h ("" if it may): not further
// into enemy territory than its furthest unit there, the moving unit left
// out (7.2); with no unit there, not into enemy territory at all.
func (g *game) smLimit(u *Unit, h board.ID) string {
	side := u.side()
	if g.sc.homeSide(h) != other(side) {
		return ""
	}
	limit, found := 0, false
	for _, o := range g.Units {
		if o == u || o.side() != side || !o.onMap() || g.sc.homeSide(o.pos) != other(side) {
			continue
		}
		if !found || side == RS && o.pos.Col < limit || side == NATO && o.pos.Col > limit {
			limit = o.pos.Col
		}
		found = true
	}
	switch {
	case !found:
		return "no friendly unit is in enemy territory, so SM may not enter it (7.2)"
	case side == RS && h.Col < limit:
		return fmt.Sprintf("it would be further west than the westernmost Russian/Serbian unit in enemy territory (column %d, 7.2)", limit)
	case side == NATO && h.Col > limit:
		return fmt.Sprintf("it would be further east than the easternmost NATO unit in enemy territory (column %d, 7.2)", limit)
	}
	return ""
}

// step is one hex a move reached, with the MP left after entering it.
type step struct {
	hex  board.ID
	left int
}

// walk moves u along path as far as the rules let it (7.1, 7.2, 3.4): it
// returns the hexes entered, the MP left (half MP) and why it stopped
// early ("" if it did not). It does not move the unit.
func (g *game) walk(u *Unit, from board.ID, path []board.ID, mp int, sm bool) ([]step, string) {
	side, typ := u.side(), u.c.GroundType()
	pos := from
	var out []step
	for _, h := range path {
		switch {
		case !g.grid.Adjacent(pos, h):
			return out, fmt.Sprintf("%s is not next to %s", g.hex(h), g.hex(pos))
		case g.enemyAt(side, h):
			return out, fmt.Sprintf("an enemy unit holds %s", g.placeName(h))
		}
		c := g.cost(typ, pos, h)
		if c < 0 {
			return out, fmt.Sprintf("%s is sea or off the theatre", g.hex(h))
		}
		if c > mp {
			return out, fmt.Sprintf("entering %s costs %s MP and %s MP are left (9.0)", g.placeName(h), halves(c), halves(mp))
		}
		if sm {
			if g.nextToEnemy(side, h) {
				return out, fmt.Sprintf("%s is next to an enemy unit, where SM may not go (7.2)", g.hex(h))
			}
			if why := g.smLimit(u, h); why != "" {
				return out, fmt.Sprintf("%s: %s", g.hex(h), why)
			}
		}
		mp -= c
		pos = h
		out = append(out, step{hex: h, left: mp})
		if !sm && g.ezoc(side, h) {
			return out, "ezoc"
		}
	}
	return out, ""
}

// trimStack drops the last hexes of a move that end on another friendly
// unit: only one unit may be in a hex at the end of a move (3.6).
func (g *game) trimStack(u *Unit, steps []step) ([]step, bool) {
	trimmed := false
	for len(steps) > 0 {
		last := steps[len(steps)-1].hex
		if !slices.ContainsFunc(g.occ[last], func(o *Unit) bool { return o != u }) {
			break
		}
		steps = steps[:len(steps)-1]
		trimmed = true
	}
	return steps, trimmed
}

// enter puts u into h: control of a city changes, with its VP (11.1), and
// a Russian/Serbian unit entering Trieste brings the Italians (5.1.2).
func (g *game) enter(u *Unit, h board.ID) {
	if g.trail == nil {
		g.trail = map[string][]string{}
	}
	g.trail[u.ID] = append(g.trail[u.ID], g.hex(h))
	g.place(u, h)
	g.capture(u, h)
}

// capture changes control of a city a unit occupies (11.1): +/-1 VP, +/-2
// for a capital, at the moment a unit occupies an enemy-controlled city.
func (g *game) capture(u *Unit, h board.ID) {
	side := u.side()
	if g.city(h) && g.controller(h) != side {
		g.Control[g.hex(h)] = side
		vp := 1
		if g.capital(h) {
			vp = 2
		}
		kind := map[bool]string{true: "capital", false: "city"}[vp == 2]
		g.gain(side, vp, "11.1", fmt.Sprintf("%s occupies the %s %s", u.ID, kind, g.placeName(h)))
	}
	if side == RS && g.hex(h) == trieste && !slices.Contains(g.Contributed, "Italian") {
		g.italians(u)
	}
}

// gain moves the VP marker for side: NATO gains raise the VP, Russian/
// Serbian gains lower them (11.0).
func (g *game) gain(side faction, n int, rule, why string) {
	if n == 0 {
		return
	}
	if side == NATO {
		g.VP += n
	} else {
		g.VP -= n
	}
	g.ev(rule, "%s: %s %+d VP, now %d.", why, side, n, g.VP)
}

// airmobileBar says why an airmobile unit may not land in h ("" if it
// may, as far as the map goes): Serbian units may not fly into Slovenia
// (the text's "Slovakia") or Italy (3.3.1).
func (g *game) airmobileBar(u *Unit, h board.ID) string {
	if !g.sc.Land(h) {
		return fmt.Sprintf("%s is sea or off the theatre", g.hex(h))
	}
	if u.c.Nationality == "Serbian" && (g.sc.Map.Area[h] == slovenia || g.sc.Map.Area[h] == Italy) {
		return fmt.Sprintf("Serbian units may not use airmobile movement into %s (3.3.1)", g.sc.Map.Area[h])
	}
	return ""
}

// overstacked lists a side's hexes with more than one of its units and at
// least one of them fresh that can move out (3.6): the obligation to move
// one out first lapses when none can (rulings).
func (g *game) overstacked(side faction) []board.ID {
	var out []board.ID
	for h, us := range g.occ {
		n, free := 0, false
		for _, u := range us {
			if u.side() == side {
				n++
				free = free || !u.Static && g.canLeave(u) != nil
			}
		}
		if n > 1 && free {
			out = append(out, h)
		}
	}
	board.SortIDs(out)
	return out
}

// canLeave is a hex next to u it can move into and end in (land, no unit,
// affordable), nil if there is none.
func (g *game) canLeave(u *Unit) *board.ID {
	for _, nb := range g.grid.Neighbours(u.pos) {
		if c := g.cost(u.c.GroundType(), u.pos, nb); c >= 0 && c <= u.c.MA*2 && len(g.occ[nb]) == 0 {
			return &nb
		}
	}
	return nil
}

// hasFresh reports whether a side has a fresh unit on the map.
func (g *game) hasFresh(side faction) bool {
	for _, u := range g.Units {
		if u.side() == side && u.fresh() {
			return true
		}
	}
	return false
}

// moveArrow records, for the map, u's move from the hex from to the hex it
// stands on, along the hexes it entered on the way (a move cut back by
// stacking ends on one it passed).
func (g *game) moveArrow(u *Unit, from string) {
	path := append([]string{from}, g.trail[u.ID]...)
	delete(g.trail, u.ID)
	a := arrow{From: from, To: u.Hex, Kind: "move"}
	start := 0
	for i, h := range path {
		if h == from {
			start = i
		}
	}
	path = path[start:]
	end := -1
	for i, h := range path {
		if h == u.Hex {
			end = i
		}
	}
	if end > 1 {
		path = path[:end+1]
		ok := true
		for i := 0; i+1 < len(path) && ok; i++ {
			p, err1 := g.grid.Parse(path[i])
			q, err2 := g.grid.Parse(path[i+1])
			ok = err1 == nil && err2 == nil && g.grid.Adjacent(p, q)
		}
		if ok {
			a.Path = path
		}
	}
	g.Arrows = append(g.Arrows, a)
}
