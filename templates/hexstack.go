package templates

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// On a hex map a stack fits its hex: its top counter, hexCounterW x
// hexCounterH, centred on the hex, with an edge peeking out above and to
// the left for each counter under it (up to maxEdges). A stack that does
// not show all of itself (more than one counter, a status marker, an id
// too long for the counter) carries a numbered marker on its top right
// corner, and the list under the map (in the legend) gives each marked
// stack's units in order, top first, with their values and markers. A
// point-to-point map draws its stacks the same way, beside their space
// (placeNetStacks), the counter as wide as its top unit's values.
const (
	hexCounterW = 30
	hexCounterH = 28
	edgeStep    = 2 // how far each counter under the top one peeks out
	maxEdges    = 2
	badgeR      = 6.5
)

// hexStack is a stack on a hex and its number in the list (0: unmarked).
type hexStack struct {
	st     stack
	number int
	// on a point-to-point map: the top left corner of the top counter,
	// beside its space, and a leader to the space when it stands further
	// off (placeNetStacks).
	at     pt
	set    bool
	leader []pt
	// w is the width of its counters: hexCounterW on a hex map, as wide
	// as the top counter's values beside a space.
	w float64
}

// width is the width of a stack's counters.
func (hs hexStack) width() float64 { return cmp.Or(hs.w, hexCounterW) }

// stackAt is the top left corner of a stack's top counter: centred on
// its hex, or where placeNetStacks put it.
func (r *renderer) stackAt(hs hexStack) pt {
	if hs.set {
		return hs.at
	}
	c := r.centre(hs.st[0].Hex)
	return pt{math.Round(c.x - hexCounterW/2), math.Round(c.y - hexCounterH/2)}
}

// numberStacks numbers the stacks that need their list entry: more than
// one counter, a status marker, a value too wide for the counter.
// On a point-to-point map (wide) the counters are as wide as their top
// counter's values.
func (r *renderer) numberStacks(sts []stack, wide bool) []hexStack {
	var out []hexStack
	n := 0
	for _, st := range sts {
		hs := hexStack{st: st}
		top := st[len(st)-1]
		if wide {
			hs.w = math.Max(hexCounterW, float64(max(r.fSmall.width(top.ID), r.fType.width(top.Type), r.fStr.width(top.Strength))+6))
		}
		w := int(hs.width())
		if len(st) > 1 || len(top.Markers) > 0 || r.fSmall.width(top.ID) > w-4 ||
			r.fType.width(top.Type) > w-4 || r.fStr.width(top.Strength) > w-4 {
			n++
			hs.number = n
		}
		out = append(out, hs)
	}
	return out
}

// layoutHexStacks groups the counters drawn by hex and numbers the
// stacks that need their list entry.
func (r *renderer) layoutHexStacks() {
	var sts []stack
	for _, st := range groupStacks(r.m.Counters, func(c board.Counter) board.ID { return c.Hex }) {
		if r.on(st[0].Hex) {
			sts = append(sts, st)
		}
	}
	r.hexStacks = r.numberStacks(sts, false)
}

// stackList is the legend's list of the marked stacks: one note each.
func (r *renderer) stackList() []board.LegendItem {
	var out []board.LegendItem
	for _, hs := range r.hexStacks {
		if hs.number == 0 {
			continue
		}
		var units []string
		for i := len(hs.st) - 1; i >= 0; i-- {
			c := hs.st[i]
			u := strings.TrimSpace(c.ID + " " + c.Type + " " + c.Strength)
			if len(c.Markers) > 0 {
				u += " [" + strings.Join(c.Markers, " ") + "]"
			}
			units = append(units, u)
		}
		what := "1 unit"
		if len(hs.st) > 1 {
			what = fmt.Sprintf("%d units, top first", len(hs.st))
		}
		out = append(out, board.LegendItem{Label: fmt.Sprintf("(%d) %s, %s: %s", hs.number, r.placeName(hs.st[0]), what, strings.Join(units, "; "))})
	}
	return out
}

// hexStackBox is the box of a stack drawn on its hex: the top counter, its
// edges and its marker.
func (r *renderer) hexStackBox(hs hexStack) box {
	at := r.stackAt(hs)
	x0, y0 := at.x, at.y
	e := float64(edgeStep * min(len(hs.st)-1, maxEdges))
	b := box{x0 - 1 - e, y0 - 1 - e, x0 + hs.width() + 1, y0 + hexCounterH + 1}
	if hs.number > 0 {
		bx0, by0, bx1, by1 := r.badgeBox(hs, x0+hs.width(), y0)
		b = b.union(box{bx0, by0, bx1, by1})
	}
	return b
}

// badgeBox is the box of a stack's numbered marker, on the top right
// corner (x, y) of its top counter.
func (r *renderer) badgeBox(hs hexStack, x, y float64) (x0, y0, x1, y1 float64) {
	s := fmt.Sprint(hs.number)
	w := math.Max(2*badgeR, float64(r.fSmall.width(s))+6)
	return x - w + 2, y - badgeR, x + 2, y + badgeR
}

