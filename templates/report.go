package templates

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"text/template"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// The report templates, embedded; a directory given to NewReports may hold
// files of the same names that replace them (docs/templates.md).
//
//go:embed report/report.txt report/report.html
var embedded embed.FS

// Template file names.
const (
	TextTemplate = "report.txt"
	HTMLTemplate = "report.html"
)

// Reports renders situation reports: a plain-text part, an HTML part and the
// map picture.
type Reports struct {
	text *template.Template
	html *htmltemplate.Template
	// drawn counts the pictures RenderBatch drew.
	drawn atomic.Int64
	// images finds the map images pictures are drawn on (mapart.go).
	images MapImages
	// pages finds the public web page of a report's step (WithPages).
	pages Pages
}

// NewReports loads the templates: the embedded ones, each replaced by a
// file of the same name in dir when dir is set and holds one. A template
// that does not parse is an error naming the file.
func NewReports(dir string) (*Reports, error) {
	read := func(name string) ([]byte, string, error) {
		if dir != "" {
			p := filepath.Join(dir, name)
			b, err := os.ReadFile(p)
			if err == nil {
				return b, p, nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, p, fmt.Errorf("templates: %w", err)
			}
		}
		b, err := embedded.ReadFile("report/" + name)
		return b, "embedded " + name, err
	}
	rs := &Reports{}
	b, src, err := read(TextTemplate)
	if err != nil {
		return nil, err
	}
	if rs.text, err = template.New(TextTemplate).Funcs(textFuncs).Option("missingkey=error").Parse(string(b)); err != nil {
		return nil, fmt.Errorf("templates: %s: %w", src, err)
	}
	if b, src, err = read(HTMLTemplate); err != nil {
		return nil, err
	}
	if rs.html, err = htmltemplate.New(HTMLTemplate).Funcs(htmlFuncs).Option("missingkey=error").Parse(string(b)); err != nil {
		return nil, fmt.Errorf("templates: %s: %w", src, err)
	}
	return rs, nil
}

// Rendered is a report ready for mail.
type Rendered struct {
	Subject string
	Text    string
	HTML    string
	// Map is the PNG picture, nil when the report has none; the HTML shows
	// it as cid:MapCID and it is sent as MapFile.
	Map             []byte
	MapCID, MapFile string
	// SVG is the same picture as a drawing, attached as SVGFile beside the
	// PNG; nil when the report has no picture or the drawing is too big
	// to mail (MaxSVGBytes; the report then says so).
	SVG     []byte
	SVGFile string
}

// MaxSVGBytes bounds the SVG a report mail attaches: a bigger drawing is
// left out (the report says so), so that a report mail stays a few
// megabytes at most. The 60x40 hex test map's drawing is about 400 kB;
// one on a map image, which embeds the image, can pass it.
const MaxSVGBytes = 2 << 20

// Picture is a report's map drawn: the PNG the HTML part shows and the
// SVG attached beside it (nil when too big to mail: MaxSVGBytes).
type Picture struct {
	PNG, SVG []byte
	// SVGBytes is the drawing's size when it was left out as too big.
	SVGBytes int
}

// ReportData is what the templates receive: the report and a few values
// derived from it.
type ReportData struct {
	*adjudicator.Report
	// MapCID is the Content-ID of the map picture ("" when there is none),
	// MapFile its file name.
	MapCID, MapFile string
	// SVGFile is the file name of the map as a drawing, attached ("" when
	// there is none); SVGLeftOut says why a drawing was left out.
	SVGFile, SVGLeftOut string
	// Page is the address of the step's public web page ("" when the
	// judge has no public address or the game is unlisted); PageDiffers
	// is set when that page shows less than the reader's own map (fog of
	// war, or map art kept off the web).
	Page        string
	PageDiffers bool
	// Width is the text part's line width.
	Width int
}

// Pages says where the public web page of a report's step is ("" for
// none), and whether it shows a different map than the report's (a seat's
// own view under fog of war, or the game master's map art the pages do
// not show): the reader is then told it is the public page.
type Pages func(r *adjudicator.Report) (url string, differs bool)

// WithPages makes rs link each report to its step's public web page; it
// returns rs. Set it before rs is shared.
func (rs *Reports) WithPages(pages Pages) *Reports {
	rs.pages = pages
	return rs
}

// Render renders r. The picture is drawn first; when it cannot be drawn the
// report says so instead of failing, so the report still goes out.
func (rs *Reports) Render(r *adjudicator.Report) (*Rendered, error) {
	var pic Picture
	var drawErr error
	if r.Picture != nil {
		pic, drawErr = rs.picture(*r.Picture)
	}
	return rs.RenderWith(r, pic, drawErr)
}

