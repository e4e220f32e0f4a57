package edit

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"image"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/adjudicator/games/pcs1995"
	"github.com/umpire-pbem/umpire/adjudicator/games/sms1914"
	"github.com/umpire-pbem/umpire/adjudicator/games/wbt"
)

var rulesOf = map[string]adjudicator.Rules{"pcs1995": pcs1995.Game, "wbt": wbt.Game, "sms1914": sms1914.Game, "bu": bu.Game}

// copyDemo copies a game's demo file into a new folder.
func copyDemo(t *testing.T, game, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../../adjudicator/games", game, "scenarios", file))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), file)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDemoFilesRoundTrip opens each game's demo map and counters in the
// editor and saves them untouched: the judge accepts the saved files and
// starts the same game from them as from the demo files.
func TestDemoFilesRoundTrip(t *testing.T) {
	for game, rules := range rulesOf {
		t.Run(game, func(t *testing.T) {
			mp, cp := copyDemo(t, game, "demo-map.toml"), copyDemo(t, game, "demo-counters.toml")
			s, err := New(Config{Game: rules, MapPath: mp, CountersPath: cp})
			if err != nil {
				t.Fatal(err)
			}
			res := s.check(s.doc)
			if !res.OK {
				t.Fatalf("the judge refuses the demo files as the editor writes them: %+v", res.Problems)
			}
			if res.SVG == "" || len(res.SVGPlaces) == 0 {
				t.Fatalf("no picture of the map: %d places", len(res.SVGPlaces))
			}
			if game != "bu" && len(res.Geometry.Hexes) != len(res.SVGPlaces) {
				t.Errorf("%d hexes in the geometry, %d in the picture", len(res.Geometry.Hexes), len(res.SVGPlaces))
			}
			post(t, s, "/api/save", s.doc, http.StatusOK)
			saved := map[string]string{}
			for name, p := range map[string]string{"map": mp, "counters": cp} {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				saved[name] = string(b)
			}
			demo, err := rules.New("", nil)
			if err != nil {
				t.Fatal(err)
			}
			mine, err := rules.New("", saved)
			if err != nil {
				t.Fatalf("create refuses the saved files: %v", err)
			}
			if len(mine) < len(demo)/2 {
				t.Errorf("the saved files make a state of %d bytes, the demo's %d", len(mine), len(demo))
			}
			// a second round trip writes the same text
			s2, err := New(Config{Game: rules, MapPath: mp, CountersPath: cp})
			if err != nil {
				t.Fatal(err)
			}
			if again := s2.check(s2.doc); again.MapText != saved["map"] || again.CountersText != saved["counters"] {
				t.Error("reading the saved files and writing them again changes them")
			}
		})
	}
}

func post(t *testing.T, s *Server, path string, doc *Document, want int) *httptest.ResponseRecorder {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:9/"+strings.TrimPrefix(path, "/"), bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != want {
		t.Fatalf("%s: %d %s, want %d", path, rec.Code, rec.Body, want)
	}
	return rec
}

// TestRefusalOnTheMap paints a terrain 1995 has not: the judge's refusal
// is create's, names the line and field, and points at the hex painted.
func TestRefusalOnTheMap(t *testing.T) {
	mp := copyDemo(t, "pcs1995", "demo-map.toml")
	s, err := New(Config{Game: pcs1995.Game, MapPath: mp})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(mp)
	s.doc.Hex.Terrain["1510"] = "swamp"
	var res Result
	if err := json.Unmarshal(post(t, s, "/api/check", s.doc, http.StatusOK).Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.OK || len(res.Problems) != 1 {
		t.Fatalf("a swamp accepted: %+v", res)
	}
	p := res.Problems[0]
	_, createErr := pcs1995.Game.New("", map[string]string{"map": res.MapText})
	if createErr == nil || p.Message != createErr.Error() {
		t.Errorf("the editor says %q, create %v", p.Message, createErr)
	}
	if p.Field != "terrain.kind" || p.Line == 0 || len(p.Where) != 1 || p.Where[0] != "1510" {
		t.Errorf("the refusal points at %+v, want hex 1510's terrain line", p)
	}
	if after, _ := os.ReadFile(mp); !bytes.Equal(before, after) {
		t.Error("checking wrote the file")
	}
	// another site's page may not save
	b, _ := json.Marshal(s.doc)
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:9/api/save", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("a cross-site save: %d", rec.Code)
	}
	if after, _ := os.ReadFile(mp); !bytes.Equal(before, after) {
		t.Error("a refused save wrote the file")
	}
}

