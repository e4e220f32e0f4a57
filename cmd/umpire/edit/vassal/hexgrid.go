package vassal

import (
	"image"
	"math"
	"strconv"
	"strings"
)

// HexGrid is a board's or a zone's hex grid as VASSAL defines it
// (VASSAL.build.module.map.boardPicker.board.HexGrid). VASSAL works in a
// frame where columns run along x; a sideways grid is the same grid with
// x and y swapped, so for a sideways grid Dx and X0 run down the image
// and Dy and Y0 across it.
type HexGrid struct {
	Dx, Dy   float64 // the distance between columns, and between the hexes of a column, in pixels
	X0, Y0   int     // the centre of raw hex (0, 0)
	Sideways bool    // columns run down the image (flat sides left and right)
	// Bounds is what the grid covers: the board's image, or the
	// bounding box of its zone. Numbering that descends counts from its
	// size, as VASSAL counts from its grid container's size.
	Bounds    image.Rectangle
	Numbering *Numbering // nil: the grid has no HexGridNumbering, and hexes no labels
}

// Numbering is VASSAL's HexGridNumbering: how a hex's label is written
// from its column and row. The letters are VASSAL's own: First is "H"
// (column first) or "V" (row first); HType and VType are "N" (numbers)
// or "A" (letters: A..Z, then AA, BB...).
type Numbering struct {
	First          string // "H" or "V"
	Sep            string // between column and row
	HType, VType   string // "N" or "A"
	HLeading       int    // leading zeros of the column: 1 writes 1 as 01
	VLeading       int    // leading zeros of the row
	HOff, VOff     int    // the number of raw column or row 0
	HDescend       bool   // columns count down from the right (from the bottom, sideways)
	VDescend       bool   // rows count up from the bottom (from the right, sideways)
	Stagger        bool   // odd columns' rows are one more (VASSAL's default)
	LocationFormat string // the label's format; "$gridLocation$" is the label
}

// defaultNumbering is a HexGridNumbering element without attributes
// (RegularGridNumbering's and HexGridNumbering's field defaults).
func defaultNumbering() *Numbering {
	return &Numbering{First: "H", HType: "N", VType: "N", HLeading: 1, VLeading: 1,
		HOff: 1, VOff: 1, Stagger: true, LocationFormat: "$gridLocation$"}
}

// Hex is one hex of a grid.
type Hex struct {
	Col, Row int    // VASSAL's raw column and row (getRawColumn, getRawRow)
	X, Y     int    // its centre in image pixels, where VASSAL snaps a piece
	Label    string // its name as VASSAL writes it; "" without numbering
}

// Hex gives raw hex (col, row): its centre as VASSAL's HexGrid computes
// it (hexPointCenterFromRawIndex: odd columns half a hex lower, each
// product truncated to whole pixels) and its label (Label at the centre).
func (g *HexGrid) Hex(col, row int) Hex {
	x := int(g.Dx*float64(col) + float64(g.X0))
	var y int
	if col%2 == 0 {
		y = int(g.Dy*float64(row) + float64(g.Y0))
	} else {
		y = int(g.Dy*float64(row) + float64(int(g.Dy/2)) + float64(g.Y0))
	}
	if g.Sideways {
		x, y = y, x
	}
	return Hex{Col: col, Row: row, X: x, Y: y, Label: g.Label(x, y)}
}

// Hexes gives every hex whose centre lies within Bounds, column by
// column: some Bounds' area / (Dx·Dy) hexes, which Read has checked is
// within Limits.Hexes. A grid whose Dx or Dy is below a pixel has none.
func (g *HexGrid) Hexes() []Hex {
	if !(g.Dx >= 1 && g.Dy >= 1) || math.IsInf(g.Dx, 0) || math.IsInf(g.Dy, 0) {
		return nil
	}
	b := g.Bounds
	if g.Sideways {
		b = image.Rect(b.Min.Y, b.Min.X, b.Max.Y, b.Max.X)
	}
	c0 := int(math.Floor(float64(b.Min.X-g.X0)/g.Dx)) - 1
	c1 := int(math.Ceil(float64(b.Max.X-g.X0)/g.Dx)) + 1
	r0 := int(math.Floor(float64(b.Min.Y-g.Y0)/g.Dy)) - 1
	r1 := int(math.Ceil(float64(b.Max.Y-g.Y0)/g.Dy)) + 1
	var hexes []Hex
	for c := c0; c <= c1; c++ {
		for r := r0; r <= r1; r++ {
			h := g.Hex(c, r)
			if image.Pt(h.X, h.Y).In(g.Bounds) {
				hexes = append(hexes, h)
			}
		}
	}
	return hexes
}

