package board

import (
	"fmt"
	"strconv"
	"strings"
)

// Picture is what a map picture shows: a hex map (Grid set) or a
// point-to-point map (Network set), with counters, this step's arrows,
// tracks and a legend. Games build it from their state (Draw) and the
// templates package draws it; it is plain data, so a queued report carries
// it as JSON. Colours are "#rrggbb".
type Picture struct {
	Title, Subtitle string
	// Notice is one line under the title, such as "stand-in map: not the
	// published one".
	Notice string `json:",omitempty"`

	// Grid is the hex map; nil for a point-to-point map.
	Grid *Grid `json:",omitempty"`
	// Terrain of each hex; hexes not listed are "clear".
	Terrain map[ID]string `json:",omitempty"`
	// TerrainColors override the drawing's default terrain colours.
	TerrainColors map[string]string `json:",omitempty"`
	Hexsides      []Hexside         `json:",omitempty"`
	Roads         []Road            `json:",omitempty"`
	// Labels are place names on hexes.
	Labels map[ID]string `json:",omitempty"`
	// Crop, when set, limits a hex map to the hexes within two of these
	// (the area of action).
	Crop []ID `json:",omitempty"`

	// Network is the point-to-point map; nil for a hex map.
	Network *Network `json:",omitempty"`

	Counters []Counter    `json:",omitempty"`
	Arrows   []Arrow      `json:",omitempty"`
	Tracks   []Track      `json:",omitempty"`
	Legend   []LegendItem `json:",omitempty"`

	// Art, when set, draws the map on the game master's image of the
	// published map instead of the drawn terrain (templates/mapart.go).
	Art *Art `json:",omitempty"`
}

// Art is the game master's image of the published map under a picture:
// which game's image, whose it is, and where the picture's layout lies on
// it. A layout point p (a hex map's unit layout, board.Grid.Center; a
// point-to-point map's space X, Y) is at pixel (X0 + SX*p.X, Y0 + SY*p.Y)
// of the image: umpire edit's alignment (docs/editor.md).
type Art struct {
	// Game is the game whose stored image this is.
	Game string
	// Credit says whose image it is: "Grace's scan of the published map".
	Credit string
	X0, Y0 float64
	SX, SY float64
}

// Hexside kinds.
const (
	River  = "river"
	Ridge  = "ridge"
	Bridge = "bridge"
	Border = "border"
	// Stream is a minor river: drawn thinner than a River.
	Stream = "stream"
	// Boundary is a line between commands (an army's area), drawn apart
	// from national borders.
	Boundary = "boundary"
)

// Hexside is a feature on the side shared by the adjacent hexes A and B.
type Hexside struct {
	A, B ID
	Kind string // River, Stream, Ridge, Bridge (a crossing over a river), Border or Boundary
}

// Road kinds; Road is also a link kind of a point-to-point map.
const (
	RoadKind = "road"
	Highway  = "highway"
	Railroad = "railroad"
)

// Road runs through the centres of the hexes of Path in order.
type Road struct {
	Kind string // RoadKind, Highway or Railroad
	Path []ID
}

// Counter is a unit or marker piece. Counters on the same hex or space form
// a stack in slice order, the last one on top.
type Counter struct {
	Hex      ID     `json:",omitzero"`  // on a hex map
	Space    string `json:",omitempty"` // on a point-to-point map
	Side     string
	Color    string   // side colour "#rrggbb"; the border is drawn darker
	ID       string   // unit designation, on top
	Type     string   // letter or short symbol, in the middle
	Strength string   // "4-3" or steps, at the bottom
	Markers  []string `json:",omitempty"` // short status tags: "D", "OOS", "CE2"
}

// Arrow kinds.
const (
	Move   = "move"
	Attack = "attack"
	// AirMove is a move through the air (an airmobile landing): it
	// flies straight from From to To, without a path.
	AirMove = "air"
)

