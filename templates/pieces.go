package templates

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// This file holds what both kinds of map picture share: the frame (title,
// notice, tracks, legend), counters and stacks, and arrows.

// DefaultTerrainColors are flat colours for common terrain names.
var DefaultTerrainColors = map[string]color.Color{
	"clear":    rgb(0xf1eedf),
	"forest":   rgb(0xa9cf8e),
	"woods":    rgb(0xa9cf8e),
	"rough":    rgb(0xd9c79a),
	"hills":    rgb(0xd9c79a),
	"mountain": rgb(0xb59a7a),
	"marsh":    rgb(0xa8d5cf),
	"swamp":    rgb(0xa8d5cf),
	"urban":    rgb(0xc7c2c8),
	"city":     rgb(0xc7c2c8),
	"water":    rgb(0x8fbfe6),
	"lake":     rgb(0x8fbfe6),
	"sea":      rgb(0x8fbfe6),
	"river":    rgb(0xb9dcf2),
}

func rgb(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255} }

var (
	white       = rgb(0xffffff)
	hexLine     = rgb(0x8a877c)
	idInk       = rgb(0x5c5a52)
	riverBlue   = rgb(0x2f78c4)
	ridgeBrown  = rgb(0x7b4a1e)
	borderRed   = rgb(0xd0202a)
	boundaryInk = rgb(0x6a2a8a)
	bridgeInk   = rgb(0x2b2b2b)
	roadBrown   = rgb(0x9a6a3a)
	highwayRed  = rgb(0xd9542b)
	railInk     = rgb(0x222222)
	moveInk     = rgb(0x1b1b1b)
	attackRed   = rgb(0xe01b1b)
	titleBg     = rgb(0x27313d)
	titleSub    = rgb(0xc9d1da)
	markerBg    = rgb(0xffd83a)
	badgeBg     = rgb(0x1b1b1b)
	legendLine  = rgb(0x555555)
	unknownTerr = rgb(0xe0e0e0)
	textInk     = rgb(0x111111)
	noticeBg    = rgb(0xffe69a)
	noticeLine  = rgb(0xc99a1a)
	noticeInk   = rgb(0x4a3300)
	tracksBg    = rgb(0xe9edf1)
	tracksLine  = rgb(0xb7c0ca)
	gaugeEmpty  = rgb(0xffffff)
	gaugePast   = rgb(0xa9bfd6)
)

// Layout of the picture, in pixels.
const (
	hexRadius   = 24.0 // corner to centre
	margin      = 14
	titleH      = 42
	noticeH     = 24
	noticeLineH = 16 // each further line of a long notice
	trackRowH   = 28
	minWidth    = 560 // a cropped map still has room for the title
	maxTitleW   = 960 // the title widens a narrow map up to this
	minFont     = 10  // no text is smaller, in pixels
)

// RenderPNG draws the map and writes it as a PNG. A picture with a Grid is
// a hex map, one with a Network a point-to-point map. On a point-to-point
// map a legend item whose Terrain is "key" shows a key space. What does not
// change between the steps of a game (the map's static layer) is drawn
// once and kept (layer.go): the picture is the same as drawn whole.
func RenderPNG(m board.Picture, w io.Writer) error {
	var ls *layered
	_, err := render(m, func(width, height int) surface {
		ls = newLayered(width, height)
		return ls
	})
	if ls != nil {
		defer ls.release()
	}
	if err != nil {
		return err
	}
	return ls.encode(w)
}

// pixPool recycles picture buffers: a big map is 16 MB of pixels, and
// allocating (and collecting) that for every picture costs as much time as
// drawing it.
var pixPool sync.Pool

// getPix returns a buffer of n bytes with unspecified contents.
func getPix(n int) []byte {
	if b, ok := pixPool.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]byte, n)
}

func putPix(b []byte) { pixPool.Put(&b) }

// Render draws the map.
func Render(m board.Picture) (*image.RGBA, error) {
	r, err := render(m, pixels)
	if err != nil {
		return nil, err
	}
	return r.cv.(*canvas).img, nil
}

// pixels makes the surface of a PNG picture.
func pixels(w, h int) surface { return newCanvas(w, h) }

// render lays the picture out and draws it on the surface mk makes.
func render(m board.Picture, mk func(w, h int) surface) (*renderer, error) {
	return renderOn(m, nil, mk)
}

