package pcs1995

// This file holds the sequence of play (4.0): the set-up (12.0), the
// Reinforcement & Recovery Phase (5.0-5.3), initiative (3.2), the Cleanup
// Phase (10.0) and victory (11.0).

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// gameTurns is the game's length: 8 monthly turns (2.0).
const gameTurns = 8

// startVP is the VP marker at the start (11.0).
const startVP = 7

// setupBar says why a unit may not set up in a hex ("" if it may) (12.0).
func (g *game) setupBar(c *counter, h board.ID) string {
	area := g.sc.Map.Area[h]
	nearCity := func(pred func(board.ID) bool) bool {
		for _, id := range append(g.grid.Neighbours(h), h) {
			if g.city(id) && pred(id) {
				return true
			}
		}
		return false
	}
	switch {
	case !g.sc.Land(h):
		return "it is not a land hex of a country"
	case c.Nationality == "Russian":
		p, v := g.sc.named["Pristina"], g.sc.named["Vranje"]
		if h == p || h == v || g.grid.Adjacent(h, p) || g.grid.Adjacent(h, v) {
			return ""
		}
		return "Russian units set up in or next to Pristina or Vranje"
	case c.Side == RS:
		switch {
		case area != serbia && area != montenegro && !(area == bosnia && g.sc.srpska[h] > 0):
			return "Russian/Serbian units set up inside Serbia, Montenegro and the Srpska territories of Bosnia"
		case !nearCity(func(board.ID) bool { return true }):
			return "Russian/Serbian units set up in or next to a city hex"
		}
		return ""
	case c.Balkan():
		home := map[string]string{"Croatian": croatia, "Slovenian": slovenia, "Bosnian": bosnia}[c.Nationality]
		if area != home || g.sc.homeSide(h) != NATO {
			return c.Nationality + " units set up in their home country"
		}
		return ""
	}
	if area == Italy {
		return ""
	}
	if nearCity(func(id board.ID) bool {
		a := g.sc.Map.Area[id]
		return (a == slovenia || a == croatia || a == bosnia) && g.sc.coast[id] && g.sc.initial[id] == NATO
	}) {
		return ""
	}
	return "NATO units set up in Italy, or in or next to an allied coastal city"
}

func (g *game) setupHint(c *counter) string {
	switch {
	case c.Nationality == "Russian":
		return "Russian units set up in or next to Pristina or Vranje (12.0)"
	case c.Side == RS:
		return "Russian/Serbian units set up in Serbia, Montenegro or a Srpska territory (at most 2 Serbian units each), in or next to a city (12.0)"
	case c.Balkan():
		return "Balkan allies set up anywhere in their home country (12.0)"
	}
	return "NATO units set up in Italy, or in or next to an allied coastal city (12.0)"
}

// setup places both sides' units (12.0): each unit in its set-up hex or
// the hex its place order names, one unit a hex, at most two Serbian units
// in each Srpska territory. A place order that breaks that is refused, the
// latest order first.
func (g *game) setup(orders map[string][]string) {
	want, home := map[*Unit]board.ID{}, map[*Unit]board.ID{}
	for _, u := range g.Units {
		if u.onMap() {
			want[u], home[u] = u.pos, u.pos
		}
	}
	moved := map[*Unit]int{}
	n := 0
	for _, seat := range []string{seatNATO, seatRS} {
		for _, l := range orders[seat] {
			f := strings.Fields(l)
			if len(f) == 3 && f[0] == "place" {
				u := g.byID[f[1]]
				id, err := g.grid.Parse(f[2])
				if u == nil || err != nil || u.side() != sideOf(seat) || !u.onMap() || g.setupBar(u.c, id) != "" {
					continue
				}
				n++
				want[u], moved[u] = id, n
			}
		}
	}
	for changed := true; changed; {
		changed = false
		byHex := map[board.ID][]*Unit{}
		srpska := map[int][]*Unit{}
		for u, h := range want {
			byHex[h] = append(byHex[h], u)
			if t := g.sc.srpska[h]; t > 0 && u.c.Nationality == "Serbian" {
				srpska[t] = append(srpska[t], u)
			}
		}
		revert := func(us []*Unit, why string) {
			slices.SortFunc(us, func(a, b *Unit) int { return moved[b] - moved[a] })
			if u := us[0]; moved[u] > 0 {
				g.ev("12.0", "%s may not set up in %s (%s): it sets up in %s.", u.ID, g.hex(want[u]), why, g.hex(home[u]))
				want[u], moved[u], changed = home[u], 0, true
			}
		}
		hexes := slices.Collect(maps.Keys(byHex))
		board.SortIDs(hexes)
		for _, h := range hexes {
			if us := byHex[h]; len(us) > 1 {
				revert(us, "only one unit may be in a hex, 3.6")
			}
		}
		for _, t := range []int{1, 2} {
			if us := srpska[t]; len(us) > 2 {
				revert(us, "at most two Serbian units in each Srpska territory")
			}
		}
	}
	for u, h := range want {
		u.pos, u.Hex = h, g.hex(h)
	}
	g.reindex()
	for _, side := range []faction{RS, NATO} {
		var where []string
		for _, u := range g.Units {
			if u.side() == side && u.onMap() {
				where = append(where, u.ID+" "+u.Hex)
			}
		}
		g.ev("12.0", "%s sets up: %s.", side, strings.Join(where, ", "))
	}
}

