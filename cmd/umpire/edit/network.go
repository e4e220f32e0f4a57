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
	// Comments are the file's comments after its header, by the table
	// and value they stood with (readComments, netTableKey).
	Comments *Comments `json:"comments,omitempty" toml:"-"`
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
	m.Comments = readComments(data, netTableKey)
	return &m, nil
}

// netTableKey finds a region or space again by its id and name, a road
// by the spaces it joins.
func netTableKey(header string, f map[string]string) string {
	return netKey(header, f["id"], f["name"], f["a"], f["b"])
}

// netKey is a network file table's key: its header and what tells it
// from the others of its kind.
func netKey(header, id, name, a, b string) string {
	return tableKey(header, "id", id, "name", name, "a", a, "b", b)
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
	cw := newCommentWriter(w, m.Comments)
	cw.kv(none, "title", quote(m.Title))
	if m.StandIn {
		cw.kv(none, "stand_in", "true")
	}
	if m.Notice != "" {
		cw.kv(none, "notice", quote(m.Notice))
	}
	cw.kv(none, "width", number(m.Width))
	cw.kv(none, "height", number(m.Height))
	for _, r := range m.Regions {
		id := r.ID
		if id == "" {
			id = r.Name
		}
		o := origin{Row: -1, Places: []string{"region:" + id}}
		w.line(none, "")
		cw.tableHeader(o, "[[region]]", netKey("[[region]]", r.ID, r.Name, "", ""))
		if r.ID != "" {
			cw.kv(o, "id", quote(r.ID))
		}
		cw.kv(o, "name", quote(r.Name))
		cw.kv(o, "control_value", number(float64(r.ControlValue)))
		cw.kv(o, "points", number(float64(r.Points)))
		if len(r.KeyFor) > 0 {
			cw.kv(o, "key_for", quoteList(r.KeyFor))
		}
		if r.Control != "" {
			cw.kv(o, "control", quote(r.Control))
		}
		if r.Choose2P {
			cw.kv(o, "choose_2p", "true")
		}
	}
	for _, s := range m.Spaces {
		o := origin{Row: -1, Places: []string{s.spaceID()}}
		w.line(none, "")
		cw.tableHeader(o, "[[space]]", netKey("[[space]]", s.ID, s.Name, "", ""))
		if s.ID != "" {
			cw.kv(o, "id", quote(s.ID))
		}
		cw.kv(o, "name", quote(s.Name))
		cw.kv(o, "x", number(s.X))
		cw.kv(o, "y", number(s.Y))
		for _, f := range [][2]string{{"terrain", s.Terrain}, {"region", s.Region}, {"designation", s.Designation}, {"control", s.Control}} {
			if f[1] != "" {
				cw.kv(o, f[0], quote(f[1]))
			}
		}
		if s.Key {
			cw.kv(o, "key", "true")
		}
		if len(s.Setup) > 0 {
			cw.kv(o, "setup", quoteList(s.Setup))
		}
		if s.Insert != "" {
			cw.kv(o, "insert", quote(s.Insert))
		}
	}
	for _, r := range m.Roads {
		o := origin{Row: -1, Places: []string{r.A, r.B}}
		w.line(none, "")
		cw.tableHeader(o, "[[road]]", netKey("[[road]]", "", "", r.A, r.B))
		cw.kv(o, "a", quote(r.A))
		cw.kv(o, "b", quote(r.B))
		if r.River {
			cw.kv(o, "river", "true")
		}
	}
	cw.rest()
	return w
}
