// Package board models the boards games are played on. This file holds the
// hex grid: printed hex ids in the two styles the games use, neighbours,
// distance and the geometry of a unit layout.
//
// Offset convention. Hexes are addressed by the numbers printed on the map,
// ID{Col, Row}; the first column and row are Grid.FirstCol and
// Grid.FirstRow (usually 1, as in hex 0101). Internally a hex has a zero-based
// index (c, r) = (Col-FirstCol, Row-FirstRow).
//
//   - FlatTop grids are column-offset "odd-q": every odd index column
//     (c = 1, 3, ...; with FirstCol 1 the printed columns 02, 04, ...) sits half
//     a hex lower than its neighbours. This is the common wargame layout:
//     0101 touches 0102, 0201 (and the off-map 0100 and 0200); 0201 touches
//     0101, 0102, 0301, 0302, 0200 and 0202.
//   - A flat-top grid may instead name the printed columns that sit half a hex
//     higher (Grid.Up "odd" or "even"), whatever its first column: with Up
//     "odd", 29.10 touches 30.09 and 30.10 touches 29.10 and 29.11, as on a
//     map whose odd columns are drawn up.
//   - PointyTop grids are row-offset "odd-r": every odd index row sits half a
//     hex to the right. 0101 touches 0201 and 0102 (and off-map hexes).
//
// Distances are computed through axial (cube) coordinates.
package board

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Orientation is how hexes sit on the map.
type Orientation int

const (
	// FlatTop hexes have a flat top edge and form vertical columns.
	FlatTop Orientation = iota
	// PointyTop hexes have a vertex at the top and form horizontal rows.
	PointyTop
)

func (o Orientation) String() string {
	switch o {
	case FlatTop:
		return "flat-top"
	case PointyTop:
		return "pointy-top"
	}
	return fmt.Sprintf("Orientation(%d)", int(o))
}

// IDStyle is how hex ids are printed.
type IDStyle int

const (
	// FourDigit ids are "CCRR", e.g. "1708": column 17, row 8.
	FourDigit IDStyle = iota
	// Dotted ids are "CC.RR", e.g. "30.09": column 30, row 9.
	Dotted
)

func (s IDStyle) String() string {
	switch s {
	case FourDigit:
		return "CCRR"
	case Dotted:
		return "CC.RR"
	}
	return fmt.Sprintf("IDStyle(%d)", int(s))
}

// ID is a hex as printed on the map: column and row numbers.
type ID struct {
	Col, Row int
}

// String formats the id in the four-digit style.
func (id ID) String() string { return id.Format(FourDigit) }

// Format prints the id in the given style: "1708" or "17.08".
func (id ID) Format(style IDStyle) string {
	if style == Dotted {
		return fmt.Sprintf("%02d.%02d", id.Col, id.Row)
	}
	return fmt.Sprintf("%02d%02d", id.Col, id.Row)
}