// beginTurn is the start of game turn t: the Reinforcement & Recovery
// Phase's rolls (5.1-5.3) and the initiative (3.2). Placement follows in
// the turn's step, with the seats' orders.
func (g *game) beginTurn(t int) {
	g.Turn = t
	g.Phase, g.Stage = phaseTurn, stagePlacement
	g.Queue, g.Script, g.Missions = map[string][]string{}, map[string][]string{}, map[string][]string{}
	g.Passed, g.Deesc, g.Held, g.Count = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]int{}
	g.Plan, g.AirNext, g.Current = nil, "", ""
	g.ev("4.0", "Game turn %d of %d begins: Reinforcement & Recovery Phase.", t, gameTurns)
	// 5.1 NATO reinforcements
	nat, named, rolled := rollNATOReinforcement(g.r, g.Contributed, fmt.Sprintf("turn %d", t))
	switch {
	case !rolled:
		g.ev("5.1", "Every NATO contingent has arrived: no NATO reinforcement roll.")
	case nat == "":
		g.ev("5.1.1", "The NATO reinforcement roll names the %s, who have already contributed: no NATO reinforcements this turn.", named)
	default:
		g.contingent(nat, "5.1.1", fmt.Sprintf("The NATO reinforcement roll brings the %s", nat))
	}
	// 5.2 Russian/Serbian reinforcements
	switch arrive, rolled := rollRSReinforcements(g.r, t, g.ThreeVO, fmt.Sprintf("turn %d", t)); {
	case g.ThreeVO:
	case !rolled:
		g.ev("5.2", "Russia/Serbia rolls for reinforcements from the second turn on.")
	case arrive:
		g.ThreeVO = true
		var ids []string
		for _, u := range g.Units {
			if u.c.Reinforcement == "3VO" && u.Status == pool {
				u.Status = arriving
				ids = append(ids, u.ID)
			}
		}
		g.ev("5.2", "The Russian/Serbian reinforcement roll is under the turn number %d: the 3 VO arrives (%s).", t, strings.Join(ids, ", "))
	default:
		g.ev("5.2", "The Russian/Serbian reinforcement roll is not under the turn number %d: no reinforcements.", t)
	}
	// 5.3 recovery
	for _, side := range []faction{NATO, RS} {
		for _, u := range g.Units {
			if u.side() != side || u.Status != routed {
				continue
			}
			row := natoRow
			if u.c.Nationality == "Serbian" {
				row = serbianRow
			}
			res, any8, vp := rollRecovery(g.r, row, fmt.Sprintf("%s %s", side, u.ID))
			switch res {
			case recovered:
				u.Status, u.Anywhere = arriving, any8
				if any8 {
					g.ev("5.3", "%s recovers on an 8: it re-enters like a reinforcement, or in any Serbian city without a NATO unit.", u.ID)
				} else {
					g.ev("5.3", "%s recovers (%d or more): it re-enters like a reinforcement.", u.ID, recoveryNumber(row))
				}
			case surrendered:
				u.Status = statusSurrendered
				g.gain(other(side), max(vp, -vp), "5.3, 11.1", fmt.Sprintf("%s rolls a 1 and surrenders", u.ID))
			default:
				g.ev("5.3", "%s stays routed.", u.ID)
			}
		}
	}
	// 3.2 initiative
	ini, rolled := rollInitiative(g.r, t)
	g.Initiative = ini
	if rolled {
		g.ev("3.2", "Initiative: %s (the higher d8; Russia/Serbia wins ties).", ini)
	} else {
		g.ev("3.2", "NATO has the initiative on the first turn.")
	}
}

