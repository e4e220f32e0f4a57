package perrote

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// This file moves units (Movement): paths of adjacent hexes, vehicles'
// facing, stacking, morale's limits on moving toward the enemy, embarking
// and disembarking, and charges into close combat (Hand to Hand).

// blockedFor says why unit u may not end (or, with passing, pass) in hex
// h, or "": impassable terrain, the enemy (troops may enter enemy troops'
// hex only by a charge), another vehicle (vehicles may not stack), the
// stacking limit (troops: common sense, the scenario's limit of models).
func (t *turn) blockedFor(u *unitState, h board.ID, passing bool) string {
	if !t.f.passable(h) {
		return "impassable terrain"
	}
	hs := t.f.format(h)
	models := 0
	for _, o := range t.unitsAt(hs) {
		if o == u {
			continue
		}
		if o.Side != u.Side {
			return "the enemy (" + o.ID + ") is there"
		}
		if o.IsVehicle() && u.IsVehicle() && !passing {
			return "vehicles may not stack (" + o.ID + ")"
		}
		if o.Kind == kindTroops {
			models += len(o.Models)
		}
	}
	if u.Kind == kindTroops && !passing && models+len(u.Models) > t.s.StackLimit {
		return fmt.Sprintf("no room: the hex would hold more than %d men", t.s.StackLimit)
	}
	return ""
}

// moveUnit carries out the unit's movement order, if any.
func (t *turn) moveUnit(u *unitState) {
	uo := t.orders[u.ID]
	var o *order
	if uo != nil {
		o = uo.move
	}
	if u.Kind != kindVehicle && u.Hex != "" && t.morale(u) == fallingBack {
		t.fallBack(u, o)
		return
	}
	if o == nil {
		return
	}
	switch o.Verb {
	case "move", "charge":
		t.walk(u, o)
	case "face":
		d, _ := parseDirection(t.f.g, o.Face)
		u.Facing = d
		t.event(ruleVehicles, "%s turns to face %s.", u.ID, o.Face)
	case "embark":
		t.embark(u, o)
	case "disembark":
		t.disembark(u, o)
	}
}

// walk moves a unit along its path as far as it can go (Movement); a
// charge that ends in the enemy's hex starts close combat (Hand to Hand).
func (t *turn) walk(u *unitState, o *order) {
	from, ok := t.f.parse(u.Hex)
	if !ok {
		return
	}
	rule := ruleMovement
	if o.Verb == "charge" {
		rule = ruleHandToHand
	}
	if u.Motive == "crippled" {
		t.event(ruleDamage, "%s cannot move: its motive is crippled.", u.ID)
		return
	}
	limit, _ := maxMove(u)
	if o.Verb == "charge" {
		limit = 2
	}
	path := o.Path
	if len(path) > limit {
		t.event(ruleDamage, "%s may move only %d hexes now: it stops short.", u.ID, limit)
		path = path[:limit]
	}
	// Morale: a pinned unit moves toward the enemy only on a roll of 15+.
	m := t.morale(u)
	if m == pinned && !m.MayAdvance(t.roll[u.ID]) {
		last, _ := t.f.parse(path[len(path)-1])
		if t.nearestEnemy(u, last) < t.nearestEnemy(u, from) || o.Verb == "charge" {
			t.event(ruleMorale, "%s is pinned and rolled %d (not 15+): it may not move toward the enemy, so it stays.", u.ID, t.roll[u.ID])
			return
		}
	}
	steps := []board.ID{from}
	reason := ""
	for i, hs := range path {
		h, _ := t.f.parse(hs)
		last := i == len(path)-1
		if o.Verb == "charge" && last && t.enemyTroopsAt(u, hs) {
			if why := t.chargeBlocked(u, hs); why != "" {
				reason = why
				break
			}
			steps = append(steps, h)
			break
		}
		if why := t.blockedFor(u, h, !last); why != "" {
			reason = fmt.Sprintf("%s is blocked: %s", hs, why)
			break
		}
		steps = append(steps, h)
	}
	// stop where it may end: not on another vehicle, not over the stack.
	for len(steps) > 1 && !(o.Verb == "charge" && t.enemyTroopsAt(u, t.f.format(steps[len(steps)-1]))) {
		if why := t.blockedFor(u, steps[len(steps)-1], false); why == "" {
			break
		} else if reason == "" {
			reason = fmt.Sprintf("it may not stop at %s: %s", t.f.format(steps[len(steps)-1]), why)
		}
		steps = steps[:len(steps)-1]
	}
	n := len(steps) - 1
	if n == 0 {
		t.event(rule, "%s does not move: %s.", u.ID, reason)
		return
	}
	t.place(u, steps, o.Face)
	text := fmt.Sprintf("%s moves %s", u.ID, pathText(t.f, steps))
	if o.Verb == "charge" {
		text = fmt.Sprintf("%s charges %s", u.ID, pathText(t.f, steps))
	}
	if u.Kind == kindVehicle {
		text += ", facing " + dirName(t.f.g, u.Facing)
	}
	if reason != "" {
		text += " and stops: " + reason
	}
	t.event(rule, "%s.", text)
	if o.Verb == "charge" && t.enemyTroopsAt(u, u.Hex) {
		t.startMelee(u)
	}
}

// chargeBlocked says why a charge may not enter the enemy's hex: an enemy
// vehicle there.
func (t *turn) chargeBlocked(u *unitState, hs string) string {
	for _, o := range t.unitsAt(hs) {
		if o.Side != u.Side && o.Kind != kindTroops {
			return fmt.Sprintf("%s is blocked: the enemy vehicle %s is there (troops charge troops)", hs, o.ID)
		}
	}
	return ""
}

