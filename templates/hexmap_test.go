package templates

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// walk is a hex path from a to b, one neighbour at a time, keeping close to
// the straight line between the centres.
func walk(g board.Grid, a, b board.ID) []board.ID {
	path := []board.ID{a}
	cb := g.Center(b)
	for cur := a; cur != b; {
		best, bestD, bestE := cur, math.MaxInt, math.Inf(1)
		for _, n := range g.Neighbours(cur) {
			c := g.Center(n)
			d, e := g.Distance(n, b), math.Hypot(c.X-cb.X, c.Y-cb.Y)
			if d < bestD || (d == bestD && e < bestE) {
				best, bestD, bestE = n, d, e
			}
		}
		cur = best
		path = append(path, cur)
	}
	return path
}

func hx(col, row int) board.ID { return board.ID{Col: col, Row: row} }

// testMap is a fixed 60x40 map with every feature kind.
func testMap() board.Picture {
	g := board.Grid{Cols: 60, Rows: 40, Orientation: board.FlatTop, IDStyle: board.FourDigit, FirstCol: 1, FirstRow: 1}
	m := board.Picture{
		Title:    "War by Television: Kosovo 1999",
		Subtitle: "Turn 3, NATO player turn, movement - situation after step 12",
		Grid:     &g,
		Terrain:  map[board.ID]string{},
		Labels:   map[board.ID]string{},
	}
	// blobs of terrain from a fixed formula.
	for _, id := range g.All() {
		c, r := float64(id.Col), float64(id.Row)
		v := math.Sin(c*0.31) + math.Cos(r*0.37) + 0.8*math.Sin((c+2*r)*0.17)
		switch {
		case v > 1.7:
			m.Terrain[id] = "mountain"
		case v > 1.0:
			m.Terrain[id] = "rough"
		case v > 0.3:
			m.Terrain[id] = "forest"
		case v < -1.9:
			m.Terrain[id] = "water"
		case v < -1.4:
			m.Terrain[id] = "marsh"
		}
	}
	cities := map[board.ID]string{
		hx(17, 8): "Pristina", hx(9, 27): "Prizren", hx(35, 7): "Beograd", hx(44, 30): "Skopje",
		hx(27, 18): "Urosevac", hx(52, 12): "Nis", hx(6, 14): "Pec",
	}
	for id, name := range cities {
		m.Labels[id] = name
		m.Terrain[id] = "urban"
	}
	// a river zigzagging between columns 20 and 21, rows 3 to 36.
	river := map[[2]board.ID]bool{}
	for r := 3; r <= 36; r++ {
		for _, b := range []board.ID{hx(21, r), hx(21, r+1)} {
			m.Hexsides = append(m.Hexsides, board.Hexside{A: hx(20, r), B: b, Kind: board.River})
			river[[2]board.ID{hx(20, r), b}] = true
			river[[2]board.ID{b, hx(20, r)}] = true
		}
	}
	// a ridge line.
	for r := 24; r <= 30; r++ {
		m.Hexsides = append(m.Hexsides, board.Hexside{A: hx(32, r), B: hx(33, r), Kind: board.Ridge})
	}
	// a border between rows 22 and 23 east of column 30.
	for _, id := range g.All() {
		if id.Col < 30 || id.Row != 22 {
			continue
		}
		for _, n := range g.Neighbours(id) {
			if n.Row > 22 {
				m.Hexsides = append(m.Hexsides, board.Hexside{A: id, B: n, Kind: board.Border})
			}
		}
	}
	m.Roads = []board.Road{
		{Kind: board.Highway, Path: walk(g, hx(6, 14), hx(17, 8))},
		{Kind: board.Highway, Path: walk(g, hx(17, 8), hx(35, 7))},
		{Kind: board.Highway, Path: walk(g, hx(35, 7), hx(52, 12))},
		{Kind: board.RoadKind, Path: walk(g, hx(17, 8), hx(27, 18))},
		{Kind: board.RoadKind, Path: walk(g, hx(27, 18), hx(44, 30))},
		{Kind: board.RoadKind, Path: walk(g, hx(9, 27), hx(27, 18))},
		{Kind: board.Railroad, Path: walk(g, hx(9, 27), hx(44, 30))},
		{Kind: board.Railroad, Path: walk(g, hx(35, 7), hx(44, 30))},
	}
	// bridges wherever a road or railroad crosses the river.
	for _, rd := range m.Roads {
		for i := 0; i+1 < len(rd.Path); i++ {
			if river[[2]board.ID{rd.Path[i], rd.Path[i+1]}] {
				m.Hexsides = append(m.Hexsides, board.Hexside{A: rd.Path[i], B: rd.Path[i+1], Kind: board.Bridge})
			}
		}
	}
	nato, serb := "#5b9bd5", "#c8553d"
	unit := func(hex board.ID, side, id, typ, str string, markers ...string) board.Counter {
		col := nato
		if side == "Serbia" {
			col = serb
		}
		return board.Counter{Hex: hex, Side: side, Color: col, ID: id, Type: typ, Strength: str, Markers: markers}
	}
	m.Counters = []board.Counter{
		// a stack of six at Pristina.
		unit(hx(17, 8), "Serbia", "15", "A", "6-4"),
		unit(hx(17, 8), "Serbia", "125", "M", "4-5"),
		unit(hx(17, 8), "Serbia", "211", "I", "3-3", "D"),
		unit(hx(17, 8), "Serbia", "37", "R", "2-6"),
		unit(hx(17, 8), "Serbia", "52", "Y", "3"),
		unit(hx(17, 8), "Serbia", "549", "M", "5-4", "OOS", "D"),
		// a stack of two.
		unit(hx(27, 18), "Serbia", "243", "I", "3-3"),
		unit(hx(27, 18), "Serbia", "SAJ", "S", "2-4", "Hq"),
		unit(hx(44, 29), "NATO", "KFOR", "M", "8-6"),
		unit(hx(43, 31), "NATO", "1/82", "A", "7-8"),
		unit(hx(45, 31), "NATO", "2/7", "I", "4-4", "OOS"),
		unit(hx(22, 12), "Serbia", "PJP", "P", "2-3"),
		unit(hx(10, 26), "Serbia", "549", "I", "4-3"),
		unit(hx(36, 9), "NATO", "24MEU", "M", "5-6"),
		unit(hx(52, 14), "Serbia", "21", "A", "5-5", "D"),
		unit(hx(28, 30), "NATO", "AH-64", "H", "6"),
	}
	m.Arrows = []board.Arrow{
		{From: hx(44, 29), To: hx(41, 26), Kind: board.Move},
		{From: hx(36, 9), To: hx(38, 12), Kind: board.Move},
		{From: hx(43, 31), To: hx(42, 31), Kind: board.Attack},
		{From: hx(28, 30), To: hx(27, 18), Kind: board.Attack},
	}
	m.Tracks = []board.Track{
		{Name: "Turn", Value: 3, Min: 1, Max: 14},
		{Name: "Phase", Text: "NATO movement"},
		{Name: "NATO VP", Value: 17, Min: 0, Max: 60},
		{Name: "Serb VP", Value: 9, Min: 0, Max: 60},
		{Name: "Air points", Value: 4, Min: 0, Max: 8},
		{Name: "Weather", Text: "clear"},
	}
	m.Legend = []board.LegendItem{
		{Label: "clear", Terrain: "clear"}, {Label: "forest", Terrain: "forest"},
		{Label: "rough", Terrain: "rough"}, {Label: "mountain", Terrain: "mountain"},
		{Label: "marsh", Terrain: "marsh"}, {Label: "water", Terrain: "water"},
		{Label: "urban", Terrain: "urban"},
		{Label: "river", Hexside: board.River}, {Label: "bridge", Hexside: board.Bridge},
		{Label: "ridge", Hexside: board.Ridge}, {Label: "border", Hexside: board.Border},
		{Label: "highway", Road: board.Highway}, {Label: "road", Road: board.RoadKind},
		{Label: "railroad", Road: board.Railroad},
		{Label: "move", Arrow: board.Move}, {Label: "attack", Arrow: board.Attack},
		{Label: "NATO", Color: nato}, {Label: "Serbia", Color: serb},
		{Label: "D disrupted, OOS out of supply, x6 stack of six (top counter drawn last)"},
	}
	return m
}

