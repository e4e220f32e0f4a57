package perrote

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// unit is one squad, fire team or vehicle rolling for turn order.
type unit struct {
	Name string
	// Suppression is the suppression fire it took: -5 each, cumulative
	// (Kill fire/suppression fire).
	Suppression int
	// Lost and Original are its casualties and original size (Morale);
	// Original 0 means no casualties are counted.
	Lost, Original int
	Special        bool // special forces: suppressed only from 50% (Morale)
	Heroic         bool // ignores morale (Heroic)
	// Placed: set up by sneak attack this turn, so it counts as having
	// rolled a one and rolls no d20 (Sneak Attack/Forward Deployment).
	Placed bool
	// NBC: one of its Suppression is an NBC attack's (NBC Attack!).
	NBC bool
}

// Morale is the unit's morale state (Morale).
func (u unit) Morale() moraleState {
	return morale(u.Lost, u.Original, u.Special, u.Heroic)
}

// ModifiedNumber is the unit's turn order number from its d20 roll (Turn
// Order): -5 per suppression fire and -5 when morale suppresses it; it
// never falls below one (four suppressions count as a roll of one).
func (u unit) ModifiedNumber(roll int) int { return roll + u.NumberMods(roll).Sum() }

// NumberMods are the terms ModifiedNumber adds to roll, each named with
// its rule.
func (u unit) NumberMods(roll int) kit.Modifiers {
	var mods kit.Modifiers
	fire := u.Suppression
	if u.NBC {
		fire--
		mods.Add(-moraleSuppression, "NBC attack", "NBC Attack!")
	}
	mods.Add(-moraleSuppression*fire, fmt.Sprintf("suppression fire x%d", fire), ruleSuppression)
	mods.Add(u.Morale().Drm(), u.Morale().String(), ruleMorale)
	if n := roll + mods.Sum(); n < 1 {
		mods.Add(1-n, "never below 1", ruleTurnOrder)
	}
	return mods
}

// turnOrder is the order units act in (Turn Order).
type turnOrder struct {
	Rolls    []int // each unit's d20 (1 for placed units), input order
	Modified []int // each unit's modified number, input order
	// Groups are the units (indexes) acting at the same time, highest
	// number first, each group in input order; Numbers are their numbers.
	Groups  [][]int
	Numbers []int
}

// rollTurnOrder rolls a d20 for each unit in order, except units placed by
// sneak attack, and groups them by modified number, highest first: units
// on the same number act at the same time (Turn Order).
func rollTurnOrder(r dice.Roller, units []unit) turnOrder {
	t := turnOrder{Rolls: make([]int, len(units)), Modified: make([]int, len(units))}
	for i, u := range units {
		roll := 1
		if !u.Placed {
			roll = dice.Roll(r, 1, 20, fmt.Sprintf("Per Rote turn order roll for %s", u.Name))[0]
		}
		t.Rolls[i] = roll
		t.Modified[i] = u.ModifiedNumber(roll)
	}
	t.Groups, t.Numbers = groupByNumber(t.Modified)
	return t
}

// groupByNumber groups indexes by number, highest number first, each group
// in index order (Turn Order: equal numbers act at the same time).
func groupByNumber(numbers []int) ([][]int, []int) {
	nums := slices.Clone(numbers)
	slices.Sort(nums)
	nums = slices.Compact(nums)
	slices.Reverse(nums)
	groups := make([][]int, len(nums))
	for k, n := range nums {
		for i, m := range numbers {
			if m == n {
				groups[k] = append(groups[k], i)
			}
		}
	}
	return groups, nums
}
