package vassal

import (
	"bytes"
	"context"
	"image"
	"testing"
)

// fuzzLimits are small bounds, so that each fuzzed input is quick.
func fuzzLimits() Limits {
	lim := DefaultLimits()
	lim.EntryBytes = 1 << 20
	lim.TotalBytes = 4 << 20
	lim.BuildFileBytes = 256 << 10
	lim.Pixels = 1 << 20
	lim.Hexes = 5_000
	return lim
}

// checkModule checks what Read returns for any input: either an *Error
// (or a context's error), or boards each with an image within the limits
// and grids whose hexes are within their bounds and count.
func checkModule(t *testing.T, m *Module, err error, lim Limits) {
	if err != nil {
		if _, ok := err.(*Error); !ok {
			t.Fatalf("error %T %v is not an *Error", err, err)
		}
		return
	}
	if len(m.Boards) == 0 {
		t.Fatal("no error and no board")
	}
	for _, b := range m.Boards {
		if b.Width <= 0 || b.Height <= 0 || int64(b.Width)*int64(b.Height) > lim.Pixels || len(b.Image) == 0 {
			t.Fatalf("board %q: image %d × %d of %d bytes", b.Name, b.Width, b.Height, len(b.Image))
		}
		grids := []*HexGrid{b.Hex}
		for _, z := range b.Zones {
			grids = append(grids, z.Hex)
			_ = z.Label(b.Width/2, b.Height/2)
		}
		for _, g := range grids {
			if g == nil {
				continue
			}
			hexes := g.Hexes()
			if len(hexes) > 2*lim.Hexes+100 {
				t.Fatalf("board %q: %d hexes", b.Name, len(hexes))
			}
			for _, h := range hexes {
				if !image.Pt(h.X, h.Y).In(g.Bounds) || len(h.Label) > 1000 {
					t.Fatalf("board %q: hex %+v out of %v", b.Name, h, g.Bounds)
				}
			}
		}
	}
}

// FuzzRead gives Read any bytes as a module: it never panics, and what it
// returns is an *Error or boards within the limits.
func FuzzRead(f *testing.F) {
	f.Add(testModule(f))
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Add([]byte("not a zip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := fuzzLimits()
		m, err := Read(context.Background(), bytes.NewReader(data), int64(len(data)), lim)
		checkModule(t, m, err, lim)
	})
}

// FuzzBuildFile gives Read modules whose buildFile.xml is any text, with
// a real image under images/map.png: the fuzzer reaches the buildFile's
// reading, which it seldom would through the zip's bytes.
func FuzzBuildFile(f *testing.F) {
	f.Add(string(buildFileXML(mapXML("Main Map", mainBoard) + mapXML("Side Map", sideBoards))))
	f.Add(string(buildFileXML(mapXML("M", board("map.png", `dx="1" dy="1" sideways="true"`)))))
	f.Add(`<VASSAL.build.GameModule><VASSAL.build.module.map.boardPicker.Board image="map.png"><VASSAL.build.module.map.boardPicker.board.HexGrid x0="-1048576" dx="1.5"><VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering hOff="-100000" hType="A" vLeading="10"/></VASSAL.build.module.map.boardPicker.board.HexGrid></VASSAL.build.module.map.boardPicker.Board></VASSAL.build.GameModule>`)
	img := pngOf(f, 64, 48)
	f.Fuzz(func(t *testing.T, buildFile string) {
		data := moduleZip(t, entry{name: "buildFile.xml", data: []byte(buildFile)}, entry{name: "images/map.png", data: img})
		lim := fuzzLimits()
		m, err := Read(context.Background(), bytes.NewReader(data), int64(len(data)), lim)
		checkModule(t, m, err, lim)
	})
}