// contingent brings a NATO contingent's units and air units (5.1).
func (g *game) contingent(nat, rule, why string) {
	g.Contributed = append(g.Contributed, nat)
	slices.Sort(g.Contributed)
	var ids []string
	for _, u := range g.Units {
		if u.c.Reinforcement == nat && u.Status == pool {
			u.Status = arriving
			ids = append(ids, u.ID)
		}
	}
	var air []string
	for _, a := range g.Air {
		if a.c.Reinforcement == nat && a.Box == boxPool {
			a.Box = boxSpent
			air = append(air, a.ID)
		}
	}
	note := ""
	if len(air) > 0 {
		note = "; air units " + strings.Join(air, ", ") + " join at the next Air Commitment Phase"
	}
	g.ev(rule, "%s: %s%s.", why, strings.Join(ids, ", "), note)
}

// italians deploys the Italians at once when a Russian/Serbian unit moves
// into Trieste before they have arrived (5.1.2): in unoccupied hexes of
// Italy, those NATO's italians order lists first, then the westernmost.
func (g *game) italians(by *Unit) {
	g.contingent("Italian", "5.1.2", fmt.Sprintf("%s moves into Trieste before the Italians have been deployed: they are placed at once in Italy", by.ID))
	v := g.decide(question{seat: seatNATO, kind: "italians", key: "italians", def: "", auto: true})
	var prefer []board.ID
	for _, h := range strings.Fields(v) {
		if id, err := g.grid.Parse(h); err == nil {
			prefer = append(prefer, id)
		}
	}
	var italy []board.ID
	for _, id := range g.grid.All() {
		if g.sc.Map.Area[id] == Italy && g.sc.Land(id) {
			italy = append(italy, id)
		}
	}
	board.SortIDs(italy)
	cands := append(prefer, italy...)
	var where []string
	for _, u := range g.Units {
		if u.c.Reinforcement != "Italian" || u.Status != arriving {
			continue
		}
		for _, h := range cands {
			if g.sc.Map.Area[h] == Italy && len(g.occ[h]) == 0 {
				u.Status = onMap
				g.place(u, h)
				where = append(where, u.ID+" "+u.Hex)
				break
			}
		}
	}
	g.ev("5.1.2", "The Italians are placed: %s.", strings.Join(where, ", "))
}

