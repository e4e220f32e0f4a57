package templates

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// svgDoc is what the tests read back from an SVG picture.
type svgDoc struct {
	width, height int
	fills         map[string]int // fill colour -> paths
	texts         []string
}

func readSVG(t *testing.T, data []byte) svgDoc {
	t.Helper()
	doc := svgDoc{fills: map[string]int{}}
	dec := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "svg":
				doc.width, _ = strconv.Atoi(attr["width"])
				doc.height, _ = strconv.Atoi(attr["height"])
				if attr["viewBox"] != "0 0 "+attr["width"]+" "+attr["height"] {
					t.Errorf("viewBox %q for %sx%s", attr["viewBox"], attr["width"], attr["height"])
				}
			case "path":
				if f := attr["fill"]; f != "none" {
					doc.fills[f]++
				}
			case "text":
				inText = true
			case "script", "style", "image", "foreignObject", "a":
				t.Errorf("the SVG holds a <%s> element", el.Name.Local)
			}
			for _, a := range el.Attr {
				if strings.HasPrefix(a.Name.Local, "on") || strings.Contains(a.Value, "url(") || a.Name.Local == "href" {
					t.Errorf("<%s> has %s=%q: no scripts or external references", el.Name.Local, a.Name.Local, a.Value)
				}
			}
		case xml.EndElement:
			if el.Name.Local == "text" {
				inText = false
			}
		case xml.CharData:
			if inText {
				doc.texts = append(doc.texts, string(el))
			}
		}
	}
	return doc
}

// TestSVGSamePictureAsPNG renders each test picture both ways: the SVG is
// the PNG's size, every colour it fills with is a flat colour of the PNG
// (drawn there), and every text the map carries (title, hex ids, counter
// designations, strengths, markers, place names) is there as text. The
// browser test (cmd/umpire/web) compares the two pictures pixel by pixel.
func TestSVGSamePictureAsPNG(t *testing.T) {
	t.Parallel()
	for name, m := range map[string]board.Picture{"hexmap": testMap(), "network": testNetwork(), "stacks-hex": stacksHex(),
		"stacks-network": stacksNetwork(), "cropped": testCropped()} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := RenderSVG(m, &buf); err != nil {
				t.Fatal(err)
			}
			doc := readSVG(t, buf.Bytes())
			img, err := Render(m)
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); doc.width != b.Dx() || doc.height != b.Dy() {
				t.Fatalf("SVG %dx%d, PNG %dx%d", doc.width, doc.height, b.Dx(), b.Dy())
			}
			inPNG := map[string]bool{}
			for i := 0; i < len(img.Pix); i += 4 {
				inPNG[hexColor(color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], 255})] = true
			}
			for c := range doc.fills {
				if !inPNG[c] {
					t.Errorf("the SVG fills with %s, which the PNG does not show", c)
				}
			}
			texts := strings.Join(doc.texts, "\n")
			want := []string{m.Title}
			if m.Grid != nil {
				r, _ := render(m, pixels)
				for _, id := range m.Grid.All() {
					if r.on(id) {
						want = append(want, m.Grid.Format(id))
					}
				}
				for id, l := range m.Labels {
					if r.on(id) {
						want = append(want, l)
					}
				}
			}
			for _, c := range m.Counters {
				if m.Grid != nil && len(m.Crop) > 0 {
					continue
				}
				want = append(want, c.Strength)
				want = append(want, c.Markers...)
			}
			for _, w := range want {
				if w != "" && !strings.Contains(texts, w) {
					t.Errorf("text %q is not in the SVG", w)
				}
			}
		})
	}
}

// TestSVGSize60x40 holds the SVG of the 60x40 test map (every hex with
// terrain, rivers, roads, counters) to the page budget.
func TestSVGSize60x40(t *testing.T) {
	var buf bytes.Buffer
	if err := RenderSVG(testMap(), &buf); err != nil {
		t.Fatal(err)
	}
	t.Logf("60x40 map: SVG %d bytes", buf.Len())
	if buf.Len() > 400<<10 {
		t.Errorf("the SVG of a 60x40 map is %d bytes, want under 400 KiB (the page with it under 500 KB)", buf.Len())
	}
}

func TestSVGEscapesText(t *testing.T) {
	m := stacksHex()
	m.Title = `<script>alert("x")</script> & co`
	var buf bytes.Buffer
	if err := RenderSVG(m, &buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<script>") {
		t.Fatal("the title was not escaped")
	}
	doc := readSVG(t, buf.Bytes())
	if !strings.Contains(strings.Join(doc.texts, "\n"), m.Title) {
		t.Errorf("the escaped title does not read back: %q", doc.texts)
	}
}

func BenchmarkRenderHexMapSVG(b *testing.B) {
	m := testMap()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := RenderSVG(m, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}

// TestSVGPlaces: the SVG names every place drawn with its centre, and
// every unit of a stack over its counters with its values, for a page's
// script; the layer paints nothing.
func TestSVGPlaces(t *testing.T) {
	for name, m := range map[string]board.Picture{"hex": stacksHex(), "network": stacksNetwork()} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := RenderSVG(m, &buf); err != nil {
				t.Fatal(err)
			}
			svg := buf.String()
			i := strings.Index(svg, `<g class="places" fill="none" pointer-events="all"`)
			if i < 0 {
				t.Fatalf("no layer of places:\n%s", svg[max(0, len(svg)-2000):])
			}
			layer := svg[i:]
			if strings.Contains(layer, "fill=\"#") || strings.Contains(layer, "stroke=") || strings.Contains(layer, "<text") {
				t.Errorf("the layer of places paints something:\n%s", layer)
			}
			attr := "data-hex"
			if m.Network != nil {
				attr = "data-space"
			}
			places := regexp.MustCompile(`data-places="([^"]*)"`).FindStringSubmatch(layer)
			if places == nil {
				t.Fatal("no data-places")
			}
			centres := map[string]bool{}
			for e := range strings.SplitSeq(places[1], ";") {
				f := strings.Fields(e)
				if len(f) < 3 {
					t.Fatalf("place entry %q", e)
				}
				centres[strings.Join(f[:len(f)-2], " ")] = true
			}
			for _, cn := range m.Counters {
				place := cn.Space
				if m.Network == nil {
					place = cn.Hex.String()
				}
				if !centres[place] {
					t.Errorf("%s's place %s is not in data-places", cn.ID, place)
				}
				want := fmt.Sprintf(`<rect %s="%s" data-unit="%s" data-side="%s" data-type="%s" data-strength="%s"`, attr, place, cn.ID, cn.Side, cn.Type, cn.Strength)
				if !strings.Contains(layer, want) {
					t.Errorf("no box %s", want)
				}
			}
		})
	}
}
