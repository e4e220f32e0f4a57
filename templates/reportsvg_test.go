package templates

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestReportOffersTheDrawing: a report with a map carries it as PNG and as
// SVG (GAME-stepN.svg, an svg document of the PNG's size), and both parts
// offer the drawing; a drawing over MaxSVGBytes is left out and the report
// says why.
func TestReportOffersTheDrawing(t *testing.T) {
	rs, err := NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	out, err := rs.Render(benchReport())
	if err != nil {
		t.Fatal(err)
	}
	if out.SVGFile != "club-kosovo-3-step12.svg" || out.SVG == nil {
		t.Fatalf("SVGFile %q, %d bytes", out.SVGFile, len(out.SVG))
	}
	var root struct {
		XMLName xml.Name
		Width   int `xml:"width,attr"`
		Height  int `xml:"height,attr"`
	}
	if err := xml.Unmarshal(out.SVG, &root); err != nil || root.XMLName.Local != "svg" {
		t.Fatalf("the SVG does not parse: %v", err)
	}
	img, err := png.DecodeConfig(bytes.NewReader(out.Map))
	if err != nil {
		t.Fatal(err)
	}
	if root.Width != img.Width || root.Height != img.Height {
		t.Errorf("the SVG is %dx%d, the PNG %dx%d", root.Width, root.Height, img.Width, img.Height)
	}
	if want := "The map as a drawing (club-kosovo-3-step12.svg, attached: sharp at any zoom)."; !strings.Contains(out.HTML, want) {
		t.Errorf("the HTML report lacks %q", want)
	}
	if want := "The map as a drawing is attached as club-kosovo-3-step12.svg"; !strings.Contains(out.Text, want) {
		t.Errorf("the text report lacks %q", want)
	}
	big, err := rs.RenderWith(benchReport(), Picture{PNG: out.Map, SVGBytes: 3 << 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if big.SVG != nil || big.SVGFile != "" {
		t.Errorf("a drawing over the bound is attached: %q", big.SVGFile)
	}
	want := "The map as a drawing (SVG) is left out: at 3.0 MiB it is over the 2 MiB a report mail attaches."
	if !strings.Contains(big.HTML, want) || !strings.Contains(strings.Join(strings.Fields(big.Text), " "), want) {
		t.Errorf("the report does not say why the drawing is left out (%q)", want)
	}
}

// TestReportLinksItsPage: the HTML and text reports link the step's web
// page only when the judge says where it is (WithPages), worded as the
// public page when it shows a different map than the reader's.
func TestReportLinksItsPage(t *testing.T) {
	rs, err := NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	const page = "https://judge.example.org/games/club-kosovo-3/steps/12"
	out, err := rs.Render(benchReport())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.HTML, "/steps/") || strings.Contains(out.Text, "/steps/") {
		t.Error("a report links a web page when the judge has no public address")
	}
	for _, differs := range []bool{false, true} {
		rs.WithPages(func(r *adjudicator.Report) (string, bool) { return page, differs })
		out, err := rs.Render(benchReport())
		if err != nil {
			t.Fatal(err)
		}
		label := "This step on the web"
		if differs {
			label = "The public page of this step on the web (it shows what anyone may see, not your own map)"
		}
		if want := `<a href="` + page + `">` + label; !strings.Contains(out.HTML, want) {
			t.Errorf("differs %v: the HTML report lacks %q", differs, want)
		}
		if !strings.Contains(out.Text, page) || !strings.Contains(strings.Join(strings.Fields(out.Text), " "), label) {
			t.Errorf("differs %v: the text report lacks the page:\n%s", differs, out.Text)
		}
	}
}

// TestSVGStaticLayerKept: an SVG picture is the same whether its static
// layer was drawn for it or kept from an earlier picture.
func TestSVGStaticLayerKept(t *testing.T) {
	m := testMap()
	layers.reset()
	var drawn, kept bytes.Buffer
	d0 := layers.drawn.Load()
	if err := RenderSVG(m, &drawn); err != nil {
		t.Fatal(err)
	}
	if err := RenderSVG(m, &kept); err != nil {
		t.Fatal(err)
	}
	if n := layers.drawn.Load() - d0; n != 1 {
		t.Errorf("the static layer was drawn %d times for two pictures", n)
	}
	if !bytes.Equal(drawn.Bytes(), kept.Bytes()) {
		t.Error("the SVG drawn over a kept static layer differs from the one that drew it")
	}
}
