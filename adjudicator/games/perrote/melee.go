package perrote

import (
	"slices"
	"strings"
)

// This file holds close combat in the turn (Hand to Hand): a charge into
// the enemy's hex, the fight with every man of both sides paired off, and
// fights going on from turn to turn at the highest number of the units in
// them.

// startMelee: a charge reached the enemy; the fight is this group's, and
// it counts as the movement of the units charged too.
func (t *turn) startMelee(u *unitState) {
	if _, ok := t.melees[u.Hex]; !ok {
		t.melees[u.Hex] = u.Side
	}
	var tied []string
	for _, o := range t.unitsAt(u.Hex) {
		if o.Kind == kindTroops && o.Side != u.Side && !t.acted[o.ID] {
			t.acted[o.ID] = true
			tied = append(tied, o.ID)
		}
	}
	if len(tied) > 0 {
		t.event(ruleHandToHand, "%s is caught in close combat before it acted: the fight counts as its movement for the turn.", strings.Join(tied, ", "))
	}
}

// joinMelee: a unit in a fight going on acts by fighting, and so do all
// the others in it.
func (t *turn) joinMelee(u *unitState) {
	if _, ok := t.melees[u.Hex]; !ok {
		t.melees[u.Hex] = u.Side
	}
	for _, o := range t.unitsAt(u.Hex) {
		if o.Kind == kindTroops {
			t.acted[o.ID] = true
		}
	}
	if uo := t.orders[u.ID]; uo != nil && (uo.move != nil || uo.fire != nil) {
		t.event(ruleHandToHand, "%s is locked in close combat at %s: its orders are void.", u.ID, u.Hex)
	}
}

// fightMelees fights each close combat of the group: every man rolls a d6,
// paired one to one, the larger side's extra men dealt out (Hand to Hand).
func (t *turn) fightMelees() {
	for _, h := range sortedKeys(t.melees) {
		side := t.melees[h]
		var att, def []*unitState
		na, nd := 0, 0
		for _, o := range t.unitsAt(h) {
			if o.Kind != kindTroops || len(o.Models) == 0 {
				continue
			}
			if o.Side == side {
				att, na = append(att, o), na+len(o.Models)
			} else {
				def, nd = append(def, o), nd+len(o.Models)
			}
		}
		if na == 0 || nd == 0 {
			continue
		}
		fights := handToHand(t.r, na, nd, pairs)
		al, dl := losses(fights)
		t.event(ruleHandToHand, "Close combat at %s: %d men of %s against %d of %s in %d fights: %s lose %d, %s lose %d (the lower die falls, ties remove no one).",
			h, na, ids(att), nd, ids(def), len(fights), ids(att), al, ids(def), dl)
		t.shareLosses(att, al)
		t.shareLosses(def, dl)
	}
	clear(t.melees)
}

func ids(us []*unitState) string {
	var out []string
	for _, u := range us {
		out = append(out, u.ID)
	}
	return strings.Join(out, "+")
}

// shareLosses spreads a side's close combat losses over its units, one
// at a time to the unit with the most men left.
func (t *turn) shareLosses(us []*unitState, n int) {
	left := map[string]int{}
	for _, u := range us {
		left[u.ID] = len(u.Models) - t.pend.casualties[u.ID]
	}
	for range n {
		order := slices.Clone(us)
		slices.SortStableFunc(order, func(a, b *unitState) int { return left[b.ID] - left[a.ID] })
		if left[order[0].ID] <= 0 {
			return
		}
		left[order[0].ID]--
		t.pend.casualties[order[0].ID]++
	}
}
