package templates

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// pt is a point in image pixels.
type pt struct{ x, y float64 }

func (p pt) add(q pt) pt         { return pt{p.x + q.x, p.y + q.y} }
func (p pt) sub(q pt) pt         { return pt{p.x - q.x, p.y - q.y} }
func (p pt) mul(k float64) pt    { return pt{p.x * k, p.y * k} }
func (p pt) len() float64        { return math.Hypot(p.x, p.y) }
func (p pt) unit() pt            { l := p.len(); return pt{p.x / l, p.y / l} }
func (p pt) perp() pt            { return pt{-p.y, p.x} }
func lerp(p, q pt, t float64) pt { return pt{p.x + (q.x-p.x)*t, p.y + (q.y-p.y)*t} }
func area(poly []pt) (a float64) { // signed, twice the area
	for i := range poly {
		j := (i + 1) % len(poly)
		a += poly[i].x*poly[j].y - poly[j].x*poly[i].y
	}
	return a
}

// surface is what the map renderers draw on: a canvas of pixels (PNG) or
// an SVG document. Both get the same calls in the same order, so both
// pictures show the same thing at the same places.
type surface interface {
	// fill paints the union of the polygons in colour c, antialiased.
	fill(c color.Color, polys ...[]pt)
	// fillConvex paints a convex tile, such as a hex: tiles drawn one
	// after another do not overlap, so a pixel canvas may skip the
	// antialiasing and a vector one may group them by colour.
	fillConvex(c color.Color, poly []pt)
	// stroke paints a stroke of width w along path with round joints,
	// and round ends when roundCaps is set.
	stroke(c color.Color, path []pt, w float64, roundCaps bool)
	// rect fills an axis-aligned rectangle.
	rect(r image.Rectangle, c color.Color)
	// line strokes a thin line of width w.
	line(c color.Color, p, q pt, w float64)
	// text draws s with its baseline starting at (x, y).
	text(fc *face, s string, x, y int, c color.Color)
	// centred draws s centred on x with its baseline at y.
	centred(fc *face, s string, x, y int, c color.Color)
	// haloText draws s centred on x with its baseline at y, ringed with
	// halo.
	haloText(fc *face, s string, x, y int, c, halo color.Color)
	bounds() image.Rectangle
}

// newCanvas is a pixel surface of w x h; its buffer may hold an earlier
// picture, so the caller paints every pixel.
func newCanvas(w, h int) *canvas {
	return &canvas{img: &image.RGBA{Pix: getPix(4 * w * h), Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}}
}

// canvas draws flat-coloured antialiased shapes and cached text onto an
// RGBA image. One canvas serves one rendering; it is not safe for
// concurrent use.
type canvas struct {
	img  *image.RGBA
	used map[color.RGBA]bool   // flat colours drawn, kept exactly in the PNG
	rows map[color.RGBA][]byte // solid rows by colour, for fillConvex
	z    vector.Rasterizer
	u    image.Uniform
}

// fill paints the union of the polygons in colour c.
func (cv *canvas) fill(c color.Color, polys ...[]pt) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range polys {
		for _, q := range p {
			minX, minY = math.Min(minX, q.x), math.Min(minY, q.y)
			maxX, maxY = math.Max(maxX, q.x), math.Max(maxY, q.y)
		}
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(cv.img.Bounds())
	if r.Empty() {
		return
	}
	if len(polys) > 1 && r.Dx()*r.Dy() > 20000 {
		// a long stroke made of many pieces: the rasterizer costs the area
		// of its box, so paint the pieces one by one. The colour is opaque
		// in use, so pieces that overlap differ only at their fringes.
		for _, p := range polys {
			cv.fill(c, p)
		}
		return
	}
	cv.z.Reset(r.Dx(), r.Dy())
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	for _, p := range polys {
		if len(p) < 3 {
			continue
		}
		// same winding everywhere so that overlaps unite instead of cancel.
		rev := area(p) < 0
		at := func(i int) pt {
			if rev {
				return p[len(p)-1-i]
			}
			return p[i]
		}
		q := at(0)
		cv.z.MoveTo(float32(q.x-ox), float32(q.y-oy))
		for i := 1; i < len(p); i++ {
			q = at(i)
			cv.z.LineTo(float32(q.x-ox), float32(q.y-oy))
		}
		cv.z.ClosePath()
	}
	cv.use(c)
	cv.u.C = c
	cv.z.DrawOp = draw.Over
	cv.z.Draw(cv.img, r, &cv.u, image.Point{})
}

