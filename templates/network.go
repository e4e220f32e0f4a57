package templates

import (
	"cmp"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// A point-to-point map: spaces joined by links, regions outlined around
// their spaces, stacks beside their space.

// mountainLink is the link kind of a mountain road.
const mountainLink = "mountain"

// Layout of a point-to-point map, in pixels.
const (
	spaceR    = 9.0  // radius of a space
	keyR      = 13.0 // radius of a key space
	ringW     = 3.5  // width of the owner's ring
	regionPad = 30.0 // how far a region's outline keeps from its spaces
)

var (
	paper      = rgb(0xf7f4ea)
	paperLine  = rgb(0x9a9588)
	spaceInk   = rgb(0x2b2b2b)
	starRed    = rgb(0xc0141c)
	linkBrown  = rgb(0x7a4b22)
	mountainBr = rgb(0x5e3a17)
	// regionTints are the tints of regions without a colour of their own.
	regionTints = []color.RGBA{
		rgb(0xeadcb8), rgb(0xd3e6c4), rgb(0xdcd6ee), rgb(0xf3d2c8),
		rgb(0xcfe2ec), rgb(0xf0e6b0), rgb(0xe4d0e2), rgb(0xcde9df),
	}
)

func renderNetwork(m board.Picture, mk func(w, h int) surface) (*renderer, error) {
	if err := checkNetwork(m); err != nil {
		return nil, err
	}
	r, err := newRenderer(m, mk)
	if err != nil {
		return nil, err
	}
	n := m.Network
	r.net = n
	r.spaces = make(map[string]*board.Space, len(n.Spaces))
	for i := range n.Spaces {
		r.spaces[n.Spaces[i].ID] = &n.Spaces[i]
	}
	w, h := n.Width, n.Height
	if w == 0 || h == 0 {
		// no size given: the box around the spaces.
		for _, s := range n.Spaces {
			w, h = math.Max(w, s.X+60), math.Max(h, s.Y+40)
		}
	}
	mapW, mapH := int(math.Ceil(w)), int(math.Ceil(h))
	x0, y0 := r.frame(mapW, mapH, r.legendItems())
	r.nx, r.ny = float64(x0), float64(y0)

	// the paper, regions and links are the same at every step of a game:
	// the static layer, from everything they are drawn from.
	type place struct {
		ID, Region string
		X, Y       float64
	}
	content := struct {
		Regions []board.Region
		Links   []board.Link
		Spaces  []place
	}{n.Regions, n.Links, make([]place, len(n.Spaces))}
	for i, s := range n.Spaces {
		content.Spaces[i] = place{s.ID, s.Region, s.X, s.Y}
	}
	if err := r.static(y0-margin, mapH+2*margin, content, func() {
		// where the map is on the surface drawn on.
		x0, y0 := int(r.nx), int(r.ny)
		r.cv.rect(image.Rect(x0-1, y0-1, x0+mapW+1, y0+mapH+1), paperLine)
		r.cv.rect(image.Rect(x0, y0, x0+mapW, y0+mapH), paper)
		r.bridges = r.regionBridges()
		r.regions()
		r.links()
	}); err != nil {
		return nil, fmt.Errorf("templates: map: %w", err)
	}
	r.bridges = r.regionBridges()
	r.placeStacks(mapW, mapH)
	occ := r.occupancy()
	r.regionNames(occ, mapW, mapH)
	for _, s := range n.Spaces {
		r.drawSpace(s, r.at(s.ID))
		c, rad := r.at(s.ID), spaceRadius(s)
		r.lay.spaces = append(r.lay.spaces, laidBox{place: s.ID, text: nameOf(s), b: box{c.x - rad, c.y - rad, c.x + rad, c.y + rad}})
		x0, y0, x1, y1, _ := r.nameBox(s)
		r.lay.labels = append(r.lay.labels, laidBox{place: s.ID, text: nameOf(s), b: box{x0, y0, x1, y1}})
	}
	for _, s := range n.Spaces {
		r.spaceName(s)
	}
	for _, st := range r.netStacks() {
		f := r.fronts[st[0].Space]
		r.drawStack(st, f.p, f.left)
	}
	r.netArrows()
	r.finish()
	return r, nil
}

// checkNetwork reports references to unknown spaces and regions,
// duplicate ids and unknown kinds.
func checkNetwork(m board.Picture) error {
	n := m.Network
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("templates: map: "+format, a...))
	}
	if n.Width < 0 || n.Height < 0 {
		bad("network size %gx%g is negative", n.Width, n.Height)
	}
	regions := map[string]bool{}
	for _, rg := range n.Regions {
		switch {
		case rg.ID == "":
			bad("region %q has no id", rg.Name)
		case regions[rg.ID]:
			bad("duplicate region id %q", rg.ID)
		}
		regions[rg.ID] = true
	}
	ids := map[string]bool{}
	for _, s := range n.Spaces {
		switch {
		case s.ID == "":
			bad("space %q has no id", s.Name)
		case ids[s.ID]:
			bad("duplicate space id %q", s.ID)
		}
		ids[s.ID] = true
		if s.Region != "" && !regions[s.Region] {
			bad("space %s: unknown region %q", s.ID, s.Region)
		}
		if s.X < 0 || s.Y < 0 || (n.Width > 0 && s.X > n.Width) || (n.Height > 0 && s.Y > n.Height) {
			bad("space %s at (%g, %g) is outside the %gx%g map", s.ID, s.X, s.Y, n.Width, n.Height)
		}
	}
	known := func(what, id string) {
		if !ids[id] {
			bad("%s: unknown space %q", what, id)
		}
	}
	for _, l := range n.Links {
		what := "link " + l.A + "-" + l.B
		known(what, l.A)
		known(what, l.B)
		if l.A == l.B {
			bad("%s joins a space to itself", what)
		}
		if !slices.Contains([]string{"", board.RoadKind, board.Railroad, mountainLink}, l.Kind) {
			bad("%s: unknown link kind %q", what, l.Kind)
		}
	}
	for _, c := range m.Counters {
		known("counter "+c.ID, c.Space)
	}
	for _, a := range m.Arrows {
		known(a.Kind+" arrow", a.FromSpace)
		known(a.Kind+" arrow", a.ToSpace)
		if a.Kind != board.Move && a.Kind != board.Attack {
			bad("unknown arrow kind %q", a.Kind)
		}
	}
	return errors.Join(errs...)
}

