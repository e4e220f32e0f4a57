package vassal

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
)

// Module is what umpire edit takes from a VASSAL module: its boards, each
// with its image and grid.
type Module struct {
	Name, Version string  // the buildFile's root attributes
	Boards        []Board // the boards that have an image, in buildFile order
	// Notes says, one sentence each, what was left out and why: a board
	// without an image, a grid that does not fit its board, a square
	// grid. The editor shows them.
	Notes []string
}

// Board is a VASSAL board: a map's image and the grid over it.
type Board struct {
	Map       string // the map's mapName
	Name      string // the board's name
	ImageName string // the image's name under images/ in the module
	Image     []byte // the image file; boards of one image share the slice
	Format    string // "png", "jpeg" or "gif"
	Width     int    // the image's size in pixels
	Height    int
	Hex       *HexGrid // the board's hex grid (a ZonedGrid's background grid), nil if none
	Zones     []Zone   // a ZonedGrid's zones
}

// Zone is a zone of a ZonedGrid: a polygon of the board with its own grid,
// or the board's grid (useParentGrid), or none.
type Zone struct {
	Name           string
	Path           []image.Point // the polygon, in board pixels
	LocationFormat string        // how VASSAL names a point in the zone: "$name$" unless the module says
	UseParentGrid  bool
	Hex            *HexGrid // the zone's hex grid, or the board's when UseParentGrid; nil if none
}

// Label gives the name VASSAL shows for a point in the zone: its
// LocationFormat with $name$ the zone's name and $gridLocation$ the hex's
// label.
func (z *Zone) Label(x, y int) string {
	vars := map[string]string{"name": z.Name, "gridLocation": ""}
	if z.Hex != nil {
		vars["gridLocation"] = z.Hex.Label(x, y)
	}
	return formatLocation(z.LocationFormat, vars)
}

// The entries of a module umpire reads (VASSAL's GameModule.BUILDFILE,
// BUILDFILE_OLD and DataArchive.IMAGE_DIR): modules saved by VASSAL 3.5
// and later hold buildFile.xml, older ones buildFile.
const (
	entryBuildFile    = "buildFile.xml"
	entryBuildFileOld = "buildFile"
	imageDir          = "images/"
)

// ReadFile reads the module at path within lim.
func ReadFile(ctx context.Context, path string, lim Limits) (*Module, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read VASSAL module: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read VASSAL module: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, refuse(ErrNotModule, "%s is not a file", path)
	}
	return Read(ctx, f, st.Size(), lim)
}

// Read reads a module of size bytes from r within lim: its buildFile's
// boards, their images and grids. It refuses, with an *Error, a file
// that is not a zip, a zip without a buildFile or over a bound, and a
// module without a board that has an image. A board's problem that
// leaves the rest of the module usable (a board without an image, a grid
// that does not fit) is a note of Module.Notes.
func Read(ctx context.Context, r io.ReaderAt, size int64, lim Limits) (*Module, error) {
	if size > lim.ModuleBytes {
		return nil, refuse(ErrTooLarge, "the module is %s, over the limit of %s", bytesText(size), bytesText(lim.ModuleBytes))
	}
	if err := checkDirectory(r, size, lim); err != nil {
		return nil, err
	}
	dr := &directoryReader{r: r, left: lim.DirectoryBytes}
	zr, err := zip.NewReader(dr, size)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return nil, err
		}
		return nil, refuseWrap(ErrNotModule, err, "the file is not a zip archive, as a VASSAL module (.vmod) is")
	}
	dr.left = -1 // the directory is read; entries are bounded as they are read
	if len(zr.File) > lim.Entries {
		return nil, refuse(ErrTooLarge, "the module holds %s entries, over the limit of %s", groupDigits(int64(len(zr.File))), groupDigits(int64(lim.Entries)))
	}
	m := &moduleReader{ctx: ctx, files: map[string][]*zip.File{}, budget: &budget{total: lim.TotalBytes, left: lim.TotalBytes}, lim: lim}
	for _, f := range zr.File {
		m.files[f.Name] = append(m.files[f.Name], f)
	}
	entry := entryBuildFile
	if len(m.files[entry]) == 0 {
		entry = entryBuildFileOld
	}
	rc, err := m.open(entry, lim.BuildFileBytes)
	if err != nil {
		if errors.Is(err, errNoEntry) {
			return nil, refuse(ErrNotModule, "the zip archive holds no buildFile.xml (nor buildFile): it is not a VASSAL module")
		}
		return nil, err
	}
	bf, err := parseBuildFile(rc, entry, lim.Depth)
	rc.Close()
	if err != nil {
		return nil, err
	}
	return m.boards(bf)
}