func (cv *canvas) use(c color.Color) {
	if cv.used == nil {
		cv.used = map[color.RGBA]bool{}
	}
	cv.used[color.RGBAModel.Convert(c).(color.RGBA)] = true
}

// rect fills an axis-aligned rectangle without antialiasing.
func (cv *canvas) rect(r image.Rectangle, c color.Color) {
	cv.use(c)
	r = r.Intersect(cv.img.Bounds())
	if r.Empty() {
		return
	}
	// one row by doubling copies, then the row copied down: several times
	// faster than draw.Draw with a uniform source on a big picture.
	rc := color.RGBAModel.Convert(c).(color.RGBA)
	first := cv.img.Pix[cv.img.PixOffset(r.Min.X, r.Min.Y):cv.img.PixOffset(r.Max.X, r.Min.Y)]
	first[0], first[1], first[2], first[3] = rc.R, rc.G, rc.B, rc.A
	for n := 4; n < len(first); n *= 2 {
		copy(first[n:], first[:n])
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		i := cv.img.PixOffset(r.Min.X, y)
		copy(cv.img.Pix[i:i+len(first)], first)
	}
}

// segment is the polygon of a straight stroke of width w from p to q.
func segment(p, q pt, w float64) []pt {
	d := q.sub(p)
	if d.len() == 0 {
		return nil
	}
	n := d.unit().perp().mul(w / 2)
	return []pt{p.add(n), q.add(n), q.sub(n), p.sub(n)}
}

// circle is a polygon approximating a circle.
func circle(c pt, r float64) []pt {
	n := 16
	if r > 8 {
		n = 24
	}
	out := make([]pt, n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = pt{c.x + r*math.Cos(a), c.y + r*math.Sin(a)}
	}
	return out
}

// polyline is the polygons of a stroke along path, with round joints.
func polyline(path []pt, w float64) [][]pt {
	var out [][]pt
	for i := 0; i+1 < len(path); i++ {
		if s := segment(path[i], path[i+1], w); s != nil {
			out = append(out, s)
		}
		if i > 0 {
			out = append(out, circle(path[i], w/2))
		}
	}
	return out
}

// dashed is the polygons of a dashed stroke from p to q.
func dashed(p, q pt, w, on, off float64) [][]pt {
	l := q.sub(p).len()
	var out [][]pt
	for s := 0.0; s < l; s += on + off {
		e := math.Min(s+on, l)
		out = append(out, segment(lerp(p, q, s/l), lerp(p, q, e/l), w))
	}
	return out
}

// roundRect is a rectangle with rounded corners of radius rad.
func roundRect(x0, y0, x1, y1, rad float64) []pt {
	var out []pt
	corners := []struct{ cx, cy, a float64 }{
		{x1 - rad, y0 + rad, -math.Pi / 2}, {x1 - rad, y1 - rad, 0},
		{x0 + rad, y1 - rad, math.Pi / 2}, {x0 + rad, y0 + rad, math.Pi},
	}
	for _, c := range corners {
		for i := 0; i <= 4; i++ {
			a := c.a + math.Pi/2*float64(i)/4
			out = append(out, pt{c.cx + rad*math.Cos(a), c.cy + rad*math.Sin(a)})
		}
	}
	return out
}

// Fonts are parsed once; faces are made per rendering since they are not
// safe for concurrent use.
var (
	fontOnce          sync.Once
	fontReg, fontBold *opentype.Font
	fontErr           error
)

func loadFonts() error {
	fontOnce.Do(func() {
		fontReg, fontErr = opentype.Parse(goregular.TTF)
		if fontErr == nil {
			fontBold, fontErr = opentype.Parse(gobold.TTF)
		}
	})
	return fontErr
}

type glyph struct {
	mask    *image.Alpha
	off     image.Point // mask origin relative to the dot
	advance int
}

