package templates

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// Legibility thresholds.
const (
	// coverTolerance is how far, in pixels, two things drawn may overlap
	// before one covers the other: the antialiased edge of a counter's
	// border.
	coverTolerance = 2.0
	// textContrast is the least contrast of a counter's text against the
	// counter (WCAG 2 1.4.3), groundContrast of a counter's edge against
	// the ground it stands on (WCAG 2 1.4.11).
	textContrast   = 4.5
	groundContrast = 3.0
)

// Legible is what the legibility check found in a picture: its problems,
// each naming the items at fault, and its figures.
type Legible struct {
	Problems []string
	// Counters, Stacks and Labels are how many of each the picture draws;
	// Marked is how many stacks carry a numbered marker.
	Counters, Stacks, Labels, Marked int
	// Overlaps counts a counter (or stack) covering another place's
	// counter, space or name, or a name covering another.
	Overlaps int
	// Clipped counts place names cut by the frame.
	Clipped int
	// TextContrast is the lowest contrast of a counter's text against the
	// counter, GroundContrast of a counter's edge against the ground (0
	// when no counter is drawn); on map art, of a stack's outline (its
	// halo or its edge) against the image pixel around it where it shows
	// least. NameContrast is the lowest contrast of a place name against
	// its plate or halo (0 when no name is drawn).
	TextContrast, GroundContrast, NameContrast float64
	// LegendEntries is how many items the legend shows.
	LegendEntries int
}

// Legibility lays the picture out as RenderPNG and RenderSVG draw it and
// checks that a player can read it: no counter covers another place's
// counter or a place name; each stack shows all its counters or carries a
// numbered marker listed beside the map with its units in order; each name
// lies whole inside the map; counter text against its counter has a
// contrast of at least 4.5:1 and a counter's edge against the ground at
// least 3:1 (WCAG relative luminance); the legend names every side,
// marker, unit symbol, terrain, line and arrow drawn and nothing that is
// not; and each move arrow runs from place to neighbouring place along
// the unit's path, attack arrows in their own colour.
func Legibility(m board.Picture) (Legible, error) {
	return LegibilityOn(m, nil)
}

// LegibilityOn is Legibility for the picture as drawn on the map image
// img (RenderPNGOn): where m carries board.Art the image takes the place
// of the drawn terrain, and the checks that read the ground read the
// image. A stack's outline must stand 3:1 against every pixel of the
// image in a band artBand pixels wide around it: at each pixel its white
// halo does, or else its edge does, against the pixel and against the
// halo. Each name must lie on a plate (an opaque box under the whole
// name, not a halo between whose letters the image shows) and stand
// 4.5:1 against it.
func LegibilityOn(m board.Picture, img *MapImage) (Legible, error) {
	r, err := renderOn(m, img, func(w, h int) surface { return nothing{w, h} })
	if err != nil {
		return Legible{}, err
	}
	return r.legibility(), nil
}

// artBand is how far around a stack's outline the legibility check reads
// the image it stands on, in pixels.
const artBand = 3

