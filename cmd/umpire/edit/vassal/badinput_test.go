package vassal

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// board is a Board element with an image and a hex grid of the given
// attributes.
func board(image, grid string) string {
	return `<VASSAL.build.module.map.boardPicker.Board image="` + image + `" name="Main">
  <VASSAL.build.module.map.boardPicker.board.HexGrid ` + grid + `/>
</VASSAL.build.module.map.boardPicker.Board>`
}

// TestReadRefuses gives Read each bad input of issue 33 ("a VASSAL
// module that is not a zip, has no board, or holds a zip bomb, a grid
// that does not fit", and the images and buildFiles that go with them)
// and checks that each is refused with its kind and a message that says
// what is wrong, within small limits.
func TestReadRefuses(t *testing.T) {
	lim := DefaultLimits()
	lim.EntryBytes = 1 << 20
	lim.TotalBytes = 2 << 20
	lim.BuildFileBytes = 64 << 10
	goodGrid := `dx="54.0" dy="62.5" x0="27" y0="31"`
	modules := func(tb testing.TB, buildFile string, images ...entry) []byte {
		return moduleZip(tb, append([]entry{{name: "buildFile.xml", data: buildFileXML(buildFile)}}, images...)...)
	}
	mapPNG := func(tb testing.TB) entry { return entry{name: "images/map.png", data: pngOf(tb, 320, 280)} }
	zeros := func(n int) []byte { return make([]byte, n) }
	laughs := `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<VASSAL.build.GameModule name="&lol3;"/>`

	for _, c := range []struct {
		name string
		data func(testing.TB) []byte
		kind error
		msg  string
		also error // a further kind the error holds
	}{
		{"not a zip", func(testing.TB) []byte { return []byte("This is a scan, not a module.\n") },
			ErrNotModule, "the file is not a zip archive, as a VASSAL module (.vmod) is", nil},
		{"no buildFile", func(tb testing.TB) []byte { return moduleZip(tb, mapPNG(tb)) },
			ErrNotModule, "the zip archive holds no buildFile.xml (nor buildFile): it is not a VASSAL module", nil},
		{"an extension", func(tb testing.TB) []byte {
			return moduleZip(tb, entry{name: "buildFile.xml", data: []byte(`<VASSAL.build.module.ModuleExtension module="Test" version="1"/>`)})
		}, ErrNotModule, "the file is a VASSAL module extension, not a module", nil},
		{"no board", func(tb testing.TB) []byte { return modules(tb, "", mapPNG(tb)) },
			ErrNoBoard, "the module has no board (no VASSAL.build.module.map.boardPicker.Board in its buildFile)", nil},
		{"board without image", func(tb testing.TB) []byte {
			return modules(tb, mapXML("Main Map", `<VASSAL.build.module.map.boardPicker.Board color="255,255,255" height="400" name="Main" width="400"/>`))
		}, ErrNoBoard, `the module has no board to import: board "Main" of map "Main Map": it has no image (a plain-colour board), so there is nothing to align`, nil},
		{"image missing", func(tb testing.TB) []byte { return modules(tb, mapXML("Main Map", board("map.png", goodGrid))) },
			ErrNoBoard, "its image images/map.png is not in the module", nil},
		{"image not an image", func(tb testing.TB) []byte {
			return modules(tb, mapXML("Main Map", board("map.png", goodGrid)), entry{name: "images/map.png", data: []byte("<svg/>")})
		}, ErrNoBoard, "its image images/map.png is not a PNG, JPEG or GIF image", ErrNotImage},
		{"image of 20,000 × 20,000 pixels", func(tb testing.TB) []byte {
			return modules(tb, mapXML("Main Map", board("map.png", goodGrid)), entry{name: "images/map.png", data: pngHeader(20000, 20000)})
		}, ErrNoBoard, "its image images/map.png is a png image of 20,000 × 20,000 pixels, over the limit of 100,000,000 pixels (and 32,768 a side)", ErrTooLarge},
		{"image name out of images/", func(tb testing.TB) []byte {
			return modules(tb, mapXML("Main Map", board("../buildFile.xml", goodGrid)))
		}, ErrNoBoard, `its image name "../buildFile.xml" is not a file name under images/`, nil},
		{"zip bomb entry, its header honest", func(tb testing.TB) []byte {
			return modules(tb, mapXML("Main Map", board("map.png", goodGrid)), entry{name: "images/map.png", data: zeros(8 << 20)})
		}, ErrNoBoard, "the module's entry images/map.png is 8 MiB, over the limit of 1 MiB", ErrTooLarge},
		{"zip bomb entry, its header lying", func(tb testing.TB) []byte {
			return modules(tb, mapXML("Main Map", board("map.png", goodGrid)), entry{name: "images/map.png", data: zeros(8 << 20), claim: 1000})
		}, ErrNoBoard, "the module's entry images/map.png inflates to more than the 1000 bytes its zip header says (a zip bomb, or a damaged module)", ErrTooLarge},
		{"total-size bomb", func(tb testing.TB) []byte {
			return modules(tb, mapXML("Main Map", board("a.png", goodGrid)+board("b.png", goodGrid)+board("c.png", goodGrid)),
				entry{name: "images/a.png", data: zeros(900 << 10)}, entry{name: "images/b.png", data: zeros(900 << 10)},
				entry{name: "images/c.png", data: zeros(900 << 10)})
		}, ErrTooLarge, "the module's entries inflate to more than 2 MiB in all (a zip bomb?)", nil},
		{"buildFile bomb", func(tb testing.TB) []byte {
			return moduleZip(tb, entry{name: "buildFile.xml", data: append([]byte("<VASSAL.build.GameModule>"), bytes.Repeat([]byte("<a/>"), 1<<20)...), claim: 100})
		}, ErrTooLarge, "the module's entry buildFile.xml inflates to more than the 100 bytes its zip header says", nil},
		{"XML bomb (entities)", func(tb testing.TB) []byte {
			return moduleZip(tb, entry{name: "buildFile.xml", data: []byte(laughs)})
		}, ErrBadBuildFile, "the module's buildFile.xml is not well-formed XML (line 3)", nil},
		{"deep nesting", func(tb testing.TB) []byte {
			return moduleZip(tb, entry{name: "buildFile.xml", data: []byte("<VASSAL.build.GameModule>" + strings.Repeat("<a>", 5000) + strings.Repeat("</a>", 5000) + "</VASSAL.build.GameModule>")})
		}, ErrBadBuildFile, "the module's buildFile.xml nests elements deeper than 100 (line 1)", nil},
		{"not a module's buildFile", func(tb testing.TB) []byte {
			return moduleZip(tb, entry{name: "buildFile.xml", data: []byte(`<html/>`)})
		}, ErrNotModule, "the module's buildFile.xml is not a VASSAL module's (its root element is html, not VASSAL.build.GameModule)", nil},
		{"a grid's number VASSAL cannot read", func(tb testing.TB) []byte {
			return modules(tb, mapXML("Main Map", board("map.png", `dx="wide"`)), mapPNG(tb))
		}, ErrBadBuildFile, `the module's buildFile.xml line 8: HexGrid attribute dx="wide" is not a number`, nil},
		{"a numbering's leading zeros beyond reason", func(tb testing.TB) []byte {
			return modules(tb, mapXML("Main Map", `<VASSAL.build.module.map.boardPicker.Board image="map.png" name="Main">
<VASSAL.build.module.map.boardPicker.board.HexGrid><VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering hLeading="1000000"/></VASSAL.build.module.map.boardPicker.board.HexGrid>
</VASSAL.build.module.map.boardPicker.Board>`), mapPNG(tb))
		}, ErrBadBuildFile, `HexGridNumbering attribute hLeading="1000000" is beyond ±10`, nil},
		{"duplicate entries", func(tb testing.TB) []byte {
			return moduleZip(tb, entry{name: "buildFile.xml", data: buildFileXML("")}, entry{name: "buildFile.xml", data: buildFileXML("")})
		}, ErrNotModule, "the module holds two entries named buildFile.xml", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := c.data(t)
			m, err := Read(context.Background(), bytes.NewReader(data), int64(len(data)), lim)
			if err == nil {
				t.Fatalf("read, boards %+v notes %q", m.Boards, m.Notes)
			}
			if !errors.Is(err, c.kind) || (c.also != nil && !errors.Is(err, c.also)) {
				t.Errorf("error %q is not %v (and %v)", err, c.kind, c.also)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q\ndoes not say %q", err, c.msg)
			}
		})
	}
}

