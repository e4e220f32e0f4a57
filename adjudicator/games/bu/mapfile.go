package bu

// This file reads the point-to-point board file (docs/scenario-bu.md): the
// spaces with their terrain, Key Spaces, foreign designations (1.2.5),
// regions with Control Value, Region Points and Key Regions (13.5.4,
// 3.1.3), the roads and which of them cross a river (1.2.7, 13.4.4.2), the
// Sarajevo insert (1.2.9), setup symbols (1.2.6, 4.1.1) and initial control
// (4.1.2). The road network is a board.Graph.

import (
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// The foreign designations of 1.2.5; "" is a domestic (BiH) space.
const (
	cro = "CRO"
	yug = "YUG"
	kra = "KRA"
)

// space is one space of the map.
type space struct {
	ID, Name string
	X, Y     float64
	Terrain  terrain
	Key      bool
	// Region is the domestic space's region; foreign spaces have none.
	Region string
	// Designation is CRO, YUG or KRA for a foreign space, "" at home.
	Designation string
	// Control is who controls the space at setup (4.1.2); "" for foreign
	// spaces, which belong to their designation.
	Control Side
	// Setup are the unit setup symbols (1.2.6): unit type ids, one per
	// unit placed here at setup.
	Setup []string
	// Insert names the insert map the space is on ("sarajevo", 1.2.9).
	Insert string
}

// Foreign reports whether the space is a Foreign Space (1.2.5).
func (s *space) Foreign() bool { return s.Designation != "" }

// region is a region of the map (1.2.10, 13.5.4).
type region struct {
	ID, Name     string
	ControlValue int    // spaces to control (13.5.4)
	Points       int    // Region Points (SW)
	KeyFor       []Side // the sides whose Key Region it is (3.1.3)
	Control      Side   // the setup marker (4.1.2); "" none
	// Choose2P marks the three regions whose marker the Bosniak-Croat
	// player chooses in the 2-player game (14.2.2).
	Choose2P bool
	Spaces   []int // the region's spaces, by index
	Keys     []int // its Key Spaces
}

// road joins two spaces; River marks a road that crosses a river into a
// River space (13.4.4.2).
type road struct {
	A, B  string
	River bool
}

// Map is a board file, read and checked.
type Map struct {
	Title   string
	StandIn bool
	Notice  string
	Width   float64
	Height  float64
	Spaces  []*space
	Regions []*region
	Roads   []road
	// Graph links every road, and every pair of foreign spaces of one
	// designation: they are connected beyond the map (1.2.5).
	Graph    *board.Graph
	byID     map[string]int
	regionOf map[string]*region
	river    map[[2]int]bool
	road     map[[2]int]bool
}

// Space returns the index of the space with id.
func (m *Map) Space(id string) (int, bool) {
	i, ok := m.byID[id]
	return i, ok
}

// RegionByID returns the region with id, nil if none.
func (m *Map) RegionByID(id string) *region { return m.regionOf[id] }

// RiverRoad reports whether the road between spaces a and b crosses a river.
func (m *Map) RiverRoad(a, b int) bool { return m.river[pair(a, b)] }

// OnRoad reports whether a drawn road joins spaces a and b (not only the
// link beyond the map between foreign spaces).
func (m *Map) OnRoad(a, b int) bool { return m.road[pair(a, b)] }

func pair(a, b int) [2]int {
	if b < a {
		a, b = b, a
	}
	return [2]int{a, b}
}

type mapFile struct {
	kit.Preamble
	Width  float64      `toml:"width"`
	Height float64      `toml:"height"`
	Space  []spaceFile  `toml:"space"`
	Road   []roadFile   `toml:"road"`
	Region []regionFile `toml:"region"`
}

type spaceFile struct {
	ID          string   `toml:"id"`
	Name        string   `toml:"name"`
	X           float64  `toml:"x"`
	Y           float64  `toml:"y"`
	Terrain     string   `toml:"terrain"`
	Key         bool     `toml:"key"`
	Region      string   `toml:"region"`
	Designation string   `toml:"designation"`
	Control     string   `toml:"control"`
	Setup       []string `toml:"setup"`
	Insert      string   `toml:"insert"`
}

type roadFile struct {
	A     string `toml:"a"`
	B     string `toml:"b"`
	River bool   `toml:"river"`
}

type regionFile struct {
	ID           string   `toml:"id"`
	Name         string   `toml:"name"`
	ControlValue int      `toml:"control_value"`
	Points       int      `toml:"points"`
	KeyFor       []string `toml:"key_for"`
	Control      string   `toml:"control"`
	Choose2P     bool     `toml:"choose_2p"`
}

// parseSide reads a side's name, as files and orders write it.
func parseSide(s string) (Side, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "serb", "serbs", "serbian", "srb":
		return serb, true
	case "croat", "croats", "croatian", "cro":
		return croat, true
	case "bosniak", "bosniaks", "bos":
		return bosniak, true
	}
	return "", false
}

