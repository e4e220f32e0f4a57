package edit

// This file takes a VASSAL module's board (package vassal reads it): its
// image is the scan, and its hex grid, named as the module names hexes,
// aligns a hex map's grid at once where the names are the map's ids, and
// gives a new map its extent.

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/cmd/umpire/edit/vassal"
)

// Module is what the editor takes from a VASSAL module: the board chosen,
// its hexes' centres by name, the grid a new map of it has, and the
// reader's notes.
type Module struct {
	Scan  *Scan
	Board string
	Hexes map[string][2]float64
	// Grid is the extent of the board's hexes named as map ids
	// ("0101".."3020"), the grid a new hex map takes; nil when the
	// board's hexes are named otherwise.
	Grid  *GridSpec
	Notes []string
}

// ReadModule reads a VASSAL module within vassal.DefaultLimits and takes
// the board named boardName: a board's name, or "map: board" where two
// maps have boards of one name. With boardName "" it takes the module's
// one board with a hex grid (or its first board when none has a grid);
// a module with several boards with a hex grid is refused with a
// *BoardChoiceError listing them.
func ReadModule(ctx context.Context, path, boardName string) (*Module, error) {
	m, err := vassal.ReadFile(ctx, path, vassal.DefaultLimits())
	if err != nil {
		return nil, err
	}
	if len(m.Boards) == 0 {
		return nil, fmt.Errorf("edit: %s: the module has no board with an image", path)
	}
	b, err := chooseBoard(path, m.Boards, boardName)
	if err != nil {
		return nil, err
	}
	out := &Module{Scan: &Scan{Data: b.Image, Type: "image/" + b.Format, Width: b.Width, Height: b.Height},
		Board: b.Map + ": " + b.Name, Hexes: map[string][2]float64{}, Notes: m.Notes}
	if b.Hex != nil {
		for _, h := range b.Hex.Hexes() {
			if h.Label != "" {
				out.Hexes[h.Label] = [2]float64{float64(h.X), float64(h.Y)}
			}
		}
		out.Grid = gridOf(b.Hex)
	}
	return out, nil
}

// BoardChoiceError is a module whose board is not chosen: several boards
// have a hex grid and --board names none of them (or names none at all).
type BoardChoiceError struct {
	Path   string
	Asked  string   // the name asked for, "" if none
	Boards []string // each board, described (describeBoard)
}

// Error lists the boards and the flag that chooses one.
func (e *BoardChoiceError) Error() string {
	var b strings.Builder
	if e.Asked == "" {
		fmt.Fprintf(&b, "%s has %d boards with a hex grid; choose one with --board NAME:", e.Path, len(e.Boards))
	} else {
		fmt.Fprintf(&b, "%s has no board %q (or more than one of that name); choose one with --board NAME:", e.Path, e.Asked)
	}
	for _, d := range e.Boards {
		b.WriteString("\n  " + d)
	}
	return b.String()
}

// chooseBoard picks the board named, or the only board with a hex grid.
func chooseBoard(path string, boards []vassal.Board, name string) (*vassal.Board, error) {
	var match, gridded []*vassal.Board
	for i := range boards {
		b := &boards[i]
		if name != "" && (b.Name == name || b.Map+": "+b.Name == name) {
			match = append(match, b)
		}
		if b.Hex != nil {
			gridded = append(gridded, b)
		}
	}
	switch {
	case name != "" && len(match) == 1:
		return match[0], nil
	case name == "" && len(gridded) == 1:
		return gridded[0], nil
	case name == "" && len(gridded) == 0:
		return &boards[0], nil
	}
	e := &BoardChoiceError{Path: path, Asked: name}
	names := map[string]int{}
	for _, b := range boards {
		names[b.Name]++
	}
	for _, b := range boards {
		e.Boards = append(e.Boards, describeBoard(b, names[b.Name] > 1))
	}
	return nil, e
}