// Arrow is a movement or attack from one hex (or space) to another.
type Arrow struct {
	From, To           ID     `json:",omitzero"`
	FromSpace, ToSpace string `json:",omitempty"`
	Kind               string // Move, Attack or AirMove
	// Path is the hexes a move passed through, From first and To last,
	// each next to the one before; the arrow follows it. Empty for a move
	// to the next hex and for an attack (drawn straight).
	Path []ID `json:",omitempty"`
	// SpacePath is the spaces a move passed through on a point-to-point
	// map, FromSpace first and ToSpace last, as Path.
	SpacePath []string `json:",omitempty"`
}

// Track is a game track shown beside the title: "Turn 3 of 14",
// "MePPs 12".
type Track struct {
	Name  string
	Value int
	// Max, when above zero, is the end of the track (drawn as a gauge).
	Min, Max int `json:",omitempty"`
	// Text replaces the number when the value is a word ("good").
	Text string `json:",omitempty"`
}

// LegendItem is one key of the legend. The sample drawn is chosen by the
// first field set: Terrain (a swatch), Hexside, Road, Arrow (a kind), else
// Color (a counter swatch for a side); with none set the item is a note.
type LegendItem struct {
	Label                         string
	Terrain, Hexside, Road, Arrow string `json:",omitempty"`
	Color                         string `json:",omitempty"`
}

// Network is a point-to-point map: spaces joined by links, grouped into
// regions. Space positions are in pixels of the picture at 100%, from the
// top left of the map area.
type Network struct {
	Width, Height float64
	Spaces        []Space
	Links         []Link
	Regions       []Region `json:",omitempty"`
}

// Space is a place units stand on.
type Space struct {
	ID   string // the id orders use
	Name string // shown under the space; ID when empty
	X, Y float64
	// Terrain names the space's terrain (its fill); "" is clear.
	Terrain string `json:",omitempty"`
	// Key marks a key space (victory, a capital): drawn larger, starred.
	Key    bool   `json:",omitempty"`
	Region string `json:",omitempty"`
	// Owner is the side controlling the space, drawn as a ring of its
	// colour ("" for none).
	Owner string `json:",omitempty"`
	// OwnerColor is the ring's colour, "#rrggbb".
	OwnerColor string `json:",omitempty"`
}

// Link joins two spaces.
type Link struct {
	A, B string
	Kind string `json:",omitempty"` // RoadKind (default), Railroad, or "mountain" (a mountain road)
}

// Region groups spaces; it is outlined around them and named.
type Region struct {
	ID, Name string
	Color    string `json:",omitempty"` // tint "#rrggbb"
}

// MarshalText writes an id as "col,row", so maps keyed by hex serialise as
// JSON objects.
func (id ID) MarshalText() ([]byte, error) {
	return []byte(strconv.Itoa(id.Col) + "," + strconv.Itoa(id.Row)), nil
}

// UnmarshalText reads what MarshalText writes.
func (id *ID) UnmarshalText(b []byte) error {
	cs, rs, ok := strings.Cut(string(b), ",")
	c, err1 := strconv.Atoi(cs)
	r, err2 := strconv.Atoi(rs)
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("board: hex key %q: want col,row", b)
	}
	*id = ID{c, r}
	return nil
}

// Abbreviation is a unit symbol or marker a counter shows and what it
// means.
type Abbreviation struct{ Short, Means string }

// KeyNote is a legend note explaining the unit symbols (markers when
// markers is set) that the counters cs show: "title: A means, B means",
// in the order of abbrs, only those drawn. ok is false when cs shows none
// of them.
func KeyNote(title string, cs []Counter, markers bool, abbrs []Abbreviation) (it LegendItem, ok bool) {
	drawn := map[string]bool{}
	for _, c := range cs {
		if markers {
			for _, m := range c.Markers {
				drawn[m] = true
			}
		} else {
			drawn[c.Type] = true
		}
	}
	var parts []string
	for _, a := range abbrs {
		if drawn[a.Short] {
			parts = append(parts, a.Short+" "+a.Means)
			delete(drawn, a.Short)
		}
	}
	if len(parts) == 0 {
		return LegendItem{}, false
	}
	return LegendItem{Label: title + ": " + strings.Join(parts, ", ")}, true
}