// errNoEntry is an entry the zip does not hold.
var errNoEntry = errors.New("no such entry")

// moduleReader reads a module's entries within its limits.
type moduleReader struct {
	ctx    context.Context
	files  map[string][]*zip.File
	budget *budget
	lim    Limits
	images map[string]*loaded
}

// loaded is a board image read, or why it could not be.
type loaded struct {
	data   []byte
	format string
	w, h   int
	err    error
}

// open opens an entry through a bounded reader. An entry named twice is
// refused: which of the two VASSAL reads is not for umpire to guess.
func (m *moduleReader) open(name string, limit int64) (io.ReadCloser, error) {
	fs := m.files[name]
	switch {
	case len(fs) == 0:
		return nil, errNoEntry
	case len(fs) > 1:
		return nil, refuse(ErrNotModule, "the module holds two entries named %s", name)
	}
	f := fs[0]
	if f.UncompressedSize64 > uint64(limit) {
		return nil, refuse(ErrTooLarge, "the module's entry %s is %s, over the limit of %s", name, bytesText(int64(min(f.UncompressedSize64, 1<<62))), bytesText(limit))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, refuseWrap(ErrNotModule, err, "the module's entry %s cannot be read", name)
	}
	return struct {
		io.Reader
		io.Closer
	}{&boundedReader{ctx: m.ctx, r: rc, name: name, limit: limit, claim: f.UncompressedSize64, budget: m.budget}, rc}, nil
}

// boards reads each board's image and checks its grid.
func (m *moduleReader) boards(bf *buildFile) (*Module, error) {
	mod := &Module{Name: bf.name, Version: bf.version}
	if len(bf.boards) == 0 {
		return nil, refuse(ErrNoBoard, "the module has no board (no %s in its buildFile)", elemBoard)
	}
	m.images = map[string]*loaded{}
	var why boardErrors
	for _, d := range bf.boards {
		b, err := m.board(d)
		if err != nil {
			if m.budget.left < 0 {
				return nil, err // a zip bomb stops the whole module
			}
			if err := m.ctx.Err(); err != nil {
				return nil, err
			}
			err = &Error{Kind: kindOf(err), Msg: boardName(d), Err: err}
			mod.Notes = append(mod.Notes, err.Error())
			why = append(why, err)
			continue
		}
		for _, n := range d.notes {
			mod.Notes = append(mod.Notes, boardName(d)+": "+n)
		}
		mod.Boards = append(mod.Boards, *b)
	}
	if len(mod.Boards) == 0 {
		return nil, &Error{Kind: ErrNoBoard, Msg: "the module has no board to import", Err: why}
	}
	return mod, nil
}

// boardErrors are the reasons why no board of a module could be imported.
type boardErrors []error

// Error joins the reasons.
func (e boardErrors) Error() string {
	s := make([]string, len(e))
	for i, err := range e {
		s[i] = err.Error()
	}
	return strings.Join(s, "; ")
}

// Unwrap gives each reason to errors.Is and errors.As.
func (e boardErrors) Unwrap() []error { return e }

// kindOf is the kind of a board's problem: an *Error's, or ErrNoBoard.
func kindOf(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ErrNoBoard
}

// boardName names a board in a note: board "Main" of map "Map".
func boardName(d *draftBoard) string {
	return "board " + strconv.Quote(d.name) + " of map " + strconv.Quote(d.mapName)
}

// board reads one board's image and fits its grids to it.
func (m *moduleReader) board(d *draftBoard) (*Board, error) {
	if d.image == "" {
		return nil, errors.New("it has no image (a plain-colour board), so there is nothing to align")
	}
	name, ok := imageEntry(d.image)
	if !ok {
		return nil, fmt.Errorf("its image name %q is not a file name under images/", d.image)
	}
	img, err := m.image(name)
	if err != nil {
		return nil, err
	}
	b := &Board{Map: d.mapName, Name: d.name, ImageName: d.image, Image: img.data, Format: img.format, Width: img.w, Height: img.h}
	bounds := image.Rect(0, 0, img.w, img.h)
	if d.hex != nil {
		d.hex.Bounds = bounds
		if err := fitGrid(d.hex, m.lim); err != nil {
			d.notes = append(d.notes, "its hex grid was left out: "+err.Error()+"; fit the grid by hand")
		} else {
			b.Hex = d.hex
		}
	}
	for _, dz := range d.zones {
		z := Zone{Name: dz.name, Path: parsePath(dz.path), LocationFormat: dz.format, UseParentGrid: dz.useParent}
		if dz.useParent {
			z.Hex = b.Hex
		} else if dz.hex != nil {
			dz.hex.Bounds = polygonBounds(z.Path)
			if err := fitGrid(dz.hex, m.lim); err != nil {
				d.notes = append(d.notes, fmt.Sprintf("the hex grid of its zone %q was left out: %v", dz.name, err))
			} else {
				z.Hex = dz.hex
			}
		}
		b.Zones = append(b.Zones, z)
	}
	return b, nil
}

