package templates

import (
	"cmp"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

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
}

func rgb(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255} }

var (
	white       = rgb(0xffffff)
	hexLine     = rgb(0x8a877c)
	idInk       = rgb(0x5c5a52)
	riverBlue   = rgb(0x2f78c4)
	ridgeBrown  = rgb(0x7b4a1e)
	borderRed   = rgb(0xd0202a)
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
)

// Layout of the picture, in pixels.
const (
	hexRadius  = 24.0 // corner to centre
	margin     = 14
	titleH     = 42
	counterW   = 30
	counterH   = 30
	stackStepY = 11 // how far each counter below the top one peeks out
	stackStepX = 3
	maxStack   = 6
)

// RenderPNG draws the map and writes it as a PNG.
func RenderPNG(m board.Picture, w io.Writer) error {
	r, err := render(m)
	if err != nil {
		return err
	}
	keep := make([]color.RGBA, 0, len(r.cv.used))
	for c := range r.cv.used {
		keep = append(keep, c)
	}
	slices.SortFunc(keep, func(a, b color.RGBA) int {
		return cmp.Or(cmp.Compare(a.R, b.R), cmp.Compare(a.G, b.G), cmp.Compare(a.B, b.B))
	})
	return encodePNG(w, paletted(r.cv.img, keep))
}

type renderer struct {
	m      board.Picture
	g      board.Grid
	cv     *canvas
	ox, oy float64 // pixel position of the unit layout origin
	fID    *face   // hex ids
	fSmall *face   // counter ids, markers, legend
	fType  *face   // counter type
	fStr   *face   // counter strength
	fLabel *face   // place names
	fTitle *face
	fSub   *face
}

// Render draws the map.
func Render(m board.Picture) (*image.RGBA, error) {
	r, err := render(m)
	if err != nil {
		return nil, err
	}
	return r.cv.img, nil
}

func render(m board.Picture) (*renderer, error) {
	if m.Grid == nil {
		return nil, fmt.Errorf("templates: map: no hex grid (a point-to-point map is not drawn by this renderer)")
	}
	if err := m.Grid.Validate(); err != nil {
		return nil, fmt.Errorf("templates: map: %w", err)
	}
	if err := check(m); err != nil {
		return nil, err
	}
	if err := loadFonts(); err != nil {
		return nil, fmt.Errorf("templates: fonts: %w", err)
	}
	r := &renderer{m: m, g: *m.Grid}
	var err error
	for _, f := range []struct {
		dst  **face
		bold bool
		size float64
	}{
		{&r.fID, false, 10}, {&r.fSmall, false, 10}, {&r.fType, true, 12}, {&r.fStr, true, 11},
		{&r.fLabel, true, 11}, {&r.fTitle, true, 18}, {&r.fSub, false, 12},
	} {
		fnt := fontReg
		if f.bold {
			fnt = fontBold
		}
		if *f.dst, err = newFace(fnt, f.size); err != nil {
			return nil, fmt.Errorf("templates: fonts: %w", err)
		}
	}

	lo, hi := m.Grid.Bounds()
	mapW := int(math.Ceil((hi.X - lo.X) * hexRadius))
	mapH := int(math.Ceil((hi.Y - lo.Y) * hexRadius))
	width := mapW + 2*margin
	legend := r.legendItems()
	legendRows := r.layoutLegend(legend, width-2*margin)
	legendH := 0
	if len(legendRows) > 0 {
		legendH = 26 + 24*len(legendRows) + margin
	}
	height := titleH + margin + mapH + margin + legendH
	r.cv = &canvas{img: image.NewRGBA(image.Rect(0, 0, width, height))}
	r.ox = float64(margin) - lo.X*hexRadius
	r.oy = float64(titleH+margin) - lo.Y*hexRadius

	r.cv.rect(r.cv.img.Bounds(), white)
	r.title(width)
	r.hexes()
	r.roads()
	r.hexsides()
	r.labels()
	r.counters()
	r.arrows()
	if len(legendRows) > 0 {
		r.legend(legendRows, titleH+margin+mapH+margin, width)
	}
	return r, nil
}

