package edit

// This file holds the editor's document for a hex map file (the format of
// board.ParseMap, docs/scenario-wbt.md): read from the file through the
// judge's own reader, and written back as the same format, one entry per
// terrain, area and hexside kind, each road, place and named set.

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// HexMap is a hex map file as the editor holds it: every hex's terrain and
// area, each hexside, road, place and set; the keys of the map format.
type HexMap struct {
	// Header is the file's leading comment lines, kept as they were.
	Header  string   `json:"header"`
	Title   string   `json:"title"`
	StandIn bool     `json:"stand_in"`
	Notice  string   `json:"notice"`
	Grid    GridSpec `json:"grid"`
	// DefaultTerrain is every hex's terrain unless Terrain says otherwise.
	DefaultTerrain string `json:"default_terrain"`
	// Terrain and Area by hex id; a hex not in Area is outside every area.
	Terrain  map[string]string   `json:"terrain"`
	Area     map[string]string   `json:"area"`
	Sides    []Hexside           `json:"sides"`
	Roads    []Road              `json:"roads"`
	Places   []Place             `json:"places"`
	Sets     map[string][]string `json:"sets"`
	SideSets map[string][]string `json:"side_sets"`
	// Scan is the scan's alignment, kept in a comment line of the file.
	Scan *Alignment `json:"scan,omitempty"`
	// Comments are the file's comments after its header, by the table
	// and value they stood with (readComments, hexTableKey).
	Comments *Comments `json:"comments,omitempty"`
}

// GridSpec is the map file's [grid] table.
type GridSpec struct {
	Orientation string `json:"orientation"` // flat-top or pointy-top
	IDs         string `json:"ids"`         // CCRR or CC.RR
	Up          string `json:"up"`          // odd, even or ""
	First       string `json:"first"`
	Last        string `json:"last"`
}

// Hexside is a river or ridge hexside: "0101/0102".
type Hexside struct {
	Kind string `json:"kind"`
	Side string `json:"side"`
}

// Road is a road, highway or railroad through adjacent hexes.
type Road struct {
	Kind string   `json:"kind"`
	Path []string `json:"path"`
}