// TestReadLimits checks the bounds on the module as a whole: its size,
// and the entries its zip lists.
func TestReadLimits(t *testing.T) {
	data := testModule(t)
	lim := DefaultLimits()
	lim.ModuleBytes = 1000
	_, err := Read(context.Background(), bytes.NewReader(data), int64(len(data)), lim)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over the limit of 1000 bytes") {
		t.Errorf("a module over ModuleBytes: %v", err)
	}
	lim = DefaultLimits()
	lim.Entries = 3
	_, err = Read(context.Background(), bytes.NewReader(data), int64(len(data)), lim)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the module claims 5 entries, over the limit of 3") {
		t.Errorf("a module over Entries: %v", err)
	}
	lim = DefaultLimits()
	lim.DirectoryBytes = 100
	_, err = Read(context.Background(), bytes.NewReader(data), int64(len(data)), lim)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the module's list of entries is larger than") {
		t.Errorf("a module over DirectoryBytes: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err = Read(ctx, bytes.NewReader(data), int64(len(data)), DefaultLimits()); !errors.Is(err, context.Canceled) {
		t.Errorf("a module read after its context ended: %v", err)
	}
}

// TestReadGridsThatDoNotFit checks that a board whose grid does not fit
// its image is imported without the grid, with a note that says why: the
// game master fits the grid by hand over the image.
func TestReadGridsThatDoNotFit(t *testing.T) {
	for _, c := range []struct{ grid, note string }{
		{`dx="0" dy="62.5"`, "its hex grid was left out: its dx 0 is not more than 0; fit the grid by hand"},
		{`dx="54.0" dy="-5"`, "its dy -5 is not more than 0"},
		{`dx="54.0" dy="NaN"`, "its dy NaN is not more than 0"},
		{`dx="0.25" dy="0.5"`, "its dx 0.25 is less than a pixel"},
		{`dx="400" dy="62.5"`, "its dx 400 is more than the 320 pixels its image measures across"},
		// Sideways, dx runs down the image's 280 pixels: the grid fits.
		{`dx="54" dy="62.5" sideways="true"`, ""},
		{`dx="1" dy="1"`, "it would make some 89,600 hexes, over the limit of 50,000"},
	} {
		data := moduleZip(t, entry{name: "buildFile.xml", data: buildFileXML(mapXML("Main Map", board("map.png", c.grid)))},
			entry{name: "images/map.png", data: pngOf(t, 320, 280)})
		lim := DefaultLimits()
		lim.Hexes = 50_000
		m, err := Read(context.Background(), bytes.NewReader(data), int64(len(data)), lim)
		if err != nil {
			t.Fatalf("grid %s: %v", c.grid, err)
		}
		if len(m.Boards) != 1 {
			t.Fatalf("grid %s: boards %+v", c.grid, m.Boards)
		}
		if c.note == "" {
			if m.Boards[0].Hex == nil || len(m.Notes) != 0 {
				t.Errorf("grid %s fits, yet: %q", c.grid, m.Notes)
			}
			continue
		}
		if m.Boards[0].Hex != nil || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], c.note) {
			t.Errorf("grid %s: hex %+v, notes %q, want a note saying %q", c.grid, m.Boards[0].Hex, m.Notes, c.note)
		}
	}
}

