package templates

import (
	"cmp"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// cropReach is how far around the hexes of Picture.Crop a cropped map
// reaches.
const cropReach = 2

func renderHex(m board.Picture, art *mapArt, mk func(w, h int) surface) (*renderer, error) {
	if err := m.Grid.Validate(); err != nil {
		return nil, fmt.Errorf("templates: map: %w", err)
	}
	if err := check(m); err != nil {
		return nil, err
	}
	r, err := newRenderer(m, mk)
	if err != nil {
		return nil, err
	}
	r.g, r.art = *m.Grid, art
	lo, hi := m.Grid.Bounds()
	if len(m.Crop) > 0 {
		r.shown = map[board.ID]bool{}
		lo = board.Point{X: math.Inf(1), Y: math.Inf(1)}
		hi = board.Point{X: math.Inf(-1), Y: math.Inf(-1)}
		for _, id := range r.g.All() {
			if !slices.ContainsFunc(m.Crop, func(c board.ID) bool { return r.g.Distance(c, id) <= cropReach }) {
				continue
			}
			r.shown[id] = true
			for _, p := range r.g.Corners(id) {
				lo = board.Point{X: math.Min(lo.X, p.X), Y: math.Min(lo.Y, p.Y)}
				hi = board.Point{X: math.Max(hi.X, p.X), Y: math.Max(hi.Y, p.Y)}
			}
		}
	}
	mapW := int(math.Ceil((hi.X - lo.X) * hexRadius))
	mapH := int(math.Ceil((hi.Y - lo.Y) * hexRadius))
	r.layoutHexStacks()
	x0, y0 := r.frame(mapW, mapH, r.artLegend(append(r.legendItems(), r.stackList()...)))
	r.ox = float64(x0) - lo.X*hexRadius
	r.oy = float64(y0) - lo.Y*hexRadius
	r.placeLabels()

	// the map itself is the same at every step of a game: the static
	// layer, from everything it draws.
	content := struct {
		Grid          board.Grid
		Terrain       map[board.ID]string
		TerrainColors map[string]string
		Hexsides      []board.Hexside
		Roads         []board.Road
		Crop          []board.ID
	}{r.g, m.Terrain, m.TerrainColors, m.Hexsides, m.Roads, m.Crop}
	// the place names are not part of it: they go where the counters
	// leave room, over the map or its image.
	key, draw := r.artLayer(content, func() {
		r.hexes()
		r.roads()
		r.hexsides()
	}, image.Rect(x0, y0, x0+mapW, y0+mapH), hexRadius, r.ox, r.oy, nil)
	if err := r.static(y0-margin, mapH+2*margin, key, draw); err != nil {
		return nil, fmt.Errorf("templates: map: %w", err)
	}
	// the names go where the counters leave room: they change with them.
	r.stackHalos()
	r.labels()
	r.counters()
	r.arrows()
	r.finish()
	return r, nil
}

// on tells whether the hex is drawn: all are unless the map is cropped.
func (r *renderer) on(id board.ID) bool { return r.shown == nil || r.shown[id] }

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
		if !slices.Contains([]string{board.River, board.Stream, board.Ridge, board.Bridge, board.Border, board.Boundary}, h.Kind) {
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
	for _, id := range m.Crop {
		on("crop", id)
	}
	for _, a := range m.Arrows {
		on(a.Kind+" arrow", a.From)
		on(a.Kind+" arrow", a.To)
		for _, id := range a.Path {
			on(a.Kind+" arrow's path", id)
		}
		if len(a.Path) > 0 && (a.Path[0] != a.From || a.Path[len(a.Path)-1] != a.To) {
			errs = append(errs, fmt.Errorf("templates: map: %s arrow %s-%s: its path does not run from %[2]s to %[3]s", a.Kind, g.Format(a.From), g.Format(a.To)))
		}
		if !slices.Contains([]string{board.Move, board.Attack, board.AirMove}, a.Kind) {
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

func (r *renderer) hexes() {
	all := r.g.All()
	if r.shown != nil {
		all = slices.DeleteFunc(all, func(id board.ID) bool { return !r.shown[id] })
	}
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
		if r.shown == nil {
			r.drawRoad(rd.Kind, r.roadPath(rd))
			continue
		}
		// on a cropped map, the runs through hexes drawn, and a stub half
		// way to the next hex where a road leaves the map.
		var run []pt
		flush := func() {
			if len(run) > 1 {
				r.drawRoad(rd.Kind, run)
			}
			run = nil
		}
		for i, id := range rd.Path {
			switch {
			case r.on(id):
				if len(run) == 0 && i > 0 {
					run = append(run, lerp(r.centre(rd.Path[i-1]), r.centre(id), 0.5))
				}
				run = append(run, r.centre(id))
			case len(run) > 0:
				run = append(run, lerp(run[len(run)-1], r.centre(id), 0.5))
				flush()
			}
		}
		flush()
	}
}

func (r *renderer) drawRoad(kind string, path []pt) {
	switch kind {
	case board.Highway:
		r.cv.stroke(darker(highwayRed, 0.55), path, 6.5, false)
		r.cv.stroke(highwayRed, path, 4, false)
	case board.Railroad:
		r.cv.stroke(railInk, path, 2, false)
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
		r.cv.stroke(roadBrown, path, 2.6, false)
	}
}

func (r *renderer) edge(h board.Hexside) (pt, pt) {
	p, q, _ := r.g.Edge(h.A, h.B)
	return r.px(p), r.px(q)
}

func (r *renderer) hexsides() {
	// borders under rivers and ridges, bridges last.
	order := map[string]int{board.Border: 0, board.Boundary: 0, board.Stream: 1, board.River: 1, board.Ridge: 2, board.Bridge: 3}
	hs := slices.Clone(r.m.Hexsides)
	slices.SortStableFunc(hs, func(a, b board.Hexside) int { return cmp.Compare(order[a.Kind], order[b.Kind]) })
	for _, h := range hs {
		if !r.on(h.A) && !r.on(h.B) {
			continue
		}
		p, q := r.edge(h)
		r.drawHexside(h.Kind, p, q)
	}
}

func (r *renderer) drawHexside(kind string, p, q pt) {
	switch kind {
	case board.River:
		r.cv.stroke(riverBlue, []pt{p, q}, 4.5, true)
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
	case board.Stream:
		r.cv.fill(riverBlue, polyline([]pt{p, q}, 2)...)
	case board.Border:
		r.cv.fill(borderRed, dashed(p, q, 3, 5, 3)...)
	case board.Boundary:
		r.cv.fill(boundaryInk, dashed(p, q, 2.5, 8, 3)...)
	case board.Bridge:
		// a short bar across the river, along the line between the centres.
		m := lerp(p, q, 0.5)
		d := q.sub(p).unit().perp().mul(8)
		a, b := m.sub(d), m.add(d)
		r.cv.fill(bridgeInk, segment(a, b, 5.5))
		r.cv.fill(rgb(0xe8e2cf), segment(a.add(d.mul(0.15)), b.sub(d.mul(0.15)), 2.5))
	}
}

// placedLabel is a place name where it is drawn: its white box's top
// left corner and text width, and a leader to its hex when it stands on a
// neighbouring one.
type placedLabel struct {
	Hex    board.ID
	Text   string
	X, Y   float64
	W      float64
	Leader [2]pt
	Led    bool
}

// outer is the label's box, its border included.
func (p placedLabel) outer() box { return box{p.X - 1, p.Y - 1, p.X + p.W + 7, p.Y + 15} }

// placeLabels puts each place name where no stack covers it: centred on
// its hex when the hex is empty, else on an empty neighbouring hex with a
// leader to its own; under the hex centre, as before, when no place is
// clear.
func (r *renderer) placeLabels() {
	ids := make([]board.ID, 0, len(r.m.Labels))
	for id := range r.m.Labels {
		if r.on(id) {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b board.ID) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
	taken := map[board.ID]bool{}
	var stacks []box
	for _, hs := range r.hexStacks {
		taken[hs.st[0].Hex] = true
		stacks = append(stacks, r.hexStackBox(hs))
	}
	area := r.lay.mapArea
	r.placed = r.placed[:0]
	for _, id := range ids {
		s := r.m.Labels[id]
		w := float64(r.fLabel.width(s))
		c := r.centre(id)
		at := func(p pt) placedLabel {
			return placedLabel{Hex: id, Text: s, X: math.Round(p.x - w/2 - 3), Y: math.Round(p.y - 7), W: w}
		}
		cost := func(p placedLabel) float64 {
			b := p.outer()
			v := 0.0
			if !area.contains(b) {
				v += 1e6
			}
			for _, o := range stacks {
				v += b.overlap(o)
			}
			for _, o := range r.placed {
				v += b.overlap(o.outer())
			}
			return v
		}
		var cands []placedLabel
		if !taken[id] {
			cands = append(cands, at(c))
		}
		ns := r.g.Neighbours(id)
		// below first, then the sides, then above.
		slices.SortStableFunc(ns, func(a, b board.ID) int { return cmp.Compare(r.centre(b).y, r.centre(a).y) })
		// then, with a longer leader, the hexes two and three away,
		// nearest first.
		seen := map[board.ID]bool{id: true}
		for _, n := range ns {
			seen[n] = true
		}
		last := ns
		for range 2 {
			var ring []board.ID
			for _, h := range last {
				for _, n := range r.g.Neighbours(h) {
					if !seen[n] {
						seen[n] = true
						ring = append(ring, n)
					}
				}
			}
			last = ring
			slices.SortStableFunc(ring, func(a, b board.ID) int {
				return cmp.Compare(r.centre(a).sub(c).len(), r.centre(b).sub(c).len())
			})
			ns = append(slices.Clip(ns), ring...)
		}
		for _, n := range ns {
			if !r.g.Contains(n) || !r.on(n) || taken[n] {
				continue
			}
			p := at(r.centre(n))
			b := p.outer()
			// from the label's edge towards the hex, to just off its counter.
			e := pt{math.Max(b.x0, math.Min(c.x, b.x1)), math.Max(b.y0, math.Min(c.y, b.y1))}
			if d := c.sub(e); d.len() > hexCounterH/2+4 {
				p.Leader, p.Led = [2]pt{e, c.sub(d.unit().mul(hexCounterH/2 + 3))}, true
			}
			cands = append(cands, p)
		}
		cands = append(cands, at(pt{c.x, c.y + 23})) // under the hex centre
		best, bestCost := cands[0], math.Inf(1)
		for _, p := range cands {
			if v := cost(p); v < bestCost {
				best, bestCost = p, v
			}
			if bestCost == 0 {
				break
			}
		}
		r.placed = append(r.placed, best)
	}
	for _, p := range r.placed {
		r.lay.labels = append(r.lay.labels, laidBox{place: r.g.Format(p.Hex), text: p.Text, b: p.outer(), ink: textInk, back: white, plate: true})
	}
}

func (r *renderer) labels() {
	for _, p := range r.placed {
		x0, y0, w := p.X, p.Y, p.W
		if p.Led {
			r.cv.stroke(rgb(0x333333), p.Leader[:], 1.5, true)
		}
		r.cv.fill(rgb(0x333333), roundRect(x0-1, y0-1, x0+w+7, y0+15, 3))
		r.cv.fill(white, roundRect(x0, y0, x0+w+6, y0+14, 2.5))
		r.cv.text(r.fLabel, p.Text, int(x0)+3, int(y0)+11, textInk)
	}
}

func (r *renderer) counters() {
	for _, hs := range r.hexStacks {
		r.drawHexStack(hs)
	}
}

func (r *renderer) arrows() {
	for _, a := range r.m.Arrows {
		if !r.on(a.From) || !r.on(a.To) {
			continue
		}
		hexes := []board.ID{a.From, a.To}
		if len(a.Path) > 2 && !slices.ContainsFunc(a.Path, func(id board.ID) bool { return !r.on(id) }) {
			hexes = a.Path
		}
		course := make([]pt, len(hexes))
		places := make([]string, len(hexes))
		for i, id := range hexes {
			course[i], places[i] = r.centre(id), r.g.Format(id)
		}
		p, q := course[0], course[len(course)-1]
		d := q.sub(p)
		if d.len() == 0 {
			continue
		}
		// start clear of the mover's counter when there is room, and stop
		// at the edge of a counter in the target hex.
		end := hexRadius * 0.75
		pts := slices.Clone(course)
		if len(pts) == 2 {
			u := d.unit()
			start := math.Max(hexRadius*0.3, math.Min(hexRadius*0.9, d.len()-end-22))
			pts[0] = p.add(u.mul(start))
		} else {
			pts[0] = p.add(pts[1].sub(p).unit().mul(hexRadius * 0.3))
		}
		n := len(pts)
		pts[n-1] = q.sub(q.sub(course[n-2]).unit().mul(end))
		r.drawPathArrow(a.Kind, pts)
		r.lay.arrows = append(r.lay.arrows, laidArrow{kind: a.Kind, places: places, hexes: hexes, course: course, ink: arrowInk(a.Kind)})
	}
}

// groundOf is the colour of the ground a counter stands on: its hex's
// terrain, or the tint of its space's region (the paper outside one).
func (r *renderer) groundOf(c board.Counter) color.RGBA {
	if r.net == nil {
		t, ok := r.m.Terrain[c.Hex]
		if !ok {
			t = "clear"
		}
		return toRGBA(r.terrainColor(t))
	}
	s := r.spaces[c.Space]
	for i, rg := range r.net.Regions {
		if s != nil && rg.ID == s.Region {
			tint, _ := regionTint(rg, i)
			return tint
		}
	}
	return paper
}
