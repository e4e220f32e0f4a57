package bu

// Strategic Will and Foreign Attitude bookkeeping (2.1, 2.2), eliminations
// (13.4.7), capture of spaces and regions (13.5), UN Safe Areas (2.5.2,
// 13.5.6), and the moments the game ends (3.1.1, 2.2.4, 14.4).

import (
	"fmt"
	"slices"
	"strings"
)

// changeSW moves a side's Strategic Will.
func (g *game) changeSW(side Side, delta int, rule, why string) {
	if delta == 0 || g.Over {
		return
	}
	g.Sides[side].SW += delta
	g.ev(rule, "%s %+d SW (%s): now %d.", side, delta, why, g.Sides[side].SW)
}

// changeFA moves a side's Foreign Attitude; by is the seat whose action
// moved it (for the strike of 7.3.2).
func (g *game) changeFA(side Side, delta int, rule, why, by string) {
	if delta == 0 || g.Over {
		return
	}
	st := g.Sides[side]
	st.FA += delta
	g.ev(rule, "%s %+d FA (%s): now %d.", side, delta, why, st.FA)
	level := g.level(side)
	if level != st.Level {
		old := st.Level
		st.Level = level
		g.ev("2.2.3", "%s is at Intervention Level %d (%s).", side, level, levelName(level))
		if level >= 2 && old < 2 && level < 3 {
			g.strikeAtOnce(side, by)
		}
	}
}

func levelName(level int) string {
	return []string{"no intervention", "Sanctions: Limited Fuel", "Air Strikes", "Military Intervention: game over"}[level]
}

// strikeAtOnce is the NATO Air Strike the moment a side reaches
// Intervention Level 2 (7.3.2): by the enemy whose card play brought it
// there, or by the player following it in the order of play when its own
// action did (ruling: "the player to his right" is the following player,
// the one who strikes in 7.3.1).
func (g *game) strikeAtOnce(side Side, by string) {
	striker := by
	if striker == "" || striker == g.seatOf(side) {
		striker = g.following(g.seatOf(side))
	}
	g.ev("7.3.2", "%s reached Intervention Level 2: %s performs a NATO Air Strike at once.", side, seatName(striker))
	g.airStrike(striker, side, "7.3.2")
}

// following is the seat after seat in the order of play, going round.
func (g *game) following(seat string) string {
	o := g.order()
	i := slices.Index(o, seat)
	return o[(i+1)%len(o)]
}

// eliminate takes a unit off the map: to the Eliminated Units box (a
// foreign unit to its Foreign Units box, eliminated), or out of the game
// when permanent. Its side loses 1 SW; by, when given, gains 1 (13.4.7).
func (g *game) eliminate(u *unit, by Side, permanent bool) {
	from := u.Space
	u.Box, u.Space, u.Supply, u.Reduced = eliminated, "", "", false
	if permanent {
		u.Box = removed
	}
	if g.Round != nil && g.Round.Retreated != nil {
		delete(g.Round.Retreated, u.ID)
	}
	where := g.name(from)
	g.changeSW(u.Side(), -1, "13.4.7", fmt.Sprintf("%s lost at %s", u.ID, where))
	if by != "" {
		g.changeSW(by, 1, "13.4.7", fmt.Sprintf("%s eliminated at %s", u.ID, where))
	}
}