// at is the pixel position of a space.
func (r *renderer) at(id string) pt {
	s := r.spaces[id]
	return pt{r.nx + s.X, r.ny + s.Y}
}

// spaceRadius is how far a space's shape, ring included, reaches from its
// centre.
func spaceRadius(s board.Space) float64 {
	rad := spaceR
	if s.Key {
		rad = keyR
	}
	if s.OwnerColor != "" {
		rad += ringW + 1
	}
	return rad + 1.2
}

// regionTint is the fill of the i-th region and its outline.
func regionTint(rg board.Region, i int) (tint, line color.RGBA) {
	tint = parseColor(rg.Color, regionTints[i%len(regionTints)])
	return tint, darker(tint, 0.55)
}

// regionShape is the padded union of a region's spaces and of its
// bridges, grown by grow pixels.
func (r *renderer) regionShape(id string, grow float64) [][]pt {
	var out [][]pt
	for _, s := range r.net.Spaces {
		if s.Region == id {
			out = append(out, circle(r.at(s.ID), regionPad+grow))
		}
	}
	for _, b := range r.bridges[id] {
		out = append(out, segment(b[0], b[1], 2*(regionPad*0.75+grow)))
	}
	return out
}

// regionBridges joins the spaces of each region into one shape: along
// the links inside the region, and along the shortest joins that connect
// what the links leave apart (a minimum spanning tree).
func (r *renderer) regionBridges() map[string][][2]pt {
	out := map[string][][2]pt{}
	for _, rg := range r.net.Regions {
		var ids []string
		for _, s := range r.net.Spaces {
			if s.Region == rg.ID {
				ids = append(ids, s.ID)
			}
		}
		// union-find over the region's spaces.
		parent := map[string]string{}
		for _, id := range ids {
			parent[id] = id
		}
		var find func(string) string
		find = func(a string) string {
			if parent[a] != a {
				parent[a] = find(parent[a])
			}
			return parent[a]
		}
		type join struct {
			a, b string
			d    float64
		}
		var joins []join
		for _, l := range r.net.Links {
			if r.spaces[l.A].Region == rg.ID && r.spaces[l.B].Region == rg.ID {
				out[rg.ID] = append(out[rg.ID], [2]pt{r.at(l.A), r.at(l.B)})
				parent[find(l.A)] = find(l.B)
			}
		}
		for i, a := range ids {
			for _, b := range ids[i+1:] {
				joins = append(joins, join{a, b, r.at(a).sub(r.at(b)).len()})
			}
		}
		slices.SortStableFunc(joins, func(x, y join) int { return cmp.Compare(x.d, y.d) })
		for _, j := range joins {
			if fa, fb := find(j.a), find(j.b); fa != fb {
				parent[fa] = fb
				out[rg.ID] = append(out[rg.ID], [2]pt{r.at(j.a), r.at(j.b)})
			}
		}
	}
	return out
}

