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

func renderNetwork(m board.Picture, art *mapArt, mk func(w, h int) surface) (*renderer, error) {
	if err := checkNetwork(m); err != nil {
		return nil, err
	}
	r, err := newRenderer(m, mk)
	if err != nil {
		return nil, err
	}
	n := m.Network
	r.net, r.art = n, art
	r.spaces = make(map[string]*board.Space, len(n.Spaces))
	for i := range n.Spaces {
		r.spaces[n.Spaces[i].ID] = &n.Spaces[i]
	}
	r.nk = networkScale(n)
	w, h := n.Width, n.Height
	if w == 0 || h == 0 {
		// no size given: the box around the spaces.
		for _, s := range n.Spaces {
			w, h = math.Max(w, s.X+60), math.Max(h, s.Y+40)
		}
	}
	mapW, mapH := int(math.Ceil(w*r.nk)), int(math.Ceil(h*r.nk))
	r.hexStacks = r.numberStacks(r.netStacks(), true)
	x0, y0 := r.frame(mapW, mapH, r.artLegend(append(r.legendItems(), r.stackList()...)))
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
		Scale   float64
	}{n.Regions, n.Links, make([]place, len(n.Spaces)), r.nk}
	for i, s := range n.Spaces {
		content.Spaces[i] = place{s.ID, s.Region, s.X, s.Y}
	}
	key, draw := r.artLayer(content, func() {
		// where the map is on the surface drawn on.
		x0, y0 := int(r.nx), int(r.ny)
		r.cv.rect(image.Rect(x0-1, y0-1, x0+mapW+1, y0+mapH+1), paperLine)
		r.cv.rect(image.Rect(x0, y0, x0+mapW, y0+mapH), paper)
		r.bridges = r.regionBridges()
		r.regions()
		r.links()
	}, image.Rect(x0, y0, x0+mapW, y0+mapH), r.nk, r.nx, r.ny, nil)
	if err := r.static(y0-margin, mapH+2*margin, key, draw); err != nil {
		return nil, fmt.Errorf("templates: map: %w", err)
	}
	r.bridges = r.regionBridges()
	occ := r.placeNetStacks()
	r.stackHalos() // under the names, spaces and counters
	occ = r.regionNames(occ, mapW, mapH)
	r.placeNames(occ)
	for _, s := range n.Spaces {
		r.drawSpace(s, r.at(s.ID))
		r.lay.spaces = append(r.lay.spaces, laidBox{place: s.ID, text: nameOf(s), b: r.spaceBox(s)})
	}
	for _, nl := range r.netLabels {
		r.spaceName(nl)
	}
	for _, hs := range r.hexStacks {
		r.drawHexStack(hs)
	}
	r.netArrows()
	r.finish()
	return r, nil
}

// minSpacing is the distance, in pixels, the spaces of a point-to-point
// map are drawn apart at least on average with their nearest neighbour:
// room for a name or a stack between two spaces.
const minSpacing = 62.0

// networkScale is how much larger than its coordinates a network is
// drawn: 1, or more when its spaces stand so close that their names and
// stacks would not fit between them (the median distance of a space to
// its nearest neighbour under minSpacing), at most 2.
func networkScale(n *board.Network) float64 {
	var ds []float64
	for i, a := range n.Spaces {
		d := math.Inf(1)
		for j, b := range n.Spaces {
			if i != j {
				d = math.Min(d, math.Hypot(a.X-b.X, a.Y-b.Y))
			}
		}
		if !math.IsInf(d, 1) {
			ds = append(ds, d)
		}
	}
	if len(ds) == 0 {
		return 1
	}
	slices.Sort(ds)
	med := ds[len(ds)/2]
	if med <= 0 {
		return 1
	}
	return math.Round(math.Max(1, math.Min(2, minSpacing/med))*8) / 8
}

// netLabel is a space's name where it is drawn: its box, its baseline and
// centre, and a leader to the space when it stands off it.
type netLabel struct {
	s      board.Space
	b      box
	cx     int
	base   int
	leader []pt
}

// spaceBox is the box of a space's shape, its ring included.
func (r *renderer) spaceBox(s board.Space) box {
	c, rad := r.at(s.ID), spaceRadius(s)
	return box{c.x - rad, c.y - rad, c.x + rad, c.y + rad}
}

