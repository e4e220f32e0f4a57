package edit

// This file takes a VASSAL module's board (package vassal reads it): its
// image is the scan, and its hex grid, named as the module names hexes,
// aligns a hex map's grid at once where the names are the map's ids.

import (
	"context"
	"fmt"
	"math"

	"github.com/umpire-pbem/umpire/cmd/umpire/edit/vassal"
)

// Module is what the editor takes from a VASSAL module: the first board
// with an image, its hexes' centres by name, and the reader's notes.
type Module struct {
	Scan  *Scan
	Board string
	Hexes map[string][2]float64
	Notes []string
}

// ReadModule reads a VASSAL module within vassal.DefaultLimits.
func ReadModule(ctx context.Context, path string) (*Module, error) {
	m, err := vassal.ReadFile(ctx, path, vassal.DefaultLimits())
	if err != nil {
		return nil, err
	}
	if len(m.Boards) == 0 {
		return nil, fmt.Errorf("edit: %s: the module has no board with an image", path)
	}
	b := m.Boards[0]
	for _, x := range m.Boards {
		if x.Hex != nil {
			b = x
			break
		}
	}
	out := &Module{Scan: &Scan{Data: b.Image, Type: "image/" + b.Format, Width: b.Width, Height: b.Height},
		Board: b.Map + ": " + b.Name, Hexes: map[string][2]float64{}, Notes: m.Notes}
	if b.Hex != nil {
		for _, h := range b.Hex.Hexes() {
			if h.Label != "" {
				out.Hexes[h.Label] = [2]float64{float64(h.X), float64(h.Y)}
			}
		}
	}
	return out, nil
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