// capture gives space id to side (13.5): the control marker, the
// entrenchment destroyed (13.3.7), a UN Safe Area's marker removed
// (13.5.6); a Key Space's SW and FA (13.5.3); then the region check
// (13.5.4). fa is the FA a Key Space costs the capturing unit (1; NOZB 0).
func (g *game) capture(id string, side Side, fa int, by string) {
	sp := g.space(id)
	if sp == nil || sp.Foreign() {
		return
	}
	prev := g.Control[id]
	if prev == side {
		return
	}
	g.Control[id] = side
	if g.Round != nil && !slices.Contains(g.Round.Captured, id) {
		g.Round.Captured = append(g.Round.Captured, id)
	}
	if g.dry {
		delete(g.Trench, id)
		g.reopenSupply(side) // its units may not operate this round (7.2.5): known at receipt
		return
	}
	g.ev("13.5.2", "%s captures %s from %s.", side, sp.Name, prev)
	if t := g.Trench[id]; t != "" {
		delete(g.Trench, id)
		g.ev("13.3.7", "The entrenchment at %s is destroyed.", sp.Name)
	}
	un := g.isUN(id)
	if un {
		g.UN = slices.DeleteFunc(g.UN, func(s string) bool { return s == id })
		g.ev("13.5.6", "%s is no longer a UN Safe Area.", sp.Name)
	}
	if sp.Key {
		g.changeSW(side, 3, "13.5.3", "Key Space "+sp.Name+" captured")
		g.changeSW(prev, -3, "13.5.3", "Key Space "+sp.Name+" lost")
	}
	switch {
	case un:
		g.changeFA(side, -3, "13.5.6", "UN Safe Area "+sp.Name+" captured", by)
	case sp.Key:
		g.changeFA(side, -fa, "13.5.3", "refugees from "+sp.Name, by)
	}
	g.checkRegion(sp.Region, side)
	g.reopenSupply(side)
	g.checkVictory()
}

// checkRegion gives a region to side when it controls at least its Control
// Value of spaces and all its Key Spaces (13.5.4; ruling: "equal to" read
// as at least). A region is lost only to another's capture (13.5.5). In
// the 2-player game the allies' spaces count together and the
// Bosniak-Croat player chooses the side (14.6.5).
func (g *game) checkRegion(regionID string, side Side) {
	reg := g.sc.Map.RegionByID(regionID)
	if reg == nil || g.Regions[reg.ID] == side {
		return
	}
	count := func(ok func(Side) bool) (n int, keys bool) {
		keys = true
		for _, i := range reg.Spaces {
			if ok(g.Control[g.sc.Map.Spaces[i].ID]) {
				n++
			}
		}
		for _, i := range reg.Keys {
			if !ok(g.Control[g.sc.Map.Spaces[i].ID]) {
				keys = false
			}
		}
		return
	}
	n, keys := count(func(s Side) bool { return s == side })
	winner := side
	if n < reg.ControlValue || !keys {
		if !g.TwoPlayer() || side == serb {
			return
		}
		// 14.6.5: the allies' spaces together
		n, keys = count(func(s Side) bool { return s != serb })
		if n < reg.ControlValue || !keys || g.Regions[reg.ID] == bosniak || g.Regions[reg.ID] == croat {
			return
		}
		winner = g.tieSide(fmt.Sprintf("region %s, captured by the allies' spaces together (14.6.5)", reg.Name))
	}
	if g.TwoPlayer() && winner != serb && g.Regions[reg.ID] != serb && g.Regions[reg.ID] != "" {
		return // an ally's region is not taken from the ally (14.5.5)
	}
	prev := g.Regions[reg.ID]
	g.Regions[reg.ID] = winner
	g.ev("13.5.4", "%s gains control of the region %s (%d of %d spaces needed, every Key Space).", winner, reg.Name, reg.ControlValue, len(reg.Spaces))
	g.changeSW(winner, reg.Points, "13.5.4", "region "+reg.Name)
	if prev != "" {
		g.changeSW(prev, -reg.Points, "13.5.4", "region "+reg.Name+" lost")
	}
}

// tieSide is the side the Bosniak-Croat player gives a reward or a capture
// when the rules let him choose (14.6.3-14.6.5): his standing ties order,
// else the side with the fewer SW, Bosniak on a tie (the umpire's choice;
// the decision step for ties is asked only when his orders say ask).
func (g *game) tieSide(what string) Side {
	pref := g.Standing[seatBC]["ties"]
	side := bosniak
	switch {
	case len(pref) > 0 && pref[0] == "croat":
		side = croat
	case len(pref) > 0 && pref[0] == "bosniak":
	default:
		if g.Sides[croat].SW < g.Sides[bosniak].SW {
			side = croat
		}
	}
	g.ev("14.6", "The Bosniak-Croat player's choice (%s): %s.", what, side)
	return side
}