// TestCheckImage gives CheckImage the scans of issue 33: an image, a file
// that is not one, and the header of a 20,000 × 20,000 PNG, refused
// before anything is decoded.
func TestCheckImage(t *testing.T) {
	lim := DefaultLimits()
	if f, w, h, err := CheckImage(pngOf(t, 30, 20), lim); err != nil || f != "png" || w != 30 || h != 20 {
		t.Errorf("a PNG: %s %d × %d, %v", f, w, h, err)
	}
	_, _, _, err := CheckImage([]byte("%PDF-1.7\n"), lim)
	if !errors.Is(err, ErrNotImage) || !strings.HasPrefix(err.Error(), "not a PNG, JPEG or GIF image") {
		t.Errorf("a PDF: %v", err)
	}
	_, _, _, err = CheckImage(pngHeader(20000, 20000), lim)
	if !errors.Is(err, ErrTooLarge) || err.Error() != "a png image of 20,000 × 20,000 pixels, over the limit of 100,000,000 pixels (and 32,768 a side); scan at a lower resolution" {
		t.Errorf("a 20,000 × 20,000 PNG: %v", err)
	}
	_, _, _, err = CheckImage(pngHeader(40000, 10), lim)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("a PNG 40,000 pixels wide: %v", err)
	}
}
