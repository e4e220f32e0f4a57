package adjudicator

// This file holds the game master's map image (docs/game-file.md, "The
// map on the game master's map art"): the game file's map_image settings,
// the alignment of the map on the image, whose reports draw on it, and
// whether an image fits the game's map.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// MapImageAlignPrefix starts the comment line in which umpire edit keeps
// the scan's alignment at the top of a map file: "# umpire edit: scan
// x0=40 y0=38.5 sx=24 sy=24".
const MapImageAlignPrefix = "# umpire edit: scan "

// MapAlign places a map's layout on its image: a layout point p is at
// pixel (X0 + SX*p.X, Y0 + SY*p.Y), as board.Art says.
type MapAlign struct{ X0, Y0, SX, SY float64 }

// maxAlign bounds the numbers of an alignment: far beyond any image's
// pixels, so that a typing slip is refused here rather than drawn.
const maxAlign = 1e6

// ParseMapAlign reads an alignment written "x0 y0 sx sy" (the game file's
// map_image_align) or "x0=.. y0=.. sx=.. sy=.." (umpire edit's line).
func ParseMapAlign(s string) (MapAlign, error) {
	fields := strings.Fields(s)
	if len(fields) != 4 {
		return MapAlign{}, fmt.Errorf("%q: write four numbers, x0 y0 sx sy (the first hex's centre on the image in pixels, then the pixels of one unit of the grid across and down)", s)
	}
	var v [4]float64
	for i, f := range fields {
		name := [4]string{"x0", "y0", "sx", "sy"}[i]
		if k, rest, ok := strings.Cut(f, "="); ok {
			if k != name {
				return MapAlign{}, fmt.Errorf("%q: want %s= in place %d, not %s=", s, name, i+1, k)
			}
			f = rest
		}
		n, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || math.Abs(n) > maxAlign {
			return MapAlign{}, fmt.Errorf("%q: %s %q is not a number of pixels", s, name, f)
		}
		v[i] = n
	}
	a := MapAlign{v[0], v[1], v[2], v[3]}
	if a.SX <= 0 || a.SY <= 0 {
		return MapAlign{}, fmt.Errorf("%q: the scales sx and sy must be more than 0", s)
	}
	return a, nil
}

// String writes the alignment as map_image_align takes it.
func (a MapAlign) String() string {
	n := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return n(a.X0) + " " + n(a.Y0) + " " + n(a.SX) + " " + n(a.SY)
}

// editorAlign finds umpire edit's alignment line among the comment lines
// at the top of a map file; ok is false when there is none.
func editorAlign(mapFile string) (a MapAlign, ok bool, err error) {
	for line := range strings.Lines(mapFile) {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "#") {
			break
		}
		if rest, found := strings.CutPrefix(t, MapImageAlignPrefix); found {
			a, err = ParseMapAlign(rest)
			return a, err == nil, err
		}
	}
	return MapAlign{}, false, nil
}

// checkMapImage checks the map_image settings and fills in the
// alignment: map_image_align, or else umpire edit's line in the map
// option, or else "0 0 1 1" (a network map whose spaces were placed on the
// image in its pixels).
func (f *GameFile) checkMapImage() error {
	if f.MapImage == "" {
		if f.MapImageAlign != "" || f.MapImagePublic {
			return errors.New("map_image_align and map_image_public need map_image, which says whose image the map is drawn on")
		}
		return nil
	}
	if len(f.MapImage) > 200 || strings.ContainsAny(f.MapImage, "\r\n") {
		return errors.New("map_image: say whose image it is in one line of at most 200 characters")
	}
	if f.MapImageAlign != "" {
		a, err := ParseMapAlign(f.MapImageAlign)
		if err != nil {
			return fmt.Errorf("map_image_align %w", err)
		}
		f.align = a
		return nil
	}
	a, ok, err := editorAlign(f.Options["map"])
	if err != nil {
		return fmt.Errorf("options.map: the line %q...: alignment %w", MapImageAlignPrefix, err)
	}
	if !ok {
		a = MapAlign{0, 0, 1, 1}
	}
	f.align = a
	return nil
}

// Align is where the game's map lies on its map image.
func (f *GameFile) Align() MapAlign { return f.align }