// check reports references to hexes off the map and unknown kinds.
func check(m board.Picture) error {
	g := *m.Grid
	var errs []error
	on := func(what string, id board.ID) {
		if !g.Contains(id) {
			errs = append(errs, fmt.Errorf("templates: map: %s: hex %s is off the map", what, g.Format(id)))
		}
	}
	for id := range m.Terrain {
		on("terrain", id)
	}
	for id := range m.Labels {
		on("label", id)
	}
	for _, h := range m.Hexsides {
		on(h.Kind, h.A)
		on(h.Kind, h.B)
		if !g.Adjacent(h.A, h.B) {
			errs = append(errs, fmt.Errorf("templates: map: %s: hexes %s and %s are not adjacent", h.Kind, g.Format(h.A), g.Format(h.B)))
		}
		if !slices.Contains([]string{board.River, board.Ridge, board.Bridge, board.Border}, h.Kind) {
			errs = append(errs, fmt.Errorf("templates: map: unknown hexside kind %q", h.Kind))
		}
	}
	for _, rd := range m.Roads {
		for _, id := range rd.Path {
			on(rd.Kind, id)
		}
		if !slices.Contains([]string{board.RoadKind, board.Highway, board.Railroad}, rd.Kind) {
			errs = append(errs, fmt.Errorf("templates: map: unknown road kind %q", rd.Kind))
		}
	}
	for _, c := range m.Counters {
		on("counter "+c.ID, c.Hex)
	}
	for _, a := range m.Arrows {
		on(a.Kind+" arrow", a.From)
		on(a.Kind+" arrow", a.To)
		if a.Kind != board.Move && a.Kind != board.Attack {
			errs = append(errs, fmt.Errorf("templates: map: unknown arrow kind %q", a.Kind))
		}
	}
	return errors.Join(errs...)
}

// px is the pixel position of a unit-layout point.
func (r *renderer) px(p board.Point) pt { return pt{r.ox + p.X*hexRadius, r.oy + p.Y*hexRadius} }

func (r *renderer) centre(id board.ID) pt { return r.px(r.g.Center(id)) }

// hexPoly is the hexagon of id with its radius changed by grow pixels.
func (r *renderer) hexPoly(id board.ID, grow float64) []pt {
	c := r.centre(id)
	out := make([]pt, 6)
	for i, p := range r.g.Corners(id) {
		q := r.px(p).sub(c)
		out[i] = c.add(q.mul((hexRadius + grow) / hexRadius))
	}
	return out
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
		r.cv.text(r.fSub, r.m.Subtitle, x, 27, titleSub)
	}
}

func (r *renderer) hexes() {
	all := r.g.All()
	// flat fills, then each hexside once as a thin antialiased line.
	for _, id := range all {
		t, ok := r.m.Terrain[id]
		if !ok {
			t = "clear"
		}
		r.cv.fillConvex(r.terrainColor(t), r.hexPoly(id, 0))
	}
	seen := make(map[[2]int]bool, len(all)*3)
	for _, id := range all {
		h := r.hexPoly(id, 0)
		for i := range h {
			p, q := h[i], h[(i+1)%6]
			m := lerp(p, q, 0.5)
			k := [2]int{int(math.Round(m.x * 2)), int(math.Round(m.y * 2))}
			if seen[k] {
				continue
			}
			seen[k] = true
			r.cv.line(hexLine, p, q, 1.1)
		}
	}
	// ids along the top of each hex.
	top := hexRadius * math.Sqrt(3) / 2
	if r.g.Orientation == board.PointyTop {
		top = hexRadius * 0.75
	}
	for _, id := range all {
		c := r.centre(id)
		r.cv.centred(r.fID, r.g.Format(id), int(math.Round(c.x)), int(math.Round(c.y-top))+10, idInk)
	}
}

