package board

// This file holds a hex map as a game's scenario describes it, read from a
// TOML map file: the grid, terrain per hex, areas (countries, provinces),
// hexside features (rivers, ridges), roads and highways as connected paths, places
// (cities, towns) and named sets of hexes and hexsides a game gives its own
// meaning (supply sources, fortified lines, intact bridges). The format is
// documented in docs/scenario-wbt.md; it knows no game.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// Pair is a hexside: the two adjacent hexes sharing it, A before B
// (MakePair orders them), so a pair can key a map.
type Pair struct{ A, B ID }

// MakePair returns the hexside between a and b in canonical order.
func MakePair(a, b ID) Pair {
	if b.Col < a.Col || (b.Col == a.Col && b.Row < a.Row) {
		a, b = b, a
	}
	return Pair{a, b}
}

// Format prints the hexside as "1900/2000" in the grid's style.
func (p Pair) Format(style IDStyle) string { return p.A.Format(style) + "/" + p.B.Format(style) }

// String prints the hexside in the four-digit style.
func (p Pair) String() string { return p.Format(FourDigit) }

// ParsePair reads a hexside "1900/2000" of two adjacent on-map hexes.
func (g Grid) ParsePair(s string) (Pair, error) {
	as, bs, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Pair{}, fmt.Errorf("board: hexside %q: want two adjacent hexes HEX/HEX, like \"1900/2000\"", s)
	}
	a, err := g.Parse(as)
	if err != nil {
		return Pair{}, err
	}
	b, err := g.Parse(bs)
	if err != nil {
		return Pair{}, err
	}
	if !g.Adjacent(a, b) {
		return Pair{}, fmt.Errorf("board: hexside %q: %s and %s are not adjacent", s, g.Format(a), g.Format(b))
	}
	return MakePair(a, b), nil
}

// Place is a named place on a hex: a city or a town.
type Place struct {
	Kind string // "city", "town", or a game's own kind
	Name string
}

// Map is a hex map read from a map file.
type Map struct {
	Title string
	// StandIn marks invented data, not the published map; Notice says so in
	// a line every report carries.
	StandIn bool
	Notice  string
	Grid    Grid
	// Terrain of every on-map hex (the default terrain where none is given).
	Terrain map[ID]string
	// Area of each hex: its country or province; "" is outside every area.
	Area map[ID]string
	// Rivers and Ridges are the river and ridge hexsides.
	Rivers map[Pair]bool
	Ridges map[Pair]bool
	// Roads as drawn, and the links they make: the kind of the best road
	// joining two adjacent hexes (Highway beats RoadKind).
	Roads []Road
	links map[Pair]string
	// onRoad is every hex a road or highway runs through.
	onRoad map[ID]bool
	Places map[ID]Place
	// HexSets and SideSets are named sets a game gives meaning to.
	HexSets  map[string][]ID
	SideSets map[string][]Pair
}

// Link returns the kind of road joining adjacent hexes a and b ("" none).
func (m *Map) Link(a, b ID) string { return m.links[MakePair(a, b)] }

// OnRoad reports whether a road or highway runs through the hex.
func (m *Map) OnRoad(id ID) bool { return m.onRoad[id] }

// River reports whether a river runs along the hexside between a and b.
func (m *Map) River(a, b ID) bool { return m.Rivers[MakePair(a, b)] }

// Ridge reports whether a ridge runs along the hexside between a and b.
func (m *Map) Ridge(a, b ID) bool { return m.Ridges[MakePair(a, b)] }

// InSet reports whether the hex is in the named hex set.
func (m *Map) InSet(name string, id ID) bool { return slices.Contains(m.HexSets[name], id) }

// Links lists every road link, sorted, with its kind.
func (m *Map) Links() []Pair {
	return slices.SortedFunc(maps.Keys(m.links), func(a, b Pair) int {
		if c := cmpID(a.A, b.A); c != 0 {
			return c
		}
		return cmpID(a.B, b.B)
	})
}

func cmpID(a, b ID) int {
	if a.Col != b.Col {
		return a.Col - b.Col
	}
	return a.Row - b.Row
}

// SortIDs sorts hexes column by column.
func SortIDs(ids []ID) { slices.SortFunc(ids, cmpID) }

type mapFile struct {
	Title          string              `toml:"title"`
	StandIn        bool                `toml:"stand_in"`
	Notice         string              `toml:"notice"`
	Grid           gridFile            `toml:"grid"`
	DefaultTerrain string              `toml:"default_terrain"`
	Terrain        []hexGroup          `toml:"terrain"`
	Area           []hexGroup          `toml:"area"`
	Hexsides       []sideGroup         `toml:"hexsides"`
	Road           []roadFile          `toml:"road"`
	Place          []placeFile         `toml:"place"`
	Sets           map[string][]string `toml:"sets"`
	SideSets       map[string][]string `toml:"side_sets"`
}