// mapArt is the art a reader's picture of this game is drawn on: nil when
// the game has no map image, or when the reader is the public
// (Spectator: observers and the web pages) and the file does not make the
// image public.
func (f *GameFile) mapArt(game, reader string) *board.Art {
	if f == nil || f.MapImage == "" || reader == Spectator && !f.MapImagePublic {
		return nil
	}
	a := f.align
	return &board.Art{Game: game, Credit: f.MapImage, X0: a.X0, Y0: a.Y0, SX: a.SX, SY: a.SY}
}

// withArt puts the map art on r's picture for its reader, and the notice
// saying whose image it is and who sees it.
func (f *GameFile) withArt(r *Report, reader string) {
	art := f.mapArt(r.Game, reader)
	if art == nil || r.Picture == nil {
		return
	}
	pic := *r.Picture
	pic.Art = art
	r.Picture = &pic
	who := "shown to this game's seats and game master only"
	if f.MapImagePublic {
		who = "shown on the game's public pages too (map_image_public)"
	}
	r.Notices = append(r.Notices, fmt.Sprintf("The map is drawn on %s, %s.", art.Credit, who))
}

// MapImageFits says whether game's map lies on an image of w × h pixels
// with the game file's alignment: every hex centre (or space) of the
// scenario's first map on the image, and a hex at least 6 pixels across.
// The operator's command that installs the image asks it first.
func (j *Judge) MapImageFits(g Game, w, h int) error {
	p, a, err := j.MapImageLayout(g)
	if err != nil {
		return err
	}
	return fitsImage(p, a, w, h)
}

// MapImageLayout is the map game g's reports draw on its map image, as
// at the scenario's start, and where it lies on the image: what the
// operator's command that installs the image needs to check it and to
// shrink it to what the reports use.
func (j *Judge) MapImageLayout(g Game) (board.Picture, MapAlign, error) {
	f, err := j.files.get(g.File, j.Games)
	if err != nil {
		return board.Picture{}, MapAlign{}, err
	}
	if f.MapImage == "" {
		return board.Picture{}, MapAlign{}, fmt.Errorf("game %s's file has no map_image: its reports are drawn on the judge's own map (docs/game-file.md)", g.ID)
	}
	rules, err := j.Games.Get(g.Kind)
	if err != nil {
		return board.Picture{}, MapAlign{}, err
	}
	rep, ok := rules.(Reporter)
	if !ok {
		return board.Picture{}, MapAlign{}, fmt.Errorf("game %s (%s) draws no map", g.ID, g.Kind)
	}
	state, err := rules.New(f.Scenario, f.Options)
	if err != nil {
		return board.Picture{}, MapAlign{}, err
	}
	sit, err := rep.Situation(state, Spectator)
	if err != nil {
		return board.Picture{}, MapAlign{}, err
	}
	if sit.Picture == nil {
		return board.Picture{}, MapAlign{}, fmt.Errorf("game %s (%s) draws no map", g.ID, g.Kind)
	}
	return *sit.Picture, f.align, nil
}

// fitsImage checks that every hex centre or space of p falls on an image
// of w × h pixels placed by a.
func fitsImage(p board.Picture, a MapAlign, w, h int) error {
	outside := func(what string, x, y float64) error {
		return fmt.Errorf("the map does not fit the image: %s falls at pixel (%.0f, %.0f), outside the image of %d × %d pixels; "+
			"check map_image_align (x0 y0 sx sy, now %s), or align the grid on this image again with umpire edit", what, x, y, w, h, a)
	}
	in := func(x, y float64) bool { return x >= 0 && y >= 0 && x < float64(w) && y < float64(h) }
	switch {
	case p.Grid != nil:
		if 2*math.Min(a.SX, a.SY) < 6 {
			return fmt.Errorf("the map does not fit the image: a hex would be %.1f pixels across on it, under 6; check map_image_align (x0 y0 sx sy, now %s)", 2*math.Min(a.SX, a.SY), a)
		}
		for _, id := range p.Grid.All() {
			c := p.Grid.Center(id)
			if x, y := a.X0+a.SX*c.X, a.Y0+a.SY*c.Y; !in(x, y) {
				return outside("hex "+p.Grid.Format(id)+"'s centre", x, y)
			}
		}
	case p.Network != nil:
		for _, s := range p.Network.Spaces {
			if x, y := a.X0+a.SX*s.X, a.Y0+a.SY*s.Y; !in(x, y) {
				return outside("space "+s.ID, x, y)
			}
		}
	}
	return nil
}
