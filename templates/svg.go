package templates

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// FontFamily is the font the SVG picture names for its text: the Go fonts
// the PNG picture is drawn with (golang.org/x/image/font/gofont). A page
// showing the SVG serves them under this family name (Fonts) so that both
// pictures set text alike; without them a browser falls back to sans-serif.
const FontFamily = "Go"

// RenderSVG draws the map as an SVG document: the same picture as
// RenderPNG, from the same layout and drawing calls, as vector shapes and
// text that stay crisp at any zoom. It is sized in the PNG's pixels
// (width, height and viewBox), holds no script, style sheet or external
// reference, and names its fonts by FontFamily. After the picture it
// holds an unpainted layer naming its places and units (places.go), for
// a page's script to hook onto.
func RenderSVG(m board.Picture, w io.Writer) error {
	var sv *svgSurface
	r, err := render(m, func(width, height int) surface {
		sv = newSVG(width, height)
		return sv
	})
	if err != nil {
		return err
	}
	sv.flush()
	r.places(&sv.b)
	return sv.finish(m.Title, w)
}

// svgSurface writes the renderer's calls as SVG elements, in painting
// order. Consecutive fills of one colour share a path, as do consecutive
// lines or strokes of one colour and width, and consecutive texts of one
// face and colour share a group; a run of tiles (fillConvex) is grouped by
// colour, since tiles do not overlap. Path data is relative and rounded to
// a tenth of a pixel. A 60x40 hex map stays a few hundred kilobytes.
type svgSurface struct {
	w, h int
	b    bytes.Buffer
	// the element being added to.
	open elemKey
	d    pathData
	// a run of tiles: path data by colour, in order of first use.
	tiles     map[color.RGBA]*pathData
	tileOrder []color.RGBA
	scratch   []byte
}

// elemKey says what an open element is: consecutive calls with the same
// key add to it.
type elemKey struct {
	kind   int // 0 none, openFill, openLine, openStroke, openText
	color  color.RGBA
	width  float64
	fc     *face
	caps   bool // openStroke: round ends
	middle bool // openText: anchored at its middle
}

const (
	openFill = iota + 1
	openLine
	openStroke
	openText
)

func newSVG(w, h int) *svgSurface { return &svgSurface{w: w, h: h} }

func (s *svgSurface) bounds() image.Rectangle { return image.Rect(0, 0, s.w, s.h) }

// flush closes the open element and writes a pending run of tiles.
func (s *svgSurface) flush() {
	k := s.open
	switch k.kind {
	case openFill:
		fmt.Fprintf(&s.b, "<path fill=\"%s\" d=\"%s\"/>\n", hexColor(k.color), s.d.d)
	case openLine:
		fmt.Fprintf(&s.b, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" d=\"%s\"/>\n", hexColor(k.color), num(k.width), s.d.d)
	case openStroke:
		caps := "butt"
		if k.caps {
			caps = "round"
		}
		fmt.Fprintf(&s.b, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\" stroke-linecap=\"%s\" d=\"%s\"/>\n",
			hexColor(k.color), num(k.width), caps, s.d.d)
	case openText:
		s.b.WriteString("</g>\n")
	}
	s.open = elemKey{}
	s.d.reset()
	for _, c := range s.tileOrder {
		fmt.Fprintf(&s.b, "<path fill=\"%s\" d=\"%s\"/>\n", hexColor(c), s.tiles[c].d)
		delete(s.tiles, c)
	}
	s.tileOrder = s.tileOrder[:0]
}

func rgba(c color.Color) color.RGBA { return color.RGBAModel.Convert(c).(color.RGBA) }

func (s *svgSurface) begin(k elemKey) {
	if s.open == k && len(s.tileOrder) == 0 {
		return
	}
	s.flush()
	s.open = k
	if k.kind == openText {
		weight, anchor := "", ""
		if k.fc.bold {
			weight = ` font-weight="bold"`
		}
		if k.middle {
			anchor = ` text-anchor="middle"`
		}
		fmt.Fprintf(&s.b, "<g font-family=\"%s, sans-serif\" font-size=\"%s\"%s%s fill=\"%s\">\n", FontFamily, num(k.fc.size), weight, anchor, hexColor(k.color))
	}
}