const goldenFile = "testdata/hexmap-60x40.png"

func TestGoldenHexMap(t *testing.T) {
	t.Parallel()
	checkGolden(t, goldenFile, testMap())
}

// checkGolden renders m and compares it by pixels with a golden file, or
// rewrites the file with -update.
func checkGolden(t *testing.T, file string, m board.Picture) {
	t.Helper()
	var buf bytes.Buffer
	if err := RenderPNG(m, &buf); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: png %d bytes", file, buf.Len())
	if buf.Len() >= 400<<10 {
		t.Errorf("png is %d bytes, want under 400 KiB", buf.Len())
	}
	if *update {
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := png.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("%v (regenerate with go test ./templates -update)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("%s: size %v, golden %v", file, got.Bounds(), want.Bounds())
	}
	diff, total := 0, 0
	b := got.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			total++
			if far(got.At(x, y), want.At(x, y)) {
				diff++
			}
		}
	}
	if diff*200 > total { // 0.5%
		out := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(file), ".png")+".got.png")
		_ = os.WriteFile(out, buf.Bytes(), 0o644)
		t.Errorf("%d of %d pixels differ from %s; got %s (regenerate with -update)", diff, total, file, out)
	}
}

func far(a, b color.Color) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	d := func(x, y uint32) bool { return max(x, y)-min(x, y) > 16<<8 }
	return d(ar, br) || d(ag, bg) || d(ab, bb)
}