func (r *renderer) legibility() Legible {
	l := &r.lay
	var out Legible
	bad := func(format string, a ...any) { out.Problems = append(out.Problems, fmt.Sprintf(format, a...)) }
	out.Counters, out.Stacks, out.Labels = len(l.counters), len(l.stacks), len(l.labels)

	// overlaps
	for i, a := range l.stacks {
		if !l.mapArea.contains(a.b) {
			out.Overlaps++
			bad("the stack at %s runs out of the map", a.place)
		}
		for _, b := range l.stacks[i+1:] {
			if a.place != b.place && a.b.cover(b.b) > coverTolerance {
				out.Overlaps++
				bad("the stack at %s (%s) covers the stack at %s (%s)", a.place, strings.Join(a.units, " "), b.place, strings.Join(b.units, " "))
			}
		}
		for _, s := range l.spaces {
			if s.place != a.place && a.b.cover(s.b) > coverTolerance {
				out.Overlaps++
				bad("the stack at %s covers the space %s", a.place, s.place)
			}
		}
		for _, lb := range l.labels {
			if a.b.cover(lb.b) > coverTolerance {
				out.Overlaps++
				bad("the stack at %s covers the name %q", a.place, lb.text)
			}
		}
	}
	for i, a := range l.labels {
		if !l.mapArea.contains(a.b) {
			out.Clipped++
			bad("the name %q is cut by the frame", a.text)
		}
		for _, b := range l.labels[i+1:] {
			if a.b.cover(b.b) > coverTolerance {
				out.Overlaps++
				bad("the name %q covers the name %q", a.text, b.text)
			}
		}
		for _, s := range l.spaces {
			if s.place != a.place && a.b.cover(s.b) > coverTolerance {
				out.Overlaps++
				bad("the name %q covers the space %s", a.text, s.place)
			}
		}
	}

	// stacks readable
	for _, s := range l.stacks {
		if s.shown >= len(s.units) {
			continue
		}
		out.Marked++
		switch {
		case s.marker == "":
			bad("the stack at %s shows %d of its %d units and has no numbered marker", s.place, s.shown, len(s.units))
		case !l.lists(s):
			bad("the stack at %s is marked %s but the list under the map does not give its units %v, top first", s.place, s.marker, s.units)
		}
	}

	// contrast
	out.TextContrast, out.GroundContrast, out.NameContrast = math.Inf(1), math.Inf(1), math.Inf(1)
	img, imgErr := r.artImage()
	if imgErr != nil {
		bad("the map image: %v", imgErr)
	}
	for _, c := range l.counters {
		t, g, ground := contrast(c.ink, c.fill), contrast(c.edge, c.ground), c.ground
		if img != nil {
			g, ground = r.outlineOnArt(img, c)
		}
		out.TextContrast, out.GroundContrast = math.Min(out.TextContrast, t), math.Min(out.GroundContrast, g)
		if t < textContrast {
			bad("counter %s at %s: text %s on %s has a contrast of %.2f:1, under %.1f:1", c.id, c.place, hexColor(c.ink), hexColor(c.fill), t, textContrast)
		}
		if g < groundContrast {
			bad("counter %s at %s: edge %s on ground %s has a contrast of %.2f:1, under %.1f:1", c.id, c.place, hexColor(c.edge), hexColor(ground), g, groundContrast)
		}
	}
	if len(l.counters) == 0 {
		out.TextContrast, out.GroundContrast = 0, 0
	}
	for _, lb := range l.labels {
		n := contrast(lb.ink, lb.back)
		out.NameContrast = math.Min(out.NameContrast, n)
		if r.art == nil {
			continue // the drawn map's names: measured, as issue 32 left them
		}
		if !lb.plate {
			bad("the name %q is drawn over the map image without a plate", lb.text)
		}
		if n < textContrast {
			bad("the name %q: %s on %s has a contrast of %.2f:1, under %.1f:1", lb.text, hexColor(lb.ink), hexColor(lb.back), n, textContrast)
		}
	}
	if len(l.labels) == 0 {
		out.NameContrast = 0
	}

	// legend
	out.LegendEntries = len(l.legend)
	for _, p := range r.legendProblems() {
		bad("legend: %s", p)
	}

	// arrows
	for _, a := range l.arrows {
		if a.kind == board.Attack {
			for _, b := range l.arrows {
				if b.kind == board.Move && b.ink == a.ink {
					bad("attack arrow %s is drawn like a move arrow", strings.Join(a.places, "-"))
					break
				}
			}
			continue
		}
		if a.kind == board.AirMove {
			continue // a flight goes straight
		}
		for i := 0; i+1 < len(a.places); i++ {
			if !r.neighbours(a, i) {
				bad("move arrow %s jumps from %s to %s: not along the unit's path", strings.Join(a.places, "-"), a.places[i], a.places[i+1])
				break
			}
		}
	}
	return out
}

// lists tells whether the legend has the entry of a marked stack, "(n)
// ...", naming its units top first.
func (l *layout) lists(s laidStack) bool {
	for _, it := range l.legend {
		rest, ok := strings.CutPrefix(it.Label, "("+s.marker+") ")
		if !ok || legendKey(it) != "" {
			continue
		}
		for i := len(s.units) - 1; i >= 0; i-- {
			j := strings.Index(rest, s.units[i])
			if j < 0 {
				return false
			}
			rest = rest[j+len(s.units[i]):]
		}
		return true
	}
	return false
}

// stackEntry tells whether a legend item is an entry of the list of
// marked stacks, "(n) place, ...".
func stackEntry(it board.LegendItem) bool {
	n, ok := strings.CutPrefix(it.Label, "(")
	if !ok || legendKey(it) != "" {
		return false
	}
	d, _, ok := strings.Cut(n, ") ")
	return ok && d != "" && strings.Trim(d, "0123456789") == ""
}

// neighbours tells whether the arrow's places i and i+1 are a step: adjacent
// hexes, or spaces joined by a link.
func (r *renderer) neighbours(ar laidArrow, i int) bool {
	if r.net != nil {
		a, b := ar.places[i], ar.places[i+1]
		return slices.ContainsFunc(r.net.Links, func(l board.Link) bool { return l.A == a && l.B == b || l.A == b && l.B == a })
	}
	return r.g.Adjacent(ar.hexes[i], ar.hexes[i+1])
}