// TestBadScans: a file that is not an image and an image too large are
// refused from their header.
func TestBadScans(t *testing.T) {
	if _, err := CheckScan("x.png", []byte("not an image")); err == nil || !strings.Contains(err.Error(), "not a PNG or JPEG") {
		t.Errorf("text as a scan: %v", err)
	}
	// a PNG header claiming 20000x20000 pixels
	ihdr := []byte("IHDR\x00\x00N \x00\x00N \x08\x02\x00\x00\x00")
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\r"), ihdr...)
	png = binary.BigEndian.AppendUint32(png, crc32.ChecksumIEEE(ihdr))
	if _, err := CheckScan("big.png", png); err == nil || !strings.Contains(err.Error(), "20000×20000") {
		t.Errorf("a 20000x20000 scan: %v", err)
	}
}

// vassalBoard is a board element of a test module: image, HexGrid
// attributes and HexGridNumbering attributes ("" : no numbering element).
func vassalBoard(name, image, grid, numbering string) string {
	num := ""
	if numbering != "" {
		num = "<VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering " + numbering + "/>"
	}
	img := ""
	if image != "" {
		img = ` image="` + image + `"`
	}
	return `<VASSAL.build.module.map.boardPicker.Board name="` + name + `"` + img + `>
    <VASSAL.build.module.map.boardPicker.board.HexGrid ` + grid + `>` + num + `</VASSAL.build.module.map.boardPicker.board.HexGrid>
   </VASSAL.build.module.map.boardPicker.Board>`
}