// raw gives the raw column and row of the hex at image point (x, y), as
// VASSAL's getRawColumn and getRawRow do (Java's Math.round is
// floor(v + 0.5)).
func (g *HexGrid) raw(x, y int) (col, row int) {
	if g.Sideways {
		x, y = y, x
	}
	col = int(math.Floor(float64(x-g.X0)/g.Dx + 0.5))
	if col%2 == 0 {
		row = int(math.Floor(float64(y-g.Y0)/g.Dy + 0.5))
	} else {
		row = int(math.Floor((float64(y-g.Y0)-g.Dy/2)/g.Dy + 0.5))
	}
	return col, row
}

// Label gives the name VASSAL shows for image point (x, y): its hex's
// column and row numbered as HexGridNumbering's getColumn, getRow and
// getName do, written in LocationFormat. Without numbering it is "".
//
// Descending numbering counts from VASSAL's getMaxColumns (the width
// divided by dy) and getMaxRows (the height divided by dx), rounded: the
// source divides by those, not by the column spacing, and so does Label,
// so that labels come out as in VASSAL.
//
// A point farther outside Bounds than Bounds' own width or height has no
// label (""), so that no label is longer than a few thousand letters.
func (g *HexGrid) Label(x, y int) string {
	n := g.Numbering
	if n == nil {
		return ""
	}
	if w, h := g.Bounds.Dx(), g.Bounds.Dy(); !image.Pt(x, y).In(g.Bounds.Inset(-max(w, h))) {
		return ""
	}
	rawCol, rawRow := g.raw(x, y)
	maxRows := int(math.Floor(float64(g.Bounds.Dy())/g.Dx + 0.5))
	maxCols := int(math.Floor(float64(g.Bounds.Dx())/g.Dy + 0.5))
	col, row := rawCol, rawRow
	if g.Sideways {
		if n.VDescend {
			col = maxRows - col
		}
		if n.HDescend {
			row = maxCols - row
		}
	} else {
		if n.HDescend {
			col = maxCols - col
		}
		if n.VDescend {
			row = maxRows - row
		}
	}
	if n.Stagger && rawCol%2 != 0 {
		down := n.VDescend
		if g.Sideways {
			down = n.HDescend
		}
		if down {
			row--
		} else {
			row++
		}
	}
	rowName := gridName(row+n.VOff, n.VType, n.VLeading)
	colName := gridName(col+n.HOff, n.HType, n.HLeading)
	loc := colName + n.Sep + rowName
	if n.First != "H" {
		loc = rowName + n.Sep + colName
	}
	return formatLocation(n.LocationFormat, map[string]string{
		"gridLocation": loc, "row": rowName, "column": colName})
}

// gridName writes one coordinate as RegularGridNumbering.getName does:
// letters A..Z then AA, BB.. (each further 26 repeats the letter), or a
// number with leading zeros: while leading > 0 and the number is below
// 10^leading, a zero is written and leading goes down by one.
func gridName(v int, typ string, leading int) string {
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
		v = -v
	}
	if typ == "A" {
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		for {
			b.WriteByte(alphabet[v%26])
			v -= 26
			if v < 0 {
				return b.String()
			}
		}
	}
	for leading > 0 && float64(v) < math.Pow(10, float64(leading)) {
		b.WriteByte('0')
		leading--
	}
	b.WriteString(strconv.Itoa(v))
	return b.String()
}

// formatLocation fills VASSAL's $name$ references of a location format
// from vars; a reference vars does not hold is left as written.
func formatLocation(format string, vars map[string]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(format, '$')
		if i < 0 {
			b.WriteString(format)
			return b.String()
		}
		j := strings.IndexByte(format[i+1:], '$')
		if j < 0 {
			b.WriteString(format)
			return b.String()
		}
		name := format[i+1 : i+1+j]
		b.WriteString(format[:i])
		if v, ok := vars[name]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(format[i : i+2+j])
		}
		format = format[i+2+j:]
	}
}
