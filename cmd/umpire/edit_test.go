package main

import (
	"archive/zip"
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// twoBoardModule writes a VASSAL module whose map window has two boards
// with a hex grid, "Map" (400 × 300) and "West" (500 × 400), as a game
// master's module of a map in several parts has.
func twoBoardModule(t *testing.T) string {
	t.Helper()
	board := func(name, img, grid string) string {
		return `<VASSAL.build.module.map.boardPicker.Board name="` + name + `" image="` + img + `">
  <VASSAL.build.module.map.boardPicker.board.HexGrid ` + grid + `><VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering/></VASSAL.build.module.map.boardPicker.board.HexGrid>
</VASSAL.build.module.map.boardPicker.Board>`
	}
	build := `<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="Test" version="1"><VASSAL.build.module.Map mapName="Main Map"><VASSAL.build.module.map.BoardPicker>` +
		board("Map", "map.png", `dx="30" dy="34" x0="20" y0="25"`) + board("West", "west.png", `dx="40" dy="46" x0="30" y0="30"`) +
		`</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map></VASSAL.build.GameModule>`
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("buildFile.xml")
	w.Write([]byte(build))
	for name, size := range map[string][2]int{"map.png": {400, 300}, "west.png": {500, 400}} {
		w, _ := zw.Create("images/" + name)
		if err := png.Encode(w, image.NewGray(image.Rect(0, 0, size[0], size[1]))); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "two.vmod")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEditBoardChoice: 'umpire edit' with a module of two boards and no
// --board stops before serving and lists each board with the --board
// value that takes it; with --board West it takes that board and gives a
// new map its hexes (stopped here by an address that is not loopback,
// after everything is read); --board without --vassal, a bad --size and
// a --size for a map file that exists are refused.
func TestEditBoardChoice(t *testing.T) {
	mod := twoBoardModule(t)
	newMap := filepath.Join(t.TempDir(), "map.toml")
	code, _, stderr := run(t, "edit", "wbt", newMap, "--vassal", mod)
	for _, want := range []string{"has 2 boards with a hex grid; choose one with --board NAME:",
		`--board Map  (map "Main Map"): 400×300 pixels, a hex grid of 117 hexes (0101 to 1309), 30 × 34 pixels a hex`,
		`--board West  (map "Main Map"): 500×400 pixels, a hex grid of 108 hexes (0101 to 1209), 40 × 46 pixels a hex`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("without --board: exit %d, stderr lacks %q:\n%s", code, want, stderr)
		}
	}
	if code != exitUsage {
		t.Errorf("without --board: exit %d", code)
	}
	code, stdout, stderr := run(t, "edit", "wbt", newMap, "--vassal", mod, "--board", "West", "--web", "192.0.2.1:80")
	if code != exitUsage || !strings.Contains(stdout, "board Main Map: West, 500×400 pixels, 108 hexes named.") ||
		!strings.Contains(stdout, "A new map of the board's hexes, 0101 to 1209.") || !strings.Contains(stderr, "loopback") {
		t.Errorf("--board West: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(newMap); err == nil {
		t.Error("the map file was written before Save")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"edit", "wbt", newMap, "--board", "West"}, "--board chooses a board of the module given with --vassal"},
		{[]string{"edit", "wbt", newMap, "--size", "120x80"}, "at most 99 columns and 99 rows"},
		{[]string{"edit", "wbt", newMap, "--size", "wide"}, "want COLSxROWS, such as 33x22"},
		{[]string{"edit", "wbt", mod, "--size", "31x40"}, "exists: a size is for a new map"},
	} {
		if code, _, stderr := run(t, c.args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, code, stderr)
		}
	}
}
