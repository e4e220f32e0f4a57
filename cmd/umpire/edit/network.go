package edit

// This file holds the editor's document for a network map file: B&U's
// point-to-point board (docs/scenario-bu.md): spaces placed on the picture,
// the roads joining them and the regions. Every key of the format is here
// and nothing else: a file with a key the editor does not know is refused.

import (
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// NetMap is a network map file as the editor holds it.
type NetMap struct {
	Header  string      `json:"header" toml:"-"`
	Title   string      `json:"title" toml:"title"`
	StandIn bool        `json:"stand_in" toml:"stand_in"`
	Notice  string      `json:"notice" toml:"notice"`
	Width   float64     `json:"width" toml:"width"`
	Height  float64     `json:"height" toml:"height"`
	Regions []NetRegion `json:"regions" toml:"region"`
	Spaces  []NetSpace  `json:"spaces" toml:"space"`
	Roads   []NetRoad   `json:"roads" toml:"road"`
}

// NetRegion is a [[region]] (1.2.10, 13.5.4).
type NetRegion struct {
	ID           string   `json:"id" toml:"id"`
	Name         string   `json:"name" toml:"name"`
	ControlValue int      `json:"control_value" toml:"control_value"`
	Points       int      `json:"points" toml:"points"`
	KeyFor       []string `json:"key_for" toml:"key_for"`
	Control      string   `json:"control" toml:"control"`
	Choose2P     bool     `json:"choose_2p" toml:"choose_2p"`
}

// NetSpace is a [[space]]: placed at X, Y in the picture's pixels.
type NetSpace struct {
	ID          string   `json:"id" toml:"id"`
	Name        string   `json:"name" toml:"name"`
	X           float64  `json:"x" toml:"x"`
	Y           float64  `json:"y" toml:"y"`
	Terrain     string   `json:"terrain" toml:"terrain"`
	Key         bool     `json:"key" toml:"key"`
	Region      string   `json:"region" toml:"region"`
	Designation string   `json:"designation" toml:"designation"`
	Control     string   `json:"control" toml:"control"`
	Setup       []string `json:"setup" toml:"setup"`
	Insert      string   `json:"insert" toml:"insert"`
}

// NetRoad is a [[road]] between spaces A and B; River marks one that
// crosses a river (13.4.4.2).
type NetRoad struct {
	A     string `json:"a" toml:"a"`
	B     string `json:"b" toml:"b"`
	River bool   `json:"river" toml:"river"`
}

// newNetMap is an empty board of the scan's size (or 1000 by 800).
func newNetMap(w, h int) *NetMap {
	if w <= 0 || h <= 0 {
		w, h = 1000, 800
	}
	return &NetMap{Width: float64(w), Height: float64(h)}
}

// readNetMap reads a network map file strictly: every key must be the
// format's. The game's own checks come later (check.go).
func readNetMap(name string, data []byte) (*NetMap, error) {
	var m NetMap
	if _, err := datafile.Decode(name, data, &m); err != nil {
		return nil, err
	}
	m.Header, _ = header(data)
	return &m, nil
}

// spaceID is the id orders use for a space: its id, else its name
// (the reader folds both the same way; the editor only needs to tell
// spaces apart).
func (s NetSpace) spaceID() string {
	if s.ID != "" {
		return s.ID
	}
	return s.Name
}

// encode writes the board as a map file.
func (m *NetMap) encode() *writer {
	w := &writer{}
	none := origin{Row: -1}
	writeHeader(w, m.Header, nil)
	w.kv(none, "title", quote(m.Title))
	if m.StandIn {
		w.kv(none, "stand_in", "true")
	}
	if m.Notice != "" {
		w.kv(none, "notice", quote(m.Notice))
	}
	w.kv(none, "width", number(m.Width))
	w.kv(none, "height", number(m.Height))
	for _, r := range m.Regions {
		id := r.ID
		if id == "" {
			id = r.Name
		}
		o := origin{Row: -1, Places: []string{"region:" + id}}
		w.line(none, "")
		w.line(o, "[[region]]")
		if r.ID != "" {
			w.kv(o, "id", quote(r.ID))
		}
		w.kv(o, "name", quote(r.Name))
		w.kv(o, "control_value", number(float64(r.ControlValue)))
		w.kv(o, "points", number(float64(r.Points)))
		if len(r.KeyFor) > 0 {
			w.kv(o, "key_for", quoteList(r.KeyFor))
		}
		if r.Control != "" {
			w.kv(o, "control", quote(r.Control))
		}
		if r.Choose2P {
			w.kv(o, "choose_2p", "true")
		}
	}
	for _, s := range m.Spaces {
		o := origin{Row: -1, Places: []string{s.spaceID()}}
		w.line(none, "")
		w.line(o, "[[space]]")
		if s.ID != "" {
			w.kv(o, "id", quote(s.ID))
		}
		w.kv(o, "name", quote(s.Name))
		w.kv(o, "x", number(s.X))
		w.kv(o, "y", number(s.Y))
		for _, f := range [][2]string{{"terrain", s.Terrain}, {"region", s.Region}, {"designation", s.Designation}, {"control", s.Control}} {
			if f[1] != "" {
				w.kv(o, f[0], quote(f[1]))
			}
		}
		if s.Key {
			w.kv(o, "key", "true")
		}
		if len(s.Setup) > 0 {
			w.kv(o, "setup", quoteList(s.Setup))
		}
		if s.Insert != "" {
			w.kv(o, "insert", quote(s.Insert))
		}
	}
	for _, r := range m.Roads {
		o := origin{Row: -1, Places: []string{r.A, r.B}}
		w.line(none, "")
		w.line(o, "[[road]]")
		w.kv(o, "a", quote(r.A))
		w.kv(o, "b", quote(r.B))
		if r.River {
			w.kv(o, "river", "true")
		}
	}
	return w
}
