package bu

import "slices"

// lossUnit is one unit taking losses: the LF of its full and reduced sides
// (already halved when it is Out Of Supply, 13.4.6.3) and whether it is at
// full strength.
type lossUnit struct {
	FullLF, ReducedLF int
	Full              bool
}

// Steps is how many step losses the unit can take (13.4.6.1): two when full
// (flip, then eliminate), one when reduced.
func (u lossUnit) Steps() int {
	if u.Full {
		return 2
	}
	return 1
}

// lf is the LF the unit's first k steps add towards the Loss Number: each
// step adds the LF of the side it is taken from (13.4.6.2).
func (u lossUnit) lf(k int) int {
	switch {
	case k <= 0:
		return 0
	case !u.Full:
		return u.ReducedLF
	case k == 1:
		return u.FullLF
	}
	return u.FullLF + u.ReducedLF
}

// lossPlan is every legal way to take a Loss Number.
type lossPlan struct {
	// Fulfilled is the largest LF total the steps can add without exceeding
	// the Loss Number (13.4.6.2).
	Fulfilled int
	// Allocations lists every allocation reaching Fulfilled, each the steps
	// per unit in the units' order, in ascending lexicographic order. After
	// a forced critical step it lists every single step instead.
	Allocations [][]int
	// StepCounts lists the distinct totals of steps among Allocations,
	// ascending: one number unless equal LF totals take different numbers
	// of steps.
	StepCounts []int
	// Forced is set when a critical hit forced one step that the Loss
	// Number could not (13.4.6.4).
	Forced bool
}

// allocateLosses finds the legal allocations of a Loss Number among units
// (13.4.6.2 Maximum Fulfilment): the steps must add as much LF as possible
// without exceeding the Loss Number, and the owner chooses among the
// allocations that do. A critical hit (13.4.6.4) makes the owner take one
// step, of his choice, when the Loss Number allows none.
func allocateLosses(loss int, units []lossUnit, critical bool) lossPlan {
	var plan lossPlan
	best := -1
	cur := make([]int, len(units))
	var walk func(i, sum int)
	walk = func(i, sum int) {
		if sum > loss {
			return
		}
		if i == len(units) {
			if sum > best {
				best = sum
				plan.Allocations = plan.Allocations[:0]
			}
			if sum == best {
				plan.Allocations = append(plan.Allocations, slices.Clone(cur))
			}
			return
		}
		for k := 0; k <= units[i].Steps(); k++ {
			cur[i] = k
			walk(i+1, sum+units[i].lf(k))
		}
		cur[i] = 0
	}
	walk(0, 0)
	plan.Fulfilled = best
	if best == 0 && critical && len(units) > 0 {
		plan.Forced = true
		plan.Allocations = nil
		for i := len(units) - 1; i >= 0; i-- {
			a := make([]int, len(units))
			a[i] = 1
			plan.Allocations = append(plan.Allocations, a)
		}
	}
	for _, a := range plan.Allocations {
		n := 0
		for _, k := range a {
			n += k
		}
		if !slices.Contains(plan.StepCounts, n) {
			plan.StepCounts = append(plan.StepCounts, n)
		}
	}
	slices.Sort(plan.StepCounts)
	return plan
}
