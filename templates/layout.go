package templates

import (
	"image"
	"image/color"
	"math"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// layout is where a picture put what a reader must make out: each
// counter's box and colours, each stack with what it shows, each place
// name's box, each arrow's course and the legend's items. The renderer
// records it as it draws, from the same numbers the drawing uses, so the
// legibility check (legibility.go) reads the picture as drawn, not a
// re-derivation of it.
type layout struct {
	picture box // the whole picture
	mapArea box // the map, inside the frame
	// places are the hexes or spaces drawn: a counter must not cover
	// another place's space (on a point-to-point map).
	spaces   []laidBox
	counters []laidCounter
	stacks   []laidStack
	labels   []laidBox
	arrows   []laidArrow
	legend   []board.LegendItem
}

// laidBox is something drawn at a place: a place name, a space. A name
// has its ink and what it is drawn on: a plate (an opaque box under the
// whole name) or a halo (a ring of one pixel around its letters, the
// ground showing between them).
type laidBox struct {
	place, text string
	b           box
	ink, back   color.RGBA
	plate       bool
}

// laidCounter is a counter as drawn: its box (its marker tags included),
// its fill and text colours, the colour of its edge and the ground
// under it. On map art its stack is ringed with a halo (halo.A > 0) out
// to ring, the box whose surroundings are the image it stands on.
type laidCounter struct {
	place, id, side string
	markers         []string
	b               box
	fill, ink, edge color.RGBA
	ground          color.RGBA
	halo            color.RGBA
	ring            box
}

// laidStack is a stack as drawn: how many of its counters show, and the
// marker that names it when not all do.
type laidStack struct {
	place  string
	units  []string // bottom first
	shown  int
	marker string
	b      box
}

// laidArrow is an arrow as drawn: the places it runs through, in order,
// and the points of its course.
type laidArrow struct {
	kind   string
	places []string
	hexes  []board.ID // on a hex map
	course []pt
	ink    color.RGBA
}

// contains tells whether b lies inside a, to the pixel.
func (a box) contains(b box) bool {
	return b.x0 >= a.x0-0.5 && b.y0 >= a.y0-0.5 && b.x1 <= a.x1+0.5 && b.y1 <= a.y1+0.5
}

// cover is how far a and b overlap: the smaller of the overlap's width
// and height, 0 when they do not.
func (a box) cover(b box) float64 {
	w := math.Min(a.x1, b.x1) - math.Max(a.x0, b.x0)
	h := math.Min(a.y1, b.y1) - math.Max(a.y0, b.y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return math.Min(w, h)
}

// union is the box around a and b.
func (a box) union(b box) box {
	return box{math.Min(a.x0, b.x0), math.Min(a.y0, b.y0), math.Max(a.x1, b.x1), math.Max(a.y1, b.y1)}
}

func toRGBA(c color.Color) color.RGBA { return color.RGBAModel.Convert(c).(color.RGBA) }

// placeOf names the place a counter stands on.
func (r *renderer) placeOf(c board.Counter) string {
	if r.net != nil {
		return c.Space
	}
	return r.g.Format(c.Hex)
}

// placeName is how the list under the map names a counter's place: its
// hex, or its space's name.
func (r *renderer) placeName(c board.Counter) string {
	if r.net != nil {
		if s := r.spaces[c.Space]; s != nil {
			return nameOf(*s)
		}
		return c.Space
	}
	return r.g.Format(c.Hex)
}

// nothing is a surface that draws nothing: the legibility check lays a
// picture out without painting it.
type nothing struct{ w, h int }

func (n nothing) fill(color.Color, ...[]pt)                                  {}
func (n nothing) fillConvex(color.Color, []pt)                               {}
func (n nothing) stroke(color.Color, []pt, float64, bool)                    {}
func (n nothing) rect(image.Rectangle, color.Color)                          {}
func (n nothing) line(color.Color, pt, pt, float64)                          {}
func (n nothing) text(*face, string, int, int, color.Color)                  {}
func (n nothing) centred(*face, string, int, int, color.Color)               {}
func (n nothing) haloText(*face, string, int, int, color.Color, color.Color) {}
func (n nothing) bounds() image.Rectangle                                    { return image.Rect(0, 0, n.w, n.h) }