// picture draws p as PNG and SVG; an SVG over MaxSVGBytes is left out.
func (rs *Reports) picture(p board.Picture) (Picture, error) {
	var png, svg bytes.Buffer
	if err := rs.picturePNG(p, &png); err != nil {
		return Picture{}, err
	}
	pic := Picture{PNG: png.Bytes()}
	if err := RenderSVGOn(p, rs.images.For(p), &svg); err != nil {
		return Picture{}, err
	}
	if svg.Len() > MaxSVGBytes {
		pic.SVGBytes = svg.Len()
	} else {
		pic.SVG = svg.Bytes()
	}
	return pic, nil
}

// RenderWith renders r with its picture drawn already: pic, or the error
// that kept it from being drawn (which the report then mentions).
func (rs *Reports) RenderWith(r *adjudicator.Report, pic Picture, drawErr error) (*Rendered, error) {
	out := &Rendered{Subject: r.Subject()}
	d := ReportData{Report: r, Width: 72}
	if r.Picture != nil {
		if drawErr != nil || pic.PNG == nil {
			if drawErr == nil {
				drawErr = errors.New("no picture")
			}
			d.Notices = append(append([]string{}, d.Notices...), "The map picture could not be drawn: "+drawErr.Error())
		} else {
			out.Map = pic.PNG
			out.MapFile = fmt.Sprintf("%s-step%d.png", r.Game, r.Step)
			out.MapCID = fmt.Sprintf("map-%s-step%d@umpire", r.Game, r.Step)
			d.MapCID, d.MapFile = out.MapCID, out.MapFile
			switch {
			case pic.SVG != nil:
				out.SVG = pic.SVG
				out.SVGFile = fmt.Sprintf("%s-step%d.svg", r.Game, r.Step)
				d.SVGFile = out.SVGFile
			case pic.SVGBytes > 0:
				d.SVGLeftOut = fmt.Sprintf("the map as a drawing (SVG) is left out: at %.1f MiB it is over the %d MiB a report mail attaches",
					float64(pic.SVGBytes)/(1<<20), MaxSVGBytes>>20)
			}
		}
		if rs.pages != nil {
			d.Page, d.PageDiffers = rs.pages(r)
		}
	}
	var tb, hb bytes.Buffer
	if err := rs.text.Execute(&tb, d); err != nil {
		return nil, fmt.Errorf("templates: text report: %w", err)
	}
	if err := rs.html.Execute(&hb, d); err != nil {
		return nil, fmt.Errorf("templates: html report: %w", err)
	}
	out.Text, out.HTML = tb.String(), hb.String()
	return out, nil
}

var textFuncs = template.FuncMap{
	"stamp": stamp,
	"wrap":  wrap,
	"join":  strings.Join,
	"table": table,
	"units": units,
	"die":   die,
	"pad":   func(n int, s string) string { return s + strings.Repeat(" ", max(n-len([]rune(s)), 0)) },
	"ints":  ints,
	"track": track,
	"upper": strings.ToUpper,
	"rule":  rule,
	"add1":  func(i int) int { return i + 1 },
	"paras": paras,
	"choices": func(form string) []adjudicator.Choice {
		_, cs := adjudicator.FormChoices(form)
		return cs
	},
	"handName":  handName,
	"plural":    plural,
	"upper1":    upper1,
	"pageLabel": pageLabel,
}

var htmlFuncs = htmltemplate.FuncMap{
	"stamp": stamp,
	"join":  strings.Join,
	"ints":  ints,
	"track": track,
	"rule":  rule,
	"add1":  func(i int) int { return i + 1 },
	"choices": func(form string) []adjudicator.Choice {
		_, cs := adjudicator.FormChoices(form)
		return cs
	},
	"handName":  handName,
	"plural":    plural,
	"upper1":    upper1,
	"pageLabel": pageLabel,
}

// upper1 starts s with a capital letter.
func upper1(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// pageLabel is what the link to a step's web page says: the public page,
// when it shows less than the reader's own map (differs).
func pageLabel(differs bool) string {
	if differs {
		return "The public page of this step on the web (it shows what anyone may see, not your own map)"
	}
	return "This step on the web (its page, with the map that zooms)"
}

// handName is what the reader's hidden holding is called in a heading:
// the game's name for it (Situation.HandName), else "hand".
func handName(name string) string {
	if name == "" {
		return "HAND"
	}
	return strings.ToUpper(name)
}

// paras wraps text to width: lines without indent that follow each other
// are a paragraph; an indented line keeps its leading spaces as the
// indent of the lines it breaks into.
func paras(width int, text string) string {
	var out []string
	var lines []string
	// a line without indent that follows one goes on its paragraph
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if n := len(lines); n > 0 && lines[n-1] != "" && !strings.HasPrefix(lines[n-1], " ") && l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "-") {
			lines[n-1] += " " + l
			continue
		}
		lines = append(lines, l)
	}
	for _, l := range lines {
		body := strings.TrimLeft(l, " ")
		indent := l[:len(l)-len(body)]
		if body == "" {
			out = append(out, "")
			continue
		}
		out = append(out, wrap(width, indent, indent+"  ", body))
	}
	return strings.Join(out, "\n")
}

