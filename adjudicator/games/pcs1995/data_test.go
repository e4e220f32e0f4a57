package pcs1995

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// TestBadDataFiles gives New a game master's files with one mistake each,
// as a game created by mail does (the file's text in the option): each is
// refused with the option, the line and the field, and says what is
// wanted.
func TestBadDataFiles(t *testing.T) {
	t.Parallel()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "game", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	files := map[string]string{"map": read("test-map.toml"), "counters": read("test-counters.toml"), "chits": read("test-chits.toml")}
	tests := []struct {
		name, option, from, to string
		field, want            string // the field named, and words of the message
		noLine                 bool   // the field is missing: no line to name
	}{
		{"terrain kind", "map", `kind = "mountain"`, `kind = "forest"`, "terrain.kind", `"forest": want clear, mountain or sea`, false},
		{"country", "map", `name = "Montenegro"`, `name = "Albania"`, "area.name", `unknown country "Albania"`, false},
		{"hexside kind", "map", `kind = "ridge"`, `kind = "canal"`, "hexsides[0].kind", "want river or ridge", false},
		{"place kind", "map", `kind = "capital"`, `kind = "town"`, "place.kind", `"town" at 1904: want city or capital`, false},
		{"two-digit ids", "map", `ids = "CCRR"`, `ids = "CC.RR"`, "grid.first", `hex id "1001": want column.row`, true},
		{"west edge", "map", `west_edge = ["1001..1019"]`, ``, "sets.west_edge", "missing: the Italian west map edge hexes", true},
		{"west edge in Italy", "map", `west_edge = ["1001..1019"]`, `west_edge = ["2001"]`, "sets.west_edge", "2001 is not in Italy", false},
		{"port city", "map", `port = ["1206", "2419"]`, `port = ["1206", "2418"]`, "sets.port", "2418 is not a city", false},
		{"Belgrade a source", "map", `rs_supply = ["3507", "3305", "3911"]`, `rs_supply = ["3305", "3911"]`, "sets.rs_supply", "must list Beograd", false},
		{"an entry hex", "map", "[[place]]\nhex = \"1812\"\nkind = \"city\"\nname = \"Zadar\"\n", "", "place", "no city at 1812: 5.0 names Zadar 1812 an entry hex", true},
		{"Pristina", "map", `name = "Pristina"`, `name = "Prishtina"`, "place", `no place named "Pristina"`, true},
		{"a TOML error", "map", `[grid]`, `[grid`, "", "", false},
		{"UQR", "counters", `uqr = "[B]"`, `uqr = "E"`, "unit[2].uqr", `"E": want A, B, C or D, or bracketed like [B]`, false},
		{"side", "counters", `side = "RS"`, `side = "Serbia"`, "unit[17].side", `"Serbia": want NATO or RS`, false},
		{"nationality", "counters", `nationality = "Slovenian"`, `nationality = "Austrian"`, "unit[11].nationality", `"Austrian": want one of`, false},
		{"MA", "counters", `ma = "A"`, `ma = "B"`, "unit[9].ma", `"B": want a number of MP, or "A" for an airmobile unit`, false},
		{"movement", "counters", `movement = "motor"`, `movement = "wheels"`, "unit[8].movement", `"wheels": want foot, mech or motor`, false},
		{"a contingent on the map", "counters", "movement = \"mech\"\nreinforcement = \"German\"", "movement = \"mech\"\nhex = \"1206\"", "unit[12].reinforcement", "German units arrive as reinforcements", false},
		{"air ER", "counters", "er = 4\nreduced = 2\n\n[[air]]\nid = \"NF2\"", "er = 9\nreduced = 2\n\n[[air]]\nid = \"NF2\"", "air[0].er", "9: want an ER of 1 to 8", false},
		{"air type", "counters", `type = "F"`, `type = "B"`, "air[0].type", `"B": want F (fighter) or G (ground support)`, false},
		{"unknown field", "counters", `notice = "test counters"`, "notice = \"test counters\"\ncolour = \"red\"", "colour", "unknown field", false},
		{"chit letter", "chits", `front = { A = 3, B = 3, C = 3, D = 3 }`, `front = { A = 3, B = 3, C = 3 }`, "chit[2].front", "letter D is missing", false},
		{"chit value", "chits", `back = { A = 4, B = 4, C = 4, D = 4 }`, `back = { A = 4, B = 4, C = 25, D = 4 }`, "chit[3].back", "C = 25: want a CS of 0 to 20", false},
		{"chit twice", "chits", `id = "08"`, `id = "07"`, "chit[7].id", "chit 07 is listed twice", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(files[tt.option], tt.from) {
				t.Fatalf("the %s file has no %q", tt.option, tt.from)
			}
			text := strings.Replace(files[tt.option], tt.from, tt.to, 1)
			options := map[string]string{}
			for k, v := range files {
				options[k] = v
			}
			options[tt.option] = text
			_, err := Game.New("demo", options)
			var fe *datafile.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a FileError", err)
			}
			if fe.File != "option "+tt.option {
				t.Errorf("file %q, want option %s", fe.File, tt.option)
			}
			if tt.to != "" && !tt.noLine {
				// the line the mistake is on: the first line of the
				// replacement, or the next for a TOML syntax error
				at := strings.Index(files[tt.option], tt.from)
				want := strings.Count(files[tt.option][:at], "\n") + 1
				if tt.field == "" {
					want++
				}
				switch tt.name {
				case "unknown field":
					want++ // the field named is on the second line of the replacement
				case "a contingent on the map":
					want = strings.Count(files[tt.option][:strings.Index(files[tt.option], `id = "DE-1"`)], "\n") // the unit's [[unit]] line: its field is missing
				}
				if fe.Line != want {
					t.Errorf("line %d, want %d: %v", fe.Line, want, err)
				}
			}
			if fe.Field != tt.field || !strings.Contains(fe.Err, tt.want) {
				t.Errorf("got %v\nwant field %q saying %q", err, tt.field, tt.want)
			}
		})
	}
}