func (s *svgSurface) fill(c color.Color, polys ...[]pt) {
	s.begin(elemKey{kind: openFill, color: rgba(c)})
	for _, p := range polys {
		s.d.polygon(p)
	}
}

func (s *svgSurface) fillConvex(c color.Color, poly []pt) {
	if s.open.kind != 0 {
		s.flush()
	}
	if s.tiles == nil {
		s.tiles = map[color.RGBA]*pathData{}
	}
	rc := rgba(c)
	pd, ok := s.tiles[rc]
	if !ok {
		pd = &pathData{}
		s.tiles[rc] = pd
		s.tileOrder = append(s.tileOrder, rc)
	}
	pd.polygon(poly)
}

func (s *svgSurface) rect(r image.Rectangle, c color.Color) {
	r = r.Intersect(s.bounds())
	if r.Empty() {
		return
	}
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	s.fill(c, []pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})
}

func (s *svgSurface) line(c color.Color, p, q pt, w float64) {
	s.begin(elemKey{kind: openLine, color: rgba(c), width: w})
	if !s.d.at(p) {
		s.d.moveTo(p)
	}
	s.d.lineTo(q)
}

func (s *svgSurface) stroke(c color.Color, path []pt, w float64, roundCaps bool) {
	if len(path) < 2 {
		return
	}
	s.begin(elemKey{kind: openStroke, color: rgba(c), width: w, caps: roundCaps})
	s.d.moveTo(path[0])
	for _, p := range path[1:] {
		s.d.lineTo(p)
	}
}

func (s *svgSurface) text(fc *face, str string, x, y int, c color.Color) {
	s.textAt(fc, str, x, y, c, false)
}

// centred anchors the text at its middle: centred in the browser's
// metrics too.
func (s *svgSurface) centred(fc *face, str string, x, y int, c color.Color) {
	s.textAt(fc, str, x, y, c, true)
}

func (s *svgSurface) textAt(fc *face, str string, x, y int, c color.Color, middle bool) {
	if str == "" {
		return
	}
	s.begin(elemKey{kind: openText, color: rgba(c), fc: fc, middle: middle})
	s.scratch = s.scratch[:0]
	s.scratch = append(s.scratch, `<text x="`...)
	s.scratch = strconv.AppendInt(s.scratch, int64(x), 10)
	s.scratch = append(s.scratch, `" y="`...)
	s.scratch = strconv.AppendInt(s.scratch, int64(y), 10)
	if !middle && utf8.RuneCountInString(str) > 3 {
		// as wide as the canvas sets it, glyph advances rounded, whatever
		// the browser's own spacing: a long text ends where it does there.
		s.scratch = append(s.scratch, `" textLength="`...)
		s.scratch = strconv.AppendInt(s.scratch, int64(fc.width(str)), 10)
	}
	s.scratch = append(s.scratch, `">`...)
	s.scratch = appendEscaped(s.scratch, str)
	s.scratch = append(s.scratch, "</text>\n"...)
	s.b.Write(s.scratch)
}

// haloText rings the text with a stroke of the halo colour painted under
// its fill: what the canvas does with eight offset copies.
func (s *svgSurface) haloText(fc *face, str string, x, y int, c, halo color.Color) {
	s.flush()
	weight := ""
	if fc.bold {
		weight = ` font-weight="bold"`
	}
	fmt.Fprintf(&s.b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-family=\"%s, sans-serif\" font-size=\"%s\"%s fill=\"%s\" stroke=\"%s\" stroke-width=\"2.5\" stroke-linejoin=\"round\" paint-order=\"stroke\">%s</text>\n",
		x, y, FontFamily, num(fc.size), weight, hexColor(rgba(c)), hexColor(rgba(halo)), appendEscaped(nil, str))
}

// pathData is SVG path data: absolute moves, relative lines between
// points rounded to tenths of a pixel (the deltas are taken between
// rounded points, so nothing drifts).
type pathData struct {
	d      []byte
	x, y   int64 // the current point, in tenths
	cmd    byte  // the last command letter written
	inPath bool
}