// sides are the three sides, in the order of play of turns 1-2 (5.1.2).
var sides = []Side{serb, croat, bosniak}

// parseMap reads and checks a board file. A wrong file is refused with a
// *datafile.FileError naming the line and field.
func parseMap(name string, data []byte) (*Map, error) {
	file := kit.File{Name: name, Data: data}
	var f mapFile
	if err := file.Decode(&f); err != nil {
		return nil, err
	}
	bad := func(table string, index int, key, format string, args ...any) error {
		return file.Errorf(table, index, key, format, args...)
	}
	m := &Map{Title: f.Title, StandIn: f.StandIn, Notice: f.Notice, Width: f.Width, Height: f.Height,
		byID: map[string]int{}, regionOf: map[string]*region{}, river: map[[2]int]bool{}, road: map[[2]int]bool{}}
	if err := f.Check(file, "a stand-in map"); err != nil {
		return nil, err
	}
	if len(f.Region) == 0 {
		return nil, bad("", -1, "region", "missing: the map needs its regions (1.2.10, 13.5.4)")
	}
	for i, r := range f.Region {
		id := slug(r.ID)
		if id == "" {
			id = slug(r.Name)
		}
		switch {
		case id == "" || r.Name == "":
			return nil, bad("region", i, "name", "missing: every region has a name (and an id, made from the name when not given)")
		case m.regionOf[id] != nil:
			return nil, bad("region", i, "id", "region %q is listed twice", id)
		case r.ControlValue < 1:
			return nil, bad("region", i, "control_value", "%d: want the number of spaces to control, at least 1 (13.5.4)", r.ControlValue)
		case r.Points < 0:
			return nil, bad("region", i, "points", "%d: Region Points are 0 or more (13.5.4)", r.Points)
		}
		reg := &region{ID: id, Name: r.Name, ControlValue: r.ControlValue, Points: r.Points, Choose2P: r.Choose2P}
		for _, s := range r.KeyFor {
			side, ok := parseSide(s)
			if !ok {
				return nil, bad("region", i, "key_for", "%q: want Serb, Croat or Bosniak (3.1.3)", s)
			}
			reg.KeyFor = append(reg.KeyFor, side)
		}
		if r.Control != "" {
			side, ok := parseSide(r.Control)
			if !ok {
				return nil, bad("region", i, "control", "%q: want Serb, Croat, Bosniak or nothing (4.1.2)", r.Control)
			}
			reg.Control = side
		}
		if reg.Choose2P && reg.Control == serb {
			return nil, bad("region", i, "control", "a region whose marker the Bosniak-Croat player chooses (14.2.2) is not Serbian at setup")
		}
		m.Regions = append(m.Regions, reg)
		m.regionOf[id] = reg
	}
	var ids []string
	for i, s := range f.Space {
		id := slug(s.ID)
		if id == "" {
			id = slug(s.Name)
		}
		if id == "" || s.Name == "" {
			return nil, bad("space", i, "name", "missing: every space has a name")
		}
		if _, dup := m.byID[id]; dup {
			return nil, bad("space", i, "id", "space %q is listed twice", id)
		}
		sp := &space{ID: id, Name: s.Name, X: s.X, Y: s.Y, Terrain: terrain(strings.ToLower(s.Terrain)), Key: s.Key, Insert: slug(s.Insert)}
		if sp.Terrain == "" {
			sp.Terrain = Clear
		}
		if !slices.Contains(terrains, sp.Terrain) {
			return nil, bad("space", i, "terrain", "%q: want clear, mountain, swamp, city or river (1.2.8)", s.Terrain)
		}
		if s.Designation != "" {
			sp.Designation = strings.ToUpper(s.Designation)
			switch {
			case sp.Designation != cro && sp.Designation != yug && sp.Designation != kra:
				return nil, bad("space", i, "designation", "%q: want CRO, YUG or KRA (1.2.5)", s.Designation)
			case s.Region != "" || s.Key || s.Control != "" || len(s.Setup) > 0:
				return nil, bad("space", i, "designation", "a Foreign Space (%s) has no region, Key Space, control or setup symbols: it belongs to its designation (1.2.5)", sp.Designation)
			}
		} else {
			reg := m.regionOf[slug(s.Region)]
			if reg == nil {
				return nil, bad("space", i, "region", "%q: want one of the regions listed (every BiH space is in a region, 1.2.10)", s.Region)
			}
			sp.Region = reg.ID
			side, ok := parseSide(s.Control)
			if !ok {
				return nil, bad("space", i, "control", "%q: want Serb, Croat or Bosniak: every space is controlled by one player (1.2.3, 4.1.2)", s.Control)
			}
			sp.Control = side
			reg.Spaces = append(reg.Spaces, len(m.Spaces))
			if sp.Key {
				reg.Keys = append(reg.Keys, len(m.Spaces))
			}
		}
		for _, t := range s.Setup {
			sp.Setup = append(sp.Setup, strings.ToUpper(strings.TrimSpace(t)))
		}
		m.byID[id] = len(m.Spaces)
		m.Spaces = append(m.Spaces, sp)
		ids = append(ids, id)
	}
	if len(m.Spaces) == 0 {
		return nil, bad("", -1, "space", "missing: the map has no spaces")
	}
	for i, reg := range m.Regions {
		if len(reg.Spaces) < reg.ControlValue {
			return nil, bad("region", i, "control_value", "%d, but region %s has only %d spaces (13.5.4)", reg.ControlValue, reg.ID, len(reg.Spaces))
		}
	}
	var links [][2]string
	for i, r := range f.Road {
		a, oka := m.byID[slug(r.A)]
		b, okb := m.byID[slug(r.B)]
		switch {
		case !oka:
			return nil, bad("road", i, "a", "%q is not a space of the map", r.A)
		case !okb:
			return nil, bad("road", i, "b", "%q is not a space of the map", r.B)
		case a == b:
			return nil, bad("road", i, "b", "a road joins two different spaces")
		}
		if r.River && m.Spaces[a].Terrain != river && m.Spaces[b].Terrain != river {
			return nil, bad("road", i, "river", "a river crossing leads into a River space (13.4.4.2), but %s and %s are not River spaces", m.Spaces[a].ID, m.Spaces[b].ID)
		}
		m.Roads = append(m.Roads, road{A: m.Spaces[a].ID, B: m.Spaces[b].ID, River: r.River})
		m.road[pair(a, b)] = true
		if r.River {
			m.river[pair(a, b)] = true
		}
		links = append(links, [2]string{m.Spaces[a].ID, m.Spaces[b].ID})
	}
	// foreign spaces of one designation are connected to each other (1.2.5)
	for i, a := range m.Spaces {
		for _, b := range m.Spaces[i+1:] {
			if a.Foreign() && a.Designation == b.Designation {
				links = append(links, [2]string{a.ID, b.ID})
			}
		}
	}
	g, err := board.NewGraph(ids, links)
	if err != nil {
		return nil, &datafile.FileError{File: name, Field: "road", Err: err.Error()}
	}
	m.Graph = g
	return m, nil
}

// slug is the id orders use for a name: lower case ASCII letters, digits
// and '-', the diacritics of Bosnian, Croatian and Serbian folded (Brčko is
// brcko, Đakovo djakovo), other characters made '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		var out string
		switch r {
		case 'č', 'ć':
			out = "c"
		case 'š':
			out = "s"
		case 'ž':
			out = "z"
		case 'đ':
			out = "dj"
		default:
			switch {
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
				out = string(r)
			case r == '"' || r == '\'' || r == '.':
				continue
			default:
				if b.Len() > 0 && !dash {
					b.WriteByte('-')
					dash = true
				}
				continue
			}
		}
		b.WriteString(out)
		dash = false
	}
	return strings.TrimRight(b.String(), "-")
}