// TestDataFromOptions loads a game master's files from the options' text,
// as a game created by mail gives them, and keeps them in the state: the
// game reads them back, and its reports say the data are not stand-ins
// when the files say so.
func TestDataFromOptions(t *testing.T) {
	t.Parallel()
	m, _ := os.ReadFile(filepath.Join("testdata", "game", "test-map.toml"))
	c, _ := os.ReadFile(filepath.Join("testdata", "game", "test-counters.toml"))
	text := strings.Replace(string(m), "stand_in = true", "stand_in = false", 1)
	state, err := Game.New("demo", map[string]string{"map": text, "counters": string(c)})
	if err != nil {
		t.Fatal(err)
	}
	g, err := decode(state)
	if err != nil {
		t.Fatal(err)
	}
	if g.Data.MapName != "option map" || g.Data.Map != text || g.Data.ChitsName != "demo-chits.toml" {
		t.Errorf("data %q %q", g.Data.MapName, g.Data.ChitsName)
	}
	// the same files by path (the operator's way) give the same game
	byPath, err := Game.New("demo", map[string]string{"map": filepath.Join("testdata", "game", "test-map.toml"), "counters": filepath.Join("testdata", "game", "test-counters.toml")})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := decode(byPath); len(p.Units) != len(g.Units) || p.Data.Counters != g.Data.Counters {
		t.Error("the files by path differ from their text")
	}
	if got := strings.Join(Game.(adjudicator.FileOptions).FileOptions(), " "); got != "map counters chits" {
		t.Errorf("file options %q: a game created by mail must give these files' text", got)
	}
	sit, err := Game.(adjudicator.Reporter).Situation(state, seatNATO)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(sit.Notices, "; ")
	if strings.Contains(notes, "test map") || !strings.Contains(notes, "test counters") || !strings.Contains(notes, "stand-in chits") {
		t.Errorf("notices %q", notes)
	}
}