func pathText(f *field, steps []board.ID) string {
	var parts []string
	for _, h := range steps {
		parts = append(parts, f.format(h))
	}
	return strings.Join(parts, "→")
}

// place puts a unit at the end of its steps and records the move; a
// vehicle faces its last step unless told otherwise.
func (t *turn) place(u *unitState, steps []board.ID, face string) {
	last := steps[len(steps)-1]
	if u.Kind == kindVehicle {
		if face != "" {
			u.Facing, _ = parseDirection(t.f.g, face)
		} else if d := dirOf(t.f.g, steps[len(steps)-2], last); d >= 0 {
			u.Facing = d
		}
	}
	tr := trace{Kind: "move", Unit: u.ID, From: t.f.format(steps[0]), To: t.f.format(last)}
	if len(steps) > 2 {
		for _, h := range steps {
			tr.Path = append(tr.Path, t.f.format(h))
		}
	}
	t.s.Trace = append(t.s.Trace, tr)
	u.Hex = t.f.format(last)
	t.moved[u.ID] += len(steps) - 1
}

// fallBack: a unit at 75% casualties must move away from the enemy or
// into hard cover (Morale). Its own move stands if it does; otherwise it
// falls back one hex, away from the nearest enemy, to heavy cover if it
// can. A unit already in heavy cover may stay.
func (t *turn) fallBack(u *unitState, o *order) {
	from, _ := t.f.parse(u.Hex)
	if o != nil && o.Verb == "move" {
		last, _ := t.f.parse(o.Path[len(o.Path)-1])
		if t.nearestEnemy(u, last) > t.nearestEnemy(u, from) || t.f.cover(last) == heavyCover {
			t.walk(u, o)
			return
		}
	}
	if o != nil && o.Verb == "disembark" {
		t.disembark(u, o)
		return
	}
	if t.f.terrain[from].Cover == heavyCover && (o == nil || o.Verb != "charge") {
		if o != nil && o.Verb != "face" {
			t.event(ruleMorale, "%s is falling back: it may not move toward the enemy, so it stays in its hard cover.", u.ID)
		}
		return
	}
	best, bestD, bestC := board.ID{}, -1, noCover
	for _, n := range t.f.g.Neighbours(from) {
		if t.blockedFor(u, n, false) != "" {
			continue
		}
		d, c := t.nearestEnemy(u, n), t.f.terrain[n].Cover
		if d > bestD || d == bestD && c > bestC {
			best, bestD, bestC = n, d, c
		}
	}
	if bestD < 0 || bestD <= t.nearestEnemy(u, from) && bestC != heavyCover {
		t.event(ruleMorale, "%s is falling back but has nowhere to go: it stays.", u.ID)
		return
	}
	t.place(u, []board.ID{from, best}, "")
	t.event(ruleMorale, "%s is falling back (75%% casualties): it moves %s→%s, away from the enemy.", u.ID, t.f.format(from), t.f.format(best))
}

// embark puts troops into a vehicle in or next to their hex: it counts as
// a move of one hex.
func (t *turn) embark(u *unitState, o *order) {
	v := t.s.unit(o.Target)
	from, _ := t.f.parse(u.Hex)
	switch {
	case v == nil || v.Eliminated():
		t.event(ruleVehicles, "%s cannot embark: %s is gone.", u.ID, o.Target)
		return
	case v.Hex == "":
		t.event(ruleVehicles, "%s cannot embark: %s is not on the map.", u.ID, v.ID)
		return
	}
	vh, _ := t.f.parse(v.Hex)
	if t.f.g.Distance(from, vh) > 1 {
		t.event(ruleVehicles, "%s cannot embark: %s is at %s, not in or next to %s.", u.ID, v.ID, v.Hex, u.Hex)
		return
	}
	if load := passengerLoad(t.s, v); load+len(u.Models) > v.Capacity {
		t.event(ruleVehicles, "%s cannot embark: %s has room for %d.", u.ID, v.ID, v.Capacity-load)
		return
	}
	t.s.Trace = append(t.s.Trace, trace{Kind: "move", Unit: u.ID, From: u.Hex, To: v.Hex})
	u.Hex, u.Aboard = "", v.ID
	t.moved[u.ID]++
	t.event(ruleVehicles, "%s embarks in %s at %s.", u.ID, v.ID, v.Hex)
}

// disembark puts passengers out into their vehicle's hex or one next to
// it: a move of one hex.
func (t *turn) disembark(u *unitState, o *order) {
	v := t.s.unit(u.Aboard)
	if v == nil || v.Hex == "" {
		return
	}
	vh, _ := t.f.parse(v.Hex)
	h := vh
	if o.Target != "" {
		h, _ = t.f.parse(o.Target)
	}
	if t.f.g.Distance(vh, h) > 1 {
		t.event(ruleVehicles, "%s cannot get out at %s: it is not in or next to %s's hex %s.", u.ID, o.Target, v.ID, v.Hex)
		return
	}
	if why := t.blockedFor(u, h, false); why != "" {
		t.event(ruleVehicles, "%s cannot get out at %s: %s.", u.ID, t.f.format(h), why)
		return
	}
	u.Aboard, u.Hex = "", t.f.format(h)
	t.moved[u.ID]++
	t.s.Trace = append(t.s.Trace, trace{Kind: "move", Unit: u.ID, From: v.Hex, To: u.Hex})
	t.event(ruleVehicles, "%s disembarks from %s at %s.", u.ID, v.ID, u.Hex)
}