// stamp formats a time for players: UTC, to the minute.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "no deadline"
	}
	return t.UTC().Format("Mon 2 Jan 2006 15:04 MST")
}

func ints(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, " ")
}

// rule formats a rule citation: "[11.5]" or "".
func rule(r string) string {
	if r == "" {
		return ""
	}
	return "[" + r + "]"
}

// track formats a track value: "3 of 14", "good", "12".
func track(name string, value, lo, hi int, text string) string {
	switch {
	case text != "":
		return text
	case hi > 0:
		return fmt.Sprintf("%d of %d", value, hi)
	}
	return fmt.Sprint(value)
}

// wrap breaks s into lines of at most width runes after indent, the first
// line starting with first instead of indent. Words longer than the line
// stay whole.
func wrap(width int, first, indent, s string) string {
	var b strings.Builder
	line := first
	n := len([]rune(line))
	empty := true
	for _, w := range strings.Fields(s) {
		wl := len([]rune(w))
		if !empty && n+1+wl > width {
			b.WriteString(strings.TrimRight(line, " "))
			b.WriteByte('\n')
			line, n, empty = indent, len([]rune(indent)), true
		}
		if !empty {
			line += " "
			n++
		}
		line += w
		n += wl
		empty = false
	}
	b.WriteString(strings.TrimRight(line, " "))
	return b.String()
}

// table lays out rows as aligned columns, each line starting with indent;
// the first row is the header, underlined.
func table(indent string, rows [][]string) string {
	if len(rows) == 0 {
		return ""
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], len([]rune(c)))
			}
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		var l strings.Builder
		l.WriteString(indent)
		for i, c := range cells {
			if i >= len(widths) {
				break
			}
			l.WriteString(c)
			if i < len(cells)-1 {
				l.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+2))
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	line(rows[0])
	under := make([]string, len(widths))
	for i, w := range widths {
		under[i] = strings.Repeat("-", w)
	}
	line(under)
	for _, r := range rows[1:] {
		line(r)
	}
	return strings.TrimRight(b.String(), "\n")
}

// units lays out the units table when it fits width, and otherwise a
// list with one wrapped entry per unit: "- Russia R1, Russian squad, at
// 0504, 7/7: rolled 10".
func units(indent string, rows [][]string, width int) string {
	t := table(indent, rows)
	fits := true
	for _, l := range strings.Split(t, "\n") {
		if len([]rune(l)) > width {
			fits = false
			break
		}
	}
	if fits || len(rows) < 2 {
		return t
	}
	var b strings.Builder
	h := rows[0]
	if len(h) >= 6 {
		fmt.Fprintf(&b, "%s(%s %s, %s, at %s, %s: %s)\n", indent, h[0], h[1], h[2], h[3], h[4], h[5])
	}
	for i, r := range rows[1:] {
		if i > 0 {
			b.WriteByte('\n')
		}
		cell := func(i int) string {
			if i < len(r) {
				return r[i]
			}
			return ""
		}
		var parts []string
		head := strings.TrimSpace(cell(0) + " " + cell(1))
		if cell(2) != "" {
			head += ", " + cell(2)
		}
		parts = append(parts, head)
		if cell(3) != "" && cell(3) != "-" {
			parts = append(parts, "at "+cell(3))
		}
		if cell(4) != "" {
			parts = append(parts, cell(4))
		}
		line := strings.Join(parts, ", ")
		if cell(5) != "" {
			line += ": " + cell(5)
		}
		b.WriteString(wrap(width, indent+"- ", indent+"  ", line))
	}
	return b.String()
}

// die is one line of the dice list: number, spec, faces and purpose in
// columns, the purpose wrapped under its column; faces too long for their
// column push the purpose to the next line.
func die(width int, seq uint64, spec string, values []int, sealed bool, purpose string) string {
	faces := ints(values)
	if sealed {
		faces = "sealed"
	}
	const col = 32 // where the purpose starts
	lead := fmt.Sprintf("  #%-4d %-10s ", seq, spec)
	if n := len([]rune(lead + faces)); n < col {
		return wrap(width, lead+faces+strings.Repeat(" ", col-n), strings.Repeat(" ", col), purpose)
	}
	return wrap(width, lead, strings.Repeat(" ", len(lead)), faces) + "\n" + wrap(width, strings.Repeat(" ", col), strings.Repeat(" ", col), purpose)
}

// UnitRows are the units table's rows with a header, for the text template.
func (d ReportData) UnitRows() [][]string {
	rows := [][]string{{"Side", "Unit", "Type", "Where", "Strength", "Status"}}
	for _, u := range d.Units {
		rows = append(rows, []string{u.Side, u.ID, u.Type, u.Where, u.Strength, u.Status})
	}
	return rows
}
