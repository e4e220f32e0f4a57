package perrote

import (
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// terrainKind is what a hex's terrain does (Cover, Movement).
type terrainKind struct {
	Cover cover
	// Blocks: impassable and blocks fire through it (a cliff, a tall
	// building block); every cover hex also blocks fire through (Cover).
	Blocks bool
	// Impassable: no unit may enter (deep water).
	Impassable bool
	Color      string
}

// terrains are the hex terrains a scenario may use. Cover: trees, fences
// and smoke are light; foxholes, craters, walls, building windows and a
// hill are heavy (docs/rulings.md 21).
var terrains = map[string]terrainKind{
	"open":      {Color: "#f1eedf"},
	"road":      {Color: "#e6dcc0"},
	"trees":     {Cover: lightCover, Color: "#a9cf8e"},
	"fence":     {Cover: lightCover, Color: "#dfe7c8"},
	"buildings": {Cover: heavyCover, Color: "#c7c2c8"},
	"foxholes":  {Cover: heavyCover, Color: "#d9c79a"},
	"craters":   {Cover: heavyCover, Color: "#cdb48f"},
	"rubble":    {Cover: heavyCover, Color: "#bfb6a6"},
	"hill":      {Cover: heavyCover, Color: "#d6bf8a"},
	"water":     {Impassable: true, Color: "#8fbfe6"},
	"blocking":  {Blocks: true, Impassable: true, Color: "#6f6a60"},
}

// terrainNames lists the terrains in a stable order.
func terrainNames() []string {
	out := make([]string, 0, len(terrains))
	for k := range terrains {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// linearKinds are the linear covers of hexsides (Cover: hedges, fences,
// riverbanks...): their strength when they lie between the target's
// majority and the shooter.
var linearKinds = map[string]cover{
	"hedge":     lightCover,
	"fence":     lightCover,
	"riverbank": lightCover,
	"wall":      heavyCover,
	"sandbags":  heavyCover,
}

// linearNames lists the linear covers in a stable order.
func linearNames() []string {
	out := make([]string, 0, len(linearKinds))
	for k := range linearKinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// field is the board as one turn sees it: the grid, each hex's terrain,
// linear cover by hexside, smoke.
type field struct {
	g        board.Grid
	terrain  map[board.ID]terrainKind
	names    map[board.ID]string
	hexsides map[[2]board.ID]cover
	// smoke is a mortar's or grenade's smoke: light cover that cannot be
	// fired through; screen is a vehicle's launcher smoke: light cover if
	// fired through (Smoke Launchers).
	smoke, screen map[board.ID]bool
}

func newField(s *State) *field {
	f := &field{g: s.Board.Grid(), terrain: map[board.ID]terrainKind{}, names: map[board.ID]string{},
		hexsides: map[[2]board.ID]cover{}, smoke: map[board.ID]bool{}, screen: map[board.ID]bool{}}
	for h, t := range s.Terrain {
		if id, err := f.g.Parse(h); err == nil {
			f.terrain[id] = terrains[t]
			f.names[id] = t
		}
	}
	for _, hs := range s.Hexsides {
		a, err1 := f.g.Parse(hs.A)
		b, err2 := f.g.Parse(hs.B)
		if err1 == nil && err2 == nil {
			f.hexsides[sideKey(a, b)] = linearKinds[hs.Kind]
		}
	}
	for _, sm := range s.Smoke {
		f.addSmoke(sm)
	}
	return f
}

// addSmoke puts smoke on the field.
func (f *field) addSmoke(sm smoke) {
	for _, h := range sm.Hexes {
		if id, err := f.g.Parse(h); err == nil {
			if sm.Screen {
				f.screen[id] = true
			} else {
				f.smoke[id] = true
			}
		}
	}
}

func sideKey(a, b board.ID) [2]board.ID {
	if a.Col > b.Col || (a.Col == b.Col && a.Row > b.Row) {
		a, b = b, a
	}
	return [2]board.ID{a, b}
}

// cover is the hex's cover: its terrain, or light cover in smoke (Cover,
// Smoke Launchers); the better counts.
func (f *field) cover(h board.ID) cover {
	c := f.terrain[h].Cover
	if (f.smoke[h] || f.screen[h]) && c < lightCover {
		c = lightCover
	}
	return c
}

// blocksFire reports whether fire cannot pass through the hex: terrain
// cover (Cover: only fired into, never through), a mortar's or grenade's
// smoke ("you can't shoot through it"), blocking terrain. A vehicle's
// smoke screen does not block: it "counts as light cover if fired
// through" (Smoke Launchers).
func (f *field) blocksFire(h board.ID) bool {
	return f.terrain[h].Cover != noCover || f.smoke[h] || f.terrain[h].Blocks
}

// screened reports whether every line of fire from from to to passes
// through a vehicle's smoke screen between them (Smoke Launchers: light
// cover if fired through); on a line along hexsides the shooter has the
// clearer reading.
func (f *field) screened(from, to board.ID) bool {
	if len(f.screen) == 0 || from == to {
		return false
	}
	for _, line := range [][]board.ID{f.g.Line(from, to), f.g.LineOther(from, to)} {
		if !slices.ContainsFunc(board.Between(line), func(h board.ID) bool { return f.screen[h] }) {
			return false
		}
	}
	return true
}

func (f *field) passable(h board.ID) bool {
	return f.g.Contains(h) && !f.terrain[h].Impassable
}

// linearCover is the linear cover between the target's hex and a shooter
// (Cover): the hexside the line of fire crosses into the target hex, on
// either reading of a line along hexsides. Adjacent and same-hex shots use
// the shared side (none for the same hex).
func (f *field) linearCover(from, to board.ID) cover {
	if from == to || len(f.hexsides) == 0 {
		return noCover
	}
	best := noCover
	for _, line := range [][]board.ID{f.g.Line(from, to), f.g.LineOther(from, to)} {
		prev := line[len(line)-2]
		if c := f.hexsides[sideKey(prev, to)]; c > best {
			best = c
		}
	}
	return best
}

func (f *field) format(h board.ID) string { return f.g.Format(h) }

func (f *field) parse(h string) (board.ID, bool) {
	id, err := f.g.Parse(strings.TrimSpace(h))
	return id, err == nil
}