func (r *renderer) roadPath(rd board.Road) []pt {
	out := make([]pt, len(rd.Path))
	for i, id := range rd.Path {
		out[i] = r.centre(id)
	}
	return out
}

func (r *renderer) roads() {
	// railroads first, then roads, then highways on top.
	order := map[string]int{board.Railroad: 0, board.RoadKind: 1, board.Highway: 2}
	rds := slices.Clone(r.m.Roads)
	slices.SortStableFunc(rds, func(a, b board.Road) int { return cmp.Compare(order[a.Kind], order[b.Kind]) })
	for _, rd := range rds {
		r.drawRoad(rd.Kind, r.roadPath(rd))
	}
}

func (r *renderer) drawRoad(kind string, path []pt) {
	switch kind {
	case board.Highway:
		r.cv.fill(darker(highwayRed, 0.55), polyline(path, 6.5)...)
		r.cv.fill(highwayRed, polyline(path, 4)...)
	case board.Railroad:
		r.cv.fill(railInk, polyline(path, 2)...)
		var ties [][]pt
		for i := 0; i+1 < len(path); i++ {
			p, q := path[i], path[i+1]
			l := q.sub(p).len()
			n := q.sub(p).unit().perp().mul(4)
			for s := 4.0; s < l-2; s += 7 {
				c := lerp(p, q, s/l)
				ties = append(ties, segment(c.sub(n), c.add(n), 1.6))
			}
		}
		r.cv.fill(railInk, ties...)
	default:
		r.cv.fill(roadBrown, polyline(path, 2.6)...)
	}
}

func (r *renderer) edge(h board.Hexside) (pt, pt) {
	p, q, _ := r.g.Edge(h.A, h.B)
	return r.px(p), r.px(q)
}

func (r *renderer) hexsides() {
	// borders under rivers and ridges, bridges last.
	order := map[string]int{board.Border: 0, board.River: 1, board.Ridge: 2, board.Bridge: 3}
	hs := slices.Clone(r.m.Hexsides)
	slices.SortStableFunc(hs, func(a, b board.Hexside) int { return cmp.Compare(order[a.Kind], order[b.Kind]) })
	for _, h := range hs {
		p, q := r.edge(h)
		r.drawHexside(h.Kind, p, q)
	}
}

func (r *renderer) drawHexside(kind string, p, q pt) {
	switch kind {
	case board.River:
		r.cv.fill(riverBlue, polyline([]pt{p, q}, 4.5)...)
		r.cv.fill(riverBlue, circle(p, 2.25), circle(q, 2.25))
	case board.Ridge:
		r.cv.fill(ridgeBrown, segment(p, q, 4.5))
		// teeth on both sides, like hachures.
		n := q.sub(p).unit().perp().mul(4)
		var teeth [][]pt
		for _, t := range []float64{0.25, 0.5, 0.75} {
			c := lerp(p, q, t)
			teeth = append(teeth, segment(c.sub(n), c.add(n), 2))
		}
		r.cv.fill(ridgeBrown, teeth...)
	case board.Border:
		r.cv.fill(borderRed, dashed(p, q, 3, 5, 3)...)
	case board.Bridge:
		// a short bar across the river, along the line between the centres.
		m := lerp(p, q, 0.5)
		d := q.sub(p).unit().perp().mul(8)
		a, b := m.sub(d), m.add(d)
		r.cv.fill(bridgeInk, segment(a, b, 5.5))
		r.cv.fill(rgb(0xe8e2cf), segment(a.add(d.mul(0.15)), b.sub(d.mul(0.15)), 2.5))
	}
}