// writeModule writes a module in VASSAL's format: its boards in one
// map window, and a PNG of each size under images/.
func writeModule(t *testing.T, boards string, images map[string][2]int) string {
	t.Helper()
	build := `<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="Test" version="1">
 <VASSAL.build.module.Map mapName="Main Map">
  <VASSAL.build.module.map.BoardPicker>
   ` + boards + `
  </VASSAL.build.module.map.BoardPicker>
 </VASSAL.build.module.Map>
</VASSAL.build.GameModule>`
	path := filepath.Join(t.TempDir(), "test.vmod")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	entries := map[string][]byte{"buildFile.xml": []byte(build)}
	for name, size := range images {
		var pngBuf bytes.Buffer
		if err := png.Encode(&pngBuf, image.NewRGBA(image.Rect(0, 0, size[0], size[1]))); err != nil {
			t.Fatal(err)
		}
		entries["images/"+name] = pngBuf.Bytes()
	}
	for name, data := range entries {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// The test module's boards: "Map", a 400 × 300 board numbered without
// stagger; "West", a 500 × 400 board numbered as VASSAL numbers by
// default (odd columns' rows one more: the even columns sit higher);
// "Box", a plain colour.
var (
	mapBoard  = vassalBoard("Map", "map.png", `dx="30" dy="34" x0="20" y0="25"`, `first="H" sep="" hType="N" vType="N" hLeading="1" vLeading="1" hOff="1" vOff="1" stagger="false" locationFormat="$gridLocation$"`)
	westBoard = vassalBoard("West", "west.png", `dx="40" dy="46" x0="30" y0="30"`, " ")
	boxBoard  = `<VASSAL.build.module.map.boardPicker.Board name="Box" color="255,255,255" width="400" height="400"/>`
)

// alignedOn checks that every hex of the editor's map the module names
// lies on the module's hex, within a pixel and a half, and returns how
// many it names.
func alignedOn(t *testing.T, s *Server, mod *Module) int {
	t.Helper()
	al := s.doc.Hex.Scan
	if al == nil {
		t.Fatal("the grid is not aligned on the module's hexes")
	}
	geo, err := s.doc.Hex.geometry("map.toml")
	if err != nil {
		t.Fatal(err)
	}
	matched := 0
	for _, h := range geo.Hexes {
		v, ok := mod.Hexes[h.ID]
		if !ok {
			continue
		}
		matched++
		if x, y := al.X0+al.SX*h.X, al.Y0+al.SY*h.Y; math.Abs(x-v[0]) > 1.5 || math.Abs(y-v[1]) > 1.5 {
			t.Errorf("hex %s: the grid puts it at (%.1f, %.1f), the module at (%.0f, %.0f)", h.ID, x, y, v[0], v[1])
		}
	}
	return matched
}

// TestVassalAligns builds a small module in VASSAL's format (a board
// image and its HexGrid with numbering) and opens a new 1995 map with it:
// the board is the scan and the grid lies on the module's hexes at once.
func TestVassalAligns(t *testing.T) {
	path := writeModule(t, mapBoard, map[string][2]int{"map.png": {400, 300}})
	mod, err := ReadModule(t.Context(), path, "")
	if err != nil {
		t.Fatal(err)
	}
	if mod.Scan.Width != 400 || mod.Scan.Height != 300 || len(mod.Hexes) < 20 {
		t.Fatalf("the module gives a %dx%d scan and %d hexes", mod.Scan.Width, mod.Scan.Height, len(mod.Hexes))
	}
	s, err := New(Config{Game: pcs1995.Game, MapPath: filepath.Join(t.TempDir(), "map.toml"), Scan: mod.Scan, Hexes: mod.Hexes})
	if err != nil {
		t.Fatal(err)
	}
	if matched := alignedOn(t, s, mod); matched < 20 {
		t.Errorf("%d hexes of the map are named in the module", matched)
	}
}

// TestVassalBoardChoice: a module with two boards with a hex grid (and a
// plain-colour box) is refused without a board named, with each board's
// --board value, size and grid; the board named is the scan, and a new
// map has its hexes, every one on the module's hex.
func TestVassalBoardChoice(t *testing.T) {
	path := writeModule(t, mapBoard+boxBoard+westBoard, map[string][2]int{"map.png": {400, 300}, "west.png": {500, 400}})
	_, err := ReadModule(t.Context(), path, "")
	var choice *BoardChoiceError
	if !errors.As(err, &choice) || len(choice.Boards) != 2 {
		t.Fatalf("a module of two boards with a grid, none named: %v", err)
	}
	for _, want := range []string{"has 2 boards with a hex grid; choose one with --board NAME:",
		`--board Map  (map "Main Map"): 400×300 pixels, a hex grid of `, "117 hexes (0100 to 1309), 30 × 34 pixels a hex",
		`--board West  (map "Main Map"): 500×400 pixels, a hex grid of `, "108 hexes (0101 to 1209), 40 × 46 pixels a hex"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal lacks %q:\n%v", want, err)
		}
	}
	if _, err := ReadModule(t.Context(), path, "East"); !errors.As(err, &choice) || !strings.Contains(err.Error(), `no board "East"`) {
		t.Errorf("a board the module has not: %v", err)
	}
	mod, err := ReadModule(t.Context(), path, "West")
	if err != nil {
		t.Fatal(err)
	}
	if mod.Scan.Width != 500 || mod.Scan.Height != 400 || mod.Board != "Main Map: West" {
		t.Fatalf("--board West gives board %s, %dx%d", mod.Board, mod.Scan.Width, mod.Scan.Height)
	}
	if g := mod.Grid; g == nil || g.First != "0101" || g.Last != "1209" || g.Up != "even" || g.Orientation != "flat-top" {
		t.Fatalf("the board's grid: %+v", mod.Grid)
	}
	s, err := New(Config{Game: pcs1995.Game, MapPath: filepath.Join(t.TempDir(), "map.toml"), Scan: mod.Scan, Hexes: mod.Hexes, NewGrid: mod.Grid})
	if err != nil {
		t.Fatal(err)
	}
	geo, err := s.doc.Hex.geometry("map.toml")
	if err != nil {
		t.Fatal(err)
	}
	if matched := alignedOn(t, s, mod); matched != len(mod.Hexes) || matched < len(geo.Hexes)*9/10 {
		t.Errorf("%d of the map's %d hexes are the module's (it names %d)", matched, len(geo.Hexes), len(mod.Hexes))
	}
}

// TestParseSize: a new map's size, as columns by rows from 0101 or as
// its first and last hex, is the grid the new map is written with.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]GridSpec{
		"33x22":         {Orientation: "flat-top", IDs: "CCRR", First: "0101", Last: "3322"},
		"1000..4039":    {Orientation: "flat-top", IDs: "CCRR", First: "1000", Last: "4039"},
		"01.01..60.40":  {Orientation: "flat-top", IDs: "CC.RR", First: "01.01", Last: "60.40"},
		"01.01..120.80": {Orientation: "flat-top", IDs: "CC.RR", First: "01.01", Last: "120.80"},
	} {
		g, err := ParseSize(in)
		if err != nil || *g != want {
			t.Errorf("%s: %+v, %v; want %+v", in, g, err, want)
		}
	}
	for _, in := range []string{"", "x", "0x5", "5x", "100x10", "4039..1000", "10a0..4039", "1x1x1"} {
		if g, err := ParseSize(in); err == nil {
			t.Errorf("%q: %+v accepted", in, g)
		}
	}
	// a new map of the size given is what the editor writes and the judge reads
	g, _ := ParseSize("1000..4039")
	s, err := New(Config{Game: rulesOf["wbt"], MapPath: filepath.Join(t.TempDir(), "new.toml"), NewGrid: g})
	if err != nil {
		t.Fatal(err)
	}
	geo, err := s.doc.Hex.geometry("new.toml")
	if err != nil || len(geo.Hexes) != 31*40 {
		t.Errorf("a new 1000..4039 map: %v, %d hexes", err, len(geo.Hexes))
	}
	if _, err := New(Config{Game: rulesOf["bu"], MapPath: filepath.Join(t.TempDir(), "new.toml"), NewGrid: g}); err == nil ||
		!strings.Contains(err.Error(), "a size is for a new hex map") {
		t.Errorf("a size for B&U's network: %v", err)
	}
}