// checkVictory ends the game when a side wins at once (3.1.1: its Victory
// Condition on the SW track and every Key Region of its side), reaches
// Intervention Level 3 (2.2.4) or surrenders (3.1.1: SW 0 or FA -7).
func (g *game) checkVictory() {
	if g.Over {
		return
	}
	for _, side := range sides {
		st := g.Sides[side]
		switch {
		case g.level(side) >= 3:
			g.endGame(fmt.Sprintf("%s reached Intervention Level 3: NATO intervenes and %s has lost (2.2.4)", side, side), side)
			return
		case st.SW <= 0:
			g.endGame(fmt.Sprintf("%s's Strategic Will fell to %d: %s surrenders (3.1.1)", side, st.SW, side), side)
			return
		case st.FA <= -7:
			g.endGame(fmt.Sprintf("%s's Foreign Attitude fell to %d: %s surrenders (3.1.1)", side, st.FA, side), side)
			return
		}
	}
	for _, side := range sides {
		if g.Sides[side].SW >= victoryCondition(side) && g.keyRegionsMissing(side) == 0 && g.ownKeyRegions(side) {
			winner := g.seatOf(side)
			g.finish([]string{winner}, fmt.Sprintf("%s reached its Victory Condition of %d SW and controls all its Key Regions (3.1.1, 3.1.2)", side, victoryCondition(side)))
			return
		}
	}
}

// ownKeyRegions reports whether side has Key Regions at all.
func (g *game) ownKeyRegions(side Side) bool {
	for _, r := range g.sc.Map.Regions {
		if slices.Contains(r.KeyFor, side) {
			return true
		}
	}
	return false
}

// keyRegionsMissing is the Region Points of side's Key Regions it does not
// control (3.1.4); in the 2-player game an ally's control counts (14.4.1).
func (g *game) keyRegionsMissing(side Side) int {
	n := 0
	for _, r := range g.sc.Map.Regions {
		if !slices.Contains(r.KeyFor, side) {
			continue
		}
		owner := g.Regions[r.ID]
		if owner == side || g.TwoPlayer() && side != serb && owner != "" && owner != serb {
			continue
		}
		n += r.Points
	}
	return n
}

// score is a side's Victory Score (3.1.4).
func (g *game) score(side Side) int {
	return victoryScore(side, g.Sides[side].SW, g.keyRegionsMissing(side), g.level(side))
}

// endGame ends the game because loser is out (2.2.4, 3.1.1, 14.4.2): the
// other players' Victory Scores decide.
func (g *game) endGame(reason string, loser Side) {
	g.Sides[loser].Out = reason
	loserSeat := g.seatOf(loser)
	var seats []string
	for _, s := range g.Seats {
		if s != loserSeat {
			seats = append(seats, s)
		}
	}
	g.finish(g.bestScore(seats), reason)
}

// bestScore is the seats with the highest Victory Score (3.1.4); the
// Bosniak-Croat player scores the better of his two sides (14.4.1). Seats
// with the same highest score share the victory (ruling: the rules name no
// tie-breaker).
func (g *game) bestScore(seats []string) []string {
	best, out := 0, []string(nil)
	for i, seat := range seats {
		s := -1 << 30
		for _, side := range g.seatSides(seat) {
			s = max(s, g.score(side))
		}
		switch {
		case i == 0 || s > best:
			best, out = s, []string{seat}
		case s == best:
			out = append(out, seat)
		}
	}
	return out
}

// finish records the end of the game.
func (g *game) finish(winners []string, reason string) {
	g.Over, g.Winners, g.Reason, g.Phase = true, winners, reason, phaseOver
	g.Round, g.Pending, g.Active = nil, nil, ""
	g.Scores = map[Side]int{}
	var parts []string
	for _, side := range sides {
		g.Scores[side] = g.score(side)
		parts = append(parts, fmt.Sprintf("%s %d (IF %d + SW %d - %d uncontrolled Key Region points - 5 x level %d)",
			side, g.Scores[side], initialFactor(side), g.Sides[side].SW, g.keyRegionsMissing(side), g.level(side)))
	}
	g.ev("3.1", "The game is over: %s.", reason)
	g.ev("3.1.4", "Victory Scores: %s.", strings.Join(parts, "; "))
	names := make([]string, len(winners))
	for i, w := range winners {
		names[i] = seatName(w)
	}
	if len(winners) == 1 {
		g.ev("3.1.1", "%s wins.", names[0])
	} else {
		g.ev("3.1.1", "%s share the victory with equal scores (ruling).", strings.Join(names, " and "))
	}
}