// renderOn is render on the map image img when m carries board.Art
// (mapart.go); nil img draws the map.
func renderOn(m board.Picture, img *MapImage, mk func(w, h int) surface) (*renderer, error) {
	var art *mapArt
	if m.Art != nil && img != nil {
		art = &mapArt{art: m.Art, img: img}
	}
	switch {
	case m.Grid != nil && m.Network != nil:
		return nil, fmt.Errorf("templates: map: both a hex grid and a network: draw one")
	case m.Grid != nil:
		return renderHex(m, art, mk)
	case m.Network != nil:
		return renderNetwork(m, art, mk)
	}
	return nil, fmt.Errorf("templates: map: no hex grid and no network to draw")
}

type renderer struct {
	m     board.Picture
	art   *mapArt // the map image under the map; nil for the drawn map
	cv    surface
	newCV func(w, h int) surface
	faces

	// the legend, laid out by frame and drawn by finish
	legendRows [][]board.LegendItem
	legendY    int
	width      int

	// a hex map
	g      board.Grid
	ox, oy float64           // pixel position of the unit layout origin
	shown  map[board.ID]bool // the hexes drawn when cropped; nil for all

	// a point-to-point map
	net     *board.Network
	spaces  map[string]*board.Space
	nx, ny  float64 // pixel position of the network's origin
	nk      float64 // how much larger than its coordinates the network is drawn
	bridges map[string][][2]pt

	// lay is where what a reader must make out was put (layout.go).
	lay layout
	// hexStacks are the stacks of the map, on their hex or beside their
	// space (hexstack.go).
	hexStacks []hexStack
	// placed are the place names of a hex map where they go.
	placed []placedLabel
	// netLabels are the space names of a point-to-point map where they go.
	netLabels []netLabel
}

type faces struct {
	fID     *face // hex ids
	fSmall  *face // counter ids, markers, legend
	fType   *face // counter type
	fStr    *face // counter strength
	fLabel  *face // place names
	fTitle  *face
	fSub    *face
	fNotice *face
	fTrack  *face // track names
	fValue  *face // track values
	fKey    *face // key space names
	fRegion *face // region names
}

// sizes returns the faces made for a rendering and their sizes in pixels.
func (f *faces) sizes() []struct {
	dst  **face
	bold bool
	size float64
} {
	return []struct {
		dst  **face
		bold bool
		size float64
	}{
		{&f.fID, false, 10}, {&f.fSmall, false, 10}, {&f.fType, true, 12}, {&f.fStr, true, 11},
		{&f.fLabel, true, 11}, {&f.fTitle, true, 18}, {&f.fSub, false, 12}, {&f.fNotice, true, 12},
		{&f.fTrack, false, 11}, {&f.fValue, true, 12}, {&f.fKey, true, 12}, {&f.fRegion, true, 12},
	}
}

func newRenderer(m board.Picture, mk func(w, h int) surface) (*renderer, error) {
	if err := loadFonts(); err != nil {
		return nil, fmt.Errorf("templates: fonts: %w", err)
	}
	r := &renderer{m: m, newCV: mk}
	for _, f := range r.sizes() {
		fnt := fontReg
		if f.bold {
			fnt = fontBold
		}
		var err error
		if *f.dst, err = newFace(fnt, f.size, f.bold); err != nil {
			return nil, fmt.Errorf("templates: fonts: %w", err)
		}
	}
	return r, nil
}

// frame sizes the picture around a map area of mapW x mapH pixels, makes
// the canvas and draws the header; it returns the top left corner of the
// map area. The legend is drawn by finish.
func (r *renderer) frame(mapW, mapH int, legend []board.LegendItem) (x0, y0 int) {
	titleW := r.fTitle.width(r.m.Title) + 2*margin
	if r.m.Subtitle != "" {
		titleW = min(titleW+16+r.fSub.width(r.m.Subtitle), maxTitleW)
	}
	width := max(mapW+2*margin, minWidth, titleW)
	tracks := r.layoutTracks(width - 2*margin)
	headerH := titleH
	var notice []string
	if r.m.Notice != "" {
		notice = r.wrapText(r.fNotice, r.m.Notice, width-2*margin-24)
		headerH += noticeHeight(len(notice))
	}
	headerH += trackRowH * len(tracks)
	r.legendRows = r.layoutLegend(legend, width-2*margin)
	legendH := 0
	if len(r.legendRows) > 0 {
		legendH = 26 + 24*len(r.legendRows) + margin
	}
	height := headerH + margin + mapH + margin + legendH
	// a pixel buffer may hold an earlier picture: the white fill below
	// covers every pixel.
	r.cv = r.newCV(width, height)
	r.width = width
	r.legendY = headerH + margin + mapH + margin
	r.lay.picture = box{0, 0, float64(width), float64(height)}
	r.lay.mapArea = box{0, float64(headerH), float64(width), float64(r.legendY)}
	for _, row := range r.legendRows {
		r.lay.legend = append(r.lay.legend, row...)
	}
	r.cv.rect(r.cv.bounds(), white)
	r.title(width)
	y := titleH
	if len(notice) > 0 {
		r.notice(y, width, notice)
		y += noticeHeight(len(notice))
	}
	r.tracks(tracks, y, width)
	return (width - mapW) / 2, headerH + margin
}

