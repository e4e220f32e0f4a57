package vassal

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// The buildFile's element names are the Java classes VASSAL builds
// (VASSAL.build.GameModule and the classes named below). A map holds a
// BoardPicker, which holds Boards; a Board holds at most one grid: a
// HexGrid, or a ZonedGrid of Zones over a background grid; a HexGrid
// holds its HexGridNumbering. Other elements (pieces, windows,
// properties) are skipped whole.
const (
	elemModule      = "VASSAL.build.GameModule"
	elemModuleOld   = "VASSAL.launch.BasicModule"
	elemExtension   = "VASSAL.build.module.ModuleExtension"
	elemMap         = "VASSAL.build.module.Map"
	elemPrivateMap  = "VASSAL.build.module.PrivateMap"
	elemPlayerHand  = "VASSAL.build.module.PlayerHand"
	elemBoard       = "VASSAL.build.module.map.boardPicker.Board"
	elemHexGrid     = "VASSAL.build.module.map.boardPicker.board.HexGrid"
	elemSquareGrid  = "VASSAL.build.module.map.boardPicker.board.SquareGrid"
	elemRegionGrid  = "VASSAL.build.module.map.boardPicker.board.RegionGrid"
	elemZonedGrid   = "VASSAL.build.module.map.boardPicker.board.ZonedGrid"
	elemZone        = "VASSAL.build.module.map.boardPicker.board.mapgrid.Zone"
	elemHexNumber   = "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering"
	elemObliqueNumb = "VASSAL.build.module.map.boardPicker.board.mapgrid.ObliqueHexGridNumbering"
)

// The bounds of numbers read from a buildFile beyond which no real module
// goes, so that a label stays short: leading zeros, and numbering
// offsets.
const (
	maxLeading = 10
	maxOffset  = 100_000
	maxOrigin  = 1 << 20
)

// sqrt3_2 is HexGrid's sqrt(3)/2, the width of a hex of height 1.
var sqrt3_2 = math.Sqrt(3) / 2

// buildFile is what Read takes from a buildFile.
type buildFile struct {
	name, version string
	boards        []*draftBoard
}

// draftBoard is a Board element before its image is read.
type draftBoard struct {
	mapName, name, image string
	hex                  *HexGrid // the board's HexGrid, or its ZonedGrid's background HexGrid
	zoned                bool
	zones                []*draftZone
	notes                []string // grids left out, in the game master's words
}

// draftZone is a Zone element.
type draftZone struct {
	name, path, format string
	useParent          bool
	hex                *HexGrid
}

// frame is an open element of the buildFile.
type frame struct {
	name  string
	board *draftBoard
	zone  *draftZone
	grid  *HexGrid
}

// parseBuildFile reads a buildFile in one pass with encoding/xml, which
// expands no entity a DOCTYPE declares (an "XML bomb" is a syntax error
// here) and whose cost is linear in the bytes r gives. Elements nested
// deeper than depth are refused.
func parseBuildFile(r io.Reader, entry string, depth int) (*buildFile, error) {
	d := xml.NewDecoder(r)
	bf := &buildFile{}
	var stack []frame
	mapNames := []string{}
	root := true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return nil, err
			}
			line, _ := d.InputPos()
			return nil, refuseWrap(ErrBadBuildFile, err, "the module's %s is not well-formed XML (line %d)", entry, line)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= depth {
				line, _ := d.InputPos()
				return nil, refuse(ErrBadBuildFile, "the module's %s nests elements deeper than %d (line %d)", entry, depth, line)
			}
			name := t.Name.Local
			if root {
				root = false
				switch name {
				case elemModule, elemModuleOld:
				case elemExtension:
					return nil, refuse(ErrNotModule, "the file is a VASSAL module extension, not a module: import the module it extends")
				default:
					return nil, refuse(ErrNotModule, "the module's %s is not a VASSAL module's (its root element is %s, not %s)", entry, name, elemModule)
				}
				bf.name, bf.version = attr(t, "name"), attr(t, "version")
			}
			f, err := open(t, stack, mapNames, bf)
			if err != nil {
				line, _ := d.InputPos()
				return nil, &Error{Kind: ErrBadBuildFile, Msg: "the module's " + entry + " line " + strconv.Itoa(line), Err: err}
			}
			if name == elemMap || name == elemPrivateMap || name == elemPlayerHand {
				mapNames = append(mapNames, attr(t, "mapName"))
				f.name = name
			}
			stack = append(stack, f)
		case xml.EndElement:
			if n := len(stack); n > 0 {
				if top := stack[n-1]; top.name == elemMap || top.name == elemPrivateMap || top.name == elemPlayerHand {
					mapNames = mapNames[:len(mapNames)-1]
				}
				stack = stack[:n-1]
			}
		}
	}
	if root {
		return nil, refuse(ErrNotModule, "the module's %s is empty", entry)
	}
	return bf, nil
}