// ParseID reads a hex id printed in the given style. Four-digit ids are
// exactly four digits ("0708"); dotted ids are one to three digits, a dot and
// one to three digits ("30.09", "7.8").
func ParseID(s string, style IDStyle) (ID, error) {
	t := strings.TrimSpace(s)
	switch style {
	case FourDigit:
		if len(t) != 4 || !allDigits(t) {
			return ID{}, fmt.Errorf("board: hex id %q: want four digits CCRR, like \"1708\"", s)
		}
		c, _ := strconv.Atoi(t[:2])
		r, _ := strconv.Atoi(t[2:])
		return ID{c, r}, nil
	case Dotted:
		cs, rs, ok := strings.Cut(t, ".")
		if !ok || len(cs) == 0 || len(cs) > 3 || len(rs) == 0 || len(rs) > 3 || !allDigits(cs) || !allDigits(rs) {
			return ID{}, fmt.Errorf("board: hex id %q: want column.row CC.RR, like \"30.09\"", s)
		}
		c, _ := strconv.Atoi(cs)
		r, _ := strconv.Atoi(rs)
		return ID{c, r}, nil
	}
	return ID{}, fmt.Errorf("board: hex id %q: unknown id style %v", s, style)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Grid is a rectangular hex map of Cols columns and Rows rows.
type Grid struct {
	Cols, Rows         int
	Orientation        Orientation
	IDStyle            IDStyle
	FirstCol, FirstRow int // printed number of the first column and row, usually 1
	// Up, for flat-top grids, names the printed columns that sit half a hex
	// higher than their neighbours: "odd" or "even". Empty keeps the
	// index rule: every odd index column sits lower.
	Up string `json:",omitempty"`
}

// Up values: which printed columns of a flat-top grid sit higher.
const (
	OddUp  = "odd"
	EvenUp = "even"
)

// shift is added to a column index so that the shifted index is odd
// exactly for the columns that sit lower.
func (g Grid) shift() int {
	switch g.Up {
	case OddUp: // even printed columns are low
		return (g.FirstCol + 1) & 1
	case EvenUp: // odd printed columns are low
		return g.FirstCol & 1
	}
	return 0
}

// Validate reports whether the grid is usable.
func (g Grid) Validate() error {
	if g.Cols <= 0 || g.Rows <= 0 {
		return fmt.Errorf("board: grid %dx%d: columns and rows must be positive", g.Cols, g.Rows)
	}
	if g.Orientation != FlatTop && g.Orientation != PointyTop {
		return fmt.Errorf("board: grid: unknown orientation %v", g.Orientation)
	}
	if g.IDStyle != FourDigit && g.IDStyle != Dotted {
		return fmt.Errorf("board: grid: unknown id style %v", g.IDStyle)
	}
	if g.Up != "" && g.Up != OddUp && g.Up != EvenUp {
		return fmt.Errorf("board: grid: up %q: want odd or even", g.Up)
	}
	if g.Up != "" && g.Orientation != FlatTop {
		return fmt.Errorf("board: grid: up (which columns sit higher) is for flat-top grids")
	}
	if g.FirstCol < 0 || g.FirstRow < 0 {
		return fmt.Errorf("board: grid: first column and row must not be negative")
	}
	lastC, lastR := g.FirstCol+g.Cols-1, g.FirstRow+g.Rows-1
	if g.IDStyle == FourDigit && (lastC > 99 || lastR > 99) {
		return fmt.Errorf("board: grid: last hex %02d%02d does not fit four-digit ids", lastC, lastR)
	}
	return nil
}

// Contains reports whether the hex is on the map.
func (g Grid) Contains(id ID) bool {
	c, r := g.index(id)
	return c >= 0 && c < g.Cols && r >= 0 && r < g.Rows
}

// Parse reads a hex id in the grid's style and checks that it is on the map.
func (g Grid) Parse(s string) (ID, error) {
	id, err := ParseID(s, g.IDStyle)
	if err != nil {
		return ID{}, err
	}
	if !g.Contains(id) {
		return ID{}, fmt.Errorf("board: hex %s is off the map (%s to %s)", id.Format(g.IDStyle),
			ID{g.FirstCol, g.FirstRow}.Format(g.IDStyle), ID{g.FirstCol + g.Cols - 1, g.FirstRow + g.Rows - 1}.Format(g.IDStyle))
	}
	return id, nil
}

// Format prints the id in the grid's style.
func (g Grid) Format(id ID) string { return id.Format(g.IDStyle) }

// All lists every hex of the map, column by column for flat-top grids and
// row by row for pointy-top grids.
func (g Grid) All() []ID {
	out := make([]ID, 0, g.Cols*g.Rows)
	if g.Orientation == PointyTop {
		for r := 0; r < g.Rows; r++ {
			for c := 0; c < g.Cols; c++ {
				out = append(out, g.at(c, r))
			}
		}
		return out
	}
	for c := 0; c < g.Cols; c++ {
		for r := 0; r < g.Rows; r++ {
			out = append(out, g.at(c, r))
		}
	}
	return out
}

func (g Grid) index(id ID) (c, r int) { return id.Col - g.FirstCol, id.Row - g.FirstRow }
func (g Grid) at(c, r int) ID         { return ID{c + g.FirstCol, r + g.FirstRow} }

// axial converts a hex to axial coordinates (q, r); the third cube
// coordinate is -q-r.
func (g Grid) axial(id ID) (q, r int) {
	c, row := g.index(id)
	if g.Orientation == PointyTop {
		return c - (row-(row&1))/2, row
	}
	q = c + g.shift()
	return q, row - (q-(q&1))/2
}

func (g Grid) fromAxial(q, r int) ID {
	if g.Orientation == PointyTop {
		return g.at(q+(r-(r&1))/2, r)
	}
	return g.at(q-g.shift(), r+(q-(q&1))/2)
}

// flatDirs and pointyDirs are the axial directions, in the order neighbours
// are listed. For flat-top grids: lower right, upper right, up, upper left,
// lower left, down. For pointy-top grids: right, upper right, upper left,
// left, lower left, lower right.
var flatDirs = [6][2]int{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}
var pointyDirs = [6][2]int{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}

// Neighbour returns the hex in direction dir (0-5, see Neighbours) whether or
// not it is on the map.
func (g Grid) Neighbour(id ID, dir int) ID {
	dirs := flatDirs
	if g.Orientation == PointyTop {
		dirs = pointyDirs
	}
	d := dirs[((dir%6)+6)%6]
	q, r := g.axial(id)
	return g.fromAxial(q+d[0], r+d[1])
}

// Neighbours lists the on-map hexes adjacent to id. Flat-top order: lower
// right, upper right, up, upper left, lower left, down. Pointy-top order:
// right, upper right, upper left, left, lower left, lower right.
func (g Grid) Neighbours(id ID) []ID {
	out := make([]ID, 0, 6)
	for d := 0; d < 6; d++ {
		if n := g.Neighbour(id, d); g.Contains(n) {
			out = append(out, n)
		}
	}
	return out
}

// Distance is the number of hex steps from a to b (off-map hexes count as
// if the grid went on).
func (g Grid) Distance(a, b ID) int {
	aq, ar := g.axial(a)
	bq, br := g.axial(b)
	dq, dr := aq-bq, ar-br
	return max(abs(dq), abs(dr), abs(dq+dr))
}

// Adjacent reports whether a and b share a hexside.
func (g Grid) Adjacent(a, b ID) bool { return g.Distance(a, b) == 1 }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Point is a position in a layout.
type Point struct{ X, Y float64 }

// Center is the centre of a hex in the unit layout: hexes of circumradius 1
// (corner to centre), the first hex (FirstCol, FirstRow) centred at (0, 0),
// x to the right and y down.
func (g Grid) Center(id ID) Point {
	c, r := g.index(id)
	if g.Orientation == PointyTop {
		return Point{math.Sqrt(3) * (float64(c) + 0.5*float64(r&1)), 1.5 * float64(r)}
	}
	return Point{1.5 * float64(c), math.Sqrt(3) * (float64(r) + 0.5*float64((c+g.shift())&1))}
}

// Corners are the six corners of a hex in the unit layout, clockwise
// (y down) starting from the right (flat-top) or upper right (pointy-top).
func (g Grid) Corners(id ID) [6]Point {
	ctr := g.Center(id)
	var out [6]Point
	for i := range out {
		a := math.Pi / 3 * float64(i)
		if g.Orientation == PointyTop {
			a -= math.Pi / 6
		}
		out[i] = Point{ctr.X + math.Cos(a), ctr.Y + math.Sin(a)}
	}
	return out
}

// Edge is the shared hexside of two adjacent hexes in the unit layout; ok is
// false when they are not adjacent.
func (g Grid) Edge(a, b ID) (p, q Point, ok bool) {
	if !g.Adjacent(a, b) {
		return Point{}, Point{}, false
	}
	ca, cb := g.Center(a), g.Center(b)
	mx, my := (ca.X+cb.X)/2, (ca.Y+cb.Y)/2
	dx, dy := cb.X-ca.X, cb.Y-ca.Y
	l := math.Hypot(dx, dy)
	// the hexside has length 1 and is perpendicular to the centre line.
	px, py := -dy/l*0.5, dx/l*0.5
	return Point{mx - px, my - py}, Point{mx + px, my + py}, true
}

// Bounds is the box around every hex of the map in the unit layout.
func (g Grid) Bounds() (min, max Point) {
	s3 := math.Sqrt(3)
	if g.Orientation == PointyTop {
		w := s3 * float64(g.Cols)
		if g.Rows > 1 {
			w += s3 / 2
		}
		return Point{-s3 / 2, -1}, Point{-s3/2 + w, 1.5*float64(g.Rows-1) + 1}
	}
	// a column sits up (top at -s3/2) or low (half a hex lower).
	low0 := g.shift()&1 == 1
	top, bottom := -s3/2, s3*float64(g.Rows-1)+s3/2
	if g.Cols == 1 && low0 {
		top += s3 / 2
	}
	if g.Cols > 1 || low0 {
		bottom += s3 / 2
	}
	return Point{-1, top}, Point{1.5*float64(g.Cols-1) + 1, bottom}
}