// face draws text at whole pixel positions from a cache of glyph masks.
type face struct {
	f      font.Face
	cache  map[rune]*glyph
	ascent int
	// size (pixels) and bold say which face it is, for a picture that
	// names its fonts instead of drawing glyphs (SVG).
	size float64
	bold bool
}

func newFace(f *opentype.Font, size float64, bold bool) (*face, error) {
	ff, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	return &face{f: ff, cache: map[rune]*glyph{}, ascent: ff.Metrics().Ascent.Ceil(), size: size, bold: bold}, nil
}

func (fc *face) glyph(r rune) *glyph {
	if g, ok := fc.cache[r]; ok {
		return g
	}
	dr, mask, mp, adv, ok := fc.f.Glyph(fixed.Point26_6{}, r)
	if !ok {
		dr, mask, mp, adv, _ = fc.f.Glyph(fixed.Point26_6{}, '?')
	}
	a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
	if mask != nil {
		draw.Draw(a, a.Bounds(), mask, mp, draw.Src)
	}
	g := &glyph{mask: a, off: dr.Min, advance: adv.Round()}
	fc.cache[r] = g
	return g
}

// width is the advance of s in pixels.
func (fc *face) width(s string) int {
	w := 0
	for _, r := range s {
		w += fc.glyph(r).advance
	}
	return w
}

// text draws s with its baseline starting at (x, y).
func (cv *canvas) text(fc *face, s string, x, y int, c color.Color) {
	cv.use(c)
	cv.u.C = c
	for _, r := range s {
		g := fc.glyph(r)
		dr := g.mask.Bounds().Add(image.Pt(x, y).Add(g.off))
		draw.DrawMask(cv.img, dr, &cv.u, image.Point{}, g.mask, image.Point{}, draw.Over)
		x += g.advance
	}
}

// centred draws s centred on x with its baseline at y.
func (cv *canvas) centred(fc *face, s string, x, y int, c color.Color) {
	cv.text(fc, s, x-fc.width(s)/2, y, c)
}

// bounds is the picture's rectangle.
func (cv *canvas) bounds() image.Rectangle { return cv.img.Bounds() }

func (cv *canvas) stroke(c color.Color, path []pt, w float64, roundCaps bool) {
	cv.fill(c, polyline(path, w)...)
	if roundCaps && len(path) > 1 {
		cv.fill(c, circle(path[0], w/2), circle(path[len(path)-1], w/2))
	}
}

// darker scales a colour towards black by k (0-1).
func darker(c color.Color, k float64) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(float64(r>>8) * k), uint8(float64(g>>8) * k), uint8(float64(b>>8) * k), 255}
}

// ink is black or white, whichever has the higher contrast on c (WCAG
// relative luminance): one of them is always above 4.5:1.
func ink(c color.Color) color.Color {
	if contrast(toRGBA(c), black) >= contrast(toRGBA(c), white) {
		return black
	}
	return white
}

var black = rgb(0x000000)

// edgeOn is the colour of the edge of a counter of colour c on ground: c
// darkened, or darker still where the ground would swallow it (at least
// 3:1 against the ground, WCAG 1.4.11).
func edgeOn(c, ground color.RGBA) color.RGBA {
	for _, k := range []float64{0.45, 0.3, 0.15} {
		if e := darker(c, k); contrast(e, ground) >= groundContrast {
			return e
		}
	}
	return black
}