func (r *renderer) finish() {
	if len(r.legendRows) > 0 {
		r.legend(r.legendRows, r.legendY, r.width)
	}
}

func (r *renderer) terrainColor(t string) color.Color {
	if c, ok := r.m.TerrainColors[t]; ok {
		return parseColor(c, unknownTerr)
	}
	if c, ok := DefaultTerrainColors[t]; ok {
		return c
	}
	return unknownTerr
}

func (r *renderer) title(width int) {
	r.cv.rect(image.Rect(0, 0, width, titleH), titleBg)
	r.cv.text(r.fTitle, r.m.Title, margin, 27, white)
	if r.m.Subtitle != "" {
		x := margin + r.fTitle.width(r.m.Title) + 16
		r.cv.text(r.fSub, clip(r.fSub, r.m.Subtitle, width-margin-x), x, 27, titleSub)
	}
}

// noticeHeight is the height of a notice band of n lines.
func noticeHeight(n int) int { return noticeH + noticeLineH*(n-1) }

// wrapText breaks s into lines no wider than width pixels in face fc; a
// word wider than the line stands alone.
func (r *renderer) wrapText(fc *face, s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if line != "" && fc.width(try) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		line = try
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// notice draws a band under the title that cannot be missed, with lines.
func (r *renderer) notice(y, width int, lines []string) {
	h := noticeHeight(len(lines))
	r.cv.rect(image.Rect(0, y, width, y+h), noticeBg)
	r.cv.rect(image.Rect(0, y+h-1, width, y+h), noticeLine)
	// a warning sign: a triangle with an exclamation mark.
	c := pt{margin + 8, float64(y) + noticeH/2}
	tri := []pt{{c.x, c.y - 8}, {c.x + 9, c.y + 7}, {c.x - 9, c.y + 7}}
	r.cv.fill(noticeInk, tri)
	r.cv.fill(noticeBg, segment(pt{c.x, c.y - 3}, pt{c.x, c.y + 2}, 2), circle(pt{c.x, c.y + 4.5}, 1.1))
	for i, l := range lines {
		r.cv.text(r.fNotice, l, margin+24, y+17+noticeLineH*i, noticeInk)
	}
}

// trackChip is the width of a track's name, gauge and value.
type trackChip struct {
	t                   board.Track
	nameW, gaugeW, valW int
}

func (c trackChip) width() int { return c.nameW + 6 + c.gaugeW + c.valW + 22 }

func (r *renderer) trackValue(t board.Track) string {
	switch {
	case t.Text != "":
		return t.Text
	case t.Max > 0:
		return strconv.Itoa(t.Value) + "/" + strconv.Itoa(t.Max)
	}
	return strconv.Itoa(t.Value)
}

// gaugeCells is the number of boxes of a track's gauge; 0 for a bar.
func gaugeCells(t board.Track) int {
	if n := t.Max - t.Min + 1; n <= 20 {
		return n
	}
	return 0
}

func (r *renderer) layoutTracks(width int) [][]trackChip {
	var rows [][]trackChip
	x := 0
	for _, t := range r.m.Tracks {
		c := trackChip{t: t, nameW: r.fTrack.width(t.Name), valW: r.fValue.width(r.trackValue(t))}
		if t.Max > 0 && t.Max > t.Min {
			if n := gaugeCells(t); n > 0 {
				c.gaugeW = n*8 + 1 + 6
			} else {
				c.gaugeW = 100 + 6
			}
		}
		if len(rows) == 0 || (x+c.width() > width && x > 0) {
			rows = append(rows, nil)
			x = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], c)
		x += c.width()
	}
	return rows
}