func (r *renderer) labels() {
	ids := make([]board.ID, 0, len(r.m.Labels))
	for id := range r.m.Labels {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b board.ID) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
	for _, id := range ids {
		s := r.m.Labels[id]
		c := r.centre(id)
		w := float64(r.fLabel.width(s))
		x0 := math.Round(c.x - w/2 - 3)
		y0 := math.Round(c.y + 16) // just under a counter on the hex centre
		r.cv.fill(rgb(0x333333), roundRect(x0-1, y0-1, x0+w+7, y0+15, 3))
		r.cv.fill(white, roundRect(x0, y0, x0+w+6, y0+14, 2.5))
		r.cv.text(r.fLabel, s, int(x0)+3, int(y0)+11, rgb(0x111111))
	}
}

// stacks groups counters by hex, keeping the order of first appearance.
func (r *renderer) stacks() [][]board.Counter {
	idx := map[board.ID]int{}
	var out [][]board.Counter
	for _, c := range r.m.Counters {
		i, ok := idx[c.Hex]
		if !ok {
			i = len(out)
			idx[c.Hex] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], c)
	}
	return out
}

func (r *renderer) counters() {
	for _, st := range r.stacks() {
		n := len(st)
		shown := st
		if n > maxStack {
			shown = st[n-maxStack:] // the top ones
		}
		c := r.centre(st[0].Hex)
		// the top counter sits on the hex centre; those under it peek out
		// above and to the left, each showing its id band.
		k := len(shown)
		for i, cn := range shown {
			d := float64(k - 1 - i)
			r.drawCounter(cn, pt{c.x - d*stackStepX, c.y - d*stackStepY + 2})
		}
		if n > 1 {
			// the count badge sits on the top right corner of the fan.
			first := pt{c.x - float64(k-1)*stackStepX, c.y - float64(k-1)*stackStepY + 2}
			s := fmt.Sprintf("x%d", n)
			w := float64(r.fSmall.width(s)) + 6
			x0 := math.Round(first.x + counterW/2 - 4)
			y0 := math.Round(first.y - counterH/2 - 9)
			r.cv.fill(white, roundRect(x0-1, y0-1, x0+w+1, y0+13, 4))
			r.cv.fill(badgeBg, roundRect(x0, y0, x0+w, y0+12, 3.5))
			r.cv.text(r.fSmall, s, int(x0)+3, int(y0)+10, white)
		}
	}
}

// drawCounter draws a counter centred on p.
func (r *renderer) drawCounter(cn board.Counter, p pt) {
	col := parseColor(cn.Color, rgb(0xbbbbbb))
	w := math.Max(counterW, float64(max(r.fSmall.width(cn.ID), r.fStr.width(cn.Strength), r.fType.width(cn.Type))+6))
	x0, y0 := math.Round(p.x-w/2), math.Round(p.y-counterH/2)
	x1, y1 := x0+w, y0+counterH
	r.cv.fill(darker(col, 0.45), roundRect(x0-1, y0-1, x1+1, y1+1, 4))
	r.cv.fill(col, roundRect(x0+0.5, y0+0.5, x1-0.5, y1-0.5, 3))
	ic := ink(col)
	cx := int(x0 + w/2)
	r.cv.centred(r.fSmall, cn.ID, cx, int(y0)+9, ic)
	r.cv.centred(r.fType, cn.Type, cx, int(y0)+20, ic)
	r.cv.centred(r.fStr, cn.Strength, cx, int(y0)+29, ic)
	// marker tags in a row off the top right corner, in the band that
	// stays visible when the counter is under others in a stack.
	tx, ty := x1-4, y0-1
	for _, mk := range cn.Markers {
		tw := float64(r.fSmall.width(mk)) + 6
		r.cv.fill(rgb(0x3a3000), roundRect(tx-1, ty-1, tx+tw+1, ty+13, 2.5))
		r.cv.fill(markerBg, roundRect(tx, ty, tx+tw, ty+12, 2))
		r.cv.text(r.fSmall, mk, int(tx)+3, int(ty)+10, rgb(0x111111))
		tx += tw + 2
	}
}