// paletted turns the picture into an 8-bit one of at most n colours (up to
// 256) for a small PNG: the colours the drawing asked for are kept exactly
// and the remaining slots go to the most frequent antialiasing shades;
// other pixels take the nearest slot.
func paletted(img *image.RGBA, keep []color.RGBA, n int) *image.Paletted {
	key := func(r, g, b uint8) uint32 { return uint32(r)<<16 | uint32(g)<<8 | uint32(b) }
	counts := newColorTable()
	pix := img.Pix
	countColours(counts, pix)
	var pal []uint32
	in := map[uint32]bool{}
	for _, c := range keep {
		if k := key(c.R, c.G, c.B); !in[k] && counts.get(k) > 0 && len(pal) < n {
			in[k] = true
			pal = append(pal, k)
		}
	}
	type kc struct {
		k uint32
		n int
	}
	rest := make([]kc, 0, counts.n)
	counts.each(func(k uint32, n int) {
		if !in[k] {
			rest = append(rest, kc{k, n})
		}
	})
	sortKC := func(a, b kc) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return int(a.k) - int(b.k)
	}
	slices.SortFunc(rest, sortKC)
	for _, e := range rest {
		if len(pal) >= n {
			break
		}
		pal = append(pal, e.k)
	}
	p := make(color.Palette, len(pal))
	for i, k := range pal {
		p[i] = color.RGBA{uint8(k >> 16), uint8(k >> 8), uint8(k), 255}
	}
	// index holds palette index + 1; 0 is not yet known.
	index := newColorTable()
	for i, k := range pal {
		*index.at(k) = i + 1
	}
	nearest := func(k uint32) int {
		r, g, b := int(k>>16), int(k>>8&0xff), int(k&0xff)
		best, bestD := 0, math.MaxInt
		for i, q := range pal {
			dr, dg, db := r-int(q>>16), g-int(q>>8&0xff), b-int(q&0xff)
			if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
				best, bestD = i, d
			}
		}
		return best
	}
	b := img.Bounds()
	out := &image.Paletted{Pix: getPix(b.Dx() * b.Dy()), Stride: b.Dx(), Rect: b, Palette: p}
	last, li := uint32(1<<31), uint8(0)
	for i, j := 0, 0; i < len(pix); i, j = i+4, j+1 {
		k := key(pix[i], pix[i+1], pix[i+2])
		if k != last {
			slot := index.at(k)
			if *slot == 0 {
				*slot = nearest(k) + 1
			}
			last, li = k, uint8(*slot-1)
		}
		out.Pix[j] = li
	}
	return out
}

// colorTable maps 24-bit colours to ints with open addressing: the
// palette's hot loops run over millions of pixels, where a Go map costs
// most of the time.
type colorTable struct {
	keys []uint32 // colour + 1; 0 is empty
	vals []int
	n    int
}

// countColours adds to counts how many pixels of pix (RGBA, the alpha
// left aside) have each colour, counting a run of one colour at once.
func countColours(counts *colorTable, pix []byte) {
	last, run := uint32(1<<31), 0
	for i := 0; i+3 < len(pix); i += 4 {
		k := uint32(pix[i])<<16 | uint32(pix[i+1])<<8 | uint32(pix[i+2])
		if k == last {
			run++
			continue
		}
		if run > 0 {
			*counts.at(last) += run
		}
		last, run = k, 1
	}
	if run > 0 {
		*counts.at(last) += run
	}
}

func newColorTable() *colorTable {
	return &colorTable{keys: make([]uint32, 1<<12), vals: make([]int, 1<<12)}
}

func (t *colorTable) slot(k uint32) int {
	mask := len(t.keys) - 1
	i := int((k*2654435761)>>8) & mask
	for t.keys[i] != 0 && t.keys[i] != k+1 {
		i = (i + 1) & mask
	}
	return i
}

// at returns the value of k, adding k with 0 when missing.
func (t *colorTable) at(k uint32) *int {
	i := t.slot(k)
	if t.keys[i] == 0 {
		if 2*(t.n+1) > len(t.keys) {
			t.grow()
			i = t.slot(k)
		}
		t.keys[i] = k + 1
		t.n++
	}
	return &t.vals[i]
}

func (t *colorTable) get(k uint32) int {
	i := t.slot(k)
	if t.keys[i] == 0 {
		return 0
	}
	return t.vals[i]
}

func (t *colorTable) grow() {
	old, oldV := t.keys, t.vals
	t.keys, t.vals = make([]uint32, 2*len(old)), make([]int, 2*len(old))
	for i, k := range old {
		if k != 0 {
			j := t.slot(k - 1)
			t.keys[j], t.vals[j] = k, oldV[i]
		}
	}
}

func (t *colorTable) each(f func(k uint32, v int)) {
	for i, k := range t.keys {
		if k != 0 {
			f(k-1, t.vals[i])
		}
	}
}