// open reads a start element in the place the stack gives it, and
// returns its frame.
func open(t xml.StartElement, stack []frame, mapNames []string, bf *buildFile) (frame, error) {
	f := frame{name: t.Name.Local}
	var parent frame
	if len(stack) > 0 {
		parent = stack[len(stack)-1]
	}
	switch f.name {
	case elemBoard:
		b := &draftBoard{name: attr(t, "name"), image: strings.TrimSpace(attr(t, "image"))}
		if len(mapNames) > 0 {
			b.mapName = mapNames[len(mapNames)-1]
		}
		bf.boards = append(bf.boards, b)
		f.board = b
	case elemHexGrid:
		g, err := hexGridOf(t)
		if err != nil {
			return f, err
		}
		f.grid = g
		switch {
		case parent.name == elemBoard && parent.board != nil:
			parent.board.hex = g
		case parent.name == elemZonedGrid && parent.board != nil:
			parent.board.hex = g
		case parent.name == elemZone && parent.zone != nil:
			parent.zone.hex = g
		}
	case elemSquareGrid, elemRegionGrid:
		if b := parent.board; b != nil && (parent.name == elemBoard || parent.name == elemZonedGrid) {
			b.notes = append(b.notes, "its grid is a "+gridKind(f.name)+" grid, which is not read: fit the grid by hand")
		}
	case elemZonedGrid:
		if parent.name == elemBoard && parent.board != nil {
			parent.board.zoned = true
			f.board = parent.board
		}
	case elemZone:
		if parent.name == elemZonedGrid && parent.board != nil {
			z := &draftZone{name: attr(t, "name"), path: attr(t, "path"), format: "$name$",
				useParent: attr(t, "useParentGrid") == "true"}
			if v, ok := attrOK(t, "locationFormat"); ok {
				z.format = v
			}
			parent.board.zones = append(parent.board.zones, z)
			f.zone = z
		}
	case elemHexNumber:
		if parent.name == elemHexGrid && parent.grid != nil {
			n, err := numberingOf(t)
			if err != nil {
				return f, err
			}
			parent.grid.Numbering = n
		}
	case elemObliqueNumb:
		// An oblique numbering is left out: the grid keeps no labels.
	}
	return f, nil
}

// gridKind names a grid element for a note.
func gridKind(name string) string {
	if name == elemSquareGrid {
		return "square"
	}
	return "region"
}