// drawHexStack draws a stack on its hex.
func (r *renderer) drawHexStack(hs hexStack) {
	st := hs.st
	at := r.stackAt(hs)
	x0, y0 := at.x, at.y
	if len(hs.leader) > 1 {
		r.cv.stroke(rgb(0x333333), hs.leader, 1.5, true)
	}
	w := hs.width()
	x1, y1 := x0+w, y0+hexCounterH
	ground := r.groundOf(st[0])
	edge := func(c color.RGBA) color.RGBA { return edgeOn(c, ground) }
	e := float64(edgeStep * min(len(st)-1, maxEdges))
	ring := box{x0 - 1 - e, y0 - 1 - e, x1 + 1, y1 + 1}
	var halo color.RGBA
	if r.art != nil {
		// on map art: ringed with its halo (stackHalos) and edged dark
		// enough for a light image (artEdge), so that its outline shows
		// on any ground.
		edge, halo = artEdge, white
		ring = box{ring.x0 - artHalo, ring.y0 - artHalo, ring.x1 + artHalo, ring.y1 + artHalo}
	}
	// the edges of the counters under the top one, deepest first.
	for k := min(len(st)-1, maxEdges); k >= 1; k-- {
		cn := st[len(st)-1-k]
		col := parseColor(cn.Color, rgb(0xbbbbbb))
		d := float64(edgeStep * k)
		r.cv.fill(edge(col), roundRect(x0-1-d, y0-1-d, x1+1-d, y1+1-d, 4))
		r.cv.fill(col, roundRect(x0+0.5-d, y0+0.5-d, x1-0.5-d, y1-0.5-d, 3))
	}
	top := st[len(st)-1]
	col := parseColor(top.Color, rgb(0xbbbbbb))
	r.cv.fill(edge(col), roundRect(x0-1, y0-1, x1+1, y1+1, 4))
	r.cv.fill(col, roundRect(x0+0.5, y0+0.5, x1-0.5, y1-0.5, 3))
	ic := ink(col)
	cx := int(x0 + w/2)
	fit := func(fc *face, s string) string { return clipTo(fc, s, int(w)-4) }
	r.cv.centred(r.fSmall, fit(r.fSmall, top.ID), cx, int(y0)+9, ic)
	r.cv.centred(r.fType, fit(r.fType, top.Type), cx, int(y0)+19, ic)
	r.cv.centred(r.fStr, fit(r.fStr, top.Strength), cx, int(y0)+27, ic)
	for _, cn := range st {
		cc := parseColor(cn.Color, rgb(0xbbbbbb))
		r.lay.counters = append(r.lay.counters, laidCounter{place: r.placeOf(cn), id: cn.ID, side: cn.Side, markers: cn.Markers,
			b: box{x0 - 1, y0 - 1, x1 + 1, y1 + 1}, fill: cc, ink: toRGBA(ink(cc)), edge: edge(cc), ground: ground, halo: halo, ring: ring})
	}
	ls := laidStack{place: r.placeOf(st[0]), shown: 1, b: r.hexStackBox(hs)}
	for _, cn := range st {
		ls.units = append(ls.units, cn.ID)
	}
	if hs.number > 0 {
		ls.shown = 0 // what shows is its list entry
		s := fmt.Sprint(hs.number)
		bx0, by0, bx1, by1 := r.badgeBox(hs, x1, y0)
		r.cv.fill(badgeBg, roundRect(bx0-1, by0-1, bx1+1, by1+1, badgeR+1))
		r.cv.fill(markerBg, roundRect(bx0, by0, bx1, by1, badgeR))
		r.cv.centred(r.fSmall, s, int(math.Round((bx0+bx1)/2)), int(by0)+10, textInk)
		ls.marker = s
	}
	r.lay.stacks = append(r.lay.stacks, ls)
}

// stackHalos draws, on map art, a white halo artHalo pixels wide around
// each stack's counters, before the names, spaces and counters: a halo
// lies on the image only, under everything else, so it covers nothing.
func (r *renderer) stackHalos() {
	if r.art == nil {
		return
	}
	var rings [][]pt
	for _, hs := range r.hexStacks {
		at := r.stackAt(hs)
		x0, y0 := at.x, at.y
		x1, y1 := x0+hs.width(), y0+hexCounterH
		for k := min(len(hs.st)-1, maxEdges); k >= 0; k-- {
			d := float64(edgeStep * k)
			rings = append(rings, roundRect(x0-1-d-artHalo, y0-1-d-artHalo, x1+1-d+artHalo, y1+1-d+artHalo, 4+artHalo))
		}
	}
	for _, rg := range rings { // one by one: stacks lie far apart
		r.cv.fill(white, rg)
	}
}

// clipTo shortens s to fit w pixels, without an ellipsis (the stack's
// list entry gives it whole).
func clipTo(fc *face, s string, w int) string {
	if fc.width(s) <= w {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 && fc.width(string(rs)) > w {
		rs = rs[:len(rs)-1]
	}
	return string(rs)
}