func (r *renderer) regions() {
	for i, rg := range r.net.Regions {
		tint, line := regionTint(rg, i)
		r.cv.fill(line, r.regionShape(rg.ID, 0)...)
		r.cv.fill(tint, r.regionShape(rg.ID, -2)...)
	}
}

func (r *renderer) links() {
	// railroads under roads, mountain roads on top.
	order := map[string]int{board.Railroad: 0, "": 1, board.RoadKind: 1, mountainLink: 2}
	ls := slices.Clone(r.net.Links)
	slices.SortStableFunc(ls, func(a, b board.Link) int { return cmp.Compare(order[a.Kind], order[b.Kind]) })
	for _, l := range ls {
		r.drawLink(l.Kind, r.at(l.A), r.at(l.B))
	}
}

// drawLink draws a link: a road is a solid line, a railroad a line with
// ties, a mountain road a dashed darker line with chevrons.
func (r *renderer) drawLink(kind string, p, q pt) {
	switch kind {
	case board.Railroad:
		r.drawRoad(board.Railroad, []pt{p, q})
	case mountainLink:
		r.cv.fill(mountainBr, dashed(p, q, 3.2, 7, 4)...)
	case board.Highway:
		r.drawRoad(board.Highway, []pt{p, q})
	default:
		r.cv.fill(linkBrown, segment(p, q, 3))
	}
}

// star is a five-pointed star.
func star(c pt, outer, inner float64) []pt {
	out := make([]pt, 10)
	for i := range out {
		rad := outer
		if i%2 == 1 {
			rad = inner
		}
		a := -math.Pi/2 + math.Pi/5*float64(i)
		out[i] = pt{c.x + rad*math.Cos(a), c.y + rad*math.Sin(a)}
	}
	return out
}

// drawSpace draws a space centred on c: a disc (a square for a city) of
// its terrain, ringed in its owner's colour, larger and starred when key.
func (r *renderer) drawSpace(s board.Space, c pt) {
	rad := spaceR
	if s.Key {
		rad = keyR
	}
	city := s.Terrain == "city" || s.Terrain == "urban"
	shape := func(grow float64) []pt {
		if city {
			k := rad * 0.9
			return roundRect(c.x-k-grow, c.y-k-grow, c.x+k+grow, c.y+k+grow, 2.5+grow/2)
		}
		return circle(c, rad+grow)
	}
	terr := s.Terrain
	if terr == "" || terr == "key" {
		terr = "clear"
	}
	if s.OwnerColor != "" {
		own := parseColor(s.OwnerColor, rgb(0xbbbbbb))
		r.cv.fill(spaceInk, shape(ringW+2.2))
		r.cv.fill(own, shape(ringW+1.2))
	}
	r.cv.fill(spaceInk, shape(1.2))
	r.cv.fill(r.terrainColor(terr), shape(0))
	if s.Key {
		r.cv.fill(starRed, star(c, rad*0.78, rad*0.32))
	}
}

// nameOf is the name shown under a space.
func nameOf(s board.Space) string { return cmp.Or(s.Name, s.ID) }

func (r *renderer) nameFace(s board.Space) *face {
	if s.Key {
		return r.fKey
	}
	return r.fLabel
}

// nameBox is the box of a space's name, under the space; base is the
// baseline.
func (r *renderer) nameBox(s board.Space) (x0, y0, x1, y1 float64, base int) {
	c := r.at(s.ID)
	fc := r.nameFace(s)
	w := float64(fc.width(nameOf(s)))
	top := math.Round(c.y + spaceRadius(s) + 1)
	x0 = float64(int(math.Round(c.x)) - int(w)/2)
	return x0 - 1, top, x0 + w + 1, top + float64(fc.ascent) + 4, int(top) + fc.ascent
}

func (r *renderer) spaceName(s board.Space) {
	_, _, _, _, base := r.nameBox(s)
	c := r.at(s.ID)
	halo := color.RGBA{255, 255, 255, 255}
	r.cv.haloText(r.nameFace(s), nameOf(s), int(math.Round(c.x)), base, textInk, halo)
}