type gridFile struct {
	Orientation string `toml:"orientation"`
	IDs         string `toml:"ids"`
	Up          string `toml:"up"`
	First       string `toml:"first"`
	Last        string `toml:"last"`
}

type hexGroup struct {
	Name  string   `toml:"name"`
	Kind  string   `toml:"kind"`
	Hexes []string `toml:"hexes"`
}

type sideGroup struct {
	Kind  string   `toml:"kind"`
	Sides []string `toml:"sides"`
}

type roadFile struct {
	Kind string   `toml:"kind"`
	Path []string `toml:"path"`
}

type placeFile struct {
	Hex  string `toml:"hex"`
	Kind string `toml:"kind"`
	Name string `toml:"name"`
}

// ParseMap reads a map file's text; name is the file named in errors. A
// wrong file is refused with a *datafile.FileError naming the line and field.
func ParseMap(name string, data []byte) (*Map, error) {
	var f mapFile
	if _, err := datafile.Decode(name, data, &f); err != nil {
		return nil, err
	}
	bad := func(table string, index int, key, format string, args ...any) error {
		field := key
		switch {
		case table != "" && index >= 0:
			field = fmt.Sprintf("%s[%d].%s", table, index, key)
		case table != "":
			field = table + "." + key
		}
		return &datafile.FileError{File: name, Line: datafile.FieldLine(data, table, index, key), Field: field, Err: fmt.Sprintf(format, args...)}
	}
	m := &Map{Title: f.Title, StandIn: f.StandIn, Notice: f.Notice, Terrain: map[ID]string{}, Area: map[ID]string{},
		Rivers: map[Pair]bool{}, Ridges: map[Pair]bool{}, links: map[Pair]string{}, onRoad: map[ID]bool{}, Places: map[ID]Place{},
		HexSets: map[string][]ID{}, SideSets: map[string][]Pair{}}
	switch f.Grid.Orientation {
	case "flat-top", "":
		m.Grid.Orientation = FlatTop
	case "pointy-top":
		m.Grid.Orientation = PointyTop
	default:
		return nil, bad("grid", -1, "orientation", "%q: want flat-top or pointy-top", f.Grid.Orientation)
	}
	switch f.Grid.IDs {
	case "CCRR", "":
		m.Grid.IDStyle = FourDigit
	case "CC.RR":
		m.Grid.IDStyle = Dotted
	default:
		return nil, bad("grid", -1, "ids", "%q: want CCRR or CC.RR", f.Grid.IDs)
	}
	switch f.Grid.Up {
	case "", OddUp, EvenUp:
		if f.Grid.Up != "" && m.Grid.Orientation != FlatTop {
			return nil, bad("grid", -1, "up", "which columns sit higher is for flat-top grids")
		}
		m.Grid.Up = f.Grid.Up
	default:
		return nil, bad("grid", -1, "up", "%q: want odd or even (the printed columns that sit half a hex higher)", f.Grid.Up)
	}
	first, err := ParseID(f.Grid.First, m.Grid.IDStyle)
	if err != nil {
		return nil, bad("grid", -1, "first", "%v", err)
	}
	last, err := ParseID(f.Grid.Last, m.Grid.IDStyle)
	if err != nil {
		return nil, bad("grid", -1, "last", "%v", err)
	}
	m.Grid.FirstCol, m.Grid.FirstRow = first.Col, first.Row
	m.Grid.Cols, m.Grid.Rows = last.Col-first.Col+1, last.Row-first.Row+1
	if err := m.Grid.Validate(); err != nil {
		return nil, bad("grid", -1, "last", "%v", err)
	}
	if m.Grid.Cols*m.Grid.Rows > 100*100 {
		return nil, bad("grid", -1, "last", "the map has more than 10000 hexes")
	}
	def := f.DefaultTerrain
	if def == "" {
		def = "clear"
	}
	for _, id := range m.Grid.All() {
		m.Terrain[id] = def
	}
	for i, t := range f.Terrain {
		if t.Kind == "" {
			return nil, bad("terrain", i, "kind", "missing: name the terrain (mountain, forest...)")
		}
		ids, err := m.hexList(t.Hexes)
		if err != nil {
			return nil, bad("terrain", i, "hexes", "%v", err)
		}
		for _, id := range ids {
			m.Terrain[id] = t.Kind
		}
	}
	for i, a := range f.Area {
		if a.Name == "" {
			return nil, bad("area", i, "name", "missing: name the country or province")
		}
		ids, err := m.hexList(a.Hexes)
		if err != nil {
			return nil, bad("area", i, "hexes", "%v", err)
		}
		for _, id := range ids {
			m.Area[id] = a.Name
		}
	}
	for i, h := range f.Hexsides {
		sides := m.Rivers
		switch h.Kind {
		case River:
		case Ridge:
			sides = m.Ridges
		default:
			return nil, bad("hexsides", i, "kind", "%q: want river or ridge (bridges are where roads cross rivers; borders are between areas)", h.Kind)
		}
		for _, s := range h.Sides {
			p, err := m.Grid.ParsePair(s)
			if err != nil {
				return nil, bad("hexsides", i, "sides", "%v", err)
			}
			sides[p] = true
		}
	}
	for i, r := range f.Road {
		if r.Kind != RoadKind && r.Kind != Highway && r.Kind != Railroad {
			return nil, bad("road", i, "kind", "%q: want road, highway or railroad", r.Kind)
		}
		if len(r.Path) < 2 {
			return nil, bad("road", i, "path", "a road needs at least two hexes")
		}
		var path []ID
		for j, s := range r.Path {
			id, err := m.Grid.Parse(s)
			if err != nil {
				return nil, bad("road", i, "path", "%v", err)
			}
			if j > 0 && !m.Grid.Adjacent(path[j-1], id) {
				return nil, bad("road", i, "path", "%s and %s follow each other but are not adjacent", m.Grid.Format(path[j-1]), s)
			}
			path = append(path, id)
		}
		m.Roads = append(m.Roads, Road{Kind: r.Kind, Path: path})
		if r.Kind == Railroad {
			continue
		}
		for j := 1; j < len(path); j++ {
			p := MakePair(path[j-1], path[j])
			if m.links[p] != Highway {
				m.links[p] = r.Kind
			}
			m.onRoad[path[j-1]], m.onRoad[path[j]] = true, true
		}
	}
	for i, p := range f.Place {
		id, err := m.Grid.Parse(p.Hex)
		if err != nil {
			return nil, bad("place", i, "hex", "%v", err)
		}
		if p.Kind == "" {
			return nil, bad("place", i, "kind", "missing: city, town...")
		}
		if _, dup := m.Places[id]; dup {
			return nil, bad("place", i, "hex", "hex %s already has a place", p.Hex)
		}
		m.Places[id] = Place{Kind: p.Kind, Name: p.Name}
	}
	for _, k := range slices.Sorted(maps.Keys(f.Sets)) {
		ids, err := m.hexList(f.Sets[k])
		if err != nil {
			return nil, bad("sets", -1, k, "%v", err)
		}
		m.HexSets[k] = ids
	}
	for _, k := range slices.Sorted(maps.Keys(f.SideSets)) {
		var ps []Pair
		for _, s := range f.SideSets[k] {
			p, err := m.Grid.ParsePair(s)
			if err != nil {
				return nil, bad("side_sets", -1, k, "%v", err)
			}
			ps = append(ps, p)
		}
		m.SideSets[k] = ps
	}
	return m, nil
}