// legendProblems are what the legend misses of what the picture draws,
// and what it lists that the picture does not draw.
func (r *renderer) legendProblems() []string {
	l := &r.lay
	var out []string
	words := map[string]bool{}
	has := map[string]bool{}
	for _, it := range l.legend {
		if stackEntry(it) {
			continue // the list of stacks names units; it explains nothing
		}
		for _, w := range strings.FieldsFunc(it.Label, func(c rune) bool {
			return unicode.IsSpace(c) || strings.ContainsRune(",;:()/", c)
		}) {
			words[w] = true
		}
		if k := legendKey(it); k != "" {
			has[k] = true
		}
	}
	drawn := r.drawnKeys()
	for _, k := range drawn {
		if has[k] {
			continue
		}
		kind, what, _ := strings.Cut(k, " ")
		switch kind {
		case "marker", "symbol":
			if !words[what] {
				out = append(out, fmt.Sprintf("the %s %q is drawn but not explained", kind, what))
			}
		default:
			out = append(out, fmt.Sprintf("the %s %q is drawn but not listed", kind, what))
		}
	}
	for k := range has {
		if !slices.Contains(drawn, k) {
			out = append(out, fmt.Sprintf("lists %s, which the picture does not draw", k))
		}
	}
	slices.Sort(out)
	return out
}

// drawnKeys are what the picture draws that the legend must list, as
// "kind what": sides, markers and unit symbols of the counters, arrows;
// on a hex map the terrain, hexsides and roads; on a point-to-point map
// the link kinds.
func (r *renderer) drawnKeys() []string {
	var out []string
	add := func(k string) {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, c := range r.m.Counters {
		if r.net == nil && !r.on(c.Hex) {
			continue
		}
		if c.Side != "" {
			add("side " + c.Side)
		}
		for _, m := range c.Markers {
			add("marker " + m)
		}
		if c.Type != "" {
			add("symbol " + c.Type)
		}
	}
	for _, a := range r.m.Arrows {
		if r.net != nil || (r.on(a.From) && r.on(a.To)) {
			add("arrow " + a.Kind)
		}
	}
	if r.art != nil {
		// on the map's image, the image shows the terrain and lines
		// (artLegend): the legend leaves them out.
		if r.net != nil && slices.ContainsFunc(r.net.Spaces, func(s board.Space) bool { return s.Key }) {
			add("terrain key")
		}
		return out
	}
	if r.net != nil {
		for _, s := range r.net.Spaces {
			add("terrain " + cmpOr(s.Terrain, "clear"))
			if s.Key {
				add("terrain key")
			}
		}
		for _, lk := range r.net.Links {
			add("line " + cmpOr(lk.Kind, board.RoadKind))
		}
		return out
	}
	var terr []string
	for id, t := range r.m.Terrain {
		if r.on(id) {
			terr = append(terr, t)
		}
	}
	slices.Sort(terr)
	for _, t := range terr {
		add("terrain " + t)
	}
	for _, h := range r.m.Hexsides {
		if r.on(h.A) || r.on(h.B) {
			add("hexside " + h.Kind)
		}
	}
	for _, rd := range r.m.Roads {
		if slices.ContainsFunc(rd.Path, r.on) {
			add("line " + rd.Kind)
		}
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// luminance is the WCAG 2 relative luminance of c.
func luminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// contrast is the WCAG 2 contrast ratio of a and b, 1 to 21.
func contrast(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// artImage is the map image as resampled under the map area: nil when the
// picture is drawn without one; an error when it has one that cannot be
// read (the picture is then drawn on the drawn map, saying why).
func (r *renderer) artImage() (*image.RGBA, error) {
	if r.art == nil || r.art.geo == nil {
		return nil, nil
	}
	return scaledArt(r.art.img, *r.art.geo)
}

// outlineOnArt is the contrast of a counter's outline against the image
// around its stack where it shows least, and the image pixel there: over
// the pixels of a band artBand wide around the stack's halo, at each the
// better of the halo against the pixel and the edge against the pixel
// (and the halo, which it stands on).
func (r *renderer) outlineOnArt(img *image.RGBA, c laidCounter) (float64, color.RGBA) {
	area := r.art.area
	o := box{c.ring.x0 - artBand, c.ring.y0 - artBand, c.ring.x1 + artBand, c.ring.y1 + artBand}
	worst, at := math.Inf(1), color.RGBA{}
	for y := int(math.Floor(o.y0)); y < int(math.Ceil(o.y1)); y++ {
		for x := int(math.Floor(o.x0)); x < int(math.Ceil(o.x1)); x++ {
			if fx, fy := float64(x)+0.5, float64(y)+0.5; fx > c.ring.x0 && fx < c.ring.x1 && fy > c.ring.y0 && fy < c.ring.y1 {
				continue // under the stack or its halo
			}
			p := image.Pt(x, y)
			if !p.In(area) {
				continue
			}
			px := img.RGBAAt(x-area.Min.X, y-area.Min.Y)
			g := contrast(c.edge, px)
			if c.halo.A > 0 {
				g = math.Max(contrast(c.halo, px), math.Min(g, contrast(c.edge, c.halo)))
			}
			if g < worst {
				worst, at = g, px
			}
		}
	}
	if math.IsInf(worst, 1) {
		return contrast(c.edge, c.ground), c.ground
	}
	return worst, at
}