func (r *renderer) netStacks() []stack {
	return groupStacks(r.m.Counters, func(c board.Counter) string { return c.Space })
}

// stackFront is where the top counter of a stack stands (placeStacks
// chooses).
func (r *renderer) stackFront(st stack) (pt, bool) {
	f := r.fronts[st[0].Space]
	return f.p, f.left
}

// front is where the top counter of a stack stands, and whether the stack
// is left of its space (its markers then on the left).
type front struct {
	p    pt
	left bool
}

// placeStacks puts each stack beside its space, right or left of it, with
// its bottom level with the space's so that the fan rises away from the
// name under the space: on the side where it covers least of the other
// spaces, names, stacks and arrows.
func (r *renderer) placeStacks(mapW, mapH int) {
	r.fronts = map[string]front{}
	var occ []box
	for _, s := range r.net.Spaces {
		c, rad := r.at(s.ID), spaceRadius(s)
		occ = append(occ, box{c.x - rad, c.y - rad, c.x + rad, c.y + rad})
		x0, y0, x1, y1, _ := r.nameBox(s)
		occ = append(occ, box{x0, y0, x1, y1})
	}
	for _, st := range r.netStacks() {
		s := *r.spaces[st[0].Space]
		c := r.at(s.ID)
		rad := spaceRadius(s)
		y := math.Round(c.y + rad - counterH/2 - 1)
		x0, _, _, _ := r.stackBox(st, pt{0, y}, false)
		_, _, x1, _ := r.stackBox(st, pt{0, y}, true)
		var best front
		bestScore := math.Inf(1)
		for side, f := range []front{{pt{math.Round(c.x + rad + 3 - x0), y}, false}, {pt{math.Round(c.x - rad - 3 - x1), y}, true}} {
			bx0, by0, bx1, by1 := r.stackBox(st, f.p, f.left)
			b := box{bx0, by0, bx1, by1}
			score := float64(side) * 50
			if bx0 < r.nx || by0 < r.ny || bx1 > r.nx+float64(mapW) || by1 > r.ny+float64(mapH) {
				score += 1e5
			}
			for _, o := range occ {
				score += 40 * b.overlap(o)
			}
			for _, a := range r.m.Arrows {
				if b.hits(r.at(a.FromSpace), r.at(a.ToSpace)) {
					score += 1500
				}
			}
			for _, l := range r.net.Links {
				if b.hits(r.at(l.A), r.at(l.B)) {
					score += 30
				}
			}
			if score < bestScore {
				best, bestScore = f, score
			}
		}
		r.fronts[s.ID] = best
		bx0, by0, bx1, by1 := r.stackBox(st, best.p, best.left)
		occ = append(occ, box{bx0, by0, bx1, by1})
	}
}

// box is an axis-aligned rectangle in pixels.
type box struct{ x0, y0, x1, y1 float64 }