// entryHexesOf lists the eligible entry hexes of a unit now (5.0):
// controlled by its side, possibly in an enemy zone of control.
func (g *game) entryHexesOf(u *Unit) []board.ID {
	var out []board.ID
	add := func(id board.ID) {
		if g.controller(id) == u.side() && !g.enemyAt(u.side(), id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, h := range entryHexes[u.c.EntryGroup()] {
		add(mustParse(g, h))
	}
	if u.c.Nationality == "Serbian" {
		for _, id := range g.sc.cities {
			if g.sc.Map.Area[id] == serbia {
				add(id)
			}
		}
	}
	return out
}

// sideEntryHexes lists every hex a unit of side may ever enter at (5.0,
// 5.3): the entry hexes of its nationalities, and every city in Serbia for
// Russia/Serbia (the Serbian entry hexes and a recovery on an 8), whoever
// controls them now.
func (g *game) sideEntryHexes(side faction) []board.ID {
	var out []board.ID
	add := func(id board.ID) {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	groups := []string{"NATO", "Croatian", "Slovenian"}
	if side == RS {
		groups = []string{"Russian", "Serbian"}
		for _, id := range g.sc.cities {
			if g.sc.Map.Area[id] == serbia {
				add(id)
			}
		}
	}
	for _, grp := range groups {
		for _, h := range entryHexes[grp] {
			add(mustParse(g, h))
		}
	}
	board.SortIDs(out)
	return out
}

// mayEnter reports whether a unit of side may ever enter the map at h: in
// or next to one of its entry hexes (5.0).
func (g *game) mayEnter(side faction, h board.ID) bool {
	for _, e := range g.sideEntryHexes(side) {
		if e == h || g.grid.Adjacent(e, h) {
			return true
		}
	}
	return false
}

// entryHexList names a side's entry hexes for a hint.
func (g *game) entryHexList(side faction) []string {
	var out []string
	for _, id := range g.sideEntryHexes(side) {
		out = append(out, g.placeName(id))
	}
	return out
}

func (g *game) entryList(u *Unit) []string {
	var out []string
	for _, id := range g.entryHexesOf(u) {
		out = append(out, g.placeName(id))
	}
	if u.Anywhere {
		out = append(out, "any Serbian city without a NATO unit")
	}
	if len(out) == 0 {
		return []string{"none now"}
	}
	return out
}

// entryBar says why an arriving unit may not enter in h ("" if it may)
// (5.0): in an eligible entry hex (overstacking allowed), or next to one in
// an empty hex; a Serbian unit that recovered on an 8 also in any Serbian
// city without a NATO unit (5.3).
func (g *game) entryBar(u *Unit, h board.ID, _ []board.ID) string {
	if !g.sc.Land(h) {
		return "it is not a land hex of a country"
	}
	if g.enemyAt(u.side(), h) {
		return "an enemy unit is there"
	}
	if u.Anywhere && g.city(h) && g.sc.Map.Area[h] == serbia {
		return ""
	}
	entries := g.entryHexesOf(u)
	if slices.Contains(entries, h) {
		return ""
	}
	for _, e := range entries {
		if g.grid.Adjacent(e, h) {
			if len(g.occ[h]) > 0 {
				return "only the entry hex itself may be overstacked"
			}
			return ""
		}
	}
	return "it is not in or next to an eligible entry hex"
}

// placement is Phase I's placement (5.0): each arriving unit enters where
// its place order says, else at the first hex of its side's entry order
// that is eligible, else in its first eligible entry hex. A unit with no
// eligible entry hex waits for the next turn.
func (g *game) placement(orders map[string][]string) {
	for _, side := range []faction{NATO, RS} {
		seat := seatOf(side)
		placeAt := map[string]board.ID{}
		for _, l := range orders[seat] {
			f := strings.Fields(l)
			if len(f) == 3 && f[0] == "place" {
				if id, err := g.grid.Parse(f[2]); err == nil {
					placeAt[f[1]] = id
				}
			}
		}
		var prefer []board.ID
		for _, h := range strings.Fields(g.Standing[seat]["entry"]) {
			if id, err := g.grid.Parse(h); err == nil {
				prefer = append(prefer, id)
			}
		}
		for _, u := range g.Units {
			if u.side() != side || u.Status != arriving {
				continue
			}
			how := "its place order"
			at, ok := placeAt[u.ID]
			if ok && g.entryBar(u, at, nil) != "" {
				g.ev("5.0", "%s may not enter at %s (%s).", u.ID, g.hex(at), g.entryBar(u, at, nil))
				ok = false
			}
			if !ok {
				how = "the entry order"
				for _, h := range prefer {
					if g.entryBar(u, h, nil) == "" {
						at, ok = h, true
						break
					}
				}
			}
			if !ok {
				how = "the first eligible entry hex"
				if es := g.entryHexesOf(u); len(es) > 0 {
					at, ok = es[0], true
				}
			}
			if !ok {
				g.ev("5.0", "%s has no eligible entry hex (every one is enemy-controlled or held): it waits.", u.ID)
				continue
			}
			u.Status, u.Static, u.Anywhere = onMap, false, false
			g.enter(u, at)
			g.ev("5.0", "%s enters at %s (%s).", u.ID, g.placeName(at), how)
		}
	}
	for _, side := range []faction{NATO, RS} {
		if over := g.overstacked(side); len(over) > 0 {
			g.ev("3.6", "%s is overstacked at %s: a unit there must be activated and moved before any other (3.6, 7.0).", side, hexList(g, over))
		}
	}
}

// endTurn closes the Action Phase and the turn: every unit fresh again
// (4.0 IV.iii), LOC attrition and the chits back into the cup (10.0), the
// victory check (11.0), then the next turn.
func (g *game) endTurn() {
	for _, u := range g.Units {
		u.Static = false
	}
	g.ev("4.0", "The Action Phase ends: every unit is fresh again.")
	for _, side := range []faction{NATO, RS} {
		net := g.network(side)
		for _, u := range slices.Clone(g.Units) {
			if !u.onMap() || u.side() != side || u.c.Nationality == "Serbian" {
				continue
			}
			if !g.hasLOC(u, net) {
				g.rout(u, "10.0", "it traces no LOC in the Cleanup Phase")
			}
		}
	}
	g.Cup = append(g.Cup, g.Drawn...)
	g.Drawn = nil
	slices.Sort(g.Cup)
	for _, u := range g.Units {
		u.Chits = nil
	}
	g.ev("10.0", "Cleanup: every combat chit goes back into the cup (%d chits).", len(g.Cup))
	g.Queue, g.Script = map[string][]string{}, map[string][]string{}
	if g.victory() {
		return
	}
	g.beginTurn(g.Turn + 1)
}

// victory checks the automatic victories at the end of a turn and, after
// the last turn, the VP chart (11.0). It reports whether the game ended.
func (g *game) victory() bool {
	natoIn, rsIn := false, false
	for _, u := range g.Units {
		if !u.onMap() {
			continue
		}
		if u.side() == NATO && u.Hex == beograd {
			natoIn = true
		}
		if u.side() == RS && u.Hex == trieste {
			rsIn = true
		}
	}
	var nato, rs []string
	if g.VP >= 20 {
		nato = append(nato, fmt.Sprintf("the VP reach %d", g.VP))
	}
	if natoIn {
		nato = append(nato, "a NATO unit is in Belgrade")
	}
	if g.VP <= 0 {
		rs = append(rs, fmt.Sprintf("the VP fall to %d", g.VP))
	}
	if rsIn {
		rs = append(rs, "a Russian/Serbian unit is in Trieste")
	}
	switch {
	case len(nato) > 0 && len(rs) > 0:
		g.end("draw", fmt.Sprintf("both sides reach an automatic victory at the end of turn %d (%s; %s): a draw, which the rules do not cover", g.Turn, strings.Join(nato, ", "), strings.Join(rs, ", ")))
	case len(nato) > 0:
		g.end(seatNATO, fmt.Sprintf("automatic Major Victory at the end of turn %d: %s", g.Turn, strings.Join(nato, ", ")))
	case len(rs) > 0:
		g.end(seatRS, fmt.Sprintf("automatic Major Victory at the end of turn %d: %s", g.Turn, strings.Join(rs, ", ")))
	case g.Turn >= gameTurns:
		level, winner := victoryLevel(g.VP)
		g.end(winner, fmt.Sprintf("the game ends after turn %d at %d VP: %s", g.Turn, g.VP, level))
	default:
		g.ev("11.0", "No automatic victory at the end of turn %d (VP %d).", g.Turn, g.VP)
		return false
	}
	return true
}

// victoryLevel reads the 11.0 chart at the end of the game.
func victoryLevel(vp int) (string, string) {
	switch {
	case vp <= 0:
		return "Major Russian/Serbian Victory", seatRS
	case vp <= 4:
		return "Substantial Serbian Victory", seatRS
	case vp <= 10:
		return "Minor Serbian Victory", seatRS
	case vp <= 15:
		return "Minor NATO Victory", seatNATO
	case vp <= 19:
		return "Substantial NATO Victory", seatNATO
	}
	return "Major NATO Victory", seatNATO
}

func (g *game) end(winner, reason string) {
	g.Over, g.Winner, g.Reason, g.Phase, g.Stage, g.Pending = true, winner, reason, phaseOver, "", nil
	g.ev("11.0", "The game ends: %s. Winner: %s.", reason, winner)
}