// tracks draws the strip of tracks: a name, a gauge when the track has an
// end, and the value.
func (r *renderer) tracks(rows [][]trackChip, y0, width int) {
	if len(rows) == 0 {
		return
	}
	h := trackRowH * len(rows)
	r.cv.rect(image.Rect(0, y0, width, y0+h), tracksBg)
	r.cv.rect(image.Rect(0, y0+h-1, width, y0+h), tracksLine)
	for i, row := range rows {
		y := y0 + trackRowH*i
		base := y + 18
		x := margin
		for j, c := range row {
			if j > 0 {
				r.cv.rect(image.Rect(x-11, y+6, x-10, y+trackRowH-6), tracksLine)
			}
			r.cv.text(r.fTrack, c.t.Name, x, base, rgb(0x3b4654))
			x += c.nameW + 6
			if c.gaugeW > 0 {
				r.gauge(c.t, float64(x), float64(y)+9)
				x += c.gaugeW
			}
			r.cv.text(r.fValue, r.trackValue(c.t), x, base, textInk)
			x += c.valW + 22
		}
	}
}

// gauge draws a track from Min to Max with the value marked, 10 px high
// with its top at y.
func (r *renderer) gauge(t board.Track, x, y float64) {
	if n := gaugeCells(t); n > 0 {
		r.cv.fill(rgb(0x6b7684), roundRect(x, y, x+float64(n*8)+1, y+11, 1.5))
		for i := range n {
			v := t.Min + i
			col := gaugeEmpty
			switch {
			case v == t.Value:
				col = titleBg
			case v < t.Value:
				col = gaugePast
			}
			cx := x + float64(i*8) + 1
			r.cv.fill(col, [][]pt{{{cx, y + 1}, {cx + 7, y + 1}, {cx + 7, y + 10}, {cx, y + 10}}}...)
		}
		return
	}
	f := math.Max(0, math.Min(1, float64(t.Value-t.Min)/float64(t.Max-t.Min)))
	r.cv.fill(rgb(0x6b7684), roundRect(x, y, x+100, y+11, 2))
	r.cv.fill(gaugeEmpty, roundRect(x+1, y+1, x+99, y+10, 1.5))
	if f > 0 {
		r.cv.fill(gaugePast, [][]pt{{{x + 1, y + 1}, {x + 1 + 98*f, y + 1}, {x + 1 + 98*f, y + 10}, {x + 1, y + 10}}}...)
	}
	tx := x + 1 + 98*f
	r.cv.fill(titleBg, segment(pt{tx, y - 1}, pt{tx, y + 12}, 3))
}

// stack is the counters on one hex or space, bottom first.
type stack []board.Counter

// groupStacks groups counters by key, keeping the order of first appearance.
func groupStacks[K comparable](cs []board.Counter, key func(board.Counter) K) []stack {
	idx := map[K]int{}
	var out []stack
	for _, c := range cs {
		k := key(c)
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], c)
	}
	return out
}

// arrowPolys is a shaft of width w from p to a head whose tip is at q.
func arrowPolys(p, q pt, w, headL, headW float64) [][]pt {
	u := q.sub(p).unit()
	n := u.perp()
	b := q.sub(u.mul(headL))
	return [][]pt{
		segment(p, b.add(u.mul(1)), w),
		{b.add(n.mul(headW / 2)), q, b.sub(n.mul(headW / 2))},
	}
}

func (r *renderer) drawArrow(kind string, p, q pt) {
	col := arrowInk(kind)
	if kind == board.AirMove {
		// a flight: a dashed shaft.
		u := q.sub(p).unit()
		b := q.sub(u.mul(13))
		r.cv.fill(white, dashed(p.sub(u.mul(1.5)), b, 6.5, 9, 4)...)
		r.cv.fill(white, arrowPolys(b.sub(u.mul(1)), q.add(u.mul(2.5)), 6.5, 17, 17)...)
		r.cv.fill(col, dashed(p, b, 3.5, 8, 5)...)
		r.cv.fill(col, arrowPolys(b, q, 3.5, 13, 12)...)
		return
	}
	// a white halo keeps the arrow readable over counters and terrain.
	halo := arrowPolys(p.sub(q.sub(p).unit().mul(1.5)), q.add(q.sub(p).unit().mul(2.5)), 6.5, 17, 17)
	r.cv.fill(white, halo...)
	r.cv.fill(col, arrowPolys(p, q, 3.5, 13, 12)...)
}