// image reads a board image once, however many boards show it.
func (m *moduleReader) image(name string) (*loaded, error) {
	if l, ok := m.images[name]; ok {
		return l, l.err
	}
	l := &loaded{}
	m.images[name] = l
	rc, err := m.open(name, m.lim.EntryBytes)
	if errors.Is(err, errNoEntry) {
		err = fmt.Errorf("its image %s is not in the module", name)
	}
	if err == nil {
		l.data, err = io.ReadAll(rc)
		rc.Close()
	}
	if err == nil {
		l.format, l.w, l.h, err = CheckImage(l.data, m.lim)
		if err != nil {
			e := err.(*Error)
			err = &Error{Kind: e.Kind, Msg: "its image " + name + " is " + e.Msg, Err: e.Err}
			l.data = nil
		}
	}
	l.err = err
	return l, err
}

// imageEntry is the zip entry of a board's image attribute, if the name
// stays under images/ (no "..", no absolute path, no backslash).
func imageEntry(name string) (string, bool) {
	if name == "" || strings.ContainsAny(name, "\\\x00") || strings.HasPrefix(name, "/") {
		return "", false
	}
	clean := path.Clean(name)
	if clean != name || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", false
	}
	return imageDir + clean, true
}

// fitGrid checks that a grid fits its bounds: dx and dy at least a pixel
// and no larger than the bounds (so that a hex centre falls within
// them), and no more hexes than lim.Hexes.
func fitGrid(g *HexGrid, lim Limits) error {
	w, h := g.Bounds.Dx(), g.Bounds.Dy()
	if g.Sideways {
		w, h = h, w
	}
	for _, s := range []struct {
		name string
		v    float64
		side int
		dir  string
	}{{"dx", g.Dx, w, "across"}, {"dy", g.Dy, h, "down"}} {
		switch {
		case !(s.v > 0):
			return refuse(ErrBadGrid, "its %s %s is not more than 0", s.name, strconv.FormatFloat(s.v, 'g', -1, 64))
		case s.v < 1:
			return refuse(ErrBadGrid, "its %s %s is less than a pixel", s.name, strconv.FormatFloat(s.v, 'g', -1, 64))
		case s.v > float64(s.side):
			return refuse(ErrBadGrid, "its %s %s is more than the %d pixels its image measures %s", s.name, strconv.FormatFloat(s.v, 'g', -1, 64), s.side, s.dir)
		}
	}
	if n := float64(w) * float64(h) / (g.Dx * g.Dy); n > float64(lim.Hexes) {
		return refuse(ErrBadGrid, "it would make some %s hexes, over the limit of %s", groupDigits(int64(n)), groupDigits(int64(lim.Hexes)))
	}
	return nil
}

// parsePath reads a zone's path as PolygonEditor.stringToPolygon does:
// points "x,y" separated by ";", a point that is not two whole numbers
// skipped.
func parsePath(s string) []image.Point {
	var pts []image.Point
	for p := range strings.SplitSeq(s, ";") {
		xs, ys, ok := strings.Cut(p, ",")
		if !ok {
			continue
		}
		ys, _, _ = strings.Cut(ys, ",")
		x, err1 := strconv.ParseInt(strings.TrimSpace(xs), 10, 32)
		y, err2 := strconv.ParseInt(strings.TrimSpace(ys), 10, 32)
		if err1 == nil && err2 == nil {
			pts = append(pts, image.Pt(int(x), int(y)))
		}
	}
	return pts
}

// polygonBounds is the smallest rectangle holding the points, as Java's
// Polygon.getBounds.
func polygonBounds(pts []image.Point) image.Rectangle {
	if len(pts) == 0 {
		return image.Rectangle{}
	}
	r := image.Rectangle{Min: pts[0], Max: pts[0]}
	for _, p := range pts[1:] {
		r.Min.X, r.Min.Y = min(r.Min.X, p.X), min(r.Min.Y, p.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, p.X), max(r.Max.Y, p.Y)
	}
	return r
}
