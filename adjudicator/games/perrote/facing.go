package perrote

import (
	"math"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// This file holds directions on the hex grid: the compass names of a
// vehicle's facing and the side of a vehicle a shot strikes (Vehicles).

// compass names the six directions in board.Neighbour order.
func compass(g board.Grid) []string {
	if g.Orientation == board.PointyTop {
		return []string{"e", "ne", "nw", "w", "sw", "se"}
	}
	return []string{"se", "ne", "n", "nw", "sw", "s"}
}

// parseDirection reads a compass direction of the grid.
func parseDirection(g board.Grid, s string) (int, bool) {
	for i, n := range compass(g) {
		if n == s {
			return i, true
		}
	}
	return 0, false
}

func dirName(g board.Grid, d int) string { return compass(g)[((d%6)+6)%6] }

// dirAngle is the angle (radians, y down) of direction d.
func dirAngle(g board.Grid, d int) float64 {
	h := board.ID{Col: g.FirstCol + 2, Row: g.FirstRow + 2}
	a, b := g.Center(h), g.Center(g.Neighbour(h, d))
	return math.Atan2(b.Y-a.Y, b.X-a.X)
}

// angleTo is the angle from a's centre to b's.
func angleTo(g board.Grid, a, b board.ID) float64 {
	p, q := g.Center(a), g.Center(b)
	return math.Atan2(q.Y-p.Y, q.X-p.X)
}

// angleDiff is the absolute difference of two angles, 0 to pi.
func angleDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 2*math.Pi)
	if d > math.Pi {
		d = 2*math.Pi - d
	}
	return d
}

// dirToward is the direction whose angle is closest to the line from a to
// b (the lowest direction on a tie).
func dirToward(g board.Grid, a, b board.ID) int {
	if a == b {
		return 0
	}
	t := angleTo(g, a, b)
	best, bd := 0, math.Inf(1)
	for d := 0; d < 6; d++ {
		if x := angleDiff(t, dirAngle(g, d)); x < bd-1e-9 {
			best, bd = d, x
		}
	}
	return best
}

// dirOf is the direction of the step from a to adjacent b, or -1.
func dirOf(g board.Grid, a, b board.ID) int {
	for d := 0; d < 6; d++ {
		if g.Neighbour(a, d) == b {
			return d
		}
	}
	return -1
}

// facingStruck is the side of a vehicle in hex at, facing direction
// facing, that fire from hex from strikes (Vehicles): the front within 60
// degrees of its facing, the rear within 60 degrees of its back, the sides
// between. A shot along a boundary strikes the better armored side, and a
// shot from the vehicle's own hex its side (docs/rulings.md 23).
func facingStruck(g board.Grid, at board.ID, facing int, from board.ID) facing {
	if from == at {
		return side
	}
	d := angleDiff(angleTo(g, at, from), dirAngle(g, facing))
	const eps = 1e-6
	switch {
	case d <= math.Pi/3+eps:
		return front
	case d <= 2*math.Pi/3+eps:
		return side
	}
	return rear
}

func (f facing) String() string {
	switch f {
	case front:
		return "front"
	case side:
		return "side"
	}
	return "rear"
}