// hits tells whether the segment pq crosses the box.
func (a box) hits(p, q pt) bool {
	t0, t1 := 0.0, 1.0
	d := q.sub(p)
	for _, e := range [4][2]float64{{-d.x, p.x - a.x0}, {d.x, a.x1 - p.x}, {-d.y, p.y - a.y0}, {d.y, a.y1 - p.y}} {
		if e[0] == 0 {
			if e[1] < 0 {
				return false
			}
			continue
		}
		t := e[1] / e[0]
		if e[0] < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

func (a box) overlap(b box) float64 {
	w := math.Min(a.x1, b.x1) - math.Max(a.x0, b.x0)
	h := math.Min(a.y1, b.y1) - math.Max(a.y0, b.y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// occupancy is the boxes of what region names should keep clear of:
// spaces, their names and stacks.
func (r *renderer) occupancy() []box {
	var out []box
	for _, s := range r.net.Spaces {
		c, rad := r.at(s.ID), spaceRadius(s)
		out = append(out, box{c.x - rad, c.y - rad, c.x + rad, c.y + rad})
		x0, y0, x1, y1, _ := r.nameBox(s)
		out = append(out, box{x0, y0, x1, y1})
	}
	for _, st := range r.netStacks() {
		f := r.fronts[st[0].Space]
		x0, y0, x1, y1 := r.stackBox(st, f.p, f.left)
		out = append(out, box{x0, y0, x1, y1})
	}
	return out
}

// regionNames names each region inside its outline, at the place among a
// few around its spaces and along its links that covers the least.
func (r *renderer) regionNames(occ []box, mapW, mapH int) {
	for i, rg := range r.net.Regions {
		name := strings.ToUpper(cmp.Or(rg.Name, rg.ID))
		tint, line := regionTint(rg, i)
		w := float64(r.fRegion.width(name))
		h := float64(r.fRegion.ascent)
		var members []board.Space
		var cx, cy float64
		for _, s := range r.net.Spaces {
			if s.Region == rg.ID {
				members = append(members, s)
				c := r.at(s.ID)
				cx, cy = cx+c.x, cy+c.y
			}
		}
		if len(members) == 0 {
			continue
		}
		cx, cy = cx/float64(len(members)), cy/float64(len(members))
		inside := func(p pt) bool {
			for _, s := range members {
				if p.sub(r.at(s.ID)).len() <= regionPad-3 {
					return true
				}
			}
			for _, b := range r.bridges[rg.ID] {
				if distToSegment(p, b[0], b[1]) <= regionPad*0.75-3 {
					return true
				}
			}
			return false
		}
		var cands []pt
		for _, s := range members {
			c, rad := r.at(s.ID), spaceRadius(s)
			cands = append(cands,
				pt{c.x, c.y - rad - h/2 - 4},
				pt{c.x, c.y + rad + h + 12},
				pt{c.x - rad - w/2 - 5, c.y},
				pt{c.x + rad + w/2 + 5, c.y + rad + h/2 + 3},
				pt{c.x, c.y - rad - h/2 - 14},
				pt{c.x - rad - w/2 - 5, c.y + rad + h/2 + 3})
		}
		for _, b := range r.bridges[rg.ID] {
			p, q := b[0], b[1]
			m := lerp(p, q, 0.5)
			n := q.sub(p).unit().perp().mul(h/2 + 5)
			cands = append(cands, m, m.add(n), m.sub(n))
		}
		best, bestScore := cands[0], math.Inf(1)
		for _, c := range cands {
			b := box{c.x - w/2 - 2, c.y - h/2 - 2, c.x + w/2 + 2, c.y + h/2 + 2}
			score := math.Hypot(c.x-cx, c.y-cy) * 0.3
			if b.x0 < r.nx || b.y0 < r.ny || b.x1 > r.nx+float64(mapW) || b.y1 > r.ny+float64(mapH) {
				score += 1e6
			}
			for _, p := range []pt{{b.x0, b.y0}, {b.x1, b.y0}, {b.x0, b.y1}, {b.x1, b.y1}, c} {
				if !inside(p) {
					score += 500
				}
			}
			for _, l := range r.net.Links {
				if b.hits(r.at(l.A), r.at(l.B)) {
					score += 400
				}
			}
			for _, o := range occ {
				score += 40 * b.overlap(o)
			}
			if score < bestScore {
				best, bestScore = c, score
			}
		}
		occ = append(occ, box{best.x - w/2 - 2, best.y - h/2 - 2, best.x + w/2 + 2, best.y + h/2 + 2})
		r.lay.labels = append(r.lay.labels, laidBox{place: "region " + rg.ID, text: name, b: box{best.x - w/2, best.y - h/2, best.x + w/2, best.y + h/2}})
		base := int(math.Round(best.y + h/2 - 1))
		r.cv.haloText(r.fRegion, name, int(math.Round(best.x)), base, darker(line, 0.8), tint)
	}
}

// distToSegment is the distance from p to the segment ab.
func distToSegment(p, a, b pt) float64 {
	d := b.sub(a)
	l2 := d.x*d.x + d.y*d.y
	if l2 == 0 {
		return p.sub(a).len()
	}
	t := math.Max(0, math.Min(1, ((p.x-a.x)*d.x+(p.y-a.y)*d.y)/l2))
	return p.sub(a.add(d.mul(t))).len()
}

func (r *renderer) netArrows() {
	for _, a := range r.m.Arrows {
		p, q := r.at(a.FromSpace), r.at(a.ToSpace)
		d := q.sub(p)
		if d.len() == 0 {
			continue
		}
		u := d.unit()
		from, to := spaceRadius(*r.spaces[a.FromSpace]), spaceRadius(*r.spaces[a.ToSpace])
		r.drawArrow(a.Kind, p.add(u.mul(from+4)), q.sub(u.mul(to+3)))
		r.lay.arrows = append(r.lay.arrows, laidArrow{kind: a.Kind, places: []string{a.FromSpace, a.ToSpace}, course: []pt{p, q}, ink: arrowInk(a.Kind)})
	}
}