// drawPathArrow draws an arrow along ps, its head at the last point.
func (r *renderer) drawPathArrow(kind string, ps []pt) {
	n := len(ps)
	if n == 2 {
		r.drawArrow(kind, ps[0], ps[1])
		return
	}
	col := arrowInk(kind)
	p, q := ps[n-2], ps[n-1]
	u := q.sub(p).unit()
	r.cv.fill(white, polyline(ps[:n-1], 6.5)...)
	r.cv.fill(white, arrowPolys(p.sub(u.mul(1.5)), q.add(u.mul(2.5)), 6.5, 17, 17)...)
	r.cv.fill(col, polyline(ps[:n-1], 3.5)...)
	r.cv.fill(col, arrowPolys(p, q, 3.5, 13, 12)...)
}

// arrowInk is the colour of an arrow of kind.
func arrowInk(kind string) color.RGBA {
	if kind == board.Attack {
		return attackRed
	}
	return moveInk
}

// legendItems is m.Legend or, when empty, keys for what the map shows.
func (r *renderer) legendItems() []board.LegendItem {
	var out []board.LegendItem
	seen := map[string]bool{}
	add := func(key string, it board.LegendItem) {
		if !seen[key] {
			seen[key] = true
			out = append(out, it)
		}
	}
	if len(r.m.Legend) > 0 {
		// the game's items for what is drawn, its notes, then a key for
		// each side, terrain, line and arrow drawn that it leaves out.
		drawn := r.drawnKeys()
		for _, it := range r.m.Legend {
			k := legendKey(it)
			if k == "" {
				out = append(out, it)
				continue
			}
			if slices.Contains(drawn, k) {
				add(k, it)
			}
		}
	}
	var terr []string
	if r.m.Network != nil {
		for _, s := range r.m.Network.Spaces {
			terr = append(terr, cmp.Or(s.Terrain, "clear"))
		}
	} else {
		for id, t := range r.m.Terrain {
			if r.on(id) {
				terr = append(terr, t)
			}
		}
	}
	slices.Sort(terr)
	for _, t := range terr {
		add("terrain "+t, board.LegendItem{Label: t, Terrain: t})
	}
	if r.m.Network != nil {
		for _, s := range r.m.Network.Spaces {
			if s.Key {
				add("terrain key", board.LegendItem{Label: "key space", Terrain: "key"})
			}
		}
		for _, l := range r.m.Network.Links {
			k := cmp.Or(l.Kind, board.RoadKind)
			label := k
			if k == mountainLink {
				label = "mountain road"
			}
			add("line "+k, board.LegendItem{Label: label, Road: k})
		}
	}
	// on a cropped hex map, only what is drawn.
	for _, h := range r.m.Hexsides {
		if r.on(h.A) || r.on(h.B) {
			add("hexside "+h.Kind, board.LegendItem{Label: h.Kind, Hexside: h.Kind})
		}
	}
	for _, rd := range r.m.Roads {
		if slices.ContainsFunc(rd.Path, r.on) {
			add("line "+rd.Kind, board.LegendItem{Label: rd.Kind, Road: rd.Kind})
		}
	}
	for _, a := range r.m.Arrows {
		if r.m.Network != nil || (r.on(a.From) && r.on(a.To)) {
			add("arrow "+a.Kind, board.LegendItem{Label: a.Kind, Arrow: a.Kind})
		}
	}
	for _, c := range r.m.Counters {
		if c.Side != "" && (r.m.Network != nil || r.on(c.Hex)) {
			add("side "+c.Side, board.LegendItem{Label: c.Side, Color: c.Color})
		}
	}
	if r.m.Network != nil && slices.ContainsFunc(r.m.Network.Spaces, func(s board.Space) bool { return s.OwnerColor != "" }) {
		add("owner", board.LegendItem{Label: "ring: side in control"})
	}
	return out
}

// legendKey is what a legend item stands for, as drawnKeys names it; ""
// for a note.
func legendKey(it board.LegendItem) string {
	switch {
	case it.Terrain != "":
		return "terrain " + it.Terrain
	case it.Hexside != "":
		return "hexside " + it.Hexside
	case it.Road != "":
		return "line " + it.Road
	case it.Arrow != "":
		return "arrow " + it.Arrow
	case it.Color != "":
		return "side " + it.Label
	}
	return ""
}