func TestRenderRejectsBadInput(t *testing.T) {
	g := board.Grid{Cols: 5, Rows: 5, FirstCol: 1, FirstRow: 1}
	tests := []struct {
		name string
		m    board.Picture
		want string
	}{
		{"bad grid", board.Picture{Grid: &board.Grid{}}, "columns and rows must be positive"}, {"no grid", board.Picture{}, "no hex grid"},
		{"crop", board.Picture{Grid: &g, Crop: []board.ID{hx(7, 7)}}, "crop: hex 0707 is off the map"},
		{"off map", board.Picture{Grid: &g, Labels: map[board.ID]string{hx(6, 1): "X"}}, "label: hex 0601 is off the map"},
		{"not adjacent", board.Picture{Grid: &g, Hexsides: []board.Hexside{{A: hx(1, 1), B: hx(3, 1), Kind: board.River}}}, "0101 and 0301 are not adjacent"},
		{"hexside kind", board.Picture{Grid: &g, Hexsides: []board.Hexside{{A: hx(1, 1), B: hx(1, 2), Kind: "canal"}}}, `unknown hexside kind "canal"`},
		{"road kind", board.Picture{Grid: &g, Roads: []board.Road{{Kind: "trail"}}}, `unknown road kind "trail"`},
		{"arrow", board.Picture{Grid: &g, Arrows: []board.Arrow{{From: hx(1, 1), To: hx(9, 9), Kind: board.Move}}}, "move arrow: hex 0909 is off the map"},
	}
	for _, tt := range tests {
		_, err := Render(tt.m)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestRenderPointyDottedAutoLegend(t *testing.T) {
	g := board.Grid{Cols: 8, Rows: 6, Orientation: board.PointyTop, IDStyle: board.Dotted, FirstCol: 1, FirstRow: 1}
	m := board.Picture{
		Title:    "1914",
		Grid:     &g,
		Terrain:  map[board.ID]string{hx(3, 3): "mountain", hx(4, 3): "forest"},
		Hexsides: []board.Hexside{{A: hx(3, 3), B: hx(4, 3), Kind: board.River}},
		Counters: []board.Counter{{Hex: hx(2, 2), Side: "Austria", Color: "#dddddd", ID: "IV", Type: "X", Strength: "12"}},
	}
	r := &renderer{m: m}
	items := r.legendItems()
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
	}
	if got := strings.Join(labels, ","); got != "forest,mountain,river,Austria" {
		t.Errorf("derived legend %q", got)
	}
	rr, err := render(m, pixels)
	if err != nil {
		t.Fatal(err)
	}
	// the counter's hex centre carries the counter colour.
	c := rr.centre(hx(2, 2))
	x, y := int(c.x), int(c.y)+6
	if got := rr.cv.(*canvas).img.RGBAAt(x-10, y); got != rgb(0xdddddd) {
		t.Errorf("counter pixel %v", got)
	}
}

func BenchmarkRenderHexMap(b *testing.B) {
	m := testMap()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderHexMapPNG(b *testing.B) {
	m := testMap()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := RenderPNG(m, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "png-bytes")
}

var _ image.Image = (*image.RGBA)(nil)

// TestLongNoticeWraps: a notice longer than the picture is wide wraps onto
// more lines in a taller band instead of running off the edge.
func TestLongNoticeWraps(t *testing.T) {
	g := board.Grid{Cols: 8, Rows: 6, FirstCol: 1, FirstRow: 1}
	m := board.Picture{Title: "t", Grid: &g, Notice: "stand-in map"}
	short, err := Render(m)
	if err != nil {
		t.Fatal(err)
	}
	m.Notice = strings.Repeat("stand-in map: invented terrain, not the published one; ", 6)
	long, err := Render(m)
	if err != nil {
		t.Fatal(err)
	}
	if long.Bounds().Dx() != short.Bounds().Dx() || long.Bounds().Dy() < short.Bounds().Dy()+2*noticeLineH {
		t.Errorf("long notice: %v, short: %v", long.Bounds(), short.Bounds())
	}
	r := &renderer{}
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	fc, _ := newFace(fontReg, 12, false)
	for _, l := range r.wrapText(fc, m.Notice, 300) {
		if fc.width(l) > 300 && strings.Contains(l, " ") {
			t.Errorf("line %q is %d px wide", l, fc.width(l))
		}
	}
}

// TestStreamAndBoundary: a minor river (stream) is drawn in river blue,
// thinner than a river; an army boundary is dashed in its own ink, apart
// from national borders; a flat-top grid with odd columns up draws there.
func TestStreamAndBoundary(t *testing.T) {
	g := board.Grid{Cols: 8, Rows: 6, IDStyle: board.Dotted, FirstCol: 2, FirstRow: 1, Up: board.OddUp}
	m := board.Picture{
		Title: "1914",
		Grid:  &g,
		Hexsides: []board.Hexside{
			{A: hx(3, 3), B: hx(4, 3), Kind: board.Stream},
			{A: hx(5, 3), B: hx(6, 3), Kind: board.River},
			{A: hx(7, 2), B: hx(7, 3), Kind: board.Boundary},
		},
	}
	rr, err := render(m, pixels)
	if err != nil {
		t.Fatal(err)
	}
	mid := func(a, b board.ID) (pt, pt) {
		p, q := rr.edge(board.Hexside{A: a, B: b})
		return lerp(p, q, 0.5), q.sub(p).unit().perp()
	}
	// blue ink: the pixel is much bluer than it is red (antialiased edges count)
	width := func(a, b board.ID) int {
		c, n := mid(a, b)
		w := 0
		for s := -6.0; s <= 6; s += 0.5 {
			p := c.add(n.mul(s))
			px := rr.cv.(*canvas).img.RGBAAt(int(p.x), int(p.y))
			if int(px.B)-int(px.R) > 60 {
				w++
			}
		}
		return w
	}
	stream, river := width(hx(3, 3), hx(4, 3)), width(hx(5, 3), hx(6, 3))
	if stream == 0 || stream >= river {
		t.Errorf("stream %d px wide, river %d px: want a thinner blue line", stream, river)
	}
	found := false
	p, q := rr.edge(board.Hexside{A: hx(7, 2), B: hx(7, 3)})
	for s := 0.0; s <= 1; s += 0.02 {
		c := lerp(p, q, s)
		if rr.cv.(*canvas).img.RGBAAt(int(c.x), int(c.y)) == boundaryInk {
			found = true
		}
	}
	if !found {
		t.Error("the boundary is not drawn in its ink")
	}
	r := &renderer{m: m}
	var labels []string
	for _, it := range r.legendItems() {
		labels = append(labels, it.Label)
	}
	if got := strings.Join(labels, ","); !strings.Contains(got, "stream") || !strings.Contains(got, "boundary") {
		t.Errorf("derived legend %q", got)
	}
}

// TestLegibilityArrowsAlongPath checks that the legibility check rejects a
// move arrow that jumps hexes and accepts it along its path, the arrow
// drawn through each hex of it.
func TestLegibilityArrowsAlongPath(t *testing.T) {
	m := testMap()
	g := *m.Grid
	from, mid, to := board.ID{Col: 20, Row: 20}, board.ID{Col: 20, Row: 21}, board.ID{Col: 20, Row: 22}
	m.Arrows = []board.Arrow{{From: from, To: to, Kind: board.Move}}
	got, err := Legibility(m)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(got.Problems, func(p string) bool { return strings.Contains(p, "jumps from 2020 to 2022") }) {
		t.Errorf("a jump of two hexes without a path: problems %q", got.Problems)
	}
	m.Arrows[0].Path = []board.ID{from, mid, to}
	r, err := render(m, func(w, h int) surface { return nothing{w, h} })
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.legibility().Problems {
		if strings.Contains(p, "arrow") {
			t.Errorf("along its path: %s", p)
		}
	}
	if a := r.lay.arrows[len(r.lay.arrows)-1]; !slices.Equal(a.hexes, []board.ID{from, mid, to}) || len(a.course) != 3 {
		t.Errorf("the arrow is laid through %v, want %v", a.hexes, []board.ID{from, mid, to})
	}
	m.Arrows[0].Path = []board.ID{mid, to}
	if _, err := Render(m); err == nil || !strings.Contains(err.Error(), "its path does not run from "+g.Format(from)) {
		t.Errorf("a path not from the arrow's start: %v", err)
	}
}
