package vassal

import (
	"bytes"
	"context"
	"image"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The element names, below, are VASSAL's class names; the attributes are
// those VASSAL 3.7 writes for a Board, a HexGrid and a HexGridNumbering
// (vassal-app/src/main/java/VASSAL/build/module/map/boardPicker/Board.java,
// .../board/HexGrid.java, .../board/mapgrid/RegularGridNumbering.java).
const (
	mainBoard = `<VASSAL.build.module.map.boardPicker.Board image="map.png" name="Main" reversible="false">
  <VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" dotsVisible="false" dx="54.0" dy="62.5" edgesLegal="false" sideways="false" snapTo="true" visible="true" x0="27" y0="31">
    <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering color="0,0,0" first="H" fontSize="9" hDescend="false" hDrawOff="0" hLeading="1" hOff="1" hType="N" locationFormat="$gridLocation$" rotateText="0" sep="" stagger="true" vDescend="false" vDrawOff="0" vLeading="1" vOff="1" vType="N" visible="true"/>
  </VASSAL.build.module.map.boardPicker.board.HexGrid>
</VASSAL.build.module.map.boardPicker.Board>
<VASSAL.build.module.map.boardPicker.Board color="255,255,255" height="400" name="Box" reversible="false" width="400"/>
<VASSAL.build.module.map.boardPicker.Board image="map.png" name="Zoned" reversible="false">
  <VASSAL.build.module.map.boardPicker.board.ZonedGrid>
    <VASSAL.build.module.map.boardPicker.board.HexGrid dx="54.0" dy="62.5" x0="27" y0="31">
      <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering/>
    </VASSAL.build.module.map.boardPicker.board.HexGrid>
    <VASSAL.build.module.map.boardPicker.board.mapgrid.Zone highlightProperty="" locationFormat="$name$ $gridLocation$" name="Sea" path="0,0;160,0;160,140;0,140" useHighlight="false" useParentGrid="true"/>
    <VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="Holding" path="200,200;300,200;300,270;200,270" useParentGrid="false"/>
  </VASSAL.build.module.map.boardPicker.board.ZonedGrid>
</VASSAL.build.module.map.boardPicker.Board>`
	sideBoards = `<VASSAL.build.module.map.boardPicker.Board image="side.png" name="Side">
  <VASSAL.build.module.map.boardPicker.board.HexGrid dx="40.0" dy="46.0" sideways="true" x0="20" y0="23">
    <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering first="Vertical first" hDescend="true" hType="Alphabetic" sep="-" vLeading="0" vType="Numerical"/>
  </VASSAL.build.module.map.boardPicker.board.HexGrid>
</VASSAL.build.module.map.boardPicker.Board>
<VASSAL.build.module.map.boardPicker.Board image="side.png" name="Plain">
  <VASSAL.build.module.map.boardPicker.board.HexGrid dy="50.0"/>
</VASSAL.build.module.map.boardPicker.Board>`
)

// testModule is a module as VASSAL saves one: buildFile.xml, moduledata,
// and the boards' images under images/.
func testModule(tb testing.TB) []byte {
	return moduleZip(tb,
		entry{name: "buildFile.xml", data: buildFileXML(mapXML("Main Map", mainBoard) + mapXML("Side Map", sideBoards))},
		entry{name: "moduledata", data: moduleData},
		entry{name: "images/map.png", data: pngOf(tb, 320, 280)},
		entry{name: "images/side.png", data: pngOf(tb, 200, 300)},
		entry{name: "images/1inf.png", data: pngOf(tb, 10, 10)},
	)
}

// TestReadModule imports a small module made as VASSAL makes one and
// checks what the editor aligns: each board's map, image and size, its
// grid, and hex centres and labels as VASSAL computes them. The expected
// centres and labels are worked by hand from VASSAL's source, as written:
// HexGrid.hexPointCenterFromRawIndex (centre: x = (int)(dx·col + x0); y =
// (int)(dy·row + y0), plus (int)(dy/2) in odd columns; swapped when
// sideways), HexGrid.getRawColumn/getRawRow, and
// HexGridNumbering.getRow/getColumn with RegularGridNumbering.getName
// (vassal-app/src/main/java/VASSAL/build/module/map/boardPicker/board/).
func TestReadModule(t *testing.T) {
	data := testModule(t)
	m, err := Read(context.Background(), bytes.NewReader(data), int64(len(data)), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "Test Module" || m.Version != "1.0" {
		t.Errorf("module %q version %q, want Test Module 1.0", m.Name, m.Version)
	}
	var names []string
	for _, b := range m.Boards {
		names = append(names, b.Map+"/"+b.Name)
	}
	if want := []string{"Main Map/Main", "Main Map/Zoned", "Side Map/Side", "Side Map/Plain"}; !slices.Equal(names, want) {
		t.Fatalf("boards %q, want %q", names, want)
	}
	if len(m.Notes) != 1 || !strings.Contains(m.Notes[0], `board "Box" of map "Main Map"`) || !strings.Contains(m.Notes[0], "has no image") {
		t.Errorf("notes %q, want one saying board Box has no image", m.Notes)
	}

	main := m.Boards[0]
	if main.ImageName != "map.png" || main.Format != "png" || main.Width != 320 || main.Height != 280 {
		t.Errorf("main board image %s %s %d × %d, want map.png png 320 × 280", main.ImageName, main.Format, main.Width, main.Height)
	}
	if f, w, h, err := CheckImage(main.Image, DefaultLimits()); err != nil || f != "png" || w != 320 || h != 280 {
		t.Errorf("the main board's image bytes: %s %d × %d, %v", f, w, h, err)
	}
	g := main.Hex
	if g == nil || g.Dx != 54 || g.Dy != 62.5 || g.X0 != 27 || g.Y0 != 31 || g.Sideways || g.Bounds != image.Rect(0, 0, 320, 280) || g.Numbering == nil {
		t.Fatalf("main grid %+v", g)
	}
	if n := *g.Numbering; n != (Numbering{First: "H", HType: "N", VType: "N", HLeading: 1, VLeading: 1, HOff: 1, VOff: 1, Stagger: true, LocationFormat: "$gridLocation$"}) {
		t.Errorf("main numbering %+v", n)
	}
	for _, c := range []Hex{
		{Col: 0, Row: 0, X: 27, Y: 31, Label: "0101"},
		// Odd columns are (int)(dy/2) = 31 lower; stagger adds one to their rows.
		{Col: 1, Row: 0, X: 81, Y: 62, Label: "0202"},
		// (int)(62.5·3 + 31) = (int)218.5 = 218.
		{Col: 2, Row: 3, X: 135, Y: 218, Label: "0304"},
		{Col: 3, Row: 2, X: 189, Y: 187, Label: "0404"},
		// (int)(-62.5 + 31 + 31) = (int)-0.5 = 0: Java truncates toward 0, so
		// the hex above column 2's first lies on the image's top edge.
		{Col: 1, Row: -1, X: 81, Y: 0, Label: "0201"},
	} {
		if h := g.Hex(c.Col, c.Row); h != c {
			t.Errorf("main hex (%d, %d) = %+v, want %+v", c.Col, c.Row, h, c)
		}
		if l := g.Label(c.X+5, c.Y-4); l != c.Label {
			t.Errorf("main: the point (%d, %d) near hex %s is labelled %q", c.X+5, c.Y-4, c.Label, l)
		}
	}
	// Columns x = 27, 81, ... 297 (six); even columns hold rows 0..3, odd
	// columns rows -1..3 (the one at y = 0 above).
	if hexes := g.Hexes(); len(hexes) != 27 {
		t.Errorf("main board: %d hexes, want 27", len(hexes))
	}

	zoned := m.Boards[1]
	if zoned.Hex == nil || zoned.Hex.Label(81, 62) != "0202" {
		t.Errorf("zoned board's background grid: %+v", zoned.Hex)
	}
	if len(zoned.Zones) != 2 {
		t.Fatalf("zones %+v", zoned.Zones)
	}
	sea, holding := zoned.Zones[0], zoned.Zones[1]
	if sea.Name != "Sea" || !sea.UseParentGrid || sea.Hex != zoned.Hex || !slices.Equal(sea.Path, []image.Point{{0, 0}, {160, 0}, {160, 140}, {0, 140}}) {
		t.Errorf("zone Sea %+v", sea)
	}
	if l := sea.Label(81, 62); l != "Sea 0202" {
		t.Errorf("a point of zone Sea is %q, want \"Sea 0202\" ($name$ $gridLocation$)", l)
	}
	if l := holding.Label(250, 250); holding.Hex != nil || l != "Holding" {
		t.Errorf("a point of zone Holding, without a grid, is %q, want \"Holding\" (VASSAL's default format $name$)", l)
	}

	side := m.Boards[2]
	g = side.Hex
	if side.Width != 200 || side.Height != 300 || g == nil || !g.Sideways {
		t.Fatalf("side board %d × %d, grid %+v", side.Width, side.Height, g)
	}
	if n := *g.Numbering; n.First != "V" || n.HType != "A" || n.VType != "N" || n.Sep != "-" || n.VLeading != 0 || !n.HDescend || n.VDescend {
		t.Errorf("side numbering %+v", n)
	}
	for _, c := range []Hex{
		// Sideways: VASSAL's x runs down the image. Rows descend from
		// getMaxColumns = floor(200/46 + 0.5) = 4: raw row 0 is 4, named
		// 4+1 = "5"; column 0 is letter 0+1 = "B".
		{Col: 0, Row: 0, X: 23, Y: 20, Label: "5-B"},
		// Raw row 2 is 4-2 = 2, and stagger takes one off an odd column
		// when descending: 1, named "2"; column 1+1 = "C".
		{Col: 1, Row: 2, X: 138, Y: 60, Label: "2-C"},
	} {
		if h := g.Hex(c.Col, c.Row); h != c {
			t.Errorf("side hex (%d, %d) = %+v, want %+v", c.Col, c.Row, h, c)
		}
	}
	if &side.Image[0] != &m.Boards[3].Image[0] {
		t.Error("two boards of one image hold two copies of it")
	}

	// A HexGrid with dy alone: dx is sqrt(3)/2 · dy (HexGrid.setAttribute),
	// the origin VASSAL's default (0, 32), and no numbering.
	g = m.Boards[3].Hex
	if g == nil || g.Dx != math.Sqrt(3)/2*50 || g.Dy != 50 || g.X0 != 0 || g.Y0 != 32 || g.Numbering != nil {
		t.Fatalf("plain grid %+v", g)
	}
	if h := g.Hex(1, 1); h != (Hex{Col: 1, Row: 1, X: 43, Y: 107}) {
		t.Errorf("plain hex (1, 1) = %+v, want centre (43, 107) = ((int)43.30, (int)(50 + 25 + 32)) and no label", h)
	}
}

// TestReadFileOldBuildFile reads a module saved before VASSAL 3.5, whose
// buildFile has no extension, from a file.
func TestReadFileOldBuildFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.vmod")
	data := moduleZip(t,
		entry{name: "buildFile", data: buildFileXML(mapXML("Main Map", mainBoard))},
		entry{name: "images/map.png", data: pngOf(t, 320, 280)},
	)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := ReadFile(context.Background(), path, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Boards) != 2 || m.Boards[0].Hex.Hex(3, 2).Label != "0404" {
		t.Errorf("old module: %+v", m.Boards)
	}
}

// TestGridName checks the names RegularGridNumbering.getName writes.
func TestGridName(t *testing.T) {
	for _, c := range []struct {
		v       int
		typ     string
		leading int
		want    string
	}{
		{0, "A", 1, "A"}, {25, "A", 1, "Z"}, {26, "A", 1, "AA"}, {27, "A", 1, "BB"}, {52, "A", 1, "AAA"}, {-1, "A", 1, "-B"},
		{5, "N", 1, "05"}, {10, "N", 1, "10"}, {5, "N", 2, "005"}, {50, "N", 2, "050"}, {5, "N", 0, "5"}, {-3, "N", 1, "-03"},
	} {
		if got := gridName(c.v, c.typ, c.leading); got != c.want {
			t.Errorf("gridName(%d, %s, %d) = %q, want %q", c.v, c.typ, c.leading, got, c.want)
		}
	}
}