func (r *renderer) arrows() {
	for _, a := range r.m.Arrows {
		p, q := r.centre(a.From), r.centre(a.To)
		d := q.sub(p)
		if d.len() == 0 {
			continue
		}
		u := d.unit()
		// start clear of the mover's counter when there is room, and stop
		// at the edge of a counter in the target hex.
		end := hexRadius * 0.75
		start := math.Max(hexRadius*0.3, math.Min(hexRadius*0.9, d.len()-end-22))
		r.drawArrow(a.Kind, p.add(u.mul(start)), q.sub(u.mul(end)))
	}
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
	col := moveInk
	if kind == board.Attack {
		col = attackRed
	}
	// a white halo keeps the arrow readable over counters and terrain.
	halo := arrowPolys(p.sub(q.sub(p).unit().mul(1.5)), q.add(q.sub(p).unit().mul(2.5)), 6.5, 17, 17)
	r.cv.fill(white, halo...)
	r.cv.fill(col, arrowPolys(p, q, 3.5, 13, 12)...)
}

// legendItems is m.Legend or, when empty, keys for what the map shows.
func (r *renderer) legendItems() []board.LegendItem {
	if len(r.m.Legend) > 0 {
		return r.m.Legend
	}
	var out []board.LegendItem
	seen := map[string]bool{}
	add := func(key string, it board.LegendItem) {
		if !seen[key] {
			seen[key] = true
			out = append(out, it)
		}
	}
	var terr []string
	for _, t := range r.m.Terrain {
		terr = append(terr, t)
	}
	slices.Sort(terr)
	for _, t := range terr {
		add("t"+t, board.LegendItem{Label: t, Terrain: t})
	}
	for _, h := range r.m.Hexsides {
		add("h"+h.Kind, board.LegendItem{Label: h.Kind, Hexside: h.Kind})
	}
	for _, rd := range r.m.Roads {
		add("r"+rd.Kind, board.LegendItem{Label: rd.Kind, Road: rd.Kind})
	}
	for _, a := range r.m.Arrows {
		add("a"+a.Kind, board.LegendItem{Label: a.Kind, Arrow: a.Kind})
	}
	for _, c := range r.m.Counters {
		if c.Side != "" {
			add("s"+c.Side, board.LegendItem{Label: c.Side, Color: c.Color})
		}
	}
	return out
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
	r.cv.text(r.fLabel, "Legend", margin+8, y0+16, rgb(0x111111))
	for i, row := range rows {
		y := float64(y0 + 26 + 24*i)
		x := x0 + 8
		for _, it := range row {
			r.legendSample(it, x, y)
			r.cv.text(r.fSmall, it.Label, int(x)+sampleW(it), int(y)+14, rgb(0x111111))
			x += float64(sampleW(it) + r.fSmall.width(it.Label) + 18)
		}
	}
}

func (r *renderer) legendSample(it board.LegendItem, x, y float64) {
	mid := y + 10
	p, q := pt{x + 3, mid}, pt{x + legendSample - 3, mid}
	switch {
	case it.Terrain != "":
		r.cv.fill(hexLine, hexagon(pt{x + legendSample/2, mid}, 11.5))
		r.cv.fill(r.terrainColor(it.Terrain), hexagon(pt{x + legendSample/2, mid}, 10.5))
	case it.Hexside == board.Bridge:
		r.drawHexside(board.River, p, q)
		r.drawHexside(board.Bridge, p, q)
	case it.Hexside != "":
		r.drawHexside(it.Hexside, p, q)
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

// hexagon is a flat-top hexagon of radius rad.
func hexagon(c pt, rad float64) []pt {
	out := make([]pt, 6)
	for i := range out {
		a := math.Pi / 3 * float64(i)
		out[i] = pt{c.x + rad*math.Cos(a), c.y + rad*math.Sin(a)}
	}
	return out
}