// spot is a place for a box of w x h beside a space: the box, and a
// leader from the space to it when it stands off the space.
type spot struct {
	b      box
	leader []pt
}

// spots are the places for a box of w x h around a space, nearest first:
// in each of the directions dirs just off the space, then further out
// with a leader.
func (r *renderer) spots(s board.Space, w, h float64, dirs [][2]float64) []spot {
	c, rad := r.at(s.ID), spaceRadius(s)
	var out []spot
	for _, gap := range []float64{2, 10, 20, 32, 46, 62, 80} {
		for _, d := range dirs {
			dx, dy := d[0], d[1]
			reach := rad + gap
			if dx != 0 && dy != 0 {
				reach = rad*0.75 + gap
			}
			var x0, y0 float64
			switch {
			case dx > 0:
				x0 = c.x + reach
			case dx < 0:
				x0 = c.x - reach - w
			default:
				x0 = c.x - w/2
			}
			switch {
			case dy > 0:
				y0 = c.y + reach
			case dy < 0:
				y0 = c.y - reach - h
			default:
				y0 = c.y - h/2
			}
			x0, y0 = math.Round(x0), math.Round(y0)
			sp := spot{b: box{x0, y0, x0 + w, y0 + h}}
			if gap > 6 {
				e := pt{math.Max(x0, math.Min(c.x, x0+w)), math.Max(y0, math.Min(c.y, y0+h))}
				if v := e.sub(c); v.len() > rad+3 {
					sp.leader = []pt{c.add(v.unit().mul(rad + 1)), e}
				}
			}
			out = append(out, sp)
		}
	}
	return out
}

// pick is the first of spots that lies in the map and covers nothing of
// occ, else the one that covers least.
func (r *renderer) pick(spots []spot, occ []box) spot {
	best, bestCost := spots[0], math.Inf(1)
	for _, sp := range spots {
		cost := 0.0
		if !r.lay.mapArea.contains(sp.b) {
			cost += 1e6
		}
		for _, o := range occ {
			if c := sp.b.cover(o); c > 0.5 {
				cost += sp.b.overlap(o)
			}
		}
		if cost == 0 {
			return sp
		}
		if cost < bestCost {
			best, bestCost = sp, cost
		}
	}
	return best
}

var (
	// stackDirs are where a stack goes beside its space, in order.
	stackDirs = [][2]float64{{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, -1}, {1, 1}, {-1, 1}}
	// nameDirs are where a name goes.
	nameDirs = [][2]float64{{0, 1}, {1, 0}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
)

// placeNetStacks puts each stack beside its space where it covers no
// space or stack already placed (further out, with a leader, when the
// nearest places are taken), and returns the boxes of the spaces and
// stacks.
func (r *renderer) placeNetStacks() []box {
	var occ []box
	for _, s := range r.net.Spaces {
		occ = append(occ, r.spaceBox(s))
	}
	for i := range r.hexStacks {
		hs := &r.hexStacks[i]
		s := *r.spaces[hs.st[0].Space]
		hs.at, hs.set = pt{}, true
		b := r.hexStackBox(*hs) // relative to (0, 0)
		sp := r.pick(r.spots(s, b.x1-b.x0, b.y1-b.y0, stackDirs), occ)
		hs.at = pt{sp.b.x0 - b.x0, sp.b.y0 - b.y0}
		hs.leader = sp.leader
		occ = append(occ, sp.b)
	}
	return occ
}

// placeNames puts each space's name beside it, under it when there is
// room, where it covers nothing of occ nor a name already placed.
func (r *renderer) placeNames(occ []box) {
	r.netLabels = r.netLabels[:0]
	for _, s := range r.net.Spaces {
		fc := r.nameFace(s)
		w, h, down := float64(fc.width(nameOf(s)))+2, float64(fc.ascent)+4, 1
		if r.art != nil {
			w, h, down = w+6, h+2, 2 // room for its plate
		}
		sp := r.pick(r.spots(s, w, h, nameDirs), occ)
		occ = append(occ, sp.b)
		r.netLabels = append(r.netLabels, netLabel{s: s, b: sp.b, cx: int(math.Round((sp.b.x0 + sp.b.x1) / 2)),
			base: int(sp.b.y0) + fc.ascent + down, leader: sp.leader})
	}
}

func (r *renderer) spaceName(nl netLabel) {
	if len(nl.leader) > 1 {
		r.cv.stroke(rgb(0x333333), nl.leader, 1.2, true)
	}
	if r.art != nil {
		r.namePlate(nl.b)
		r.cv.centred(r.nameFace(nl.s), nameOf(nl.s), nl.cx, nl.base, textInk)
		r.lay.labels = append(r.lay.labels, laidBox{place: nl.s.ID, text: nameOf(nl.s), b: nl.b, ink: textInk, back: white, plate: true})
		return
	}
	halo := color.RGBA{255, 255, 255, 255}
	r.cv.haloText(r.nameFace(nl.s), nameOf(nl.s), nl.cx, nl.base, textInk, halo)
	r.lay.labels = append(r.lay.labels, laidBox{place: nl.s.ID, text: nameOf(nl.s), b: nl.b, ink: textInk, back: halo})
}

func (r *renderer) netStacks() []stack {
	return groupStacks(r.m.Counters, func(c board.Counter) string { return c.Space })
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
		for _, id := range a.SpacePath {
			known(a.Kind+" arrow's path", id)
		}
		if len(a.SpacePath) > 0 && (a.SpacePath[0] != a.FromSpace || a.SpacePath[len(a.SpacePath)-1] != a.ToSpace) {
			bad("%s arrow %s-%s: its path does not run from %[2]s to %[3]s", a.Kind, a.FromSpace, a.ToSpace)
		}
		if !slices.Contains([]string{board.Move, board.Attack, board.AirMove}, a.Kind) {
			bad("unknown arrow kind %q", a.Kind)
		}
	}
	return errors.Join(errs...)
}