// fillConvex paints a convex polygon without antialiasing: a pixel is in
// when its centre is. It is much faster than fill for large areas.
func (cv *canvas) fillConvex(c color.Color, poly []pt) {
	cv.use(c)
	pattern := cv.solid(color.RGBAModel.Convert(c).(color.RGBA))
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, p := range poly {
		minY, maxY = math.Min(minY, p.y), math.Max(maxY, p.y)
	}
	b := cv.img.Bounds()
	y0, y1 := max(int(math.Floor(minY)), b.Min.Y), min(int(math.Ceil(maxY)), b.Max.Y)
	for y := y0; y < y1; y++ {
		sy := float64(y) + 0.5
		xl, xr := math.Inf(1), math.Inf(-1)
		for i := range poly {
			p, q := poly[i], poly[(i+1)%len(poly)]
			if (p.y <= sy) == (q.y <= sy) {
				continue
			}
			x := p.x + (sy-p.y)*(q.x-p.x)/(q.y-p.y)
			xl, xr = math.Min(xl, x), math.Max(xr, x)
		}
		if xl > xr {
			continue
		}
		x0 := max(int(math.Ceil(xl-0.5)), b.Min.X)
		x1 := min(int(math.Ceil(xr-0.5)), b.Max.X)
		if x0 >= x1 {
			continue
		}
		row := cv.img.Pix[cv.img.PixOffset(x0, y):cv.img.PixOffset(x1, y)]
		copy(row, pattern)
	}
}

// solid returns a row of the picture's width in colour c, kept for reuse:
// filling a span is then one copy.
func (cv *canvas) solid(c color.RGBA) []byte {
	if p, ok := cv.rows[c]; ok {
		return p
	}
	if cv.rows == nil {
		cv.rows = map[color.RGBA][]byte{}
	}
	p := make([]byte, 4*cv.img.Bounds().Dx())
	if len(p) > 0 {
		p[0], p[1], p[2], p[3] = c.R, c.G, c.B, c.A
		for n := 4; n < len(p); n *= 2 {
			copy(p[n:], p[:n])
		}
	}
	cv.rows[c] = p
	return p
}

// line strokes a thin antialiased line of width w (about a pixel) from p to
// q, much faster than fill for the thousands of hexsides of a big map. Each
// step along the major axis covers the pixels across it by the overlap of
// the stroke's cross-section with each pixel.
func (cv *canvas) line(c color.Color, p, q pt, w float64) {
	cv.use(c)
	rc := color.RGBAModel.Convert(c).(color.RGBA)
	dx, dy := q.x-p.x, q.y-p.y
	steep := math.Abs(dy) > math.Abs(dx)
	if steep { // walk along y: swap the roles of x and y
		p, q = pt{p.y, p.x}, pt{q.y, q.x}
		dx, dy = dy, dx
	}
	if dx < 0 {
		p, q = q, p
		dx, dy = -dx, -dy
	}
	if dx == 0 {
		return
	}
	slope := dy / dx
	t := w * math.Hypot(dx, dy) / dx // thickness across the minor axis
	b := cv.img.Bounds()
	plot := func(x, y int, a float64) {
		if steep {
			x, y = y, x
		}
		if a <= 0 || !image.Pt(x, y).In(b) {
			return
		}
		i := cv.img.PixOffset(x, y)
		px := cv.img.Pix[i : i+3 : i+3]
		px[0] = uint8(float64(px[0])*(1-a) + float64(rc.R)*a + 0.5)
		px[1] = uint8(float64(px[1])*(1-a) + float64(rc.G)*a + 0.5)
		px[2] = uint8(float64(px[2])*(1-a) + float64(rc.B)*a + 0.5)
	}
	x0, x1 := int(math.Floor(p.x)), int(math.Ceil(q.x))
	for x := x0; x < x1; x++ {
		// the share of this column the segment spans
		span := math.Min(float64(x+1), q.x) - math.Max(float64(x), p.x)
		if span <= 0 {
			continue
		}
		cy := p.y + slope*(float64(x)+0.5-p.x)
		lo, hi := cy-t/2, cy+t/2
		for y := int(math.Floor(lo)); y < int(math.Ceil(hi)); y++ {
			cov := math.Min(hi, float64(y+1)) - math.Max(lo, float64(y))
			plot(x, y, math.Min(cov, 1)*span)
		}
	}
}

// parseColor reads "#rrggbb" (or "rrggbb"); anything else is def.
func parseColor(s string, def color.RGBA) color.RGBA {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(s) != 6 {
		return def
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return def
	}
	return rgb(uint32(v))
}