const legendSample = 36

// sampleW is the room taken by an item's sample and the gap after it.
func sampleW(it board.LegendItem) int {
	if it.Terrain == "" && it.Hexside == "" && it.Road == "" && it.Arrow == "" && it.Color == "" {
		return 0
	}
	return legendSample + 6
}

// layoutLegend breaks the items into rows that fit width.
func (r *renderer) layoutLegend(items []board.LegendItem, width int) [][]board.LegendItem {
	var rows [][]board.LegendItem
	x := 0
	for _, it := range items {
		w := sampleW(it) + r.fSmall.width(it.Label) + 18
		if len(rows) == 0 || (x+w > width-16 && x > 0) {
			rows = append(rows, nil)
			x = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		x += w
	}
	return rows
}

func (r *renderer) legend(rows [][]board.LegendItem, y0, width int) {
	x0, x1 := float64(margin), float64(width-margin)
	y1 := float64(y0 + 26 + 24*len(rows))
	r.cv.fill(legendLine, roundRect(x0, float64(y0), x1, y1, 4))
	r.cv.fill(rgb(0xfbfaf5), roundRect(x0+1, float64(y0)+1, x1-1, y1-1, 3))
	r.cv.text(r.fLabel, "Legend", margin+8, y0+16, textInk)
	for i, row := range rows {
		y := float64(y0 + 26 + 24*i)
		x := x0 + 8
		for _, it := range row {
			r.legendSample(it, x, y)
			r.cv.text(r.fSmall, it.Label, int(x)+sampleW(it), int(y)+14, textInk)
			x += float64(sampleW(it) + r.fSmall.width(it.Label) + 18)
		}
	}
}

func (r *renderer) legendSample(it board.LegendItem, x, y float64) {
	mid := y + 10
	p, q := pt{x + 3, mid}, pt{x + legendSample - 3, mid}
	switch {
	case it.Terrain != "" && r.net != nil:
		r.drawSpace(board.Space{Terrain: it.Terrain, Key: it.Terrain == "key"}, pt{x + legendSample/2, mid})
	case it.Terrain != "":
		r.cv.fill(hexLine, hexagon(pt{x + legendSample/2, mid}, 11.5))
		r.cv.fill(r.terrainColor(it.Terrain), hexagon(pt{x + legendSample/2, mid}, 10.5))
	case it.Hexside == board.Bridge:
		r.drawHexside(board.River, p, q)
		r.drawHexside(board.Bridge, p, q)
	case it.Hexside != "":
		r.drawHexside(it.Hexside, p, q)
	case it.Road != "" && r.net != nil:
		r.drawLink(it.Road, p, q)
	case it.Road != "":
		r.drawRoad(it.Road, []pt{p, q})
	case it.Arrow != "":
		r.drawArrow(it.Arrow, p, q)
	case it.Color != "":
		col := parseColor(it.Color, rgb(0xbbbbbb))
		r.cv.fill(darker(col, 0.45), roundRect(x+8, y, x+28, y+20, 3))
		r.cv.fill(col, roundRect(x+9, y+1, x+27, y+19, 2.5))
	}
}

// clip shortens s with an ellipsis to fit w pixels.
func clip(fc *face, s string, w int) string {
	if fc.width(s) <= w {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 && fc.width(string(rs)+"...") > w {
		rs = rs[:len(rs)-1]
	}
	return strings.TrimSpace(string(rs)) + "..."
}

// haloText draws s centred on x with its baseline at y, ringed with halo
// so that it reads over lines and tints.
func (cv *canvas) haloText(fc *face, s string, x, y int, c, halo color.Color) {
	x -= fc.width(s) / 2
	for _, d := range [...]image.Point{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
		cv.text(fc, s, x+d.X, y+d.Y, halo)
	}
	cv.text(fc, s, x, y, c)
}

// hexagon is a flat-top hexagon of radius rad.
func hexagon(c pt, rad float64) []pt {
	out := make([]pt, 6)
	for i := range out {
		a := math.Pi / 3 * float64(i)
		out[i] = pt{c.x + rad*math.Cos(a), c.y + rad*math.Sin(a)}
	}
	return out
}