// at is the pixel position of a space.
func (r *renderer) at(id string) pt {
	s := r.spaces[id]
	return pt{r.nx + s.X*r.nk, r.ny + s.Y*r.nk}
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

// regionNames names each region inside its outline, at the place among a
// few around its spaces and along its links that covers the least, and
// returns occ with the names' boxes.
func (r *renderer) regionNames(occ []box, mapW, mapH int) []box {
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
			for _, t := range []float64{0.25, 0.75} {
				m := lerp(p, q, t)
				cands = append(cands, m, m.add(n), m.sub(n))
			}
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
				if b.cover(o) > 0.5 {
					score += 5000 + 40*b.overlap(o)
				}
			}
			if score < bestScore {
				best, bestScore = c, score
			}
		}
		outer := box{best.x - w/2 - 2, best.y - h/2 - 2, best.x + w/2 + 2, best.y + h/2 + 2}
		occ = append(occ, outer)
		base := int(math.Round(best.y + h/2 - 1))
		if r.art != nil {
			// on map art: on a plate, in the region's colour as dark as
			// the plate needs.
			ink := inkOn(darker(line, 0.8), white)
			r.namePlate(outer)
			r.cv.centred(r.fRegion, name, int(math.Round(best.x)), base, ink)
			r.lay.labels = append(r.lay.labels, laidBox{place: "region " + rg.ID, text: name, b: outer, ink: ink, back: white, plate: true})
			continue
		}
		r.lay.labels = append(r.lay.labels, laidBox{place: "region " + rg.ID, text: name, b: box{best.x - w/2, best.y - h/2, best.x + w/2, best.y + h/2},
			ink: darker(line, 0.8), back: tint})
		r.cv.haloText(r.fRegion, name, int(math.Round(best.x)), base, darker(line, 0.8), tint)
	}
	return occ
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
		places := []string{a.FromSpace, a.ToSpace}
		if len(a.SpacePath) > 2 {
			places = a.SpacePath
		}
		course := make([]pt, len(places))
		for i, id := range places {
			course[i] = r.at(id)
		}
		n := len(course)
		p, q := course[0], course[n-1]
		if q.sub(p).len() == 0 || course[1].sub(p).len() == 0 || q.sub(course[n-2]).len() == 0 {
			continue
		}
		pts := slices.Clone(course)
		pts[0] = p.add(course[1].sub(p).unit().mul(spaceRadius(*r.spaces[places[0]]) + 4))
		pts[n-1] = q.sub(q.sub(course[n-2]).unit().mul(spaceRadius(*r.spaces[places[n-1]]) + 3))
		r.drawPathArrow(a.Kind, pts)
		r.lay.arrows = append(r.lay.arrows, laidArrow{kind: a.Kind, places: places, course: course, ink: arrowInk(a.Kind)})
	}
}