// Place is a named place on a hex: a city, capital, town...
type Place struct {
	Hex  string `json:"hex"`
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Alignment places the grid on the scan: the first hex's centre at (X0,
// Y0) in the scan's pixels, and SX, SY pixels for each unit of the board's
// layout (a hex's corner-to-centre distance is one unit).
type Alignment struct {
	X0 float64 `json:"x0"`
	Y0 float64 `json:"y0"`
	SX float64 `json:"sx"`
	SY float64 `json:"sy"`
}

// alignPrefix starts the comment line holding the scan's alignment, the
// line the judge reads a game's map art alignment from.
const alignPrefix = adjudicator.MapImageAlignPrefix

// newHexMap is an empty map of clear hexes on grid (nil: ten by ten).
func newHexMap(grid *GridSpec) *HexMap {
	g := GridSpec{Orientation: "flat-top", IDs: "CCRR", First: "0101", Last: "1010"}
	if grid != nil {
		g = *grid
	}
	return &HexMap{Grid: g, DefaultTerrain: "clear",
		Terrain: map[string]string{}, Area: map[string]string{}, Sets: map[string][]string{}, SideSets: map[string][]string{}}
}

// ParseSize reads the size of a new hex map: "COLSxROWS" (columns and
// rows from hex 0101, as "33x22") or "FIRST..LAST" (its first and last
// hex, as "1001..4222" or "01.01..60.40"), the map format's range.
func ParseSize(s string) (*GridSpec, error) {
	g := &GridSpec{Orientation: "flat-top", IDs: "CCRR"}
	if first, last, ok := strings.Cut(s, ".."); ok {
		style := board.FourDigit
		if strings.Contains(first, ".") {
			style, g.IDs = board.Dotted, "CC.RR"
		}
		a, errA := board.ParseID(first, style)
		b, errB := board.ParseID(last, style)
		if errA != nil || errB != nil || b.Col < a.Col || b.Row < a.Row {
			return nil, fmt.Errorf("edit: size %q: want FIRST..LAST, the first and last hex ids, such as 1001..4222", s)
		}
		g.First, g.Last = a.Format(style), b.Format(style)
		return g, nil
	}
	cs, rs, ok := strings.Cut(strings.ToLower(s), "x")
	cols, errC := strconv.Atoi(cs)
	rows, errR := strconv.Atoi(rs)
	if !ok || errC != nil || errR != nil || cols < 1 || rows < 1 {
		return nil, fmt.Errorf("edit: size %q: want COLSxROWS, such as 33x22, or FIRST..LAST hex ids, such as 1001..4222", s)
	}
	if cols > 99 || rows > 99 {
		return nil, fmt.Errorf("edit: size %q: a map of four-digit hex ids has at most 99 columns and 99 rows; give FIRST..LAST in CC.RR ids (01.01..120.80) for more", s)
	}
	g.First, g.Last = "0101", board.ID{Col: cols, Row: rows}.Format(board.FourDigit)
	return g, nil
}

// readHexMap reads a map file with board.ParseMap: a file the judge
// refuses is refused here too, with the reader's message.
func readHexMap(name string, data []byte) (*HexMap, error) {
	m, err := board.ParseMap(name, data)
	if err != nil {
		return nil, err
	}
	var extra struct {
		DefaultTerrain string `toml:"default_terrain"`
	}
	if _, err := datafile.DecodeLoose(name, data, &extra); err != nil {
		return nil, fmt.Errorf("edit: %w", err)
	}
	g := m.Grid
	h := newHexMap(nil)
	h.Header, h.Scan = header(data)
	h.Comments = readComments(data, hexTableKey)
	h.Title, h.StandIn, h.Notice = m.Title, m.StandIn, m.Notice
	h.Grid = GridSpec{Orientation: "flat-top", IDs: "CCRR", Up: g.Up,
		First: g.Format(board.ID{Col: g.FirstCol, Row: g.FirstRow}), Last: g.Format(board.ID{Col: g.FirstCol + g.Cols - 1, Row: g.FirstRow + g.Rows - 1})}
	if g.Orientation == board.PointyTop {
		h.Grid.Orientation = "pointy-top"
	}
	if g.IDStyle == board.Dotted {
		h.Grid.IDs = "CC.RR"
	}
	h.DefaultTerrain = extra.DefaultTerrain
	if h.DefaultTerrain == "" {
		h.DefaultTerrain = "clear"
	}
	for _, id := range g.All() {
		if t := m.Terrain[id]; t != h.DefaultTerrain {
			h.Terrain[g.Format(id)] = t
		}
		if a := m.Area[id]; a != "" {
			h.Area[g.Format(id)] = a
		}
	}
	for _, kind := range []string{board.River, board.Ridge} {
		sides := m.Rivers
		if kind == board.Ridge {
			sides = m.Ridges
		}
		for _, p := range sortedPairs(sides) {
			h.Sides = append(h.Sides, Hexside{Kind: kind, Side: p.Format(g.IDStyle)})
		}
	}
	for _, r := range m.Roads {
		path := make([]string, len(r.Path))
		for i, id := range r.Path {
			path[i] = g.Format(id)
		}
		h.Roads = append(h.Roads, Road{Kind: r.Kind, Path: path})
	}
	ids := slices.Collect(maps.Keys(m.Places))
	board.SortIDs(ids)
	for _, id := range ids {
		p := m.Places[id]
		h.Places = append(h.Places, Place{Hex: g.Format(id), Kind: p.Kind, Name: p.Name})
	}
	for k, set := range m.HexSets {
		h.Sets[k] = []string{}
		for _, id := range set {
			h.Sets[k] = append(h.Sets[k], g.Format(id))
		}
	}
	for k, set := range m.SideSets {
		h.SideSets[k] = []string{}
		for _, p := range set {
			h.SideSets[k] = append(h.SideSets[k], p.Format(g.IDStyle))
		}
	}
	return h, nil
}

func sortedPairs(set map[board.Pair]bool) []board.Pair {
	out := slices.Collect(maps.Keys(set))
	sort.Slice(out, func(i, j int) bool {
		if out[i].A != out[j].A {
			return out[i].A.Col < out[j].A.Col || (out[i].A.Col == out[j].A.Col && out[i].A.Row < out[j].A.Row)
		}
		return out[i].B.Col < out[j].B.Col || (out[i].B.Col == out[j].B.Col && out[i].B.Row < out[j].B.Row)
	})
	return out
}

// hexTableKey finds a map file's table again by its kind, name, hex and a
// road's first hex; [grid], [sets] and [side_sets] by their header.
func hexTableKey(header string, f map[string]string) string {
	if !strings.HasPrefix(header, "[[") {
		return header
	}
	return hexKey(header, f["kind"], f["name"], f["hex"], f["path"])
}

// hexKey is a map file table's key: its header and what tells it from
// the others of its kind.
func hexKey(header, kind, name, hex, path string) string {
	return tableKey(header, "kind", kind, "name", name, "hex", hex, "path", path)
}

// header is a file's leading comment lines, without the editor's own
// alignment line, which it reads.
func header(data []byte) (string, *Alignment) {
	var keep []string
	var al *Alignment
	for line := range strings.Lines(string(data)) {
		t := strings.TrimRight(line, "\r\n")
		if !strings.HasPrefix(t, "#") {
			break
		}
		if rest, ok := strings.CutPrefix(t, alignPrefix); ok {
			al = parseAlignment(rest)
			continue
		}
		keep = append(keep, t)
	}
	return strings.Join(keep, "\n"), al
}

// parseAlignment reads "x0=.. y0=.. sx=.. sy=.." as the judge reads it
// for a game's map art (adjudicator.ParseMapAlign): nil unless it reads.
func parseAlignment(s string) *Alignment {
	a, err := adjudicator.ParseMapAlign(s)
	if err != nil {
		return nil
	}
	return &Alignment{X0: a.X0, Y0: a.Y0, SX: a.SX, SY: a.SY}
}

// writeHeader writes the kept comment lines and the alignment.
func writeHeader(w *writer, head string, al *Alignment) {
	for l := range strings.Lines(head) {
		l = strings.TrimRight(l, "\r\n")
		if !strings.HasPrefix(l, "#") {
			l = "# " + l
		}
		w.line(origin{Row: -1}, l)
	}
	if al != nil {
		w.line(origin{Row: -1}, fmt.Sprintf("%sx0=%s y0=%s sx=%s sy=%s", alignPrefix, number(al.X0), number(al.Y0),
			strconv.FormatFloat(al.SX, 'f', 4, 64), strconv.FormatFloat(al.SY, 'f', 4, 64)))
	}
}

// encode writes the map as a map file. Hexes are sorted column by column,
// each kind's hexes in one entry; the grid's own ids are not checked here
// (the reader does that, with line and field).
func (h *HexMap) encode() *writer {
	w := &writer{}
	none := origin{Row: -1}
	grid := origin{Row: -1, Places: []string{"grid"}}
	writeHeader(w, h.Header, h.Scan)
	cw := newCommentWriter(w, h.Comments)
	cw.kv(none, "title", quote(h.Title))
	if h.StandIn {
		cw.kv(none, "stand_in", "true")
	}
	if h.Notice != "" {
		cw.kv(none, "notice", quote(h.Notice))
	}
	if h.DefaultTerrain != "" && h.DefaultTerrain != "clear" {
		cw.kv(none, "default_terrain", quote(h.DefaultTerrain))
	}
	w.line(none, "")
	cw.tableHeader(grid, "[grid]", hexKey("[grid]", "", "", "", ""))
	cw.kv(grid, "orientation", quote(h.Grid.Orientation))
	cw.kv(grid, "ids", quote(h.Grid.IDs))
	if h.Grid.Up != "" {
		cw.kv(grid, "up", quote(h.Grid.Up))
	}
	cw.kv(grid, "first", quote(h.Grid.First))
	cw.kv(grid, "last", quote(h.Grid.Last))
	for _, kind := range sortedValues(h.Terrain) {
		hexes := keysWith(h.Terrain, kind, h.Grid.IDs)
		o := origin{Row: -1, Places: hexes}
		w.line(none, "")
		cw.tableHeader(o, "[[terrain]]", hexKey("[[terrain]]", kind, "", "", ""))
		cw.kv(o, "kind", quote(kind))
		cw.kv(o, "hexes", quoteList(hexes))
	}
	for _, name := range sortedValues(h.Area) {
		hexes := keysWith(h.Area, name, h.Grid.IDs)
		o := origin{Row: -1, Places: hexes}
		w.line(none, "")
		cw.tableHeader(o, "[[area]]", hexKey("[[area]]", "", name, "", ""))
		cw.kv(o, "name", quote(name))
		cw.kv(o, "hexes", quoteList(hexes))
	}
	kinds := map[string][]string{}
	for _, s := range h.Sides {
		if !slices.Contains(kinds[s.Kind], s.Side) {
			kinds[s.Kind] = append(kinds[s.Kind], s.Side)
		}
	}
	for _, kind := range slices.Sorted(maps.Keys(kinds)) {
		sides := kinds[kind]
		sort.Strings(sides)
		o := origin{Row: -1, Places: sides}
		w.line(none, "")
		cw.tableHeader(o, "[[hexsides]]", hexKey("[[hexsides]]", kind, "", "", ""))
		cw.kv(o, "kind", quote(kind))
		cw.kv(o, "sides", quoteList(sides))
	}
	for _, r := range h.Roads {
		o := origin{Row: -1, Places: r.Path}
		w.line(none, "")
		first := ""
		if len(r.Path) > 0 {
			first = r.Path[0]
		}
		cw.tableHeader(o, "[[road]]", hexKey("[[road]]", r.Kind, "", "", first))
		cw.kv(o, "kind", quote(r.Kind))
		cw.kv(o, "path", quoteList(r.Path))
	}
	for _, p := range h.Places {
		o := origin{Row: -1, Places: []string{p.Hex}}
		w.line(none, "")
		cw.tableHeader(o, "[[place]]", hexKey("[[place]]", p.Kind, p.Name, p.Hex, ""))
		cw.kv(o, "hex", quote(p.Hex))
		cw.kv(o, "kind", quote(p.Kind))
		if p.Name != "" {
			cw.kv(o, "name", quote(p.Name))
		}
	}
	for _, sets := range []struct {
		table string
		m     map[string][]string
	}{{"sets", h.Sets}, {"side_sets", h.SideSets}} {
		if len(sets.m) == 0 {
			continue
		}
		w.line(none, "")
		cw.tableHeader(none, "["+sets.table+"]", hexKey("["+sets.table+"]", "", "", "", ""))
		for _, k := range slices.Sorted(maps.Keys(sets.m)) {
			cw.kv(origin{Row: -1, Places: sets.m[k]}, k, quoteList(sets.m[k]))
		}
	}
	cw.rest()
	return w
}

// sortedValues lists the distinct non-empty values of m, sorted.
func sortedValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// keysWith lists the hexes of m whose value is v, column by column.
func keysWith(m map[string]string, v, ids string) []string {
	var out []string
	for k, x := range m {
		if x == v {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return hexLess(out[i], out[j], ids) })
	return out
}

// hexLess orders hex ids column by column; ids that do not read as hexes
// come last, in text order.
func hexLess(a, b, ids string) bool {
	style := board.FourDigit
	if ids == "CC.RR" {
		style = board.Dotted
	}
	x, errA := board.ParseID(a, style)
	y, errB := board.ParseID(b, style)
	switch {
	case errA != nil || errB != nil:
		if (errA == nil) != (errB == nil) {
			return errA == nil
		}
		return a < b
	case x.Col != y.Col:
		return x.Col < y.Col
	}
	return x.Row < y.Row
}

// Geometry is a grid's hexes in the board's unit layout, for the page to
// draw and hit-test: no hex arithmetic is done twice.
type Geometry struct {
	Orientation string    `json:"orientation"`
	Hexes       []HexSpot `json:"hexes"`
}

// HexSpot is one hex: its id, centre and neighbours.
type HexSpot struct {
	ID         string   `json:"id"`
	X          float64  `json:"x"`
	Y          float64  `json:"y"`
	Neighbours []string `json:"n"`
}

// geometry is the grid's layout, or the reader's refusal of the grid.
func (h *HexMap) geometry(name string) (*Geometry, error) {
	w := &writer{}
	only := *h
	only.Terrain, only.Area, only.Sides, only.Roads, only.Places, only.Sets, only.SideSets = nil, nil, nil, nil, nil, nil, nil
	only.Header, only.Scan, only.Comments = "", nil, nil
	w = only.encode()
	m, err := board.ParseMap(name, []byte(w.b.String()))
	if err != nil {
		return nil, err
	}
	g := m.Grid
	geo := &Geometry{Orientation: h.Grid.Orientation}
	for _, id := range g.All() {
		c := g.Center(id)
		spot := HexSpot{ID: g.Format(id), X: c.X, Y: c.Y}
		for _, n := range g.Neighbours(id) {
			spot.Neighbours = append(spot.Neighbours, g.Format(n))
		}
		geo.Hexes = append(geo.Hexes, spot)
	}
	return geo, nil
}