// TestCommentsKept: a game master's map file with comments (its leading
// block, a line before [grid], before a terrain's and a place's table,
// one inside a table, one after the last; after a value on its line, on
// a table's header line and in a value written on several lines) is
// saved with every comment, each line before the table it stood before,
// each comment after a value after the same value; the comments of a
// table the game master removed are kept at the end after a note; a
// second save writes the same text, and the judge reads the saved file.
func TestCommentsKept(t *testing.T) {
	data, err := os.ReadFile("../../../adjudicator/games/wbt/scenarios/demo-map.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, r := range [][2]string{
		{"[grid]\n", "# grid: as printed on the map's edge\n[grid]\n"},
		{"[[terrain]]\nkind = \"hills\"\n", "# hills: traced from the scan, sheet 2\n\n[[terrain]]\nkind = \"hills\"\n# the hills' hexes checked twice\n"},
		{"[[terrain]]\nkind = \"marsh\"\n", "# the one marsh hex (10.10)\n[[terrain]]\nkind = \"marsh\"\n"},
		{"hexes = [\"1006\"]\n", "hexes = [\"1006\"] # the only one\n"},
		{"title = \"War by Television demo map\"\n", "title = \"War by Television demo map\" # working title\n"},
		{"orientation = \"flat-top\"\n", "orientation = \"flat-top\" # as the scan\n"},
		{"[[terrain]]\nkind = \"forest\"\n", "[[terrain]] # woods\nkind = \"forest\" # checked against the scan\n"},
		{"hexes = [\"1030\", ", "hexes = [ # the west edge\n  \"1030\", # the corner\n  "},
	} {
		if !strings.Contains(text, r[0]) {
			t.Fatalf("the demo map has no %q", r[0])
		}
		text = strings.Replace(text, r[0], r[1], 1)
	}
	text += "\n# end of the map: roads still to check\n"
	mp := filepath.Join(t.TempDir(), "map.toml")
	if err := os.WriteFile(mp, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Game: wbt.Game, MapPath: mp})
	if err != nil {
		t.Fatal(err)
	}
	doc := *s.doc
	hex := *doc.Hex
	hex.Terrain = map[string]string{}
	for k, v := range doc.Hex.Terrain {
		if v != "marsh" {
			hex.Terrain[k] = v // the marsh painted clear
		}
	}
	doc.Hex = &hex
	post(t, s, "/api/save", &doc, http.StatusOK)
	saved, _ := os.ReadFile(mp)
	for _, want := range []string{
		"# War by Television: Kosovo 1999 -- DEMO MAP (STAND-IN DATA)\n",
		"# grid: as printed on the map's edge\n[grid]\n",
		"# hills: traced from the scan, sheet 2\n# the hills' hexes checked twice\n[[terrain]]\nkind = \"hills\"\n",
		"# end of the map: roads still to check\n",
		"# umpire edit: kept from [[terrain]] kind \"marsh\" (no longer in the file):\n# the one marsh hex (10.10)\n",
		"# umpire edit: kept from the line of hexes in [[terrain]] kind \"marsh\" (no longer in the file):\n# the only one\n",
		"title = \"War by Television demo map\" # working title\n",
		"[grid]\norientation = \"flat-top\" # as the scan\n",
		"[[terrain]] # woods\nkind = \"forest\" # checked against the scan\n",
		"[[terrain]]\nkind = \"mountain\"\nhexes = [\"1030\", ",
		"\"3334\"] # the west edge # the corner\n",
	} {
		if !strings.Contains(string(saved), want) {
			t.Errorf("the saved map lacks %q:\n%s", want, saved)
		}
	}
	if strings.Contains(string(saved), "kind = \"marsh\"") {
		t.Error("the marsh painted clear is still written")
	}
	if _, err := wbt.Game.New("", map[string]string{"map": string(saved)}); err != nil {
		t.Errorf("create refuses the saved map: %v", err)
	}
	s2, err := New(Config{Game: wbt.Game, MapPath: mp})
	if err != nil {
		t.Fatal(err)
	}
	if again := s2.check(s2.doc); again.MapText != string(saved) {
		t.Errorf("a second save changes the file:\n%s", again.MapText)
	}
}