// hexGridOf reads a HexGrid element's attributes as HexGrid.setAttribute
// does. The DOM VASSAL builds from gives attributes in alphabetical order,
// so dx is set before dy; setting dy while dx is still the default width
// (sqrt(3)/2 × 64) makes dx sqrt(3)/2 × dy.
func hexGridOf(t xml.StartElement) (*HexGrid, error) {
	const defaultHeight = 64.0
	g := &HexGrid{Dx: sqrt3_2 * defaultHeight, Dy: defaultHeight, X0: 0, Y0: 32}
	var err error
	if v, ok := attrOK(t, "dx"); ok {
		if g.Dx, err = javaDouble("HexGrid", "dx", v); err != nil {
			return nil, err
		}
	}
	if v, ok := attrOK(t, "dy"); ok {
		if g.Dy, err = javaDouble("HexGrid", "dy", v); err != nil {
			return nil, err
		}
		if g.Dx == sqrt3_2*defaultHeight {
			g.Dx = sqrt3_2 * g.Dy
		}
	}
	for _, a := range []struct {
		name string
		to   *int
	}{{"x0", &g.X0}, {"y0", &g.Y0}} {
		if v, ok := attrOK(t, a.name); ok {
			if *a.to, err = javaInt("HexGrid", a.name, v, maxOrigin); err != nil {
				return nil, err
			}
		}
	}
	g.Sideways = javaBool(attr(t, "sideways"))
	return g, nil
}

// numberingOf reads a HexGridNumbering element's attributes as
// RegularGridNumbering.setAttribute and HexGridNumbering.setAttribute do:
// first, hType and vType are the first letter of their value ("Horizontal
// first", "Numerical", "Alphabetic" or the letter alone).
func numberingOf(t xml.StartElement) (*Numbering, error) {
	n := defaultNumbering()
	if v := attr(t, "first"); v != "" {
		n.First = "V"
		if v[0] == 'H' {
			n.First = "H"
		}
	}
	if v, ok := attrOK(t, "sep"); ok {
		n.Sep = v
	}
	for _, a := range []struct {
		name string
		to   *string
	}{{"hType", &n.HType}, {"vType", &n.VType}} {
		if v := attr(t, a.name); v != "" {
			*a.to = "N"
			if v[0] == 'A' {
				*a.to = "A"
			}
		}
	}
	var err error
	for _, a := range []struct {
		name  string
		to    *int
		bound int
	}{{"hLeading", &n.HLeading, maxLeading}, {"vLeading", &n.VLeading, maxLeading},
		{"hOff", &n.HOff, maxOffset}, {"vOff", &n.VOff, maxOffset}} {
		if v, ok := attrOK(t, a.name); ok {
			if *a.to, err = javaInt("HexGridNumbering", a.name, v, a.bound); err != nil {
				return nil, err
			}
		}
	}
	if v, ok := attrOK(t, "hDescend"); ok {
		n.HDescend = javaBool(v)
	}
	if v, ok := attrOK(t, "vDescend"); ok {
		n.VDescend = javaBool(v)
	}
	if v, ok := attrOK(t, "stagger"); ok {
		n.Stagger = javaBool(v)
	}
	if v, ok := attrOK(t, "locationFormat"); ok {
		n.LocationFormat = v
	}
	return n, nil
}

// attr is an attribute's value, "" if the element has none.
func attr(t xml.StartElement, name string) string {
	v, _ := attrOK(t, name)
	return v
}

// attrOK is an attribute's value and whether the element has it.
func attrOK(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// javaBool is Java's Boolean.valueOf: "true" in any case is true,
// anything else false.
func javaBool(v string) bool {
	return strings.EqualFold(v, "true")
}

// javaInt is Java's Integer.valueOf, and a bound no real module passes.
func javaInt(elem, name, v string, bound int) (int, error) {
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, &attrError{elem, name, v, "is not a whole number"}
	}
	if n > int64(bound) || n < -int64(bound) {
		return 0, &attrError{elem, name, v, "is beyond ±" + strconv.Itoa(bound)}
	}
	return int(n), nil
}

// javaDouble is Java's Double.valueOf for the numbers a module holds.
func javaDouble(elem, name, v string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, &attrError{elem, name, v, "is not a number"}
	}
	return f, nil
}

// attrError is an attribute VASSAL could not read either.
type attrError struct {
	elem, name, value, what string
}

// Error says which attribute and why.
func (e *attrError) Error() string {
	return e.elem + " attribute " + e.name + "=" + strconv.Quote(e.value) + " " + e.what
}