// TestDemoData checks the demo files: the stand-in notices are on every
// report, the 8.1.4 chit values are in the cup, and the demo set-up keeps
// 12.0.
func TestDemoData(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(state)
	if len(g.sc.Notices) != 3 {
		t.Errorf("notices %q", g.sc.Notices)
	}
	c6, b2 := false, false
	for _, ch := range g.sc.Chits {
		c6 = c6 || ch.Front[2] == 6 || ch.Back[2] == 6
		b2 = b2 || ch.Front[1] == 2 || ch.Back[1] == 2
	}
	if !c6 || !b2 {
		t.Error("the demo chits lack the 8.1.4 example's C 6 or B 2")
	}
	srpska := map[int]int{}
	for _, u := range g.Units {
		if !u.onMap() {
			continue
		}
		if why := g.setupBar(u.c, u.pos); why != "" {
			t.Errorf("demo set-up: %s in %s: %s", u.ID, u.Hex, why)
		}
		if t := g.sc.srpska[u.pos]; t > 0 && u.c.Nationality == "Serbian" {
			srpska[t]++
		}
	}
	if srpska[1] > 2 || srpska[2] > 2 {
		t.Errorf("Serbian units in the Srpska territories: %v", srpska)
	}
	if g.VP != 7 {
		t.Errorf("VP %d, want 7 (11.0)", g.VP)
	}
}

// TestDataRefusalsNameTheirFile: a refusal of a game master's map names
// the map file as it was given and the line to change, also where the
// mistake shows only against the embedded demo counters the map was
// checked with (issue 27), and for the countries (the [[area]] hexes).
func TestDataRefusalsNameTheirFile(t *testing.T) {
	t.Parallel()
	base, err := os.ReadFile(filepath.Join("testdata", "game", "test-map.toml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, from, to string
		line           string // the line of the map the refusal must name
		field, want    string
	}{
		{"a demo counter's set-up hex made sea", "", "\n[[terrain]]\nkind = \"sea\"\nhexes = [\"1506\"]\n", `hexes = ["1506"]`,
			"terrain[2].hexes", "hex 1506, where the demo counters set up"},
		{"a demo counter's set-up hex in no country", `hexes = ["1306..2419", "1901..3005", "2517..3019"]`, `hexes = ["1307..2419", "1901..3005", "2517..3019"]`, `name = "Italy"`,
			"area", "hex 1506, where the demo counters set up"},
		{"Trieste outside Italy", "", "\n[[area]]\nname = \"Slovenia\"\nhexes = [\"1206\"]\n", `hexes = ["1206"]`,
			"area[6].hexes", "Trieste (1206) must be in Italy (5.1.2), not in Slovenia"},
		{"an entry hex made sea", "", "\n[[terrain]]\nkind = \"sea\"\nhexes = [\"1812\"]\n", `hexes = ["1812"]`,
			"terrain[2].hexes", "1812 (Zadar) is sea"},
		{"an entry hex in no country", `name = "Croatia"` + "\nhexes = [\"1306..2419\", ", `name = "Croatia"` + "\nhexes = [\"1306..1711\", \"1813..2419\", ", `hex = "1812"`,
			"place[2].hex", "1812 (Zadar) is in no country's [[area]]"},
		{"a river and a ridge", "", "\n[[hexsides]]\nkind = \"river\"\nsides = [\"2212/2312\"]\n", `sides = ["2212/2312"]`,
			"hexsides[2].sides", "2212/2312 is both a river and a ridge hexside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := string(base) + tt.to
			if tt.from != "" {
				if !strings.Contains(string(base), tt.from) {
					t.Fatalf("the test map has no %q", tt.from)
				}
				text = strings.Replace(string(base), tt.from, tt.to, 1)
			}
			for _, opt := range []struct{ value, name string }{{text, "option map"}, {writeTemp(t, text), ""}} {
				_, err := Game.New("demo", map[string]string{"map": opt.value})
				var fe *datafile.FileError
				if !errors.As(err, &fe) {
					t.Fatalf("error %v, want a FileError", err)
				}
				want := opt.name
				if want == "" {
					want = opt.value // a path is named as the game master gave it
				}
				if fe.File != want {
					t.Errorf("file %q, want %q: %v", fe.File, want, err)
				}
				at := strings.Index(text, tt.line)
				if at < 0 {
					t.Fatalf("no %q in the map", tt.line)
				}
				if line := strings.Count(text[:at], "\n") + 1; fe.Line != line {
					t.Errorf("line %d, want %d: %v", fe.Line, line, err)
				}
				if fe.Field != tt.field || !strings.Contains(fe.Err, tt.want) {
					t.Errorf("got %v\nwant field %q saying %q", err, tt.field, tt.want)
				}
			}
		})
	}
}

func writeTemp(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gm-map.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