// describeBoard is a board's line in a BoardChoiceError: the --board
// value that picks it, its map, image size and grid.
func describeBoard(b vassal.Board, shared bool) string {
	arg := b.Name
	if shared {
		arg = b.Map + ": " + b.Name
	}
	s := fmt.Sprintf("--board %s  (map %q): %d×%d pixels, ", shellQuote(arg), b.Map, b.Width, b.Height)
	if b.Hex == nil {
		return s + "no hex grid"
	}
	hexes := b.Hex.Hexes()
	s += fmt.Sprintf("a hex grid of %d hexes", len(hexes))
	if g := gridOf(b.Hex); g != nil {
		s += fmt.Sprintf(" (%s to %s)", g.First, g.Last)
	} else if len(hexes) > 0 && hexes[0].Label != "" {
		s += fmt.Sprintf(" (named %s to %s)", hexes[0].Label, hexes[len(hexes)-1].Label)
	}
	s += fmt.Sprintf(", %s × %s pixels a hex", strconv.FormatFloat(b.Hex.Dx, 'f', -1, 64), strconv.FormatFloat(b.Hex.Dy, 'f', -1, 64))
	if b.Hex.Sideways {
		s += ", sideways"
	}
	return s
}

// shellQuote quotes a --board value for a shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t'\"\\$`!*?[]{}();&|<>#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// gridOf is the map grid of a VASSAL hex grid whose hexes are named as
// map ids (CCRR or CC.RR): the first and last hex of their extent, the
// orientation (a sideways grid's columns run across: pointy-top) and,
// flat-top, which printed columns sit higher, as the board draws them.
// It is nil when a named hex does not read as an id.
func gridOf(g *vassal.HexGrid) *GridSpec {
	hexes := g.Hexes()
	style, ids := board.FourDigit, "CCRR"
	if len(hexes) > 0 && strings.Contains(hexes[0].Label, ".") {
		style, ids = board.Dotted, "CC.RR"
	}
	at := map[board.ID]vassal.Hex{}
	lo, hi := board.ID{Col: math.MaxInt, Row: math.MaxInt}, board.ID{Col: -1, Row: -1}
	for _, h := range hexes {
		id, err := board.ParseID(h.Label, style)
		if err != nil {
			return nil
		}
		at[id] = h
		lo.Col, lo.Row, hi.Col, hi.Row = min(lo.Col, id.Col), min(lo.Row, id.Row), max(hi.Col, id.Col), max(hi.Row, id.Row)
	}
	if len(at) < 2 || (style == board.FourDigit && (hi.Col > 99 || hi.Row > 99)) {
		return nil
	}
	spec := &GridSpec{Orientation: "flat-top", IDs: ids, First: board.ID{Col: lo.Col, Row: lo.Row}.Format(style),
		Last: board.ID{Col: hi.Col, Row: hi.Row}.Format(style)}
	if g.Sideways {
		spec.Orientation = "pointy-top"
		return spec
	}
	// the first column's hexes against the next column's of the same row
	for id, h := range at {
		if id.Col != lo.Col {
			continue
		}
		if n, ok := at[board.ID{Col: id.Col + 1, Row: id.Row}]; ok {
			up := id.Col
			if n.Y < h.Y {
				up++
			}
			spec.Up = map[int]string{0: board.EvenUp, 1: board.OddUp}[up%2]
			break
		}
	}
	return spec
}

// alignFrom fits the grid to the module's hexes named as the map's: the
// two named hexes farthest apart fix the origin and the scales. It
// returns nil when fewer than two names match or the fit is degenerate.
func alignFrom(geo *Geometry, hexes map[string][2]float64) *Alignment {
	var a, b *HexSpot
	far := -1.0
	for i := range geo.Hexes {
		if _, ok := hexes[geo.Hexes[i].ID]; !ok {
			continue
		}
		if a == nil {
			a = &geo.Hexes[i]
			continue
		}
		h := &geo.Hexes[i]
		if d := math.Abs(h.X-a.X) + math.Abs(h.Y-a.Y); d > far && h.X != a.X && h.Y != a.Y {
			far, b = d, h
		}
	}
	if a == nil || b == nil {
		return nil
	}
	pa, pb := hexes[a.ID], hexes[b.ID]
	sx, sy := (pb[0]-pa[0])/(b.X-a.X), (pb[1]-pa[1])/(b.Y-a.Y)
	if sx <= 0 || sy <= 0 {
		return nil
	}
	return &Alignment{X0: pa[0] - sx*a.X, Y0: pa[1] - sy*a.Y, SX: sx, SY: sy}
}