// hexList reads hexes and rectangles "2527..2830" (columns 25 to 28, rows
// 27 to 30) into a sorted list without duplicates.
func (m *Map) hexList(specs []string) ([]ID, error) {
	seen := map[ID]bool{}
	for _, s := range specs {
		lo, hi, ok := strings.Cut(s, "..")
		if !ok {
			id, err := m.Grid.Parse(s)
			if err != nil {
				return nil, err
			}
			seen[id] = true
			continue
		}
		a, err := m.Grid.Parse(lo)
		if err != nil {
			return nil, err
		}
		b, err := m.Grid.Parse(hi)
		if err != nil {
			return nil, err
		}
		if b.Col < a.Col || b.Row < a.Row {
			return nil, fmt.Errorf("board: range %q: the second hex must be below and right of the first", s)
		}
		for c := a.Col; c <= b.Col; c++ {
			for r := a.Row; r <= b.Row; r++ {
				seen[ID{c, r}] = true
			}
		}
	}
	out := slices.Collect(maps.Keys(seen))
	SortIDs(out)
	return out, nil
}

// Borders lists the hexsides between hexes of different areas (both on the
// map), sorted: the international and provincial borders.
func (m *Map) Borders() []Pair {
	var out []Pair
	for _, id := range m.Grid.All() {
		for _, n := range m.Grid.Neighbours(id) {
			if cmpID(id, n) < 0 && m.Area[id] != m.Area[n] {
				out = append(out, MakePair(id, n))
			}
		}
	}
	return out
}
