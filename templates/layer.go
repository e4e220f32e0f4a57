package templates

import (
	"bytes"
	"cmp"
	"compress/flate"
	"container/list"
	"crypto/sha256"
	"encoding/json"
	"image"
	"image/color"
	"io"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// A PNG picture is drawn in two layers. The static layer is what does not
// change between the steps of a game: on a hex map the terrain, hexsides,
// hex ids and roads (the place names go where the counters leave room, so
// they are drawn with what changes); on a point-to-point map the paper,
// regions and links. It is drawn once per content (and per layout, to the
// fraction of a pixel), kept with its exact colours and their palette
// slots, its rows compressed in bands, in a cache. A picture lays it,
// draws what changes over it (the frame, counters, arrows, legend) on a
// pixel canvas that is filled with the layer's exact colours only in the
// tiles it draws on, and then quantises and compresses again only what it
// drew: the rows of the layer it left alone are sent as the layer's
// compressed bands. Before the palette, a picture's pixels are exactly
// those of the picture drawn whole (TestLayeredDrawsWhatWholeDraws); the
// palette of 256 colours is then the layer's (fitted to its colours once)
// and the most frequent colours drawn over it that no slot already shows
// closely (TestLayeredPNG).
const (
	// staticColours is how much of the 256-colour palette the static
	// layer takes; the rest is for the colours of what changes.
	staticColours = 192
	// closeEnough is how far (in each channel, of 255) a colour drawn over
	// the layer may be shown by a slot the palette already has instead of
	// taking one of its own: below the 16 at which a pixel is visibly off
	// (TestLayeredPNG), so the slots left go to colours that no slot shows
	// well. 12 rather than 16 keeps the colours it merges a margin from
	// that line; over the test pictures 8 to 16 all halve or better the
	// pixels visibly off, 12 to 14 most.
	closeEnough = 12
	// segRows is the height of a compressed band of the static layer.
	segRows = 16
	// tiles of the canvas, filled from the layers when drawn on.
	tileW, tileH = 64, 16
	// layerCacheBytes bounds the static layers kept (a 60x40 hex map's
	// takes about 8 MB).
	layerCacheBytes = 64 << 20
)

// layer is a static layer of w x h pixels: each pixel's colour exactly as
// drawn (exact, an index into colours), the palette slot it takes in a PNG
// (slot, by colour: at most staticColours slots, pal) and its rows
// compressed in bands of segRows. A picture drawn over it starts from the
// exact colours, so what it draws over the layer blends as drawing whole
// blends.
type layer struct {
	w, h    int
	exact   []uint16
	colours []uint32 // 0xrrggbb
	slot    []uint8  // by colour
	pal     []uint32
	segs    []piece
}

func (l *layer) size() int {
	n := 2*len(l.exact) + 5*len(l.colours) + 4*len(l.pal)
	for _, s := range l.segs {
		n += len(s.data)
	}
	return n
}

// newLayer quantises a static layer drawn on cv and compresses its bands.
// A drawing of more than 65,536 colours makes no layer (nil): it is drawn
// with each picture.
func newLayer(cv *canvas) (*layer, error) {
	b := cv.img.Bounds()
	l := &layer{w: b.Dx(), h: b.Dy()}
	pix, pal := quantise(cv.img, usedColours(cv), staticColours)
	l.pal = pal
	index := newColorTable()
	l.exact = make([]uint16, len(pix))
	img := cv.img.Pix
	last, li := uint32(1<<31), 0
	for i, j := 0, 0; j < len(pix); i, j = i+4, j+1 {
		k := uint32(img[i])<<16 | uint32(img[i+1])<<8 | uint32(img[i+2])
		if k != last {
			s := index.at(k)
			if *s == 0 {
				if len(l.colours) == 1<<16 {
					return nil, nil
				}
				l.colours = append(l.colours, k)
				l.slot = append(l.slot, pix[j])
				*s = len(l.colours)
			}
			last, li = k, *s-1
		}
		l.exact[j] = uint16(li)
	}
	var raws [][]byte
	for y := 0; y < l.h; y += segRows {
		y1 := min(y+segRows, l.h)
		raws = append(raws, appendRows(make([]byte, 0, (y1-y)*(l.w+1)), pix, l.w, y, y1))
	}
	var err error
	l.segs, err = compressAll(raws, flate.DefaultCompression)
	return l, err
}

// quantise turns img into at most n colours: the colours the drawing
// asked for (keep) exactly, and shades that start as the most frequent ones
// (paletted) and are then moved, a few rounds, to the mean of the colours
// they stand for (Lloyd's k-means, weighted by pixels). A static layer is
// quantised once and kept, so it can afford it: its colours come out
// closer to the drawing than the most frequent shades alone.
func quantise(img *image.RGBA, keep []color.RGBA, n int) (pix []byte, pal []uint32) {
	p := paletted(img, keep, n)
	pal = paletteKeys(p.Palette)
	putPix(p.Pix)
	key := func(r, g, b uint8) uint32 { return uint32(r)<<16 | uint32(g)<<8 | uint32(b) }
	counts := newColorTable()
	countColours(counts, img.Pix)
	type kc struct {
		k uint32
		n int
	}
	cs := make([]kc, 0, counts.n)
	counts.each(func(k uint32, n int) { cs = append(cs, kc{k, n}) })
	slices.SortFunc(cs, func(a, b kc) int { return cmp.Compare(a.k, b.k) })
	fixed := make([]bool, len(pal))
	for _, c := range keep {
		if i := slices.Index(pal, key(c.R, c.G, c.B)); i >= 0 {
			fixed[i] = true
		}
	}
	near := make([]int, len(cs))
	assign := func() {
		for j, c := range cs {
			near[j] = nearest(pal, c.k)
		}
	}
	for range 8 {
		assign()
		sums := make([][4]int, len(pal))
		for j, c := range cs {
			s := &sums[near[j]]
			s[0] += int(c.k>>16) * c.n
			s[1] += int(c.k>>8&0xff) * c.n
			s[2] += int(c.k&0xff) * c.n
			s[3] += c.n
		}
		for i, s := range sums {
			if !fixed[i] && s[3] > 0 {
				mean := func(v int) uint32 { return uint32((v + s[3]/2) / s[3]) }
				pal[i] = mean(s[0])<<16 | mean(s[1])<<8 | mean(s[2])
			}
		}
	}
	assign()
	index := newColorTable()
	for j, c := range cs {
		*index.at(c.k) = near[j]
	}
	pix = make([]byte, len(img.Pix)/4)
	last, li := uint32(1<<31), uint8(0)
	for i, j := 0, 0; i < len(img.Pix); i, j = i+4, j+1 {
		if k := key(img.Pix[i], img.Pix[i+1], img.Pix[i+2]); k != last {
			last, li = k, uint8(index.get(k))
		}
		pix[j] = li
	}
	return pix, pal
}

// within tells whether colours a and b differ by at most d in each
// channel.
func within(a, b uint32, d int) bool {
	for sh := 0; sh <= 16; sh += 8 {
		v := int(a>>sh&0xff) - int(b>>sh&0xff)
		if v > d || v < -d {
			return false
		}
	}
	return true
}

// nearest is the slot of pal closest to colour k, by a distance weighted
// for the eye.
func nearest(pal []uint32, k uint32) int {
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

// usedColours are the flat colours drawn on cv, in a fixed order.
func usedColours(cv *canvas) []color.RGBA {
	keep := make([]color.RGBA, 0, len(cv.used))
	for c := range cv.used {
		keep = append(keep, c)
	}
	slices.SortFunc(keep, func(a, b color.RGBA) int {
		return cmp.Or(cmp.Compare(a.R, b.R), cmp.Compare(a.G, b.G), cmp.Compare(a.B, b.B))
	})
	return keep
}

func paletteKeys(p color.Palette) []uint32 {
	out := make([]uint32, len(p))
	for i, c := range p {
		r, g, b, _ := c.RGBA()
		out[i] = (r>>8)<<16 | (g>>8)<<8 | b>>8
	}
	return out
}

// layerCache keeps static layers by content, least recently used first
// out, up to max bytes. Two pictures that need a layer not kept yet at the
// same time draw it once.
type layerCache struct {
	mu    sync.Mutex
	max   int
	size  int
	byKey map[[32]byte]*list.Element
	lru   list.List // of *layerEntry, most recent first
	drawn atomic.Int64
}

type layerEntry struct {
	key  [32]byte
	once sync.Once
	l    *layer
	svg  []byte // an SVG picture's static layer (svgStatic)
	err  error
	size int
}

// layers is the process's cache of static layers.
var layers = newLayerCache(layerCacheBytes)

func newLayerCache(max int) *layerCache {
	return &layerCache{max: max, byKey: map[[32]byte]*list.Element{}}
}

// get returns the layer of key, drawing it with draw when it is not kept.
func (c *layerCache) get(key [32]byte, draw func() (*layer, error)) (*layer, error) {
	e := c.entry(key, func(e *layerEntry) {
		e.l, e.err = draw()
		if e.l != nil {
			e.size = e.l.size()
		}
	})
	return e.l, e.err
}

// getSVG returns the SVG elements of an SVG picture's static layer of key
// (a key apart from any PNG layer's), drawing them with draw when they are
// not kept.
func (c *layerCache) getSVG(key [32]byte, draw func() ([]byte, error)) ([]byte, error) {
	e := c.entry(key, func(e *layerEntry) {
		e.svg, e.err = draw()
		e.size = len(e.svg)
	})
	return e.svg, e.err
}

// entry returns the entry of key, filled by fill (which sets its value,
// err and size) when it is new.
func (c *layerCache) entry(key [32]byte, fill func(e *layerEntry)) *layerEntry {
	c.mu.Lock()
	el, ok := c.byKey[key]
	if ok {
		c.lru.MoveToFront(el)
	} else {
		el = c.lru.PushFront(&layerEntry{key: key})
		c.byKey[key] = el
	}
	e := el.Value.(*layerEntry)
	c.mu.Unlock()
	e.once.Do(func() {
		fill(e)
		c.drawn.Add(1)
		c.mu.Lock()
		defer c.mu.Unlock()
		if e.err != nil {
			if cur, ok := c.byKey[key]; ok && cur == el {
				c.lru.Remove(el)
				delete(c.byKey, key)
			}
			return
		}
		c.size += e.size
		for c.size > c.max && c.lru.Len() > 1 {
			old := c.lru.Back()
			if old == el {
				break
			}
			oe := old.Value.(*layerEntry)
			c.lru.Remove(old)
			delete(c.byKey, oe.key)
			c.size -= oe.size
		}
	})
	return e
}

// reset forgets every layer (tests).
func (c *layerCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byKey = map[[32]byte]*list.Element{}
	c.lru.Init()
	c.size = 0
}

// static draws what does not change between steps: the rows top..top+h of
// the picture, full width, drawn by draw from content (everything draw
// reads besides the layout). On a layered canvas it is drawn once per
// content and layout and laid from the cache; on any other surface it is
// simply drawn.
func (r *renderer) static(top, h int, content any, draw func()) error {
	if sv, ok := r.cv.(*svgSurface); ok {
		return r.svgStatic(sv, top, h, content, draw)
	}
	ls, ok := r.cv.(*layered)
	if !ok || top < 0 || top+h > ls.h {
		draw()
		return nil
	}
	// the layout: where the map lies on the picture, to the fraction of a
	// pixel, so the layer's antialiasing is the whole drawing's. The
	// picture's height is not part of it: the legend under the map (with
	// its list of stacks) grows and shrinks from step to step.
	key, err := r.layerKey(ls.w, top, h, content, "png")
	if err != nil {
		return err
	}
	l, err := layers.get(key, func() (*layer, error) {
		// drawn on a white canvas of the whole picture's size, with the
		// picture's own coordinates, and cut to its rows.
		cv := newCanvas(ls.w, ls.h)
		defer putPix(cv.img.Pix)
		cv.rect(cv.bounds(), white)
		saved := r.cv
		r.cv = cv
		draw()
		r.cv = saved
		band := &canvas{used: cv.used, img: &image.RGBA{
			Pix: cv.img.Pix[top*cv.img.Stride : (top+h)*cv.img.Stride], Stride: cv.img.Stride, Rect: image.Rect(0, 0, ls.w, h),
		}}
		return newLayer(band)
	})
	if err != nil {
		return err
	}
	if l == nil {
		// too many colours to keep: drawn on the picture itself.
		draw()
		return nil
	}
	ls.lay(l, top)
	return nil
}

// layerKey names a static layer by its layout: where the map lies on the
// picture, to the fraction of a pixel, so the layer's antialiasing is the
// whole drawing's, and content; kind keeps a PNG's and an SVG's apart. The
// picture's height is not part of it: the legend under the map (with its
// list of stacks) grows and shrinks from step to step.
func (r *renderer) layerKey(w, top, h int, content any, kind string) ([32]byte, error) {
	geo := struct {
		Kind           string
		W, Top, Rows   int
		OX, OY, NX, NY float64
		Content        any
	}{kind, w, top, h, r.ox, r.oy, r.nx, r.ny, content}
	data, err := json.Marshal(geo)
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(data), nil
}

// svgStatic is static on an SVG surface: the elements draw writes are
// kept in the cache of layers (by the same layout and content as a PNG's,
// apart from it) and copied into the next picture of the game, so that an
// SVG picture writes only what changes. The elements before and after are
// closed, so the kept ones stand alone: a picture is the same whether its
// layer was kept or drawn.
func (r *renderer) svgStatic(sv *svgSurface, top, h int, content any, draw func()) error {
	key, err := r.layerKey(sv.w, top, h, content, "svg")
	if err != nil {
		return err
	}
	sv.flush()
	els, err := layers.getSVG(key, func() ([]byte, error) {
		saved := sv.b
		sv.b = bytes.Buffer{}
		draw()
		sv.flush()
		els := sv.b.Bytes()
		sv.b = saved
		return els, nil
	})
	if err != nil {
		return err
	}
	sv.b.Write(els)
	return nil
}

// layered is the pixel surface of a PNG picture: an RGBA canvas that holds
// only the tiles drawn on (live), over a background colour and a static
// layer laid at row top. It draws exactly what a canvas draws.
type layered struct {
	cv     *canvas
	w, h   int
	tx, ty int // tiles across and down
	live   []bool
	nLive  int
	bg     color.RGBA
	base   *layer
	top    int
}

func newLayered(w, h int) *layered {
	tx, ty := (w+tileW-1)/tileW, (h+tileH-1)/tileH
	return &layered{cv: newCanvas(w, h), w: w, h: h, tx: tx, ty: ty, live: make([]bool, tx*ty), bg: white}
}

// release gives the canvas's pixels back to the pool.
func (l *layered) release() { putPix(l.cv.img.Pix) }

func (l *layered) bounds() image.Rectangle { return image.Rect(0, 0, l.w, l.h) }

// inBase tells whether row y lies in the static layer.
func (l *layered) inBase(y int) bool { return l.base != nil && y >= l.top && y < l.top+l.base.h }

// under writes into the canvas the colours under pixels x0..x1 of row y:
// the static layer's or the background.
func (l *layered) under(y, x0, x1 int) {
	dst := l.cv.img.Pix[l.cv.img.PixOffset(x0, y):l.cv.img.PixOffset(x1, y)]
	if l.inBase(y) {
		b := l.base
		for i, v := range b.exact[(y-l.top)*b.w+x0 : (y-l.top)*b.w+x1] {
			c := b.colours[v]
			dst[4*i], dst[4*i+1], dst[4*i+2], dst[4*i+3] = uint8(c>>16), uint8(c>>8), uint8(c), 255
		}
		return
	}
	if len(dst) == 0 {
		return
	}
	dst[0], dst[1], dst[2], dst[3] = l.bg.R, l.bg.G, l.bg.B, l.bg.A
	for n := 4; n < len(dst); n *= 2 {
		copy(dst[n:], dst[:n])
	}
}

func (l *layered) tile(tx, ty int) (x0, y0, x1, y1 int) {
	return tx * tileW, ty * tileH, min((tx+1)*tileW, l.w), min((ty+1)*tileH, l.h)
}

// promote makes the tiles that r touches live, filled with what lies
// under them.
func (l *layered) promote(r image.Rectangle) {
	r = r.Intersect(l.bounds())
	if r.Empty() {
		return
	}
	for ty := r.Min.Y / tileH; ty <= (r.Max.Y-1)/tileH; ty++ {
		for tx := r.Min.X / tileW; tx <= (r.Max.X-1)/tileW; tx++ {
			i := ty*l.tx + tx
			if l.live[i] {
				continue
			}
			l.live[i] = true
			l.nLive++
			x0, y0, x1, y1 := l.tile(tx, ty)
			for y := y0; y < y1; y++ {
				l.under(y, x0, x1)
			}
		}
	}
}

// lay puts the static layer b at row top, under the live tiles too.
func (l *layered) lay(b *layer, top int) {
	l.base, l.top = b, top
	for i, on := range l.live {
		if !on {
			continue
		}
		x0, y0, x1, y1 := l.tile(i%l.tx, i/l.tx)
		for y := max(y0, top); y < min(y1, top+b.h); y++ {
			l.under(y, x0, x1)
		}
	}
}

// polyBounds is the box of the pixels a polygon touches, grown by pad.
func polyBounds(pad float64, polys ...[]pt) image.Rectangle {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range polys {
		for _, q := range p {
			minX, minY = math.Min(minX, q.x), math.Min(minY, q.y)
			maxX, maxY = math.Max(maxX, q.x), math.Max(maxY, q.y)
		}
	}
	if minX > maxX {
		return image.Rectangle{}
	}
	return image.Rect(int(math.Floor(minX-pad)), int(math.Floor(minY-pad)), int(math.Ceil(maxX+pad)), int(math.Ceil(maxY+pad)))
}

// textBounds is the box of the glyphs of s drawn at (x, y).
func textBounds(fc *face, s string, x, y int) image.Rectangle {
	var r image.Rectangle
	for _, c := range s {
		g := fc.glyph(c)
		r = r.Union(g.mask.Bounds().Add(image.Pt(x, y).Add(g.off)))
		x += g.advance
	}
	return r
}

func (l *layered) fill(c color.Color, polys ...[]pt) {
	for _, p := range polys {
		l.promote(polyBounds(1, p))
	}
	l.cv.fill(c, polys...)
}

func (l *layered) fillConvex(c color.Color, poly []pt) {
	l.promote(polyBounds(1, poly))
	l.cv.fillConvex(c, poly)
}

func (l *layered) stroke(c color.Color, path []pt, w float64, roundCaps bool) {
	l.promote(polyBounds(w/2+2, path))
	l.cv.stroke(c, path, w, roundCaps)
}

func (l *layered) rect(r image.Rectangle, c color.Color) {
	if l.nLive == 0 && l.base == nil && r.Intersect(l.bounds()) == l.bounds() {
		// the whole picture in one colour: the background.
		l.bg = color.RGBAModel.Convert(c).(color.RGBA)
		l.cv.use(c)
		return
	}
	l.promote(r)
	l.cv.rect(r, c)
}

func (l *layered) line(c color.Color, p, q pt, w float64) {
	l.promote(polyBounds(w+2, []pt{p, q}))
	l.cv.line(c, p, q, w)
}

func (l *layered) text(fc *face, s string, x, y int, c color.Color) {
	l.promote(textBounds(fc, s, x, y))
	l.cv.text(fc, s, x, y, c)
}

func (l *layered) centred(fc *face, s string, x, y int, c color.Color) {
	l.text(fc, s, x-fc.width(s)/2, y, c)
}

func (l *layered) haloText(fc *face, s string, x, y int, c, halo color.Color) {
	l.promote(textBounds(fc, s, x-fc.width(s)/2, y).Inset(-1))
	l.cv.haloText(fc, s, x, y, c, halo)
}

// encode writes the picture as a PNG. The palette is the static layer's,
// then the flat colours drawn over it, then the most frequent other
// colours of what was drawn, up to 256: a colour within closeEnough of a
// slot taken before it is shown by that slot and takes none, so the side
// colours of many small things drawn over the layer (the antialiased
// edges of counters and their text) do not use up the slots. A colour
// without a slot takes the nearest. Rows where nothing was drawn over the
// static layer are its compressed bands.
func (l *layered) encode(w io.Writer) error {
	key := func(r, g, b uint8) uint32 { return uint32(r)<<16 | uint32(g)<<8 | uint32(b) }
	pix := l.cv.img.Pix
	stride := l.cv.img.Stride
	counts := newColorTable()
	bgCount := 0
	for ty := range l.ty {
		for tx := range l.tx {
			x0, y0, x1, y1 := l.tile(tx, ty)
			if !l.live[ty*l.tx+tx] {
				for y := y0; y < y1; y++ {
					if !l.inBase(y) {
						bgCount += x1 - x0
					}
				}
				continue
			}
			for y := y0; y < y1; y++ {
				countColours(counts, pix[y*stride+4*x0:y*stride+4*x1])
			}
		}
	}
	bgKey := key(l.bg.R, l.bg.G, l.bg.B)
	if bgCount > 0 {
		*counts.at(bgKey) += bgCount
	}

	// the palette, and each colour's slot + 1.
	var pal []uint32
	index := newColorTable()
	add := func(k uint32) {
		if len(pal) < 256 && index.get(k) == 0 {
			pal = append(pal, k)
			*index.at(k) = len(pal)
		}
	}
	if l.base != nil {
		// at the slots the layer's pixels hold, even a colour twice.
		for _, k := range l.base.pal {
			pal = append(pal, k)
			if index.get(k) == 0 {
				*index.at(k) = len(pal)
			}
		}
	}
	for _, c := range usedColours(l.cv) {
		if k := key(c.R, c.G, c.B); counts.get(k) > 0 {
			add(k)
		}
	}
	type kc struct {
		k uint32
		n int
	}
	rest := make([]kc, 0, counts.n)
	counts.each(func(k uint32, n int) {
		if index.get(k) == 0 {
			rest = append(rest, kc{k, n})
		}
	})
	slices.SortFunc(rest, func(a, b kc) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.k, b.k)) })
	for _, e := range rest {
		if len(pal) == 256 {
			break
		}
		// close enough to a slot taken: shown by it.
		if n := nearest(pal, e.k); len(pal) > 0 && within(pal[n], e.k, closeEnough) {
			*index.at(e.k) = n + 1
			continue
		}
		add(e.k)
	}
	slot := func(k uint32) uint8 {
		s := index.at(k)
		if *s == 0 {
			*s = nearest(pal, k) + 1
		}
		return uint8(*s - 1)
	}
	bgSlot := slot(bgKey)

	// rows: the static layer's bands where nothing was drawn, the rest
	// fresh.
	rowLive := make([]bool, l.ty)
	for i, on := range l.live {
		if on {
			rowLive[i/l.tx] = true
		}
	}
	clean := func(y0, y1 int) bool {
		for ty := y0 / tileH; ty <= (y1-1)/tileH; ty++ {
			if rowLive[ty] {
				return false
			}
		}
		return true
	}
	type part struct {
		y0, y1 int
		seg    int // a band of the static layer, or -1: fresh rows
	}
	var parts []part
	for y := 0; y < l.h; {
		if l.inBase(y) && (y-l.top)%segRows == 0 {
			k := (y - l.top) / segRows
			y1 := l.top + min((k+1)*segRows, l.base.h)
			if clean(y, y1) {
				parts = append(parts, part{y, y1, k})
				y = y1
				continue
			}
		}
		if n := len(parts); n > 0 && parts[n-1].seg < 0 && parts[n-1].y1-parts[n-1].y0 < 128 {
			parts[n-1].y1++
		} else {
			parts = append(parts, part{y, y + 1, -1})
		}
		y++
	}
	row := func(raw []byte, y int) []byte {
		raw = append(raw, 0)
		for tx := range l.tx {
			x0, _, x1, _ := l.tile(tx, y/tileH)
			switch {
			case l.live[(y/tileH)*l.tx+tx]:
				last, li := uint32(1<<31), uint8(0)
				for i := y*stride + 4*x0; i < y*stride+4*x1; i += 4 {
					if k := key(pix[i], pix[i+1], pix[i+2]); k != last {
						last, li = k, slot(k)
					}
					raw = append(raw, li)
				}
			case l.inBase(y):
				off := (y - l.top) * l.base.w
				for _, v := range l.base.exact[off+x0 : off+x1] {
					raw = append(raw, l.base.slot[v])
				}
			default:
				for range x1 - x0 {
					raw = append(raw, bgSlot)
				}
			}
		}
		return raw
	}
	var raws [][]byte
	for _, p := range parts {
		if p.seg >= 0 {
			continue
		}
		raw := make([]byte, 0, (p.y1-p.y0)*(l.w+1))
		for y := p.y0; y < p.y1; y++ {
			raw = row(raw, y)
		}
		raws = append(raws, raw)
	}
	// the rows drawn for this picture alone are compressed at flate's
	// fastest level: compressing is most of a picture's cost, and the
	// fastest level draws a fifth more pictures per CPU-second for a
	// PNG a seventh bigger (the 60x40 test map's 330 KB become 377 KB;
	// .ci/bench-render, docs/templates.md). The static layer's bands,
	// compressed once per game, keep the default level.
	fresh, err := compressAll(raws, flate.BestSpeed)
	if err != nil {
		return err
	}
	pieces := make([]piece, 0, len(parts))
	for _, p := range parts {
		if p.seg >= 0 {
			pieces = append(pieces, l.base.segs[p.seg])
			continue
		}
		pieces = append(pieces, fresh[0])
		fresh = fresh[1:]
	}
	return writePNG(w, l.w, l.h, pal, pieces)
}