func (pd *pathData) reset() { pd.d, pd.cmd, pd.inPath = pd.d[:0], 0, false }

func tenths(v float64) int64 { return int64(math.Round(v * 10)) }

// at reports whether p is the current point.
func (pd *pathData) at(p pt) bool { return pd.inPath && tenths(p.x) == pd.x && tenths(p.y) == pd.y }

func (pd *pathData) moveTo(p pt) {
	pd.x, pd.y = tenths(p.x), tenths(p.y)
	pd.d = append(pd.d, 'M')
	pd.d = appendTenths(pd.d, pd.x, false)
	pd.d = appendTenths(pd.d, pd.y, true)
	pd.cmd, pd.inPath = 'M', true
}

func (pd *pathData) lineTo(p pt) {
	x, y := tenths(p.x), tenths(p.y)
	sep := true
	if pd.cmd != 'l' {
		pd.d = append(pd.d, 'l')
		pd.cmd, sep = 'l', false
	}
	pd.d = appendTenths(pd.d, x-pd.x, sep)
	pd.d = appendTenths(pd.d, y-pd.y, true)
	pd.x, pd.y = x, y
}

func (pd *pathData) polygon(p []pt) {
	if len(p) < 3 {
		return
	}
	// one winding for all, so that overlaps unite under the nonzero
	// rule, as on the canvas.
	rev := area(p) < 0
	at := func(i int) pt {
		if rev {
			return p[len(p)-1-i]
		}
		return p[i]
	}
	pd.moveTo(at(0))
	for i := 1; i < len(p); i++ {
		pd.lineTo(at(i))
	}
	pd.d = append(pd.d, 'z')
	pd.cmd, pd.inPath = 'z', false
}

// appendTenths appends v/10 as a number of path data, after a separator
// when sep is set and the number does not start with its sign.
func appendTenths(b []byte, v int64, sep bool) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	} else if sep {
		b = append(b, ' ')
	}
	b = strconv.AppendInt(b, v/10, 10)
	if f := v % 10; f != 0 {
		b = append(b, '.', byte('0'+f))
	}
	return b
}

// finish writes the document: the root element, a title for screen
// readers, and the elements.
func (s *svgSurface) finish(title string, w io.Writer) error {
	s.flush()
	var head bytes.Buffer
	fmt.Fprintf(&head, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"map\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-labelledby=\"map-title\">\n",
		s.w, s.h, s.w, s.h)
	fmt.Fprintf(&head, "<title id=\"map-title\">%s</title>\n", appendEscaped(nil, title))
	if _, err := w.Write(head.Bytes()); err != nil {
		return err
	}
	if _, err := w.Write(s.b.Bytes()); err != nil {
		return err
	}
	_, err := io.WriteString(w, "</svg>\n")
	return err
}

// Fonts are the font files of FontFamily, by file name: a page that shows
// the SVG serves them and names them in an @font-face rule (regular and
// bold).
func Fonts() map[string][]byte {
	return map[string][]byte{"Go-Regular.ttf": goregular.TTF, "Go-Bold.ttf": gobold.TTF}
}

func hexColor(c color.RGBA) string {
	const digits = "0123456789abcdef"
	return string([]byte{'#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15]})
}

// appendNum appends v rounded to a tenth of a pixel, as short as it goes.
func appendNum(b []byte, v float64) []byte {
	v = math.Round(v*10) / 10
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

func num(v float64) string { return string(appendNum(nil, v)) }

// appendEscaped appends s escaped for XML text and attribute values.
func appendEscaped(b []byte, s string) []byte {
	for _, r := range s {
		switch r {
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '&':
			b = append(b, "&amp;"...)
		case '"':
			b = append(b, "&quot;"...)
		case '\'':
			b = append(b, "&#39;"...)
		default:
			if r < 0x20 && r != '\t' && r != '\n' || r == 0xfffe || r == 0xffff {
				r = '\ufffd' // not allowed in XML
			}
			b = append(b, string(r)...)
		}
	}
	return b
}
